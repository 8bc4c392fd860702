"""Rule lookups: the share of a random playout spent asking the rules rather than playing them.

Playouts of each shipped scenario (seeds 0 to 4, random choices, as ``benchmarks.scenarios``) are
profiled with ``cProfile``, one at a time; the figure is the median, with the spread, of their
shares of time spent inside the functions that answer rule questions (own time, not what they
call) in the whole playout's time:

- the rulebook's words (``dsl/model.py``: ``Declaration.first/all/has``, ``Property.get``),
- the compiled records (``dsl/compiled/``) and ``interpreter/rules.py``,
- the per-rules caches (``interpreter/caches.py``) and the options in force (``interpreter/options.py``).

Both times come from the same profile, so the ratio says how the engine spends its time, not how
fast the machine is.  Target: at most 5% (issue 12: "rule lookups must fall under 5% of a playout").

One playout (seed 0) was the figure until session 11, when a full run read 40.7% for Game Warden
(0.093 s of 0.228 s) where runs of this benchmark alone read 4.4%: whatever the profiler charged
once to a lookup function (the collector walking what the run's earlier benchmarks left, say)
made the whole figure.

Run: ``python -m benchmarks lookups``.
"""

from __future__ import annotations

import cProfile
import pstats
import statistics
from pathlib import Path

from benchmarks.harness import Figure

NAMES = ("lookups",)
ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))
TARGET = 0.05
LOOKUP_FILES = ("dsl/model.py", "dsl/compiled/", "interpreter/rules.py", "interpreter/caches.py",
                "interpreter/options.py")
"""Where rule questions are answered (paths relative to the checkout)."""


SEEDS = range(5)
"""The playouts profiled for each scenario, one at a time."""


def lookup_share(scenario, seed: int = 0) -> tuple[float, float]:
    """(seconds in rule lookups, seconds in the whole playout) of one random playout, profiled."""
    from benchmarks.scenarios import play_scenario

    profile = cProfile.Profile()
    profile.enable()
    play_scenario(scenario, range(seed, seed + 1))
    profile.disable()
    stats = pstats.Stats(profile)
    lookups = total = 0.0
    for (filename, _, _), (_, _, own, _, _) in stats.stats.items():
        total += own
        path = Path(filename).as_posix()
        if any(f"/{part}" in path for part in LOOKUP_FILES):
            lookups += own
    return lookups, total


def run(name: str = "lookups", profile: bool = False) -> list[Figure]:
    from warbook.interpreter.scenario import load_scenario

    figures = []
    for path in SCENARIOS:
        scenario = load_scenario(path)
        from benchmarks.scenarios import play_scenario

        play_scenario(scenario, range(1))  # warm: the rules' and the map's compiled answers
        shares = [lookup_share(scenario, seed) for seed in SEEDS]
        ratios = [lookups / total for lookups, total in shares]
        median = statistics.median(ratios)
        figures.append(Figure(f"Rule lookups: {path.stem}", median, TARGET, [
            f"seed {seed}, a profiled random playout: {lookups:.3f} s of {total:.3f} s in rule lookups"
            for seed, (lookups, total) in zip(SEEDS, shares)],
            shown=f"{median:.1%} [{min(ratios):.1%}-{max(ratios):.1%}]"))
    return figures
