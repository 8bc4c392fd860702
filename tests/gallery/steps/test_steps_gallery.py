"""Mechanics gallery: multi-step counters, played in a neutral game (steps.rules).

Every expected value is worked out by hand from steps.rules: a brigade prints attack 6,
defence 4 and shows attack 3, defence 2 on step 2 (its last); a column prints 6-6, then 4-4 on
step 2 and 2-2 on step 3; a militia (2-2) has one step.  Results are carried out against an
engagement as a rolled cell would be (``results.apply_result``, through the one effect
registry), and the last tests play whole games.
"""

from fractions import Fraction
from pathlib import Path

import pytest

from driving import do_call, drive, options, played, run_cli
from warbook.interpreter.agents import GreedyAgent, iter_play
from warbook.interpreter.combat import Engagement
from warbook.interpreter.context import Context
from warbook.interpreter.event_effects import run_event
from warbook.interpreter.conditions import Scope
from warbook.interpreter.game import Game
from warbook.interpreter.procedures import PROCEDURES, load_procedures
from warbook.interpreter.results import apply_result
from warbook.interpreter.rng import choice_rng
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.state import GameState, Unit, replace
from warbook.interpreter.steps import restore_step

HERE = Path(__file__).parent
SCENARIO = HERE / "steps.toml"


@pytest.fixture(scope="module")
def scenario():
    load_procedures()
    return load_scenario(SCENARIO)


def make(scenario, *units: Unit, rp: int = 0) -> Context:
    ctx = Context(scenario, seed=0)
    resources = tuple(sorted((side, "rp", Fraction(rp)) for side in ("blue", "red")))
    ctx.state = GameState(turn=1, phase="battle", units=tuple(sorted(units)), resources=resources)
    return ctx


def B(n: int, step: int = 1, at: str = "0102") -> Unit:
    return Unit(f"B{n}", "brigade", "blue", at, step=step)


def column(step: int = 1) -> Unit:
    return Unit("R1", "column", "red", "0202", step=step)


MILITIA = Unit("R2", "militia", "red", "0202")


def result(ctx, code: str, attackers, defenders, answers=(), side="blue"):
    """Carry out result ``code`` of the assault by ``attackers`` on ``defenders``; the decisions asked."""
    engagement = Engagement(ctx, ctx.rules.combats["assault"], attackers, defenders, side, "test attack")
    return drive(apply_result(ctx, code, engagement), answers)


def step_of(ctx, unit_id: str) -> tuple[str, int]:
    unit = ctx.state.unit(unit_id)
    return unit.location, unit.step


def texts(ctx) -> list[str]:
    return [e["text"] for e in ctx.events if e["type"] == "event"]


# --- factors by step ----------------------------------------------------------------------------------


def test_a_unit_shows_the_factors_of_its_step(scenario):
    ctx = make(scenario)
    factor = ctx.rules.factor
    assert [factor(B(1), f) for f in ("attack", "defence", "move")] == [6, 4, 3]
    assert [factor(B(1, step=2), f) for f in ("attack", "defence", "move")] == [3, 2, 3]  # move kept
    assert [factor(column(3), f) for f in ("attack", "defence")] == [2, 2]
    assert ctx.rules.unit_type("column").step_count == 3 and ctx.rules.unit_type("militia").step_count == 1


def test_combat_totals_read_each_units_step(scenario):
    from warbook.interpreter.combat import combat_strength

    ctx = make(scenario, B(1), B(2, step=2), column(2), MILITIA)
    attack, defence = combat_strength(ctx, ctx.rules.combats["assault"], [B(1), B(2, step=2)], [column(2), MILITIA],
                                      "0202")
    assert (attack, defence) == (6 + 3, 4 + 2)


# --- step loss ----------------------------------------------------------------------------------------


def test_a_step_loss_flips_the_counter_and_eliminates_it_at_its_last_step(scenario):
    ctx = make(scenario, B(1), column())
    for expected in [("0202", 2), ("0202", 3), (ctx.rules.eliminated_box, 3)]:
        assert result(ctx, "DS", [B(1)], [ctx.state.unit("R1")]) == []  # a lone counter: no choice
        assert step_of(ctx, "R1") == expected
    assert "R1 Column loses a step: step 2 of 3, attack 4, defence 4 (test attack)" in texts(ctx)
    assert "R1 Column is eliminated (test attack)" in texts(ctx)
    assert ctx.state.resource("blue", "vp") == 1  # the award for a unit eliminated


