"""The sequence of play, run: set-up, then each turn's phases in the rulebook's order.

Each ``do …`` line of a phase names a procedure; ``PROCEDURES`` maps the
procedure names of ``dsl.vocabulary`` to the generator functions that carry
them out.  A phase's ``do`` lines and nested steps run in the order they are
written.  ``for each side`` runs the phase once per side in player order,
``side first|second|NAME`` once for that side, ``mutual`` once with no acting
side (its procedures decide who acts).
"""

from __future__ import annotations

from typing import Callable

from attrs import evolve

from dsl.model import Declaration, Property
from interpreter.actions import Action
from interpreter.context import Context, Flow
from interpreter.state import Unit

Procedure = Callable[[Context, Property], Flow]
PROCEDURES: dict[str, Procedure] = {}


def procedure(name: str) -> Callable[[Procedure], Procedure]:
    """Register the generator that carries out ``do NAME …``."""

    def register(function: Procedure) -> Procedure:
        PROCEDURES[name] = function
        return function

    return register


def missing_procedures(rulebook) -> list[Property]:
    """``do`` lines this interpreter cannot carry out yet (reported before a game starts)."""
    _load_procedures()
    out = []
    for decl in rulebook.walk():
        if decl.kind in ("phase", "step"):
            out.extend(p for p in decl.all("do") if p.get("procedure") not in PROCEDURES)
    return out


def _load_procedures() -> None:
    import importlib
    import pkgutil

    import interpreter.procedures as package

    for module in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"interpreter.procedures.{module.name}")


def play(ctx: Context) -> Flow:
    """The whole game: set-up, every turn, then the result."""
    _load_procedures()
    from interpreter.victory import check_sudden_death, final_result

    yield from setup(ctx)
    sequence = ctx.rulebook.of_kind("sequence")
    phases = sequence[0].children if sequence else ()
    for turn in range(1, ctx.scenario.turns + 1):
        ctx.state = evolve(ctx.state, turn=turn)
        ctx.say(f"turn {turn}", kind="turn")
        for phase in phases:
            yield from run_phase(ctx, phase)
            if check_sudden_death(ctx):
                break
        if ctx.state.over:
            break
        _end_of_turn(ctx)
    final_result(ctx)
    ctx.state = evolve(ctx.state, over=True)


def _phase_sides(ctx: Context, decl: Declaration) -> list[str | None]:
    if decl.has("for"):
        return list(ctx.player_order)
    side = decl.first("side")
    if side is not None:
        if side.has("first"):
            return [ctx.player_order[0]]
        if side.has("second"):
            return [ctx.player_order[1]]
        return [str(side.get("side"))]
    return [ctx.acting] if decl.kind == "step" else [None]


def run_phase(ctx: Context, decl: Declaration) -> Flow:
    items = sorted([*decl.all("do"), *decl.children], key=lambda item: (item.span.line, item.span.column))
    for side in _phase_sides(ctx, decl):
        ctx.acting = side
        ctx.state = evolve(ctx.state, phase=decl.name)
        who = f" ({side})" if side else ""
        ctx.say(f"{decl.display}{who}", kind="phase", phase_name=decl.name, side=side)
        for item in items:
            if isinstance(item, Declaration):
                yield from run_phase(ctx, item)
                ctx.acting = side
            else:
                yield from PROCEDURES[item.get("procedure")](ctx, item)
            if ctx.state.over:
                return
        _clear_spent(ctx)


def _clear_spent(ctx: Context) -> None:
    """Phase flags (``moved``, ``attacked`` …) last one phase."""
    if any(u.spent for u in ctx.state.units):
        ctx.state = evolve(ctx.state, units=tuple(evolve(u, spent=frozenset()) if u.spent else u
                                                    for u in ctx.state.units))


def _end_of_turn(ctx: Context) -> None:
    """Orders, turn flags and turn modifiers last one turn (orders are declared each turn, as in the
    WATCH/PATROL phases)."""
    if ctx.state.turn_modifiers:
        ctx.state = evolve(ctx.state, turn_modifiers=())
    if any(u.mode or u.turn_flags for u in ctx.state.units):
        ctx.state = evolve(ctx.state, units=tuple(evolve(u, mode=None, turn_flags=frozenset())
                                                  if u.mode or u.turn_flags else u for u in ctx.state.units))


