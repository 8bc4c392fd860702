"""Scenario files: which rulebook, which map, how long, who goes first, and the set-up.

A scenario is TOML (docs/scenarios.md)::

    [scenario]
    name = "Village Sweep"
    rules = "village_sweep.rules"    # an overlay that extends the game (victory, special rules)
    map = "maps/village_sweep.toml"
    turns = 8
    player_order = ["allies", "vc_nva"]
    [scenario.resources.allies]
    vp = 0

    [[setup]]                        # a fixed placement
    side = "allies"
    unit = "us_infantry"
    count = 2
    at = "0507"

    [[setup]]                        # a placement the side decides: cells to choose from
    side = "vc_nva"
    unit = "vc_local"
    count = 4
    zone = { terrain = ["jungle", "village"], columns = "10-16" }
    per_cell = 2

Paths are relative to the scenario file.  Every problem is a diagnostic with
the file and, where it can be found, the line (E704).
"""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path

from attrs import frozen

from dsl.ast import Span
from dsl.diagnostics import Diagnostic, RulesError, diagnostic, did_you_mean, register
from dsl.loader import find_rulebook, load_with_diagnostics
from dsl.model import Rulebook
from dsl.values import read_range
from interpreter.board import Board, read_board
from interpreter.rules import Rules

register("E704", "bad-scenario", """
    ## What it does
    Reports a scenario file that is not valid TOML, lacks `[scenario]` keys (`map`, `turns`,
    `player_order`, and `rules` or `rulebook`), names unknown sides, unit types or cells, or
    gives a set-up entry neither `at` nor `zone`.
""")


