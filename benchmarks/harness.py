"""Timing and reporting shared by every benchmark: interleaved runs, ratios, one table.

Every figure is a **ratio** of two times measured in the same process and the same
run, so it says something about warbook's design rather than about the machine:

- ``interleaved(a, b)`` warms both up, then times ``a, b, a, b, …`` (``REPEATS``
  pairs, at least 5), collecting garbage before each call, and keeps each side's
  **minimum**: the run least disturbed by the rest of the machine.
- A ``Figure`` is one line of the table: the measured ratio, its target (a ratio
  not to exceed, or ``None`` for figures that are only reported), and the raw
  times it came from, printed under the table.

Nothing here asserts anything about time: the suite reports; it never fails on a
slow machine.  Correctness checks inside benchmarks (same legal actions, same
reachable cells) do raise, since a fast wrong answer is not a result.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

REPEATS = 7
"""Timed pairs per ratio after the warm-up (the non-negotiable minimum is 5)."""
WARMUP = 1


@dataclass
class Figure:
    """One line of the results table."""

    name: str
    ratio: float | None
    """Measured ratio (warbook ÷ baseline), or ``None`` for a figure that is only reported."""
    target: float | None
    """The ratio not to exceed; ``None``: report only."""
    raw: list[str] = field(default_factory=list)
    """The times and counts the ratio came from, one line each."""
    shown: str | None = None
    """What to print in the ratio column instead of the ratio (report-only figures)."""

    @property
    def status(self) -> str:
        if self.target is None or self.ratio is None:
            return "report"
        return "pass" if self.ratio <= self.target else "miss"


def interleaved(a: Callable[[], object], b: Callable[[], object], repeats: int = REPEATS,
                warmup: int = WARMUP) -> tuple[list[float], list[float]]:
    """Times of ``a`` and of ``b``, run alternately (A B A B …) after ``warmup`` untimed pairs."""
    times = interleaved_many({"a": a, "b": b}, repeats, warmup)
    return times["a"], times["b"]


def interleaved_many(calls: dict[str, Callable[[], object]], repeats: int = REPEATS,
                     warmup: int = WARMUP) -> dict[str, list[float]]:
    """``interleaved`` for more than two: each round runs every call once, in order.

    What exists before the first call (maps, rulebooks, graphs of a hundred thousand
    nodes) is moved out of the garbage collector's sight (``gc.freeze``), so the
    collection before each timed call costs only the garbage of the calls themselves.
    """
    if repeats < 5:
        raise ValueError("at least 5 timed repetitions per side")
    gc.collect()
    gc.freeze()
    try:
        for _ in range(warmup):
            for call in calls.values():
                call()
        times: dict[str, list[float]] = {name: [] for name in calls}
        for _ in range(repeats):
            for name, call in calls.items():
                times[name].append(timed(call))
    finally:
        gc.unfreeze()
    return times


def best(call: Callable[[], object], repeats: int = 5, warmup: int = WARMUP) -> float:
    """The fastest of ``repeats`` timed calls after ``warmup`` untimed ones (for raw figures, not ratios)."""
    for _ in range(warmup):
        call()
    return min(timed(call) for _ in range(repeats))


def profile_call(call: Callable[[], object], top: int = 30) -> None:
    """Print where ``call()`` spends its time: pyinstrument's call tree if installed, else cProfile's top lines."""
    try:
        from pyinstrument import Profiler
    except ImportError:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        profiler.runcall(call)
        stats = pstats.Stats(profiler)
        stats.sort_stats("cumulative").print_stats(top)
        stats.sort_stats("tottime").print_stats(top)
        return
    profiler = Profiler(interval=0.0005)
    profiler.start()
    call()
    profiler.stop()
    print(profiler.output_text(unicode=True, color=False, show_all=False))


def timed(call: Callable[[], object]) -> float:
    """Seconds one call takes, after a garbage collection (so one side does not pay for the other's garbage)."""
    gc.collect()
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def ratio(times_a: Iterable[float], times_b: Iterable[float]) -> float:
    """Best of A over best of B."""
    return min(times_a) / min(times_b)


def show_time(seconds: float) -> str:
    """``1.23 s``, ``45.6 ms``, ``7.8 µs``: three significant figures."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds * 1e9:.3g} ns"


def spread(times: list[float]) -> str:
    """``min 1.2 ms (median 1.3 ms, n=7)``."""
    ordered = sorted(times)
    return f"min {show_time(ordered[0])} (median {show_time(ordered[len(ordered) // 2])}, n={len(ordered)})"


def table(figures: list[Figure]) -> str:
    """The results table, then each figure's raw times."""
    rows = [("figure", "ratio", "target", "result")]
    for f in figures:
        measured = f.shown if f.shown is not None else (f"{f.ratio:.2f}x" if f.ratio is not None else "-")
        target = f"<= {f.target:g}x" if f.target is not None else "report"
        rows.append((f.name, measured, target, f.status))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = []
    for n, row in enumerate(rows):
        lines.append("  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i])
                               for i, cell in enumerate(row)).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines.append("")
    lines.append("raw figures (each time the minimum of interleaved runs after a warm-up):")
    for f in figures:
        lines.append(f"  {f.name}:")
        lines.extend(f"    {line}" for line in f.raw)
    return "\n".join(lines)
