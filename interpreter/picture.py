"""A map as a picture: the board drawn as SVG, and counters on it at one moment of a game.

``MapPicture(board, rules)`` draws a board once: one polygon per cell coloured by terrain
(``picture_style``), a fill pattern over the cells for each of their extra tags, the map's
features, cell ids, named places and a legend.  ``svg(counters, control)`` adds the counters
(``frames.Counter``: what one side sees, or the whole truth) and who holds which cell.

How features are drawn, read from each feature's ``on`` line (``dsl.compiled.terrain.Feature``):
a feature on cell sides only (a river between hexes) is drawn on the shared sides of its path;
one on cells or on corners (a road, a railway, a water link) as a line from centre to centre.
A map read without a rulebook draws every feature centre to centre.

Counters: a square in the side's colour with the type's abbreviation and the counter's id (a
marker is round); a counter the viewer cannot identify is a grey square with a ``?`` (its
identity is not in the picture at all); one the viewer sees face up although it is face down
(the whole truth) has a dashed outline.  Up to three counters of a cell are drawn offset as a
stack, with the stack's size in a badge past that; each stack's ``<title>`` lists it.

Written with ``xml.etree.ElementTree`` (escaping and well-formedness by the standard library);
``png`` converts with cairosvg, an optional extra (``pip install warbook[picture]``).
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from attrs import frozen

from . import grid
from .board import Board
from .picture_style import PATTERNS, abbreviation, feature_style, ink_on, shade, side_colours, tag_ink, terrain_colours

SVG_NS = "http://www.w3.org/2000/svg"
HEX_SIZE = 34.0
"""Centre to corner of a hex, in pixels."""
SQUARE_SIZE = 44.0
"""Side of a square, in pixels (a 34x37 map is 1,500 by 1,630)."""
MARGIN = 24.0
LEGEND_WIDTH = 290.0
LEGEND_TEXT = 42
"""Characters of a legend entry shown (a longer label ends in an ellipsis; its cells' titles say it all)."""
DARK_INK = ink_on("#ffffff")
"""Cell ids on a light cell (the ids' group colour; a dark cell's id is light)."""
STACK_SHOWN = 3
"""Counters of one cell drawn one on another; a larger stack shows its size in a badge."""


@frozen
class Geometry:
    """Where each cell of a grid lies on the picture: flat-topped hexes in columns (the low
    columns half a hex down, ``grid``), or squares."""

    kind: str
    size: float
    low: str
    columns: int
    rows: int
    x0: float = MARGIN
    y0: float = MARGIN + 26.0

    @classmethod
    def of(cls, board: Board) -> Geometry:
        size = HEX_SIZE if board.grid == "hex" else SQUARE_SIZE
        return cls(board.grid, size, board.low_columns, board.width, board.height)

    @property
    def half_height(self) -> float:
        """Half a cell's height: the distance from a hex's centre to its flat side."""
        return self.size * math.sqrt(3) / 2 if self.kind == "hex" else self.size / 2

    @property
    def width(self) -> float:
        if self.kind == "hex":
            return self.size * (1.5 * (self.columns - 1) + 2)
        return self.size * self.columns

    @property
    def height(self) -> float:
        if self.kind == "hex":
            return self.half_height * (2 * self.rows + (1 if self.columns > 1 else 0))
        return self.size * self.rows

    def centre(self, column: int, row: int) -> tuple[float, float]:
        if self.kind == "hex":
            low = (column + (self.low == "odd")) % 2 == 0
            x = self.size * (1 + 1.5 * (column - 1))
            y = self.half_height * (1 + 2 * (row - 1) + (1 if low else 0))
        else:
            x, y = self.size * (column - 0.5), self.size * (row - 0.5)
        return self.x0 + x, self.y0 + y

    def corners(self, column: int, row: int) -> list[tuple[float, float]]:
        cx, cy = self.centre(column, row)
        if self.kind == "hex":
            return [(cx + self.size * math.cos(math.pi / 3 * k), cy + self.size * math.sin(math.pi / 3 * k))
                    for k in range(6)]
        h = self.size / 2
        return [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]

    def shared_side(self, a: tuple[int, int], b: tuple[int, int]) -> list[tuple[float, float]]:
        """The corners of cell ``a`` that cell ``b`` shares: a side's two ends, a corner's one."""
        bx, by = self.centre(*b)
        reach = self.size if self.kind == "hex" else self.size * math.sqrt(2) / 2
        return [p for p in self.corners(*a) if abs(math.dist(p, (bx, by)) - reach) < 0.5]


def points(corners: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)


def _el(parent: ET.Element | None, tag: str, text: str | None = None, **attributes: Any) -> ET.Element:
    """An SVG element (``class_`` for ``class``; underscores become hyphens), appended to ``parent``."""
    attrib = {k.rstrip("_").replace("_", "-"): (f"{v:.1f}" if isinstance(v, float) else str(v))
              for k, v in attributes.items() if v is not None}
    node = ET.Element(tag, attrib) if parent is None else ET.SubElement(parent, tag, attrib)
    if text is not None:
        node.text = text
    return node


def _halo_text(parent: ET.Element, x: float, y: float, text: str, size: float, **style: Any) -> None:
    """Text with a white halo (drawn twice: a stroke under the fill, which every converter draws)."""
    group = _el(parent, "g", font_size=size, text_anchor="middle", **style)
    _el(group, "text", text, x=x, y=y, stroke="#ffffff", stroke_width=size / 4, stroke_linejoin="round", fill="#ffffff")
    _el(group, "text", text, x=x, y=y)


class MapPicture:
    """One board drawn once, for any number of moments of a game on it."""

    def __init__(self, board: Board, rules=None, title: str | None = None):
        self.board, self.rules = board, rules
        self.title = title or board.name
        self.geometry = Geometry.of(board)
        self.cells = {cell: grid.parse_cell_id(cell) for cell in board.cells}
        terrains = self._terrains()
        self.terrain_labels = {name: label for name, label, _ in terrains}
        self.terrain_colours = terrain_colours(terrains)
        self.tags = self._tags()
        self.sides: tuple[str, ...] = tuple(rules.sides) if rules is not None else ()
        self.side_colours = side_colours(self.sides)
        self.counter_size = self.geometry.size * (0.62 if board.grid == "hex" else 0.56)

    # --- what the board holds -----------------------------------------------------------

    def _terrains(self) -> list[tuple[str, str, tuple[str, ...]]]:
        """(name, label, tags) of every terrain on the board, in the rulebook's order."""
        used = {self.board.terrain(cell) for cell in self.board.cells}
        declared = self.rules.terrains if self.rules is not None else {}
        ordered = [name for name in declared if name in used] + sorted(used - set(declared))
        return [(name, declared[name].label if name in declared else name.replace("_", " ").capitalize(),
                 tuple(sorted(declared[name].tags)) if name in declared else ()) for name in ordered]

    def _tags(self) -> dict[str, str]:
        """Each extra cell tag (not the cell's terrain, not a feature drawn as a line) and its pattern."""
        features = set(self.rules.features) if self.rules is not None else set()
        found: list[str] = []
        for cell in self.board.cells:
            for tag in sorted(self.board.tags(cell)):
                if tag != self.board.terrain(cell) and tag not in features and tag not in found:
                    found.append(tag)
        return {tag: PATTERNS[i % len(PATTERNS)] for i, tag in enumerate(found)}

    def label_of(self, kind: str, name: str) -> str:
        """A declaration's label from the rulebook, else its name in words."""
        if self.rules is not None:
            for decl in self.rules.rulebook.of_kind(kind):
                if decl.name == name:
                    return decl.display
        return name.replace("_", " ")

    def centre(self, cell: str) -> tuple[float, float]:
        return self.geometry.centre(*self.cells[cell])

    @property
    def map_width(self) -> float:
        return self.geometry.x0 + self.geometry.width + MARGIN

    # --- drawing ------------------------------------------------------------------------

    def svg(self, counters: Sequence = (), control: Mapping[str, str] | None = None, subtitle: str = "") -> str:
        """The picture as SVG text, with ``counters`` (``frames.Counter``) and ``control`` (cell: side)."""
        root = self.element(counters, control or {}, subtitle)
        return ET.tostring(root, encoding="unicode", xml_declaration=False) + "\n"

    def element(self, counters: Sequence = (), control: Mapping[str, str] | None = None, subtitle: str = "",
                glyphs: Iterable[tuple[str, str | None, bool]] = ()) -> ET.Element:
        """The picture as an element tree; ``glyphs`` (side, type or ``None``, marker) are defined
        besides those of ``counters`` (a page that draws counters later needs them all)."""
        wanted = dict.fromkeys(sorted({*glyphs, *((c.side, c.type, c.marker) for c in counters
                                                  if c.location in self.cells)}, key=_glyph_order))
        legend = self._legend_rows(wanted, [c for c in counters if c.location not in self.cells])
        height = max(self.geometry.y0 + self.geometry.height + MARGIN, MARGIN + 30 + 18 * len(legend))
        width = self.map_width + LEGEND_WIDTH
        root = _el(None, "svg", xmlns=SVG_NS, width=round(width), height=round(height),
                   viewBox=f"0 0 {round(width)} {round(height)}", font_family="DejaVu Sans, Arial, sans-serif")
        defs = _el(root, "defs")
        self._pattern_defs(defs)
        for side, type_name, marker in wanted:
            self._glyph(defs, side, type_name, marker)
        _el(root, "rect", x=0, y=0, width=round(width), height=round(height), fill="#fbfaf5")
        _el(root, "text", self.title + (f" — {subtitle}" if subtitle else ""), x=MARGIN, y=MARGIN + 8,
            font_size=16, font_weight="bold", id="title")
        self._cells(_el(root, "g", id="cells", stroke="#6b6b6b", stroke_width=0.6))
        self._patterns(_el(root, "g", id="tags", stroke="none"))
        self._features(_el(root, "g", id="features", fill="none", stroke_linecap="round"))
        self._control(_el(root, "g", id="control", fill="none"), control or {})
        self._ids(_el(root, "g", id="ids", fill=DARK_INK, text_anchor="middle"))
        self._places(_el(root, "g", id="places", font_weight="bold", fill="#1a1a1a"))
        self.draw_counters(_el(root, "g", id="counters"), counters)
        self._draw_legend(_el(root, "g", id="legend", font_size=11), legend)
        return root

    def _cells(self, group: ET.Element) -> None:
        for cell, (column, row) in self.cells.items():
            terrain = self.board.terrain(cell)
            polygon = _el(group, "polygon", points=points(self.geometry.corners(column, row)),
                          fill=self.terrain_colours[terrain], class_="cell", id=f"cell-{cell}", data_terrain=terrain)
            extra = sorted(self.board.tags(cell) - {terrain})
            place = self.board.graph.nodes[cell].get("place")
            _el(polygon, "title", f"{cell} {self.terrain_labels[terrain]}" + (f" ({', '.join(extra)})" if extra else "")
                + (f" — {place}" if place else ""))

    def _pattern_defs(self, defs: ET.Element) -> None:
        for tag, pattern in self.tags.items():
            ink = tag_ink(tag)
            tile = _el(defs, "pattern", id=f"pat-{tag}", patternUnits="userSpaceOnUse", width=8, height=8)
            style = {"stroke": ink, "stroke_width": 1.1, "fill": "none", "stroke_opacity": 0.55}
            if pattern == "hatch":
                _el(tile, "path", d="M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4", **style)
            elif pattern == "backhatch":
                _el(tile, "path", d="M-2,6 l4,4 M0,0 l8,8 M6,-2 l4,4", **style)
            elif pattern == "cross":
                _el(tile, "path", d="M0,8 l8,-8 M0,0 l8,8", **style)
            elif pattern == "vertical":
                _el(tile, "path", d="M4,0 v8", **style)
            elif pattern == "waves":
                _el(tile, "path", d="M0,4 q2,-3 4,0 t4,0", **style)
            elif pattern == "rings":
                _el(tile, "circle", cx=4, cy=4, r=2.2, **style)
            else:  # dots
                _el(tile, "circle", cx=4, cy=4, r=1.3, fill=ink, fill_opacity=0.6)

    def _patterns(self, group: ET.Element) -> None:
        """One path per tag over all its cells (one element each, not one per cell: converters
        fill a pattern once per element, and a large map has hundreds of tagged cells)."""
        outlines: dict[str, list[str]] = {tag: [] for tag in self.tags}
        for cell, (column, row) in self.cells.items():
            for tag in self.board.tags(cell):
                if tag in outlines:
                    outlines[tag].append("M" + points(self.geometry.corners(column, row)).replace(" ", " L") + "Z")
        for tag, shapes in outlines.items():
            _el(group, "path", d="".join(shapes), fill=f"url(#pat-{tag})", class_=f"tag tag-{tag}",
                data_cells=len(shapes))

    def _features(self, group: ET.Element) -> None:
        drawn = self.rules.features if self.rules is not None else {}
        for a, b, data in sorted(self.board.graph.edges(data=True)):
            for name in sorted(data["features"]):
                feature = drawn.get(name)
                if drawn and feature is None:
                    continue  # a tag a feature adds to its edges: drawn with the feature itself
                colour, dash = feature_style(name, feature.tags if feature else ())
                if feature is not None and feature.on == frozenset({"sides"}):
                    ends = self.geometry.shared_side(self.cells[a], self.cells[b])
                    if len(ends) == 2:
                        _el(group, "line", x1=ends[0][0], y1=ends[0][1], x2=ends[1][0], y2=ends[1][1], stroke=colour,
                            stroke_width=self.geometry.size * 0.16, class_=f"feature feature-{name}")
                        continue
                (x1, y1), (x2, y2) = self.centre(a), self.centre(b)
                _el(group, "line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=colour, stroke_width=self.geometry.size * 0.09,
                    stroke_dasharray=dash or None, class_=f"feature feature-{name}")

    def _control(self, group: ET.Element, control: Mapping[str, str]) -> None:
        for cell, side in sorted(control.items()):
            if cell not in self.cells:
                continue
            _el(group, "polygon", points=points(self.control_outline(cell)), stroke=self.side_colours.get(side, "#555555"),
                stroke_width=2.5, stroke_dasharray="4 2", class_="control", data_side=side, data_cell=cell)

    def control_outline(self, cell: str) -> list[tuple[float, float]]:
        """The dashed outline a held cell gets, inside the cell's own."""
        cx, cy = self.centre(cell)
        return [(cx + 0.8 * (x - cx), cy + 0.8 * (y - cy)) for x, y in self.geometry.corners(*self.cells[cell])]

    def _ids(self, group: ET.Element) -> None:
        size = self.geometry.size * (0.27 if self.geometry.kind == "hex" else 0.22)
        group.set("font-size", f"{size:.1f}")
        for cell in self.cells:
            cx, cy = self.centre(cell)
            ink = ink_on(self.terrain_colours[self.board.terrain(cell)])
            _el(group, "text", cell, x=cx, y=cy - self.geometry.half_height + size * 1.05,
                fill=None if ink == DARK_INK else ink)

    def _places(self, group: ET.Element) -> None:
        names: dict[str, list[str]] = {}
        for name, cell in self.board.places:
            names.setdefault(cell, []).append(name)
        size = self.geometry.size * 0.3
        for cell, here in names.items():
            cx, cy = self.centre(cell)
            _halo_text(group, cx, cy + self.geometry.half_height - size * 0.35, " / ".join(here), size, class_="place")

    # --- counters ----------------------------------------------------------------------

    @staticmethod
    def glyph_id(side: str, type_name: str | None) -> str:
        return f"glyph-{side}-{type_name or 'hidden'}"

    def _glyph(self, defs: ET.Element, side: str, type_name: str | None, marker: bool) -> None:
        """A counter's face as a ``<symbol>``: every counter of this side and type uses it."""
        k = self.counter_size
        colour = self.side_colours.get(side, "#555555")
        symbol = _el(defs, "symbol", id=self.glyph_id(side, type_name), viewBox=f"0 0 {k:.1f} {k:.1f}",
                     width=k, height=k, overflow="visible")
        if type_name is None:
            _el(symbol, "rect", x=0.5, y=0.5, width=k - 1, height=k - 1, rx=2, fill="#5b5b5b", stroke=colour,
                stroke_width=2)
            _el(symbol, "text", "?", x=k / 2, y=k * 0.68, font_size=k * 0.55, font_weight="bold",
                text_anchor="middle", fill="#ffffff")
            return
        text = abbreviation(self.label_of("marker" if marker else "unit", type_name))
        if marker:
            _el(symbol, "circle", cx=k / 2, cy=k / 2, r=k / 2 - 0.5, fill=shade(colour, 0.55), stroke=colour,
                stroke_width=1.5)
        else:
            _el(symbol, "rect", x=0.5, y=0.5, width=k - 1, height=k - 1, rx=2, fill=colour, stroke="#1a1a1a",
                stroke_width=0.8)
        _el(symbol, "text", text, x=k / 2, y=k * 0.5, font_size=k * (0.36 if len(text) <= 3 else 0.3),
            font_weight="bold", text_anchor="middle", fill="#1a1a1a" if marker else "#ffffff")

    def stack_offsets(self, count: int) -> list[tuple[float, float]]:
        """Top-left corners, relative to the cell's centre, of the counters drawn in a stack of
        ``count``, bottom first (the page's script places its counters the same way)."""
        shown = min(count, STACK_SHOWN)
        k, step = self.counter_size, self.geometry.size * 0.11
        return [(-k / 2 + step * (i - (shown - 1) / 2), -k / 2 - step * (i - (shown - 1) / 2)) for i in range(shown)]

    def draw_counters(self, group: ET.Element, counters: Sequence) -> None:
        stacks: dict[str, list] = {}
        for counter in counters:
            if counter.location in self.cells:
                stacks.setdefault(counter.location, []).append(counter)
        k = self.counter_size
        for cell, stack in stacks.items():
            cx, cy = self.centre(cell)
            holder = _el(group, "g", class_="stack", data_cell=cell, data_count=len(stack))
            _el(holder, "title", f"{cell}: " + "; ".join(counter.describe() for counter in stack))
            offsets = self.stack_offsets(len(stack))
            for counter, (dx, dy) in zip(stack[len(stack) - len(offsets):], offsets):
                x, y = cx + dx, cy + dy
                face = _el(holder, "g", class_="counter" + (" hidden" if counter.type is None else ""),
                           data_id=counter.id, data_side=counter.side)
                _el(face, "use", href=f"#{self.glyph_id(counter.side, counter.type)}", x=x, y=y)
                if counter.face_down and counter.type is not None:
                    _el(face, "rect", x=x + 1.5, y=y + 1.5, width=k - 3, height=k - 3, fill="none", stroke="#ffffff",
                        stroke_width=1, stroke_dasharray="2 2", class_="face-down")
                _el(face, "text", counter.id, x=x + k / 2, y=y + k * 0.88, font_size=k * 0.26, text_anchor="middle",
                    fill="#ffffff" if not counter.marker or counter.type is None else "#1a1a1a")
            if len(stack) > STACK_SHOWN:
                bx, by = cx + k / 2 + 2, cy - k / 2 - 2
                _el(holder, "circle", cx=bx, cy=by, r=k * 0.26, fill="#ffffff", stroke="#1a1a1a", stroke_width=0.8)
                _el(holder, "text", str(len(stack)), x=bx, y=by + k * 0.1, font_size=k * 0.28, text_anchor="middle",
                    class_="badge")

    # --- legend ------------------------------------------------------------------------

    def _legend_rows(self, glyphs: Mapping[tuple[str, str | None, bool], None],
                     away: Sequence = ()) -> list[tuple[str, Any]]:
        rows: list[tuple[str, Any]] = [("heading", "Terrain")]
        rows += [("terrain", name) for name in self.terrain_colours]
        if self.tags:
            rows += [("heading", "Cell tags"), *(("tag", tag) for tag in self.tags)]
        features = sorted({name for _, _, data in self.board.graph.edges(data=True) for name in data["features"]
                           if self.rules is None or name in self.rules.features})
        if features:
            rows += [("heading", "Features"), *(("feature", name) for name in features)]
        if glyphs:
            rows += [("heading", "Counters"), *(("glyph", key) for key in glyphs)]
        if self.sides:
            rows += [("heading", "Sides (control: dashed outline)"), *(("side", side) for side in self.sides)]
        if away:
            boxes: dict[str, list[str]] = {}
            for counter in away:
                boxes.setdefault(counter.location, []).append(counter.id)
            rows += [("heading", "Off the map"), *(("box", (box, ids)) for box, ids in sorted(boxes.items()))]
        return rows

    def _draw_legend(self, group: ET.Element, rows: list[tuple[str, Any]]) -> None:
        x, y = self.map_width, MARGIN + 30
        group.set("class", "legend")
        for kind, key in rows:
            if kind == "heading":
                _el(group, "text", key, x=x, y=y + 12, font_weight="bold", font_size=12)
            elif kind == "terrain":
                _el(group, "rect", x=x, y=y + 2, width=22, height=13, fill=self.terrain_colours[key], stroke="#6b6b6b",
                    stroke_width=0.6)
                _el(group, "text", _short(self.terrain_labels[key]), x=x + 28, y=y + 13, class_="legend-terrain")
            elif kind == "tag":
                _el(group, "rect", x=x, y=y + 2, width=22, height=13, fill="#ffffff", stroke="#6b6b6b", stroke_width=0.6)
                _el(group, "rect", x=x, y=y + 2, width=22, height=13, fill=f"url(#pat-{key})")
                _el(group, "text", _short(self.label_of("tag", key)), x=x + 28, y=y + 13, class_="legend-tag")
            elif kind == "feature":
                feature = self.rules.features.get(key) if self.rules is not None else None
                colour, dash = feature_style(key, feature.tags if feature else ())
                _el(group, "line", x1=x, y1=y + 9, x2=x + 22, y2=y + 9, stroke=colour, stroke_width=3,
                    stroke_dasharray=dash or None)
                _el(group, "text", _short(self.label_of("feature", key)), x=x + 28, y=y + 13, class_="legend-feature")
            elif kind == "glyph":
                side, type_name, marker = key
                scale = 15 / self.counter_size
                _el(group, "use", href=f"#{self.glyph_id(side, type_name)}", transform=f"translate({x + 3:.1f},{y + 1:.1f}) "
                    f"scale({scale:.3f})")
                what = self.label_of("marker" if marker else "unit", type_name) if type_name else "face down (unknown)"
                _el(group, "text", _short(f"{self.label_of('side', side)}: {what}"), x=x + 28, y=y + 13, class_="legend-counter")
            elif kind == "box":
                box, ids = key
                _el(group, "text", _short(f"{box.replace('_', ' ')} ({len(ids)}): {', '.join(ids)}"), x=x, y=y + 13,
                    class_="legend-box", data_box=box)
            elif kind == "side":
                _el(group, "rect", x=x, y=y + 2, width=22, height=13, fill=self.side_colours[key])
                _el(group, "text", self.label_of("side", key), x=x + 28, y=y + 13, class_="legend-side")
            y += 18


def _short(text: str) -> str:
    return text if len(text) <= LEGEND_TEXT else text[:LEGEND_TEXT - 1].rstrip() + "…"


def _glyph_order(key: tuple[str, str | None, bool]) -> tuple:
    side, type_name, marker = key
    return side, type_name is None, marker, type_name or ""


def png(svg: str) -> bytes:
    """The picture as PNG, through cairosvg (the ``picture`` extra).

    Raises:
        ImportError: when cairosvg (or the cairo library it needs) is not installed.
    """
    import cairosvg  # optional: only PNG output needs it

    return cairosvg.svg2png(bytestring=svg.encode("utf-8"))
