"""Whole scenarios: random playouts per second of each shipped scenario, with python-chess as the anchor.

A playout is one game from ``Game.new(scenario, seed)`` to its end, every decision
answered by a uniformly random choice (``choice_rng(seed, "playout")``, as
``RandomAgent`` does).  In the same rounds, interleaved with them, python-chess plays
random games from the initial position to checkmate, stalemate or a draw by rule:
a well-tuned pure-Python game engine run on the same machine at the same moment.
So ``playouts/s ÷ chess playouts/s`` can be compared across machines where raw
rates cannot: each figure is the median of the rounds' paired ratios (a round's
scenario rate over the same round's chess rate).  These figures are reported, with
no target.

Run: ``python -m benchmarks scenarios`` (needs ``pip install -e .[bench]`` for chess).
"""

from __future__ import annotations

import importlib.util

import random
import statistics
from pathlib import Path

from benchmarks.harness import REPEATS, Figure, interleaved_rounds, pairs, show_time

NAMES = ("scenarios",)
ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))
GAMES = 3
"""Playouts of each scenario per round (about 0.15 s each), on fresh seeds each round."""
CHESS_GAMES = 30
"""Random chess games per round (about 15 ms each)."""


def play_scenario(scenario, seeds) -> int:
    from warbook.interpreter.game import Game
    from warbook.interpreter.rng import choice_rng

    decisions = 0
    for seed in seeds:
        game = Game.new(scenario, seed)
        rng = choice_rng(seed, "playout")
        while not game.is_over():
            options = game.legal_actions()
            game.apply(options[rng.randrange(len(options))])
            decisions += 1
    return decisions


def play_chess(games: int, seed: int = 0) -> int:
    import chess

    rng = random.Random(seed)
    plies = 0
    for _ in range(games):
        board = chess.Board()
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
    return plies


def run(name: str = "scenarios", profile: bool = False) -> list[Figure]:
    if importlib.util.find_spec("chess") is None:
        raise SystemExit("the scenarios benchmark needs python-chess: pip install -e '.[bench]'")
    from warbook.interpreter.scenario import load_scenario

    loaded = {path.stem: load_scenario(path) for path in SCENARIOS}
    decisions: dict[str, list[int]] = {stem: [] for stem in loaded}
    plies: list[int] = []

    def round_calls(round_: int) -> dict:
        seeds = range(round_ * GAMES, (round_ + 1) * GAMES)  # fresh seeds each round
        calls = {stem: (lambda s=scenario, stem=stem: decisions[stem].append(play_scenario(s, seeds)))
                 for stem, scenario in loaded.items()}
        calls["chess"] = lambda: plies.append(play_chess(CHESS_GAMES, seed=round_))
        return calls

    times = interleaved_rounds(round_calls, repeats=REPEATS)
    rates = {key: [(CHESS_GAMES if key == "chess" else GAMES) / t for t in values] for key, values in times.items()}
    figures = []
    for stem in loaded:
        against = pairs(rates[stem], rates["chess"])
        made = decisions[stem][-REPEATS:]
        figures.append(Figure(f"Whole scenario: {stem}", statistics.median(against), None, pairs=against, raw=[
            (f"{GAMES} random playouts a round, fresh seeds, {sum(made) / len(made) / GAMES:.0f} decisions each: "
             f"{statistics.median(rates[stem]):.1f} playouts/s (median), "
             f"{show_time(sum(times[stem]) / sum(made))} a decision"),
        ], shown=f"{statistics.median(rates[stem]):.1f}/s = {statistics.median(against):.2f}x chess"))
    made = plies[-REPEATS:]
    figures.append(Figure("python-chess random playouts (anchor)", None, None, [
        (f"{CHESS_GAMES} random games a round, {sum(made) / len(made) / CHESS_GAMES:.0f} plies each: "
         f"{statistics.median(rates['chess']):.1f} playouts/s (median), "
         f"{show_time(sum(times['chess']) / sum(made))} a ply"),
    ], shown=f"{statistics.median(rates['chess']):.1f}/s"))
    if profile:
        from benchmarks.harness import profile_call

        first = next(iter(loaded.values()))
        profile_call(lambda: play_scenario(first, range(GAMES)))
    return figures
