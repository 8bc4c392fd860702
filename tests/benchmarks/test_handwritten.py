"""The playout benchmark's two games are one game: same questions, same options, same order, same result.

``benchmarks/handwritten.py`` is Skirmish written by hand; ``benchmarks/games/skirmish.rules``
is Skirmish for warbook's interpreter.  Driven by the same random choices, they must
ask the same side the same kind of question with the same legal actions at every step.
No timing here.
"""

from __future__ import annotations

import collections

import pytest

from benchmarks import handwritten
from benchmarks.playout import PURPOSE, SCENARIO, NotTheSameGame, check_same_game, load, warbook_game
from warbook.interpreter.rng import choice_rng

SEEDS = (0, 3, 4, 18, 67, 251)
"""Between them every kind of decision: orders, moves, attacks, retreats and losses (seeds 18, 67, 251)."""


@pytest.fixture(scope="module")
def games():
    return load()


@pytest.mark.parametrize("seed", SEEDS)
def test_same_legal_actions_at_every_step(games, seed):
    scenario, skirmish = games
    assert check_same_game(scenario, skirmish, seed) > 50


def test_the_seeds_cover_every_kind_of_decision(games):
    scenario, _ = games
    kinds = collections.Counter()
    for seed in SEEDS:
        game = warbook_game(scenario, seed)
        rng = choice_rng(seed, PURPOSE)
        while not game.is_over():
            kinds[game.decision.kind] += 1
            options = game.legal_actions()
            game.apply(options[rng.randrange(len(options))])
    assert set(kinds) == {"declare dig", "move", "attack", "retreat", "losses"}


def test_a_different_rule_is_caught(games, monkeypatch):
    """The lockstep check is sharp: woods costing 1 instead of 2 by hand show up as different options."""
    scenario, _ = games
    monkeypatch.setitem(handwritten.COST, "wood", 1)
    skirmish = handwritten.Skirmish(SCENARIO)
    with pytest.raises(NotTheSameGame, match="decision"):
        for seed in SEEDS:
            check_same_game(scenario, skirmish, seed)


def test_a_different_table_is_caught(games, monkeypatch):
    scenario, skirmish = games
    monkeypatch.setattr(handwritten, "CRT", tuple(tuple("NE" for _ in row) for row in handwritten.CRT))
    with pytest.raises(NotTheSameGame):
        for seed in SEEDS:
            check_same_game(scenario, skirmish, seed)


def test_options_are_ordered_as_warbook_orders_them():
    options = [("move", "B1", "0910"), ("stay", "B1"), ("move", "B1", "0109"), ("attack", "0203", "with", "B1", "B2"),
               ("attack", "0203", "with", "B1"), ("done",)]
    assert sorted(options, key=handwritten.option_key) == [
        ("attack", "0203", "with", "B1"), ("attack", "0203", "with", "B1", "B2"), ("done",),
        ("move", "B1", "0109"), ("move", "B1", "0910"), ("stay", "B1")]


def test_an_illegal_action_is_refused(games):
    _, skirmish = games
    game = handwritten.HandGame(skirmish, 0)
    with pytest.raises(ValueError, match="illegal action"):
        game.apply(("fly", "B1"))
