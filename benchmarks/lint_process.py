"""Lint as a process: ``warbook lint RULEBOOK`` from start to exit, as an editor's on-save hook runs it.

Each round runs three processes, interleaved: ``python -c pass`` (the interpreter's own
start-up, the baseline), ``python -c "import warbook.dsl"`` (what importing the language costs)
and ``python -m warbook.interpreter.cli lint several_klicks.rules``.  Bytecode writing is
allowed in the child processes, as in an installed package, and a warm-up round fills the
parser cache (``dsl.lark_cache``), so the figure is that of every run after the first.

Target: the lint process in at most 150 ms of wall time on an idle 2-core machine; the table
shows the median as a ratio of that budget, and the raw lines the ratio to ``python -c pass``.
On a loaded machine every process is slower, the baseline too: read the two together.

Run: ``python -m benchmarks lintprocess``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.harness import Figure, show_time

NAMES = ("lintprocess",)
ROOT = Path(__file__).resolve().parents[1]
RULEBOOK = ROOT / "rulebooks" / "several_klicks.rules"
BUDGET = 0.150
ROUNDS = 9


def run(name: str = "lintprocess", profile: bool = False) -> list[Figure]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    commands = {
        "pass": [sys.executable, "-c", "pass"],
        "import": [sys.executable, "-c", "import warbook.dsl"],
        "lint": [sys.executable, "-m", "warbook.interpreter.cli", "lint", str(RULEBOOK)],
    }
    times: dict[str, list[float]] = {key: [] for key in commands}
    for round_ in range(ROUNDS + 1):
        for key, command in commands.items():
            start = time.perf_counter()
            done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, check=False)
            took = time.perf_counter() - start
            if key == "lint" and done.returncode not in (0, 1):
                raise AssertionError(f"warbook lint failed: {done.stderr.decode(errors='replace')}")
            if round_:  # round 0 is the warm-up: bytecode and parser tables written
                times[key].append(took)
    median = {key: statistics.median(values) for key, values in times.items()}
    return [Figure(f"Lint process ({RULEBOOK.stem}), vs {BUDGET * 1000:.0f} ms", median["lint"] / BUDGET, 1.0, [
        f"warbook lint:            median {show_time(median['lint'])} "
        f"[{show_time(min(times['lint']))} - {show_time(max(times['lint']))}], n={ROUNDS}",
        f"python -c 'import warbook.dsl': median {show_time(median['import'])}",
        f"python -c pass:          median {show_time(median['pass'])}",
        f"lint / python -c pass:   {median['lint'] / median['pass']:.2f}x",
    ], shown=show_time(median["lint"]))]
