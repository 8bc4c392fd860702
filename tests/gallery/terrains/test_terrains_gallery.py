"""Mechanics gallery: several terrains in one cell, and award points by distance, played in a
neutral game (terrains.rules).

Every expected value is worked out by hand from terrains.rules and map.toml.  Woods: cost 2,
defence x2 and 1L, recon defender +1.  Hill: cost 3 (no entry for wheeled), x3 and 2L, recon
attacker +1.  Marsh: no cost line (1), no multiplier (x1), 1R, no recon line.  Cells: 0201 woods
then hill, 0301 hill then woods, 0401 marsh then woods; 0101 and 0102 are the front line, 0202
(one cell from it) and 0402 (three) objectives.  The gallery's `terrains` says sum, multiply, sum,
sum; the same game is played with `best for defender` (and `cost highest`), and without the
declaration (each cell's first terrain alone, as before the declaration existed), by an overlay.
"""

from fractions import Fraction as F
from pathlib import Path

import pytest

from driving import run_cli
from gallery import at_position, greedy_game, random_games_replay_alike, scenario_fixture
from warbook.interpreter.combat import column_shifts, combat_strength, eliminate, table_view
from warbook.interpreter.costs import cost_table
from warbook.interpreter.procedures import load_procedures
from warbook.interpreter.procedures.recon import terrain_recon
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.state import Unit
from warbook.interpreter.victory import score_award_cells

HERE = Path(__file__).parent
SCENARIO = HERE / "terrains.toml"

scenario = scenario_fixture(SCENARIO)

BEST = """override terrains terrains "Several terrains in one cell" {
    cost highest
    defence best for defender
    shifts best for defender
    recon best for defender
}"""


def variant(tmp_path: Path, overlay: str):
    """The gallery scenario played under ``terrains.rules`` with ``overlay`` applied to it (copies
    beside it: a rulebook extends only files in its own folder)."""
    for name in ("terrains.rules", "terrains.toml", "map.toml"):
        (tmp_path / name).write_text((HERE / name).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "variant.rules").write_text(f'extends "terrains.rules"\n{overlay}\n', encoding="utf-8")
    toml = (HERE / "terrains.toml").read_text(encoding="utf-8").replace("terrains.rules", "variant.rules")
    (tmp_path / "variant.toml").write_text(toml, encoding="utf-8")
    load_procedures()
    return load_scenario(tmp_path / "variant.toml")


@pytest.fixture
def best(tmp_path):
    return variant(tmp_path, BEST)


@pytest.fixture
def primary(tmp_path):
    return variant(tmp_path, "remove terrains terrains")


GUARDS = Unit("R1", "guards", "red", "0201")


def costs(scenario, unit_type: str) -> dict[str, F | str]:
    ctx = at_position(scenario, "movement", GUARDS)
    table = cost_table(ctx.rules, ctx.board, unit_type)
    return {cell: F(table.cost[cell], table.scale) if cell in table.cost else "barred"
            for cell in ("0101", "0201", "0301", "0401")}


def defence_in(scenario, cell: str) -> F:
    guards = Unit("R1", "guards", "red", cell)
    ctx = at_position(scenario, "assault", guards)
    return combat_strength(ctx, ctx.rules.combats["assault"], [], [guards], cell)[1]


def shifts_in(scenario, cell: str) -> list[tuple[int, str]]:
    guards, rifles = Unit("R1", "guards", "red", cell), Unit("B1", "rifles", "blue", "0102")
    ctx = at_position(scenario, "fire", guards, rifles)
    return column_shifts(ctx, ctx.rules.combats["fire"], table_view(ctx, "crt"), [rifles], [guards], cell, "blue")


def recon_in(scenario, cell: str) -> dict[str, tuple[int, str | None]]:
    ctx = at_position(scenario, "fire", Unit("R1", "guards", "red", cell))
    return {role: terrain_recon(ctx, cell, role) for role in ("attacker", "defender")}


# --- movement costs ---------------------------------------------------------------------------------


def test_costs_add_up_and_a_terrain_barring_the_unit_bars_the_cell(scenario):
    # `cost sum`: woods 2 + hill 3 either way round; marsh has no cost line, so woods' 2 alone.
    assert costs(scenario, "rifles") == {"0101": 1, "0201": 5, "0301": 5, "0401": 2}
    # The hill bars wheeled units from both cells it is in, first terrain or second.
    assert costs(scenario, "tanks") == {"0101": 1, "0201": "barred", "0301": "barred", "0401": 2}


def test_the_highest_cost_holds_under_cost_highest(best):
    assert costs(best, "rifles") == {"0101": 1, "0201": 3, "0301": 3, "0401": 2}  # marsh counts 1 here
    assert costs(best, "tanks") == {"0101": 1, "0201": "barred", "0301": "barred", "0401": 2}


def test_without_the_declaration_the_first_terrain_alone_costs(primary):
    assert costs(primary, "rifles") == {"0101": 1, "0201": 2, "0301": 3, "0401": 1}
    # Woods first: the hill second is only a tag, so wheeled units enter 0201.
    assert costs(primary, "tanks") == {"0101": 1, "0201": 2, "0301": "barred", "0401": 1}


