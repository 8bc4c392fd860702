"""``warbook lint``: rules files, scenarios and maps checked, in ruff's formats and exit codes.

A rules file is linted by the language alone (no engine, no networkx imported); a ``.toml``
file is checked as a scenario or map by the engine's own before-play checks.  Each file is
linted under the project configuration that governs it (``dsl.config``: its search paths,
``select``/``ignore`` and ``per-file-ignores``); the one that governs the first path (or the
current folder) gives the output format and fail level.  A flag overrides the configuration's
value of the same key.  With no path, the project's ``include`` (else its root) is linted.

``--fix`` applies the safe fixes (a "did you mean" rename with exactly one close candidate),
``--unsafe-fixes`` the others too (a rename whose closest candidate is one of several), each
file rewritten atomically and linted again until nothing more applies (``dsl.fixes``).
``--watch`` lints again whenever a file it read (or a configuration) changes, by polling their
modification times; ``watch`` takes the wait between polls, so a test can step it.

Limits: ``--watch`` sees changes to the files it read, not files added to a folder later;
standard input is linted as a rules file, and is not fixed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable

from ...dsl.config import FAIL_LEVELS, OUTPUT_FORMATS, Config, config_for
from ...dsl.diagnostics import CODES, Diagnostic, RulesError, Severity, sort_diagnostics
from ...dsl.sources import MAX_FILE_BYTES, display_path, exists, is_dir
from .. import render
from .common import (EXIT_CLEAN, EXIT_FINDINGS, expand, prefixes, read_rules,
                     read_stdin, usage, write_atomically)

POLL_SECONDS = 0.5
"""How often ``--watch`` looks at the files' modification times."""
STDIN = "<stdin>"
"""How standard input is named in diagnostics when no ``--stdin-filename`` is given."""


def register(sub) -> None:
    lint = sub.add_parser("lint", help="check rulebooks and report diagnostics")
    lint.add_argument("paths", nargs="*", metavar="PATH", help="rules files, scenario or map files (.toml), folders, "
                      "or shipped rulebooks and scenarios by name ('-' reads stdin); none: the project's "
                      "(include in warbook.toml, docs/config.md)")
    lint.add_argument("--output-format", "--format", dest="output_format", choices=OUTPUT_FORMATS,
                      help="how diagnostics are printed (default: the configuration's, else concise)")
    lint.add_argument("--select", help="only these codes or prefixes, comma separated (E,W4)")
    lint.add_argument("--ignore", help="skip these codes or prefixes, comma separated")
    lint.add_argument("--fail-level", choices=FAIL_LEVELS,
                      help="lowest severity that makes the exit code 1 (default: the configuration's, else warning)")
    lint.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    lint.add_argument("--statistics", action="store_true", help="print how many of each code, not each finding")
    lint.add_argument("--fix", action="store_true", help="apply the safe fixes (rewrites files)")
    lint.add_argument("--unsafe-fixes", action="store_true", help="apply the unsafe fixes too (implies --fix)")
    lint.add_argument("--watch", action="store_true", help="lint again whenever a file read changes (Ctrl-C stops)")
    lint.add_argument("--stdin-filename", metavar="PATH", help="lint stdin as if it were this file (its includes "
                      "and configuration resolve from there)")
    lint.add_argument("--explain", metavar="CODE", help="print the documentation of a code and exit")
    lint.add_argument("--list", action="store_true", help="list every code and exit")
    lint.set_defaults(run=run_lint, brief=lambda args: not args.watch)  # brief: see cli.main


def run_lint(args: argparse.Namespace) -> int:
    from ...dsl.lint import explain, load_checks

    load_checks()
    if args.list:
        for code in sorted(CODES):
            info = CODES[code]
            print(f"{code} {info.name} ({info.severity.label})")
        return EXIT_CLEAN
    if args.explain:
        info = CODES.get(args.explain.upper())
        if info is None:
            return usage(f"unknown code {args.explain!r}; see 'warbook lint --list'")
        print(f"{info.code} {info.name} ({info.severity.label})\n\n{explain(info.code)}")
        return EXIT_CLEAN
    if args.stdin_filename and not args.paths:
        args.paths = ["-"]
    problem = _usage_problem(args)
    if problem:
        return usage(problem)
    if args.watch:
        import time

        return watch(args, lambda: time.sleep(POLL_SECONDS))
    return check(args)[0]


