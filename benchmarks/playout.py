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
end.  Target ≤ 3×.

Run: ``python -m benchmarks playout`` (``--profile`` profiles warbook's side).
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.harness import Figure, best, interleaved, show_time, spread

NAMES = ("playout",)
SCENARIO = Path(__file__).parent / "games" / "skirmish.toml"
SEEDS = range(20)
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
    decisions = sum(check_same_game(scenario, skirmish, seed) for seed in SEEDS)

    def ours() -> None:
        play(lambda seed: warbook_game(scenario, seed), SEEDS)

    def theirs() -> None:
        play(lambda seed: hand_game(skirmish, seed), SEEDS)

    ours_t, theirs_t = interleaved(ours, theirs)
    starts = best(lambda: [warbook_game(scenario, s) for s in SEEDS])
    if profile:
        from benchmarks.harness import profile_call

        profile_call(ours)
    per_ours, per_theirs = min(ours_t) / decisions, min(theirs_t) / decisions
    return [Figure("Playout overhead (Skirmish, per decision)", per_ours / per_theirs, 3.0, [
        f"{len(SEEDS)} games, {decisions} decisions, the same legal actions at every one",
        f"warbook:      {spread(ours_t)}, {show_time(per_ours)} a decision",
        f"hand-written: {spread(theirs_t)}, {show_time(per_theirs)} a decision",
        f"(of warbook's time, Game.new: {show_time(starts / len(SEEDS))} a game)",
    ])]
