"""Mechanics gallery: control of cells, played in a neutral game (control.rules).

Every expected value is worked out by hand from control.rules and map.toml: the towns 0202
(Westby), 0402 (Midway) and 0702 (Eastby) are the only controlled cells (``cells objective``);
the set-up gives Westby to Blue and Eastby to Red (``initially by set-up``) and the scenario's
``[scenario.control]`` gives Midway to Red.  Hex columns: even columns sit half a hex lower, so
0202's neighbours are 0201, 0301, 0302, 0203, 0102, 0101 (``interpreter.grid``).
"""

from pathlib import Path

import pytest
from attrs import evolve

from driving import played, run_cli
from invariants import play_checked
from warbook.interpreter.agents import GreedyAgent, RandomAgent
from warbook.interpreter.context import Context
from warbook.interpreter.control import passed, start
from warbook.interpreter.game import Game
from warbook.interpreter.rng import choice_rng
from warbook.interpreter.rules import Rules
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.state import GameState, Unit, replace
from warbook.interpreter.procedures import load_procedures

HERE = Path(__file__).parent
SCENARIO = HERE / "control.toml"


@pytest.fixture(scope="module")
def scenario():
    load_procedures()
    return load_scenario(SCENARIO)


def make(scenario, *units: Unit, control=(), rules=None) -> Context:
    ctx = Context(scenario, seed=0)
    if rules is not None:
        ctx.rules = rules
    ctx.state = GameState(turn=1, phase="movement", units=tuple(sorted(units)), control=tuple(control))
    return ctx


def B(n: int, at: str) -> Unit:
    return Unit(f"B{n}", "blue_infantry", "blue", at)


def R(n: int, at: str) -> Unit:
    return Unit(f"R{n}", "red_infantry", "red", at)


def move(ctx, unit_id: str, cell: str) -> None:
    ctx.update_unit(replace(ctx.state.unit(unit_id), location=cell))


def texts(ctx) -> list[str]:
    return [e["text"] for e in ctx.events if e.get("kind") == "control"]


# --- initial control -----------------------------------------------------------------------------------


def test_set_up_and_the_scenario_table_give_the_first_controllers(scenario):
    ctx = make(scenario, B(1, "0202"), B(2, "0202"), R(1, "0702"), R(2, "0301"))
    start(ctx)
    # 0301 is clear (not an objective): not controlled even with a unit on it.
    assert ctx.state.control == (("0202", "blue"), ("0402", "red"), ("0702", "red"))
    assert texts(ctx) == ["0202 now Blue", "0702 now Red", "0402 now Red (the scenario)"]


def test_a_played_game_starts_with_the_same_control(scenario):
    game = Game.new(SCENARIO, 1)
    while game.state.turn == 0:
        game.apply(RandomAgent(choice_rng(1, "x")).choose(None, game.decision))
    assert dict(game.state.control) == {"0202": "blue", "0402": "red", "0702": "red"}
    assert game.observe("blue")["control"] == game.observe("red")["control"] == {
        "0202": "blue", "0402": "red", "0702": "red"}


# --- last occupant ---------------------------------------------------------------------------------------


def test_a_cell_stays_its_sides_after_the_unit_leaves_until_an_enemy_enters(scenario):
    ctx = make(scenario, B(1, "0302"), R(1, "0602"), control=(("0402", "red"),))
    move(ctx, "B1", "0402")
    assert ctx.state.controller("0402") == "blue"
    move(ctx, "B1", "0302")  # left: still Blue's
    assert ctx.state.controller("0402") == "blue"
    move(ctx, "R1", "0402")
    assert ctx.state.controller("0402") == "red"
    assert texts(ctx) == ["0402 now Blue", "0402 now Red"]


def test_a_cell_holding_both_sides_keeps_its_controller_until_one_is_gone(scenario):
    ctx = make(scenario, B(1, "0402"), R(1, "0502"), control=(("0402", "blue"),))
    move(ctx, "R1", "0402")  # both sides there: Blue keeps it
    assert ctx.state.controller("0402") == "blue"
    move(ctx, "B1", "eliminated")  # Red alone now
    assert ctx.state.controller("0402") == "red"