def _usage_problem(args: argparse.Namespace) -> str | None:
    for prefix in (*prefixes(args.select), *prefixes(args.ignore)):
        if not any(code.startswith(prefix.upper()) for code in CODES):
            return f"no code starts with {prefix!r}"
    stdin = "-" in args.paths
    if args.stdin_filename and not stdin:
        return "--stdin-filename names what stdin is: give '-' (or no path) to read it"
    if stdin and (args.fix or args.unsafe_fixes or args.watch):
        return "--fix and --watch work on files, not stdin"
    if stdin and args.stdin_filename and args.stdin_filename.endswith(".toml"):
        return "stdin is linted as a rules file: name a .rules file with --stdin-filename"
    return None


def watch(args: argparse.Namespace, wait: Callable[[], None], polls: int | None = None) -> int:
    """Lint, then after each ``wait()`` lint again if a file read has changed; ``polls`` bounds
    how many times it waits (``None``: until interrupted).  The last exit code."""
    code, watched = check(args)
    stamps = _stamps(watched)
    done = 0
    while polls is None or done < polls:
        wait()
        done += 1
        if _stamps(watched) != stamps:
            print("warbook: a file changed; linting again", file=sys.stderr)
            code, watched = check(args)
            stamps = _stamps(watched)
    return code


def _stamps(paths: set[Path]) -> dict[Path, tuple[int, int] | None]:
    """Each file's modification time and size (``None`` when it is gone)."""
    out: dict[Path, tuple[int, int] | None] = {}
    for path in paths:
        try:
            info = path.stat()
            out[path] = (info.st_mtime_ns, info.st_size)
        except (OSError, ValueError):
            out[path] = None
    return out


class _Configs:
    """The configuration of each folder, found once; each configuration's problems reported once."""

    def __init__(self) -> None:
        self.by_folder: dict[Path, tuple[Config, list[Diagnostic]]] = {}

    def of(self, path: str | Path) -> tuple[Config, list[Diagnostic]]:
        """The configuration governing ``path`` (a file, maybe not yet written, or a folder)."""
        where = Path(path).resolve()
        folder = where if is_dir(where) else where.parent
        if folder not in self.by_folder:
            self.by_folder[folder] = config_for(folder)
        return self.by_folder[folder]

    def problems(self) -> list[Diagnostic]:
        return [d for _, found in self.by_folder.values() for d in found]


def check(args: argparse.Namespace) -> tuple[int, set[Path]]:
    """Lint once, print, and say which files were read (for ``--watch``); the exit code."""
    configs = _Configs()
    first = args.stdin_filename or next((p for p in args.paths if p != "-"), None)
    project, _ = configs.of(first or Path.cwd())
    if args.paths:
        paths = [p for raw in args.paths for p in expand(_lint_argument(raw))]
    else:
        paths = [p for target in (project.include or (project.root,)) for p in expand(str(target))]
        paths = [display_path(p) for p in paths]
    fixed = 0
    diagnostics: list[Diagnostic] = []
    sources: dict[str, str | None] = {}
    suppressed = 0
    watched: set[Path] = set()
    for raw in paths:
        path = args.stdin_filename or STDIN if raw == "-" else raw
        config, _ = configs.of(path)
        if config.path is not None:
            watched.add(config.path)
        if path.endswith(".toml"):
            from ..scenario_lint import lint_data_file  # scenarios need the engine; rules files do not

            checked = lint_data_file(path)
            sources.update(dict(checked.sources))
            found = list(checked.diagnostics)
            watched.update(Path(p).resolve() for p in (path, *dict(checked.sources)))
        else:
            if args.fix or args.unsafe_fixes:
                fixed += _fix_file(path, config, args)
            try:
                texts = {Path(path).resolve(): read_stdin()} if raw == "-" else None
            except RulesError as exc:
                diagnostics.extend(exc.diagnostics)
                continue
            report = _lint_rules(path, config, texts)
            suppressed += report.suppressed
            if report.rulebook is not None:
                sources.update(dict(report.rulebook.sources))
                watched.update(Path(p).resolve() for p, _ in report.rulebook.sources if p != path or raw != "-")
            elif raw != "-":
                watched.add(Path(path).resolve())
            found = list(report.diagnostics)
        diagnostics.extend(_selected(found, config, args))
    shown = sort_diagnostics([*diagnostics, *configs.problems()])  # a configuration cannot silence its own problems
    output_format = args.output_format or project.output_format or "concise"
    _print(shown, output_format, args.statistics, sources)
    if output_format != "json":
        _summary(shown, len(paths), suppressed, fixed, fixing=args.fix or args.unsafe_fixes)
    fail = Severity[(args.fail_level or project.fail_level or "warning").upper()]
    if any(d.severity >= fail for d in shown) and not args.exit_zero:
        return EXIT_FINDINGS, watched
    return EXIT_CLEAN, watched


