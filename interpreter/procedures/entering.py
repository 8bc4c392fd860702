"""Arrivals that enter in a move phase: ``do move … bringing in arrivals``.

Classic games bring reinforcements on in their owner's movement phase rather than in a phase of
their own: the counter enters at an entry cell paying that cell's cost from its allowance, moves on
with what is left, and must enter if it can.  Once the counters on the map have moved (so that
they may clear an entry cell first), each of the moving side's scheduled arrivals due now (``[[arrival]]``,
each side in player order in a mutual phase), in the order the entries are written:

- with ``box``, is put in its box, as ``do arrivals`` does;
- otherwise **must** enter, when one of its entry cells takes it: the cell may be entered now by
  the type it moves as in this phase (terrain, turn, weather; ``using CLASS``), no enemy counter
  stands there, its class does not ``avoid`` the cell, the stacking rules allow it, and the cell
  costs no more than its whole allowance.  The owner chooses among several (``arrive UNIT CELL``),
  and is offered nothing else: there is no ``stay`` for a counter that can enter.  It then has its
  allowance less the entry cell's cost (none when an enemy zone that stops it covers the cell) and
  is asked to move on (``move UNIT CELL`` or ``stay UNIT``) as any counter in the phase is;
- with every entry cell blocked, is **delayed**: it stays on the turn track, narrated, and tries
  again the next time a phase brings arrivals in (or ``do arrivals`` runs).

Readings (each a choice the rules leave open):

- **No hexside is crossed on entry**: the counter comes from off the map, where the map has no
  hexsides, so a feature's crossing cost is never paid entering (only the cell's cost).
- **A type that does not move in the phase** (``only WHO…`` leaves it out, or it has no points)
  does not enter in it: it waits for a phase that moves it, and is not reported delayed.
- **A dummy** enters like a unit (entry cells as a unit of its side could use) and then moves on as
  a dummy moves (``movement.proxies``), from its whole allowance.
- Markers in the entry cell and WATCH fire are not met on entry (they are met once it moves on).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Protocol

from .. import movement as mv
from ..actions import Action
from ..context import Context, Flow
from ..state import Unit, replace
from .arrivals import acting_sides, delayed, due, into_box, late, may_enter



class MovePhase(Protocol):
    """What bringing arrivals in reads of the move phase running it (``procedures.move.MovePhase``;
    said here, not imported, as the move phase calls ``bring_in``)."""

    ctx: Context
    only: tuple[str, ...]
    using: str | None
    left: dict[str, Fraction | None | str]
    """Each counter's movement points left this phase."""
    transport: Any
    """The phase's carrier moves (``procedures.transport.Transport``): ``fly(carrier)``."""

    def type_moves(self, unit: Unit) -> bool: ...

    def mover_type(self, unit: Unit) -> str: ...

    def move_unit(self, unit: Unit, may_wait: bool = False, resume: bool = False) -> Flow: ...


def bring_in(phase: MovePhase) -> Flow:
    """Bring the moving side's due arrivals in and move each on (module docstring)."""
    ctx = phase.ctx
    for side in acting_sides(ctx):
        for arrival, unit in due(ctx, side):
            if arrival.box is not None:
                into_box(ctx, arrival, unit)
                continue
            if not phase.type_moves(unit):
                continue
            open_cells = {}
            for cell in arrival.cells:
                left = _left_after(phase, unit, cell)
                if left != mv.BLOCKED:
                    open_cells[cell] = left
            if not open_cells:
                delayed(ctx, arrival, unit)
                continue
            cell = next(iter(open_cells))
            if len(open_cells) > 1:
                action = yield from ctx.choose(
                    side, "arrive", f"{ctx.label(unit, side)} must enter: choose its entry cell",
                    [Action("arrive", (unit.id, c)) for c in open_cells])
                cell = action.args[1]
            yield from _enter(phase, unit, cell, open_cells[cell], late(ctx, arrival))


def _left_after(phase: MovePhase, unit: Unit, cell: str) -> Fraction | None | str:
    """What entering at ``cell`` leaves ``unit`` in this phase (``mv.entering``; ``None`` for a
    dummy, which moves on as dummies do), or ``mv.BLOCKED``."""
    ctx = phase.ctx
    if not may_enter(ctx, unit, cell):
        return mv.BLOCKED
    if _proxied(phase, unit):  # open where a unit of its side could enter
        left = [mv.entering(ctx, unit, cell, as_type=t) for t in mv.proxies(ctx.rules, unit, phase.using, phase.only)]
        return mv.BLOCKED if all(v == mv.BLOCKED for v in left) else None
    return mv.entering(ctx, unit, cell, as_type=phase.mover_type(unit))


def _proxied(phase: MovePhase, unit: Unit) -> bool:
    """Whether ``unit`` is a dummy that moves as the unit types of its side (``movement.proxies``)."""
    unit_type = phase.ctx.rules.unit_type(unit.type)
    return unit_type.dummy and unit_type.movement is None


def _enter(phase: MovePhase, unit: Unit, cell: str, left: Fraction | None, why: str) -> Flow:
    """Put ``unit`` on ``cell`` with ``left`` points for the phase (``None``: unlimited, or a
    dummy's), narrated, and let it move on."""
    ctx = phase.ctx
    if left is not None:
        phase.left[unit.id] = left
    ctx.update_unit(replace(ctx.state.unit(unit.id), location=cell))
    points = "" if left is None else f", {mv.show_points(left)} left"
    ctx.say(f"{ctx.label(unit)} enters at {cell} (scenario arrival{why}{points})", kind="arrival",
            unit=unit.id, cell=cell, side=unit.side)
    now = ctx.state.unit(unit.id)
    if ctx.rules.unit_type(now.type).carries and phase.using is None:
        yield from phase.transport.fly(now)
    else:
        yield from phase.move_unit(now)
