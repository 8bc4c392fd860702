"""Scenario files: which rulebook, which map, how long, who goes first, and the set-up.

A scenario is TOML (docs/scenarios.md)::

    [scenario]
    name = "River Crossing"
    rules = "river_crossing.rules"   # an overlay that extends the game (victory, special rules)
    map = "maps/river_crossing.toml"
    turns = 8                        # optional when the rulebook's sequence says `turns N`
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
    [scenario.control]               # cells (or places) a side controls when set-up ends (`control`)
    red = ["Midway", "0702"]

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

    [[arrival]]                      # counters entering play on a turn (interpreter.scenario_arrivals)
    side = "red"
    unit = "raider"
    turn = 3
    at = ["0510", "0511"]            # or edge = "east", or box = "reserve"

    [[withdrawal]]                   # counters leaving the map on a turn
    side = "blue"
    unit = "infantry"
    turn = 5
    penalty = { vp = 2 }             # to every other side, for each that cannot leave

Paths are relative to the scenario file and must stay in its folder (or a folder of shipped
games: a shipped map, a rulebook on ``WARBOOK_PATH``), as an ``include`` must stay in its
rulebook's; set-up is bounded (``MAX_COUNTERS``).  Every problem is a diagnostic with
the file and, where it can be found, the line and column of the key (E704).

The work is split by concern: ``interpreter.scenario_toml`` reads the TOML into typed
entries with cattrs and places each key in the text; ``interpreter.scenario_resolve``
checks them against the rulebook and the map; ``interpreter.scenario_records`` holds the
records play sees.  This module loads a scenario (``load_scenario``) and re-exports the
records, so ``from .scenario import Scenario`` keeps working.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from attrs import evolve

from ..dsl.ast import Span
from ..dsl.compiled.sequence import compile_sequence
from ..dsl.config import config_for
from ..dsl.diagnostics import RulesError, diagnostic
from ..dsl.loader import load_with_diagnostics
from ..dsl.rulebook_paths import find_rulebook, search_path, shipped_folder
from ..dsl.sources import is_file
from ..dsl.values import shorten
from ..dsl.model import Rulebook
from .board import Board, board_from_text, read_map_text
from .options import with_options
from .rules import Rules
from .scenario_records import EDGES, MODIFIER_KINDS, Draw, Placement, Scenario, TurnModifier, Zone
from .scenario_resolve import EntryReader, option_problem
from .scenario_arrivals import check_schedule, read_arrival, read_withdrawal
from .scenario_toml import (ArrivalEntry, DrawEntry, ScenarioFile, ScenarioText, SetupEntry, TurnModifierEntry,
                            WithdrawalEntry)
from ..dsl.toml_text import parse_toml, read_toml_text

__all__ = ["EDGES", "MODIFIER_KINDS", "Draw", "Placement", "Scenario", "TurnModifier", "Zone", "load_scenario",
           "scenario_rules", "with_rulebook"]

def scenario_rules(path: str | Path, name: str) -> Path | None:
    """The rules a scenario's ``rules``/``rulebook`` names: a file beside the scenario, else a
    rulebook by name or alias (a bare name only) in the project's search paths (``dsl.config``)
    or shipped; ``None`` when there is neither."""
    beside = Path(path).parent / name
    if is_file(beside):
        return beside
    if "/" in name or "\\" in name or "\0" in name:
        return None
    return find_rulebook(name, project_search_paths(path))


def project_search_paths(path: str | Path) -> tuple[Path, ...]:
    """The search paths of the project configuration that governs ``path`` (its problems are
    reported when a rulebook under it is loaded)."""
    return config_for(path)[0].search_paths


def confinement_problem(scenario: Path, target: Path, key: str, written: str) -> tuple[str, str] | None:
    """(message, hint) when the file a scenario's ``rules`` or ``map`` names is outside the
    scenario's folder and every folder of shipped games (``search_path``, the shipped
    scenarios) and the project's search paths: a scenario must not make warbook read any file
    it names, as an ``include`` may not (E007)."""
    folder = scenario.resolve().parent
    try:
        resolved = target.resolve()
    except (OSError, ValueError):
        return f"{key!r} names a path the system cannot open", "name a file in the scenario's folder"
    roots = [folder, *(p.resolve() for p in search_path(project_search_paths(scenario))),
             shipped_folder("scenarios").resolve()]
    if any(resolved.is_relative_to(root) for root in roots):
        return None
    hint = (f"a scenario's {key} must be a file in its folder {str(folder)!r} or below it"
            + (', or a shipped rulebook by name: rulebook = "NAME"' if key != "map" else ", or a shipped map"))
    return f"{key} {shorten(written)!r} is outside the scenario's folder", hint


def _read_entries(source: ScenarioText, raws: tuple, cls: type, key: str, read: Callable) -> list:
    """Each ``[[KEY]]`` table structured as a ``cls`` and read by ``read(entry, path)``; entries
    either rejects (a diagnostic already reported) are left out."""
    out = []
    for number, raw in enumerate(raws):
        entry = source.structure(raw, cls, (key, number))
        found = read(entry, (key, number)) if entry is not None else None
        if found is not None:
            out.append(found)
    return out


def load_scenario(path: str | Path) -> Scenario:
    """Load a scenario with its rulebook and map.

    A ``[scenario]`` table (or a top-level table) not in the format is reported alone: the
    rest depends on it.  Otherwise every entry is read and every problem reported at once.

    Raises:
        RulesError: with every diagnostic from the scenario, its rulebook and its map.
    """
    path = Path(path)
    shown = str(path)
    text = read_toml_text(path, "scenario")
    data = parse_toml(text, shown, "E704")
    if not isinstance(data.get("scenario"), dict):
        raise RulesError([diagnostic("E704", Span.point(shown), "no [scenario] table", "start with [scenario]")])
    source = ScenarioText(shown, text)
    found = source.structure(data, ScenarioFile, ())
    if found is None:
        raise RulesError(source.problems)
    head = found.scenario

    # Rulebook: an overlay file next to the scenario, or a shipped rulebook by name or path.
    rules_name = head.rules or head.rulebook
    if rules_name is None:
        raise RulesError([diagnostic("E704", source.span(("scenario",)), "the scenario names no rules",
                                     'add rules = "my_overlay.rules" or rulebook = "NAME" (a shipped rulebook)')])
    rules_key = "rules" if head.rules else "rulebook"
    rules_path = scenario_rules(path, rules_name)
    if rules_path is None:
        raise RulesError([diagnostic("E704", source.span(("scenario", rules_key)),
                                     f"no rules file or shipped rulebook {shorten(rules_name)!r}")])
    problem = confinement_problem(path, rules_path, rules_key, rules_name)
    if problem:
        raise RulesError([diagnostic("E704", source.span(("scenario", rules_key)), *problem)])
    rulebook, loading = load_with_diagnostics(rules_path)
    errors = [d for d in loading if d.severity.name == "ERROR"]
    if rulebook is None or errors:
        raise RulesError(errors or loading)

    # Options the scenario switches: applied to the rulebook the scenario is played with.
    options: list[tuple[str, bool]] = []
    for name, value in head.options.items():
        problem = option_problem(name, rulebook)
        if problem:
            source.report(("scenario", "options", name), *problem)
        else:
            options.append((name, value))
    rulebook = with_options(rulebook, dict(options))
    rules = Rules(rulebook)
    turns = head.turns if head.turns is not None else rulebook_turns(rulebook)
    if turns is None:  # as a missing key of the file's shape: reported alone
        raise RulesError([diagnostic("E704", source.span(("scenario",)), "missing key 'turns' in [scenario]",
                                     NO_TURNS)])

    # Map.
    map_path = path.parent / head.map
    problem = confinement_problem(path, map_path, "map", head.map)
    if problem:
        raise RulesError([diagnostic("E704", source.span(("scenario", "map")), *problem)])
    map_text = read_map_text(map_path)
    board = board_from_text(map_text, str(map_path), list(rules.terrains), features=rules.features,
                            deferring=[t.name for t in rules.terrains.values() if t.defers])
    problem = grid_problem(rulebook, board)
    if problem:
        source.report(("scenario", "map"), *problem)
    reader = EntryReader(source, rulebook, rules, board)

    order = head.player_order if reader.side_order(head.player_order, "player_order") else rules.sides
    setup_order = order
    if head.setup_order is not None and reader.side_order(head.setup_order, "setup_order"):
        setup_order = head.setup_order
    unplaced = head.unplaced
    if unplaced != "offmap" and reader.box(unplaced, ("scenario", "unplaced")) is None:
        unplaced = "offmap"
    resources = reader.side_values(head, "resources")
    income = reader.side_values(head, "income")
    choices = reader.choices(head)
    control = reader.control(head)

    placements = _read_entries(source, found.setup, SetupEntry, "setup", reader.placement)
    draws = _read_entries(source, found.draw, DrawEntry, "draw", reader.draw)
    modifiers = _read_entries(source, found.turn_modifier, TurnModifierEntry, "turn_modifier", reader.turn_modifier)
    arrivals = _read_entries(source, found.arrival, ArrivalEntry, "arrival", lambda e, p: read_arrival(reader, e, p))
    withdrawals = _read_entries(source, found.withdrawal, WithdrawalEntry, "withdrawal",
                                lambda e, p: read_withdrawal(reader, e, p))
    check_schedule(source, rules, turns, arrivals, withdrawals, tuple(order))
    reader.check_dummies(placements)
    too_many = _over_counters(placements, draws)
    if too_many is not None:
        source.report_line(too_many, f"the set-up would hold more than {MAX_COUNTERS} counters",
                           "a scenario sets up the counters of a board game: a few hundred at most")
    if source.problems:
        raise RulesError(source.problems)
    return Scenario(shown, head.name if head.name is not None else path.stem, text, rulebook, board, turns,
                    tuple(order), tuple(setup_order), tuple(resources), tuple(placements), head.note,
                    tuple(income), head.year, tuple(options), tuple(choices), tuple(draws), tuple(modifiers),
                    unplaced, rules_path=rulebook.path, map_path=str(map_path), map_text=map_text,
                    turns_from_rulebook=head.turns is None, control=tuple(control),
                    arrivals=tuple(arrivals), withdrawals=tuple(withdrawals))


NO_TURNS = ("'turns' is a whole number of at least 1; the rulebook's sequence leaves the number of turns to the "
            "scenario ('turns per scenario', or no 'turns' line): give turns = N here, or 'turns N' in the sequence")


def rulebook_turns(rulebook: Rulebook) -> int | None:
    """The game's length the rulebook's ``sequence`` gives (``turns N``), or ``None`` (``turns per scenario``)."""
    sequence = rulebook.of_kind("sequence")
    return compile_sequence(sequence[0] if sequence else None).turns


MAX_COUNTERS = 10_000
"""The most counters a scenario's set-up and draws may hold together (each entry is bounded by
``scenario_toml.MAX_COUNT``; this bounds many entries, or ``one_each`` over a large zone)."""


def _over_counters(placements: list[Placement], draws: list[Draw]) -> int | None:
    """The line of the entry that takes the set-up past ``MAX_COUNTERS``, or ``None``."""
    total = 0
    for line, count in sorted([(p.line, p.count) for p in placements]
                              + [(d.line, sum(n for _, n in d.mix)) for d in draws]):
        total += count
        if total > MAX_COUNTERS:
            return line
    return None


MAP_GRIDS = {"hex": "hex", "square": "square with diagonals"}
"""The grids a map may have, and what each is in the rules language's ``grid`` words."""