def test_units_passing_through_take_the_cells_on_the_way(scenario):
    ctx = make(scenario, B(1, "0302"))
    passed(ctx, ctx.state.unit("B1"), ("0402", "0502"))  # 0502 is woods: not controlled
    assert ctx.state.control == (("0402", "blue"),)


def test_a_move_in_play_passes_control_on_its_path(scenario):
    game = Game.new(SCENARIO, 1)
    while game.state.turn == 0:
        game.apply(RandomAgent(choice_rng(1, "x")).choose(None, game.decision))
    # Blue moves first: a unit at Westby (0202) reaches Midway (0402) by 0302, two clear or town
    # hexes of its 3 movement points, and takes it from Red.
    assert game.decision.kind == "move"
    target = next(o for o in game.decision.options if o.args[1:] == ("0402",))
    game.apply(target)
    assert game.state.controller("0402") == "blue"
    assert any(e.get("text") == "0402 now Blue" for e in game.log)


# --- presence -------------------------------------------------------------------------------------------


def test_by_presence_a_cell_is_nobodys_once_its_units_leave(scenario):
    rules = Rules(scenario.rulebook)
    rules.control = evolve(rules.control, presence=True)
    ctx = make(scenario, B(1, "0302"), rules=rules)
    move(ctx, "B1", "0402")
    assert ctx.state.control == (("0402", "blue"),)
    move(ctx, "B1", "0302")
    assert ctx.state.control == ()
    assert texts(ctx) == ["0402 now Blue", "0402 now no side's"]


# --- scenario table errors -------------------------------------------------------------------------------


def test_a_scenario_table_naming_an_uncontrolled_cell_is_refused(tmp_path):
    from warbook.dsl.diagnostics import RulesError

    for name in ("control.rules", "map.toml"):
        (tmp_path / name).write_text((HERE / name).read_text())
    text = SCENARIO.read_text().replace('red = ["Midway"]', 'red = ["Midway", "0301"]\nblue = ["Midway"]')
    (tmp_path / "s.toml").write_text(text)
    with pytest.raises(RulesError) as error:
        load_scenario(tmp_path / "s.toml")
    messages = [d.message for d in error.value.diagnostics]
    assert "cell 0301 is not one the rulebook's control declaration controls" in messages
    assert "cell 0402 is given to more than one side" in messages


# --- whole games -----------------------------------------------------------------------------------------


def test_random_and_greedy_games_keep_the_invariants_and_replay_alike():
    scenario = load_scenario(SCENARIO)
    for seed in range(3):
        game = play_checked(scenario, seed, lambda g: {s: RandomAgent(choice_rng(seed, s)) for s in g.ctx.rules.sides})
        assert played(SCENARIO, seed).log == played(SCENARIO, seed).log
    game = play_checked(scenario, 2, lambda g: {s: GreedyAgent(choice_rng(2, s), g) for s in g.ctx.rules.sides})
    assert game.is_over()
    # Greedy goes for the cells its awards and victory lines name: some change hands in play.
    assert any(e.get("kind") == "control" and e["turn"] > 0 for e in game.log)


def test_a_saved_game_reloads_with_its_control(tmp_path):
    game = played(SCENARIO, 1)
    game.save(tmp_path / "g.jsonl")
    again = Game.load(tmp_path / "g.jsonl")
    assert again.state.control == game.state.control


def test_play_narrates_control_changes(capsys):
    code, out, _ = run_cli(capsys, "play", str(SCENARIO), "--seed", "3")
    assert code == 0
    assert "0202 now Blue" in out and "0402 now Red (the scenario)" in out


# --- tracing ---------------------------------------------------------------------------------------------

COLUMNS = {c: {f"{c:02d}{r:02d}" for r in (1, 2, 3)} for c in range(1, 8)}


def supply_of(ctx, side: str) -> set[str]:
    from warbook.interpreter.tracing import traced_cells

    return set(traced_cells(ctx, ctx.rules.traces["supply"], side))


