"""The board: a map file read into a read-only ``networkx`` graph of cells.

A map is TOML (see ``docs/scenarios.md``)::

    [map]
    name = "River crossing"
    grid = "hex"                 # or "square" (with diagonals)
    width = 16
    height = 12
    rows = ["..jj==..", ...]     # one character per cell, row 1 first
    [map.legend]
    "." = "clear"
    "=" = "road"
    "V" = ["village", "objective"]   # terrain, then extra cell tags
    [map.places]
    "Ap Bac" = "0507"
    [[map.features]]
    kind = "water_link"          # a rulebook `feature`
    path = ["0101", "0202"]      # drawn between consecutive cells

Nodes are cell ids (``"0312"``) with attributes ``terrain``, ``tags`` and
``place``; edges carry ``kind`` (``side``/``corner``) and ``features``.

Read with the rulebook's features (``dsl.compiled.terrain.Feature`` by name), a
feature lies where its ``on`` says: on the side or corner edges between consecutive cells of its
path (``on sides``, ``on corners``; the edge's ``features`` then hold its name and tags, which
``crosses only`` names), and with ``on cells`` on the path's cells themselves (their ``tags`` then
hold its name and tags, which cell selectors name).  A path that steps across an edge of a kind
the feature is not drawn on, unless it is ``on cells``, is refused (E707), and so is a feature the
rulebook does not declare (E706).  Read with the terrains that take ``effects from other
terrain``, a legend entry giving such a terrain two other terrains is refused (E708): which one's
effects would hold is not said.  The
graph is built once per map and never mutated afterwards; the rest of the
interpreter uses the query methods here (python-chess precomputes its attack
tables the same way).  Nothing in it knows a game: terrain names come from the
rulebook the scenario names.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Iterator, Mapping

import networkx as nx
from attrs import field, frozen

from ..dsl.ast import Span
from ..dsl.compiled.terrain import DRAWN_ON_EDGES, Feature
from ..dsl.diagnostics import Diagnostic, RulesError, diagnostic, did_you_mean
from . import grid
from ..dsl.toml_text import parse_toml, read_toml_text


@frozen
class Board:
    """A map as a frozen graph plus its grid geometry."""

    name: str
    grid: str
    width: int
    height: int
    graph: nx.Graph = field(repr=False, eq=False)
    places: tuple[tuple[str, str], ...] = ()
    note: str = ""
    low_columns: str = "even"
    """On a hex map, which columns sit half a hex lower: ``even`` (the usual) or ``odd``."""
    axes: dict[str, tuple[int, int]] = field(init=False, factory=dict, eq=False, repr=False)
    """``distance``'s coordinates of each cell it was asked about (``grid.axes``), at most one pair
    per cell of the map.  Agents and spotting ask the distance between the same cells again and
    again; an ``lru_cache`` of the answers by pair of cells (and grid) kept 42 KiB after a played
    game of the smallest shipped scenario (269 pairs), these coordinates 3 KiB (50 cells)."""

    @property
    def cells(self) -> tuple[str, ...]:
        return tuple(self.graph.nodes)

    def terrain(self, cell: str) -> str:
        return self.graph.nodes[cell]["terrain"]

    def tags(self, cell: str) -> frozenset[str]:
        return self.graph.nodes[cell]["tags"]

    def neighbours(self, cell: str) -> Iterator[str]:
        return iter(self.graph.adj[cell])

    def edge(self, a: str, b: str) -> dict:
        return self.graph.edges[a, b]

    def place(self, name: str) -> str | None:
        return next((cell for place, cell in self.places if place == name), None)

    def distance(self, a: str, b: str) -> int:
        """Cells from ``a`` to ``b`` on the grid, ignoring terrain.  (Written out, calling no
        ``max`` nor ``abs``: about 500 instructions more than a remembered answer, and none of the
        parsing of ids a pair not asked before cost.)"""
        axes = self.axes
        try:
            xa, za = axes[a]
            xb, zb = axes[b]
        except KeyError:
            return self._first_distance(a, b)
        dx, dz = xa - xb, za - zb
        dy = dx + dz if self.grid == "hex" else 0  # hex: the third cube coordinate's difference, negated
        if dx < 0:
            dx = -dx
        if dz < 0:
            dz = -dz
        if dy < 0:
            dy = -dy
        return dx if dx >= dz and dx >= dy else dz if dz >= dy else dy

    def _first_distance(self, a: str, b: str) -> int:
        """``distance`` when a cell's coordinates are not kept yet: kept for a cell of the map (an
        id off the map is measured, not kept, so ``axes`` holds no more pairs than the map cells)."""
        points = grid.parse_cell_id(a), grid.parse_cell_id(b)
        if points[0] is None or points[1] is None:
            raise ValueError(f"not a cell id: {a if points[0] is None else b!r}")
        if a not in self.graph or b not in self.graph:
            return grid.hex_distance(*points, self.low_columns) if self.grid == "hex" else grid.square_distance(*points)
        hexes = self.grid == "hex"
        for cell, (column, row) in zip((a, b), points):
            self.axes[cell] = grid.axes(column, row, self.low_columns, self.width) if hexes else (column, row)
        return self.distance(a, b)

    def within(self, cell: str, distance: int) -> set[str]:
        """Every cell at most ``distance`` away (graph hops; equals grid distance on a full map)."""
        return set(nx.single_source_shortest_path_length(self.graph, cell, cutoff=distance))

    def to_text(self) -> str:
        """The map as text, one legend character per cell, for tests and terminals."""
        chars = self.graph.graph["chars"]
        lines = []
        for row in range(1, self.height + 1):
            lines.append("".join(chars[grid.cell_id(c, row, self.graph.graph["id_width"])]
                                 for c in range(1, self.width + 1)))
        return "\n".join(lines)


def _find_line(text: str, needle: str) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return number
    return 1


class _MapReader:
    def __init__(self, path: str, text: str):
        self.path, self.text = path, text
        self.diagnostics: list[Diagnostic] = []

    def error(self, code: str, message: str, near: str | None = None, hint: str | None = None) -> None:
        line = _find_line(self.text, near) if near else 1
        self.diagnostics.append(diagnostic(code, Span.point(self.path, line), message, hint))

    def expect(self, table: dict, key: str, kind: type | tuple, what: str):
        value = table.get(key)
        if value is None:
            self.error("E701", f"map has no {key!r}", "[map]", f"add {key} = {what}")
        elif not isinstance(value, kind) or isinstance(value, bool):
            self.error("E701", f"{key!r} must be {what}, not {value!r}", f"{key}")
            return None
        return value


MAP_KEYS = ("name", "grid", "width", "height", "low_columns", "note", "rows", "legend", "places", "features")
"""The keys a ``[map]`` table may hold (any other is refused: E701)."""


def read_board(path: str | Path, terrain_names: Iterable[str] | None = None, *,
               deferring: Iterable[str] = (), features: Mapping[str, Feature] | None = None) -> Board:
    """Read a map file.  ``terrain_names`` (from the rulebook) checks the legend when given;
    ``deferring`` and ``features`` check and place what the module docstring says.

    Raises:
        RulesError: with positioned diagnostics for every problem found.
    """
    return board_from_text(read_map_text(path), str(path), terrain_names, deferring=deferring, features=features)


def read_map_text(path: str | Path) -> str:
    """A map file's text.

    Raises:
        RulesError: E004 when it cannot be read.
    """
    return read_toml_text(path, "map")


def board_from_text(text: str, path: str, terrain_names: Iterable[str] | None = None, *,
                    deferring: Iterable[str] = (), features: Mapping[str, Feature] | None = None) -> Board:
    """Build a board from map TOML text (see ``read_board``)."""
    reader = _MapReader(path, text)
    data = parse_toml(text, path, "E701")
    spec = data.get("map")
    if not isinstance(spec, dict):
        raise RulesError([diagnostic("E701", Span.point(path), "no [map] table", "start the file with [map]")])
    kind = reader.expect(spec, "grid", str, '"hex" or "square"')
    width = reader.expect(spec, "width", int, "a whole number")
    height = reader.expect(spec, "height", int, "a whole number")
    rows = reader.expect(spec, "rows", list, "a list of strings, one per row")
    legend = reader.expect(spec, "legend", dict, "a table of character = terrain")
    if kind is not None and kind not in ("hex", "square"):
        reader.error("E701", f"unknown grid {kind!r}", "grid", 'use "hex" or "square"')
    low = spec.get("low_columns", "even")
    if low not in grid.LOW_COLUMNS or (kind == "square" and "low_columns" in spec):
        reader.error("E701", f"'low_columns' must be \"even\" or \"odd\" on a hex map, not {low!r}"
                     + (" (on a square grid no column is lower)" if kind == "square" else ""), "low_columns")
    for key in spec:
        if key not in MAP_KEYS:
            reader.error("E701", f"unknown key {key!r} in [map]", key,
                         did_you_mean(key, MAP_KEYS) or f"the keys are {', '.join(MAP_KEYS)}")
    if reader.diagnostics or not (isinstance(width, int) and isinstance(height, int)):
        raise RulesError(reader.diagnostics)
    if not (1 <= width <= 999 and 1 <= height <= 999):
        raise RulesError([diagnostic("E701", Span.point(path, _find_line(text, "width")),
                                     f"map size {width}x{height} is outside 1..999")])
    id_width = 2 if max(width, height) <= 99 else 3
    cells = _legend(reader, legend, terrain_names, frozenset(deferring))
    graph = nx.Graph(chars={}, id_width=id_width)
    ids: dict[tuple[int, int], str] = {}
    tag_sets: dict[tuple[str, ...], frozenset[str]] = {}  # one set per distinct legend entry, shared by its cells
    if len(rows) != height:
        reader.error("E702", f"map has {len(rows)} rows but height is {height}", "rows")
    for r, line in enumerate(rows[:height], start=1):
        if not isinstance(line, str) or len(line) != width:
            reader.error("E702", f"row {r} has {len(line) if isinstance(line, str) else '?'} cells, width is {width}",
                         line if isinstance(line, str) else "rows")
            continue
        for c, char in enumerate(line, start=1):
            if char not in cells:
                reader.error("E702", f"character {char!r} in row {r} is not in the legend", line,
                             "add it to [map.legend]")
                continue
            if cells[char] is None:
                continue
            terrain, tags = cells[char]
            cid = ids[c, r] = grid.cell_id(c, r, id_width)
            graph.add_node(cid, terrain=terrain, tags=tag_sets.setdefault(tags, frozenset(tags)), place=None)
            graph.graph["chars"][cid] = char
    if reader.diagnostics:
        raise RulesError(reader.diagnostics)
    _connect(graph, kind, ids, low if low in grid.LOW_COLUMNS else "even")
    places = _places(reader, spec.get("places", {}), graph)
    _features(reader, spec.get("features", []), graph, features)
    if reader.diagnostics:
        raise RulesError(reader.diagnostics)
    nx.freeze(graph)
    return Board(str(spec.get("name", path)), kind, width, height, graph, places, str(spec.get("note", "")), low)


def _legend(reader: _MapReader, legend: dict, terrain_names,
            deferring: frozenset[str]) -> dict[str, tuple[str, tuple[str, ...]] | None]:
    known = set(terrain_names) if terrain_names is not None else None
    out = {}
    for char, value in legend.items():
        parts = [value] if isinstance(value, str) else value
        if len(char) != 1 or not isinstance(parts, list) or not parts or not all(isinstance(p, str) for p in parts):
            reader.error("E701", f"legend entry {char!r} must map one character to a terrain name "
                         "or a list [terrain, tag, …]", char)
            continue
        if known is not None and parts[0] not in known:
            reader.error("E702", f"unknown terrain {parts[0]!r} in the legend", f'"{char}"',
                         did_you_mean(parts[0], known))
            out[char] = None  # reported once here, not again for every cell that uses it
            continue
        others = [p for p in parts[1:] if known is not None and p in known and p not in deferring]
        if parts[0] in deferring and len(others) > 1:
            reader.error("E708", f"legend entry {char!r} gives {parts[0]!r}, which takes its effects from the "
                         f"cell's other terrain, two other terrains: {', '.join(others)}", f'"{char}"',
                         "name one other terrain in the entry (or make the others tags)")
        out[char] = (parts[0], tuple(parts[1:]))
    return out


_NO_FEATURES: frozenset[str] = frozenset()
"""Shared by every edge without features: one empty set, not one per edge (maps have many edges)."""


def _connect(graph: nx.Graph, kind: str, ids: dict[tuple[int, int], str], low: str) -> None:
    """Join each cell to its neighbours; ``ids`` are the node id strings, reused by every edge."""
    for (c, r), here in ids.items():
        around = [(n, "side") for n in grid.hex_neighbours(c, r, low)] if kind == "hex" else \
            grid.square_neighbours(c, r)
        for neighbour, edge_kind in around:
            there = ids.get(neighbour)
            if there is not None:
                graph.add_edge(here, there, kind=edge_kind, features=_NO_FEATURES)


def _places(reader: _MapReader, places, graph: nx.Graph) -> tuple[tuple[str, str], ...]:
    out = []
    if not isinstance(places, dict):
        reader.error("E701", "[map.places] must be a table of name = cell", "places")
        return ()
    for name, cell in places.items():
        if not isinstance(cell, str) or cell not in graph:
            reader.error("E703", f"place {name!r} is at {cell!r}, which is not on the map", name)
            continue
        graph.nodes[cell]["place"] = name
        out.append((name, cell))
    return tuple(out)


def _features(reader: _MapReader, features, graph: nx.Graph, declared: Mapping[str, Feature] | None) -> None:
    if not isinstance(features, list):
        reader.error("E701", "[[map.features]] must be a list of tables", "features")
        return
    for feature in features:
        if not isinstance(feature, dict):
            reader.error("E701", f"a feature must be a table such as {{ kind = \"river\", path = [\"0101\", "
                         f"\"0102\"] }}, not {feature!r}", "features", "write each feature as a [[map.features]] table")
            continue
        kind, path = feature.get("kind"), feature.get("path")
        if not isinstance(kind, str) or not isinstance(path, list) or len(path) < 2:
            reader.error("E701", "a feature needs kind = \"name\" and path = [two or more cells]", "features")
            continue
        drawing = _drawing(reader, kind, declared)
        if drawing is None:
            continue
        marks = drawing.tags | {kind}
        for a, b in zip(path, path[1:]):
            if a not in graph or b not in graph:
                bad = a if a not in graph else b
                reader.error("E703", f"feature {kind!r} names {bad!r}, which is not on the map", str(bad))
            elif not graph.has_edge(a, b):
                reader.error("E703", f"feature {kind!r} joins {a} and {b}, which are not adjacent", str(a))
            else:
                edge = graph.edges[a, b]
                places = f"{edge['kind']}s"  # "sides" or "corners"
                if places in drawing.on:
                    edge["features"] = edge["features"] | marks
                elif "cells" not in drawing.on:
                    reader.error("E707", f"feature {kind!r} is drawn across the {edge['kind']} between {a} and {b}, "
                                 f"but it is on {' and '.join(sorted(drawing.on))} only", str(a),
                                 f"add 'on {places}' to feature {kind!r}, or draw it another way")
        if "cells" in drawing.on:
            for cell in path:
                if cell in graph:
                    graph.nodes[cell]["tags"] = graph.nodes[cell]["tags"] | marks


_ANYWHERE = Feature("", "", DRAWN_ON_EDGES, frozenset())
"""How a feature is drawn when the map is read without a rulebook: on the edges of its path."""


def _drawing(reader: _MapReader, kind: str, declared: Mapping[str, Feature] | None) -> Feature | None:
    if declared is None:
        return _ANYWHERE
    found = declared.get(kind)
    if found is None:
        reader.error("E706", f"the rulebook declares no feature {kind!r}", f'"{kind}"', did_you_mean(kind, declared))
    return found
