"""Resource tracks between turns (``carry over``) and how the victory resource decides the game
(``victory by RESOURCE margin|total``), by play on a tiny generic game
(fixtures/resources/track.rules: a row of four hexes with a town at 0301).

Blue has a scout on the town (0301) and one at 0101, Red a raider at 0401.  Each turn: income
(Blue 2 orders and 2 supply, Red 1 order), then operations (1 order a unit), then scoring (Blue
2 VP for holding the town).  Orders are ``carry over no``, supply ``carry over yes``; Red starts
with 3 VP.  The game lasts 3 turns.  In every game here Blue moves its scout 0101 → 0201 on turn
1 and then both sides pass.
"""

import shutil
from pathlib import Path

from warbook.interpreter.game import Game
from warbook.interpreter.narrate import narrate

FIXTURES = Path(__file__).parent / "fixtures" / "resources"
MARGIN = FIXTURES / "margin.toml"
TOTAL = FIXTURES / "total.toml"

ANSWERS = ["operate 0101", "add B2", "go", "move 0201",  # turn 1: Blue spends 1 of its 2 orders
           "pass", "pass",                                # turn 1: Red, then Blue, pass
           "pass", "pass",                                # turn 2
           "pass", "pass"]                                # turn 3


def play(scenario: Path, answers=ANSWERS) -> Game:
    game = Game.new(scenario, seed=1)
    for answer in answers:
        game.apply(answer)
    assert game.is_over()
    return game


def resource_lines(game: Game, resource: str) -> list[tuple[int, str]]:
    return [(e["turn"], e["text"]) for e in game.log
            if e.get("type") == "event" and e.get("kind") == "resource" and e.get("resource") == resource]


def test_unspent_points_are_lost_at_the_end_of_each_turn_with_carry_over_no():
    """`carry over (yes | no)` — "Whether unspent points carry to the next turn."

    Turn 1: Blue 2 orders, 1 spent, 1 lost; Red 1, 1 lost.  Turn 2: Blue 2 (not 3), 2 lost; Red 1
    (not 2), 1 lost.  Turn 3 is the last: nothing follows it, so Blue keeps 2 and Red 1 (not 5 and 3).
    """
    game = play(MARGIN)
    lines = resource_lines(game, "orders")
    assert [(turn, text.split(" (")[0]) for turn, text in lines] == [
        (1, "Blue: +2 orders, now 2"), (1, "Red: +1 orders, now 1"),  # income
        (1, "Blue: -1 orders, now 1"),                                 # the operation
        (1, "Blue: -1 orders, now 0"), (1, "Red: -1 orders, now 0"),  # the end of turn 1
        (2, "Blue: +2 orders, now 2"), (2, "Red: +1 orders, now 1"),
        (2, "Blue: -2 orders, now 0"), (2, "Red: -1 orders, now 0"),  # the end of turn 2
        (3, "Blue: +2 orders, now 2"), (3, "Red: +1 orders, now 1"),
    ]
    lapse = "(unspent at the end of the turn: orders do not carry over)"
    assert [i for i, (_, text) in enumerate(lines) if text.endswith(lapse)] == [3, 4, 7, 8]
    assert game.state.resource("blue", "orders") == 2
    assert game.state.resource("red", "orders") == 1


def test_unspent_points_are_kept_with_carry_over_yes():
    """`carry over (yes | no)` — "Whether unspent points carry to the next turn."

    Supply is carried over: Blue gains 2 a turn and spends none, 2 + 2 + 2 = 6.
    """
    game = play(MARGIN)
    assert [text.split(" (")[0] for _, text in resource_lines(game, "supply")] == [
        "Blue: +2 supply, now 2", "Blue: +2 supply, now 4", "Blue: +2 supply, now 6"]
    assert game.state.resource("blue", "supply") == 6


def test_lost_points_are_in_the_narrative_and_replayed(tmp_path):
    """`carry over (yes | no)` — "Whether unspent points carry to the next turn."

    The loss is a resource change like any other: the narrative says it, and a saved game
    replays to the same log and the same track.
    """
    game = play(MARGIN)
    lines = narrate(game.log)
    assert "  Blue: -2 orders, now 0 (unspent at the end of the turn: orders do not carry over)" in lines
    path = tmp_path / "game.jsonl"
    game.save(path)
    loaded = Game.load(path)
    assert loaded.log == game.log
    assert loaded.state.resources == game.state.resources


def test_victory_by_margin_compares_the_levels_with_the_difference():
    """`by <resource> (margin | total)` — "What decides the winner." With `margin`, the side with
    more points wins at the level whose range holds the difference between the totals.

    Blue 6 VP (2 a turn for 3 turns), Red 3: a margin of 3 is in `draw 0..4`.
    """
    game = play(MARGIN)
    assert game.result() == {"winner": None, "level": "Draw", "margin": 3, "totals": {"blue": "6", "red": "3"}}