def test_supply_reaches_three_hexes_from_the_edge_or_a_controlled_cell(scenario):
    ctx = make(scenario, control=(("0202", "blue"), ("0402", "red"), ("0702", "red")))
    # From Westby (0202): 0302, 0401, 0501 and 0302, 0402, 0502 and 0303, 0403, 0503 are three
    # hexes; column 6 is four from it and five from the west edge.
    assert supply_of(ctx, "blue") == COLUMNS[1] | COLUMNS[2] | COLUMNS[3] | COLUMNS[4] | COLUMNS[5]
    ctx.state = ctx.state.with_controller("0402", "blue")
    # Midway is a source now; no path goes into the woods (0502): 0702 traces by 0602, 0503; 0703
    # by 0603, 0503; 0701 is four hexes away by 0601, 0501, 0401 or 0702, 0602, 0503.
    assert supply_of(ctx, "blue") == set().union(*COLUMNS.values()) - {"0701"}


def test_supply_is_not_traced_through_enemy_units_or_zones_unless_a_friendly_unit_stands_there(scenario):
    # R1 at 0302 exerts a zone on 0201, 0202, 0301, 0303, 0401, 0402; B1 stands in Westby (0202).
    ctx = make(scenario, B(1, "0202"), R(1, "0302"), control=(("0202", "blue"),))
    lifted = COLUMNS[1] | COLUMNS[2] | {"0302", "0303"}  # 0302, 0303 step into 0202 (B1 lifts its zone)
    assert supply_of(ctx, "blue") == lifted  # 0301's neighbours 0201, 0302, 0401 are all blocked
    rules = Rules(scenario.rulebook)
    rules.traces["supply"] = evolve(rules.traces["supply"], zones_lifted=False)
    ctx.rules = rules
    # Westby is in R1's zone now: a unit on it traces at length 0, no path goes into it; 0303
    # traces by 0203 and 0103.
    assert supply_of(ctx, "blue") == COLUMNS[1] | COLUMNS[2] | {"0303"}


def test_a_trace_in_movement_points_pays_what_the_unit_type_pays_to_enter(scenario):
    from warbook.interpreter.tracing import traced_cells

    ctx = make(scenario)
    forage = ctx.rules.traces["forage"]
    assert traced_cells(ctx, forage, "blue") == {"0502"}  # entering the woods costs 2 of the 1
    two = evolve(forage, length=2)
    assert traced_cells(ctx, two, "blue") == {"0502", "0401", "0402", "0501", "0503", "0601", "0602"}


def test_in_and_out_of_a_trace_are_conditions(scenario):
    from warbook.dsl.conditions import parse_condition
    from warbook.interpreter.conditions import Scope, holds

    ctx = make(scenario, B(1, "0202"), R(1, "0302"), control=(("0202", "blue"),))
    inside, outside = parse_condition(["in", "supply"], ctx.rules.names), \
        parse_condition(["out", "of", "supply"], ctx.rules.names)
    assert holds(ctx, inside, Scope("blue", "0303")) and not holds(ctx, outside, Scope("blue", "0303"))
    assert holds(ctx, outside, Scope("blue", "0401"))
    assert holds(ctx, inside, Scope("blue", unit=ctx.state.unit("B1")))  # the counter's own cell


def test_check_supply_by_a_trace_sends_units_it_does_not_reach(scenario):
    from driving import do_call, drive
    from warbook.interpreter.procedures import PROCEDURES

    ctx = make(scenario, B(1, "0202"), B(2, "0401"), R(1, "0302"), control=(("0202", "blue"),))
    ctx.acting = "blue"
    call = do_call(ctx.rules, "check supply")
    asked = drive(PROCEDURES["check supply"](ctx, call))  # no rp: B2 cannot be paid for
    assert asked == []
    assert ctx.state.unit("B1").location == "0202" and ctx.state.unit("B2").location == "pool"


def test_a_placement_in_supply_offers_only_supplied_objectives(scenario):
    from warbook.interpreter.procedures.placement import placement_options

    ctx = make(scenario, R(1, "0302"), control=(("0202", "blue"),))
    unit = Unit("B3", "blue_infantry", "blue", "pool")
    # Objectives 0202, 0402, 0702: 0402 is in R1's zone and five hexes from the west edge.
    assert placement_options(ctx, unit, "pool") == ["0202"]
    ctx.state = ctx.state.with_units([replace(ctx.state.unit("R1"), location="0701")])
    assert placement_options(ctx, unit, "pool") == ["0202", "0402"]


# --- victory ---------------------------------------------------------------------------------------------


