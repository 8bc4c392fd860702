"""Conformance: every shipped scenario plays to the end, and the invariants hold after every step.

OpenSpiel's ``random_sim_test`` for each scenario: seeded random games, greedy-versus-random
games (greedy on each side in turn) and greedy-versus-greedy games, as shipped and, for a
rulebook with optional rules, again with every one of them on; after every step the
invariants of ``tests/support/invariants.py`` hold.  The counts are bounded so that the default
run stays short (``invariants.GAMES``); the soak (``pytest -m soak``, ``tests/soak/``) plays 10,000
random games and goes on with these games of agents where the default run stops.

``FAST=1`` plays fewer games for a quick local run; CI plays them all.
"""

import os
from pathlib import Path

import pytest

from invariants import (FAST_GAMES, GAMES, check_invariants, greedy_against_greedy, greedy_against_random, length,
                        load_variant, play_checked, random_agents, variants)

from warbook.interpreter.game import Game

ROOT = Path(__file__).resolve().parents[2]
FAST = os.environ.get("FAST") == "1"


def games(scenario, kind: str) -> int:
    """How many games of a kind the default run plays (``invariants.GAMES``; ``FAST=1``: fewer)."""
    return (FAST_GAMES if FAST else GAMES)[length(scenario)][kind]


@pytest.fixture(scope="module", params=[pytest.param(v, id=v[2]) for v in variants()])
def scenario(request):
    path, options_on, _ = request.param
    return load_variant(path, options_on)


def test_random_games_play_to_the_end(scenario):
    results = set()
    for seed in range(games(scenario, "random")):
        game = play_checked(scenario, seed, random_agents(seed))
        results.add(game.result()["level"])
    assert results, "no game finished"


def test_greedy_against_random_plays_to_the_end(scenario):
    for n in range(games(scenario, "greedy")):
        play_checked(scenario, *greedy_against_random(scenario, n))


def test_greedy_against_greedy_plays_to_the_end(scenario):
    for n in range(games(scenario, "pair")):
        play_checked(scenario, *greedy_against_greedy(n))


def test_a_limit_checked_always_is_checked_after_every_step():
    """Five allied units on one hex, where ``stacks`` allows 4 ``checked always``, fail the check
    in the middle of a phase as well as at its end (issue 17 item 5a: the check was phase-end only)."""
    from attrs import evolve

    game = Game.new(ROOT / "scenarios" / "klicks_firebase_night.toml", seed=0)
    infantry = sorted(u for u in game.state.units if u.side == "allies" and u.type in ("us_marines", "arvn"))[:5]
    assert len(infantry) == 5
    game.ctx.state = game.state.with_units([evolve(u, location="1106") for u in infantry])
    with pytest.raises(AssertionError, match="over-stacked in 1106 in .* \\(checked always\\)"):
        check_invariants(game, phase_ended=False)
