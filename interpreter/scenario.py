"""Scenario files: which rulebook, which map, how long, who goes first, and the set-up.

A scenario is TOML (docs/scenarios.md)::

    [scenario]
    name = "River Crossing"
    rules = "river_crossing.rules"   # an overlay that extends the game (victory, special rules)
    map = "maps/river_crossing.toml"
    turns = 8
    player_order = ["blue", "red"]
    year = 1966                      # optional: the calendar year (costs that change by year)
    unplaced = "reserve"             # optional: where a counter goes that no cell is left for
    [scenario.resources.blue]        # starting values
    vp = 0
    [scenario.income.blue]           # gained each turn (read by `do gain income`)
    cp = 10
    [scenario.options]               # optional rules switched on or off for this scenario
    night_moves = true
    [scenario.choose]                # optional rules a side decides before play
    cross_the_border = "blue"

    [[setup]]                        # a fixed placement: a cell id or a place name of the map
    side = "blue"
    unit = "infantry"
    count = 2
    at = "0507"

    [[setup]]                        # one counter on each named place
    side = "blue"
    unit = "militia"
    places = ["Millbrook", "Eastford"]

    [[setup]]                        # a holding area: a box of the rulebook
    side = "blue"
    unit = "base"
    count = 2
    box = "reserve"

    [[setup]]                        # a placement the side decides: cells to choose from
    side = "red"
    unit = "raider"
    count = 4
    zone = { terrain = ["jungle", "village"], columns = "10-16", not_tags = ["neutral"] }
    per_cell = 2

    [[draw]]                         # counters picked at random from a mix; the rest to a box
    side = "red"
    count = 3
    from = { scout = 4, raider = 2 }
    rest = "pool"
    [[draw.place]]
    units = ["scout"]
    zone = { tags = ["river"] }

    [[turn_modifier]]                # an entry of GameState.turn_modifiers on the given turns
    turns = "1"
    side = "red"
    what = "roll:recon"
    amount = 1

Paths are relative to the scenario file.  Every problem is a diagnostic with
the file and, where it can be found, the line (E704).  Lines are found by
searching the text for the entry's header and key, so a key written on the
same line as another entry's may be reported on the first of them.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from attrs import evolve, frozen

from ..dsl.ast import Span
from ..dsl.diagnostics import Diagnostic, RulesError, diagnostic, did_you_mean, register
from ..dsl.loader import find_rulebook, load_with_diagnostics
from ..dsl.model import Rulebook
from ..dsl.values import read_range
from . import grid
from .board import Board, board_from_text, read_map_text
from .options import with_options
from .rules import Rules

register("E704", "bad-scenario", """
    ## What it does
    Reports a scenario file that is not valid TOML, lacks `[scenario]` keys (`map`, `turns`,
    `player_order`, and `rules` or `rulebook`), names unknown sides, unit types, boxes, options,
    places or cells, gives a set-up entry none of `at`, `places`, `box` or `zone` (or more than
    one), a zone that holds no cell, a key the format does not know, or a unit type set up for a
    side it does not belong to.