# --- set-up --------------------------------------------------------------------------------


def _short(ctx: Context, side: str) -> str:
    decl = ctx.rulebook.get("side", side)
    short = decl.first("short") if decl else None
    return str(short.get("name")) if short else side[:1].upper()


def setup(ctx: Context) -> Flow:
    """Place every unit of the scenario: fixed cells at once, zones by the owner's choice.

    Hidden sides' counters are numbered in a shuffled order (from the seed), so an id never
    tells the enemy which type a face-down counter is.
    """
    from interpreter.rng import choice_rng

    ctx.state = evolve(ctx.state, phase="setup",
                       resources=tuple(sorted((s, r, v) for s, r, v in _start_resources(ctx))))
    plan: list[tuple[str, str, str | None, object]] = []  # side, type, at, placement
    for placement in ctx.scenario.setup:
        for _ in range(placement.count):
            plan.append((placement.side, placement.unit, placement.at, placement))
    ids: dict[int, str] = {}
    for side in ctx.rules.sides:
        mine = [i for i, p in enumerate(plan) if p[0] == side]
        if _hides(ctx, side):
            choice_rng(ctx.seed, f"ids:{side}").shuffle(mine)
        width = len(str(len(mine)))
        for n, index in enumerate(mine, start=1):
            ids[index] = f"{_short(ctx, side)}{n:0{width}d}"
    for side in ctx.scenario.setup_order:
        ctx.acting = side
        for index, (owner, type_name, at, placement) in enumerate(plan):
            if owner != side:
                continue
            unit_type = ctx.rules.unit_type(type_name)
            unit = Unit(ids[index], type_name, side, at or "offmap", hidden=_hides(ctx, side),
                        dummy=unit_type.dummy)
            if at is None:
                cells = [c for c in ctx.board.cells if placement.zone.contains(ctx.board, c)
                         and _may_place(ctx, unit, c, placement.per_cell)]
                if not cells:
                    ctx.say(f"{unit.id} cannot be placed: no cell of its zone is free", kind="setup")
                    ctx.state = evolve(ctx.state, units=(*ctx.state.units, evolve(unit, location="offmap")))
                    continue
                action = yield from ctx.choose(side, "setup", f"place {unit.id} {unit_type.label}",
                                               [Action("place", (unit.id, c)) for c in cells])
                unit = evolve(unit, location=action.args[1])
            ctx.state = evolve(ctx.state, units=(*ctx.state.units, unit))
            ctx.say(f"{ctx.label(unit, side)} set up at {unit.location}", kind="setup", unit=unit.id,
                    cell=unit.location, side=side)
    ctx.state = evolve(ctx.state, units=tuple(sorted(ctx.state.units)))


def _start_resources(ctx: Context):
    declared = {(s, r): v for s, r, v in ctx.scenario.resources}
    for side in ctx.rules.sides:
        for resource in ctx.rulebook.of_kind("resource"):
            from fractions import Fraction

            yield side, resource.name, Fraction(declared.get((side, resource.name), 0))


def _hides(ctx: Context, side: str) -> bool:
    decl = ctx.rulebook.get("side", side)
    counters = decl.first("counters") if decl else None
    return bool(counters and counters.has("down"))


def _may_place(ctx: Context, unit: Unit, cell: str, per_cell: int | None) -> bool:
    """Set up only where the unit could be in play: enterable, no enemy, within stacking and the zone's limit."""
    from interpreter.movement import stacking_problem

    here = ctx.state.units_at(cell)
    if any(u.side != unit.side for u in here):
        return False
    if per_cell is not None and sum(1 for u in here if u.side == unit.side) >= per_cell:
        return False
    unit_type = ctx.rules.unit_type(unit.type)
    decl = ctx.rulebook.get(unit_type.kind, unit_type.name)
    if decl is not None and decl.has("one") and any(u.type == unit.type for u in here):
        return False  # a marker declared 'one per cell'
    if stacking_problem(ctx, unit.side, cell, [unit]) is not None:
        return False
    return ctx.rules.terrain_cost(ctx.board.terrain(cell), unit_type) is not None or unit_type.kind == "marker"
