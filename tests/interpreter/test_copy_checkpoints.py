"""Copies start from checkpoints, not from the start (issue 18 item 3; ``interpreter.checkpoint``).

At random decisions of random games of every shipped scenario and several gallery games, a
copy and its original, given the same actions, write the same log and offer the same actions;
undo then redo writes the same log; a pickle round-trips mid-play; and a copy replays no choice
at a resumable decision, and elsewhere only those made since the last procedure started.
"""

import pickle
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from warbook.interpreter.game import Game

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "scenarios").glob("*.toml"))
GALLERY = [ROOT / "tests" / "gallery" / name / f"{name}.toml" for name in ("forces", "after_combat", "steps")]
ALTERNATING = ROOT / "tests" / "interpreter" / "fixtures" / "alternating"
GAMES = SHIPPED + GALLERY + [p for p in sorted(ALTERNATING.glob("*.toml")) if p.name != "map.toml"]


def played(where, seed: int, steps: int, pick: random.Random) -> Game:
    game = Game.new(where, seed)
    for _ in range(steps):
        if game.is_over():
            break
        game.apply(pick.choice(game.legal_actions()))
    return game


def play_on(games: list[Game], pick: random.Random, steps: int) -> None:
    """The same random actions for every game in ``games`` (chosen from the first's options)."""
    for _ in range(steps):
        if games[0].is_over():
            return
        action = pick.choice(games[0].legal_actions())
        for game in games:
            game.apply(action)


@pytest.mark.parametrize("where", GAMES, ids=lambda p: p.stem)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), before=st.integers(0, 220), after=st.integers(1, 40),
       choices=st.integers(0, 2**32))
def test_a_copy_at_a_random_decision_plays_on_as_its_original(where, seed, before, after, choices):
    game = played(where, seed, before, random.Random(choices))
    copy = game.copy()
    assert copy.log == game.log and copy.legal_actions() == game.legal_actions()
    assert copy.state == game.state and copy.choices == game.choices
    play_on([game, copy], random.Random(choices + 1), after)
    assert copy.log == game.log and copy.result() == game.result()
    assert copy.legal_actions() == game.legal_actions()


@pytest.mark.parametrize("where", SHIPPED, ids=lambda p: p.stem)
def test_undo_then_redo_writes_the_same_log(where):
    pick = random.Random(7)
    game = played(where, 11, 170, pick)
    for _ in range(3):
        if game.is_over():
            break
        log, options = list(game.log), game.legal_actions()
        action = pick.choice(options)
        game.apply(action)
        after = list(game.log)
        game.undo()
        assert game.log == log and game.legal_actions() == options
        game.apply(action)
        assert game.log == after


@pytest.mark.parametrize("where", SHIPPED, ids=lambda p: p.stem)
def test_a_game_pickled_mid_play_loads_at_its_checkpoint_and_plays_on_the_same(where):
    game = played(where, 5, 190, random.Random(2))
    loaded = pickle.loads(pickle.dumps(game))
    assert loaded.log == game.log and loaded.state == game.state and loaded.legal_actions() == game.legal_actions()
    assert loaded.replayed == len(game.choices) - game.checkpoints[-1].choices  # not the whole game
    play_on([game, loaded], random.Random(3), 40)
    assert loaded.log == game.log


def _latest(game: Game):
    return game.checkpoints[-1]


@pytest.mark.parametrize("where", [ROOT / "scenarios" / "klicks_village_sweep.toml",
                                   ROOT / "scenarios" / "sea_lords_game_warden.toml"], ids=lambda p: p.stem)
def test_a_copy_replays_nothing_at_a_resumable_decision_and_only_what_followed_the_last_checkpoint_elsewhere(where):
    game, pick = Game.new(where, 4), random.Random(4)
    at_exact = elsewhere = 0
    for _ in range(260):
        if game.is_over():
            break
        latest = _latest(game)
        copy = game.copy()
        if latest.exact and latest.choices == len(game.choices):
            assert copy.replayed == 0
            at_exact += 1
        else:
            assert copy.replayed == len(game.choices) - latest.choices
            elsewhere += 1
        assert copy.log == game.log and copy.legal_actions() == game.legal_actions()
        game.apply(pick.choice(game.legal_actions()))
    assert at_exact > 0 and elsewhere > 0  # both kinds of decision came up
    assert game.copy().replayed < len(game.choices)  # late in the game, far fewer than all


def test_an_exact_checkpoint_that_does_not_land_gives_way_to_the_mark_before_it():
    """A procedure wrongly declared resumable (here: a checkpoint that recorded another question)
    costs a replay from the procedure's start, never a wrong copy."""
    from attrs import evolve

    game, pick = Game.new(ROOT / "scenarios" / "klicks_village_sweep.toml", 4), random.Random(4)
    def mark(game):  # the latest checkpoint taken at a procedure's start
        return next(c for c in reversed(game.checkpoints) if not c.exact)

    while not (_latest(game).exact and _latest(game).choices == len(game.choices) > mark(game).choices):
        game.apply(pick.choice(game.legal_actions()))
    latest = _latest(game)
    # As if the procedure, started again, asked something else than it had asked.
    game._checkpoints[-1] = evolve(latest, decision=evolve(latest.decision, options=latest.decision.options[1:]))
    copy = game.copy()
    assert copy.replayed == len(game.choices) - mark(game).choices > 0
    assert copy.log == game.log and copy.legal_actions() == game.legal_actions()
