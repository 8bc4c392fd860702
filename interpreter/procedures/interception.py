"""Interception: enemy units that may stop a moving force (``move force``) where it steps into
their zone.

``intercept`` says when a zone's ``intercepts WHO paying ACTION`` line applies and lets the zone's
owner choose and pay for the interceptors; ``move_interceptors_in`` then moves them into the
force's cell, where the force fights them.
"""

from __future__ import annotations

from fractions import Fraction

from attrs import evolve

from ...dsl.compiled.actions import ActionRule
from ...dsl.model import Declaration, Property
from ..actions import Action
from ..citations import cite
from ..context import Context, Flow
from ..forces import Force, action_price, can_afford, pay
from ..state import Unit
from ..zones import is_counter, zone_of, zone_rules


def intercept(ctx: Context, force: Force, previous: str, cell: str) -> Flow:
    """Enemy units that intercept the force stepping from ``previous`` into ``cell`` (or none).

    A zone with ``intercepts WHO paying ACTION`` is entered when the force (one of its units
    matching WHO) steps into a cell of the zone of some enemy unit whose zone did not already cover
    ``previous``.  Then the zone's owner may pick any of the units exerting it over ``cell``, paying
    ACTION for each (decision ``interception``: ``intercept ID``, then ``go``; or ``decline``).
    Never in a cell holding other units of the moving side: the battle is the force's, and they
    would be left sharing the cell with the interceptors when it ends.
    """
    mover = ctx.operation.side
    if any(u.side == mover and u not in force.units and is_counter(ctx.rules.unit_type(u.type))
           for u in ctx.state.units_at(cell)):
        return []  # not where other units of its side stand: they would share the cell outside the battle
    for zone in zone_rules(ctx.rules):
        line = zone.intercepts
        if line is None or not any(ctx.rules.unit_type(u.type).matches(line.who) for u in force.units):
            continue
        exerting = _exerting(ctx, mover, zone, cell)
        if not any(previous not in zone_of(ctx, u, zone) for u in exerting):
            continue
        action = ctx.rules.actions[line.action]
        for owner in dict.fromkeys(u.side for u in exerting):
            picked = yield from _choose_interceptors(ctx, zone.decl, line.source, action, owner,
                                                     [u for u in exerting if u.side == owner], cell)
            if picked:
                return picked
    return []


def _exerting(ctx: Context, mover: str, zone, cell: str) -> list[Unit]:
    """The enemy units (``is_movable``, no dummy) whose ``zone`` covers ``cell``, in ``units`` order:
    read from the state's index of units on the map (a force asks at every step of its path)."""
    movable = ctx.rules.force_types
    found = [u for side, units in ctx.state.units_on_map().items() if side != mover for u in units
             if not u.dummy and u.type in movable and cell in zone_of(ctx, u, zone)]
    if len({u.side for u in found}) > 1:  # (the index goes side by side: back into ``units`` order)
        chosen = set(found)
        found = [u for u in ctx.state.units if u in chosen]
    return found


def _choose_interceptors(ctx: Context, zone: Declaration, line: Property, action: ActionRule, side: str,
                         candidates: list[Unit], cell: str) -> Flow:
    """``side`` picks interceptors among ``candidates`` one at a time while it can pay for one more;
    returns them (paid for), or none when it declines."""
    picked: list[Unit] = []
    spent: tuple[str, Fraction] | None = None
    while True:
        options = [Action("go")] if picked else [Action("decline")]
        for unit in candidates:
            cost = action_price(ctx, action, ctx.rules.unit_type(unit.type).selectors)
            total = cost[1] + (spent[1] if spent else 0) if cost else None
            if unit not in picked and cost is not None and can_afford(ctx, side, cost[0], total):
                options.append(Action("intercept", (unit.id,)))
        if len(options) == 1 and not picked:
            return []
        choice = yield from ctx.choose(side, "interception", f"{zone.display}: intercept the force entering {cell} "
                                       f"({cite(zone, line)})?", options)
        if choice.kind == "decline":
            return []
        if choice.kind == "go":
            pay(ctx, side, spent[0], spent[1], f"{action.label}: {', '.join(u.id for u in picked)}")
            return picked
        unit = ctx.state.unit(choice.args[0])
        cost = action_price(ctx, action, ctx.rules.unit_type(unit.type).selectors)
        spent = (cost[0], cost[1] + (spent[1] if spent else 0))
        picked.append(unit)


def move_interceptors_in(ctx: Context, units: list[Unit], cell: str) -> None:
    """Intercepting units move from wherever they are into the force's cell."""
    for unit in units:
        ctx.update_unit(evolve(ctx.state.unit(unit.id), location=cell))
        ctx.say(f"{ctx.label(unit)} intercepts: {unit.location} → {cell}", kind="move", unit=unit.id,
                cell=cell, path=[unit.location, cell])

