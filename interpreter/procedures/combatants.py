"""Who fights a battle of an operation, and how it ends (``battle_on``, ``battle_over``).

A game of alternating operations (``interpreter.operation``) fights a battle when a moving
force ends its move in a cell with enemy counters (``ctx.operation.cell``).  The sequence
repeats a recon step, a support step and a fire step until one side remains; the procedures
``recon`` (``interpreter.procedures.recon``), ``commit support`` (``interpreter.procedures.support``)
and ``resolve fire`` (``interpreter.procedures.battle``) are those steps.  Each does nothing outside
a battle (``ctx.operation`` is ``None``, has no contested cell, or has ended).  Everything
game-specific is read from declarations:

- **Who is in the battle.**  The attacker is the side conducting the operation; its units
  that fight are those of the force (``operation.force``) in the cell, plus the support markers
  committed to it (``operation.support``).  Every other side's counters in the cell defend, all
  of them.  A side takes part while it has a *unit* (a counter that is not a marker) there; the
  attacker while a unit of its force is there (or, in a strike, while one of its markers is).
  When that ends the battle is over: ``operation.ended`` is set and the committed support
  markers go back to their box (``battle_over``).
"""

from __future__ import annotations

from attrs import evolve

from ...dsl.model import Declaration
from .. import event_effects
from ..context import Context, Flow
from ..state import Unit


# --- who is in the battle ----------------------------------------------------------------------


def is_unit(ctx: Context, unit: Unit) -> bool:
    """Whether the counter is a real unit: not a dummy, and of a ``unit`` type (not a marker)."""
    return not unit.dummy and ctx.rules.unit_type(unit.type).kind == "unit"



def counters_here(ctx: Context) -> tuple[Unit, ...]:
    """Every counter in the contested cell, of every side."""
    return ctx.state.units_at(ctx.operation.cell)


def counter_decl(ctx: Context, unit: Unit) -> Declaration | None:
    """The declaration of the counter's type (its ``unit`` or ``marker`` declaration)."""
    return ctx.rulebook.get(ctx.rules.unit_type(unit.type).kind, unit.type)


def support_box(ctx: Context, marker: Unit) -> str | None:
    """The box a ``support from BOX`` marker is committed from and goes back to (``None``: no support marker)."""
    return ctx.rules.unit_type(marker.type).support_box


def defenders_of(ctx: Context) -> list[str]:
    """The sides other than the attacker with counters in the contested cell, in player order."""
    present = {u.side for u in counters_here(ctx)}
    return [s for s in ctx.player_order if s != ctx.operation.side and s in present]


def fighting_counters(ctx: Context, side: str) -> list[Unit]:
    """The side's counters in the contested cell that fire and may be fired at (module docstring)."""
    operation = ctx.operation
    here = [u for u in counters_here(ctx) if u.side == side and not u.dummy]
    if side != operation.side:
        return here
    ours = set(operation.force) | set(operation.support)
    return [u for u in here if u.id in ours]


def side_in_battle(ctx: Context, side: str) -> bool:
    """Whether ``side`` still takes part in the battle (module docstring: who is in the battle)."""
    operation = ctx.operation
    if side != operation.side:
        return any(is_unit(ctx, u) for u in counters_here(ctx) if u.side == side)
    force_units = [ctx.state.unit(i) for i in operation.force]
    here = [u for u in force_units if u.location == operation.cell]
    if any(is_unit(ctx, u) for u in force_units):
        return any(is_unit(ctx, u) for u in here)
    return bool(here) or any(ctx.state.unit(i).location == operation.cell for i in operation.support)


def side_in_battle_units(ctx: Context, side: str) -> bool:
    """Whether a unit (not a marker) of ``side`` fights in the battle."""
    return any(is_unit(ctx, u) for u in fighting_counters(ctx, side))


def battle_on(ctx: Context) -> bool:
    """Whether a battle is being fought: an operation with a contested cell, not ended, where the
    attacker and another side both take part."""
    operation = ctx.operation
    if operation is None or not operation.fighting():
        return False
    return side_in_battle(ctx, operation.side) and any(side_in_battle(ctx, s) for s in defenders_of(ctx))


def battle_over(ctx: Context) -> Flow:
    """End the battle: the operation ends and committed support markers go back to their box.

    A battle that ends inside a round (a break-off at the bounce) ends that round for the markers
    committed to it: one that leaves ``when combat round ends`` (played for a round) goes where
    that effect sends it, not back to be played again.
    """
    operation = ctx.operation
    if operation is None or operation.cell is None:
        return
    for marker_id in operation.support:
        marker = ctx.state.unit(marker_id)
        if operation.round and marker.location == operation.cell and event_effects.leaves_at_round_end(ctx, marker):
            yield from event_effects.round_ended(ctx, operation.cell, first=operation.round <= 1, counters=[marker])
            continue
        box = support_box(ctx, marker)
        if marker.location == operation.cell and box is not None:
            ctx.update_unit(evolve(marker, location=box))
            ctx.say(f"{ctx.label(marker)} goes back to the {box}: the battle in {operation.cell} is over",
                    kind="combat", unit=marker.id, box=box)
    operation.support = []
    if not operation.ended:
        operation.ended = True
        ctx.say(f"the battle in {operation.cell} is over", kind="combat", cell=operation.cell)