""")

EDGES = ("north", "south", "east", "west")
"""Map edges a zone may name: the first or last row (north, south) or column (west, east)."""

MODIFIER_KINDS = ("roll", "income", "gains")
"""What a ``[[turn_modifier]]`` may change (``GameState.turn_modifiers``): ``roll:WHAT`` adds to a
side's WHAT rolls (``roll:recon``), ``income:RESOURCE`` to its income, ``gains:RESOURCE``
multiplies what it gains."""

_SETUP_KEYS = ("side", "unit", "count", "at", "places", "box", "zone", "one_each", "per_cell", "group",
               "group_per_cell", "may_hold", "requires_option", "note")
_ZONE_KEYS = ("cells", "places", "terrain", "columns", "rows", "tags", "not_tags", "edge", "holding")
_DRAW_KEYS = ("side", "count", "from", "rest", "rest_count", "place", "per_cell", "note")
_MODIFIER_KEYS = ("turns", "side", "what", "amount", "note")
_SCENARIO_KEYS = ("name", "rules", "rulebook", "map", "turns", "player_order", "setup_order", "note", "year",
                  "unplaced", "resources", "income", "options", "choose")


@frozen
class Zone:
    """Cells a side may choose from when placing units.

    ``allowed`` is every cell passing the static conditions, found when the scenario is loaded;
    ``holding`` is checked at placement (it depends on what is already set up).
    """

    cells: tuple[str, ...] = ()
    terrain: tuple[str, ...] = ()
    columns: tuple[int, int] | None = None
    rows: tuple[int, int] | None = None
    tags: tuple[str, ...] = ()
    """The cell's terrain, a tag of its terrain or a tag of the cell is one of these."""
    not_tags: tuple[str, ...] = ()
    """None of these names the cell (terrain, terrain tag or cell tag)."""
    edge: tuple[str, ...] = ()
    """The cell is on one of these map edges."""
    holding: tuple[str, ...] = ()
    """The cell already holds a counter of the placing side that these selectors name."""
    allowed: frozenset[str] | None = None

    def contains(self, board: Board, cell: str) -> bool:
        """Whether the cell passes the zone's static conditions (``holding`` is checked at set-up)."""
        if self.allowed is not None:
            return cell in self.allowed
        return self._static(board, cell, None)

    def _static(self, board: Board, cell: str, rules: Rules | None) -> bool:
        if self.cells and cell not in self.cells:
            return False
        if self.terrain and board.terrain(cell) not in self.terrain and not (set(self.terrain) & board.tags(cell)):
            return False
        col, row = int(cell[: len(cell) // 2]), int(cell[len(cell) // 2:])
        if self.columns and not self.columns[0] <= col <= self.columns[1]:
            return False
        if self.rows and not self.rows[0] <= row <= self.rows[1]:
            return False
        if self.edge and not any((e == "west" and col == 1) or (e == "east" and col == board.width)
                                 or (e == "north" and row == 1) or (e == "south" and row == board.height)
                                 for e in self.edge):
            return False
        if (self.tags or self.not_tags) and rules is not None:
            names = rules.cell_selectors(board.terrain(cell), board.tags(cell))
            if self.tags and not names & set(self.tags):
                return False
            if names & set(self.not_tags):
                return False
        return True


@frozen
class Placement:
    """One ``[[setup]]`` entry (or the counters of a ``[[draw]]`` picked for one zone)."""

    side: str
    unit: str
    count: int
    at: str | None
    """The cell every counter goes to (a place name is resolved to its cell)."""
    zone: Zone | None
    per_cell: int | None
    """At most this many counters of the side (of any entry) in a chosen cell."""
    line: int
    box: str | None = None
    """A holding area of the rulebook the counters start in (a reserve, a pool)."""
    cells: tuple[str, ...] = ()
    """One counter on each of these cells (``places``, or ``one_each`` of a zone)."""
    group: str = ""
    """Entries sharing a group share ``group_per_cell`` (default: the entry alone)."""
    group_per_cell: int | None = None
    """At most this many counters of the group in a chosen cell."""
    may_hold: str | None = None
    """A box the owner may put a counter in instead of a cell (held back for later)."""
    requires_option: str | None = None
    """Set up only when this option is in force."""


@frozen
class Draw:
    """A ``[[draw]]``: ``count`` counters picked at random from a mix, placed by type; the rest to a box."""

    side: str
    count: int
    mix: tuple[tuple[str, int], ...]
    """Unit type and how many counters of it, in the order written."""
    zones: tuple[tuple[tuple[str, ...], Zone], ...]
    """Unit types (empty: every type not named before) and the zone they are placed in."""
    rest: str | None
    """The box the counters not picked go to (``None``: they are not used)."""
    rest_count: int | None
    """How many of the counters not picked go to ``rest`` (default: all)."""
    per_cell: int | None
    line: int

    def zone_for(self, unit: str) -> Zone | None:
        for units, zone in self.zones:
            if not units or unit in units:
                return zone
        return None


@frozen
class TurnModifier:
    """A ``[[turn_modifier]]``: ``(side, what, amount)`` in force on turns ``first`` to ``last``."""

    first: int
    last: int
    side: str
    what: str
    amount: int
    line: int


@frozen
class Scenario:
    """A loaded scenario: its rulebook (with overlay), board and set-up."""

    path: str
    name: str
    text: str
    rulebook: Rulebook
    """The rulebook with the overlay and the scenario's ``[scenario.options]`` applied."""
    board: Board
    turns: int
    player_order: tuple[str, ...]
    setup_order: tuple[str, ...]
    resources: tuple[tuple[str, str, int], ...]
    setup: tuple[Placement, ...]
    note: str = ""
    income: tuple[tuple[str, str, int], ...] = ()
    """(side, resource, amount) gained each turn (``do gain income``)."""
    year: int | None = None
    """The calendar year the scenario is set in, when costs depend on it."""
    options: tuple[tuple[str, bool], ...] = ()
    """Options the scenario switches on or off, and those the players agreed (already applied to ``rulebook``)."""
    choices: tuple[tuple[str, str], ...] = ()
    """(option, side): options a side decides at the start of set-up."""
    draws: tuple[Draw, ...] = ()
    turn_modifiers: tuple[TurnModifier, ...] = ()
    unplaced: str = "offmap"
    """Where a counter goes when no cell of its zone is left for it."""
    agreed: tuple[tuple[str, bool], ...] = ()
    """Options the players switched before play (``agree``): part of ``options`` too, kept apart
    because a saved game must record them (the scenario file does not)."""
    rules_path: str = ""
    """The rules file the scenario names (its overlay or a shipped rulebook); ``rulebook.path``
    differs from it when the game is played under another rulebook (``with_rulebook``)."""
    map_path: str = ""
    map_text: str = ""
    """The map file read, kept so a saved game can carry it (``interpreter.savefile``)."""

    @functools.cached_property
    def rules(self) -> Rules:
        """The compiled rules, built once and shared by every game of this scenario (and its caches)."""
        return Rules(self.rulebook)

    @functools.cached_property
    def _variants(self) -> dict:
        return {}

    @functools.cached_property
    def _agreements(self) -> dict:
        return {}

    def agree(self, settings: Mapping[str, bool]) -> Scenario:
        """The scenario with options the players switched before play, on top of its own.

        Built once per set of options and kept with this scenario, so every game that agrees
        them shares one compiled ``Rules`` (and movement's caches).  The new scenario is made by
        ``evolve``, which never copies the cached ``rules``: they are compiled from its rulebook.
        A ``[scenario.choose]`` option the players settle is not asked of its side (set-up carries
        out its effects as if the side had chosen so).  Names must be declared options; others
        are ignored (``with_options``).
        """
        key = frozenset(settings.items())
        if not key:
            return self
        if key not in self._agreements:
            self._agreements[key] = evolve(self, rulebook=with_options(self.rulebook, settings),
                                           options=tuple({**dict(self.options), **settings}.items()),
                                           agreed=tuple({**dict(self.agreed), **settings}.items()))
        return self._agreements[key]

    def rules_for(self, settings: dict[str, bool]) -> tuple[Rulebook, Rules]:
        """The rulebook and compiled rules with options switched as chosen before play.

        Built once per set of choices and shared by every game that makes them, so movement's
        caches (kept per ``Rules``) are too.
        """
        key = frozenset(settings.items())
        if not key:
            return self.rulebook, self.rules
        if key not in self._variants:
            rulebook = with_options(self.rulebook, settings)
            self._variants[key] = (rulebook, Rules(rulebook) if rulebook is not self.rulebook else self.rules)
        return self._variants[key]


def _line(text: str, needle: str, after: int = 0) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if number > after and needle in line:
            return number
    return after or 1


def _span_range(text: Any) -> tuple[int, int] | None:
    r = read_range(str(text))
    if r is None or r.low is None or r.high is None:
        return None
    return r.low, r.high


def _whole(value: Any, least: int = 1) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


def _names(value: Any) -> tuple[str, ...] | None:
    """A list of strings as a tuple, or ``None`` when it is not one."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def _check_dummies(rulebook: Rulebook, rules: Rules, placements: list[Placement], bad) -> None:
    """A side's ``dummies`` limit: ``none``, ``up to units`` (no more than its real units) or a number."""
    for side in rules.sides:
        decl = rulebook.get("side", side)
        limit_prop = decl.first("dummies") if decl else None
        dummies = sum(p.count for p in placements if p.side == side and rules.unit_type(p.unit).dummy)
        if not dummies or limit_prop is None:  # a rulebook that says nothing sets no limit
            continue
        real = sum(p.count for p in placements if p.side == side and rules.unit_type(p.unit).kind == "unit")
        if limit_prop.has("none"):
            limit, why = 0, "may have no dummies"
        elif limit_prop.has("up"):
            limit, why = real, f"may have up to as many dummies as units ({real})"
        else:
            limit, why = limit_prop.get("count"), f"may have {limit_prop.get('count')} dummies"
        if dummies > limit:
            line = next(p.line for p in placements if p.side == side and rules.unit_type(p.unit).dummy)
            bad(f"{side} sets up {dummies} dummies but {why}", after=line,
                hint=f"side {side!r}: {limit_prop.text}")


class _Reader:
    """Reads the parts of a scenario that need the rulebook and the map, collecting diagnostics."""

    def __init__(self, text: str, rulebook: Rulebook, rules: Rules, board: Board, bad: Callable):
        self.text, self.rulebook, self.rules, self.board, self.bad = text, rulebook, rules, board, bad
        self.boxes = [d.name for d in rulebook.of_kind("box")]
        self.place_names = [name for name, _ in board.places]
        self.cell_names = sorted({n for c in board.cells
                                  for n in rules.cell_selectors(board.terrain(c), board.tags(c))})
        kinds = ("side", "nationality", "tag", "unit", "marker", "movement", "size")
        self.unit_selectors = sorted({d.name for k in kinds for d in rulebook.of_kind(k)})

    def key_line(self, key: str, entry_line: int) -> int:
        """The line of ``key`` in the entry starting at ``entry_line`` (the entry's line if not found)."""
        found = _line(self.text, key, entry_line - 1)
        return max(found, entry_line)

    def unknown_keys(self, table: dict, known: tuple[str, ...], what: str, line: int) -> bool:
        strays = [k for k in table if k not in known]
        for key in strays:
            self.bad(f"unknown key {key!r} in {what}", after=self.key_line(key, line),
                     hint=did_you_mean(key, known) or f"{what} takes: {', '.join(known)}")
        return bool(strays)

    def cell(self, where: Any, line: int, key: str) -> str | None:
        """A cell id of the map, or the cell of a place name; ``None`` (reported) otherwise."""
        if isinstance(where, str) and where in self.board.graph:
            return where
        if isinstance(where, str):
            found = self.board.place(where)
            if found is not None:
                return found
            if grid.parse_cell_id(where) is not None:
                self.bad(f"set-up cell {where!r} is not on the map", after=self.key_line(key, line))
                return None
        self.bad(f"{where!r} is neither a place of the map nor a cell id", after=self.key_line(key, line),
                 hint=did_you_mean(str(where), self.place_names) or "places are listed in the map's [map.places]")
        return None

    def box(self, name: Any, line: int, key: str) -> str | None:
        if name in self.boxes:
            return name
        self.bad(f"unknown box {name!r}", after=self.key_line(key, line),
                 hint=did_you_mean(str(name), self.boxes) or f"the rulebook's boxes: {', '.join(self.boxes)}")
        return None

    def option(self, name: Any, line: int, key: str) -> str | None:
        options = [d.name for d in self.rulebook.of_kind("option")]
        if name in options:
            return name
        self.bad(f"unknown option {name!r}", after=self.key_line(key, line),
                 hint=did_you_mean(str(name), options) or
                 (f"the rulebook's options: {', '.join(options)}" if options else "the rulebook declares no option"))
        return None

    def zone(self, spec: Any, line: int) -> Zone | None:
        if not isinstance(spec, dict):
            self.bad("'zone' must be a table such as { terrain = [\"town\"] }", after=self.key_line("zone", line))
            return None
        if self.unknown_keys(spec, _ZONE_KEYS, "a zone", line):
            return None
        lists: dict[str, tuple[str, ...]] = {}
        for key in ("cells", "places", "terrain", "tags", "not_tags", "edge", "holding"):
            if key in spec:
                names = _names(spec[key])
                if names is None:
                    self.bad(f"zone key {key!r} must be a list of names", after=self.key_line(key, line))
                    return None
                lists[key] = names
        ok = True
        cells = list(lists.get("cells", ()))
        for name in lists.get("places", ()):
            cell = self.cell(name, line, "places")
            ok = ok and cell is not None
            cells.append(cell or "")
        for key in ("tags", "not_tags"):
            for name in lists.get(key, ()):
                if name not in self.cell_names:
                    ok = False
                    self.bad(f"zone {key} names {name!r}, which names no cell of the map",
                             after=self.key_line(key, line), hint=did_you_mean(name, self.cell_names))
        for name in lists.get("edge", ()):
            if name not in EDGES:
                ok = False
                self.bad(f"unknown map edge {name!r}", after=self.key_line("edge", line),
                         hint=did_you_mean(name, EDGES) or f"edges: {', '.join(EDGES)}")
        for name in lists.get("holding", ()):
            if name not in self.unit_selectors:
                ok = False
                self.bad(f"zone holding names {name!r}, which is no side, unit, marker or tag",
                         after=self.key_line("holding", line), hint=did_you_mean(name, self.unit_selectors))
        columns = _span_range(spec["columns"]) if "columns" in spec else None
        rows = _span_range(spec["rows"]) if "rows" in spec else None
        for key, value in (("columns", columns), ("rows", rows)):
            if key in spec and value is None:
                ok = False
                self.bad(f"zone {key} must be a range such as \"4-12\", not {spec[key]!r}",
                         after=self.key_line(key, line))
        if not ok:
            return None
        zone = Zone(tuple(cells), lists.get("terrain", ()), columns, rows, lists.get("tags", ()),
                    lists.get("not_tags", ()), lists.get("edge", ()), lists.get("holding", ()))
        allowed = frozenset(c for c in self.board.cells if zone._static(self.board, c, self.rules))
        if not allowed:
            self.bad("set-up zone contains no cell of the map", after=line)
            return None
        return evolve(zone, allowed=allowed)

    def unit(self, side: Any, unit: Any, line: int) -> bool:
        """Whether ``side`` and ``unit`` are known, and the unit may belong to the side."""
        if side not in self.rules.sides:
            self.bad(f"unknown side {side!r}", after=line, hint=did_you_mean(str(side), self.rules.sides))
            return False
        if unit not in self.rules.unit_types:
            self.bad(f"unknown unit type {unit!r}", after=line, hint=did_you_mean(str(unit), self.rules.unit_types))
            return False
        owner = self.rules.unit_type(unit).side
        if owner is not None and owner != side:
            self.bad(f"unit type {unit!r} belongs to {owner!r}, not {side!r}", after=self.key_line("unit", line))
            return False
        return True

    def placement(self, entry: dict, line: int) -> Placement | None:
        if not isinstance(entry, dict) or self.unknown_keys(entry, _SETUP_KEYS, "a set-up entry", line):
            return None
        side, unit = entry.get("side"), entry.get("unit")
        if not self.unit(side, unit, line):
            return None
        where = [k for k in ("at", "places", "box", "zone") if k in entry]
        if len(where) != 1:
            self.bad("a set-up entry needs one of 'at' (a cell or place), 'places' (one on each), "
                     "'box' (a holding area) or 'zone' (cells to choose from)"
                     + (f", not {' and '.join(where)}" if where else ""), after=line)
            return None
        count = entry.get("count")
        if count is not None and not _whole(count):
            self.bad(f"'count' must be a whole number of at least 1, not {count!r}", after=self.key_line("count", line))
            return None
        at = box = zone = None
        cells: tuple[str, ...] = ()
        if "at" in entry:
            at = self.cell(entry["at"], line, "at")
            if at is None:
                return None
        elif "places" in entry:
            names = _names(entry["places"])
            if not names or isinstance(entry["places"], str):
                self.bad("'places' must be a list of place names or cells, one counter on each",
                         after=self.key_line("places", line))
                return None
            found = [self.cell(n, line, "places") for n in names]
            if None in found:
                return None
            cells = tuple(c for c in found if c)
        elif "box" in entry:
            box = self.box(entry["box"], line, "box")
            if box is None:
                return None
        else:
            zone = self.zone(entry["zone"], line)
            if zone is None:
                return None
            if entry.get("one_each"):
                cells = tuple(sorted(zone.allowed or (), key=lambda c: (len(c), c)))
                zone = None
        if "one_each" in entry and not isinstance(entry["one_each"], bool):
            self.bad("'one_each' must be true or false", after=self.key_line("one_each", line))
            return None
        if cells:
            if count is not None and count != len(cells):
                self.bad(f"'count' is {count} but the entry places one on each of {len(cells)} cells",
                         after=self.key_line("count", line))
                return None
            count = len(cells)
        numbers = {}
        for key in ("per_cell", "group_per_cell"):
            value = entry.get(key)
            if value is not None and not _whole(value):
                self.bad(f"{key!r} must be a whole number of at least 1, not {value!r}", after=self.key_line(key, line))
                return None
            numbers[key] = value
        group = entry.get("group", "")
        if not isinstance(group, str):
            self.bad("'group' must be a name (a string)", after=self.key_line("group", line))
            return None
        may_hold = self.box(entry["may_hold"], line, "may_hold") if "may_hold" in entry else None
        requires = self.option(entry["requires_option"], line, "requires_option") \
            if "requires_option" in entry else None
        if ("may_hold" in entry and may_hold is None) or ("requires_option" in entry and requires is None):
            return None
        return Placement(side, unit, count or 1, at, zone, numbers["per_cell"], line, box, cells,
                         group or f"line {line}", numbers["group_per_cell"], may_hold, requires)

    def draw(self, entry: dict, line: int) -> Draw | None:
        if not isinstance(entry, dict) or self.unknown_keys(entry, _DRAW_KEYS, "a draw", line):
            return None
        side, count, mix_spec = entry.get("side"), entry.get("count"), entry.get("from")
        if side not in self.rules.sides:
            self.bad(f"unknown side {side!r}", after=line, hint=did_you_mean(str(side), self.rules.sides))
            return None
        if not isinstance(mix_spec, dict) or not mix_spec:
            self.bad("a draw needs 'from', a table of unit type = number of counters", after=line)
            return None
        mix = []
        for unit, number in mix_spec.items():
            if not self.unit(side, unit, self.key_line(unit, line)):
                return None
            if not _whole(number):
                self.bad(f"the mix must give a whole number of {unit!r} counters, not {number!r}",
                         after=self.key_line(unit, line))
                return None
            mix.append((unit, number))
        total = sum(n for _, n in mix)
        if not _whole(count) or count > total:
            self.bad(f"'count' must be a whole number from 1 to the {total} counters of the mix, not {count!r}",
                     after=self.key_line("count", line))
            return None
        rest = self.box(entry["rest"], line, "rest") if "rest" in entry else None
        if "rest" in entry and rest is None:
            return None
        rest_count = entry.get("rest_count")
        if rest_count is not None and (not _whole(rest_count, 0) or rest_count > total - count):
            self.bad(f"'rest_count' must be a whole number up to the {total - count} counters not drawn",
                     after=self.key_line("rest_count", line))
            return None
        per_cell = entry.get("per_cell")
        if per_cell is not None and not _whole(per_cell):
            self.bad(f"'per_cell' must be a whole number of at least 1, not {per_cell!r}",
                     after=self.key_line("per_cell", line))
            return None
        zones = []
        place_line = line
        places = entry.get("place", [])
        if not isinstance(places, list):
            self.bad("write each zone of a draw as [[draw.place]] with 'units' and 'zone'", after=line)
            return None
        for place in places:
            place_line = _line(self.text, "[[draw.place]]", place_line)
            if not isinstance(place, dict) or self.unknown_keys(place, ("units", "zone", "note"), "a draw's place",
                                                                 place_line):
                return None
            units = _names(place.get("units", []))
            if units is None or any(u not in dict(mix) for u in units):
                self.bad("'units' must list unit types of the draw's mix", after=self.key_line("units", place_line),
                         hint=f"the mix: {', '.join(dict(mix))}")
                return None
            zone = self.zone(place.get("zone"), place_line)
            if zone is None:
                return None
            zones.append((units, zone))
        drawn = Draw(side, count, tuple(mix), tuple(zones), rest, rest_count, per_cell, line)
        for unit, _ in mix:
            if drawn.zone_for(unit) is None:
                self.bad(f"no [[draw.place]] zone for {unit!r}, which the draw may pick", after=line,
                         hint="add a [[draw.place]] naming it, or one with no 'units' for every other type")
                return None
        return drawn

    def turn_modifier(self, entry: dict, line: int) -> TurnModifier | None:
        if not isinstance(entry, dict) or self.unknown_keys(entry, _MODIFIER_KEYS, "a turn modifier", line):
            return None
        side, what, amount = entry.get("side"), entry.get("what"), entry.get("amount")
        turns = _span_range(entry.get("turns"))
        if turns is None:
            self.bad(f"'turns' must be a turn or a range such as \"1-3\", not {entry.get('turns')!r}",
                     after=self.key_line("turns", line))
            return None
        if side not in self.rules.sides:
            self.bad(f"unknown side {side!r}", after=line, hint=did_you_mean(str(side), self.rules.sides))
            return None
        kind, _, name = what.partition(":") if isinstance(what, str) else ("", "", "")
        resources = [r.name for r in self.rulebook.of_kind("resource")]
        if kind not in MODIFIER_KINDS or not name or (kind != "roll" and name not in resources):
            self.bad(f"'what' must be roll:WHAT, income:RESOURCE or gains:RESOURCE, not {what!r}",
                     after=self.key_line("what", line),
                     hint=f"resources: {', '.join(resources)}" if kind in ("income", "gains") else None)
            return None
        if not isinstance(amount, int) or isinstance(amount, bool):
            self.bad(f"'amount' must be a whole number, not {amount!r}", after=self.key_line("amount", line))
            return None
        return TurnModifier(turns[0], turns[1], side, what, amount, line)


def _side_values(head: dict, key: str, rulebook: Rulebook, rules: Rules, bad) -> list[tuple[str, str, int]]:
    """``[scenario.KEY.SIDE] resource = N`` tables as (side, resource, N)."""
    out = []
    table = head.get(key) or {}
    if not isinstance(table, dict):
        bad(f"[scenario.{key}] must hold one table per side", key)
        return out
    for side, values in table.items():
        if side not in rules.sides:
            bad(f"unknown side {side!r} in {key}", side, did_you_mean(side, rules.sides))
            continue
        if not isinstance(values, dict):
            bad(f"[scenario.{key}.{side}] must be a table of resource = number", side)
            continue
        for name, value in values.items():
            if rulebook.get("resource", name) is None:
                bad(f"unknown resource {name!r}", name, did_you_mean(name, [r.name for r in rulebook.of_kind("resource")]))
            elif not isinstance(value, int) or isinstance(value, bool):
                bad(f"resource {name!r} must {'start at' if key == 'resources' else 'be'} a whole number", name)
            else:
                out.append((side, name, value))
    return out


_SETUP_EFFECTS = ("gain", "lose")
"""Effect verbs an option chosen before play may have (they are carried out at set-up)."""


def _read_entries(text: str, data: dict, key: str, read) -> list:
    """Each ``[[KEY]]`` table read by ``read(entry, line)`` (its line found in order in the text);
    entries it rejects (``None``, a diagnostic already reported) are left out."""
    out = []
    line = 0
    for entry in data.get(key, []):
        line = _line(text, f"[[{key}]]", line)
        found = read(entry, line)
        if found is not None:
            out.append(found)
    return out


def scenario_rules(path: str | Path, name: str) -> Path | None:
    """The rules a scenario's ``rules``/``rulebook`` names: a file beside the scenario, else a
    shipped rulebook by name or alias; ``None`` when there is neither."""
    beside = Path(path).parent / name
    return beside if beside.is_file() else find_rulebook(name)


def load_scenario(path: str | Path) -> Scenario:
    """Load a scenario with its rulebook and map.

    Raises:
        RulesError: with every diagnostic from the scenario, its rulebook and its map.
    """
    path = Path(path)
    shown = str(path)
    problems: list[Diagnostic] = []

    def bad(message: str, near: str | None = None, hint: str | None = None, after: int = 0) -> None:
        line = _line(text, near, after) if near else after or 1
        problems.append(diagnostic("E704", Span.point(shown, line), message, hint))

    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except FileNotFoundError:
        raise RulesError([diagnostic("E004", Span.point(shown), f"no such scenario file {shown!r}")]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RulesError([diagnostic("E004", Span.point(shown), f"cannot read {shown!r}: {exc}")]) from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesError([diagnostic("E704", Span.point(shown, getattr(exc, "lineno", 1) or 1),
                                     f"not valid TOML: {exc}")]) from None
    head = data.get("scenario")
    if not isinstance(head, dict):
        raise RulesError([diagnostic("E704", Span.point(shown), "no [scenario] table", "start with [scenario]")])

    # Rulebook: an overlay file next to the scenario, or a shipped rulebook by name or path.
    rules_name = head.get("rules") or head.get("rulebook")
    if not isinstance(rules_name, str):
        raise RulesError([diagnostic("E704", Span.point(shown, _line(text, "[scenario]")),
                                     "the scenario names no rules", 'add rules = "my_overlay.rules" or '
                                     'rulebook = "NAME" (a shipped rulebook)')])
    rules_path = scenario_rules(path, rules_name)
    if rules_path is None:
        raise RulesError([diagnostic("E704", Span.point(shown, _line(text, rules_name)),
                                     f"no rules file or shipped rulebook {rules_name!r}")])
    rulebook, loading = load_with_diagnostics(rules_path)
    errors = [d for d in loading if d.severity.name == "ERROR"]
    if rulebook is None or errors:
        raise RulesError(errors or loading)

    # Options the scenario switches: applied to the rulebook the scenario is played with.
    options: list[tuple[str, bool]] = []
    declared_options = [d.name for d in rulebook.of_kind("option")]
    option_table = head.get("options") or {}
    for name, value in option_table.items() if isinstance(option_table, dict) else ():
        if name not in declared_options:
            bad(f"unknown option {name!r}", name, did_you_mean(name, declared_options)
                or (f"the rulebook's options: {', '.join(declared_options)}" if declared_options
                    else "the rulebook declares no option"))
        elif not isinstance(value, bool):
            bad(f"option {name!r} must be true or false, not {value!r}", name)
        else:
            options.append((name, value))
    if not isinstance(option_table, dict):
        bad("[scenario.options] must be a table of option = true or false", "options")
    rulebook = with_options(rulebook, dict(options))
    rules = Rules(rulebook)

    # Map.
    map_name = head.get("map")
    if not isinstance(map_name, str):
        raise RulesError([diagnostic("E704", Span.point(shown, _line(text, "[scenario]")), "the scenario names no map")])
    map_path = path.parent / map_name
    map_text = read_map_text(map_path)
    board = board_from_text(map_text, str(map_path), [d.name for d in rulebook.of_kind("terrain")])
    reader = _Reader(text, rulebook, rules, board, bad)

    for key in head:
        if key not in _SCENARIO_KEYS:
            bad(f"unknown key {key!r} in [scenario]", key, did_you_mean(key, _SCENARIO_KEYS))
    for key in data:
        if key not in ("scenario", "setup", "draw", "turn_modifier"):
            bad(f"unknown table {key!r}", key, did_you_mean(key, ("setup", "draw", "turn_modifier")))

    turns = head.get("turns")
    if not _whole(turns):
        bad(f"'turns' must be a whole number of at least 1, not {turns!r}", "turns")
    order = head.get("player_order")
    if not isinstance(order, list) or sorted(order) != sorted(rules.sides):
        bad(f"'player_order' must list every side once: {', '.join(rules.sides)}", "player_order")
        order = list(rules.sides)
    setup_order = head.get("setup_order", order)
    if not isinstance(setup_order, list) or sorted(setup_order) != sorted(rules.sides):
        bad(f"'setup_order' must list every side once: {', '.join(rules.sides)}", "setup_order")
        setup_order = order
    year = head.get("year")
    if year is not None and not _whole(year):
        bad(f"'year' must be a whole number, not {year!r}", "year")
        year = None
    unplaced = head.get("unplaced", "offmap")
    if unplaced != "offmap" and reader.box(unplaced, _line(text, "unplaced"), "unplaced") is None:
        unplaced = "offmap"

    resources = _side_values(head, "resources", rulebook, rules, bad)
    income = _side_values(head, "income", rulebook, rules, bad)

    choices: list[tuple[str, str]] = []
    choose = head.get("choose") or {}
    for name, side in choose.items() if isinstance(choose, dict) else ():
        line = _line(text, name, _line(text, "choose"))
        if reader.option(name, line, name) is None:
            continue
        if side not in rules.sides:
            bad(f"option {name!r} is chosen by unknown side {side!r}", after=line,
                hint=did_you_mean(str(side), rules.sides))
            continue
        for effect in rulebook.get("option", name).all("effect"):
            verb = effect.get("effect")
            if verb not in _SETUP_EFFECTS:
                bad(f"option {name!r} has an effect {verb!r}, which set-up cannot carry out", after=line,
                    hint=f"set-up carries out: {', '.join(_SETUP_EFFECTS)}")
        choices.append((name, side))
    if not isinstance(choose, dict):
        bad("[scenario.choose] must be a table of option = side", "choose")

    placements = _read_entries(text, data, "setup", reader.placement)
    draws = _read_entries(text, data, "draw", reader.draw)
    modifiers = _read_entries(text, data, "turn_modifier", reader.turn_modifier)
    _check_dummies(rulebook, rules, placements, bad)
    if problems:
        raise RulesError(problems)
    scenario = Scenario(shown, str(head.get("name", path.stem)), text, rulebook, board, int(turns), tuple(order),
                        tuple(setup_order), tuple(resources), tuple(placements), str(head.get("note", "")),
                        tuple(income), year, tuple(options), tuple(choices), tuple(draws), tuple(modifiers),
                        unplaced, rules_path=rulebook.path, map_path=str(map_path), map_text=map_text)
    return scenario


def with_rulebook(scenario: Scenario, rulebook: Rulebook | str | Path) -> Scenario:
    """The scenario played under another rulebook (a loaded one, or a path to load).

    The scenario's ``[scenario.options]`` (and any the players agreed) are applied to it as well.

    Raises:
        RulesError: when the rulebook does not load, or lacks a terrain of the map or a unit
        type of the set-up.
    """
    if not isinstance(rulebook, Rulebook):
        loaded, diagnostics = load_with_diagnostics(rulebook)
        errors = [d for d in diagnostics if d.severity.name == "ERROR"]
        if loaded is None or errors:
            raise RulesError(errors or diagnostics)
        rulebook = loaded
    rulebook = with_options(rulebook, dict(scenario.options))
    rules = Rules(rulebook)
    where = Span.point(scenario.path)
    missing = [diagnostic("E704", where, f"the rulebook has no terrain {t!r}, which the map uses")
               for t in sorted({scenario.board.terrain(c) for c in scenario.board.cells})
               if rulebook.get("terrain", t) is None]
    missing += [diagnostic("E704", Span.point(scenario.path, p.line),
                           f"the rulebook has no unit type {p.unit!r}, which the set-up uses")
                for p in scenario.setup if p.unit not in rules.unit_types]
    if missing:
        raise RulesError(missing)
    return evolve(scenario, rulebook=rulebook)
