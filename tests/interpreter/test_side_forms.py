"""Side and event forms by play: ``inspects enemy stacks`` and an event's ``side``.

The games are the mini fixture (fixtures/mini: blue face up, red face down with guerrillas and a
decoy), with a line or a declaration added in a temporary copy.

Reference (side): "`inspects enemy stacks`: the side sees the other sides' face-down counters on
the map as if face up; with `nothing`, or no line, only where they are."  Reference (event):
"`side`: whose event it is: its effects are carried out for this side, whoever rolled it;
without the line, for the side that rolled or triggered it."
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from warbook.interpreter.game import Game

MINI = Path(__file__).parent / "fixtures" / "mini"


def mini_with(tmp_path: Path, replace: tuple[str, str] | None = None, extra: str = "") -> Path:
    """A copy of the mini game with ``replace`` done in its rules and ``extra`` added to them."""
    shutil.copytree(MINI, tmp_path, dirs_exist_ok=True)
    text = (MINI / "mini.rules").read_text()
    if replace is not None:
        assert replace[0] in text
        text = text.replace(*replace)
    (tmp_path / "mini.rules").write_text(text + extra)
    return tmp_path / "mini.toml"


def placed(scenario: Path) -> Game:
    """The game once red has set up (each counter in the first cell offered)."""
    game = Game.new(scenario, seed=3)
    while game.decision is not None and game.decision.side == "red":
        game.apply(game.legal_actions()[0])
    return game


def red_seen_by_blue(scenario: Path) -> dict[str, dict]:
    game = placed(scenario)
    reds = [u for u in game.state.units if u.side == "red"]
    assert reds and all(u.hidden and u.on_map for u in reds)  # set up face down on the map
    return {u["id"]: u for u in game.observe("blue")["units"] if u["side"] == "red"}


@pytest.mark.parametrize("line", ["", "    inspects enemy nothing\n"])
def test_face_down_enemy_counters_show_only_where_they_are(tmp_path, line):
    seen = red_seen_by_blue(mini_with(tmp_path, ('    short B\n', '    short B\n' + line)))
    assert len(seen) == 3 and all(u["type"] is None and u["mode"] is None for u in seen.values())


def test_a_side_that_inspects_enemy_stacks_sees_what_each_face_down_counter_is(tmp_path):
    """Blue inspects: the two guerrillas and the decoy are shown by type (still face down)."""
    scenario = mini_with(tmp_path, ('    short B\n', '    short B\n    inspects enemy stacks\n'))
    seen = red_seen_by_blue(scenario)
    assert sorted(u["type"] for u in seen.values()) == ["decoy", "guerrilla", "guerrilla"]
    # Red's view of blue is unchanged, and red does not inspect: blue is face up anyway.
    game = placed(scenario)
    assert {u["type"] for u in game.observe("red")["units"] if u["side"] == "blue"} == {"trooper"}


def test_a_side_that_inspects_enemy_stacks_reads_them_in_the_narrative_too(tmp_path):
    """What an agent sees in ``observe`` a person sees in the narrative: labels and redactions."""
    from warbook.interpreter.narrate import redactions

    inspecting = placed(mini_with(tmp_path / "a", ('    short B\n', '    short B\n    inspects enemy stacks\n')))
    plain = placed(mini_with(tmp_path / "b"))
    for game, inspects in ((inspecting, True), (plain, False)):
        red = [u for u in game.state.units if u.side == "red" and u.hidden and u.on_map]
        assert red
        assert all(game.ctx.label(u, "blue").endswith("(hidden)") is not inspects for u in red)
        assert bool(redactions(game, "blue")) is not inspects
        assert all(game.ctx.label(u, None).endswith("(hidden)") for u in red)  # the narrative for all


EVENTS = '''
table omens "Omens" {
    roll d6
    cells are events
    row keys rolls
    columns outcome
    1-6: windfall
}
event windfall "Windfall" {
    side red
    effect gain vp 2
}
event plain_windfall "Windfall for the roller" {
    effect gain vp 3
}
table plain_omens "Plain omens" {
    roll d6
    cells are events
    row keys rolls
    columns outcome
    1-6: plain_windfall
}
'''
OMENS = ('''    phase scoring "Scoring" {''', '''    phase omens "Omens" {
        side first
        do roll events on omens
        do roll events on plain_omens
    }
    phase scoring "Scoring" {''')


def test_an_event_with_a_side_is_carried_out_for_that_side_whoever_rolls_it(tmp_path):
    """Blue (first player) rolls both tables each turn.  ``windfall`` is red's event, so red gains 2;
    ``plain_windfall`` names no side, so its roller, blue, gains 3.  By hand over two turns (no
    decisions change it; blue also holds the town, +2 a turn in the mutual scoring phase):
    red 2 + 2 = 4, blue 3 + 2 + 3 + 2 = 10.  (With the roller as owner, red had 0 and blue 14.)"""
    game = Game.new(mini_with(tmp_path, OMENS, EVENTS), seed=1)
    while not game.is_over():
        options = game.legal_actions()
        game.apply(next((a for a in options if a.kind == "done"), options[0]))  # set up, then no orders
    assert game.state.resource("red", "vp") == 4
    assert game.state.resource("blue", "vp") == 10
    owners = [e["text"] for e in game.log if e.get("kind") == "random event"]
    assert len(owners) == 4 and "(Red's event)" in owners[0] and "Red's event" not in owners[1]
