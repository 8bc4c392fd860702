"""Lint as a process: ``warbook lint RULEBOOK`` from start to exit, as an editor's on-save hook runs it.

Each round runs three processes, interleaved: ``python -c pass`` (the interpreter's own
start-up, the baseline), ``python -c "import warbook.dsl"`` (what importing the language costs)
and the ``warbook`` command itself (the console script beside this Python, else ``python -m
warbook``) linting several_klicks.rules.  Bytecode writing is allowed in the child processes,
as in an installed package, and a warm-up round fills the cache folder (``dsl.cache_dir``: the
parser's tables, the code of attrs' record methods, the configuration parsed), so the figure is
that of every run after the first; the first run's (an empty cache folder) is shown too.

Instructions (callgrind, ``PYTHONHASHSEED=0``, the figure to compare on a loaded machine):
``python -c pass`` 87.8 M; the lint process 832.6 M at the start of session 8, 601.6 M after it
(attrs' methods compiled once per machine 174 M, the configuration kept parsed 21 M, only the
lint command's module imported 14 M, ``gc.freeze`` after importing 21 M); 534.9 M after the
next (attrs' own classes from kept code 20 M, no ``shutil`` for argparse 5 M, the collector
paused while importing and linting and what was built frozen before exit 30 M, no movement
records for a rulebook without a force dropping units off 11 M); 540.1 M at the start of session 11
and 481.7 M after it (loading: patterns matched by compiled steps, the reader without a generator,
31 M; attrs' kept code found by the text's hash and the type hash set where it sits, 8 M; effect and
procedure patterns compiled when first read, 8 M; lookups shared by the checks of one run, 8 M; a
configuration read before read without ``dsl.toml_text``, 3.5 M).

Target: the lint process in at most 150 ms of wall time on an idle 2-core machine; the table
shows the median as a ratio of that budget.  The raw lines give the lint's time as a ratio to
``python -c pass`` of the same round (the median of the rounds' ratios, and their spread): on a
loaded machine every process is slower, the baseline too, so that ratio is the steadier figure.

Run: ``python -m benchmarks lintprocess``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.harness import Figure, show_time

NAMES = ("lintprocess",)
ROOT = Path(__file__).resolve().parents[1]
RULEBOOK = ROOT / "rulebooks" / "several_klicks.rules"
BUDGET = 0.150
ROUNDS = 9


def warbook_command() -> list[str]:
    """How a user starts the command: the console script installed beside ``sys.executable``."""
    script = Path(sys.executable).with_name("warbook")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "warbook"]


def _timed(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, check=False)
    took = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise AssertionError(f"{command} failed: {done.stderr.decode(errors='replace')}")
    return took


def run(name: str = "lintprocess", profile: bool = False) -> list[Figure]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    lint = [*warbook_command(), "lint", str(RULEBOOK)]
    commands = {"pass": [sys.executable, "-c", "pass"], "import": [sys.executable, "-c", "import warbook.dsl"],
                "lint": lint}
    with tempfile.TemporaryDirectory() as empty:
        first = _timed(lint, {**env, "WARBOOK_CACHE_DIR": empty})
    times: dict[str, list[float]] = {key: [] for key in commands}
    for round_ in range(ROUNDS + 1):
        took = {key: _timed(command, env) for key, command in commands.items()}
        if round_:  # round 0 is the warm-up: bytecode and the cache folder written
            for key, value in took.items():
                times[key].append(value)
    median = {key: statistics.median(values) for key, values in times.items()}
    ratios = [lint_ / pass_ for lint_, pass_ in zip(times["lint"], times["pass"])]
    return [Figure(f"Lint process ({RULEBOOK.stem}), vs {BUDGET * 1000:.0f} ms", median["lint"] / BUDGET, 1.0, [
        f"warbook lint:            median {show_time(median['lint'])} "
        f"[{show_time(min(times['lint']))} - {show_time(max(times['lint']))}], n={ROUNDS}",
        f"python -c pass:          median {show_time(median['pass'])}",
        f"lint / python -c pass:   {statistics.median(ratios):.2f}x [{min(ratios):.2f}-{max(ratios):.2f}] "
        f"(each round's ratio)",
        f"python -c 'import warbook.dsl': median {show_time(median['import'])}",
        f"first run (empty cache folder): {show_time(first)}",
        f"command: {' '.join(Path(part).name if part == lint[0] else part for part in lint[:-1])} {RULEBOOK.name}",
    ], shown=show_time(median["lint"]))]
