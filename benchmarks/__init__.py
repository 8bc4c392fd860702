"""warbook's benchmarks: how fast warbook is, as ratios against baselines measured in the same run.

``python -m benchmarks`` runs them all and prints one table; ``python -m benchmarks
NAME`` runs one.  The figures and their targets are listed in the README's
"Performance" section.  Nothing here runs in the test suite: ``tests/benchmarks/``
checks only that the benchmarks' pieces are right (the hand-written game makes the
same decisions as the ``.rules`` one, the generated rulebook loads …), never how fast.
"""

BENCHMARKS: dict[str, str] = {
    "playout": "benchmarks.playout",
    "movement": "benchmarks.movement_range",
    "mapsize": "benchmarks.movement_range",
    "loading": "benchmarks.loading",
    "lint": "benchmarks.generated_rulebook",
    "linearity": "benchmarks.generated_rulebook",
    "memory": "benchmarks.memory",
    "scenarios": "benchmarks.scenarios",
    "lookups": "benchmarks.lookups",
    "lintprocess": "benchmarks.lint_process",
    "growth": "benchmarks.growth",
    "render": "benchmarks.render",
    "sim": "benchmarks.sim_scaling",
    "simstart": "benchmarks.sim_scaling",
}
"""Benchmark name → the module whose ``run(name, profile=False)`` returns its figures, in suite order."""