def test_victory_by_total_compares_the_levels_with_the_leaders_own_total():
    """`by <resource> (margin | total)` — "What decides the winner." With `total`, the side with
    more points wins at the level whose range holds its own total, not the difference.

    The same game as the margin one: Blue 6 VP, Red 3.  Blue's total of 6 is in `win 5+`.
    """
    game = play(TOTAL)
    assert game.result() == {"winner": "blue", "level": "Victory", "margin": 3,
                             "totals": {"blue": "6", "red": "3"}}


def test_victory_by_total_with_equal_totals_is_a_draw(tmp_path):
    """`by <resource> (margin | total)` — "What decides the winner." With `total`, equal totals
    leave no side ahead: the game is drawn whatever level the totals reach.

    Red starts with 6 VP: Blue 6, Red 6, both in `win 5+`, and nobody wins.
    """
    folder = tmp_path / "resources"
    shutil.copytree(FIXTURES, folder)
    scenario = folder / "tie.toml"
    scenario.write_text(TOTAL.read_text().replace("vp = 3", "vp = 6"))
    game = play(scenario)
    assert game.result() == {"winner": None, "level": "Draw", "margin": 0, "totals": {"blue": "6", "red": "6"}}


SUDDEN = FIXTURES / "sudden.toml"


def test_sudden_death_ends_the_game_the_moment_the_lead_is_reached():
    """A sudden-death lead ends the game "at any time … immediately" (reference, Victory:
    `sudden death lead N`), not at the end of the phase.  fixtures/resources/sudden.rules: lead
    2; the scoring phase scores Blue's town (+2) and then pays Red 2 VP income.  Turn 1: Blue
    reaches 2 against 0 and wins there; Red's income, later in the same phase, is never paid
    (at the end of the phase the lead would have been 0)."""
    game = play(SUDDEN, ANSWERS[:6])
    assert [text.split(" (")[0] for _, text in resource_lines(game, "vp")] == ["Blue: +2 vp, now 2"]
    assert game.result()["winner"] == "blue"
    assert any(e.get("kind") == "victory" and "sudden death" in e["text"] for e in game.log)


def test_a_resource_never_lost_takes_no_loss():
    """`never lost` — "Gains only: nothing takes points away (VP)": a loss is narrated, not made."""
    from warbook.interpreter.context import Context
    from warbook.interpreter.scenario import load_scenario
    from warbook.interpreter.victory import gain

    ctx = Context(load_scenario(SUDDEN), seed=0)
    gain(ctx, "red", "vp", 1, "test")
    gain(ctx, "red", "vp", -1, "a loss")
    assert ctx.state.resource("red", "vp") == 1
    assert ctx.events[-1]["text"] == "Red: vp is never lost; vp stays 1 (a loss)"


def test_a_side_sees_the_other_sides_resources_only_when_they_are_open():
    """`open` — "Both players always know both totals."  The track game's resources are not open:
    each side sees its own orders, supply and VP, and none of the other side's."""
    game = Game.new(MARGIN, seed=1)
    game.apply("operate 0101")
    seen = game.observe("blue")["resources"]
    assert seen and all(key.startswith("blue.") for key in seen)
    assert any(key.startswith("red.") for key in game.observe("red")["resources"])
    assert not any(key.startswith("blue.") for key in game.observe("red")["resources"])


def test_an_operation_with_a_flat_price_is_paid_once():
    """Reference, Actions: `cost RESOURCE N [per unit]` — without `per unit` the price is paid once,
    whatever the force.  fixtures/resources/flat.rules prices an operation at 2 orders flat (the
    action used to price nothing, so no force could ever be formed): Blue's scout pays 2 orders,
    not 1; Red, with 1 order, cannot pay for one and spends nothing."""
    game = Game.new(FIXTURES / "flat.toml", seed=1)
    for answer in ["operate 0101", "add B2", "go", "move 0201"]:
        game.apply(answer)
    spent = [text.split(" (")[0] for turn, text in resource_lines(game, "orders") if turn == 1 and "-" in text]
    assert spent == ["Blue: -2 orders, now 0"]


def test_an_award_whose_option_is_off_scores_nothing():
    """`requires option NAME` — "Only in force when the named optional rule is on."

    fixtures/resources/optional.rules adds an award worth 3 VP for the town that requires the
    option `bonus` (off by default) and scores it with the town each turn: off, Blue scores 2 a
    turn (6); on, 2 + 3 a turn (15).
    """
    off = Game.new(FIXTURES / "optional.toml", seed=1)
    on = Game.new(FIXTURES / "optional.toml", seed=1, options={"bonus": True})
    for game in (off, on):
        for answer in ANSWERS:
            game.apply(answer)
    assert off.state.resource("blue", "vp") == 6
    assert not any("Town bonus" in text for _, text in resource_lines(off, "vp"))
    assert on.state.resource("blue", "vp") == 15
    assert [text.split(" (")[1] for _, text in resource_lines(on, "vp")][:2] == ["Town held: 1 held)",
                                                                                 "Town bonus: 1 held)"]
