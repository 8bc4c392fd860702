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


# --- attacks with supporting fire from range (range_fire gallery) ------------------------------------------

RANGE_FIRE = GALLERY / "range_fire" / "range_fire.toml"
range_fire = scenario_fixture(RANGE_FIRE)


def attack_scores(scenario, units, side="blue"):
    """Greedy's score of each attack ``do fight assault`` offers in this position."""
    ctx = at_position(scenario, "assault", *units)
    decision = next(PROCEDURES["fight"](ctx, do_call(ctx.rules, "fight", "assault")))
    greedy = GreedyAgent(random.Random(0), _Scenario(scenario))
    observation = {"side": side, "phase": "assault", "units": seen(*units)}
    return {str(o): greedy.score(observation, decision, o) for o in decision.options if o.kind == "attack"}


def test_greedy_scores_a_supported_attack_by_what_befalls_each_unit(range_fire):
    # Infantry B1 (0303; attack 1, defence 2, move 2: strength 5) with guns G1 (0101) and G2 (0203)
    # (attack 3, defence 1, range 4, move 1: 9 each) from range, against rifles R1 at 0302 (attack 2,
    # defence 2, range 0, move 2: 6).  7 against 2 is 3:1: DE on 1-4, NE on 5, AE on 6.
    # Worth: (4 - 1)/6 = 1/2.  The DE takes the rifles' 6 (4/6 of the time: 4); the AE eliminates
    # the attackers, the infantry alone (5, 1/6 of the time: 5/6), the guns being immune.  So
    # 1/2 + (4 - 5/6)/100; counting the guns as lost too would give 1/2 + (4 - 23/6)/100.
    units = (Unit("R1", "rifles", "red", "0302"), Unit("B1", "infantry", "blue", "0303"),
             Unit("G1", "guns", "blue", "0101"), Unit("G2", "guns", "blue", "0203"))
    assert attack_scores(range_fire, units) == {"attack 0302 with B1 G1 G2": Fraction(1, 2) + Fraction(19, 600)}


def test_greedy_scores_a_supported_attack_on_two_hexes(range_fire):
    # B1 (0303) on R1 (0302) and R2 (0402) with G1 (0101): 4 against 4, 1:1: DE on 1-2, NE on 3-4,
    # AE on 5-6; worth 0.  The DE takes both rifles (12, a third of the time: 4), the AE the
    # infantry alone (5, a third: 5/3): (4 - 5/3)/100 = 7/300.  G5 (0102) supports 0302 alone:
    # 1 + 3 + 3 = 7 against 2 as above, 1/2 + 19/600; 0402 alone, 4 against 2, 2:1: DE on 1-3,
    # NE on 4-5, AE on 6: worth 2/6, exchange (3 * 6 - 5)/6 = 13/6.
    units = (Unit("R1", "rifles", "red", "0302"), Unit("R2", "rifles", "red", "0402"),
             Unit("B1", "infantry", "blue", "0303"), Unit("G1", "guns", "blue", "0101"),
             Unit("G5", "guns", "blue", "0102"))
    assert attack_scores(range_fire, units) == {
        "attack 0302 with B1 G1 G5": Fraction(1, 2) + Fraction(19, 600),
        "attack 0402 with B1 G1": Fraction(1, 3) + Fraction(13, 600),
        "attack 0302 0402 with B1 G1": Fraction(7, 300),
    }


# --- step losses, unit by unit (steps gallery) ----------------------------------------------------------

STEPS = GALLERY / "steps" / "steps.toml"
steps = scenario_fixture(STEPS)


def test_a_step_loss_costs_the_drop_in_strength_and_the_last_step_all(steps):
    from warbook.interpreter.exchange import result_exchange

    # Column (red): attack 6, defence 6, move 2 (14); step 2: 4/4 (10); step 3: 2/2 (6).  Brigade
    # (blue): 6/4, move 3 (13); step 2: 3/2 (8).  Militia (red): 2/2, move 2, one step (6).
    brigade = Unit("B1", "brigade", "blue", "0202")
    column, militia = Unit("R1", "column", "red", "0302"), Unit("R2", "militia", "red", "0302")
    ctx = at_position(steps, "combat", brigade, column, militia)
    assert result_exchange(ctx, "owner", "DS", [brigade], [column]) == 14 - 10
    assert result_exchange(ctx, "owner", "DS", [brigade], [Unit("R1", "column", "red", "0302", step=3)]) == 6
    # Two defenders: the owner gives up a step of the weaker, the militia, whose only step is its 6.
    assert result_exchange(ctx, "owner", "DS", [brigade], [column, militia]) == 6
    # Chosen by the opponent: the column's first step.
    assert result_exchange(ctx, "opponent", "DS", [brigade], [column, militia]) == 4
    assert result_exchange(ctx, "owner", "AS", [brigade], [column]) == -(13 - 8)
