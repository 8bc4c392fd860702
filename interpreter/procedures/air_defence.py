"""Fire against aircraft: ``do fire at aircraft with TABLE [when CONDITION]``.

Who is fired on.  Units whose turn flags say they ``bombarded``, ``boarded`` or ``unboarded``
this turn: the movement procedure flags transports that picked up or set down units, the
combat procedure flags air units that bombarded.  They are fired on where it happened: a flag
``bombarded:CELL`` names the cell (an air unit is not moved by bombarding), a plain flag
without one means the unit's own cell.  Every other unit of the same side and the same
movement class in that cell joins them as an **escort**: its factors count in the air units'
total (escorts "help protect" the transports) and it shares their fate (one engagement, one
set of targets).  Each cell where a side's units were exposed is one engagement, with one
roll on the table.

Who fires.  Enemy units in the cell or next to it ("the ground troops": an air unit is
fired on by the troops it bombards, or by those around the landing zone, since a transport
may not land on enemy troops), except dummies and markers (a booby trap is no troops: "Total up
the attack factors of all units"), units of the targets' movement classes
(aircraft do not fire as ground troops) and units whose mode forbids ``attack``.  In a phase
with an acting side only that side fires; in a mutual phase every side fires at every other
side's exposed units.  A unit may fire in every engagement it is next to.  Firing costs
nothing in any rule, so it is never offered as a decision: the ground troops always "open up"
when they may.  Firing does not reveal face-down firers.

When.  ``when CONDITION`` is read by the condition grammar (``dsl.conditions``) in each
engagement, with the engagement's roles (``firers`` and ``targets``) for ``ROLE FACTOR``
totals and its cell as ``this cell``: ``when firers attack exceeds targets attack`` fires only
if the ground units' attack total is larger than the air units'.  Factors that are not numbers
(``all``, ``none``, missing) count 0.  ``own`` is the firers' side.  A condition that waits for a
moment is refused before play (lint E221): the fire is rolled when the engagement is.  When
there is no fire the log says only "no ground fire", whether no one could fire or the fire was
too weak, so it tells nothing about face-down counters.

The table and its results are rolled and carried out by ``interpreter.combat`` and ``interpreter.results`` (``roll_on_table``
and ``apply_result``), with the firers as attackers and the air units as defenders, so results
mean here what they mean in combat: ``eliminate 1 targets`` lets the air units' owner choose the
loss (scored as eliminated); ``break off targets`` gives them the ``broke off`` turn flag: they
take no further part this turn, and what they did earlier in the turn stands; ``abandon mission
targets`` ("air units abandon mission") undoes their landings of this turn and takes away their
bombardments still held for this fire (``interpreter.procedures.missions``).  After every
engagement, the bombardments held for fire against aircraft are made (``resolve_held``).

Limits: a transport shot down takes no passengers with it (they were set down already).
"""

from __future__ import annotations

from typing import Iterable

from ...dsl.compiled.calls import FireAtAircraft
from ..combat import Engagement, roll_on_table
from ..condition_lines import line_condition
from ..conditions import Scope, holds
from ..flags import BOARDED, BOMBARDED, UNBOARDED
from ..modes import mode_forbids
from ..status_effects import status_forbids
from ..results import apply_result
from ..context import Context, Flow
from . import procedure
from .missions import resolve_held
from ..state import Unit

FIRED_ON = frozenset({BOMBARDED, BOARDED, UNBOARDED})
"""Turn flags that expose a unit to fire against aircraft (``NAME`` or ``NAME:CELL``)."""

@procedure("fire at aircraft")
def fire_at_aircraft(ctx: Context, call: FireAtAircraft) -> Flow:
    """Every engagement, side by side and cell by cell: total up, maybe fire, roll, apply the result."""
    firing_sides = [ctx.acting] if ctx.acting else list(ctx.player_order)
    for side in ctx.player_order:
        if ctx.acting and side == ctx.acting:
            continue
        cells = sorted({c for u in ctx.state.units if u.side == side for c in exposed_at(ctx, u)})
        for cell in cells:
            roles = engagement(ctx, side, cell, [s for s in firing_sides if s != side])
            if roles["targets"]:
                yield from _engage(ctx, call, cell, roles)
    yield from resolve_held(ctx)


def exposed_at(ctx: Context, unit: Unit) -> set[str]:
    """The cells where ``unit`` may be fired on this turn (none for dummies and eliminated units)."""
    if unit.dummy or unit.location == ctx.rules.eliminated_box:
        return set()
    cells, plain = set(), set()
    for flag in unit.turn_flags:
        name, _, cell = flag.partition(":")
        if name in FIRED_ON and cell:
            cells.add(cell)
        elif name in FIRED_ON:
            plain.add(name)
    for name in plain:
        if unit.on_map and not any(f.startswith(f"{name}:") for f in unit.turn_flags):
            cells.add(unit.location)
    return {c for c in cells if c in ctx.board.graph}


def engagement(ctx: Context, side: str, cell: str, firing_sides: Iterable[str]) -> dict[str, list[Unit]]:
    """The ``targets`` (``side``'s units exposed at ``cell`` and their escorts) and the ``firers``."""
    exposed = [u for u in ctx.state.units if u.side == side and cell in exposed_at(ctx, u)]
    classes = {ctx.rules.unit_type(u.type).movement for u in exposed}
    escorts = [u for u in ctx.state.units_at(cell) if u.side == side and not u.dummy and u not in exposed
               and ctx.rules.unit_type(u.type).movement in classes]
    near = {cell, *ctx.board.neighbours(cell)}
    sides = set(firing_sides)
    firers = [u for u in ctx.state.units
              if u.side in sides and u.location in near and not u.dummy and u.type not in ctx.rules.marker_types
              and ctx.rules.unit_type(u.type).movement not in classes and not _forbids_attack(ctx, u)]
    return {"targets": sorted([*exposed, *escorts]), "firers": sorted(firers)}


def _forbids_attack(ctx: Context, unit: Unit) -> bool:
    return mode_forbids(ctx, unit, "attack") or status_forbids(ctx, unit, "attack") is not None


def _engage(ctx: Context, call: FireAtAircraft, cell: str, roles: dict[str, list[Unit]]) -> Flow:
    targets = ", ".join(ctx.label(u) for u in roles["targets"])
    if not roles["firers"] or not holds(ctx, line_condition(call),
                                        Scope(roles["firers"][0].side, cell, roles=roles)):
        ctx.say(f"no ground fire at {targets} in {cell}", kind="air defence", cell=cell, fired=False)
        return
    firers = ", ".join(ctx.label(u) for u in roles["firers"])
    ctx.say(f"ground fire at {targets} in {cell} from {firers}", kind="air defence", cell=cell, fired=True,
            targets=[u.id for u in roles["targets"]], firers=[u.id for u in roles["firers"]])
    reason = f"fire at aircraft in {cell}"
    roll, text = roll_on_table(ctx, call.table, reason=reason)
    ctx.say(f"{reason}: rolled {roll} on {ctx.shown('table', call.table)}: {ctx.shown('result', text)}",
            kind="air defence", cell=cell, roll=roll, result=text)
    yield from apply_result(ctx, text, Engagement(ctx, None, roles["firers"], roles["targets"],
                                                  roles["firers"][0].side, reason))
