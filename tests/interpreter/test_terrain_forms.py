"""Terrain and map-feature forms: ``effects from other terrain``, ``feature … on``, ``feature … tags``.

A neutral rulebook: a depot takes its effects from the cell's other terrain (a forest costs 2 and
doubles defence); a creek lies on cell sides and is wet; a path lies on cells and is a track.
Expected values are counted by hand on one-row square maps."""

from fractions import Fraction
from types import SimpleNamespace

import pytest

from warbook.dsl import load_rulebook
from warbook.dsl.diagnostics import RulesError
from warbook.interpreter import movement as mv
from warbook.interpreter.board import board_from_text
from warbook.interpreter.cells import cells_named
from warbook.interpreter.context import Context
from warbook.interpreter.rules import Rules
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.state import GameState, Unit

RULES = """
rulebook "Outpost" {
    players 2
}
side blue "Blue"
side red "Red"
factor move "Move"
tag base "Base"
tag wet "Wet"
tag track "Track"
terrain clear "Clear" {
    cost 1
}
terrain forest "Forest" {
    cost 2
    defence x2
}
terrain depot "Depot" {
    effects from other terrain
    tags base
}
feature creek "Creek" {
    on sides
    tags wet
}
feature path "Path" {
    on cells
    tags track
}
movement walk "Walk" {
    points factor move
}
movement wade "Wade" {
    points factor move
    crosses only wet
}
movement trek "Trek" {
    points factor move
    enters only track
}
unit walker "Walker" {
    side blue
    movement walk
    move 3
}
unit wader "Wader" {
    side blue
    movement wade
    move 3
}
unit trekker "Trekker" {
    side blue
    movement trek
    move 3
}
"""

LEGEND = '"." = "clear"\n"F" = "forest"\n"D" = ["depot", "forest"]\n"d" = "depot"\n'


def map_text(rows, features="", legend=LEGEND):
    return (f'[map]\ngrid = "square"\nwidth = {len(rows[0])}\nheight = {len(rows)}\nrows = {rows!r}\n'
            .replace("'", '"') + "[map.legend]\n" + legend + features)


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    path = tmp_path_factory.mktemp("outpost") / "outpost.rules"
    path.write_text(RULES, encoding="utf-8")
    return Rules(load_rulebook(path))


def board(rules, rows, features="", legend=LEGEND):
    return board_from_text(map_text(rows, features, legend), "outpost.toml", list(rules.terrains),
                           features=rules.features, deferring=[t.name for t in rules.terrains.values() if t.defers])


def reach(rules, the_board, type_name):
    ctx = Context(SimpleNamespace(rulebook=rules.rulebook, rules=rules, board=the_board,
                                  player_order=("blue", "red")), 0)
    ctx.state = GameState(units=(Unit("U1", type_name, "blue", "0101"),))
    return mv.reachable(ctx, ctx.state.unit("U1"))


def test_a_depot_takes_the_cost_of_the_cells_other_terrain(rules):
    # 0201 is a depot in a forest (cost 2), 0301 a bare depot (the default cost 1): 2, 3; 0401 is too far.
    assert reach(rules, board(rules, [".Dd."]), "walker") == {"0201": 2, "0301": 3}


def test_a_depot_takes_the_defence_of_the_cells_other_terrain(rules):
    walker = rules.unit_type("walker")
    the_board = board(rules, ["Dd"])
    assert rules.terrain_defence("depot", walker, the_board.tags("0101")) == Fraction(2)
    assert rules.terrain_defence("depot", walker, the_board.tags("0201")) == Fraction(1)
    assert "base" in rules.cell_selectors("depot", the_board.tags("0101"))  # its own tags still hold


def test_a_legend_giving_a_depot_two_other_terrains_is_refused(rules):
    with pytest.raises(RulesError) as err:
        board(rules, ["x."], legend=LEGEND + '"x" = ["depot", "forest", "clear"]\n')
    assert [d.code for d in err.value.diagnostics] == ["E708"]


def test_a_feature_on_cells_gives_them_its_name_and_tags(rules):
    the_board = board(rules, ["...."], '[[map.features]]\nkind = "path"\npath = ["0101", "0201", "0301"]\n')
    assert cells_named(rules, the_board, ["track"]) == cells_named(rules, the_board, ["path"]) == \
        {"0101", "0201", "0301"}
    assert reach(rules, the_board, "trekker") == {"0201": 1, "0301": 2}  # enters only track: not 0401


def test_crosses_only_names_a_features_tag(rules):
    the_board = board(rules, ["..."], '[[map.features]]\nkind = "creek"\npath = ["0101", "0201"]\n')
    assert reach(rules, the_board, "wader") == {"0201": 1}  # the creek's side only, not 0201-0301


def test_a_feature_drawn_across_a_corner_it_is_not_on_is_refused(rules):
    with pytest.raises(RulesError) as err:
        board(rules, ["..", ".."], '[[map.features]]\nkind = "creek"\npath = ["0101", "0202"]\n')
    assert [d.code for d in err.value.diagnostics] == ["E707"]
    # A feature on cells may step across any edge.
    board(rules, ["..", ".."], '[[map.features]]\nkind = "path"\npath = ["0101", "0202"]\n')


def test_a_scenario_whose_map_draws_an_undeclared_feature_is_refused(tmp_path):
    (tmp_path / "outpost.rules").write_text(RULES, encoding="utf-8")
    (tmp_path / "map.toml").write_text(map_text(["..."], '[[map.features]]\nkind = "crek"\npath = ["0101", "0201"]\n'),
                                       encoding="utf-8")
    (tmp_path / "s.toml").write_text('[scenario]\nname = "S"\nrules = "outpost.rules"\nmap = "map.toml"\nturns = 1\n'
                                     'player_order = ["blue", "red"]\n', encoding="utf-8")
    with pytest.raises(RulesError) as err:
        load_scenario(tmp_path / "s.toml")
    (found,) = err.value.diagnostics
    assert found.code == "E706" and "'crek'" in found.message and found.span.line == 12  # its kind line
