"""Mechanics gallery: arrivals that enter in a move phase (``do move bringing in arrivals``).

By hand from entry.rules, map.toml and entry.toml: rifles have 3 movement points, militia 2;
clear and town cost 1, woods 2; a zone of control reaches 1 cell and stops movement; one counter
a cell, enemy cells forbidden.  Blue sets up B1 (0201) and Red R1 (0602), so the arrivals are
numbered after them: B2 (rifles, turn 2, at the clear 0101 or the wood 0102) and R2 (militia,
turn 2, on the east edge: 0601, 0602, 0603).  Hexes: even columns sit half a hex lower, so 0101
touches 0102 and 0201; 0102 touches 0101, 0103, 0201 and 0202; 0201 touches 0101, 0102, 0202,
0301 and 0302.
"""

import shutil
from pathlib import Path

from driving import do_call, drive, options
from gallery import at_position, greedy_game, random_games_replay_alike, scenario_fixture
from warbook.dsl.diagnostics import RulesError
from warbook.interpreter import movement as mv
from warbook.interpreter.game import Game
from warbook.interpreter.procedures import PROCEDURES
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.state import Unit, replace

HERE = Path(__file__).parent
SCENARIO = HERE / "entry.toml"


scenario = scenario_fixture(SCENARIO)

B2 = Unit("B2", "rifles", "blue", "turn_track:2")
R2 = Unit("R2", "militia", "red", "turn_track:2")


def make(scenario, *units: Unit, turn: int = 2, acting: str = "blue"):
    ctx = at_position(scenario, "movement", *units, turn=turn)
    ctx.acting = acting
    return ctx


def move_phase(ctx, answers=()):
    return drive(PROCEDURES["move"](ctx, do_call(ctx.rules, "move")), answers)


def texts(ctx) -> list[str]:
    return [e["text"] for e in ctx.events if e["type"] == "event"]


def test_the_call_reads_bringing_in_arrivals(scenario):
    assert do_call(scenario.rules, "move").bringing


def test_the_arrival_must_enter_then_moves_on_with_what_the_entry_cell_left(scenario):
    # B1 (at 0301, next to no entry cell) moves first: it stays.  B2 must then enter: at 0101 or at
    # 0102, no stay offered.  Entering at the clear 0101 costs 1 of its 3 points: with 2 left it
    # reaches 0201 (1), the wood 0102 (2), 0202 and 0302 (2, through 0201); not 0301 (B1 is there).
    ctx = make(scenario, Unit("B1", "rifles", "blue", "0301"), B2, Unit("R1", "militia", "red", "0602"))
    first, second, third = move_phase(ctx, ["stay B1", "arrive B2 0101", "move B2 0202"])
    assert first.kind == "move" and options(first)[-1] == "stay B1"
    assert (second.side, second.kind, options(second)) == ("blue", "arrive", ["arrive B2 0101", "arrive B2 0102"])
    assert options(third) == ["move B2 0102", "move B2 0201", "move B2 0202", "move B2 0302", "stay B2"]
    assert ctx.state.unit("B2").location == "0202"
    assert "B2 Rifles enters at 0101 (scenario arrival, 2 movement points left)" in texts(ctx)


def test_entering_at_a_wood_costs_two_of_the_three_points(scenario):
    ctx = make(scenario, Unit("B1", "rifles", "blue", "0301"), B2, Unit("R1", "militia", "red", "0602"))
    decisions = move_phase(ctx, ["stay B1", "arrive B2 0102", "stay B2"])
    # With 1 point left from the wood 0102: its clear neighbours 0101, 0103, 0201, 0202.
    assert options(decisions[-1]) == ["move B2 0101", "move B2 0103", "move B2 0201", "move B2 0202", "stay B2"]
    assert ctx.state.unit("B2").location == "0102"
    assert mv.entering(ctx, B2, "0102") == 1 and mv.entering(ctx, B2, "0101") == 2


def test_an_entry_cell_in_an_enemy_zone_stops_the_arrival_there(scenario):
    # The militia at 0202 puts 0102 in its zone (0101 is not next to it): entering at 0102 leaves no
    # point, so B2 is not asked to move on.
    ctx = make(scenario, Unit("B1", "rifles", "blue", "0303"), B2, Unit("R1", "militia", "red", "0202"))
    decisions = move_phase(ctx, ["stay B1", "arrive B2 0102"])
    assert [d.kind for d in decisions] == ["move", "arrive"]
    assert ctx.state.unit("B2").location == "0102"
    assert mv.entering(ctx, B2, "0102") == 0 and mv.entering(ctx, B2, "0101") == 2


def test_an_arrival_with_every_entry_cell_blocked_is_delayed_to_the_next_turn(scenario):
    # Red militia stand on 0101 and 0102: B2 cannot enter (narrated) and waits; on turn 3, with 0102
    # free, it enters there (the only free cell: no choice asked), due on turn 2.
    blockers = [Unit("R1", "militia", "red", "0101"), Unit("R3", "militia", "red", "0102")]
    ctx = make(scenario, B2, *blockers)
    assert move_phase(ctx) == []
    assert ctx.state.unit("B2").location == "turn_track:2"
    assert "B2 Rifles is delayed: no entry cell is free (0101, 0102)" in texts(ctx)
    assert mv.entering(ctx, B2, "0101") == mv.BLOCKED
    ctx.update_unit(replace(blockers[1], location="0603"))
    ctx.state = replace(ctx.state, turn=3)
    # Only the wood 0102 is free, and the militia at 0101 puts it in its zone: B2 enters there
    # with no point left, so it is asked nothing.
    assert move_phase(ctx) == []
    assert ctx.state.unit("B2").location == "0102"
    assert "B2 Rifles enters at 0102 (scenario arrival, due on turn 2, 0 movement points left)" in texts(ctx)


