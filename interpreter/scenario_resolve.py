"""A scenario's entries resolved against its rulebook and map: names checked, places found.

``interpreter.scenario_toml`` has checked each entry's shape; ``EntryReader`` checks what needs
the rulebook (sides, unit types, boxes, options, resources) and the map (cells, places, zones
that hold a cell) and builds the records of ``interpreter.scenario_records``.  Each problem is
an E704 reported at the key it concerns; an entry with a problem is left out, so the next
entry is still read and every problem of the file is reported at once.
"""

from __future__ import annotations

from collections.abc import Iterable

from attrs import evolve

from ..dsl.diagnostics import did_you_mean
from ..dsl.model import Rulebook
from . import grid
from .board import Board
from .control import controlled_cells
from .rules import Rules
from .scenario_records import EDGES, MODIFIER_KINDS, Draw, Placement, TurnModifier, Zone
from .scenario_toml import DrawEntry, KeyPath, ScenarioTable, ScenarioText, SetupEntry, TurnModifierEntry, ZoneTable

SETUP_EFFECTS = ("gain", "lose")
"""Effect verbs an option chosen before play may have (they are carried out at set-up)."""


def option_problem(name: str, rulebook: Rulebook) -> tuple[str, str | None] | None:
    """``(message, hint)`` when ``name`` is no option of the rulebook, else ``None``."""
    options = [d.name for d in rulebook.of_kind("option")]
    if name in options:
        return None
    return f"unknown option {name!r}", did_you_mean(name, options) or (
        f"the rulebook's options: {', '.join(options)}" if options else "the rulebook declares no option")