def test_the_reason_a_cell_is_barred_names_the_terrain_that_bars_it(scenario):
    ctx = at_position(scenario, "movement", GUARDS)
    assert cost_table(ctx.rules, ctx.board, "tanks").barred["0201"].startswith("hill: no entry")


# --- defence multipliers ----------------------------------------------------------------------------


def test_defence_multipliers_multiply(scenario):
    # Guards defend 2: x2 x3 in woods with a hill, either way round; marsh x1 with woods x2.
    assert [defence_in(scenario, c) for c in ("0101", "0201", "0301", "0401")] == [2, 12, 12, 4]


def test_the_best_multiplier_for_the_defender(best):
    assert [defence_in(best, c) for c in ("0101", "0201", "0301", "0401")] == [2, 6, 6, 4]


def test_without_the_declaration_the_first_terrain_alone_multiplies(primary):
    assert [defence_in(primary, c) for c in ("0201", "0301", "0401")] == [4, 6, 2]


# --- column shifts ----------------------------------------------------------------------------------


def test_terrain_shifts_add_up(scenario):
    assert shifts_in(scenario, "0201") == [(-1, "Woods 1L"), (-2, "Hill 2L")]
    assert shifts_in(scenario, "0301") == [(-2, "Hill 2L"), (-1, "Woods 1L")]
    assert shifts_in(scenario, "0401") == [(1, "Marsh 1R"), (-1, "Woods 1L")]  # they cancel out
    assert shifts_in(scenario, "0101") == []


def test_the_shift_best_for_the_defender(best):
    assert shifts_in(best, "0201") == [(-2, "Hill 2L")]
    assert shifts_in(best, "0401") == [(-1, "Woods 1L")]  # the marsh's 1R helps the firer


def test_without_the_declaration_the_first_terrain_alone_shifts(primary):
    assert shifts_in(primary, "0201") == [(-1, "Woods 1L")]
    assert shifts_in(primary, "0401") == [(1, "Marsh 1R")]


# --- recon modifiers --------------------------------------------------------------------------------


def test_recon_modifiers_add_up(scenario):
    # Each roll takes the modifiers for its role from every terrain of the cell.
    assert recon_in(scenario, "0201") == {"attacker": (1, "+1 Hill"), "defender": (1, "+1 Woods")}
    assert recon_in(scenario, "0401") == {"attacker": (0, None), "defender": (1, "+1 Woods")}


def test_the_recon_line_best_for_the_defender(best):
    # Of the hill's attacker +1 and the woods' defender +1, the woods' line alone, in either cell.
    for cell in ("0201", "0301"):
        assert recon_in(best, cell) == {"attacker": (0, None), "defender": (1, "+1 Woods")}


def test_without_the_declaration_the_first_terrain_alone_modifies(primary):
    assert recon_in(primary, "0301") == {"attacker": (1, "+1 Hill"), "defender": (0, None)}
    assert recon_in(primary, "0201") == {"attacker": (0, None), "defender": (1, "+1 Woods")}


def test_an_unknown_way_or_family_is_refused_where_it_is_written(tmp_path):
    from warbook.dsl.loader import load_with_diagnostics

    path = tmp_path / "bad.rules"
    path.write_text("\nterrains {\n    cost cheapest\n    height sum\n}\n", encoding="utf-8")
    found = [(d.code, d.span.line, d.span.column, d.hint) for d in load_with_diagnostics(path)[1]]
    assert found == [
        ("E105", 3, 10, "expected 'highest', 'primary', 'sum'; the form is: cost (primary | highest | sum)"),
        ("E104", 4, 5, "a terrains takes: cost, defence, note, recon, requires, shifts, text")]


# --- award points by distance -----------------------------------------------------------------------


def test_a_counter_lost_far_behind_the_front_is_worth_more(scenario):
    near, far = Unit("R1", "guards", "red", "0201"), Unit("R2", "guards", "red", "0401")
    ctx = at_position(scenario, "assault", near, far)
    eliminate(ctx, near, "test")
    assert ctx.state.resource("blue", "vp") == 1  # 0201 touches the front line: `points 1`
    eliminate(ctx, far, "test")
    assert ctx.state.resource("blue", "vp") == 1 + 3  # 0401 is three cells from it: `2+` gives 3


def test_a_cell_held_far_behind_the_front_scores_more(scenario):
    ctx = at_position(scenario, "score", Unit("B1", "rifles", "blue", "0202"), Unit("B2", "rifles", "blue", "0402"))
    score_award_cells(ctx, ctx.rules.awards["ground"])
    # 0202 is one cell from the front (1), 0402 three (2).
    assert ctx.state.resource("blue", "vp") == 1 + 2


# --- whole games ------------------------------------------------------------------------------------


def test_random_games_play_to_the_end_and_replay_alike():
    random_games_replay_alike(SCENARIO)


def test_greedy_games_play_to_the_end():
    assert greedy_game(SCENARIO, 2).is_over()


def test_play_narrates_the_shifts_of_both_terrains(capsys):
    code, out, _ = run_cli(capsys, "play", str(SCENARIO), "--seed", "4")
    # Blue's rifles and tanks (6) fire at a guards (2) on the hill with woods: 3:1, then 2L and 1L.
    assert code == 0 and "attack 6 against defence 2 at 3:1, -2 (Hill 2L), -1 (Woods 1L): column 1:2" in out
