"""``warbook lint``: rules files, scenarios and maps checked, in ruff's formats and exit codes.

A rules file is linted by the language alone (no engine, no networkx imported); a ``.toml``
file is checked as a scenario or map by the engine's own before-play checks."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ...dsl.diagnostics import CODES, Severity, sort_diagnostics
from ...dsl.sources import MAX_FILE_BYTES, exists
from .. import render
from .common import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, expand, prefixes


def register(sub) -> None:
    lint = sub.add_parser("lint", help="check rulebooks and report diagnostics")
    lint.add_argument("paths", nargs="*", metavar="PATH", help="rules files, scenario or map files (.toml), folders, "
                      "or shipped rulebooks and scenarios by name ('-' reads stdin)")
    lint.add_argument("--format", choices=("concise", "full", "json"), default="concise")
    lint.add_argument("--select", help="only these codes or prefixes, comma separated (E,W4)")
    lint.add_argument("--ignore", help="skip these codes or prefixes, comma separated")
    lint.add_argument("--fail-level", choices=("error", "warning", "info"), default="warning",
                      help="lowest severity that makes the exit code 1 (default: warning)")
    lint.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    lint.add_argument("--explain", metavar="CODE", help="print the documentation of a code and exit")
    lint.add_argument("--list", action="store_true", help="list every code and exit")
    lint.set_defaults(run=run_lint)


def run_lint(args: argparse.Namespace) -> int:
    from ...dsl.lint import explain, iter_selected, lint_report, load_checks

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
        print(f"{info.code} {info.name} ({info.severity.label})\n\n{explain(info.code)}")
        return EXIT_CLEAN
    if not args.paths:
        print("warbook: error: lint needs at least one PATH (or --explain CODE)", file=sys.stderr)
        return EXIT_ERROR
    select, ignore = prefixes(args.select), prefixes(args.ignore)
    for prefix in (*select, *ignore):
        if not any(code.startswith(prefix.upper()) for code in CODES):
            print(f"warbook: error: no code starts with {prefix!r}", file=sys.stderr)
            return EXIT_ERROR
    diagnostics, sources, suppressed = [], {}, 0
    paths = [p for raw in args.paths for p in expand(_lint_argument(raw))]
    for raw in paths:
        path = _stdin_to_file(raw) if raw == "-" else raw
        if path.endswith(".toml"):
            from ..scenario_lint import lint_data_file  # scenarios need the engine; rules files do not

            checked = lint_data_file(path)
            sources.update(dict(checked.sources))
            diagnostics.extend(checked.diagnostics)
            continue
        report = lint_report(path)
        suppressed += report.suppressed
        if report.rulebook is not None:
            sources.update(dict(report.rulebook.sources))
        diagnostics.extend(report.diagnostics)
    shown = sort_diagnostics(iter_selected(diagnostics, [s.upper() for s in select], [i.upper() for i in ignore]))
    if args.format == "json":
        print(render.as_json(shown))
    elif args.format == "full":  # ruff's layout: a blank line after each diagnostic, then the summary
        for d in shown:
            print(render.full(d, lambda path: sources.get(path) or _source_text(path, sources)), end="\n\n")
    else:
        for d in shown:
            print(render.concise(d))
    if args.format != "json":
        counts = {s: sum(1 for d in shown if d.severity is s) for s in Severity}
        summary = ", ".join(f"{n} {s.label}{'s' if n != 1 else ''}" for s, n in sorted(counts.items(), reverse=True))
        tail = f", {suppressed} suppressed" if suppressed else ""
        print(f"{len(paths)} file{'s' if len(paths) != 1 else ''} checked: {summary}{tail}",
              file=sys.stderr)
    fail = Severity[args.fail_level.upper()]
    if any(d.severity >= fail for d in shown) and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _source_text(path: str, sources: dict) -> str | None:
    """The text of a file that did not load (a syntax error leaves no rulebook to keep it), so the
    full format can show the line; ``None`` if it cannot be read, and the header line stands alone."""
    from ...dsl.sources import SourceError, read_source

    if path not in sources:
        try:
            sources[path] = read_source(path, MAX_FILE_BYTES).removeprefix("\ufeff")
        except (SourceError, OSError, ValueError):
            sources[path] = None
    return sources[path]


def _lint_argument(raw: str) -> str:
    """A path, else a shipped rulebook's name or alias, else a shipped scenario's name."""
    if raw == "-" or exists(Path(raw)):
        return raw  # what rulebook_argument answers, without importing the catalogue
    from ..catalogue import find_scenario, rulebook_argument

    found = rulebook_argument(raw)
    if found == raw and not exists(Path(raw)) and (scenario := find_scenario(raw)) is not None:
        return str(scenario)
    return found


def _stdin_to_file(_: str) -> str:
    """Lint stdin by writing it to a temporary file (relative includes then resolve from the cwd)."""
    import tempfile

    data = sys.stdin.read(MAX_FILE_BYTES + 1)  # more is refused when read back (E004), never held whole
    handle = tempfile.NamedTemporaryFile("w", suffix=".rules", delete=False, dir=Path.cwd(), encoding="utf-8")
    with handle:
        handle.write(data)
    import atexit
    import os

    atexit.register(os.unlink, handle.name)
    return handle.name
