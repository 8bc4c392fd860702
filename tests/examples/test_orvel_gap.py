"""The demonstration game (examples/orvel_gap): an original hex-and-counter game in the rules
language alone, with a turn record and weather, two-step divisions, a rail phase, a river,
advance after combat, traced supply and victory by control (issue 13's proof).

Hand-computed values come from orvel_gap.rules and map.toml: even columns sit half a hex lower,
so 1003 touches 0903, 0904, 1002, 1004, 1103 and 1104.
"""

from pathlib import Path

import pytest

from driving import run_cli
from warbook.dsl.lint import lint_path
from warbook.interpreter import movement as mv
from warbook.interpreter.agents import GreedyAgent, RandomAgent, iter_play
from warbook.interpreter.game import Game
from warbook.interpreter.rng import choice_rng

HERE = Path(__file__).resolve().parents[2] / "examples" / "orvel_gap"
RULES, SCENARIO = HERE / "orvel_gap.rules", HERE / "orvel_gap.toml"


def test_the_rulebook_lints_clean_with_no_gap_and_no_uncited_rule():
    # Not even an information: no gap or errata (an original game has none), no uncited rule or section.
    assert [str(d) for d in lint_path(RULES)] == []
    assert "language cannot" not in RULES.read_text(encoding="utf-8")


def test_a_division_on_the_railway_moves_along_it_but_never_next_to_the_enemy():
    game = Game.new(SCENARIO, seed=0)
    division = next(u for u in game.state.units if u.location == "0304")
    reach = mv.reach(game.ctx, division, using="rail")
    # Along row 4, a hex a point, the river bridge included; 0904 touches the League's division
    # at 1003, so the line ends at 0804.
    assert {c: int(p) for c, p in reach.ends.items()} == {
        "0204": 1, "0104": 2, "0404": 1, "0504": 2, "0604": 3, "0704": 4, "0804": 5}
    # Militia's class never moves, so they do not move by rail either.
    militia = next(u for u in game.state.units if u.type == "militia" and u.location == "0104")
    assert mv.reach(game.ctx, militia, using="rail").ends == {}


AGENTS = {"random": lambda seed, side, game: RandomAgent(choice_rng(seed, side)),
          "greedy": lambda seed, side, game: GreedyAgent(choice_rng(seed, side), game)}


@pytest.mark.parametrize("kessel", sorted(AGENTS))
@pytest.mark.parametrize("varenia", sorted(AGENTS))
def test_it_plays_to_a_result_with_every_pair_of_agents(kessel, varenia):
    game = Game.new(SCENARIO, seed=5)
    agents = {"kessel": AGENTS[kessel](5, "kessel", game), "varenia": AGENTS[varenia](5, "varenia", game)}
    for _ in iter_play(game, agents):
        pass
    assert game.is_over() and game.result()["level"] in {"Decisive victory", "Marginal victory", "Draw"}


def test_play_narrates_the_turn_record_rail_moves_and_the_weather(capsys):
    code, out, _ = run_cli(capsys, "play", str(SCENARIO), "--seed", "1")
    assert code == 0
    assert "15 October" in out and "Mud" in out
    assert "Rail movement" in out
