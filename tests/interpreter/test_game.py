"""The game API on a tiny generic game: determinism, legality, hidden information, save = replay."""

import json
import random
from pathlib import Path

import pytest

from warbook.dsl.diagnostics import RulesError
from warbook.interpreter.actions import Action, IllegalActionError
from warbook.interpreter.game import Game

MINI = Path(__file__).parent / "fixtures" / "mini" / "mini.toml"


def playout(seed: int, agent_seed: int) -> Game:
    game = Game.new(MINI, seed=seed)
    pick = random.Random(agent_seed)
    while not game.is_over():
        game.apply(pick.choice(game.legal_actions()))
    return game


def test_same_seed_and_choices_give_the_same_log():
    assert playout(5, 1).log == playout(5, 1).log


def test_legal_actions_are_sorted_and_numbers_choose_them():
    game = Game.new(MINI, seed=0)
    options = game.legal_actions()
    assert game.current_player() == "red" and game.decision.kind == "setup"
    assert list(options) == sorted(options, key=lambda a: (a.kind, [int(x) if x.isdigit() else x for x in a.args]))
    assert game.parse_action("1") == options[0]


def test_illegal_action_is_a_diagnostic_and_changes_nothing():
    game = Game.new(MINI, seed=0)
    before = game.state
    with pytest.raises(IllegalActionError) as info:
        game.apply(Action("place", ("R1", "0101")))  # column 1 is outside red's set-up zone (columns 3-4)
    assert info.value.diagnostic.code == "E801" and "legal now" in info.value.diagnostic.hint
    assert game.state == before


def test_fixed_setup_and_held_town_scoring():
    game = playout(1, 2)
    # The trooper starts on the town (0202) and nothing in this game moves it: 2 VP a turn for 2 turns.
    assert game.state.unit("B1").location == "0202"
    assert game.result() == {"winner": "blue", "level": "Victory", "margin": 4, "totals": {"blue": "4", "red": "0"}}


def test_hidden_counters_are_anonymous_to_the_enemy():
    game = playout(2, 3)
    seen = game.observe("blue")
    reds = [u for u in seen["units"] if u["side"] == "red"]
    assert reds and all(u["type"] is None and u["dummy"] is None for u in reds)
    own = [u for u in game.observe("red")["units"] if u["side"] == "red"]
    assert {u["type"] for u in own} == {"guerrilla", "decoy"}


def test_hidden_ids_do_not_follow_setup_order():
    # Ids of a face-down side are shuffled per seed, so R1 is not always the first unit set up.
    first_types = {playout(s, 0).state.unit("R1").type for s in range(12)}
    assert first_types == {"guerrilla", "decoy"}


def test_save_is_replayed_on_load(tmp_path):
    game = playout(4, 4)
    path = tmp_path / "game.jsonl"
    game.save(path)
    loaded = Game.load(path)
    assert loaded.log == game.log and loaded.result() == game.result()
    header = json.loads(path.read_text().splitlines()[0])
    assert header["seed"] == 4 and header["rulebook_hash"] == game.scenario.rulebook.hash


def test_tampered_log_is_refused(tmp_path):
    path = tmp_path / "game.jsonl"
    playout(4, 4).save(path)
    lines = path.read_text().splitlines()
    decision = next(i for i, line in enumerate(lines) if '"decision"' in line)
    entry = json.loads(lines[decision])
    entry["options"] += 1
    lines[decision] = json.dumps(entry)
    path.write_text("\n".join(lines))
    with pytest.raises(RulesError) as info:
        Game.load(path)
    assert info.value.diagnostics[0].code == "E803"
    with pytest.raises(RulesError):
        Game.load(tmp_path / "missing.jsonl")


def test_markers_never_take_orders():
    """Orders (WATCH MODE, PATROL MODE) are given to units; a booby trap marker never takes one."""
    scenario = Path(__file__).resolve().parents[2] / "scenarios" / "klicks_firebase_night.toml"
    game = Game.new(scenario, seed=1)
    declared = 0
    while not game.is_over() and game.state.turn <= 1:
        options = game.legal_actions()
        for action in options:
            if action.kind == "declare":
                declared += 1
                assert game.state.unit(action.args[0]).type != "booby_trap"
        game.apply(options[-1] if options[-1].kind == "done" else options[0])
    assert declared, "the first turn offered orders"


def test_a_game_under_another_rulebook_saves_and_replays(tmp_path):
    """Game.new(rulebook, scenario, seed): a house rule played on a scenario, and its save replays under it."""
    house = tmp_path / "house.rules"
    base = (MINI.parent / "mini.rules").read_text(encoding="utf-8")
    house.write_text(base.replace("points 2", "points 5"), encoding="utf-8")
    game = Game.new(house, MINI, 4)
    pick = random.Random(0)
    while not game.is_over():
        game.apply(pick.choice(game.legal_actions()))
    # The trooper holds the town both turns: 5 points a turn under the house rule.
    assert game.result()["totals"]["blue"] == "10"
    game.save(tmp_path / "house.jsonl")
    assert Game.load(tmp_path / "house.jsonl").result() == game.result()


def test_another_rulebook_must_know_the_scenario(tmp_path):
    other = tmp_path / "other.rules"
    other.write_text('side blue "Blue"\nside red "Red"\nterrain clear "Clear"\n', encoding="utf-8")
    with pytest.raises(RulesError) as info:
        Game.new(other, MINI, 0)
    messages = [d.message for d in info.value.diagnostics]
    assert "the rulebook has no terrain 'town', which the map uses" in messages
    assert "the rulebook has no unit type 'trooper', which the set-up uses" in messages


def test_a_side_may_not_set_up_more_dummies_than_it_allows(tmp_path):
    """Several Klicks UNITS: 'up to the same number of dummy markers as actual units' (here: none allowed)."""
    folder = MINI.parent
    for name in ("mini.rules", "map.toml"):
        (tmp_path / name).write_text((folder / name).read_text(encoding="utf-8"), encoding="utf-8")
    rules = (tmp_path / "mini.rules").read_text(encoding="utf-8")
    (tmp_path / "mini.rules").write_text(rules.replace("counters face down", "counters face down\n    dummies none"),
                                         encoding="utf-8")
    (tmp_path / "mini.toml").write_text(MINI.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(RulesError) as info:
        Game.new(tmp_path / "mini.toml", 0)
    (d,) = info.value.diagnostics
    assert d.code == "E704" and d.message == "red sets up 1 dummies but may have no dummies"
    (tmp_path / "mini.rules").write_text(rules.replace("counters face down", "counters face down\n    dummies up to units"),
                                         encoding="utf-8")
    assert Game.new(tmp_path / "mini.toml", 0)  # 1 decoy for 2 guerrillas is within the limit