def test_an_arrival_waits_for_its_turn_and_for_its_sides_phase(scenario):
    ctx = make(scenario, B2, R2, turn=1)
    assert move_phase(ctx) == [] and ctx.state.unit("B2").location == "turn_track:2"
    ctx = make(scenario, B2, R2, acting="red")
    (decision,) = move_phase(ctx, ["arrive R2 0601", "stay R2"])[:1]
    assert options(decision) == ["arrive R2 0601", "arrive R2 0602", "arrive R2 0603"]
    assert ctx.state.unit("B2").location == "turn_track:2"


def test_a_played_game_brings_both_arrivals_in_on_turn_two():
    game = Game.new(SCENARIO, 1)
    entered = [e for e in game.log if e.get("kind") == "arrival"]
    assert entered == []
    games = random_games_replay_alike(SCENARIO, seeds=range(3))
    for played in games:
        arrivals = [(e["turn"], e["unit"]) for e in played.log if e.get("kind") == "arrival" and "cell" in e]
        assert sorted(arrivals) == [(2, "B2"), (2, "R2")]
        assert all(u.on_map for u in played.state.units)


def test_greedy_agents_play_it_to_the_end():
    game = greedy_game(SCENARIO, 2)
    assert game.is_over()
    assert {e["unit"] for e in game.log if e.get("kind") == "arrival" and "cell" in e} == {"B2", "R2"}


# --- what the schedule needs from the rulebook (E713) -----------------------------------------------


def _problems(tmp_path, rules_text: str) -> list[tuple[str, str]]:
    shutil.copy(HERE / "map.toml", tmp_path / "map.toml")
    shutil.copy(SCENARIO, tmp_path / "entry.toml")
    (tmp_path / "entry.rules").write_text(rules_text, encoding="utf-8")
    try:
        load_scenario(tmp_path / "entry.toml")
    except RulesError as error:
        return [(d.code, d.message) for d in error.diagnostics]
    return []


RULES = (HERE / "entry.rules").read_text(encoding="utf-8")


def test_a_move_phase_bringing_in_arrivals_carries_the_schedule_out(tmp_path):
    assert _problems(tmp_path, RULES) == []
    assert _problems(tmp_path, RULES.replace(" bringing in arrivals", "")) == [
        ("E713", "the scenario schedules arrivals of blue, but no phase of the rulebook does arrivals for blue"),
        ("E713", "the scenario schedules arrivals of red, but no phase of the rulebook does arrivals for red")]


def test_a_move_phase_that_does_not_move_the_arriving_type_does_not_bring_it_in(tmp_path):
    # `only rifles`: the militia never moves in the phase, so nothing would bring it in.
    rules = RULES.replace("do move bringing in arrivals", "do move only rifles bringing in arrivals")
    assert _problems(tmp_path, rules) == [
        ("E713", "the scenario schedules arrivals of red, but no phase of the rulebook does arrivals for red")]


def test_an_entry_cell_costing_more_than_the_whole_allowance_is_blocked(tmp_path):
    # Rifles with 1 point cannot pay the wood 0102's 2: only 0101 takes B2, so no choice is asked,
    # and it enters there with nothing left.
    shutil.copy(HERE / "map.toml", tmp_path / "map.toml")
    shutil.copy(SCENARIO, tmp_path / "entry.toml")
    (tmp_path / "entry.rules").write_text(RULES.replace("    move 3\n", "    move 1\n"), encoding="utf-8")
    slow = load_scenario(tmp_path / "entry.toml")
    ctx = make(slow, B2, Unit("R1", "militia", "red", "0602"))
    assert mv.entering(ctx, B2, "0102") == mv.BLOCKED and mv.entering(ctx, B2, "0101") == 0
    assert move_phase(ctx) == []
    assert ctx.state.unit("B2").location == "0101"
    assert "B2 Rifles enters at 0101 (scenario arrival, 0 movement points left)" in texts(ctx)


def test_a_phase_that_does_not_move_the_type_leaves_its_arrival_waiting_for_one_that_does(tmp_path):
    # A first phase moves only militia: B2 (rifles) is neither brought in nor reported delayed
    # there; the second phase, which moves every counter, brings it in.
    phases = RULES.replace('''    phase movement "Movement" {
        for each side
        do move bringing in arrivals
    }''', '''    phase first "Militia movement" {
        for each side
        do move only militia bringing in arrivals
    }
    phase movement "Movement" {
        for each side
        do move bringing in arrivals
    }''')
    assert phases != RULES
    shutil.copy(HERE / "map.toml", tmp_path / "map.toml")
    shutil.copy(SCENARIO, tmp_path / "entry.toml")
    (tmp_path / "entry.rules").write_text(phases, encoding="utf-8")
    two = load_scenario(tmp_path / "entry.toml")
    ctx = make(two, B2, Unit("R1", "militia", "red", "0602"))
    assert drive(PROCEDURES["move"](ctx, do_call(two.rules, "move", step="first"))) == []
    assert ctx.state.unit("B2").location == "turn_track:2" and texts(ctx) == []
    (decision, _) = drive(PROCEDURES["move"](ctx, do_call(two.rules, "move", step="movement")),
                          ["arrive B2 0101", "stay B2"])
    assert options(decision) == ["arrive B2 0101", "arrive B2 0102"]
    assert ctx.state.unit("B2").location == "0101"