def grid_problem(rulebook: Rulebook, board: Board) -> tuple[str, str] | None:
    """(message, hint) when the rulebook header's ``grid`` is not the map's grid, else ``None``.

    A map's ``square`` grid connects cells across their corners, so it is a rulebook's ``grid square
    with diagonals``; a rulebook that says ``grid square`` (no diagonals) has no map to play on.
    """
    header = next(iter(rulebook.of_kind("rulebook")), None)
    line = header.first("grid") if header is not None else None
    if line is None:
        return None
    said = " ".join(w.text for w in line.words[1:])
    if said == MAP_GRIDS.get(board.grid):
        return None
    maps = ", ".join(f"grid = {k!r} is '{v}'" for k, v in MAP_GRIDS.items())
    return (f"the map's grid is {board.grid!r}, but the rulebook says 'grid {said}'",
            f"a map's {maps}; make the map and the rulebook's header agree")


def with_rulebook(scenario: Scenario, rulebook: Rulebook | str | Path) -> Scenario:
    """The scenario played under another rulebook (a loaded one, or a path to load).

    The scenario's ``[scenario.options]`` (and any the players agreed) are applied to it as well.

    Raises:
        RulesError: when the rulebook does not load, lacks a terrain of the map or a unit
        type of the set-up, or gives no number of turns for a scenario that gives none.
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
    missing += [diagnostic("E704", Span.point(scenario.path, e.line),
                           f"the rulebook has no unit type {e.unit!r}, which the schedule uses")
                for e in (*scenario.arrivals, *scenario.withdrawals) if e.unit not in rules.unit_types]
    turns = scenario.turns
    if scenario.turns_from_rulebook:  # the scenario gives none: the game lasts as this rulebook says
        turns = rulebook_turns(rulebook)
        if turns is None:
            missing.append(diagnostic("E704", where, "the scenario gives no 'turns' and neither does the rulebook",
                                      NO_TURNS))
    if missing:
        raise RulesError(missing)
    return evolve(scenario, rulebook=rulebook, turns=turns)
