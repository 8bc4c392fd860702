"""Diagnostics: every problem a user can cause, as a value with a position.

A ``Diagnostic`` is a small frozen record (flake8's ``Violation``, ruff's JSON
fields).  Codes have a letter, a family digit and a number plus a stable
kebab-case name, all in one static table (``dsl.codes``, indexed here as
``CODES``) so that ``warbook lint --explain`` can document every one of them
whichever modules were imported.  Families follow DESIGN.md: ``E0`` syntax and
files, ``E1`` names, ``E2`` tables, ``E3`` sequence, ``W4`` unused or
unreachable, ``W5`` table sanity, ``I6`` gaps, errata and coverage; ``E7``/``W7``
maps and scenarios, ``E8`` play.
"""

from __future__ import annotations

from typing import Iterable

from attrs import frozen

from .ast import Span
from .codes import CODES_BY_CODE, CodeInfo, Severity


CODES: dict[str, CodeInfo] = {c: info for c, info in CODES_BY_CODE.items() if not info.retired}
"""Every code that may be reported, complete on import (the table is ``dsl.codes``)."""

RETIRED: dict[str, CodeInfo] = {c: info for c, info in CODES_BY_CODE.items() if info.retired}
"""Codes no longer reported; kept so that they are never reused."""


def verify_code(code: str, name: str) -> CodeInfo:
    """The table's row for ``code``, checking that the table calls it ``name``.

    Codes are defined once, in ``dsl.codes``; a module that reports a code verifies it
    here, so that a code or name the table does not know fails on import.

    >>> verify_code("E101", "unknown-name").severity.label
    'error'

    Raises:
        ValueError: if the code is not in the table, is retired, or has another name there.
    """
    info = CODES_BY_CODE.get(code)
    if info is None:
        raise ValueError(f"diagnostic code {code!r} is not in the table (dsl/codes.py)")
    if info.retired:
        raise ValueError(f"diagnostic code {code} ({info.name}) is retired and must not be reused")
    if info.name != name:
        raise ValueError(f"diagnostic code {code} is called {info.name!r} in the table, not {name!r}")
    return info


def register(code: str, name: str, doc: str = "") -> CodeInfo:
    """``verify_code`` for modules that still pass their documentation; ``doc`` is ignored.

    The documentation ``--explain`` prints is the table's, which must not depend on
    which modules were imported.

    Raises:
        ValueError: as ``verify_code``.
    """
    return verify_code(code, name)


@frozen
class Edit:
    """Replace the text ``old`` written at ``span`` by ``new`` (a fix's one change to a file)."""

    span: Span
    old: str
    """The text the edit expects at ``span`` (a name, maybe quoted there); the edit is not applied
    to a file where it reads otherwise."""
    new: str


@frozen
class Fix:
    """A change that would make a diagnostic go away, as ruff's ``Fix``: edits of spans, and whether
    ``warbook lint --fix`` may apply it (``safe``) or only ``--unsafe-fixes`` (docs/config.md)."""

    title: str
    """What it does, for people: "rename 'swmap' to 'swamp'"."""
    edits: tuple[Edit, ...]
    safe: bool


def rename_fix(name: str, candidates: Iterable[str], span: Span) -> Fix | None:
    """The "did you mean" of ``did_you_mean`` as a fix: rename ``name`` at ``span`` to the closest
    candidate; safe only when no other candidate is close (otherwise the closest may be the wrong
    one), ``None`` when nothing is close."""
    import difflib

    matches = difflib.get_close_matches(name, sorted(set(candidates)), n=2, cutoff=0.6)
    if not matches:
        return None
    return Fix(f"rename {name!r} to {matches[0]!r}", (Edit(span, name, matches[0]),), safe=len(matches) == 1)


@frozen(order=False)
class Diagnostic:
    """One finding: a code, where it is, and what to do about it."""

    code: str
    severity: Severity
    span: Span
    message: str
    """One sentence, lowercase, no trailing period, naming the thing in quotes."""
    hint: str | None = None
    """What to do instead (ruff's ``help:``), e.g. "did you mean 'swamp'?"."""
    fix: Fix | None = None
    """The change that would make it go away, if warbook knows one (``warbook lint --fix``)."""

    @property
    def name(self) -> str:
        info = CODES.get(self.code)
        return info.name if info else "unknown"

    def sort_key(self) -> tuple:
        return (self.span.path, self.span.line, self.span.column, self.code, self.message)

    def __str__(self) -> str:
        return f"{self.span}: {self.code} {self.message}"


def diagnostic(code: str, span: Span, message: str, hint: str | None = None, fix: Fix | None = None) -> Diagnostic:
    """Build a diagnostic for a code of the table, taking its severity from the code's letter."""
    info = CODES.get(code)
    if info is None:
        state = "retired" if code in RETIRED else "unregistered"
        raise KeyError(f"{state} diagnostic code {code!r}")
    return Diagnostic(code, info.severity, span, message, hint, fix)


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Deterministic order for output and goldens: path, line, column, code."""
    return sorted(set(diagnostics), key=Diagnostic.sort_key)


class WarbookError(Exception):
    """Base of every error warbook raises on purpose."""


class RulesError(WarbookError, ValueError):
    """The rules or scenario text is bad; carries every diagnostic found (sqlglot's ``ParseError.errors``)."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = sort_diagnostics(diagnostics)
        first = self.diagnostics[0] if self.diagnostics else None
        super().__init__(str(first) if first else "invalid rules")

    def __reduce__(self):
        """Pickled with its diagnostics (a study's worker sends it to the study's process)."""
        return type(self), (self.diagnostics,)


class InternalError(WarbookError):
    """A bug in warbook itself: the only error allowed a traceback, and only behind ``--debug``."""


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A "did you mean 'x'?" hint for a misspelt name, or ``None`` when nothing is close."""
    import difflib

    matches = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean {matches[0]!r}?" if matches else None
