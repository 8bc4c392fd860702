"""``python -m benchmarks [NAME ...] [--profile]``: run the suite (or some of it) and print one table.

Each benchmark prints nothing while it runs; at the end comes the table (figure,
measured ratio, target, pass/miss) and under it the raw times each ratio came from,
then how long each benchmark took.  Misses are reported, never raised: timing is not
a test.  A benchmark whose two sides disagree (different legal actions, different
reachable cells) stops with an error, since a fast wrong answer is not a result.
"""

from __future__ import annotations

import argparse
import sys
import time

from benchmarks import BENCHMARKS
from benchmarks.harness import markdown, table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"benchmarks to run: {', '.join(BENCHMARKS)} "
                        "(default: all)")
    parser.add_argument("--profile", action="store_true", help="also profile warbook's side of each benchmark")
    parser.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    parser.add_argument("--markdown", action="store_true", help="also print the table as the README holds it")
    args = parser.parse_args(argv)
    if args.list:
        for name, module in BENCHMARKS.items():
            print(f"{name:10} {module.split('.')[-1]}")
        return 0
    unknown = [n for n in args.names if n not in BENCHMARKS]
    if unknown:
        parser.error(f"unknown benchmark {unknown[0]!r}; choose from {', '.join(BENCHMARKS)}")
    import importlib

    figures, took = [], []
    for name in args.names or list(BENCHMARKS):
        module = importlib.import_module(BENCHMARKS[name])
        start = time.perf_counter()
        figures.extend(module.run(name, profile=args.profile))
        took.append(f"{name} {time.perf_counter() - start:.1f} s")
        print(f"{name}: done in {time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)
    print(table(figures))
    if args.markdown:
        print("\n" + markdown(figures))
    print(f"\nbenchmark wall times: {', '.join(took)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
