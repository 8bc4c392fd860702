"""Optional rules the players agree before play: ``Game.new(..., options=...)``, the save and the replay."""

import json
import shutil
from pathlib import Path

import pytest

from warbook.dsl.diagnostics import RulesError
from warbook.interpreter.game import Game
from warbook.interpreter.narrate import title
from warbook.interpreter.options import option_on
from warbook.interpreter.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
GAME_WARDEN = ROOT / "scenarios" / "sea_lords_game_warden.toml"
ZUMWALT = ROOT / "scenarios" / "sea_lords_zumwalt.toml"
MINI = Path(__file__).parent / "fixtures" / "mini"

RESERVE = """
option reserve "Blue's reserve" {
    default off
}
"""


@pytest.fixture
def reserve(tmp_path) -> Path:
    """The mini game with an optional rule: a second trooper set up only while ``reserve`` is on."""
    shutil.copy(MINI / "map.toml", tmp_path / "map.toml")
    (tmp_path / "house.rules").write_text((MINI / "mini.rules").read_text(encoding="utf-8") + RESERVE,
                                          encoding="utf-8")
    scenario = (MINI / "mini.toml").read_text(encoding="utf-8").replace('"mini.rules"', '"house.rules"')
    scenario += '\n[[setup]]\nside = "blue"\nunit = "trooper"\ncount = 1\nat = "0101"\nrequires_option = "reserve"\n'
    (tmp_path / "house.toml").write_text(scenario, encoding="utf-8")
    return tmp_path / "house.toml"


def troopers(game: Game) -> int:
    return sum(1 for unit in game.state.units if unit.type == "trooper")


def play_some(game: Game, steps: int) -> Game:
    for _ in range(steps):
        if game.is_over():
            break
        game.apply(game.legal_actions()[0])
    return game


def test_an_option_the_players_switch_on_is_in_force_for_that_game_only():
    scenario = load_scenario(GAME_WARDEN)
    game = Game.new(scenario, 1, options={"communist_cp": True})
    plain = Game.new(scenario, 1)
    assert option_on(game.ctx, "communist_cp") and not option_on(game.ctx, "naval_zoc")
    assert not option_on(plain.ctx, "communist_cp") and not option_on(scenario, "communist_cp")
    assert game.ctx.rules is not plain.ctx.rules
    # Games agreeing the same options share one compiled Rules (and its caches).
    assert Game.new(scenario, 2, options={"communist_cp": True}).ctx.rules is game.ctx.rules
    assert Game.new(GAME_WARDEN, 1, options={"communist_cp": True}).ctx.rules is not game.ctx.rules


def test_an_option_changes_the_game_and_the_save_records_and_replays_it(reserve, tmp_path):
    game = Game.new(reserve, 3, options={"reserve": True})
    assert troopers(game) == 2 and troopers(Game.new(reserve, 3)) == 1
    play_some(game, 4)
    game.save(tmp_path / "game.jsonl")
    header = json.loads((tmp_path / "game.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert header["options"] == {"reserve": True}
    loaded = Game.load(tmp_path / "game.jsonl")
    assert loaded.log == game.log and troopers(loaded) == 2 and loaded.header() == game.header()


def test_a_game_without_options_saves_no_options_key(reserve, tmp_path):
    Game.new(reserve, 3).save(tmp_path / "game.jsonl")
    assert "options" not in json.loads((tmp_path / "game.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert "options" not in Game.new(reserve, 3, options={}).header()


def test_sea_lords_option_survives_save_and_load(tmp_path):
    game = play_some(Game.new(GAME_WARDEN, 1, options={"communist_cp": True, "naval_zoc": False}), 3)
    game.save(tmp_path / "warden.jsonl")
    loaded = Game.load(tmp_path / "warden.jsonl")
    assert option_on(loaded.ctx, "communist_cp") and not option_on(loaded.ctx, "naval_zoc")
    assert loaded.log == game.log and loaded.choices == game.choices
    assert loaded.header()["options"] == {"communist_cp": True, "naval_zoc": False}


def test_options_apply_under_another_rulebook_and_replay_under_it(tmp_path):
    house = tmp_path / "house.rules"
    house.write_text((MINI / "mini.rules").read_text(encoding="utf-8") + RESERVE, encoding="utf-8")
    game = Game.new(house, MINI / "mini.toml", 4, options={"reserve": True})
    assert option_on(game.ctx, "reserve")
    play_some(game, 2).save(tmp_path / "house.jsonl")
    loaded = Game.load(tmp_path / "house.jsonl")
    assert option_on(loaded.ctx, "reserve") and loaded.log == game.log


def test_an_unknown_option_is_a_diagnostic_with_a_hint():
    with pytest.raises(RulesError) as info:
        Game.new(GAME_WARDEN, 1, options={"comunist_cp": True})
    (found,) = info.value.diagnostics
    assert found.code == "E804" and "unknown option 'comunist_cp'" in found.message
    assert "communist_cp, naval_zoc" in found.message and found.hint == "did you mean 'communist_cp'?"
    with pytest.raises(RulesError) as info:
        Game.new(MINI / "mini.toml", 1, options={"night": True})
    assert "the rulebook declares no option" in info.value.diagnostics[0].message


def test_an_option_must_be_set_to_a_bool():
    with pytest.raises(TypeError, match="must be True or False"):
        Game.new(GAME_WARDEN, 1, options={"naval_zoc": "off"})


@pytest.mark.parametrize("options, message", [
    (["reserve"], "the header's 'options' must map option names to true or false"),
    ({"reserve": "on"}, "the header's 'options' must map option names to true or false"),
    ({"reserv": True}, "the header's unknown option 'reserv'; the rulebook's options: reserve"),
])
def test_a_header_with_bad_options_is_refused(reserve, tmp_path, options, message):
    log = tmp_path / "game.jsonl"
    Game.new(reserve, 3, options={"reserve": True}).save(log)
    lines = log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["options"] = options
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    with pytest.raises(RulesError) as info:
        Game.load(log)
    (found,) = info.value.diagnostics
    assert (found.code, found.span.line, found.message) == ("E803", 1, message)


def test_an_option_a_side_would_choose_is_not_asked_when_the_players_settled_it():
    """Zumwalt lets the Free World choose to invade Cambodia (26.10); the Communists then gain 25 VP."""
    asked = Game.new(ZUMWALT, 1)
    assert asked.decision.kind == "option" and asked.current_player() == "free_world"
    for on in (True, False):
        game = Game.new(ZUMWALT, 1, options={"invade_cambodia": on})
        assert game.decision.kind != "option" and option_on(game.ctx, "invade_cambodia") is on
        settled = [e for e in game.log if e.get("kind") == "option"]
        assert [(e["option"], e["on"], e["agreed"]) for e in settled] == [("invade_cambodia", on, True)]
        # The option's effect is carried out as if the side had chosen it.
        gained = [e for e in game.log if e.get("type") == "event" and "(Invasion of Cambodia)" in e["text"]]
        assert bool(gained) is on


def test_the_title_names_the_optional_rules_in_force(reserve):
    assert title(Game.new(reserve, 3)) == "Mini, seed 3"
    assert title(Game.new(reserve, 3, options={"reserve": True})) == "Mini, seed 3; optional rules: reserve"
    assert title(Game.new(reserve, 3, options={"reserve": False})) == "Mini, seed 3"
