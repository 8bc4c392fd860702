"""What every mechanics gallery test (tests/gallery/*/) needs: its scenario loaded once per module,
a context standing at a chosen position, and a whole greedy game.

``scenario = scenario_fixture(SCENARIO)`` at a test module's top level gives it the ``scenario``
fixture; ``at_position(scenario, phase, *units)`` a context whose state is exactly those units (in
that phase of turn 1 unless told), for hand-computed expectations.
"""

from pathlib import Path

import pytest

from driving import options, played
from warbook.interpreter.agents import GreedyAgent, iter_play
from warbook.interpreter.context import Context
from warbook.interpreter.game import Game
from warbook.interpreter.procedures import load_procedures
from warbook.interpreter.rng import choice_rng
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.state import GameState, Unit


def scenario_fixture(path: Path):
    """A module-scoped fixture loading the scenario at ``path`` (and every procedure) once."""

    @pytest.fixture(scope="module")
    def scenario():
        load_procedures()
        return load_scenario(path)

    return scenario


def at_position(scenario, phase: str, *units: Unit, turn: int = 1, **state) -> Context:
    """A context of ``scenario`` whose state holds exactly ``units`` (and ``state``'s other fields)."""
    ctx = Context(scenario, seed=0)
    ctx.state = GameState(turn=turn, phase=phase, units=tuple(sorted(units)), **state)
    return ctx


def set_up(scenario, seed: int = 0) -> Context:
    """A context of ``scenario`` after its set-up, which must place every counter at a fixed cell
    (no decision: a set-up that asks one fails the test)."""
    from warbook.interpreter.flow import setup

    ctx = Context(scenario, seed=seed)
    for decision in setup(ctx):
        raise AssertionError(f"the set-up asks a decision ({decision.kind}): place every counter at a fixed cell")
    return ctx


def random_games_replay_alike(path: Path, seeds=range(4)) -> list[Game]:
    """Random games of ``path``, one per seed, each played to its end twice with the same log."""
    games = []
    for seed in seeds:
        game = played(path, seed)
        assert game.is_over(), f"seed {seed}: the game did not end"
        assert played(path, seed).log == game.log, f"seed {seed}: the replay differs"
        games.append(game)
    return games


def greedy_game(path: Path, seed: int) -> Game:
    """A game of ``path`` played to its end by greedy agents on every side."""
    game = Game.new(path, seed)
    agents = {side: GreedyAgent(choice_rng(seed, side), game) for side in game.ctx.rules.sides}
    for _ in iter_play(game, agents):
        pass
    return game


def offered(decision) -> set[str]:
    """A decision's options, as a set (a decision lists them in its own order), none offered twice."""
    found = options(decision)
    assert len(set(found)) == len(found)
    return set(found)


def fixed_roll(monkeypatch, value: int) -> None:
    """Every die rolled in the test shows ``value``."""
    from warbook.interpreter import rng

    monkeypatch.setattr(rng, "roll", lambda seed, n, faces, count=1: value)
