"""The shipped Several Klicks scenarios: they load, lint clean, cover the game, and set up legally.

Each scenario is a TOML file in ``scenarios/`` with an overlay ``.rules`` (its
victory conditions) and a map in ``scenarios/maps/``.  These tests check the
data against the rulebook and the seed's own limits (dummies, stacking,
terrain a unit may enter); expected counts are read off the map drawings by
hand, never copied from the engine's output.
"""

from __future__ import annotations

import random
import re
import tomllib
from collections import Counter
from pathlib import Path

import networkx as nx
import pytest

from warbook import dsl
from warbook.dsl import RulesError, Severity, load_rulebook
from warbook.dsl.rulebook_paths import find_rulebook
from warbook.interpreter.context import Context
from warbook.interpreter.flow import setup
from warbook.interpreter.game import Game
from warbook.interpreter.rules import Rules
from warbook.interpreter.scenario import Scenario, load_scenario
from warbook.interpreter.state import GameState, Unit
from warbook.interpreter.victory import final_result, score_held

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
GOLDEN = Path(__file__).parent / "golden"
NAMES = ["klicks_firebase_night", "klicks_village_sweep"]
HIDDEN_SIDE = "vc_nva"


def scenario_path(name: str) -> Path:
    return SCENARIOS / f"{name}.toml"


@pytest.fixture(scope="module")
def scenarios() -> dict[str, Scenario]:
    return {name: load_scenario(scenario_path(name)) for name in NAMES}


@pytest.fixture(scope="module")
def klicks() -> Rules:
    return Rules(load_rulebook(find_rulebook("several_klicks")))


def overlay(scenario: Scenario) -> str:
    """The overlay ``.rules`` file the scenario names (``rules = …``, next to the scenario)."""
    return str(Path(scenario.path).parent / tomllib.loads(scenario.text)["scenario"]["rules"])


def _counts(scenario: Scenario, side: str) -> Counter:
    out: Counter = Counter()
    for p in scenario.setup:
        if p.side == side:
            out[p.unit] += p.count
    return out


# --- the files -----------------------------------------------------------------------


def test_the_shipped_scenarios_are_these():
    assert sorted(p.stem for p in SCENARIOS.glob("klicks_*.toml")) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_scenario_loads_with_its_overlay_and_map(name):
    scenario = load_scenario(scenario_path(name))
    assert scenario.rulebook.of_kind("victory"), "the overlay declares the victory conditions"
    assert scenario.player_order and scenario.turns >= 1
    assert scenario.board.grid == "hex"


@pytest.mark.parametrize("name", NAMES)
def test_overlay_lints_without_errors_or_warnings(name, scenarios):
    found = dsl.lint(overlay(scenarios[name]))
    bad = [str(d) for d in found if d.severity in (Severity.ERROR, Severity.WARNING)]
    assert bad == []


@pytest.mark.parametrize("name", NAMES)
def test_everything_the_overlay_adds_is_marked_scenario_design(name, scenarios):
    scenario = scenarios[name]
    mine = Path(overlay(scenario)).name
    added = [d for d in scenario.rulebook.walk() if Path(d.span.path).name == mine and d.kind != "sequence"]
    assert {d.kind for d in added} >= {"resource", "award", "victory", "phase"}
    for decl in added:
        notes = [str(p.get("text")) for p in decl.all("note")]
        assert any(n.startswith("SCENARIO DESIGN") for n in notes), f"{decl.kind} {decl.name} is not marked"
        assert not decl.provenance.sections, f"{decl.kind} {decl.name} cites the seed for scenario design"
    assert scenario.note.startswith("Scenario design")
    assert scenario.board.note.startswith("Scenario design")


@pytest.mark.parametrize("name", NAMES)
def test_map_text_matches_golden(name, scenarios, golden):
    golden(GOLDEN / f"{name}.map.txt", scenarios[name].board.to_text() + "\n")


