"""Timing and reporting shared by every benchmark: interleaved runs, ratios, one table.

Every figure is a **ratio** of two times measured in the same process and the same
run, so it says something about warbook's design rather than about the machine:

- ``interleaved(a, b)`` warms both up, then times ``a, b, a, b, …`` (``REPEATS``
  rounds, at least 7), collecting garbage before each call.
- ``ratio(a_times, b_times)`` is the **median of the paired ratios**: each round's
  ``a ÷ b``, the two measured back to back on the same machine state.  Taking each
  side's minimum separately (as this suite once did) lets one lucky run on either
  side swing the ratio between runs; a paired median does not.  ``pairs`` gives the
  rounds' ratios, which the table shows as a spread ``[lowest–highest]``.
- A ``Figure`` is one line of the table: the measured ratio, its spread, its target
  (a ratio not to exceed, or ``None`` for figures that are only reported), and the
  raw times it came from, printed under the table.  ``markdown(figures)`` prints the
  same table as the README's Performance section holds it, to be pasted, not retyped.

Nothing here asserts anything about time: the suite reports; it never fails on a
slow machine.  Correctness checks inside benchmarks (same legal actions, same
reachable cells) do raise, since a fast wrong answer is not a result.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

REPEATS = 7
"""Timed rounds per ratio after the warm-up (the issue's minimum for a paired median is 7)."""
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
    pairs: list[float] = field(default_factory=list)
    """Each round's ratio, when the figure is a paired median (``ratio``): its spread is shown."""

    @property
    def measured(self) -> str:
        """The ratio column: the ratio (or ``shown``) and, for a paired figure, its spread."""
        text = self.shown if self.shown is not None else (f"{self.ratio:.2f}x" if self.ratio is not None else "-")
        if self.pairs:
            text += f" [{min(self.pairs):.2f}-{max(self.pairs):.2f}]"
        return text

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
    """``interleaved`` for more than two: each round runs every call once, in order."""
    return interleaved_rounds(lambda _: calls, repeats, warmup)


def interleaved_rounds(make: Callable[[int], dict[str, Callable[[], object]]], repeats: int = REPEATS,
                       warmup: int = WARMUP) -> dict[str, list[float]]:
    """Times of each round's calls: ``make(round)`` (untimed; rounds ``0 .. warmup-1`` are the
    warm-up) gives that round's calls, so a round can play fresh seeds or start from cold caches,
    and each call is timed once, in order.

    What exists before the first call (maps, rulebooks, graphs of a hundred thousand
    nodes) is moved out of the garbage collector's sight (``gc.freeze``), so the
    collection before each timed call costs only the garbage of the calls themselves.
    """
    if repeats < 5:
        raise ValueError("at least 5 timed rounds")
    gc.collect()
    gc.freeze()
    try:
        times: dict[str, list[float]] = {}
        for round_ in range(warmup + repeats):
            calls = make(round_)
            for name, call in calls.items():
                took = timed(call)
                if round_ >= warmup:
                    times.setdefault(name, []).append(took)
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


def pairs(times_a: Iterable[float], times_b: Iterable[float]) -> list[float]:
    """Each round's ``a ÷ b``: the two were timed back to back, in the same round."""
    return [a / b for a, b in zip(times_a, times_b, strict=True)]


def ratio(times_a: Iterable[float], times_b: Iterable[float]) -> float:
    """The median of the rounds' paired ratios (``pairs``)."""
    return statistics.median(pairs(times_a, times_b))


def show_time(seconds: float) -> str:
    """``1.23 s``, ``45.6 ms``, ``7.8 µs``: three significant figures."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds * 1e9:.3g} ns"


def spread(times: list[float]) -> str:
    """``median 1.3 ms [1.2 ms - 1.5 ms], n=7``."""
    return (f"median {show_time(statistics.median(times))} [{show_time(min(times))} - {show_time(max(times))}], "
            f"n={len(times)}")


def table(figures: list[Figure]) -> str:
    """The results table, then each figure's raw times."""
    rows = [("figure", "measured [spread]", "target", "result")]
    for f in figures:
        rows.append((f.name, f.measured, _target(f), f.status))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = []
    for n, row in enumerate(rows):
        lines.append("  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i])
                               for i, cell in enumerate(row)).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines.append("")
    lines.append("raw figures (medians and ranges of interleaved rounds after a warm-up):")
    for f in figures:
        lines.append(f"  {f.name}:")
        lines.extend(f"    {line}" for line in f.raw)
    return "\n".join(lines)


def _target(figure: Figure) -> str:
    return f"<= {figure.target:.3g}x" if figure.target is not None else "report"


def markdown(figures: list[Figure]) -> str:
    """The table as the README's Performance section holds it (a Markdown table)."""
    lines = ["| Figure | Measured [spread] | Target | Result |", "|---|---|---|---|"]
    lines.extend(f"| {f.name} | {f.measured} | {_target(f).replace('<=', '≤')} | {f.status} |" for f in figures)
    return "\n".join(lines)
