"""The flow of alternating operations and of stacking checked at the ends of phases, on a tiny
generic game (fixtures/alternating/patrol.rules: a strip of four water squares; Blue has two
launches and a chief at 0101 and a launch at 0301, Red a junk at 0401; Blue has 2 orders, Red 1).
"""

from pathlib import Path


from warbook.interpreter.game import Game

FIXTURE = Path(__file__).parent / "fixtures" / "alternating" / "patrol.toml"


def play(answers):
    game = Game.new(FIXTURE, 1)
    seen = []
    for answer in answers:
        decision = game.decision
        seen.append((decision.side, decision.kind, [str(o) for o in decision.options]))
        game.apply(answer)
    return game, seen


def texts(game, kind=None):
    return [e["text"] for e in game.log if e.get("type") == "event" and (kind is None or e.get("kind") == kind)]


def test_sides_alternate_until_both_pass():
    game, seen = play(["operate 0301", "add B4", "go", "move 0201",  # Blue: 1 order for one launch
                       "pass",                                         # Red passes: done for the phase
                       "operate 0201", "add B4", "go", "move 0101",  # Blue goes on alone
                       "excess B4",                                    # 4 in 0101 against 3
                       ])
    assert [s[:2] for s in seen] == [("blue", "operation"), ("blue", "force"), ("blue", "force"), ("blue", "move"),
                                     ("red", "operation"),
                                     ("blue", "operation"), ("blue", "force"), ("blue", "force"), ("blue", "move"),
                                     ("blue", "stacking")]
    # Blue is out of orders: it is done without being asked, and so is the phase.
    assert "Blue has no orders left and is done for the phase" in texts(game)


def test_a_leader_pays_once_and_a_force_without_one_pays_per_unit():
    game, _ = play(["operate 0101", "add B3", "add B1", "add B2", "go"])
    assert game.state.resource("blue", "orders") == 1  # led: one order for three units
    game, _ = play(["operate 0101", "add B1", "add B2", "go"])
    assert game.state.resource("blue", "orders") == 0  # unled: one per unit


def test_the_excess_over_a_stacking_limit_goes_to_the_box_at_the_end_of_the_step():
    # Three Blue units end in 0301 beside the launch there: 4 against a limit of 3.
    game, seen = play(["operate 0101", "add B3", "add B1", "add B2", "go", "move 0301", "excess B1"])
    assert seen[-1] == ("blue", "stacking", ["excess B1", "excess B2", "excess B3", "excess B4"])
    assert [u.id for u in game.state.units_at("reserve")] == ["B1"]
    assert len(game.state.units_at("0301")) == 3


def test_a_carried_unit_is_offered_only_with_enough_carriers():
    game, _ = play(["operate 0101"])
    options = [str(o) for o in game.decision.options]
    assert options == ["add B1", "add B2", "add B3"]  # the chief may be added: the launches can lift it