# --- coverage of the game --------------------------------------------------------------


def test_maps_together_use_every_terrain_of_the_rulebook(scenarios, klicks):
    used = {b.terrain(c) for s in scenarios.values() for b in [s.board] for c in b.cells}
    terrain = {d.name for d in klicks.rulebook.of_kind("terrain")}
    assert terrain == {"clear", "road", "elephant_grass", "landing_zone", "jungle", "village", "town", "firebase",
                       "bunker", "paddy_fields", "hill", "mountain", "river"}
    assert used == terrain


def test_scenarios_together_field_every_unit_type_of_the_rulebook(scenarios, klicks):
    fielded = {p.unit for s in scenarios.values() for p in s.setup}
    unit_types = {d.name for d in klicks.rulebook.of_kind("unit")}
    assert len(unit_types) == 18
    assert unit_types <= fielded
    assert fielded - unit_types == {"dummy", "booby_trap"}


@pytest.mark.parametrize("name", NAMES)
def test_vc_nva_have_dummies_and_booby_traps_but_no_more_dummies_than_units(name, scenarios):
    scenario = scenarios[name]
    rules = Rules(scenario.rulebook)
    counts = _counts(scenario, HIDDEN_SIDE)
    real = sum(n for t, n in counts.items() if rules.unit_type(t).kind == "unit")
    dummies = sum(n for t, n in counts.items() if rules.unit_type(t).dummy)
    assert counts["booby_trap"] >= 1
    assert 1 <= dummies <= real  # "up to the same number of dummy markers as actual units"


@pytest.mark.parametrize("name", NAMES)
def test_maps_are_at_least_16_by_12(name, scenarios):
    board = scenarios[name].board
    assert board.width >= 16 and board.height >= 12
    assert len(board.cells) == board.width * board.height


# --- the maps as drawn ---------------------------------------------------------------------

CROSSINGS = {"klicks_village_sweep": "1308", "klicks_firebase_night": "1409"}


@pytest.mark.parametrize("name", NAMES)
def test_the_river_splits_the_map_and_the_bridge_is_the_only_crossing(name, scenarios):
    board = scenarios[name].board
    bridge = CROSSINGS[name]
    assert board.terrain(bridge) == "road"
    land = [c for c in board.cells if board.terrain(c) != "river"]
    assert nx.number_connected_components(board.graph.subgraph(land)) == 1
    cut = [c for c in land if c != bridge]
    assert nx.number_connected_components(board.graph.subgraph(cut)) == 2


def test_the_hamlet_and_the_firebase_are_where_the_maps_draw_them(scenarios):
    # Read off the rows by hand: 'V' in row 6 column 6, row 7 columns 5-7, row 9 columns 6-7.
    sweep = scenarios["klicks_village_sweep"].board
    assert sorted(c for c in sweep.cells if "hamlet" in sweep.tags(c)) == ["0507", "0606", "0607", "0609", "0707",
                                                                            "0709"]
    # 'F' in row 6 columns 11-12 and row 7 column 11; 'L' beside them in row 7 column 12.
    night = scenarios["klicks_firebase_night"].board
    assert sorted(c for c in night.cells if night.terrain(c) == "firebase") == ["1106", "1107", "1206"]
    assert night.terrain("1207") == "landing_zone"
    assert all(night.place(p) for p in ("Firebase Kestrel", "LZ Kestrel", "Kestrel bridge"))


# --- set-up ---------------------------------------------------------------------------------


def may_enter(rules: Rules, board, unit_type: str, cell: str) -> bool:
    """Terrain cost, then the movement class's ``enters only`` lines (any one of them allows)."""
    kind = rules.unit_type(unit_type)
    if rules.terrain_cost(board.terrain(cell), kind) is None:
        return False
    movement = rules.rulebook.get("movement", kind.movement) if kind.movement else None
    limits = movement.all("enters") if movement else ()
    if not limits:
        return True
    for line in limits:
        wanted = {str(w) for w in line.get("where")}
        reach = board.within(cell, line.get("distance") or 0)
        if any(wanted & rules.cell_selectors(board.terrain(c), board.tags(c)) for c in reach):
            return True
    return False


