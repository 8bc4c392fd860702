"""Copies of a game in play (issue 18): ``Game.copy()``, ``Game.undo()`` and ``pickle``.

A search agent, an undo button and a notebook all need a game they can branch from: whatever
the copy does, the original is untouched, and both given the same actions write the same log.
Copies start from checkpoints, not from the start (``interpreter.checkpoint``): at random
decisions of random games of every shipped scenario and several gallery games a copy plays on as
its original; undo then redo writes the same log; a pickle round-trips mid-play; and a copy
replays no choice at a resumable decision, elsewhere only those made since the last checkpoint.
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


# --- checkpoints ----------------------------------------------------------------------------

SHIPPED = sorted((ROOT / "scenarios").glob("*.toml"))
GALLERY = [ROOT / "tests" / "gallery" / name / f"{name}.toml" for name in ("forces", "after_combat", "steps")]
ALTERNATING = ROOT / "tests" / "interpreter" / "fixtures" / "alternating"
GAMES = SHIPPED + GALLERY + [p for p in sorted(ALTERNATING.glob("*.toml")) if p.name != "map.toml"]


def play_together(games: list[Game], pick: random.Random, steps: int) -> None:
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
    game = advanced(where, seed, before, random.Random(choices))
    copy = game.copy()
    assert copy.log == game.log and copy.legal_actions() == game.legal_actions()
    assert copy.state == game.state and copy.choices == game.choices
    play_together([game, copy], random.Random(choices + 1), after)
    assert copy.log == game.log and copy.result() == game.result()
    assert copy.legal_actions() == game.legal_actions()


@pytest.mark.parametrize("where", SHIPPED, ids=lambda p: p.stem)
def test_undo_then_redo_writes_the_same_log(where):
    pick = random.Random(7)
    game = advanced(where, 11, 170, pick)
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
    game = advanced(where, 5, 190, random.Random(2))
    loaded = pickle.loads(pickle.dumps(game))
    assert loaded.log == game.log and loaded.state == game.state and loaded.legal_actions() == game.legal_actions()
    assert loaded.replayed == len(game.choices) - game.checkpoints[-1].choices  # not the whole game
    play_together([game, loaded], random.Random(3), 40)
    assert loaded.log == game.log


def _latest(game: Game):
    return game.checkpoints[-1]


@pytest.mark.parametrize("where, resumable, steps", [
    (ROOT / "scenarios" / "klicks_village_sweep.toml", {"setup", "declare", "bombard", "move"}, 260),
    (ROOT / "scenarios" / "klicks_firebase_night.toml", {"setup", "declare", "move", "bombard"}, 260),
    (ROOT / "scenarios" / "sea_lords_game_warden.toml", {"setup", "operation", "refit", "out", "reinforce", "support", "place"}, 500),
], ids=lambda p: getattr(p, "stem", None))
def test_a_copy_replays_nothing_at_a_resumable_decision_and_only_what_followed_the_last_checkpoint_elsewhere(
        where, resumable, steps):
    game, pick = Game.new(where, 4), random.Random(4)
    at_exact = elsewhere = 0
    exact_kinds = set()  # the kinds of decision (first word) a copy was exact at
    for _ in range(steps):
        if game.is_over():
            break
        latest = _latest(game)
        copy = game.copy()
        if latest.exact and latest.choices == len(game.choices):
            assert copy.replayed == 0
            # The procedure started again took back its progress whole: asked again, it gives the same.
            assert _latest(copy).exact and _latest(copy).progress == latest.progress
            at_exact += 1
            exact_kinds.add(game.decision.kind.split()[0])
        else:
            assert copy.replayed == len(game.choices) - latest.choices
            elsewhere += 1
        assert copy.log == game.log and copy.legal_actions() == game.legal_actions()
        game.apply(pick.choice(game.legal_actions()))
    assert at_exact > 0 and elsewhere > 0  # both kinds of decision came up
    assert exact_kinds >= resumable  # each kind its procedure resumes came up, and replayed nothing
    assert game.copy().replayed < len(game.choices)  # late in the game, far fewer than all


def test_an_exact_checkpoint_that_does_not_land_gives_way_to_the_mark_before_it():
    """A procedure wrongly declared resumable (here: a checkpoint that recorded another question)
    costs a replay from the procedure's start, never a wrong copy."""
    game, pick = Game.new(ROOT / "scenarios" / "klicks_village_sweep.toml", 4), random.Random(4)
    def mark(game):  # the latest checkpoint taken at a procedure's start
        return next(c for c in reversed(game.checkpoints) if not c.exact)

    while not (_latest(game).exact and _latest(game).choices == len(game.choices) > mark(game).choices):
        game.apply(pick.choice(game.legal_actions()))
    latest = _latest(game)
    # As if the procedure, started again, asked something else than it had asked.
    side, kind, options = latest.asked
    game._checkpoints[-1] = latest._replace(asked=(side, kind, options[1:]))
    copy = game.copy()
    assert copy.replayed == len(game.choices) - mark(game).choices > 0
    assert copy.log == game.log and copy.legal_actions() == game.legal_actions()


def test_undo_steps_back_past_the_checkpoints_a_game_thins_out():
    """Older checkpoints are thinned (``CHECKPOINTS_KEPT``): undoing further back replays from
    the one before, and each step back is still the game as it was."""
    from warbook.interpreter.game import CHECKPOINTS_KEPT

    game, pick = Game.new(SWEEP, 8), random.Random(8)
    logs = []
    for _ in range(3 * CHECKPOINTS_KEPT):
        logs.append((list(game.log), game.legal_actions()))
        game.apply(pick.choice(game.legal_actions()))
    assert len([at for at in game.checkpoints if at.choices < 2 * CHECKPOINTS_KEPT]) <= 2  # one per 32 choices
    for log, options in reversed(logs[-2 * CHECKPOINTS_KEPT:]):
        game.undo()
        assert game.log == log and game.legal_actions() == options
