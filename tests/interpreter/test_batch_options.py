"""Options made only when read (``actions.Batch``): a move decision's options are a ``Batch`` that
behaves as the tuple of the same actions in every way a player, a log or a copy of the game reads
them, and a game played through them is the game played through tuples."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warbook.interpreter.actions import Action, Batch, IllegalActionError
from warbook.interpreter.game import Game
from warbook.interpreter.rng import choice_rng
from warbook.interpreter.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = ROOT / "benchmarks" / "games" / "skirmish.toml"

words = st.sampled_from(["A1", "A2", "0101", "0102", "0201", "box", "north"])
actions = st.builds(Action, st.sampled_from(["exit", "move", "stay", "wait"]),
                    st.lists(words, max_size=3).map(tuple))


def spelled_out(batch: Batch) -> tuple[Action, ...]:
    return (*batch.before, *(Action(batch.kind, (batch.first, s)) for s in batch.seconds), *batch.after)


@settings(deadline=None, max_examples=300)
@given(st.lists(actions, max_size=3).map(tuple), st.sampled_from(["move", "place"]), words,
       st.lists(words, unique=True, max_size=6).map(tuple), st.lists(actions, max_size=3).map(tuple), actions)
def test_a_batch_reads_as_the_tuple_of_its_actions(before, kind, first, seconds, after, other):
    batch = Batch(kind, first, seconds, before, after)
    same = spelled_out(batch)
    assert len(batch) == len(same) and list(batch) == list(same) and tuple(batch) == same
    assert [batch[i] for i in range(-len(same), len(same))] == [same[i] for i in range(-len(same), len(same))]
    assert batch[1:] == same[1:] and batch[::-1] == same[::-1] and batch[:0] == ()
    for index in (len(same), -len(same) - 1):
        with pytest.raises(IndexError):
            batch[index]
    assert all(action in batch for action in same)
    assert (other in batch) == (other in same) and batch.count(other) == same.count(other)
    if same:
        assert batch.index(same[-1]) == same.index(same[-1])
    # Equal to the tuple both ways round, hashed alike; never equal to a list, as a tuple is not.
    assert batch == same and same == batch and not batch != same and hash(batch) == hash(same)
    assert batch != list(same) and repr(batch) == repr(same)
    assert batch != (*same, other) and (*same, other) != batch
    assert Batch(kind, first, seconds, before, after) == batch  # another batch of the same fields
    assert pickle.loads(pickle.dumps(batch)) == batch


def test_batches_of_the_same_actions_split_differently_are_equal():
    stay = Action("stay", ("A1",))
    moved = Action("move", ("A1", "0101"))
    one = Batch("move", "A1", ("0101", "0102"), (), (stay,))
    other = Batch("move", "A1", ("0102",), (moved,), (stay,))
    assert one == other and hash(one) == hash(other)
    assert Action("move", ("A1", "0103")) not in one and Action("move", ("A2", "0101")) not in one
    assert Action("move", ("A1", "0101", "x")) not in one and "move A1 0101" not in one


@pytest.fixture(scope="module")
def skirmish():
    return load_scenario(SKIRMISH)


def first_move(game: Game) -> Batch:
    rng = choice_rng(3, "playout")
    while game.decision.kind != "move":
        options = game.legal_actions()
        game.apply(options[rng.randrange(len(options))])
    return game.legal_actions()


def test_a_unit_is_offered_its_cells_then_stay_made_only_when_read(skirmish):
    game = Game.new(skirmish, 3)
    options = first_move(game)
    assert type(options) is Batch and options.kind == "move" and options.before == ()
    uid = options.first
    assert options.after == (Action("stay", (uid,)),) and len(options) == len(options.seconds) + 1
    assert options[-1] == Action("stay", (uid,)) and options[0] == Action("move", (uid, options.seconds[0]))
    # The cells in ``choose``'s order: the game sorts nothing again.
    from warbook.interpreter.context import options_in_order
    assert options_in_order(options) == tuple(options)


def test_a_move_is_chosen_by_text_by_number_or_as_an_option_read_from_the_batch(skirmish):
    game = Game.new(skirmish, 3)
    options = first_move(game)
    uid, cell = options.first, options.seconds[-1]
    by_text, by_number, by_option = Game.new(skirmish, 3), Game.new(skirmish, 3), Game.new(skirmish, 3)
    for other in (by_text, by_number, by_option):
        assert first_move(other) == options
    by_text.apply(f"move {uid} {cell}")
    by_number.apply(str(len(options.seconds)))
    by_option.apply(by_option.legal_actions()[len(options.seconds) - 1])
    game.apply(Action("move", (uid, cell)))
    assert by_text.log == by_number.log == by_option.log == game.log
    assert game.choices[-1] == f"move {uid} {cell}"


def test_a_move_not_offered_is_refused_and_the_game_is_unchanged(skirmish):
    game = Game.new(skirmish, 3)
    options = first_move(game)
    uid = options.first
    barred = next(c for c in game.scenario.board.cells if c not in options.seconds)
    log = list(game.log)
    with pytest.raises(IllegalActionError) as raised:
        game.apply(Action("move", (uid, barred)))
    assert raised.value.diagnostic.code == "E801" and barred in raised.value.diagnostic.message
    assert game.log == log and game.legal_actions() == options


def test_copied_and_pickled_games_at_a_move_decision_offer_the_same_batch(skirmish):
    game = Game.new(skirmish, 3)
    options = first_move(game)
    copy, loaded = game.copy(), pickle.loads(pickle.dumps(game))
    assert copy.legal_actions() == options == loaded.legal_actions()
    for each in (game, copy, loaded):
        each.apply(options[0])
    assert copy.log == game.log == loaded.log