@pytest.mark.parametrize("name", NAMES)
def test_every_fixed_cell_may_be_entered_by_its_unit(name, scenarios):
    scenario = scenarios[name]
    rules = Rules(scenario.rulebook)
    fixed = [p for p in scenario.setup if p.at]
    assert fixed
    for p in fixed:
        assert may_enter(rules, scenario.board, p.unit, p.at), f"{p.unit} cannot be at {p.at}"


def test_may_enter_knows_the_mechanised_limit(scenarios):
    # Checked by hand on the village-sweep map: 0101 is jungle three hexes from the road (row 8);
    # 0507 is a hamlet hex beside the road; 1303 is river.
    scenario = scenarios["klicks_village_sweep"]
    rules, board = Rules(scenario.rulebook), scenario.board
    assert not may_enter(rules, board, "arvn_mech", "0101")
    assert may_enter(rules, board, "arvn_mech", "0507")
    assert may_enter(rules, board, "us_infantry", "0101")
    assert not may_enter(rules, board, "us_infantry", "1303")


def stack_limits(rules: Rules) -> list[tuple[int, frozenset[str] | None]]:
    decl = rules.rulebook.of_kind("stacking")[0]
    return [(line.get("count"), frozenset(str(w) for w in line.get("who")) if line.get("who") else None)
            for line in decl.all("limit")]


def over_stacked(rules: Rules, types: list[str]) -> list[str]:
    """Limits a cell's units break: a ``for`` limit counts its units, the general one the non-exempt."""
    decl = rules.rulebook.of_kind("stacking")[0]
    exempt = {str(w) for line in decl.all("exempt") for w in line.get("who")}
    broken = []
    for count, who in stack_limits(rules):
        if who is None:
            n = sum(1 for t in types if not Rules.unit_matches(rules.unit_type(t), exempt))
        else:
            n = sum(1 for t in types if Rules.unit_matches(rules.unit_type(t), who))
        if n > count:
            broken.append(f"{n} > {count} for {sorted(who) if who else 'ground units'}")
    return broken


@pytest.mark.parametrize("name", NAMES)
def test_fixed_stacks_respect_the_stacking_limits(name, scenarios):
    scenario = scenarios[name]
    rules = Rules(scenario.rulebook)
    assert stack_limits(rules) == [(4, None), (4, frozenset({"helicopter"}))]
    cells: dict[tuple[str, str], list[str]] = {}
    for p in scenario.setup:
        if p.at:
            cells.setdefault((p.side, p.at), []).extend([p.unit] * p.count)
    for (side, cell), types in cells.items():
        assert over_stacked(rules, types) == [], f"{side} at {cell}"


def test_over_stacked_counts_ground_units_and_choppers_apart(klicks):
    # The seed: "4 choppers and 4 ground units" may share a hex.
    assert over_stacked(klicks, ["us_infantry"] * 4 + ["huey"] * 2 + ["gunship"] * 2 + ["attack_planes"]) == []
    assert over_stacked(klicks, ["us_infantry"] * 5) == ["5 > 4 for ground units"]
    assert over_stacked(klicks, ["huey"] * 5) == ["5 > 4 for ['helicopter']"]


@pytest.mark.parametrize("name", NAMES)
def test_zones_avoid_the_enemy_and_hold_their_units(name, scenarios):
    scenario = scenarios[name]
    rules, board = Rules(scenario.rulebook), scenario.board
    enemy_cells = {p.at for p in scenario.setup if p.at and p.side != HIDDEN_SIDE}
    for p in scenario.setup:
        if p.zone is None:
            continue
        cells = [c for c in board.cells if p.zone.contains(board, c)]
        assert not enemy_cells & set(cells), f"{p.unit} zone includes allied set-up cells"
        if rules.unit_type(p.unit).kind == "unit":
            assert all(may_enter(rules, board, p.unit, c) for c in cells)
        assert len(cells) * (p.per_cell or 1) >= p.count


