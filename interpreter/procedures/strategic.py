"""The strategic procedures: income, reinforcements, refits, reclaiming markers and supply.

This module carries out income and reclaiming markers; the others are
``interpreter.procedures.reinforcements`` (``do reinforce``, ``pick reinforcement free``),
``interpreter.procedures.refits`` (``do refit``, ``do return refitted units``) and
``interpreter.procedures.supply`` (``do check supply``).  Counters entering play are placed as
``interpreter.procedures.placement`` says, and actions are priced as
``interpreter.procedures.prices`` says.

``do gain income RESOURCE``
    The acting side (every side, in a mutual phase) gains its scenario income of the resource
    (``[scenario.income.SIDE]``) plus this turn's ``income:RESOURCE`` turn modifiers (set by
    events such as ``reduce income``), never less than 0, within the resource's cap.

``do reclaim markers MARKER…``
    The acting side's markers of these types that were committed are made available again: those
    still on the map go to the box their placement puts them in (``to BOX``), and those in that
    box lose the ``committed`` turn flag.
"""

from __future__ import annotations

from fractions import Fraction

from attrs import evolve

from ...dsl.compiled.calls import GainIncome, ReclaimMarkers
from ..context import Context, Flow
from ..flags import COMMITTED
from . import procedure
from ..victory import gain
from .placement import placements_for
from .strategic_readings import sections_of

# --- income ---------------------------------------------------------------------------------


@procedure("gain income")
def gain_income(ctx: Context, call: GainIncome) -> Flow:
    """The scenario's income plus this turn's ``income:RESOURCE`` modifiers, never below 0."""
    resource = call.resource
    income = getattr(ctx.scenario, "income", ()) or ()
    for side in [ctx.acting] if ctx.acting else list(ctx.player_order):
        base = sum(Fraction(a) for s, r, a in income if s == side and r == resource)
        change = sum(a for s, what, a in ctx.state.turn_modifiers if s == side and what == f"income:{resource}")
        amount = max(Fraction(0), base + change)
        if change:
            ctx.say(f"{ctx.shown('side', side)}: income of {base} {resource} changed by {change} this turn",
                    kind="income", side=side, resource=resource, base=str(base), change=str(change))
        if amount:
            gain(ctx, side, resource, amount, f"income ({sections_of(call)})")
    return
    yield  # a generator that needs no decision


# --- reclaiming committed markers -----------------------------------------------------------


@procedure("reclaim markers")
def reclaim_markers(ctx: Context, call: ReclaimMarkers) -> Flow:
    """Committed markers of the named types become available again (module docstring)."""
    types = set(call.markers)
    for side in [ctx.acting] if ctx.acting else list(ctx.player_order):
        for unit in sorted(u for u in ctx.state.units if u.side == side and u.type in types):
            homes = [p.to for p in placements_for(ctx, unit) if p.to is not None]
            home = homes[0] if homes else None
            if unit.on_map and home is not None:
                ctx.update_unit(evolve(unit, location=home, turn_flags=unit.turn_flags - {COMMITTED}))
            elif COMMITTED in unit.turn_flags and unit.location == home:
                ctx.update_unit(evolve(unit, turn_flags=unit.turn_flags - {COMMITTED}))
            else:
                continue
            ctx.say(f"{ctx.label(unit)} reclaimed for reuse ({sections_of(call)})", kind="reclaim", unit=unit.id,
                    side=side)
    return
    yield  # a generator that needs no decision
