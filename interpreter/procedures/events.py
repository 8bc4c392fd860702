"""Random events: ``do roll events on TABLE``.

The acting side rolls the table's dice and reads the column named after it (``columns blue
red``), or the first column of a table with one.  The event's printed ``text`` is logged for both
players, then its ``effect`` lines are carried out in order for the event's owner: its ``side``,
else the side that rolled (``interpreter.event_effects.run_event``, which says what each effect of
an event does).
"""

from __future__ import annotations

from ...dsl.compiled.calls import RollEvents
from ..combat import roll_on_table, table_view
from ..conditions import Scope
from ..context import Context, Flow
from ..event_effects import run_event
from . import procedure


@procedure("roll events")
def roll_events(ctx: Context, call: RollEvents) -> Flow:
    """The acting side rolls on its own column of the table and the event happens."""
    side = ctx.acting
    if side is None:
        return
    table = call.table
    view = table_view(ctx, table)
    labels = [c.label for c in view.columns]
    column = labels.index(side) if side in labels else 0
    roll, name = roll_on_table(ctx, table, reason=f"{ctx.shown('side', side)} random event", column=column)
    yield from run_event(ctx, name, Scope(side), roll=roll, table=view.decl.display)
