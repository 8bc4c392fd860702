"""The greedy agent with the newer decision kinds (issue 13): exits that score, attacks with
supporting fire from range.  Every expected score is worked out by hand from the gallery games
(tests/gallery/) named in each test."""

import random
from fractions import Fraction
from pathlib import Path

from driving import do_call, drive, options
from gallery import at_position, scenario_fixture
from warbook.interpreter.agents import GreedyAgent
from warbook.interpreter.game import Game
from warbook.interpreter.procedures import PROCEDURES
from warbook.interpreter.state import Unit

GALLERY = Path(__file__).parents[1] / "gallery"
FORCE_EXITS = GALLERY / "force_exits" / "force_exits.toml"
RAIL = GALLERY / "rail" / "rail.toml"

rail = scenario_fixture(RAIL)


def seen(*units: Unit) -> list[dict]:
    """Units as their own side's observation shows them."""
    return [{"id": u.id, "side": u.side, "type": u.type, "location": u.location, "mode": None, "dummy": False}
            for u in units]


class _Scenario:
    """A stand-in for a game: greedy reads only its scenario."""

    def __init__(self, scenario):
        self.scenario = scenario


def test_greedy_takes_a_force_off_the_map_when_only_the_exit_scores():
    # force_exits: the scouts (B1) and rifles (B2) form a force at 0301; no enemy and no objective,
    # so every move scores 0; the exit east scores 1 VP for each (2), less 1/10 each for leaving the
    # map (their cell is worth 0): 9/5.
    game = Game.new(FORCE_EXITS, 0)
    for choice in ("operate 0301", "add B1", "add B2", "go"):
        game.apply(game.parse_action(choice))
    decision = game.decision
    assert options(decision) == ["exit east", "move 0101", "move 0201", "move 0401", "move 0501"]
    observation = game.observe("blue")
    assert observation["force"] == ["B1", "B2"]
    for seed in range(8):
        greedy = GreedyAgent(random.Random(seed), game)
        assert [greedy.score(observation, decision, o) for o in decision.options] == [Fraction(9, 5), 0, 0, 0, 0]
        assert str(greedy.choose(observation, decision)) == "exit east"


def test_an_exit_that_scores_nothing_is_never_taken_over_staying():
    # The gun (B3) may not exit; with the gun's force the exit is not offered; a scout force whose
    # exit scored nothing would score -1/10 (checked on the scouts alone with the award set aside).
    game = Game.new(FORCE_EXITS, 0)
    for choice in ("operate 0301", "add B1", "go"):
        game.apply(game.parse_action(choice))
    greedy = GreedyAgent(random.Random(0), game)
    awards = dict(greedy.rules.awards)
    try:
        greedy.rules.awards.pop("escaped")
        assert greedy.score(game.observe("blue"), game.decision, game.parse_action("exit east")) == Fraction(-1, 10)
    finally:
        greedy.rules.awards.clear()
        greedy.rules.awards.update(awards)


def test_greedy_weighs_an_exit_against_the_town_the_unit_holds(rail):
    # rail: the tanks (B2) stand in the town at 0602 on the east edge; red is far off (0104, 0204).
    # The town is worth 1 to hold (award towns), the exit 2 (award escaped): 2 - (1 + 1/10) = 9/10.
    # Moving to 0502 scores its value (-1/10: one cell from the town) less the town's 1.
    tanks = Unit("B2", "tanks", "blue", "0602")
    far = [Unit("R1", "militia", "red", "0104"), Unit("R3", "trucks", "red", "0204")]
    ctx = at_position(rail, "movement", tanks, *far)
    ctx.acting = "blue"
    (decision,) = drive(PROCEDURES["move"](ctx, do_call(ctx.rules, "move", step="movement")), ["exit B2 east"])
    observation = {"side": "blue", "phase": "movement", "units": seen(tanks, *far)}
    greedy = GreedyAgent(random.Random(0), _Scenario(rail))
    scores = {str(o): greedy.score(observation, decision, o) for o in decision.options}
    assert scores["exit B2 east"] == Fraction(9, 10)
    assert scores["move B2 0502"] == Fraction(-11, 10)
    assert max(scores.values()) == Fraction(9, 10)
    assert str(greedy.choose(observation, decision)) == "exit B2 east"
