"""Resource tracks between turns: points of a ``carry over no`` resource do not carry to the next turn.

``resource NAME { carry over no }`` says unspent points do not carry to the next turn.  So at
the end of every turn that another turn follows, each side loses what it has left of such a
resource, down to 0 (or the resource's ``minimum``, when that is higher: points below it could
not be spent).  The loss goes through ``victory.gain`` like any other resource change, so it is
logged (``kind="resource"``), narrated and replayed.  ``carry over yes``, or no ``carry over``
line, keeps the points.

Limits: nothing is lost at the end of the scenario's last turn (no turn follows it; the final
result and the saved state see what was left), nor when the game ends early (sudden death).  A
side below 0 (a ``minimum`` under 0) keeps its deficit: a deficit is not unspent points.  The
flow calls ``forfeit_unspent`` once at the end of each turn (``interpreter.flow.play``).
"""

from __future__ import annotations

from fractions import Fraction

from .citations import cite
from .context import Context
from .victory import gain


def forfeit_unspent(ctx: Context) -> None:
    """At the end of a turn another turn follows, every side loses its unspent points of each
    ``carry over no`` resource (module docstring); after the scenario's last turn, nothing."""
    if ctx.state.turn >= ctx.scenario.turns:
        return
    for track in ctx.rules.resources.values():
        if track.carries_over:
            continue
        floor = max(Fraction(0), track.floor)
        sections = cite(track.decl, track.carry_source)
        reason = f"unspent at the end of the turn: {track.name} do not carry over"
        if sections:
            reason = f"{reason}, {sections}"
        for side in ctx.rules.sides:
            left = ctx.state.resource(side, track.name)
            if left > floor:
                gain(ctx, side, track.name, floor - left, reason)
