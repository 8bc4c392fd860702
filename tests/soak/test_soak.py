"""The soak: 10,000 random games across every scenario, the invariants checked after every step.

Not part of the default run (``pytest`` deselects the ``soak`` marker); run it with
``pytest -m soak`` (``SOAK_GAMES=N`` for another total, ``SOAK_REPORT=FILE`` to append one
JSON line per chunk of games that kept every invariant: games, decisions).  The games are shared out by a
scenario's weight (``WEIGHTS``: the tactical games are several times shorter), half of each
share with the rulebook's optional rules on where it has any, and every game is a fresh seed.
The conformance tests' games (random, greedy against random, greedy against greedy) go on
here where the default run stops (``invariants.SOAK_CONFORMANCE_GAMES``).
A violated invariant (``tests/support/invariants.py``) fails the test at once, naming the
scenario and seed; the conformance tests play a bounded number of the same games in every run.
"""

import json
import os
from pathlib import Path

import pytest
from invariants import (GAMES, SOAK_CONFORMANCE_GAMES, greedy_against_greedy, greedy_against_random, length,
                        load_variant, play_checked, random_agents, variants)

TOTAL = int(os.environ.get("SOAK_GAMES", "10000"))
WEIGHTS = {"klicks": 20, "sea_lords": 1}
"""Games of a scenario per game of the others, by the scenario's prefix: a Several Klicks game is
about a quarter of a second, a Sea Lords one one to two seconds; any other (a mechanics gallery or
example game, ``invariants.SCENARIOS``) weighs ``OTHER``."""
OTHER = 4
"""The weight of a gallery or example game: the sixteen of them together weigh about three Several
Klicks scenarios, so the shipped games keep most of the soak (at 20 each, the galleries left Sea
Lords 28 games a scenario of 10,000)."""
SEED_BASE = 100_000
"""Soak seeds start here, past those the conformance tests play."""


CHUNK = 250
"""Games a test plays: the soak is many tests, so that workers (``-n``) share it out and a stopped
run has reported what it played."""


def _chunks() -> list[tuple[Path, str, int, int]]:
    """``(scenario, name, first game, games)`` for every chunk of every scenario's share."""
    scenarios = sorted({path for path, _, _ in variants()})
    weight = {p: next((w for prefix, w in WEIGHTS.items() if p.stem.startswith(prefix)), OTHER) for p in scenarios}
    total = sum(weight.values())
    out = []
    for path in scenarios:
        share = round(TOTAL * weight[path] / total)
        out.extend((path, path.stem, first, min(CHUNK, share - first)) for first in range(0, share, CHUNK))
    return out


@pytest.mark.soak
@pytest.mark.parametrize("path, name, first, count", _chunks(), ids=[f"{c[1]}-{c[2]}" for c in _chunks()])
def test_soak(path: Path, name: str, first: int, count: int) -> None:
    with_options = {options for p, options, _ in variants() if p == path}
    loaded = {options: load_variant(path, options) for options in with_options}
    decisions = options_on = 0
    for n in range(first, first + count):
        seed = SEED_BASE + n
        on = n % 2 == 1 and True in loaded  # half the games with every optional rule on
        options_on += on
        game = play_checked(loaded[on], seed, random_agents(seed))
        decisions += len(game.choices)
    report = os.environ.get("SOAK_REPORT")
    if report:
        with open(report, "a", encoding="utf-8") as handle:
            handle.write(json.dumps({"scenario": name, "first": first, "games": count, "decisions": decisions,
                                     "options_on_games": options_on}) + "\n")  # a violation fails the test first


@pytest.mark.soak
@pytest.mark.parametrize("variant", [pytest.param(v, id=v[2]) for v in variants()])
def test_soak_conformance_games(variant) -> None:
    """The conformance tests' games, numbered on from where the default run stops."""
    path, options_on, _ = variant
    scenario = load_variant(path, options_on)
    size = length(scenario)
    for seed in range(GAMES[size]["random"], SOAK_CONFORMANCE_GAMES[size]["random"]):
        play_checked(scenario, seed, random_agents(seed))
    for n in range(GAMES[size]["greedy"], SOAK_CONFORMANCE_GAMES[size]["greedy"]):
        play_checked(scenario, *greedy_against_random(scenario, n))
    for n in range(GAMES[size]["pair"], SOAK_CONFORMANCE_GAMES[size]["pair"]):
        play_checked(scenario, *greedy_against_greedy(n))
