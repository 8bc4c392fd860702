"""Mechanics gallery: the turn record and the weather, played in a neutral game (turns.rules).

Every expected value is worked out by hand from turns.rules: the turn record names turns 1 to 4
(5, 12, 19 and 26 June), fixes clear on turn 1, mud on turn 2 and clear on turn 4, and leaves turn
3 to keep the mud unless the forecast rolls a storm (1-3 on a d6), which sets snow from turn 3 on.
Infantry and rifles print attack 4, defence 4; the assault halves every attacker's attack in mud,
doubles the rifles' defence in snow, and shifts 1L in snow or mud from turn 3.  Both move 2 (infantry
on foot, rifles on wheels): clear costs 1 (2 for infantry in mud), rough 2 (no entry in snow); foot
moves at most 1 point in snow, wheels half their points in mud.  The map (map.toml) is five columns
by three rows with rough at 0301 and 0303.
"""

from fractions import Fraction
from pathlib import Path

import pytest

from driving import drive, played, run_cli
from warbook.dsl.conditions import ConditionError, Weather, parse_condition
from warbook.interpreter.agents import GreedyAgent, iter_play
from warbook.interpreter.combat import combat_strength, find_column
from warbook.interpreter.conditions import Scope, holds
from warbook.interpreter.context import Context
from warbook.interpreter.event_effects import run_event
from warbook.interpreter.game import Game
from warbook.interpreter.movement import explain, reachable
from warbook.interpreter.narrate import narrate
from warbook.interpreter.procedures import load_procedures
from warbook.interpreter.rng import choice_rng
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.state import GameState, Unit, replace
from warbook.interpreter.turns import start_turn

HERE = Path(__file__).parent
SCENARIO = HERE / "turns.toml"


@pytest.fixture(scope="module")
def scenario():
    load_procedures()
    return load_scenario(SCENARIO)


B1, B2 = Unit("B1", "infantry", "blue", "0202"), Unit("B2", "infantry", "blue", "0202")
R1 = Unit("R1", "rifles", "red", "0302")


def make(scenario, turn: int = 1, weather: str | None = None) -> Context:
    ctx = Context(scenario, seed=0)
    ctx.state = GameState(turn=turn, phase="combat", units=(B1, B2, R1), weather=weather)
    return ctx


# --- the turn record ----------------------------------------------------------------------------------


def test_the_turn_record_is_compiled_from_the_sequence(scenario):
    records = scenario.rules.turn_records
    assert sorted(records) == [1, 2, 3, 4]
    assert (records[2].label, records[2].weather, records[2].note) == ("12 June", "mud", "The rains come")
    assert (records[3].label, records[3].weather, records[3].note) == ("19 June", None, None)
    assert scenario.rules.weathers == {"clear": "Clear", "mud": "Mud", "snow": "Snow"}


def test_each_turn_starts_with_its_weather_and_a_turn_without_one_keeps_the_last(scenario):
    ctx = make(scenario, turn=0)
    weathers = []
    for turn in (1, 2, 3, 4):
        start_turn(ctx, turn)
        weathers.append(ctx.state.weather)
    assert weathers == ["clear", "mud", "mud", "clear"]
    headings = [e["heading"] for e in ctx.events if e.get("kind") == "turn"]
    assert headings == ["Turn 1: 5 June, Clear", "Turn 2: 12 June, Mud — The rains come", "Turn 3: 19 June, Mud",
                        "Turn 4: 26 June, Clear"]
    assert narrate(ctx.events[1:2]) == ["", "Turn 2: 12 June, Mud — The rains come"]


def test_a_turn_past_the_record_starts_as_any_turn_without_one(scenario):
    ctx = make(scenario, turn=4, weather="clear")
    start_turn(ctx, 5)
    assert ctx.events == [{"type": "event", "turn": 5, "phase": "combat", "text": "turn 5", "kind": "turn"}]
    assert ctx.state.weather == "clear" and narrate(ctx.events) == [""]


# --- weather rolled at a named moment -----------------------------------------------------------------


