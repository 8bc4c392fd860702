"""Exact checkpoints are taken only when asked for (issue 18, playout overhead).

A resumable decision's exact checkpoint (``interpreter.checkpoint``) costs a copy of its
procedure's progress; a playout that never copies the game should not pay it at every decision.
So ``Game`` takes it only when a copy, a pickle or ``checkpoints`` asks at that decision; an undo
of a decision no copy was taken at replays from its procedure's start, and gives the same game.
"""

import pickle
import random
from pathlib import Path

from warbook.interpreter.game import Game

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = ROOT / "benchmarks" / "games" / "skirmish.toml"  # a move phase: one resumable decision a unit


def at_a_later_move(seed: int) -> tuple[Game, random.Random]:
    """A game at a unit's move decision with an earlier move of the same phase behind it."""
    game, pick = Game.new(SKIRMISH, seed), random.Random(seed)
    while True:
        decision = game.decision
        if decision.kind == "move" and game.log[-1].get("kind") == "move":  # the last entry: a unit moved
            return game, pick
        game.apply(pick.choice(game.legal_actions()))


def test_a_playout_keeps_no_exact_checkpoint_of_the_decisions_it_played():
    game, pick = Game.new(SKIRMISH, 3), random.Random(3)
    moves = 0
    while not game.is_over():
        moves += game.decision.kind == "move"
        game.apply(pick.choice(game.legal_actions()))
    assert moves > 20
    assert not [at for at in game.checkpoints if at.exact]


def test_the_exact_checkpoint_is_taken_when_asked_at_its_decision():
    game, _ = at_a_later_move(5)
    before = [at for at in game._checkpoints if at.exact]
    latest = game.checkpoints[-1]
    assert not before and latest.exact and latest.choices == len(game.choices)
    assert latest.asked == (game.decision.side, "move", game.legal_actions())
    assert game.checkpoints[-1] is latest  # once: asking again takes no second one
    assert game.copy().replayed == 0


def test_an_undo_without_a_copy_replays_from_the_procedure_start_and_gives_the_same_game():
    game, pick = at_a_later_move(7)
    mark = game._checkpoints[-1]  # the move phase's mark (``checkpoints`` would take the decision's own)
    assert not mark.exact and mark.choices < len(game.choices)
    log, options, state = list(game.log), game.legal_actions(), game.state
    game.apply(options[0])
    game.undo()
    assert game.replayed == len(game.choices) - mark.choices > 0
    assert game.log == log and game.legal_actions() == options and game.state == state


def test_an_undo_of_a_decision_a_copy_was_taken_at_replays_nothing():
    game, pick = at_a_later_move(9)
    game.copy()
    log, options = list(game.log), game.legal_actions()
    game.apply(options[-1])
    game.undo()
    assert game.replayed == 0
    assert game.log == log and game.legal_actions() == options


def test_a_pickle_at_a_resumable_decision_starts_at_it():
    game, pick = at_a_later_move(11)
    loaded = pickle.loads(pickle.dumps(game))
    assert loaded.replayed == 0 and loaded.log == game.log and loaded.legal_actions() == game.legal_actions()


SUDDEN = ROOT / "tests" / "interpreter" / "fixtures" / "resources" / "sudden.toml"
SUDDEN_ANSWERS = ["operate 0101", "add B2", "go", "move 0201", "pass", "pass"]  # Blue's lead ends turn 1's scoring


def test_a_game_ended_inside_a_procedure_files_no_mark_of_it_and_copies_whole():
    """The scoring procedure that ends the game (sudden death) asked nothing: its start, whose
    position the flow has left, is no checkpoint; a copy or pickle of the ended game is the same."""
    game = Game.new(SUDDEN, seed=1)
    for answer in SUDDEN_ANSWERS:
        game.apply(answer)
    assert game.is_over() and game.result()["winner"] == "blue"
    assert all(at.choices < len(game.choices) for at in game.checkpoints)
    for other in (game.copy(), pickle.loads(pickle.dumps(game))):
        assert other.is_over() and other.log == game.log and other.result() == game.result()
