"""Supply: ``do check supply [except WHO…] [by TRACE] paying ACTION else to BOX``.

``do check supply [except WHO…] [by TRACE] paying ACTION else to BOX``
    Every unit (not marker, not dummy) of the acting side on the map, except those ``except``
    names, must be in supply: its cell's terrain ``supplies`` its side, its side can trace the
    ``by`` trace from its cell (``interpreter.tracing``), or a counter in its cell
    has ``effect supply self`` (its own side; ``opponent``/``enemy`` for the others, ``both``
    for all).  A counter with ``effect supply … once`` supplies every unit in its cell and is
    then revealed and removed from play (to ``eliminated``, scoring nothing); it is used only
    when a unit other than itself needs it, and when counters of several types could be used the
    owner picks which.  Each unit still out of supply is then ``pay ID`` (the action's price) or
    ``send ID BOX`` (the owner's choice; ``send`` alone when the side cannot pay).  Being sent
    scores nothing: it is not a result of combat.
"""

from __future__ import annotations

from typing import NamedTuple

from attrs import evolve

from ...dsl.compiled.actions import ActionRule
from ...dsl.effects import Supply, Where
from ...dsl.compiled.calls import CheckSupply
from ..actions import Action
from ..condition_lines import effect_condition
from ..conditions import Scope, holds
from ..context import Context, Flow
from ..effects import Target, reads, sides_for
from . import procedure
from ..rules import Rules
from ..state import Unit
from ..tracing import traces
from .prices import can_pay, pay, paying_sides, price
from .strategic_readings import one_per_type, sections_of


@reads(Supply)
def _supplies(ctx: Context, source: Unit, side: str) -> tuple[bool, bool]:
    """(whether ``source`` supplies the side's units in its cell, whether it is used up doing so):
    its first ``supply ROLE [once]`` effect whose role names the side and whose condition holds."""
    if source.dummy or not source.on_map:
        return False, False
    unit_type = ctx.rules.unit_type(source.type)
    decl = ctx.rulebook.get(unit_type.kind, unit_type.name)
    for effect in ctx.rules.effects_of(unit_type):
        if not isinstance(effect, Supply):
            continue
        target = Target(Where.STANDING, decl, source.side, decl.display)
        if side in sides_for(ctx, effect.role, target) and \
                holds(ctx, effect_condition(effect), Scope(source.side, source.location, source)):
            return True, effect.once
    return False, False


def _terrain_supplies(ctx: Context, cell: str, side: str) -> bool:
    terrain = ctx.rules.terrains.get(ctx.board.terrain(cell))
    return terrain is not None and side in terrain.supplies


class SupplyAt(NamedTuple):
    """Where ``do check supply`` stands at an out-of-supply question, beside the state: the side,
    the cells of its units needing supply as it began, and the cell and unit asked about
    (``interpreter.checkpoint``'s ``progress``: the check started again asks about that unit)."""

    side: int
    needing: tuple[tuple[str, tuple[Unit, ...]], ...]
    cell: int
    unit: int

    def __call__(self) -> "SupplyAt":
        return self  # a value already: it is its own progress (``Context.choose``)


@procedure("check supply")
def check_supply(ctx: Context, call: CheckSupply) -> Flow:
    """Supply every unit of the acting side, or pay for it, or send it to the box (module docstring)."""
    action = ctx.rules.actions.get(call.action)
    box = call.box
    saved = ctx.take_progress(SupplyAt)
    sides = paying_sides(ctx, action)
    for number in range(saved.side if saved is not None else 0, len(sides)):
        side = sides[number]
        if saved is not None:  # started again at a checkpoint: at the unit asked there
            needing, first_cell, first_unit = saved.needing, saved.cell, saved.unit
        else:
            needing, first_cell, first_unit = _needing(ctx, side, call.exempt), 0, 0
        for index in range(first_cell, len(needing)):
            cell, units = needing[index]
            if saved is None and (yield from _supplied(ctx, call, side, cell, units)):
                continue
            saved = None
            for at in range(first_unit, len(units)):
                progress = SupplyAt(number, needing, index, at)
                yield from _out_of_supply(ctx, ctx.state.unit(units[at].id), action, box, call, progress)
            first_unit = 0


def _needing(ctx: Context, side: str, exempt) -> tuple[tuple[str, tuple[Unit, ...]], ...]:
    """The cells of ``side``'s units that need supply, in the order they are checked, each with its
    units in id order."""
    needing: dict[str, list[Unit]] = {}
    for unit in ctx.state.units:
        if unit.side != side or not unit.on_map or unit.dummy:
            continue
        unit_type = ctx.rules.unit_type(unit.type)
        if unit_type.kind != "unit" or Rules.unit_matches(unit_type, exempt):
            continue
        needing.setdefault(unit.location, []).append(unit)
    return tuple((cell, tuple(sorted(needing[cell]))) for cell in sorted(needing, key=lambda c: (len(c), c)))


def _supplied(ctx: Context, call: CheckSupply, side: str, cell: str, units: tuple[Unit, ...]) -> Flow:
    """Whether the units in ``cell`` are in supply: by its terrain, a trace, a lasting source, or
    a source used up (chosen by the side among several, and removed)."""
    if _terrain_supplies(ctx, cell, side):
        return True
    if call.trace is not None and traces(ctx, ctx.rules.traces[call.trace], side, cell):
        return True
    lasting, once = [], []
    for other in ctx.state.units_at(cell):
        supplies, used_up = _supplies(ctx, other, side)
        if supplies:
            (once if used_up else lasting).append(other)
    if lasting:
        return True
    usable = [s for s in one_per_type(once) if any(u.id != s.id for u in units)]
    if not usable:
        return False
    source = usable[0]
    if len(usable) > 1:
        choice = yield from ctx.choose(side, "supply source", f"supply the units in {cell} with",
                                       [Action("use", (s.id,)) for s in usable])
        source = ctx.state.unit(choice.args[0])
    used = evolve(source, location=ctx.rules.eliminated_box, hidden=False)
    ctx.update_unit(used)
    ctx.say(f"{ctx.label(used)} supplies the units in {cell} and is removed ({sections_of(call)})",
            kind="supply", unit=used.id, unit_type=used.type, cell=cell, side=side)
    return True


def _out_of_supply(ctx: Context, unit: Unit, action: ActionRule, box: str, call: CheckSupply,
                   progress: SupplyAt) -> Flow:
    cost = price(ctx, action, ctx.rules.unit_type(unit.type))
    options = [Action("send", (unit.id, box))]
    if can_pay(ctx, unit.side, cost):
        options.insert(0, Action("pay", (unit.id,)))
        choice = yield from ctx.choose(unit.side, "out of supply",
                                       f"{unit.id} {ctx.rules.unit_type(unit.type).label} in {unit.location} is out "
                                       f"of supply: pay {cost[1]} {cost[0]} or send it to the "
                                       f"{ctx.shown('box', box)}", options, resume=True, progress=progress)
    else:
        choice = options[0]
    if choice.kind == "pay":
        pay(ctx, unit.side, cost, f"{action.label}: {ctx.label(unit)}")
        ctx.say(f"{ctx.label(unit)} in {unit.location} is supplied for {cost[1]} {cost[0]}", kind="supply",
                unit=unit.id, side=unit.side, paid=True)
    else:
        ctx.update_unit(evolve(unit, location=box, mode=None))
        ctx.say(f"{ctx.label(unit)} in {unit.location} is out of supply and goes to the "
                f"{ctx.shown('box', box)} ({sections_of(call)})", kind="supply", unit=unit.id, side=unit.side,
                box=box, paid=False)
