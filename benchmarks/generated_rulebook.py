"""Linting: a generated 5,000-line rulebook, linted, against a bare parse of it; and lint linearity.

Two figures:

- **lint** — full lint (``dsl.lint.lint_report``: read, parse, build the model,
  resolve names, every check, suppressions, sorting) ÷ a bare Lark LALR parse of the
  same text (``dsl.parser._parser().parse``, the grammar alone).  Target ≤ 3×.
- **linearity** — lint of the rulebook's body repeated 4 times with every name made
  unique ÷ lint of it once.  Target ≤ 4.4×: no check may grow faster than the
  rulebook (a check comparing every declaration with every other would show here).

Linearity, in instructions (callgrind, ``PYTHONHASHSEED=0``, one lint after a warm-up): 1,613.1 M
once, 6,433.6 M 4x, 3.99x, so no step grows faster than the rulebook in work.  The time grew
faster through memory: with the collector paused for the whole lint, the one young collection
after it walked every object the lint kept (59,000 once, 236,000 4x) after the model had left
the processor's caches; a cache simulation with an 8 MB last level gave the 4x lint 4.45 M
misses against 0.17 M once, 1.34 M of them in that walk.  Loading and linting now make their
young collections as they go and only the full ones are paused (``dsl.collector``): 528 young
collections for 4x, none walking more than about 10,000 objects, and no full one; 1,649.5 M
and 6,607.3 M instructions (4.01x; +2.3% and +2.7%), 2.23 M misses for 4x (0.17 M once).  On
the shared machine, six runs of this figure alternating the two ways in one process: 4.14x mean
(3.79-4.52) paused, 3.97x (3.71-4.23) now; the median of the runs' fastest rounds 977 -> 867 ms
for 4x, 212 -> 206 ms once.  What is left above 4x is memory: the 4x lint faults in fresh pages
(about 5,000, 3 µs each on the benchmark machine) where the lint once reuses what the process
holds, and its model does not fit the cache.

Run: ``python -m benchmarks lint`` or ``python -m benchmarks linearity``.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from benchmarks.harness import Figure, interleaved, interleaved_many, pairs, profile_call, ratio, spread

NAMES = ("lint", "linearity")
UNITS = 560
"""Unit types in the generated rulebook: about 5,600 lines."""


def big_rulebook(units: int = UNITS, copies: int = 1) -> str:
    """A synthetic rulebook of about ``10 * units`` lines per copy, with something for every lint family.

    Copy ``k`` (from 0) holds its own tags, units, results, table and combat, named with a
    ``_k`` suffix from the second copy on, so ``copies=4`` is four times the body with every
    name unique; the header (sides, dice, factors, the movement class) and the sequence of
    play are written once.
    """
    out = ['rulebook "Big"', 'section 1 "Units"', 'section 2 "Combat"', 'side blue "Blue"', 'side red "Red"',
           "dice d6", 'factor attack "Attack"', 'factor defence "Defence"', 'factor move "Move"',
           'movement foot "Foot" {', "    points factor move", "}"]
    fights = []
    for copy in range(copies):
        k = f"_{copy}" if copy else ""
        for i in range(units):
            out += [f'tag t{i}{k} "Tag {i}" §"1"', f'unit u{i}{k} "Unit {i}" §"1" gap "made up" {{',
                    f"    side {'blue' if i % 2 else 'red'}", "    movement foot", f"    tags t{i}{k}",
                    f"    attack {i % 7}", "    defence 2", "    move 4", "}"]
        for i in range(units // 4):
            out += [f'result r{i}{k} "Result {i}" §"2" {{', "    effect no effect", f"    worth {i % 5}", "}"]
        columns = " ".join(f"{n}:1" for n in range(1, 11))
        out += [f'table crt{k} "CRT" §"2" {{', "    roll d6", "    lookup by odds", f"    columns {columns}",
                "    better for roller right"]
        for roll in range(1, 7):
            out.append(f"    {roll}: " + " ".join(f"r{(roll * 10 + c) % (units // 4)}{k}" for c in range(10)))
        out += ["}", f'combat assault{k} §"2" {{', f"    table crt{k}", "    compare odds",
                "    attack factor attack", "    defence factor defence", "}"]
        fights.append(f"        do fight assault{k}")
    out += ['sequence §"2" {', "    phase combat {", *fights, "    }", "}"]
    return "\n".join(out) + "\n"


def _write(folder: str, name: str, text: str) -> Path:
    path = Path(folder) / name
    path.write_text(text, encoding="utf-8")
    return path


def bench_lint(profile: bool = False) -> Figure:
    from warbook.dsl.lint import lint_report
    from warbook.dsl.parser import _parser, parse_text

    text = big_rulebook()
    lines = len(text.splitlines())
    with tempfile.TemporaryDirectory() as folder:
        path = _write(folder, "big.rules", text)
        report = lint_report(path)
        if report.rulebook is None:
            raise AssertionError("the generated rulebook does not load: "
                                 + "; ".join(d.message for d in report.diagnostics[:3]))
        times = interleaved_many({"lint": lambda: lint_report(path), "parse": lambda: _parser().parse(text),
                                  "ast": lambda: parse_text(text, str(path))})
        lint_times, parse_times, ast_times = times["lint"], times["parse"], times["ast"]
        if profile:
            profile_call(lambda: lint_report(path))
    return Figure("Linting (generated 5,600-line rulebook)", ratio(lint_times, parse_times), 3.0,
                  pairs=pairs(lint_times, parse_times), raw=[
        f"{lines} lines, {len(report.diagnostics)} diagnostics",
        f"full lint:        {spread(lint_times)}",
        f"bare Lark parse:  {spread(parse_times)}",
        f"(parse_text, the parse with its syntax tree: {ratio(ast_times, parse_times):.2f}x the bare parse)",
    ])


def bench_linearity(profile: bool = False) -> Figure:
    from warbook.dsl.lint import lint_report

    once, four = big_rulebook(), big_rulebook(copies=4)
    with tempfile.TemporaryDirectory() as folder:
        one_path, four_path = _write(folder, "once.rules", once), _write(folder, "four.rules", four)
        loaded: dict[Path, bool] = {}

        def lint(path: Path) -> None:
            loaded[path] = lint_report(path).rulebook is not None

        # The warm-up is the small rulebook alone (the same code runs for both; the 4x lint takes seconds).
        lint(one_path)
        four_times, one_times = interleaved(lambda: lint(four_path), lambda: lint(one_path), repeats=7, warmup=0)
        if not all(loaded.values()):
            raise AssertionError("a generated rulebook does not load")
        if profile:
            profile_call(lambda: lint_report(four_path))
    return Figure("Lint linearity (4x the rulebook)", ratio(four_times, one_times), 4.4,
                  pairs=pairs(four_times, one_times), raw=[
        f"{len(four.splitlines())} lines: {spread(four_times)}",
        f"{len(once.splitlines())} lines: {spread(one_times)}",
    ])


def run(name: str, profile: bool = False) -> list[Figure]:
    return [bench_lint(profile)] if name == "lint" else [bench_linearity(profile)]


def main() -> None:
    """The historical entry point (``python -m benchmarks.generated_rulebook``): both figures."""
    from benchmarks.harness import table

    print(table([bench_lint(), bench_linearity()]))


if __name__ == "__main__":
    main()
