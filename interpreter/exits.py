"""Exits: units stepping off the map by an ``exit`` declaration, during ``do move`` or ``move force``.

An ``exit NAME { side …; units …; from …; cost N; to BOX }`` lets a unit its ``side`` and
``units`` name leave the map from a cell on the map edges (or with the selectors) it names, when it
can reach such a cell (or stands in one) with at least ``cost`` movement points left.  Its owner
chooses ``exit UNIT NAME`` among its moves (``interpreter.procedures.move``); the unit walks to the
exit cell it reaches with the most points left (the lowest id among equals), as any move walks,
and if nothing stops it on the way it steps off: it goes to the box, and scores the awards ``on
exited`` of it.  A dummy that exits is removed, and scores nothing.

An operation's ``move force`` offers a force ``exit NAME`` when every unit in it may take the exit
(``force_ways_off``): the force walks to the exit cell whose movers all keep the exit's cost, the
most points left by the poorest of them, and its units still in the force step off together.  Lint
E157 refuses an exit that neither a ``do move`` nor a ``move force`` could offer.

Limits: in ``do move`` a carrier (a type that ``carries`` units) moves
by its own legs there and is offered none, except under ``do move using CLASS``, where it moves, and
may exit, alone.
"""

from __future__ import annotations

from fractions import Fraction

from attrs import evolve

from ..dsl.compiled.movement import ExitRule
from . import movement
from .caches import map_memos
from .cells import cells_named
from .citations import because
from .context import Context
from .rules import Rules
from .state import Unit
from .situation import situation
from .tracing import on_edge
from .victory import award_for_loss


def exit_cells(ctx: Context, rule: ExitRule) -> frozenset[str]:
    """The cells a unit may step off the map from by ``rule`` (kept per rules and map)."""
    memo = map_memos(ctx.rules, ctx.board).exit_cells
    found = memo.get(rule.name)
    if found is None:
        board = ctx.board
        cells = {c for c in board.cells if on_edge(board, c, rule.edges)} if rule.edges else set()
        if rule.where:
            cells |= cells_named(ctx.rules, board, rule.where)
        found = memo[rule.name] = frozenset(cells)
    return found


def exits_for(rules: Rules, unit: Unit) -> tuple[ExitRule, ...]:
    """The exits ``unit`` may use: its side's (or any side's), naming it when they name units."""
    unit_type = rules.unit_type(unit.type)
    return tuple(rule for rule in rules.exits if rule.side in (None, unit.side)
                 and (not rule.who or unit_type.matches(rule.who) or unit_type.dummy))


def exit_cell(ctx: Context, rule: ExitRule, start: str, ends: dict[str, Fraction | None],
              left: Fraction | None, points_left) -> str | None:
    """Where ``rule`` lets the unit step off: the exit cell it reaches (or stands in) with the most
    points left, at least the exit's cost (``None`` points: no limit); ``None`` when there is none."""
    best: tuple[tuple[bool, Fraction], str] | None = None
    for cell in sorted(exit_cells(ctx, rule)):
        if cell == start:
            have = left
        elif cell in ends:
            have = points_left(cell)
        else:
            continue
        if have is not None and have < rule.cost:
            continue
        rank = (have is None, have or Fraction(0))  # no limit beats any number of points
        if best is None or rank > best[0]:
            best = (rank, cell)
    return best[1] if best else None


def force_ways_off(ctx: Context, force) -> dict[str, tuple[ExitRule, str]]:
    """The exits a force (``interpreter.forces.Force``, after ``destinations``) may take now, by name:
    each with its rule and the cell it steps off from.  Every unit of the force must be one the exit
    names; the cell is one the whole force may end in (or stands in), where each unit that moves by
    its own legs has at least the exit's cost left by its own search (the start: its whole
    allowance); among those, the one where the poorest of them has the most left, the lowest id
    among equals."""
    rules = ctx.rules
    movers = force.movers or force.joiners
    if not rules.exits or not movers:
        return {}
    named = None
    for unit in force.units:
        mine = set(exits_for(rules, unit))
        named = mine if named is None else named & mine
    if not named:
        return {}
    start = force.units[0].location
    ends = {c: None for c in force.destinations() if c not in force.raids}
    sit = situation(ctx, movers[0].side)
    reaches = {u.type: movement.search(ctx, u, sit=sit) for u in movers}.values()
    out = {}
    for rule in sorted(named, key=lambda r: r.name):
        best: tuple[tuple[bool, Fraction], str] | None = None
        for cell in sorted(exit_cells(ctx, rule)):
            if cell != start and cell not in ends:
                continue
            have = [r.points if cell == start else r.points_left(cell) for r in reaches]
            if any(h is not None and h < rule.cost for h in have):
                continue
            counted = [h for h in have if h is not None]
            rank = (not counted, min(counted) if counted else Fraction(0))  # no limit beats any number
            if best is None or rank > best[0]:
                best = (rank, cell)
        if best is not None:
            out[rule.name] = (rule, best[1])
    return out


def step_off(ctx: Context, unit: Unit, rule: ExitRule) -> None:
    """``unit`` (on the map) leaves it by ``rule``: to the exit's box, scoring ``on exited`` awards."""
    unit = ctx.state.unit(unit.id)
    box = rule.box
    ctx.update_unit(evolve(unit, location=box, mode=None, status=frozenset()))
    if unit.dummy:
        ctx.say(f"{unit.id} was a dummy and is removed as it exits at {unit.location}", kind="exit",
                unit=unit.id, cell=unit.location, dummy=True)
        return
    ctx.say(because(f"{ctx.label(unit)} exits the map at {unit.location}", rule.decl, None, rule.label),
            kind="exit", unit=unit.id, cell=unit.location, box=box, side=unit.side)
    award_for_loss(ctx, unit, "exited")
