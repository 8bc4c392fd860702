"""Air missions that fire against aircraft may turn back: held bombardments and ``abandon mission``.

An air unit is exposed to fire against aircraft (``interpreter.procedures.air_defence``) for
what it did this turn: it bombarded, or took units aboard or set them down.  When the rulebook
fires at aircraft after those phases, a result that turns the aircraft back must still change
something, so:

- **Held bombardments.**  ``do bombard with COMBAT held for fire at aircraft`` declares the
  bombardment of units that fly to their target (``held:COMBAT:CELL`` in their turn flags) and
  leaves it to be made here, by ``resolve_held``, which the next ``do fire at aircraft`` calls
  after its fire: the units still holding it bombard the cell, against the counters there then.
  A cell left without an enemy counter is not bombarded.
- **``abandon mission ROLE``** (a result): each of the role's units on the map gives up this
  turn's missions.  Its held bombardments are not made.  The units it set down this turn
  (``carried:UNIT`` on the carrier, ``landed:CELL`` on the unit: where it boarded) are carried
  back to where they boarded, and the carrier with the last of them; a unit that may not stand
  there again (an enemy counter has come, the stacking limit) stays where it was set down.  Its
  exposure flags are taken away: it is not fired on again this turn.

Limits: a unit carried back keeps the points it spent (its move is over); a carrier that carried
no one back stays where it is.
"""

from __future__ import annotations

from attrs import evolve

from ...dsl.effects import AbandonMission, Where
from ..context import Context, Flow
from ..effects import Target, carries_out
from ..flags import BOARDED, BOMBARDED, CARRIED, HELD, LANDED, UNBOARDED
from ..retreats import entry_problem
from ..stacking import stacking_problem
from ..state import Unit
from .combat import bombardment

EXPOSED = frozenset({BOMBARDED, BOARDED, UNBOARDED, HELD})
"""Turn flags (``NAME`` or ``NAME:ARG``) an abandoned mission takes away."""


def _args(unit: Unit, name: str) -> list[str]:
    """The arguments of the unit's ``NAME:ARG`` turn flags, in order."""
    return sorted(flag.partition(":")[2] for flag in unit.turn_flags if flag.startswith(f"{name}:"))


def resolve_held(ctx: Context) -> Flow:
    """Make every bombardment still held for fire against aircraft, side by side in player order,
    cell by cell: the air units holding it bombard the cell (module docstring)."""
    held: dict[tuple[str, str, str], list[Unit]] = {}
    for unit in ctx.state.units:
        if unit.on_map:
            for arg in _args(unit, HELD):
                combat, _, cell = arg.partition(":")
                held.setdefault((unit.side, combat, cell), []).append(unit)
    order = {side: n for n, side in enumerate(ctx.player_order)}
    for (side, name, cell), units in sorted(held.items(), key=lambda item: (order.get(item[0][0], 0), item[0])):
        flag = f"{HELD}:{name}:{cell}"
        ctx.state = ctx.state.with_units([evolve(ctx.state.unit(u.id), turn_flags=ctx.state.unit(u.id).turn_flags
                                                 - {flag}) for u in units])
        attackers = [ctx.state.unit(u.id) for u in units]
        if not any(u.side != side and u.on_map for u in ctx.state.units_at(cell)):
            ctx.say(f"{', '.join(ctx.label(u) for u in attackers)}: nothing left to bombard at {cell}",
                    kind="combat", cell=cell)
            continue
        yield from bombardment(ctx, ctx.rules.combats[name], side, cell, attackers)


@carries_out(AbandonMission, Where.RESULT)
def abandon_mission(ctx: Context, effect: AbandonMission, target: Target) -> Flow:
    """The role's units give up this turn's missions (module docstring)."""
    engagement = target.engagement
    for unit in engagement.units(effect.role):
        unit = ctx.state.unit(unit.id)
        if not unit.on_map:
            continue
        ctx.say(f"{ctx.label(unit)} abandons its mission ({engagement.reason})", kind="combat", unit=unit.id)
        for arg in _args(unit, HELD):
            ctx.say(f"{ctx.label(unit)} does not bombard {arg.partition(':')[2]}", kind="combat", unit=unit.id)
        _carry_back(ctx, unit)
        now = ctx.state.unit(unit.id)
        ctx.update_unit(evolve(now, turn_flags=frozenset(f for f in now.turn_flags
                                                         if f.partition(":")[0] not in EXPOSED)))
    yield from ()


def _carry_back(ctx: Context, carrier: Unit) -> None:
    """The units ``carrier`` set down this turn go back to where they boarded, and it with the last."""
    back = None
    for uid in _args(carrier, CARRIED):
        unit = ctx.state.unit(uid)
        origins = _args(unit, LANDED)
        if not origins or not unit.on_map:
            continue
        origin = origins[0]
        problem = entry_problem(ctx, unit, origin) or stacking_problem(ctx, unit.side, origin, [unit])
        if problem is not None:
            ctx.say(f"{ctx.label(unit)} stays at {unit.location}: {problem}", kind="combat", unit=uid)
            continue
        ctx.update_unit(evolve(unit, location=origin, turn_flags=unit.turn_flags - {f"{LANDED}:{origin}"}))
        ctx.say(f"{ctx.label(unit)} is carried back to {origin}", kind="move", unit=uid, start=unit.location,
                cell=origin, side=unit.side)
        back = origin
    carrier = ctx.state.unit(carrier.id)
    if back is not None and back != carrier.location and stacking_problem(ctx, carrier.side, back, [carrier]) is None:
        ctx.update_unit(evolve(carrier, location=back))
        ctx.say(f"{ctx.label(carrier)} flies back to {back}", kind="move", unit=carrier.id, start=carrier.location,
                cell=back, side=carrier.side)