def test_the_owner_chooses_which_counter_loses_the_step(scenario):
    ctx = make(scenario, B(1), column(), MILITIA)
    (decision,) = result(ctx, "DS", [B(1)], [column(), MILITIA], ["lose R2"])
    assert (decision.side, decision.kind, options(decision)) == ("red", "losses", ["lose R1", "lose R2"])
    assert step_of(ctx, "R2") == (ctx.rules.eliminated_box, 1)  # a one-step unit is eliminated
    assert step_of(ctx, "R1") == ("0202", 1)


# --- strength-point losses ------------------------------------------------------------------------------


def test_exchange_the_attacker_loses_at_least_the_defence_the_defender_lost(scenario):
    # Red gives up the militia (defence 2); Blue must lose at least 2 attack: one brigade step (6 → 3).
    ctx = make(scenario, B(1), B(2), column(), MILITIA)
    red, blue = result(ctx, "EX", [B(1), B(2)], [column(), MILITIA], ["lose R2", "lose B2"])
    assert red.side == "red" and options(red) == ["lose R1", "lose R2"]
    assert blue.side == "blue" and blue.kind == "losses" and options(blue) == ["lose B1", "lose B2"]
    assert [step_of(ctx, i) for i in ("B1", "B2")] == [("0102", 1), ("0102", 2)]


def test_exchange_counts_a_steps_drop_not_the_whole_counter(scenario):
    # The column's step costs it 2 defence (6 → 4); one brigade step (3 attack) covers it.
    ctx = make(scenario, B(1), B(2), column(), MILITIA)
    result(ctx, "EX", [B(1), B(2)], [column(), MILITIA], ["lose R1", "lose B1"])
    assert [step_of(ctx, i) for i in ("R1", "R2", "B1", "B2")] == [("0202", 2), ("0202", 1), ("0102", 2),
                                                                   ("0102", 1)]


def test_an_eliminated_defender_costs_its_whole_defence_step_after_step(scenario):
    # The column is eliminated at full strength (defence 6).  Blue must lose 6 attack: it gives B2's
    # last step (3), then B1, the only counter left, loses a step (3): 6, and no more.
    ctx = make(scenario, B(1), B(2, step=2), column())
    (decision,) = result(ctx, "DX", [B(1), B(2, step=2)], [column()], ["lose B2"])
    assert decision.side == "blue" and options(decision) == ["lose B1", "lose B2"]
    assert [step_of(ctx, i) for i in ("B1", "B2")] == [("0102", 2), (ctx.rules.eliminated_box, 2)]


def test_a_fixed_strength_loss_is_taken_step_by_step_as_the_owner_chooses(scenario):
    # Red must lose 4 defence: the column's first step costs 2 (6 → 4), the militia's only step 2.
    ctx = make(scenario, B(1), column(), MILITIA)
    first, second = result(ctx, "DH", [B(1)], [column(), MILITIA], ["lose R1", "lose R2"])
    assert first.side == second.side == "red"
    assert options(first) == options(second) == ["lose R1", "lose R2"]
    assert [step_of(ctx, i) for i in ("R1", "R2")] == [("0202", 2), (ctx.rules.eliminated_box, 1)]


def test_a_side_with_too_little_to_lose_loses_all_it_has(scenario):
    ctx = make(scenario, B(1, step=2), column())
    assert result(ctx, "DX", [B(1, step=2)], [column()]) == []
    assert step_of(ctx, "B1") == (ctx.rules.eliminated_box, 2)
    assert any(t.startswith("Blue has lost 3 attack of at least the 6 defence") for t in texts(ctx))


# --- restoring steps ------------------------------------------------------------------------------------


def test_a_rally_restores_a_reduced_counter_its_side_chooses(scenario):
    ctx = make(scenario, B(1, step=2), B(2, step=2), column(2))
    (decision,) = drive(run_event(ctx, "rally", Scope("blue")), ["restore B2"])
    assert (decision.side, decision.kind, options(decision)) == ("blue", "restore", ["restore B1", "restore B2"])
    assert [step_of(ctx, i) for i in ("B1", "B2", "R1")] == [("0102", 2), ("0102", 1), ("0202", 2)]
    assert "B2 Brigade regains a step: step 1 of 2, attack 6, defence 4 (Rally)" in texts(ctx)


def test_a_rally_with_nothing_reduced_does_nothing(scenario):
    ctx = make(scenario, B(1), column(2))
    assert drive(run_event(ctx, "rally", Scope("blue"))) == []
    assert step_of(ctx, "B1") == ("0102", 1) and "Blue has no reduced counter to restore (Rally)" in texts(ctx)


