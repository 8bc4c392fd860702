"""Scheduled arrivals and withdrawals: ``do arrivals`` and ``do withdrawals``.

The scenario's ``[[arrival]]`` counters are made at set-up (``schedule_arrivals``, ids after the
side's set-up counters) and wait on the turn track (``turn_track:N``, N their turn).  ``do
arrivals`` brings in each waiting counter of the acting side (each side in player order, in a
mutual phase) whose turn has come, in the order the entries are written:

- into its ``box``: it is available there from its turn;
- onto an entry cell it may enter now (its cost table on this turn and weather), where no enemy
  counter stands and the stacking rules allow it: the owner chooses among several (``arrive ID
  CELL``); with every entry cell blocked it is **delayed**: it stays on the turn track and tries
  again the next time ``do arrivals`` runs (narrated).

A move phase may bring the same arrivals in as movement instead (``do move … bringing in
arrivals``: ``interpreter.procedures.entering``), sharing ``due``, ``may_enter`` and the narration here.

``do withdrawals`` takes each ``[[withdrawal]]`` due this turn off the map: the owner chooses which
of its counters of the type on the map leave (``withdraw ID``, when it has more than it must give),
each to ``offmap``; for each it cannot give, every other side gains the ``penalty``.  A counter
withdrawn does not score ``award … on eliminated``: it leaves play without loss.
"""

from __future__ import annotations

from fractions import Fraction

from ...dsl.compiled.calls import Arrivals, Withdrawals
from ..actions import Action
from ..context import Context, Flow
from ..costs import cost_table
from ..scenario_arrivals import Arrival
from ..stacking import problem
from ..state import OFFMAP, Unit, replace
from ..victory import gain
from . import procedure


def schedule_arrivals(ctx: Context, numbered: dict[str, int], short: dict[str, str], hidden: dict[str, bool]) -> None:
    """Make every scheduled arrival's counters, waiting on the turn track: each side's ids go on
    after its ``numbered`` set-up counters (``short`` letter, as set-up names them)."""
    for arrival in ctx.scenario.arrivals:
        side = arrival.side
        for _ in range(arrival.count):
            numbered[side] = numbered.get(side, 0) + 1
            unit_type = ctx.rules.unit_type(arrival.unit)
            unit = Unit(f"{short[side]}{numbered[side]}", arrival.unit, side, arrival.waiting,
                        hidden=hidden.get(side, False), dummy=unit_type.dummy)
            ctx.state = ctx.state.with_added_unit(unit)
            ctx.say(f"{ctx.label(unit, side)} arrives on turn {arrival.turn}", kind="setup", unit=unit.id,
                    cell=unit.location, side=side)


def acting_sides(ctx: Context) -> tuple[str, ...]:
    """The sides whose schedule a phase carries out: the acting side, or every side in player order."""
    return (ctx.acting,) if ctx.acting is not None else tuple(ctx.player_order)


def due(ctx: Context, side: str) -> list[tuple[Arrival, Unit]]:
    """``side``'s counters waiting on the turn track whose turn has come, with their entry, in the
    order the entries are written."""
    turn = ctx.state.turn
    return [(arrival, unit) for arrival in ctx.scenario.arrivals if arrival.side == side and arrival.turn <= turn
            for unit in ctx.state.units_at(arrival.waiting) if unit.side == side and unit.type == arrival.unit]


def late(ctx: Context, arrival: Arrival) -> str:
    """``", due on turn N"`` for an arrival delayed from an earlier turn, for its narration."""
    return f", due on turn {arrival.turn}" if arrival.turn < ctx.state.turn else ""


def into_box(ctx: Context, arrival: Arrival, unit: Unit) -> None:
    """Put an arrival ``into`` a box: it is available there from its turn."""
    ctx.update_unit(replace(unit, location=arrival.box))
    ctx.say(f"{ctx.label(unit)} is available in the {arrival.box} (scenario arrival{late(ctx, arrival)})",
            kind="arrival", unit=unit.id, box=arrival.box, side=unit.side)


def delayed(ctx: Context, arrival: Arrival, unit: Unit) -> None:
    """Narrate that every entry cell of ``unit``'s arrival is blocked: it waits for the next chance."""
    ctx.say(f"{ctx.label(unit)} is delayed: no entry cell is free ({', '.join(arrival.cells)})",
            kind="arrival", unit=unit.id, side=unit.side, delayed=True)


@procedure("arrivals")
def arrivals(ctx: Context, call: Arrivals) -> Flow:
    """Bring in every waiting counter whose turn has come (module docstring)."""
    for side in acting_sides(ctx):
        for arrival, unit in due(ctx, side):
            if arrival.box is not None:
                into_box(ctx, arrival, unit)
                continue
            cells = [c for c in arrival.cells if may_enter(ctx, unit, c)]
            if not cells:
                delayed(ctx, arrival, unit)
                continue
            cell = cells[0]
            if len(cells) > 1:
                action = yield from ctx.choose(side, "arrive", f"{ctx.label(unit)} arrives: choose its entry cell",
                                               [Action("arrive", (unit.id, c)) for c in cells])
                cell = action.args[1]
            ctx.update_unit(replace(ctx.state.unit(unit.id), location=cell))
            ctx.say(f"{ctx.label(unit)} arrives at {cell} (scenario arrival{late(ctx, arrival)})",
                    kind="arrival", unit=unit.id, cell=cell, side=side)


def may_enter(ctx: Context, unit: Unit, cell: str) -> bool:
    """An entry cell takes the counter: it may enter it now, no enemy counter is there, and every
    stacking rule allows it there."""
    if ctx.rules.unit_type(unit.type).kind == "unit" and \
            cell not in cost_table(ctx.rules, ctx.board, unit.type, ctx.state.turn, ctx.state.weather).cost:
        return False
    here = ctx.state.units_at(cell)
    if any(u.side != unit.side for u in here):
        return False
    together = [*(u for u in here if u.side == unit.side), unit]
    return all(problem(rule, together, [unit]) is None for rule in ctx.rules.stackings)


@procedure("withdrawals")
def withdrawals(ctx: Context, call: Withdrawals) -> Flow:
    """Take off the map every counter due to leave this turn, or pay the penalty (module docstring)."""
    turn = ctx.state.turn
    for side in acting_sides(ctx):
        for due in ctx.scenario.withdrawals:
            if due.side != side or due.turn != turn:
                continue
            for left in range(due.count, 0, -1):
                candidates = [u for u in ctx.state.units_of(side) if u.type == due.unit]
                if not candidates:
                    _penalty(ctx, side, due, left)
                    break
                unit = candidates[0]
                if len(candidates) > left:
                    action = yield from ctx.choose(side, "withdraw", f"withdraw a {due.unit} ({left} to go)",
                                                   [Action("withdraw", (u.id,)) for u in candidates])
                    unit = ctx.state.unit(action.args[0])
                ctx.update_unit(replace(unit, location=OFFMAP))
                ctx.say(f"{ctx.label(unit)} is withdrawn from {unit.location} (scenario withdrawal)",
                        kind="withdrawal", unit=unit.id, cell=unit.location, side=side)


def _penalty(ctx: Context, side: str, due, missing: int) -> None:
    ctx.say(f"{ctx.shown('side', side)} cannot withdraw {missing} {due.unit} (scenario withdrawal)",
            kind="withdrawal", side=side, missing=missing)
    for other in ctx.rules.sides:
        if other != side:
            for resource, amount in due.penalty:
                gain(ctx, other, resource, Fraction(amount * missing),
                     f"{ctx.shown('side', side)} could not withdraw {missing} {due.unit}")