def _lint_rules(path: str, config: Config, texts=None):
    from ...dsl.lint import lint_report

    return lint_report(path, texts=texts, search_paths=config.search_paths)


def _selected(diagnostics, config: Config, args: argparse.Namespace) -> list[Diagnostic]:
    """The diagnostics the flags (else the configuration) select, less the file's own ignores."""
    from ...dsl.lint import iter_selected

    select = [s.upper() for s in prefixes(args.select)] or list(config.select)
    ignore = [i.upper() for i in prefixes(args.ignore)] or list(config.ignore)
    kept = iter_selected(diagnostics, select, ignore)
    if not config.per_file_ignores:
        return list(kept)
    return [d for d in kept if not any(d.code.startswith(c) for c in config.ignored_codes(d.span.path))]


def _fix_file(path: str, config: Config, args: argparse.Namespace) -> int:
    """Apply the fixes of ``path``'s diagnostics to it until none is left (or ``MAX_PASSES``);
    how many were applied.  A file that cannot be read or written is left to the lint to report."""
    from ...dsl.fixes import MAX_PASSES, applicable, apply_fixes

    target = Path(path).resolve()
    applied = 0
    for _ in range(MAX_PASSES):
        fixes = applicable(_selected(_lint_rules(path, config).diagnostics, config, args), args.unsafe_fixes)
        try:
            text = read_rules(path)
        except RulesError:
            break
        new, count = apply_fixes(text, fixes, lambda shown: Path(shown).resolve() == target)
        if not count or new == text:
            break
        try:
            write_atomically(target, new)
        except OSError as exc:
            print(f"warbook: error: cannot write {path!r}: {exc.strerror or exc}", file=sys.stderr)
            break
        applied += count
    return applied


def _print(shown: list[Diagnostic], output_format: str, statistics: bool, sources: dict) -> None:
    if statistics:
        rows = render.statistics(shown)
        text = render.statistics_json(rows) if output_format == "json" else render.statistics_text(rows)
        if text:
            print(text)
    elif output_format == "json":
        print(render.as_json(shown))
    elif output_format == "sarif":
        from ... import __version__
        from ...dsl.lint import explain
        from ..render_sarif import as_sarif

        print(as_sarif(shown, __version__, explain))
    elif output_format == "github":
        for d in shown:
            print(render.github(d))
    elif output_format == "full":  # ruff's layout: a blank line after each diagnostic, then the summary
        for d in shown:
            print(render.full(d, lambda path: sources.get(path) or _source_text(path, sources)), end="\n\n")
    else:
        for d in shown:
            print(render.concise(d))


def _summary(shown: list[Diagnostic], files: int, suppressed: int, fixed: int, fixing: bool) -> None:
    counts = {s: sum(1 for d in shown if d.severity is s) for s in Severity}
    summary = ", ".join(f"{n} {s.label}{'s' if n != 1 else ''}" for s, n in sorted(counts.items(), reverse=True))
    tail = f", {suppressed} suppressed" if suppressed else ""
    tail += f", {fixed} fixed" if fixing else ""
    print(f"{files} file{'s' if files != 1 else ''} checked: {summary}{tail}", file=sys.stderr)
    safe = sum(1 for d in shown if d.fix is not None and d.fix.safe)
    unsafe = sum(1 for d in shown if d.fix is not None and not d.fix.safe)
    if (safe or unsafe) and not fixing:
        more = f" ({unsafe} more with --unsafe-fixes)" if unsafe else ""
        print(f"[*] {safe} fixable with --fix{more}", file=sys.stderr)


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