def victory_game(seed: int = 1) -> Game:
    """A game just past set-up (Westby Blue's, Midway and Eastby Red's)."""
    game = Game.new(SCENARIO, seed)
    while game.state.turn == 0:
        game.apply(RandomAgent(choice_rng(seed, "x")).choose(None, game.decision))
    return game


def test_control_of_every_objective_wins_at_once_when_the_phase_ends(scenario):
    from warbook.interpreter.victory_forms import check_control, control_winner

    ctx = make(scenario, control=(("0202", "blue"), ("0402", "red"), ("0702", "red")))
    line = ctx.rules.victory.by_control[0]
    assert control_winner(ctx, line) is None and not check_control(ctx, "once")
    ctx.state = ctx.state.with_controller("0202", "red")
    assert control_winner(ctx, line) == "red"
    assert not check_control(ctx, "end")  # the line is read at once, not at the end
    assert check_control(ctx, "once") and ctx.state.over
    assert ctx.decided == {"winner": "red", "level": "Decisive victory", "margin": 0}
    assert ctx.events[-1]["text"].startswith("Red wins: it controls all of objective")


def test_a_count_of_cells_and_a_given_turn(scenario):
    from warbook.interpreter.victory_forms import check_control, control_winner

    ctx = make(scenario, control=(("0202", "blue"), ("0402", "blue"), ("0702", "red")))
    two = evolve(ctx.rules.victory.by_control[0], count=2, when="turn", turn=3)
    assert control_winner(ctx, two) == "blue"
    ctx.rules = Rules(scenario.rulebook)
    ctx.rules.victory = evolve(ctx.rules.victory, by_control=(two,))
    assert not check_control(ctx, "turn")  # turn 1 ended: the line is read after turn 3
    ctx.state = replace(ctx.state, turn=3)
    assert check_control(ctx, "turn") and ctx.decided["winner"] == "blue"
    one_each = evolve(two, count=1)  # both sides hold one or more: Blue holds more
    assert control_winner(ctx, one_each) == "blue"
    ctx.state = ctx.state.with_controller("0402", "red")
    assert control_winner(ctx, evolve(two, count=1)) == "red"
    ctx.state = ctx.state.with_controller("0402", None)
    assert control_winner(ctx, evolve(two, count=1)) is None  # one each: equal counts decide nothing


def test_the_first_side_to_four_kills_wins_at_once():
    from warbook.interpreter.victory import GameEnds, award_for_loss

    game = victory_game()
    ctx = game.ctx
    award_for_loss(ctx, ctx.state.unit("R1"), "eliminated")
    assert ctx.state.resource("blue", "kills") == 2 and not ctx.state.over
    with pytest.raises(GameEnds):
        award_for_loss(ctx, ctx.state.unit("R2"), "eliminated")
    assert ctx.decided == {"winner": "blue", "level": "Decisive victory", "margin": 0}


def test_towns_are_scored_only_when_the_game_ends(scenario):
    from warbook.interpreter.victory import final_result

    ctx = make(scenario, control=(("0202", "blue"), ("0402", "blue"), ("0702", "red")))
    result = final_result(ctx)
    # Blue: Westby and Midway, 2 vp; Red: Eastby, 1 vp; margin 1 is a win.
    assert result == {"winner": "blue", "level": "Victory", "margin": 1, "totals": {"blue": "2", "red": "1"}}


def test_whole_games_end_by_each_victory_form():
    levels = set()
    for seed in range(8):
        game = played(SCENARIO, seed)
        texts_ = [e["text"] for e in game.log if e.get("kind") == "victory"]
        levels.add(game.result()["level"])
        if game.state.turn < 4:  # ended early: by control or by kills
            assert texts_ and texts_[-1].split(": ")[1].startswith(("it controls all", "first to 4 kills"))
    assert {"Victory", "Decisive victory"} <= levels