def run_setup(scenario: Scenario, seed: int) -> Context:
    """The scenario's set-up with random choices, through the interpreter's own set-up step."""
    ctx = Context(scenario, seed)
    flow = setup(ctx)
    pick = random.Random(seed)
    try:
        decision = next(flow)
        while True:
            decision = flow.send(pick.choice(decision.options))
    except StopIteration:
        pass
    return ctx


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_setup_places_every_counter_legally(name, seed, scenarios):
    scenario = scenarios[name]
    ctx = run_setup(scenario, seed)
    rules = ctx.rules
    units = ctx.state.units
    assert len(units) == sum(p.count for p in scenario.setup)
    assert all(u.on_map for u in units), [u for u in units if not u.on_map]
    by_cell: dict[str, list[Unit]] = {}
    for unit in units:
        by_cell.setdefault(unit.location, []).append(unit)
        assert unit.hidden == (unit.side == HIDDEN_SIDE)
        if rules.unit_type(unit.type).kind == "unit":
            assert may_enter(rules, scenario.board, unit.type, unit.location)
    for cell, here in by_cell.items():
        assert len({u.side for u in here}) == 1, f"both sides set up in {cell}"
        real = [u.type for u in here if rules.unit_type(u.type).kind == "unit"]
        assert over_stacked(rules, real) == [], cell
        assert sum(1 for u in here if u.type == "booby_trap") <= 1  # "One trap can be placed per hex"


# --- victory conditions ---------------------------------------------------------------------


def held_by(scenario: Scenario, side: str, unit_type: str, cells: list[str]) -> Context:
    ctx = Context(scenario, 0)
    units = tuple(Unit(f"X{n}", unit_type, side, cell) for n, cell in enumerate(cells))
    ctx.state = GameState(turn=1, units=units)
    return ctx


def test_hamlet_hexes_held_by_the_allies_score_one_each(scenarios):
    scenario = scenarios["klicks_village_sweep"]
    hamlet = ["0507", "0606", "0607", "0609", "0707", "0709"]
    ctx = held_by(scenario, "allies", "us_infantry", hamlet)
    score_held(ctx, ctx.rules.awards["hamlet_held"])
    assert ctx.state.resource("allies", "vp") == 6
    # A hamlet hex shared with a VC unit is not held.
    ctx = held_by(scenario, "allies", "us_infantry", hamlet)
    ctx.state = GameState(turn=1, units=(*ctx.state.units, Unit("Y", "vc_local", "vc_nva", "0507")))
    score_held(ctx, ctx.rules.awards["hamlet_held"])
    assert ctx.state.resource("allies", "vp") == 5


def test_firebase_hexes_held_by_the_attackers_score_four_each(scenarios):
    scenario = scenarios["klicks_firebase_night"]
    ctx = held_by(scenario, "vc_nva", "nva_sappers", ["1106", "1107", "1206"])
    score_held(ctx, ctx.rules.awards["firebase_overrun"])
    assert ctx.state.resource("vc_nva", "vp") == 12


@pytest.mark.parametrize("name", NAMES)
def test_every_held_award_is_scored_by_the_added_phase_on_cells_of_the_map(name, scenarios):
    scenario = scenarios[name]
    rules, board, rb = Rules(scenario.rulebook), scenario.board, scenario.rulebook
    phase = rb.get("phase", "end_of_turn")
    assert phase is not None and rb.of_kind("sequence")[0].children[-1] is phase
    scored = {str(a) for line in phase.all("do") for a in line.get("awards") or ()}
    for award in rb.of_kind("award"):
        if not award.first("on").has("held"):
            continue
        assert award.name in scored
        wanted = {str(w) for w in award.first("cells").get("where")}
        assert any(wanted & rules.cell_selectors(board.terrain(c), board.tags(c)) for c in board.cells)


