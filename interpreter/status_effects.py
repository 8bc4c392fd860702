"""Statuses: a combat result's ``mark ROLE STATUS``, what a status forbids, and recovery.

- **Marking.**  ``effect mark ROLE STATUS`` in a result gives each of the role's units on the map
  the status (``Unit.status``); a unit already in it stays so.  Narrated: "B1 Tank is disrupted".
- **What it forbids.**  ``forbids move``: the unit does not move in ``do move``; ``forbids
  attack``: it does not attack in ``do fight`` or ``do bombard``, fire during enemy movement or
  fire at aircraft (``status_forbids``, asked where those procedures ask a unit's mode).
- **Factors.**  ``factor F xM`` multiplies the factor as ``Rules.factor`` reads it, so combat
  totals, ranges and orders read the changed value (lint E144 refuses a factor no combat reads).
- **Recovery.**  ``recovers at end of PHASE``: each time that phase or step ends, the units of the
  side it ran for (every side's when it ran for none) leave the status (``recover``, called by the
  flow as the phase ends).  Narrated: "B1 Tank recovers (Disrupted)".  A unit that leaves the map
  (eliminated, refitted, put in a box) loses its statuses, silently.
"""

from __future__ import annotations

from attrs import evolve

from ..dsl.compiled.statuses import Status
from ..dsl.effects import Mark, Where
from .context import Context, Flow
from .effects import Target, carries_out
from .state import Unit


def status_forbids(ctx: Context, unit: Unit, what: str) -> Status | None:
    """The first of the unit's statuses (by name) that ``forbids`` ``what`` (move, attack), else ``None``."""
    if not unit.status:
        return None
    return next((s for s in map(ctx.rules.statuses.__getitem__, sorted(unit.status)) if what in s.forbids), None)


def give_status(ctx: Context, unit: Unit, status: str, why: str) -> None:
    """Put ``unit`` in ``status`` and narrate it (nothing when it is in it already)."""
    unit = ctx.state.unit(unit.id)
    if status in unit.status:
        return
    ctx.update_unit(evolve(unit, status=unit.status | {status}))
    label = ctx.rules.statuses[status].label
    ctx.say(f"{ctx.label(unit)} is {label.lower()} ({why})", kind="status", unit=unit.id, status=status)


@carries_out(Mark, Where.RESULT)
def _mark(ctx: Context, effect: Mark, target: Target) -> Flow:
    for unit in target.engagement.units(effect.role):
        if unit.on_map:
            target.affected.add(unit.id)
            give_status(ctx, unit, effect.status, target.engagement.reason)
    yield from ()


def recover(ctx: Context, phase: str, side: str | None) -> None:
    """The phase or step ``phase`` ended, run for ``side`` (``None``: for no side): its units leave
    every status that ``recovers at end of`` it, in id order."""
    if not ctx.rules.statuses:
        return
    statuses = {s.name: s for s in ctx.rules.statuses.values() if s.recovers_at == phase}
    for unit in ctx.state.units:
        if unit.status and not unit.on_map:  # off the map (eliminated, in a box): no status comes back with it
            ctx.update_unit(evolve(unit, status=frozenset()))
            continue
        gone = unit.status & statuses.keys()
        if not gone or (side is not None and unit.side != side):
            continue
        ctx.update_unit(evolve(unit, status=unit.status - gone))
        labels = ", ".join(statuses[s].label for s in sorted(gone))
        ctx.say(f"{ctx.label(unit)} recovers ({labels})", kind="status", unit=unit.id, recovered=sorted(gone))
