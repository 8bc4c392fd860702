"""Lint speed on a generated 5,000-line rulebook, as a ratio to a bare parse of the same text.

Run: ``python -m benchmarks.generated_rulebook``.  Prints figures; asserts nothing
about time (tests never depend on the clock).  The full suite of issue 6 builds
on this generator.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from dsl.lint import lint_report
from dsl.parser import parse_text


def big_rulebook(units: int) -> str:
    """A synthetic rulebook of about ``9 * units`` lines, with something for every lint family to look at."""
    out = ['rulebook "Big"', 'section 1 "Units"', 'section 2 "Combat"', 'side blue "Blue"', 'side red "Red"',
           "dice d6", 'factor attack "Attack"', 'factor defence "Defence"', 'factor move "Move"',
           'movement foot "Foot" {', "    points factor move", "}"]
    for i in range(units):
        out += [f'tag t{i} "Tag {i}" §"1"', f'unit u{i} "Unit {i}" §"1" gap "made up" {{',
                f"    side {'blue' if i % 2 else 'red'}", "    movement foot", f"    tags t{i}", f"    attack {i % 7}",
                "    defence 2", "    move 4", "}"]
    for i in range(units // 4):
        out += [f'result r{i} "Result {i}" §"2" {{', "    effect no effect", f"    worth {i % 5}", "}"]
    columns = " ".join(f"{n}:1" for n in range(1, 11))
    out += ['table crt "CRT" §"2" {', "    roll d6", "    lookup by odds", f"    columns {columns}",
            "    better for roller right"]
    for roll in range(1, 7):
        out.append(f"    {roll}: " + " ".join(f"r{(roll * 10 + c) % (units // 4)}" for c in range(10)))
    out += ["}", 'combat assault §"2" {', "    table crt", "    compare odds", "    attack factor attack",
            "    defence factor defence", "}", 'sequence §"2" {', "    phase combat {", "        do fight assault",
            "    }", "}"]
    return "\n".join(out) + "\n"


def _best(fn, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    text = big_rulebook(560)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.rules"
        path.write_text(text, encoding="utf-8")
        parse_text(text, str(path))  # warm-up: builds the parser once
        lint_report(path)
        parse = _best(lambda: parse_text(text, str(path)))
        lint = _best(lambda: lint_report(path))
    print(f"{len(text.splitlines())} lines: parse {parse * 1000:.0f} ms, load+lint {lint * 1000:.0f} ms, "
          f"ratio {lint / parse:.2f}x (target <= 3x)")


if __name__ == "__main__":
    main()
