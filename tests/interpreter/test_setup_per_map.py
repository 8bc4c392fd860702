"""Set-up cells belong to the map as well as the rules: one compiled ``Rules`` played on two maps
offers each game its own map's cells (issue 18 item 1; they were once kept per rules alone, so the
second map's game was offered the first map's cells).

By hand: Blue's zone is column 1 of a 2 × 3 map, and Blue never enters walls.  On map A the wall
is at 0102, so Blue may set up at 0101 or 0103; on map B the wall is at 0101, so at 0102 or 0103.
"""

from __future__ import annotations

from warbook.interpreter.game import Game
from warbook.interpreter.scenario import load_scenario

RULES = """rulebook "Two maps" {
    players 2
    grid square with diagonals
}
side blue "Blue" {
    short B
    never enters wall
}
side red "Red" {
    short R
}
factor move "Move"
terrain clear "Clear" {
    cost 1
}
terrain wall "Wall" {
    cost 1
}
movement walk "Walk" {
    points factor move
}
unit scout "Scout" {
    side blue
    movement walk
    move 1
}
unit raider "Raider" {
    side red
    movement walk
    move 1
}
sequence {
    phase moves "Moves" {
        for each side
        do move
    }
}
"""

SCENARIO = """[scenario]
name = "Two maps"
rules = "two.rules"
map = "{map}"
turns = 1
player_order = ["blue", "red"]

[[setup]]
side = "blue"
unit = "scout"
zone = {{ columns = "1" }}

[[setup]]
side = "red"
unit = "raider"
at = "0203"
"""


def map_text(rows: list[str]) -> str:
    quoted = ", ".join(f'"{r}"' for r in rows)
    return (f'[map]\nname = "Strip"\ngrid = "square"\nwidth = 2\nheight = {len(rows)}\nrows = [{quoted}]\n'
            '[map.legend]\n"." = "clear"\n"x" = "wall"\n')


def test_one_compiled_rules_on_two_maps_offers_each_map_its_own_setup_cells(tmp_path):
    (tmp_path / "two.rules").write_text(RULES, encoding="utf-8")
    scenarios = {}
    for name, rows in {"a": ["..", "x.", ".."], "b": ["x.", "..", ".."]}.items():
        (tmp_path / f"{name}.toml").write_text(map_text(rows), encoding="utf-8")
        (tmp_path / f"{name}-scenario.toml").write_text(SCENARIO.format(map=f"{name}.toml"), encoding="utf-8")
        scenarios[name] = load_scenario(tmp_path / f"{name}-scenario.toml")
    # The second scenario plays with the first one's compiled rules (and their memos), as a
    # process that keeps one ``Rules`` for many maps would.
    object.__setattr__(scenarios["b"], "rules", scenarios["a"].rules)
    assert scenarios["b"].rules is scenarios["a"].rules

    offered = {}
    for name in ("a", "b", "a"):  # a again: b's game left a's answers as they were
        game = Game.new(scenarios[name], 1)
        decision = game.decision
        assert (decision.side, decision.kind) == ("blue", "setup")
        offered.setdefault(name, []).append([str(o) for o in decision.options])
    assert offered["a"] == [["place B1 0101", "place B1 0103"]] * 2
    assert offered["b"] == [["place B1 0102", "place B1 0103"]]