def test_a_counter_restores_a_step_at_its_moment(scenario):
    # The aid post (blue) restores one brigade step when the rally phase ends; B1 is the only one reduced.
    from warbook.interpreter.event_effects import phase_ended

    ctx = make(scenario, B(1, step=2), B(2), column(2), Unit("B3", "aid_post", "blue", "0101"))
    assert drive(phase_ended(ctx, "rally")) == []
    assert [step_of(ctx, i) for i in ("B1", "R1")] == [("0102", 1), ("0202", 2)]


def _replace_line(ctx):
    return do_call(ctx.rules, "replace steps")


def test_replacement_points_restore_in_place_and_bring_back_the_eliminated_reduced(scenario):
    dead = replace(B(2), location=scenario.rules.eliminated_box)
    ctx = make(scenario, B(1, step=2), dead, column(), rp=2)
    ctx.acting = "blue"
    first, second = drive(PROCEDURES["replace steps"](ctx, _replace_line(ctx)), ["restore B1", "rebuild B2"])
    assert (first.side, first.kind, options(first)) == ("blue", "replace", ["done", "rebuild B2", "restore B1"])
    assert options(second) == ["done", "rebuild B2"]  # B1 is whole again
    assert step_of(ctx, "B1") == ("0102", 1)
    assert step_of(ctx, "B2") == ("pool", 2)  # on its reduced side
    assert ctx.state.resource("blue", "rp") == 0  # one point a step; nothing more to pay with
    assert "B2 Brigade comes back: step 2 of 2, attack 3, defence 2 to the Replacement pool (Replacement)" \
        in texts(ctx)


# --- hidden information ----------------------------------------------------------------------------------


def test_a_face_down_counters_step_is_not_seen_by_the_enemy(scenario):
    game = Game.new(SCENARIO, 1)
    hidden = replace(column(2), hidden=True)
    game.ctx.state = replace(game.ctx.state, units=tuple(sorted([B(1, step=2), hidden])))
    blue = {u["id"]: u for u in game.observe("blue")["units"]}
    red = {u["id"]: u for u in game.observe("red")["units"]}
    assert blue["R1"]["type"] is None and "step" not in blue["R1"]
    assert red["R1"]["step"] == 2 and blue["B1"]["step"] == 2
    restore_step(game.ctx, hidden, "test")
    (event,) = [e for e in game.ctx.events if e.get("kind") == "step"]
    assert event["text"] == "R1 (hidden) regains a step (test)" and "step" not in event


# --- whole games -----------------------------------------------------------------------------------------


def test_random_games_play_to_the_end_and_replay_alike():
    for seed in range(4):
        game = played(SCENARIO, seed)
        assert game.is_over()
        assert played(SCENARIO, seed).log == game.log
    assert any(e.get("kind") == "step" for seed in range(4) for e in played(SCENARIO, seed).log)


def test_greedy_games_play_to_the_end():
    game = Game.new(SCENARIO, 2)
    agents = {side: GreedyAgent(choice_rng(2, side), game) for side in game.ctx.rules.sides}
    for _ in iter_play(game, agents):
        pass
    assert game.is_over()
    for unit in game.state.units:
        assert 1 <= unit.step <= game.ctx.rules.unit_type(unit.type).step_count


def test_play_narrates_steps_lost_and_regained(capsys):
    code, out, _ = run_cli(capsys, "play", str(SCENARIO), "--seed", "1")
    assert code == 0
    assert "B1 Brigade loses a step: step 2 of 2, attack 3, defence 2 (attack on 0202)" in out
    assert "B1 Brigade regains a step: step 1 of 2, attack 6, defence 4 (Rally)" in out


def test_a_person_playing_sees_which_of_their_counters_are_reduced():
    import io

    from warbook.interpreter.actions import Action, Decision
    from warbook.interpreter.human import HumanAgent

    game = Game.new(SCENARIO, 1)
    game.ctx.state = replace(game.ctx.state, units=tuple(sorted([B(1, step=2), B(2), replace(column(2), hidden=True)])))
    view = HumanAgent(io.StringIO(), io.StringIO()).view(game.observe("blue"), Decision("blue", "x", "pick",
                                                                                           (Action("done"),)))
    assert "0102: B1 brigade (step 2), B2 brigade" in view and "0202: R1 face down" in view
