"""Copies of a game in play (issue 18): ``Game.copy()``, ``Game.undo()`` and ``pickle``.

A search agent, an undo button and a notebook all need a game they can branch from: whatever
the copy does, the original is untouched, and both given the same actions write the same log.
"""

import pickle
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from warbook.interpreter.actions import IllegalActionError
from warbook.interpreter.game import Game

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "interpreter" / "fixtures" / "mini" / "mini.toml"
SWEEP = ROOT / "scenarios" / "klicks_village_sweep.toml"


def advanced(where, seed: int, steps: int, pick: random.Random) -> Game:
    game = Game.new(where, seed)
    for _ in range(steps):
        if game.is_over():
            break
        game.apply(pick.choice(game.legal_actions()))
    return game


def play_on(game: Game, pick: random.Random, steps: int) -> None:
    for _ in range(steps):
        if game.is_over():
            return
        game.apply(pick.choice(game.legal_actions()))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), before=st.integers(0, 60), after=st.integers(1, 60),
       choices=st.integers(0, 2**32))
def test_a_copy_and_its_original_given_the_same_actions_write_the_same_log(seed, before, after, choices):
    game = advanced(MINI, seed, before, random.Random(choices))
    copy = game.copy()
    assert copy.log == game.log and copy.legal_actions() == game.legal_actions()
    play_on(game, random.Random(choices + 1), after)
    play_on(copy, random.Random(choices + 1), after)
    assert copy.log == game.log and copy.result() == game.result()


def test_what_a_copy_does_leaves_the_original_as_it_was():
    game = advanced(SWEEP, 3, 30, random.Random(1))
    log, options, state = list(game.log), game.legal_actions(), game.state
    copy = game.copy()
    play_on(copy, random.Random(2), 40)
    assert game.log == log and game.legal_actions() == options and game.state is state
    assert len(copy.log) > len(log)


def test_a_pickled_game_in_play_loads_at_the_same_point():
    game = advanced(SWEEP, 4, 25, random.Random(3))
    loaded = pickle.loads(pickle.dumps(game))
    assert loaded.log == game.log and loaded.state == game.state and loaded.legal_actions() == game.legal_actions()
    play_on(game, random.Random(5), 30)
    play_on(loaded, random.Random(5), 30)
    assert loaded.log == game.log


def test_undo_takes_back_the_last_decision():
    game = advanced(SWEEP, 6, 20, random.Random(4))
    log, options, state = list(game.log), game.legal_actions(), game.state
    game.apply(options[-1])
    game.undo()
    assert game.log == log and game.legal_actions() == options and game.state == state
    game.apply(options[0])  # and play goes on from there
    assert game.choices[-1] == str(options[0])


def test_undo_with_nothing_to_take_back_is_refused():
    game = Game.new(MINI, 1)
    with pytest.raises(IllegalActionError, match="no decision to undo"):
        game.undo()