class EntryReader:
    """Reads the parts of a scenario that need the rulebook and the map, reporting to ``source``."""

    def __init__(self, source: ScenarioText, rulebook: Rulebook, rules: Rules, board: Board):
        self.source, self.rulebook, self.rules, self.board = source, rulebook, rules, board
        self.report = source.report
        self.boxes = [d.name for d in rulebook.of_kind("box")]
        self.place_names = [name for name, _ in board.places]
        self.cell_names = sorted({n for c in board.cells
                                  for n in rules.cell_selectors(board.terrain(c), board.tags(c))})
        kinds = ("side", "nationality", "tag", "unit", "marker", "movement", "size")
        self.unit_selectors = sorted({d.name for k in kinds for d in rulebook.of_kind(k)})

    def cell(self, where: str, path: KeyPath) -> str | None:
        """A cell id of the map, or the cell of a place name; ``None`` (reported) otherwise."""
        if where in self.board.graph:
            return where
        found = self.board.place(where)
        if found is not None:
            return found
        if grid.parse_cell_id(where) is not None:
            self.report(path, f"set-up cell {where!r} is not on the map")
            return None
        self.report(path, f"{where!r} is neither a place of the map nor a cell id",
                    did_you_mean(where, self.place_names) or "places are listed in the map's [map.places]")
        return None

    def box(self, name: str, path: KeyPath) -> str | None:
        if name in self.boxes:
            return name
        self.report(path, f"unknown box {name!r}",
                    did_you_mean(name, self.boxes) or f"the rulebook's boxes: {', '.join(self.boxes)}")
        return None

    def option(self, name: str, path: KeyPath) -> str | None:
        problem = option_problem(name, self.rulebook)
        if problem:
            self.report(path, *problem)
            return None
        return name

    def side(self, side: str, path: KeyPath, what: str = "") -> bool:
        if side in self.rules.sides:
            return True
        self.report(path, f"unknown side {side!r}{what}", did_you_mean(side, self.rules.sides))
        return False

    def zone(self, spec: ZoneTable, path: KeyPath) -> Zone | None:
        ok = True
        cells = list(spec.cells)
        for name in spec.places:
            cell = self.cell(name, (*path, "places"))
            ok = ok and cell is not None
            cells.append(cell or "")
        for key, names in (("tags", spec.tags), ("not_tags", spec.not_tags)):
            for name in names:
                if name not in self.cell_names:
                    ok = False
                    self.report((*path, key), f"zone {key} names {name!r}, which names no cell of the map",
                                did_you_mean(name, self.cell_names))
        for name in spec.edge:
            if name not in EDGES:
                ok = False
                self.report((*path, "edge"), f"unknown map edge {name!r}",
                            did_you_mean(name, EDGES) or f"edges: {', '.join(EDGES)}")
        for name in spec.holding:
            if name not in self.unit_selectors:
                ok = False
                self.report((*path, "holding"), f"zone holding names {name!r}, which is no side, unit, marker or tag",
                            did_you_mean(name, self.unit_selectors))
        if not ok:
            return None
        zone = Zone(tuple(cells), spec.terrain, spec.columns, spec.rows, spec.tags, spec.not_tags, spec.edge,
                    spec.holding)
        allowed = frozenset(c for c in self.board.cells if zone.admits(self.board, c, self.rules))
        if not allowed:
            self.report(path[:-1], "set-up zone contains no cell of the map")
            return None
        return evolve(zone, allowed=allowed)

    def unit(self, side: str, unit: str, path: KeyPath, unit_path: KeyPath) -> bool:
        """Whether ``side`` and ``unit`` are known (reported at ``path``), and the unit may belong to
        the side (reported at ``unit_path``)."""
        if not self.side(side, path):
            return False
        if unit not in self.rules.unit_types:
            self.report(path, f"unknown unit type {unit!r}", did_you_mean(unit, self.rules.unit_types))
            return False
        owner = self.rules.unit_type(unit).side
        if owner is not None and owner != side:
            self.report(unit_path, f"unit type {unit!r} belongs to {owner!r}, not {side!r}")
            return False
        return True

    def placement(self, entry: SetupEntry, path: KeyPath) -> Placement | None:
        if not self.unit(entry.side, entry.unit, path, (*path, "unit")):
            return None
        where = [k for k in ("at", "places", "box", "zone") if getattr(entry, k) is not None]
        if len(where) != 1:
            self.report(path, "a set-up entry needs one of 'at' (a cell or place), 'places' (one on each), "
                        "'box' (a holding area) or 'zone' (cells to choose from)"
                        + (f", not {' and '.join(where)}" if where else ""))
            return None
        count = entry.count
        at = box = zone = None
        cells: tuple[str, ...] = ()
        if entry.at is not None:
            at = self.cell(entry.at, (*path, "at"))
            if at is None:
                return None
        elif entry.places is not None:
            if not entry.places:
                self.report((*path, "places"), "'places' must be a list of place names or cells, one counter on each")
                return None
            found = [self.cell(n, (*path, "places")) for n in entry.places]
            if None in found:
                return None
            cells = tuple(c for c in found if c)
        elif entry.box is not None:
            box = self.box(entry.box, (*path, "box"))
            if box is None:
                return None
        elif entry.zone is not None:
            zone = self.zone(entry.zone, (*path, "zone"))
            if zone is None:
                return None
            if entry.one_each:
                cells = tuple(sorted(zone.allowed or (), key=lambda c: (len(c), c)))
                zone = None
        if cells:
            if count is not None and count != len(cells):
                self.report((*path, "count"), f"'count' is {count} but the entry places one on each of "
                            f"{len(cells)} cells")
                return None
            count = len(cells)
        may_hold = self.box(entry.may_hold, (*path, "may_hold")) if entry.may_hold is not None else None
        requires = self.option(entry.requires_option, (*path, "requires_option")) \
            if entry.requires_option is not None else None
        if (entry.may_hold is not None and may_hold is None) or (entry.requires_option is not None and requires is None):
            return None
        line = self.source.line_of(path)
        return Placement(entry.side, entry.unit, count or 1, at, zone, entry.per_cell, line, box, cells,
                         entry.group or f"line {line}", entry.group_per_cell, may_hold, requires)

    def draw(self, entry: DrawEntry, path: KeyPath) -> Draw | None:
        if not self.side(entry.side, path):
            return None
        if not entry.mix:
            self.report(path, "a draw needs 'from', a table of unit type = number of counters")
            return None
        for unit in entry.mix:
            if not self.unit(entry.side, unit, (*path, "from", unit), (*path, "from", unit)):
                return None
        mix = tuple(entry.mix.items())
        total = sum(entry.mix.values())
        count = entry.count
        if count > total:
            self.report((*path, "count"), f"'count' must be a whole number from 1 to the {total} counters of "
                        f"the mix, not {count!r}")
            return None
        rest = self.box(entry.rest, (*path, "rest")) if entry.rest is not None else None
        if entry.rest is not None and rest is None:
            return None
        rest_count = entry.rest_count
        if rest_count is not None and not 0 <= rest_count <= total - count:
            self.report((*path, "rest_count"), f"'rest_count' must be a whole number up to the {total - count} "
                        "counters not drawn")
            return None
        zones = []
        for number, place in enumerate(entry.place):
            where = (*path, "place", number)
            if any(u not in entry.mix for u in place.units):
                self.report((*where, "units"), "'units' must list unit types of the draw's mix",
                            f"the mix: {', '.join(entry.mix)}")
                return None
            zone = self.zone(place.zone, (*where, "zone"))
            if zone is None:
                return None
            zones.append((place.units, zone))
        line = self.source.line_of(path)
        drawn = Draw(entry.side, count, mix, tuple(zones), rest, rest_count, entry.per_cell, line)
        for unit, _ in mix:
            if drawn.zone_for(unit) is None:
                self.report(path, f"no [[draw.place]] zone for {unit!r}, which the draw may pick",
                            "add a [[draw.place]] naming it, or one with no 'units' for every other type")
                return None
        return drawn

    def turn_modifier(self, entry: TurnModifierEntry, path: KeyPath) -> TurnModifier | None:
        if not self.side(entry.side, path):
            return None
        kind, _, name = entry.what.partition(":")
        resources = [r.name for r in self.rulebook.of_kind("resource")]
        if kind not in MODIFIER_KINDS or not name or (kind != "roll" and name not in resources):
            self.report((*path, "what"), f"'what' must be roll:WHAT, income:RESOURCE or gains:RESOURCE, "
                        f"not {entry.what!r}",
                        f"resources: {', '.join(resources)}" if kind in ("income", "gains") else None)
            return None
        first, last = entry.turns
        return TurnModifier(first, last, entry.side, entry.what, entry.amount, self.source.line_of(path))

    def side_values(self, head: ScenarioTable, key: str) -> list[tuple[str, str, int]]:
        """``[scenario.KEY.SIDE] resource = N`` tables as (side, resource, N)."""
        out = []
        for side, values in getattr(head, key).items():
            if not self.side(side, ("scenario", key, side), f" in {key}"):
                continue
            for name, value in values.items():
                if self.rulebook.get("resource", name) is None:
                    self.report(("scenario", key, side, name), f"unknown resource {name!r}",
                                did_you_mean(name, [r.name for r in self.rulebook.of_kind("resource")]))
                else:
                    out.append((side, name, value))
        return out

    def control(self, head: ScenarioTable) -> list[tuple[str, tuple[str, ...]]]:
        """``[scenario.control]`` as (side, cells): sides known, cells on the map and controlled
        (the rulebook's ``control`` declaration), each cell held by one side at most."""
        out: list[tuple[str, tuple[str, ...]]] = []
        if head.control and self.rules.control is None:
            self.report(("scenario", "control"), "the rulebook declares no control",
                        "declare 'control { … }' in the rules, or leave [scenario.control] out")
            return out
        tracked = controlled_cells(self.rules, self.board) if head.control else frozenset()
        given: set[str] = set()
        for side, names in head.control.items():
            path = ("scenario", "control", side)
            if not self.side(side, path, " in control"):
                continue
            cells = []
            for name in names:
                cell = self.cell(name, path)
                if cell is None:
                    continue
                if cell not in tracked:
                    self.report(path, f"cell {cell} is not one the rulebook's control declaration controls",
                                "its 'cells' line names the controlled cells")
                elif cell in given:
                    self.report(path, f"cell {cell} is given to more than one side")
                else:
                    given.add(cell)
                    cells.append(cell)
            out.append((side, tuple(cells)))
        return out

    def side_order(self, order: Iterable[str] | None, key: str) -> bool:
        """Whether ``order`` lists every side once (reported when it does not)."""
        if order is not None and sorted(order) == sorted(self.rules.sides):
            return True
        self.report(("scenario", key), f"{key!r} must list every side once: {', '.join(self.rules.sides)}")
        return False

    def choices(self, head: ScenarioTable) -> list[tuple[str, str]]:
        """``[scenario.choose]`` as (option, side), each option one set-up can carry out."""
        out = []
        for name, side in head.choose.items():
            path = ("scenario", "choose", name)
            if self.option(name, path) is None:
                continue
            if side not in self.rules.sides:
                self.report(path, f"option {name!r} is chosen by unknown side {side!r}",
                            did_you_mean(side, self.rules.sides))
                continue
            for effect in self.rulebook.get("option", name).all("effect"):
                verb = effect.get("effect")
                if verb not in SETUP_EFFECTS:
                    self.report(path, f"option {name!r} has an effect {verb!r}, which set-up cannot carry out",
                                f"set-up carries out: {', '.join(SETUP_EFFECTS)}")
            out.append((name, side))
        return out

    def check_dummies(self, placements: list[Placement]) -> None:
        """A side's ``dummies`` limit: ``none``, ``up to units`` (no more than its real units) or a number."""
        rules = self.rules
        for side, rule in rules.side_rules.items():
            dummies = sum(p.count for p in placements if p.side == side and rules.unit_type(p.unit).dummy)
            if not dummies or rule.dummies is None:  # a rulebook that says nothing sets no limit
                continue
            real = sum(p.count for p in placements if p.side == side and rules.unit_type(p.unit).kind == "unit")
            if rule.dummies == "none":
                limit, why = 0, "may have no dummies"
            elif rule.dummies == "up to units":
                limit, why = real, f"may have up to as many dummies as units ({real})"
            else:
                limit, why = rule.dummies, f"may have {rule.dummies} dummies"
            if dummies > limit:
                line = next(p.line for p in placements if p.side == side and rules.unit_type(p.unit).dummy)
                self.source.report_line(line, f"{side} sets up {dummies} dummies but {why}",
                                        f"side {side!r}: {rule.dummies_source.text}")
