"""Advance after combat: attacking units following up into the hex their attack emptied.

A combat's ``advance after combat [by WHO…] [up to N hexes] [ignoring zones]`` line
(``dsl.compiled.combat.Advance``) is carried out by ``do fight`` after each attack
(``interpreter.procedures.combat``), when the hex attacked holds no enemy counter any more:

- **Who.**  The attacking units that took part, still on the map where they attacked from (one
  that retreated or was eliminated does not advance), that ``by`` selects, that may move at all.
- **Where.**  First the hex attacked; with ``up to N hexes``, then on along the path a defender
  retreated by (the hex that defender entered next from the one the unit stands in), N hexes in
  all.  Each hex must be one the unit's class may enter (``interpreter.costs``), hold no enemy
  counter and have room under stacking (``interpreter.stacking``).  Without ``ignoring zones`` a
  unit that enters a hex in an enemy zone that stops movement goes no further.
- **Choice.**  The attacking side decides (kind ``advance``): ``advance ID HEX`` moves one unit one
  hex, ``done`` leaves every unit not yet moved where it is.  It is asked again after each hex
  until it is done or no unit may go further.

An advance costs no movement points and is not a move: nothing that watches movement sees it.
"""

from __future__ import annotations

from collections.abc import Sequence

from attrs import evolve

from ..dsl.compiled.combat import Advance, CombatRule
from .actions import Action
from .citations import because
from .context import Context, Flow
from .costs import never_moves
from .retreats import enemy_occupied, entry_problem
from .stacking import stacking_problem
from .state import Unit
from .zones import enemy_zones


def vacated(ctx: Context, cell: str, side: str) -> bool:
    """Whether ``cell`` holds no enemy counter of ``side`` (units and dummies; markers do not hold it)."""
    return not enemy_occupied(ctx, cell, side)


def retreat_paths(cell: str, retreated: Sequence[tuple[str, str, str]]) -> list[list[str]]:
    """Each defender's retreat from ``cell`` as the hexes it passed through, ``cell`` first.

    ``retreated``: (unit, from, to) in the order the hexes were entered, as combat outcomes keep them.
    """
    paths: dict[str, list[str]] = {}
    for unit, start, end in retreated:
        path = paths.get(unit)
        if path is None and start == cell:
            paths[unit] = [start, end]
        elif path is not None and path[-1] == start:
            path.append(end)
    return list(paths.values())


def next_hexes(paths: Sequence[Sequence[str]], at: str, gone: int) -> set[str]:
    """The hexes after ``at`` on any path that reaches it as its ``gone``-th hex (0: the hex attacked)."""
    return {p[gone + 1] for p in paths if len(p) > gone + 1 and p[gone] == at}


def advance_problem(ctx: Context, advance: Advance, unit: Unit, cell: str) -> str | None:
    """Why ``unit`` may not advance into ``cell`` (an adjacent hex on its way), or ``None``."""
    unit_type = ctx.rules.unit_type(unit.type)
    if never_moves(ctx.rules, unit_type):
        return f"{unit.id} never moves"
    if advance.who and not unit_type.matches(advance.who):
        return f"only {', '.join(advance.who)} advance after combat"
    return entry_problem(ctx, unit, cell) or stacking_problem(ctx, unit.side, cell, [unit])


def advance_after_combat(ctx: Context, combat: CombatRule, side: str, attackers: dict[str, str], cell: str,
                         retreated: Sequence[tuple[str, str, str]]) -> Flow:
    """Offer ``side``'s attackers (id → the hex each attacked from) the advance into ``cell`` and beyond.

    Returns the ids of the units that advanced.  Nothing is asked when the combat has no advance
    line, ``cell`` still holds an enemy counter, or no attacker may enter it.
    """
    advance = combat.advance
    if advance is None or not vacated(ctx, cell, side):
        return []
    paths = retreat_paths(cell, retreated) or [[cell]]
    stopping = None if advance.ignoring_zones else enemy_zones(ctx, side, stopping=True)
    gone: dict[str, int] = {}  # id -> hexes advanced so far
    stopped: set[str] = set()
    while True:
        options = []
        for uid in sorted(attackers):
            unit = ctx.state.unit(uid)
            if uid in stopped or unit.side != side:
                continue
            hexes = gone.get(uid, 0)
            if not hexes:
                if unit.location != attackers[uid]:
                    continue
                ahead = {cell}
            elif hexes < advance.hexes:
                ahead = next_hexes(paths, unit.location, hexes - 1)
            else:
                continue
            options += [Action("advance", (uid, c)) for c in sorted(ahead)
                        if advance_problem(ctx, advance, unit, c) is None]
        if not options:
            break
        options.append(Action("done"))
        action = yield from ctx.choose(
            side, "advance", f"{combat.label}: advance after combat into {cell}?", options,
            lambda a: advance_problem(ctx, advance, ctx.state.unit(a.args[0]), a.args[-1])
            if a.kind == "advance" and len(a.args) == 2 and a.args[0] in attackers else None)
        if action.kind == "done":
            break
        uid, target = action.args
        unit = ctx.state.unit(uid)
        ctx.say(because(f"{ctx.label(unit)} advances after combat from {unit.location} to {target}", combat.decl,
                        advance.source), kind="advance", unit=uid, cell=target, side=side)
        ctx.update_unit(evolve(unit, location=target))
        gone[uid] = gone.get(uid, 0) + 1
        if stopping is not None and target in stopping:
            stopped.add(uid)
    return sorted(gone)