def test_a_storm_sets_snow_only_from_turn_3(scenario):
    ctx = make(scenario, turn=2, weather="mud")
    assert drive(run_event(ctx, "storm", Scope("blue"))) == []
    assert ctx.state.weather == "mud"  # `when turn >= 3` does not hold on turn 2
    ctx.state = replace(ctx.state, turn=3)
    drive(run_event(ctx, "storm", Scope("blue")))
    assert ctx.state.weather == "snow"
    (event,) = [e for e in ctx.events if e.get("kind") == "weather"]
    assert (event["text"], event["weather"]) == ("the weather is Snow (Storm)", "snow")


# --- conditions ---------------------------------------------------------------------------------------


def test_weather_and_turn_conditions_read_the_state(scenario):
    rules = scenario.rulebook
    condition = parse_condition("weather is snow or mud and turn >= 3".split(), rules)
    assert condition.clauses[0] == Weather(("snow", "mud"))
    results = {}
    for turn, weather in [(2, "mud"), (3, "mud"), (3, "snow"), (3, "clear"), (4, None)]:
        results[turn, weather] = holds(make(scenario, turn, weather), condition, Scope("blue"))
    assert results == {(2, "mud"): False, (3, "mud"): True, (3, "snow"): True, (3, "clear"): False,
                       (4, None): False}
    with pytest.raises(ConditionError, match="expected a weather name, found 'fog'"):
        parse_condition("weather is fog".split(), rules)


# --- weather-dependent combat -------------------------------------------------------------------------


@pytest.mark.parametrize("turn, weather, attack, defence, column", [
    (1, "clear", 8, 4, "2:1"),  # 8:4
    (2, "mud", 4, 4, "1:1"),    # every attacker's attack halved: 4:4
    (3, "mud", 4, 4, "1:2"),    # 4:4, and 1L in mud from turn 3
    (3, "snow", 8, 8, "1:2"),   # the rifles' defence doubled: 8:8, and 1L
])
def test_the_assault_halves_doubles_and_shifts_as_the_weather_says(scenario, turn, weather, attack, defence, column):
    ctx = make(scenario, turn, weather)
    combat = ctx.rules.combats["assault"]
    assert combat_strength(ctx, combat, [B1, B2], [R1], "0302") == (attack, defence)
    assert find_column(ctx, combat, [B1, B2], [R1], attacker_side="blue").label == column


def test_a_strength_line_for_some_units_leaves_the_others(scenario):
    # In snow only rifles defend doubled: infantry attacked by rifles defend at 4.
    ctx = make(scenario, 3, "snow")
    assert combat_strength(ctx, ctx.rules.combats["assault"], [R1], [B1], "0202") == (Fraction(4), Fraction(4))


# --- weather-dependent movement ----------------------------------------------------------------------

CLEAR_FROM_0202 = {"0101", "0102", "0103", "0201", "0203", "0302", "0303", "0401", "0402"}


@pytest.mark.parametrize("weather, cells", [
    ("clear", CLEAR_FROM_0202),                                   # 2 points; rough 0303 costs 2
    ("mud", {"0102", "0103", "0201", "0203", "0302", "0303"}),   # every cell costs infantry 2
    ("snow", {"0102", "0103", "0201", "0203", "0302"}),           # 1 point at most; 0303 barred
])
def test_infantry_reach_in_each_weather(scenario, weather, cells):
    ctx = make(scenario, 2, weather)
    ctx.state = replace(ctx.state, units=(B1, replace(R1, location="0503")))
    assert set(reachable(ctx, B1)) == cells


@pytest.mark.parametrize("weather, cells", [
    ("clear", {"0201", "0202", "0302", "0303", "0401", "0403", "0501", "0502", "0503"}),
    ("mud", {"0302", "0401", "0403", "0502", "0503"}),       # half of 2 points; clear still costs rifles 1
    ("snow", {"0201", "0202", "0302", "0401", "0403", "0501", "0502", "0503"}),  # rough barred, 2 points
])
def test_rifles_reach_in_each_weather(scenario, weather, cells):
    ctx = make(scenario, 2, weather)
    rifles = replace(R1, location="0402")
    ctx.state = replace(ctx.state, units=(replace(B1, location="0101"), rifles))
    assert set(reachable(ctx, rifles)) == cells


def test_a_cell_barred_by_the_weather_says_which_line_bars_it(scenario):
    ctx = make(scenario, 2, "snow")
    ctx.state = replace(ctx.state, units=(B1, replace(R1, location="0503")))
    assert explain(ctx, B1, "0303").startswith("0303 is rough: no entry")


