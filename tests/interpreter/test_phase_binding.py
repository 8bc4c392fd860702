"""A phase's ``side`` binds every procedure in it; an alternation never spins; infiltration scores
however a unit moved (issue 12: nothing accepted is ignored).

The games are in fixtures/phase_binding/ (common.rules): a strip of five squares, 0101-0501, with
a depot at 0401.  Blue's scout B1 (face down, move 2) starts at 0201, Red's raider R1 (move 2) at
0501; each side holds 2 orders.  The award ``slipped_in`` gives Blue 2 points for a scout that
ends its move in a depot, and sends it to the hideout.
"""

from __future__ import annotations

import signal
from contextlib import contextmanager
from pathlib import Path

import pytest

from warbook.interpreter.game import Game

FIXTURES = Path(__file__).parent / "fixtures" / "phase_binding"
SCENARIO = FIXTURES / "moving.toml"
MAX_DECISIONS = 50


@contextmanager
def time_limit(seconds: int):
    """Fail instead of hanging: a game that spins without asking anything is stopped by SIGALRM."""

    def stop(signum, frame):
        raise TimeoutError(f"no decision came within {seconds} s: the game loops without asking anyone")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def play(rules: str, answers: list[str]):
    """Play the game of ``rules`` with these answers, at most ``MAX_DECISIONS`` of them, each
    within a time limit; returns the game and (phase, side, kind) of every decision answered."""
    seen = []
    with time_limit(10):
        game = Game.new(FIXTURES / f"{rules}.rules", SCENARIO, 1)
        for answer in answers[:MAX_DECISIONS]:
            decision = game.decision
            assert decision is not None, f"the game is over before {answer!r}; asked so far: {seen}"
            seen.append((game.state.phase, decision.side, decision.kind))
            game.apply(answer)
    return game, seen


def pending(game) -> tuple | None:
    decision = game.decision
    return None if decision is None else (game.state.phase, decision.side, decision.kind)


def texts(game) -> list[str]:
    return [e["text"] for e in game.log if e.get("type") == "event"]


# --- side binds do move ------------------------------------------------------------------------


def test_a_move_phase_bound_to_one_side_moves_only_that_sides_units():
    """Reference, ``phase``: "`side (first | second | <side:REF(side)>)` — Runs for one player only."
    and "Sequence of play": "A phase that runs for one side … binds every procedure in it …: `do
    move` moves only that side's units".  In ``blue_moves`` (``side blue``, ``do move``) only
    Blue's scout is asked; Red's raider moves in ``all_move`` (``mutual``), after the scout's
    second move."""
    game, seen = play("moving", ["stay B1", "stay B1", "stay R1"])
    assert seen == [("blue_moves", "blue", "move"), ("all_move", "blue", "move"), ("all_move", "red", "move")]
    assert pending(game) is None


def test_a_unit_moved_in_a_bound_phase_moves_again_in_a_mutual_one():
    """Reference, ``phase``: "`mutual` — Both sides act in it." The raider, not asked in Blue's
    phase, still moves in the mutual one: the binding leaves no unit out of a mutual phase."""
    game, seen = play("moving", ["move B1 0301", "move B1 0101", "move R1 0401"])
    assert [s[:2] for s in seen] == [("blue_moves", "blue"), ("all_move", "blue"), ("all_move", "red")]
    assert game.state.unit("B1").location == "0101" and game.state.unit("R1").location == "0401"


# --- alternations ---------------------------------------------------------------------------------


def test_an_alternation_in_a_phase_bound_to_one_side_involves_only_that_side():
    """Reference, "Sequence of play": "… an `alternate STEP` inside it is that side's alone (it
    takes turn after turn until it passes or runs out)".  Red has orders and an operation it could
    pay for (``raid_op``), but ``blue_ops`` is Blue's: after Blue's operation Blue goes on (it has
    1 order left, B1 is in the hideout, so it may only pass) and the phase ends when it passes;
    Red is never asked."""
    game, seen = play("operations", ["operate 0201", "add B1", "go", "move 0401", "pass"])
    assert {side for _, side, _ in seen} == {"blue"}
    assert seen[-1] == ("operation", "blue", "operation")
    assert pending(game) is None
    assert game.state.resource("red", "orders") == 2


