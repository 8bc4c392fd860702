"""``warbook fmt``: rules files rewritten in the canonical layout (``dsl.fmt``), atomically."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ...dsl.diagnostics import RulesError
from .common import (EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, expand, print_diagnostics, read_rules, read_stdin,
                     write_atomically)


def register(sub) -> None:
    fmt = sub.add_parser("fmt", help="rewrite rules files in the canonical layout (docs/fmt.md)")
    fmt.add_argument("paths", nargs="+", metavar="PATH", help="rules files or folders ('-' reads stdin and "
                     "writes stdout)")
    fmt.add_argument("--check", action="store_true", help="write nothing; exit 1 if any file would change")
    fmt.add_argument("--diff", action="store_true", help="write nothing; print what would change, exit 1 if any")
    fmt.set_defaults(run=run_fmt)


def run_fmt(args: argparse.Namespace) -> int:
    """``warbook fmt``: exit 0 when every file is (now) formatted, 1 when one would change under
    ``--check`` or ``--diff``, 2 when a file cannot be read, parsed or written (a diagnostic each)."""
    from ...dsl.fmt import format_text

    changed, unchanged, failed = [], 0, False
    paths = [p for raw in args.paths for p in expand(raw) if p == raw or p.endswith(".rules")]
    for path in paths:
        shown = "<stdin>" if path == "-" else path
        try:
            text = read_stdin() if path == "-" else read_rules(path)
            formatted = format_text(text, shown)
        except RulesError as exc:
            print_diagnostics(exc.diagnostics)
            failed = True
            continue
        if path == "-" and not (args.check or args.diff):
            sys.stdout.write(formatted)
            continue
        if formatted == text:
            unchanged += 1
            continue
        changed.append(shown)
        if args.diff:
            import difflib

            for line in difflib.unified_diff(text.splitlines(True), formatted.splitlines(True),
                                             f"{shown}\t(original)", f"{shown}\t(formatted)"):
                sys.stdout.write(line if line.endswith("\n") else f"{line}\n\\ No newline at end of file\n")
        elif args.check:
            print(f"Would reformat: {shown}")
        else:
            try:
                write_atomically(Path(path), formatted)
            except OSError as exc:
                print(f"warbook: error: cannot write {shown!r}: {exc.strerror or exc}", file=sys.stderr)
                failed = True
    if paths != ["-"] or args.check or args.diff:
        verb = ("would be reformatted", "already formatted") if args.check or args.diff else ("reformatted",
                                                                                              "left unchanged")
        counts = [f"{n} file{'s' if n != 1 else ''} {v}" for n, v in zip((len(changed), unchanged), verb) if n]
        if counts or not failed:
            print(", ".join(counts) or "no rules files", file=sys.stderr)
    if failed:
        return EXIT_ERROR
    return EXIT_FINDINGS if changed and (args.check or args.diff) else EXIT_CLEAN
