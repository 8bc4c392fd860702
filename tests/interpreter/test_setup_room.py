"""Set-up with more counters than the zone holds: the owner, not the order of the entries, picks
the counter that starts in the scenario's ``unplaced`` area (issue 14, item 10).

Sea Lords 3.0: "Units must always be set up within normal stacking limits"; 9.2: "you must place
into your side's Refit Box sufficient units from that square to restore the stacking limit
there."  The printed Zumwalt set-up puts more US counters on the base squares than they hold, so
some start in the Refit Box, and which is the Free World player's choice.

Fixture (fixtures/setup_room): Blue's zone is square 0101, two units to a square; Blue sets up
the captain B1, then the privates B2 and B3 there; the reserve is the unplaced area.
"""

from pathlib import Path

from warbook.interpreter.agents import GreedyAgent
from warbook.interpreter.game import Game
from warbook.interpreter.rng import choice_rng

SCENARIO = Path(__file__).parent / "fixtures" / "setup_room" / "room.toml"
ZUMWALT = Path(__file__).resolve().parents[2] / "scenarios" / "sea_lords_zumwalt.toml"


def answer(game: Game, *choices: str) -> list:
    """Answer the set-up's decisions in order; the decisions asked (kind, prompt, options)."""
    asked = []
    for choice in choices:
        decision = game.decision
        asked.append((decision.side, decision.kind, [str(o) for o in decision.options]))
        game.apply(choice)
    return asked


def where(game: Game) -> dict[str, str]:
    return {u.id: u.location for u in game.state.units}


def test_the_owner_picks_which_counter_starts_in_the_unplaced_area():
    game = Game.new(SCENARIO, seed=1)
    asked = answer(game, "place B1 0101", "place B2 0101", "excess B1")
    # The zone is full when B3 comes: Blue picks among B3 itself and the two it set up there.
    assert asked[2] == ("blue", "setup", ["excess B1", "excess B2", "excess B3"])
    assert where(game) == {"B1": "reserve", "B2": "0101", "B3": "0101", "R1": "0201"}
    assert "B1 Captain starts in the reserve: no cell of its zone has room" in [e.get("text") for e in game.log]


def test_the_counter_that_came_last_may_be_the_one_that_waits():
    game = Game.new(SCENARIO, seed=1)
    answer(game, "place B1 0101", "place B2 0101", "excess B3")
    assert where(game) == {"B1": "0101", "B2": "0101", "B3": "reserve", "R1": "0201"}


def test_greedy_keeps_its_strongest_counters_on_the_map():
    """Greedy gives up the counter with the smallest factors (a private), as for any loss."""
    game = Game.new(SCENARIO, seed=1)
    answer(game, "place B1 0101", "place B2 0101")
    agent = GreedyAgent(choice_rng(1, "blue"), game)
    choice = agent.choose(game.observe("blue"), game.decision)
    assert str(choice) in ("excess B2", "excess B3")


def test_zumwalt_free_world_chooses_which_counters_wait_in_the_refit_box():
    """Set up answering each decision with its first option: when the base squares are full, the
    Free World player is asked which counter waits (the newcomer or one already set up there)."""
    game = Game.new(ZUMWALT, seed=2)
    overflows = []
    while game.state.phase == "setup":
        decision = game.decision
        if "no cell of its zone has room" in decision.prompt:
            overflows.append([str(o) for o in decision.options])
        game.apply(decision.options[0])
    assert overflows and all(len(options) > 1 and options[0].startswith("excess ") for options in overflows)
    waiting = [u for u in game.state.units if u.side == "free_world" and u.location == "refit_box"]
    assert len(waiting) >= 8  # 64 counters where 7 x 8 fit (the scenario's reading of 26.4)