@pytest.mark.parametrize(("margin", "level"), [(0, "Draw"), (2, "Draw"), (3, "Marginal victory"),
                                               (7, "Marginal victory"), (8, "Decisive victory"),
                                               (30, "Decisive victory")])
@pytest.mark.parametrize("name", NAMES)
def test_victory_levels_by_margin(name, margin, level, scenarios):
    ctx = Context(scenarios[name], 0)
    ctx.state = GameState().with_resource("allies", "vp", margin)
    result = final_result(ctx)
    assert result["level"] == level
    assert result["winner"] == ("allies" if level != "Draw" else None)


def test_the_vc_start_the_sweep_ahead_for_the_hamlet(scenarios):
    assert scenarios["klicks_village_sweep"].resources == (("vc_nva", "vp", 6),)
    assert scenarios["klicks_firebase_night"].resources == ()


# --- whole games -------------------------------------------------------------------------------


def _unsupported(name: str) -> str | None:
    try:
        Game.new(scenario_path(name), seed=0)
    except RulesError as error:
        missing = sorted({d.message for d in error.diagnostics if d.code == "E805"})
        if missing:
            return "the interpreter cannot play Several Klicks yet (E805): " + "; ".join(missing)
        raise
    return None


def playout(name: str, seed: int, limit: int = 50_000) -> Game:
    game = Game.new(scenario_path(name), seed=seed)
    pick = random.Random(seed)
    for _ in range(limit):
        if game.is_over():
            return game
        game.apply(pick.choice(game.legal_actions()))
    raise AssertionError(f"{name} seed {seed}: not over after {limit} decisions")


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_game_plays_to_the_end(name, seed):
    reason = _unsupported(name)
    if reason:
        pytest.skip(reason)
    game = playout(name, seed)
    result = game.result()
    assert result is not None and result["winner"] in (None, "allies", "vc_nva")
    assert game.state.turn <= load_scenario(scenario_path(name)).turns
    assert playout(name, seed).log == game.log  # deterministic


# --- docs/scenarios.md ---------------------------------------------------------------------

DOCS = ROOT / "docs" / "scenarios.md"


def doc_files() -> dict[str, str]:
    """The fenced blocks of the docs whose first line is ``# file: NAME``, by file name."""
    files = {}
    text = DOCS.read_text(encoding="utf-8")
    for block in re.findall(r"```(?:toml|rules)\n(.*?)```", text, re.DOTALL):
        first = block.partition("\n")[0]
        if first.startswith("# file: "):
            files[first.removeprefix("# file: ").strip()] = block
    return files


def test_the_complete_example_in_the_docs_loads_and_lints_clean(tmp_path):
    files = doc_files()
    assert sorted(files) == ["ford.rules", "ford.toml", "ford_map.toml"]
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    scenario = load_scenario(tmp_path / "ford.toml")
    assert (scenario.board.width, scenario.board.height, scenario.turns) == (8, 5, 4)
    assert [d.name for d in scenario.rulebook.of_kind("award")] == ["village_held", "kills"]
    found = dsl.lint(tmp_path / "ford.rules")
    assert [str(d) for d in found if d.severity in (Severity.ERROR, Severity.WARNING)] == []
    ctx = run_setup(scenario, 0)
    assert all(u.on_map for u in ctx.state.units) and len(ctx.state.units) == 8


@pytest.mark.parametrize("name", NAMES)
def test_the_docs_draw_each_shipped_map_as_it_is(name, scenarios):
    lines = DOCS.read_text(encoding="utf-8").splitlines()
    rows = scenarios[name].board.to_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(rows[0]))
    assert [line[: len(rows[0])] for line in lines[start : start + len(rows)]] == rows