def test_a_side_with_nothing_it_can_do_in_an_alternation_is_done():
    """Reference, ``phase``: "`alternate <step:REF(step)> until (all pass | all pass or out of
    <resource:REF(resource)>)` — Players take turns doing a step until every player has passed." and
    "Sequence of play": "A side whose turn at an alternated step asks it nothing (it has no action
    it could pay for there, say) is done for the phase, as if it had passed."  Red holds 2 orders
    but no operation names it (only ``scout_op``, Blue's): it can never pass nor spend them.  In
    Blue's phase it takes no turn; in the mutual phase its turn asks it nothing, so it is done,
    and the game ends when Blue passes (before the fix: 100% CPU, no decision)."""
    game, seen = play("idle", ["pass", "pass"])
    assert seen == [("blue_operation", "blue", "operation"), ("operation", "blue", "operation")]
    assert pending(game) is None
    assert "Red has nothing to do and is done for the phase" in texts(game)


# --- infiltration however the unit moved ----------------------------------------------------------


@pytest.mark.parametrize(("rules", "answers"), [
    ("moving", ["move B1 0401"]),                                # do move
    ("operations", ["operate 0201", "add B1", "go", "move 0401"]),  # move force
])
def test_an_infiltration_award_scores_however_the_unit_moved(rules, answers):
    """Reference, "Actions, awards and victory": "An `on infiltrated` award scores when one of its
    `of` units ends a move in its `cells`, however it moved: under `do move` … as under `move
    force` … The unit is turned face up, scores, and goes to the `then to` box."  B1 ends its move
    in the depot 0401 either way: Blue scores 2, and B1 is face up in the hideout."""
    game, _ = play(rules, answers)
    scout = game.state.unit("B1")
    assert game.state.resource("blue", "vp") == 2
    assert scout.location == "hideout" and not scout.hidden
    assert "B1 Scout infiltrates 0401 and goes to the hideout" in texts(game)


def test_a_unit_carried_into_a_depot_scores_once_its_carriers_move_is_over():
    """Reference: "… under `do move` (once its turn to move is over; a carrier's cargo when it is
    set down) …".  The same award, for a unit that ``do move`` carries (fixtures/phase_binding/carrying.rules:
    Blue's glider B1, ``carries 1 units``, and scout B2 start at 0101).  The glider picks the
    scout up and sets it down in the depot 0401: the scout's move ends there, so it scores 2 and
    goes to the hideout; the glider, no scout, stays.  Red's raider is not asked (``side blue``)."""
    seen = []
    with time_limit(10):
        game = Game.new(FIXTURES / "carrying.toml", 1)
        for answer in ["carry B1 B2", "move B1 0401", "stay B1"]:
            seen.append((game.decision.side, str(game.decision.options[0]).split()[1]))
            game.apply(answer)
    assert seen == [("blue", "B1")] * 3 and pending(game) is None
    assert game.state.resource("blue", "vp") == 2
    assert game.state.unit("B2").location == "hideout" and game.state.unit("B1").location == "0401"


def test_a_unit_that_ends_its_move_short_of_the_depot_scores_nothing():
    """Reference: "A unit that only passes through such a cell, or stays where it is, scores
    nothing", and only its `of` units score.  B1 ends in 0301, beside the depot, and R1 ends in
    the depot but is no scout (``of scout``)."""
    game, _ = play("moving", ["move B1 0301", "stay B1", "move R1 0401"])
    assert game.state.resource("blue", "vp") == 0
    assert game.state.unit("B1").location == "0301" and game.state.unit("R1").location == "0401"
