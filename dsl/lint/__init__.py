"""The linter: loading diagnostics plus one small check function per code.

Each check is registered with ``@check(code, name)``, which verifies the code
and name against the table of codes (``dsl.codes``); its docstring is the
user documentation printed by ``warbook lint --explain CODE`` (ruff's
template: what it does, why it is bad, example).  Checks are questions about
the resolved model, kept out of the model classes, one family per module:

- ``names``     E1xx  names and references beyond what loading checks
- ``tables``    E2xx  table structure: column headings, cell counts, empty tables
- ``rows``      E2xx  die-roll rows: every roll finds one row, the dice are known
- ``cells``     E2xx  cell contents: results, events, numbers, provisional cells
- ``contexts``  E2xx  what a combat result's effects and conditions may do
- ``sequence``  E3xx  sequence of play
- ``unused``    W4xx  unused or unreachable declarations
- ``sanity``    W5xx  table sanity under the rulebook's own ordering of results
- ``coverage``  I6xx  gaps, errata, sections with no encoded rule
- ``steps``     E138, E226, W511: multi-step counters (their step lines, and the effects on steps)
- ``hexsides``  E139: what map features on cell sides do (crossing costs)
- ``awards``    E155: what an award's points are read from
- ``exits``     E156, E157: the ways off the map
- ``forces``    E331, W421: how a force moves (drop-offs, going on past markers)
- ``control``   E145–E149, E235, E236, W414: control, tracing, lasting side states and the victory
  forms that read them
- ``after_combat`` E140-E144, W512-W514: advance after combat, the combat's retreat lines, statuses
- ``turns``     E325, W417: the turn record and the weather
- ``combat_model`` E230-E233, W515: a combat's model lines (what ``do fight`` offers), locking zones

Suppressions: a comment ``# lint: ignore[W401]`` (codes or prefixes, comma
separated) on a declaration's first line, or alone on the line just before it,
silences those codes for that declaration only.  An unknown code in a
suppression is itself reported (W490).

Limits: the linter does not evaluate ``when`` conditions or scenario files, so
W4xx may call something unused that only a scenario refers to.
"""

from __future__ import annotations

import importlib
import inspect
import re
import sys
import types
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Callable, Iterable, Iterator, NamedTuple

from attrs import frozen

from ..ast import Span
from ..diagnostics import CODES, Diagnostic, diagnostic, sort_diagnostics, verify_code
from ..collector import full_collections_paused, gc_paused
from ..loader import Parse, load_with_diagnostics
from ..parser import parse_text
from ..model import Declaration, Rulebook

Check = Callable[[Rulebook], Iterable[Diagnostic]]


class RegisteredCheck(NamedTuple):
    """A check in the registry (a plain tuple: built once per check at import, read by this module only)."""

    code: str
    name: str
    function: Check


CHECKS: dict[str, RegisteredCheck] = {}

FAMILIES = ("names", "tables", "rows", "cells", "contexts", "sequence", "unused", "sanity", "coverage", "steps",
            "hexsides", "awards", "control", "after_combat", "turns", "combat_model", "exits", "forces")


def check(code: str, name: str) -> Callable[[Check], Check]:
    """Register a lint check for a code of the table; its docstring documents the code.

    Raises:
        ValueError: if the table does not have the code under that name, or documents it
            itself (a check's code is documented by the check).
    """
    info = verify_code(code, name)
    if info.text is not None:
        raise ValueError(f"{code} is documented in the table; a lint check's docstring documents its code")

    def decorate(function: Check) -> Check:
        CHECKS[code] = RegisteredCheck(code, name, function)
        return function

    return decorate


def explain(code: str) -> str:
    """What ``warbook lint --explain CODE`` prints: the table's text, else the docstring of the
    lint check that reports the code (every check loaded first).

    Raises:
        KeyError: for a code not in the table.
    """
    info = CODES[code]
    if info.text is not None:
        return info.text
    load_checks()
    return inspect.getdoc(CHECKS[code].function) or ""


def load_checks() -> None:
    """Import every family module so their checks register (the collector paused: what they
    build, their record classes, lives as long as the process; ``dsl.collector``)."""
    with gc_paused():
        for family in FAMILIES:
            try:
                importlib.import_module(f"{__name__}.{family}")
            except ModuleNotFoundError as exc:
                if exc.name != f"{__name__}.{family}":
                    raise


_SUPPRESSION = re.compile(r"#\s*lint:\s*ignore\[([^\]]*)\]")


class Suppression(NamedTuple):
    """A ``# lint: ignore[...]`` comment and the lines it covers (read by this module only)."""

    span: Span
    codes: tuple[str, ...]
    first_line: int
    last_line: int