def test_a_weather_set_mid_turn_changes_the_next_search(scenario):
    ctx = make(scenario, 3, "clear")
    ctx.state = replace(ctx.state, units=(B1, replace(R1, location="0503")))
    assert set(reachable(ctx, B1)) == CLEAR_FROM_0202
    drive(run_event(ctx, "storm", Scope("blue")))
    assert ctx.state.weather == "snow" and "0401" not in reachable(ctx, B1)


# --- observations, whole games, narration -------------------------------------------------------------


def test_every_side_sees_the_weather_once_there_is_one():
    game = Game.new(SCENARIO, 1)  # stopped at turn 1's first decision: the turn record's clear
    assert game.observe("blue")["weather"] == "clear"
    game.ctx.state = replace(game.ctx.state, weather=None)
    assert "weather" not in game.observe("blue")
    game.ctx.state = replace(game.ctx.state, weather="mud")
    assert game.observe("blue")["weather"] == game.observe("red")["weather"] == "mud"


def test_a_saved_game_replays_its_weather(tmp_path):
    game = played(SCENARIO, 1)
    game.save(tmp_path / "game.jsonl")
    loaded = Game.load(tmp_path / "game.jsonl")
    assert loaded.state == game.state and loaded.log == game.log
    assert [e.get("weather") for e in loaded.log if e.get("kind") in ("turn", "weather")] == \
        [e.get("weather") for e in game.log if e.get("kind") in ("turn", "weather")]


def test_a_person_playing_sees_the_weather():
    import io

    from warbook.interpreter.actions import Action, Decision
    from warbook.interpreter.human import HumanAgent

    game = Game.new(SCENARIO, 1)
    view = HumanAgent(io.StringIO(), io.StringIO()).view(game.observe("blue"), Decision("blue", "x", "pick",
                                                                                           (Action("done"),)))
    assert "== blue — turn 1, weather clear, movement" in view


def test_random_games_play_to_the_end_and_replay_alike():
    for seed in range(4):
        game = played(SCENARIO, seed)
        assert game.is_over()
        assert played(SCENARIO, seed).log == game.log
        turns = [e for e in game.log if e.get("kind") == "turn"]
        # Turn 3 starts in turn 2's mud: its storm is rolled in its weather phase, after it starts.
        assert [e["weather"] for e in turns] == ["clear", "mud", "mud", "clear"]
    assert any(e.get("kind") == "weather" for seed in range(4) for e in played(SCENARIO, seed).log)


def test_greedy_games_play_to_the_end():
    game = Game.new(SCENARIO, 2)
    agents = {side: GreedyAgent(choice_rng(2, side), game) for side in game.ctx.rules.sides}
    for _ in iter_play(game, agents):
        pass
    assert game.is_over()


def test_play_narrates_the_turn_record_and_the_weather(capsys):
    code, out, _ = run_cli(capsys, "play", str(SCENARIO), "--seed", "1")
    assert code == 0
    assert "\nTurn 2: 12 June, Mud — The rains come\nTurn 2 — Weather (blue)\n" in out
    assert "Turn 4: 26 June, Clear" in out
    assert "attack 2 against defence 8 (strength attack x1/2 when weather is mud) at 1:2" in out


@pytest.mark.parametrize("agent", ["random", "greedy"])
def test_games_keep_the_invariants_after_every_step(agent):
    from invariants import play_checked

    from warbook.interpreter.agents import RandomAgent

    def agents_for(game):
        if agent == "random":
            return {s: RandomAgent(choice_rng(5, s)) for s in game.ctx.rules.sides}
        return {s: GreedyAgent(choice_rng(5, s), game) for s in game.ctx.rules.sides}

    for seed in (5, 6):
        game = play_checked(load_scenario(SCENARIO), seed, agents_for)
        assert game.state.turn == 4 and game.state.weather in ("clear", "snow")  # a storm may follow turn 4's clear


def test_show_lists_the_turn_record(capsys):
    code, out, _ = run_cli(capsys, "show", str(HERE / "turns.rules"))
    assert code == 0
    rows = [line.split() for line in out.splitlines() if line.strip().startswith("turn ")]
    assert [" ".join(r) for r in rows] == ["turn 1 5 June weather clear", "turn 2 12 June weather mud, The rains come",
                                           "turn 3 19 June", "turn 4 26 June weather clear"]
