"""``warbook lint`` for scenario and map files: the same diagnostics play would give, before play.

A ``.toml`` is a scenario when it has a ``[scenario]`` table and a map when it has
a ``[map]`` table.  A scenario is loaded as ``warbook play`` loads it (its TOML,
every reference to its rulebook, its map's legend against the rulebook's terrain,
its options), then each set-up entry is asked whether it can ever be carried
out: an entry placing counters in a zone with no cell the counters may stand in
(its terrain, its movement class's limits) sends every one of them to the
scenario's ``unplaced`` area, and an entry whose zone has fewer cells than its
``per_cell`` limit lets it fill leaves the rest there (W705).  A map alone is read
for its own shape (rows, legend, places, features); its legend is checked against
terrain (E702, E708) and its features against the rulebook's (E706, E707) only with a
scenario that plays on it.

Limits: the set-up check looks at each entry alone, on an empty map; entries that
compete for the same cells are not added up (set-up does not look ahead either).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from attrs import frozen

from ..dsl.ast import Span
from ..dsl.diagnostics import Diagnostic, RulesError, diagnostic
from .board import board_from_text
from .context import Context
from .scenario import Placement, Scenario, load_scenario
from ..dsl.toml_text import parse_toml, read_toml_text
from .setup import zone_cells

@frozen
class DataReport:
    """The diagnostics of one scenario or map file, and the texts they point into (for carets)."""

    diagnostics: tuple[Diagnostic, ...]
    sources: tuple[tuple[str, str], ...]


def lint_data_file(path: str | Path) -> DataReport:
    """Check a scenario or map file; never raises for bad input."""
    shown = str(path)
    try:
        text = read_toml_text(path, "TOML")
    except RulesError as exc:
        return _report(exc.diagnostics, ())
    try:
        data = parse_toml(text, shown, "E704")
    except RulesError as exc:
        return _report(exc.diagnostics, ((shown, text),))
    sources = ((shown, text),)
    if "scenario" in data:
        try:
            scenario = load_scenario(path)
        except RulesError as exc:
            return _report(exc.diagnostics, sources)
        found = list(iter_unplaceable(scenario))
        sources += ((scenario.map_path, scenario.map_text),)
        return _report(found, (*sources, *scenario.rulebook.sources))
    if "map" in data:
        try:
            board_from_text(text, shown)
        except RulesError as exc:
            return _report(exc.diagnostics, sources)
        return _report([], sources)
    return _report([diagnostic("E704", Span.point(shown), "neither a scenario nor a map: no [scenario] or [map] "
                               "table", "a scenario starts with [scenario], a map with [map]")], sources)


def iter_unplaceable(scenario: Scenario) -> Iterator[Diagnostic]:
    """W705 for each set-up entry placing counters in a zone that cannot hold them all."""
    ctx = Context(scenario, 0)
    for placement in scenario.setup:
        if placement.zone is None or placement.cells or placement.zone.holding:
            continue  # fixed cells and boxes are the author's to get right; 'holding' depends on set-up
        unit_type = ctx.rules.unit_type(placement.unit)
        cells = zone_cells(ctx, placement.zone, unit_type)
        message = _shortfall(placement, len(cells))
        if message:
            yield diagnostic("W705", Span.point(scenario.path, placement.line), message,
                             f"they go to {scenario.unplaced!r}; name cells, terrain or tags the unit may stand in")


def _shortfall(placement: Placement, cells: int) -> str | None:
    what = f"{placement.count} {placement.unit} of {placement.side}"
    if cells == 0:
        return f"no cell of the zone may hold {what}"
    if placement.per_cell is not None and cells * placement.per_cell < placement.count:
        return (f"the zone's {cells} cell{'s' if cells != 1 else ''} at {placement.per_cell} per cell hold "
                f"{cells * placement.per_cell} of {what}")
    return None


def _report(diagnostics, sources) -> DataReport:
    return DataReport(tuple(diagnostics), tuple(sources))
