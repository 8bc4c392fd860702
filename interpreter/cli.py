"""The ``warbook`` command: one subcommand per stage (``lint``, ``show``).

Exit codes (ruff's): 0 clean, 1 diagnostics at or above the fail level, 2 a
usage error or a bug in warbook.  ``--exit-zero`` turns 1 into 0 but never
masks 2.  Only this module writes to stdout and stderr.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path
from typing import Sequence

from dsl.diagnostics import CODES, Severity, sort_diagnostics
from interpreter import render

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """argparse that exits with 2 and a one-line message, never a traceback."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"warbook: error: {message}\n")


def _prefixes(text: str | None) -> list[str]:
    return [p.strip() for p in (text or "").split(",") if p.strip()]


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="warbook", description="Rules-as-data engine for board wargames.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks for internal errors")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    lint = sub.add_parser("lint", help="check rulebooks and report diagnostics")
    lint.add_argument("paths", nargs="*", metavar="PATH", help="rules files ('-' reads stdin)")
    lint.add_argument("--format", choices=("concise", "full", "json"), default="concise")
    lint.add_argument("--select", help="only these codes or prefixes, comma separated (E,W4)")
    lint.add_argument("--ignore", help="skip these codes or prefixes, comma separated")
    lint.add_argument("--fail-level", choices=("error", "warning", "info"), default="warning",
                      help="lowest severity that makes the exit code 1 (default: warning)")
    lint.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    lint.add_argument("--explain", metavar="CODE", help="print the documentation of a code and exit")
    lint.add_argument("--list", action="store_true", help="list every code and exit")
    lint.set_defaults(run=run_lint)

    show = sub.add_parser("show", help="print resolved declarations of a rulebook")
    show.add_argument("rulebook", help="a rules file")
    show.add_argument("name", nargs="?", help="a declaration name (KIND:NAME when ambiguous)")
    show.add_argument("--json", action="store_true", help="machine-readable output")
    show.set_defaults(run=run_show)
    return parser


def run_lint(args: argparse.Namespace) -> int:
    from dsl.lint import iter_selected, lint_report, load_checks

    load_checks()
    if args.list:
        for code in sorted(CODES):
            info = CODES[code]
            print(f"{code} {info.name} ({info.severity.label})")
        return EXIT_CLEAN
    if args.explain:
        info = CODES.get(args.explain.upper())
        if info is None:
            print(f"warbook: error: unknown code {args.explain!r}; see 'warbook lint --list'", file=sys.stderr)
            return EXIT_ERROR
        print(f"{info.code} {info.name} ({info.severity.label})\n\n{info.doc}")
        return EXIT_CLEAN
    if not args.paths:
        print("warbook: error: lint needs at least one PATH (or --explain CODE)", file=sys.stderr)
        return EXIT_ERROR
    select, ignore = _prefixes(args.select), _prefixes(args.ignore)
    for prefix in (*select, *ignore):
        if not any(code.startswith(prefix.upper()) for code in CODES):
            print(f"warbook: error: no code starts with {prefix!r}", file=sys.stderr)
            return EXIT_ERROR
    diagnostics, sources, suppressed = [], {}, 0
    paths = [p for raw in args.paths for p in _expand(raw)]
    for raw in paths:
        path = _stdin_to_file(raw) if raw == "-" else raw
        report = lint_report(path)
        suppressed += report.suppressed
        if report.rulebook is not None:
            sources.update(dict(report.rulebook.sources))
        diagnostics.extend(report.diagnostics)
    shown = sort_diagnostics(iter_selected(diagnostics, [s.upper() for s in select], [i.upper() for i in ignore]))
    if args.format == "json":
        print(render.as_json(shown))
    else:
        for d in shown:
            print(render.concise(d) if args.format == "concise" else render.full(d, sources.get))
        counts = {s: sum(1 for d in shown if d.severity is s) for s in Severity}
        summary = ", ".join(f"{n} {s.label}{'s' if n != 1 else ''}" for s, n in sorted(counts.items(), reverse=True))
        tail = f", {suppressed} suppressed" if suppressed else ""
        print(f"{len(paths)} file{'s' if len(paths) != 1 else ''} checked: {summary}{tail}",
              file=sys.stderr)
    fail = Severity[args.fail_level.upper()]
    if any(d.severity >= fail for d in shown) and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _expand(raw: str) -> list[str]:
    """A folder stands for every ``.rules`` file below it, in sorted order (as ruff takes folders)."""
    path = Path(raw)
    if raw != "-" and path.is_dir():
        return [str(p) for p in sorted(path.rglob("*.rules"))]
    return [raw]


def _stdin_to_file(_: str) -> str:
    """Lint stdin by writing it to a temporary file (relative includes then resolve from the cwd)."""
    import tempfile

    data = sys.stdin.read()
    handle = tempfile.NamedTemporaryFile("w", suffix=".rules", delete=False, dir=Path.cwd(), encoding="utf-8")
    with handle:
        handle.write(data)
    import atexit
    import os

    atexit.register(os.unlink, handle.name)
    return handle.name


def run_show(args: argparse.Namespace) -> int:
    from interpreter.show import show

    return show(args)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_CLEAN
    except Exception as exc:  # a bug in warbook, not a user error
        if args.debug:
            traceback.print_exc()
        else:
            print(f"warbook: internal error: {type(exc).__name__}: {exc} (run with --debug for a traceback)",
                  file=sys.stderr)
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