def _suppressions(rulebook: Rulebook) -> tuple[list[Suppression], list[Diagnostic]]:
    starts: dict[tuple[str, int], Declaration] | None = None  # built at the first comment
    out, problems = [], []
    for path, text in rulebook.sources:
        for number, line in _lines_naming_lint(text):
            m = _SUPPRESSION.search(line)
            if not m:
                continue
            if starts is None:
                starts = {}
                for decl in rulebook.walk():
                    starts.setdefault((decl.span.path, decl.span.line), decl)
            codes = tuple(c.strip() for c in m.group(1).split(",") if c.strip())
            span = Span(path, number, m.start() + 1, number, m.end() + 1)
            for code in codes:
                if not any(known.startswith(code) for known in CODES):
                    problems.append(diagnostic("W490", span, f"unknown code {code!r} in suppression"))
            # A comment alone on its line covers the declaration that starts on the next line; a
            # trailing comment covers only the declaration starting on its own line (or that line).
            alone = not line[: m.start()].strip()
            target = starts.get((path, number)) or (starts.get((path, number + 1)) if alone else None)
            if target is None:
                out.append(Suppression(span, codes, number, number))
            else:
                out.append(Suppression(span, codes, target.span.line, target.span.end_line))
    return out, problems


_OTHER_BREAKS = re.compile(r"\r(?!\n)|[\v\f\x1c-\x1e\x85\u2028\u2029]")
"""What ``str.splitlines`` ends a line at besides ``\n`` and ``\r\n`` (text that parses has none)."""


def _lines_naming_lint(text: str) -> Iterator[tuple[int, str]]:
    """(number, text) of each line of ``text`` holding ``lint:``, as ``str.splitlines`` numbers
    them: a suppression is found without splitting the whole text into lines (a 22,000-line
    rulebook made as many strings, for the few lines that have a comment)."""
    at = text.find("lint:")
    if at != -1 and _OTHER_BREAKS.search(text):
        yield from ((n, line) for n, line in enumerate(text.splitlines(), start=1) if "lint:" in line)
        return
    number, counted = 1, 0
    while at != -1:
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        end = len(text) if end == -1 else end
        number += text.count("\n", counted, start)
        counted = start
        yield number, text[start:end].removesuffix("\r")
        at = text.find("lint:", end)


def _is_suppressed(d: Diagnostic, suppressions: list[Suppression]) -> bool:
    return any(s.span.path == d.span.path and s.first_line <= d.span.line <= s.last_line
               and any(d.code.startswith(c) for c in s.codes) for s in suppressions)


@frozen
class LintReport:
    diagnostics: tuple[Diagnostic, ...]
    suppressed: int
    rulebook: Rulebook | None


def lint_rulebook(rulebook: Rulebook, loading: Iterable[Diagnostic] = ()) -> LintReport:
    """Run every check on a loaded rulebook, apply suppressions, sort."""
    from .lookups import forget_lookups  # (here: importing the package loads no module of checks)

    load_checks()
    found: list[Diagnostic] = list(loading)
    try:
        for registered in CHECKS.values():
            found.extend(registered.function(rulebook))
    finally:
        forget_lookups()  # the checks' shared lookups (``lookups.per_rulebook``) serve this run only
    suppressions, problems = _suppressions(rulebook)
    kept = [d for d in found if not _is_suppressed(d, suppressions)]
    return LintReport(tuple(sort_diagnostics([*kept, *problems])), len(found) - len(kept), rulebook)


def lint_report(path, parse: Parse = parse_text, texts: Mapping[Path, str] | None = None,
                search_paths: Sequence[Path] | None = None) -> LintReport:
    """Load and lint the rulebook at ``path``; never raises for bad input.  ``parse``, ``texts`` and
    ``search_paths`` are the loader's (``dsl.loader.load_with_diagnostics``; ``dsl.lint.linter.Linter``
    keeps trees)."""
    load_checks()
    with full_collections_paused():
        rulebook, loading = load_with_diagnostics(path, parse, texts, search_paths)
        if rulebook is None:
            return LintReport(tuple(sort_diagnostics(loading)), 0, None)
        return lint_rulebook(rulebook, loading)


def lint_path(path) -> list[Diagnostic]:
    return list(lint_report(path).diagnostics)


def iter_selected(diagnostics: Iterable[Diagnostic], select: Iterable[str] = (),
                  ignore: Iterable[str] = ()) -> Iterator[Diagnostic]:
    """Filter by code prefixes, as ruff and flake8 do: ``--select E,W4 --ignore W401``."""
    select, ignore = tuple(select), tuple(ignore)
    for d in diagnostics:
        if select and not any(d.code.startswith(p) for p in select):
            continue
        if any(d.code.startswith(p) for p in ignore):
            continue
        yield d


class _CallableModule(types.ModuleType):
    """Lets ``dsl.lint(path)`` stay the public API although ``dsl.lint`` is also this package.

    Importing a submodule rebinds the package attribute ``dsl.lint`` to the module, which would
    shadow a ``lint`` function defined in ``dsl/__init__.py``; a callable module keeps both working.
    """

    def __call__(self, path) -> list[Diagnostic]:
        return lint_path(path)


sys.modules[__name__].__class__ = _CallableModule
