"""Whole scenarios: random playouts per second of each shipped scenario, with python-chess as the anchor.

A playout is one game from ``Game.new(scenario, seed)`` to its end, every decision
answered by a uniformly random choice (``choice_rng(seed, "playout")``, as
``RandomAgent`` does).  In the same rounds, interleaved with them, python-chess plays
random games from the initial position to checkmate, stalemate or a draw by rule:
a well-tuned pure-Python game engine run on the same machine at the same moment.
So ``playouts/s ÷ chess playouts/s`` can be compared across machines where raw
rates cannot.  These figures are reported, with no target.

Run: ``python -m benchmarks scenarios`` (needs ``pip install -e .[bench]`` for chess).
"""

from __future__ import annotations

import random
from pathlib import Path

from benchmarks.harness import Figure, interleaved_many, show_time

NAMES = ("scenarios",)
ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))
SEEDS = range(3)
"""Playouts of each scenario per round (about 0.15 s each)."""
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
    try:
        import chess  # noqa: F401
    except ImportError:
        raise SystemExit("the scenarios benchmark needs python-chess: pip install -e '.[bench]'") from None
    from warbook.interpreter.scenario import load_scenario

    loaded = {path.stem: load_scenario(path) for path in SCENARIOS}
    decisions = {stem: play_scenario(scenario, SEEDS) for stem, scenario in loaded.items()}
    plies = play_chess(CHESS_GAMES)
    calls = {stem: (lambda s=scenario: play_scenario(s, SEEDS)) for stem, scenario in loaded.items()}
    calls["chess"] = lambda: play_chess(CHESS_GAMES)
    times = interleaved_many(calls, repeats=5)
    chess_rate = CHESS_GAMES / min(times["chess"])
    figures = []
    for stem in loaded:
        rate = len(SEEDS) / min(times[stem])
        figures.append(Figure(f"Whole scenario: {stem}", rate / chess_rate, None, [
            (f"{len(SEEDS)} random playouts, {decisions[stem] / len(SEEDS):.0f} decisions each: "
             f"{rate:.1f} playouts/s, {show_time(min(times[stem]) / decisions[stem])} a decision"),
        ], shown=f"{rate:.1f}/s = {rate / chess_rate:.2f}x chess"))
    figures.append(Figure("python-chess random playouts (anchor)", None, None, [
        (f"{CHESS_GAMES} random games, {plies / CHESS_GAMES:.0f} plies each: {chess_rate:.1f} playouts/s, "
         f"{show_time(min(times['chess']) / plies)} a ply"),
    ], shown=f"{chess_rate:.1f}/s"))
    if profile:
        from benchmarks.harness import profile_call

        first = next(iter(loaded.values()))
        profile_call(lambda: play_scenario(first, SEEDS))
    return figures