@frozen
class Zone:
    """Cells a side may choose from when placing units."""

    cells: tuple[str, ...] = ()
    terrain: tuple[str, ...] = ()
    columns: tuple[int, int] | None = None
    rows: tuple[int, int] | None = None

    def contains(self, board: Board, cell: str) -> bool:
        if self.cells and cell not in self.cells:
            return False
        if self.terrain and board.terrain(cell) not in self.terrain and not (set(self.terrain) & board.tags(cell)):
            return False
        col, row = int(cell[: len(cell) // 2]), int(cell[len(cell) // 2:])
        if self.columns and not self.columns[0] <= col <= self.columns[1]:
            return False
        return not (self.rows and not self.rows[0] <= row <= self.rows[1])


@frozen
class Placement:
    """One ``[[setup]]`` entry."""

    side: str
    unit: str
    count: int
    at: str | None
    zone: Zone | None
    per_cell: int | None
    line: int


@frozen
class Scenario:
    """A loaded scenario: its rulebook (with overlay), board and set-up."""

    path: str
    name: str
    text: str
    rulebook: Rulebook
    board: Board
    turns: int
    player_order: tuple[str, ...]
    setup_order: tuple[str, ...]
    resources: tuple[tuple[str, str, int], ...]
    setup: tuple[Placement, ...]
    note: str = ""

    @functools.cached_property
    def rules(self) -> Rules:
        """The compiled rules, built once and shared by every game of this scenario (and its caches)."""
        return Rules(self.rulebook)


def _line(text: str, needle: str, after: int = 0) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if number > after and needle in line:
            return number
    return after or 1


def _span_range(text: str) -> tuple[int, int] | None:
    r = read_range(str(text))
    if r is None or r.low is None or r.high is None:
        return None
    return r.low, r.high


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
    rules_path = path.parent / rules_name
    if not rules_path.is_file():
        found = find_rulebook(rules_name)
        if found is None:
            raise RulesError([diagnostic("E704", Span.point(shown, _line(text, rules_name)),
                                         f"no rules file or shipped rulebook {rules_name!r}")])
        rules_path = found
    rulebook, loading = load_with_diagnostics(rules_path)
    errors = [d for d in loading if d.severity.name == "ERROR"]
    if rulebook is None or errors:
        raise RulesError(errors or loading)
    rules = Rules(rulebook)

    # Map.
    map_name = head.get("map")
    if not isinstance(map_name, str):
        raise RulesError([diagnostic("E704", Span.point(shown, _line(text, "[scenario]")), "the scenario names no map")])
    board = read_board(path.parent / map_name, [d.name for d in rulebook.of_kind("terrain")])

    turns = head.get("turns")
    if not isinstance(turns, int) or isinstance(turns, bool) or turns < 1:
        bad(f"'turns' must be a whole number of at least 1, not {turns!r}", "turns")
    order = head.get("player_order")
    if not isinstance(order, list) or sorted(order) != sorted(rules.sides):
        bad(f"'player_order' must list every side once: {', '.join(rules.sides)}", "player_order")
        order = list(rules.sides)
    setup_order = head.get("setup_order", order)
    if not isinstance(setup_order, list) or sorted(setup_order) != sorted(rules.sides):
        bad(f"'setup_order' must list every side once: {', '.join(rules.sides)}", "setup_order")
        setup_order = order

    resources = []
    for side, values in (head.get("resources") or {}).items():
        if side not in rules.sides:
            bad(f"unknown side {side!r} in resources", side, did_you_mean(side, rules.sides))
            continue
        for name, value in values.items():
            if rulebook.get("resource", name) is None:
                bad(f"unknown resource {name!r}", name, did_you_mean(name, [r.name for r in rulebook.of_kind("resource")]))
            elif not isinstance(value, int):
                bad(f"resource {name!r} must start at a whole number", name)
            else:
                resources.append((side, name, value))

    placements = []
    last_line = 0
    for entry in data.get("setup", []):
        line = last_line = _line(text, "[[setup]]", last_line)
        side, unit, count = entry.get("side"), entry.get("unit"), entry.get("count", 1)
        if side not in rules.sides:
            bad(f"unknown side {side!r}", after=line, hint=did_you_mean(str(side), rules.sides))
            continue
        if unit not in rules.unit_types:
            bad(f"unknown unit type {unit!r}", after=line, hint=did_you_mean(str(unit), rules.unit_types))
            continue
        if not isinstance(count, int) or count < 1:
            bad(f"'count' must be a whole number of at least 1, not {count!r}", after=line)
            continue
        at, zone_spec = entry.get("at"), entry.get("zone")
        zone = None
        if at is not None:
            if at not in board.graph:
                bad(f"set-up cell {at!r} is not on the map", after=line)
                continue
        elif isinstance(zone_spec, dict):
            zone = Zone(tuple(zone_spec.get("cells", ())), tuple(zone_spec.get("terrain", ())),
                        _span_range(zone_spec["columns"]) if "columns" in zone_spec else None,
                        _span_range(zone_spec["rows"]) if "rows" in zone_spec else None)
            if not any(zone.contains(board, c) for c in board.cells):
                bad("set-up zone contains no cell of the map", after=line)
                continue
        else:
            bad("a set-up entry needs 'at' (a cell) or 'zone' (cells to choose from)", after=line)
            continue
        per_cell = entry.get("per_cell")
        placements.append(Placement(side, unit, count, at, zone, per_cell if isinstance(per_cell, int) else None,
                                    line))
    _check_dummies(rulebook, rules, placements, bad)
    if problems:
        raise RulesError(problems)
    return Scenario(shown, str(head.get("name", path.stem)), text, rulebook, board, int(turns), tuple(order),
                    tuple(setup_order), tuple(resources), tuple(placements), str(head.get("note", "")))


def with_rulebook(scenario: Scenario, rulebook: Rulebook | str | Path) -> Scenario:
    """The scenario played under another rulebook (a loaded one, or a path to load).

    Raises:
        RulesError: when the rulebook does not load, or lacks a terrain of the map or a unit
        type of the set-up.
    """
    from attrs import evolve

    if not isinstance(rulebook, Rulebook):
        loaded, diagnostics = load_with_diagnostics(rulebook)
        errors = [d for d in diagnostics if d.severity.name == "ERROR"]
        if loaded is None or errors:
            raise RulesError(errors or diagnostics)
        rulebook = loaded
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
