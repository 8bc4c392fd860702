"""Playout overhead: Skirmish played by warbook from its ``.rules`` file ÷ the same game written by hand.

The game is ``benchmarks/games/skirmish.rules`` (map ``skirmish_map.toml``, scenario
``skirmish.toml``): movement with terrain costs, a zone of control that stops
movement and blocks retreat, stacking, orders, an odds CRT with retreats and
exchanges, towns that score.  ``benchmarks/handwritten.py`` is the same game in
plain Python.

Both are driven by the same random choices: for each seed, ``choice_rng(seed,
"playout")`` picks an index into the legal actions at every decision, and the dice
are the same counter-based stream.  Before timing, ``check_same_game`` plays every
seed in lockstep and raises unless both ask the same side the same kind of question
with the same options in the same order at every step and end with the same result
(``tests/benchmarks/test_handwritten.py`` does the same in the test run).

The figure is time per decision, warbook ÷ hand-written, over whole games from
``Game.new(scenario, seed)`` (scenario files already loaded on both sides) to the
end: the median of the rounds' paired ratios, each round 20 games on fresh seeds.
Target ≤ 3×.  A second figure, reported, times the same games on rules compiled
anew each round (every cache cold), against a hand-written game loaded anew.

Run: ``python -m benchmarks playout`` (``--profile`` profiles warbook's side).
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.harness import REPEATS, WARMUP, Figure, best, interleaved_rounds, pairs, ratio, show_time, spread

NAMES = ("playout",)
SCENARIO = Path(__file__).parent / "games" / "skirmish.toml"
GAMES = 20
"""Games a round; each round plays its own seeds (``round_seeds``)."""
SEEDS = range(GAMES)
"""The first round's seeds (also those ``Game.new`` is timed and profiled on)."""


def round_seeds(round_: int) -> range:
    """The seeds a round plays: fresh ones each round, so no one game's luck sets the figure."""
    return range(round_ * GAMES, (round_ + 1) * GAMES)
PURPOSE = "playout"
"""The agents' random stream: ``interpreter.rng.choice_rng(seed, PURPOSE)``, apart from the dice."""


class NotTheSameGame(AssertionError):
    """warbook and the hand-written game asked different questions."""


def warbook_game(scenario, seed: int):
    from warbook.interpreter.game import Game

    return Game.new(scenario, seed)


def hand_game(skirmish, seed: int):
    from benchmarks.handwritten import HandGame

    return HandGame(skirmish, seed)


def check_same_game(scenario, skirmish, seed: int) -> int:
    """Play one seed in lockstep; the number of decisions.  Raises ``NotTheSameGame`` at the first difference."""
    from warbook.interpreter.rng import choice_rng

    ours, theirs = warbook_game(scenario, seed), hand_game(skirmish, seed)
    rng = choice_rng(seed, PURPOSE)
    step = 0
    while not ours.is_over():
        if theirs.is_over():
            raise NotTheSameGame(f"seed {seed}, decision {step}: the hand-written game is over, warbook's is not")
        decision = ours.decision
        asked = (decision.side, decision.kind, [str(a) for a in decision.options])
        answered = (theirs.side, theirs.kind, [" ".join(o) for o in theirs.legal_actions()])
        if asked != answered:
            raise NotTheSameGame(f"seed {seed}, decision {step}:\n  warbook:      {asked}\n  hand-written: {answered}")
        index = rng.randrange(len(decision.options))
        ours.apply(decision.options[index])
        theirs.apply(theirs.legal_actions()[index])
        step += 1
    if not theirs.is_over():
        raise NotTheSameGame(f"seed {seed}: warbook's game is over after {step} decisions, the hand-written one is not")
    result = {key: ours.result()[key] for key in ("winner", "level", "margin", "totals")}
    if result != theirs.result:
        raise NotTheSameGame(f"seed {seed}: results differ: warbook {result}, hand-written {theirs.result}")
    return step


def play(new, seeds) -> int:
    """Play every seed to the end with the random choices; the number of decisions."""
    from warbook.interpreter.rng import choice_rng

    decisions = 0
    for seed in seeds:
        game = new(seed)
        rng = choice_rng(seed, PURPOSE)
        while not game.is_over():
            options = game.legal_actions()
            game.apply(options[rng.randrange(len(options))])
            decisions += 1
    return decisions


def load():
    from benchmarks.handwritten import Skirmish
    from warbook.interpreter.scenario import load_scenario

    return load_scenario(SCENARIO), Skirmish(SCENARIO)


def run(name: str = "playout", profile: bool = False) -> list[Figure]:
    scenario, skirmish = load()
    seeds = {r: round_seeds(r) for r in range(WARMUP + REPEATS)}
    decisions = {r: sum(check_same_game(scenario, skirmish, seed) for seed in s) for r, s in seeds.items()}

    def round_calls(round_: int) -> dict:
        cold_scenario, cold_skirmish = load()  # fresh compiled rules: every cache starts empty
        chosen = seeds[round_]
        return {
            "warm": lambda: play(lambda seed: warbook_game(scenario, seed), chosen),
            "hand": lambda: play(lambda seed: hand_game(skirmish, seed), chosen),
            "cold": lambda: play(lambda seed: warbook_game(cold_scenario, seed), chosen),
            "hand cold": lambda: play(lambda seed: hand_game(cold_skirmish, seed), chosen),
        }

    times = interleaved_rounds(round_calls)
    starts = best(lambda: [warbook_game(scenario, s) for s in SEEDS])
    if profile:
        from benchmarks.harness import profile_call

        profile_call(lambda: play(lambda seed: warbook_game(scenario, seed), SEEDS))
    counted = [decisions[r] for r in range(WARMUP, WARMUP + REPEATS)]
    per = {key: [t / n for t, n in zip(values, counted)] for key, values in times.items()}
    raw = [f"{GAMES} games a round, fresh seeds each round ({min(counted)}-{max(counted)} decisions), "
           "the same legal actions at every decision on both sides",
           f"warbook:      {spread(per['warm'])} a decision",
           f"hand-written: {spread(per['hand'])} a decision",
           f"(of warbook's time, Game.new: {show_time(starts / len(SEEDS))} a game)"]
    return [
        Figure("Playout overhead (Skirmish, per decision)", ratio(per["warm"], per["hand"]), 3.0,
               pairs=pairs(per["warm"], per["hand"]), raw=raw),
        Figure("Playout overhead, cold caches (fresh rules each round)", ratio(per["cold"], per["hand cold"]), None,
               pairs=pairs(per["cold"], per["hand cold"]), raw=[
                   f"warbook, rules compiled anew: {spread(per['cold'])} a decision",
                   f"hand-written, loaded anew:   {spread(per['hand cold'])} a decision"]),
    ]
