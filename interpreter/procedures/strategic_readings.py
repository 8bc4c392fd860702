"""Small readings of the rulebook that the strategic procedures share (``strategic``, ``placement``,
``prices``, ``reinforcements``, ``refits``, ``supply``).

A declaration is shown by its ``display`` name (its name when the rulebook has no such
declaration); a side's counters in a box are those whose location is the box; counters of one
type are interchangeable choices, so only the lowest id of each type is offered; a ``do`` line
cites its sections (``§N``), or says ``income`` when it names none.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...dsl.compiled.calls import Call
from ..context import Context
from ..state import Unit



def counters_in_box(ctx: Context, side: str, box: str) -> list[Unit]:
    """The side's counters in the box."""
    return [u for u in ctx.state.units_at(box) if u.side == side]


def one_per_type(units: Iterable[Unit]) -> list[Unit]:
    """The lowest-id counter of each type: counters of one type are interchangeable choices."""
    seen: dict[str, Unit] = {}
    for unit in sorted(units):
        seen.setdefault(unit.type, unit)
    return sorted(seen.values())


def sections_of(call: Call) -> str:
    """The ``do`` line's sections for a log line (``§7.2, §7.3``), or ``income`` when it cites none."""
    names = call.source.provenance.section_names
    return ", ".join(f"§{n}" for n in names) or "income"