def test_a_step_is_replaced_in_place_only_in_supply(scenario):
    from driving import do_call, drive, options
    from warbook.interpreter.procedures import PROCEDURES

    reduced = [replace(B(1, "0202"), step=2), replace(B(2, "0401"), step=2)]
    ctx = make(scenario, *reduced, R(1, "0302"), control=(("0202", "blue"),))
    ctx.state = ctx.state.with_resource("blue", "rp", 2)
    ctx.acting = "blue"
    call = do_call(ctx.rules, "replace steps")
    asked = drive(PROCEDURES["replace steps"](ctx, call), ["restore B1"])
    # B2 at 0401 is out of supply (R1's zone cuts it off): only B1 is offered, then nothing is left.
    assert options(asked[0]) == ["done", "restore B1"] and len(asked) == 1
    assert ctx.state.unit("B1").step == 1 and ctx.state.unit("B2").step == 2


# --- lasting side states -----------------------------------------------------------------------------------


def test_a_side_whose_enemy_has_two_kills_is_demoralised_for_good_and_makes_no_attacks(scenario):
    from driving import do_call, drive, options
    from warbook.dsl.conditions import parse_condition
    from warbook.interpreter.conditions import Scope, holds
    from warbook.interpreter.procedures import PROCEDURES
    from warbook.interpreter.side_states import enter_states

    ctx = make(scenario, B(1, "0302"), R(1, "0402"))
    ctx.state = ctx.state.with_resource("red", "kills", 2)
    enter_states(ctx)
    assert ctx.state.side_states == (("blue", "demoralised"),)  # Red's enemy has no kills: Red is not
    assert ctx.events[-1]["text"].startswith("Blue is now Demoralised: opponent kills at least 2")
    ctx.state = ctx.state.with_resource("red", "kills", 0)
    enter_states(ctx)
    assert ctx.state.side_states == (("blue", "demoralised"),)  # it lasts
    names = ctx.rules.names
    assert holds(ctx, parse_condition(["own", "demoralised"], names), Scope("blue"))
    assert holds(ctx, parse_condition(["enemy", "demoralised"], names), Scope("red"))
    assert holds(ctx, parse_condition(["own", "not", "demoralised"], names), Scope("red"))
    # In the mutual battle only Red may attack: B1 and R1 are adjacent (0302, 0402).
    asked = drive(PROCEDURES["fight"](ctx, do_call(ctx.rules, "fight")), ["done"])
    assert [d.side for d in asked] == ["red"] and "attack 0302 with R1" in options(asked[0])


def test_a_demoralised_side_is_public():
    game = victory_game()
    game.ctx.state = replace(game.ctx.state, side_states=(("red", "demoralised"),))
    assert game.observe("blue")["states"] == game.observe("red")["states"] == [["red", "demoralised"]]


def test_a_person_playing_sees_control_and_states():
    import io

    from warbook.interpreter.human import HumanAgent

    game = victory_game()
    game.ctx.state = replace(game.ctx.state, side_states=(("red", "demoralised"),))
    view = HumanAgent(io.StringIO(), io.StringIO()).view(game.observe("blue"), game.decision)
    assert "control: 0202 blue, 0402 red, 0702 red" in view and "states: red demoralised" in view


def test_a_trace_to_friendly_units_of_a_type(scenario):
    from warbook.dsl.compiled.control import TraceSource
    from warbook.interpreter.tracing import traced_cells

    ctx = make(scenario, B(1, "0602"), R(1, "0202"))
    to_infantry = evolve(ctx.rules.traces["supply"], length=1, sources=(TraceSource("units", ("blue_infantry",)),))
    # 0602 and its six neighbours; the woods (0502) is a start, stepping into 0602.
    assert traced_cells(ctx, to_infantry, "blue") == {"0602", "0601", "0603", "0502", "0702", "0503", "0703"}
    assert traced_cells(ctx, to_infantry, "red") == set()  # Red has no blue infantry


def test_a_victory_by_control_alone_that_no_side_meets_is_drawn(scenario):
    from warbook.interpreter.victory import final_result

    ctx = make(scenario, control=(("0202", "blue"), ("0402", "red")))
    rules = Rules(scenario.rulebook)
    line = evolve(rules.victory.by_control[0], when="end")
    rules.victory = evolve(rules.victory, resource=None, by_control=(line,), scored_at_end=())
    ctx.rules = rules
    assert final_result(ctx) == {"winner": None, "level": "Draw", "margin": 0}
    ctx.state = ctx.state.with_controller("0202", "red").with_controller("0702", "red")
    ctx.decided = None
    assert final_result(ctx)["winner"] == "red"  # at the end, Red controls all three towns
