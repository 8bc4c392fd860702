"""Diagnostics: every problem a user can cause, as a value with a position.

A ``Diagnostic`` is a small frozen record (flake8's ``Violation``, ruff's JSON
fields).  Codes have a letter, a family digit and a number plus a stable
kebab-case name, all registered in one table (``CODES``) so that
``warbook lint --explain`` can document every one of them.  Families follow
DESIGN.md: ``E0`` syntax, ``E1`` names, ``E2`` tables, ``E3`` sequence, ``E4``
files and includes, ``W4`` unused or unreachable, ``W5`` table sanity, ``I6``
gaps, errata and coverage.
"""

from __future__ import annotations

import enum
import inspect
from typing import Iterable

from attrs import frozen

from .ast import Span


class Severity(enum.IntEnum):
    """How bad a finding is; ordered so that ``>=`` compares with a fail level."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    @property
    def label(self) -> str:
        return self.name.lower()


@frozen
class CodeInfo:
    """One registered diagnostic code and its documentation."""

    code: str
    name: str
    severity: Severity
    doc: str


CODES: dict[str, CodeInfo] = {}

_LETTER = {"E": Severity.ERROR, "W": Severity.WARNING, "I": Severity.INFO}


def register(code: str, name: str, doc: str) -> CodeInfo:
    """Add a code to the registry; the letter gives its severity.

    Raises:
        ValueError: if the code is malformed or registered twice under another name.
    """
    if len(code) != 4 or code[0] not in _LETTER or not code[1:].isdigit():
        raise ValueError(f"malformed diagnostic code {code!r}")
    info = CodeInfo(code, name, _LETTER[code[0]], inspect.cleandoc(doc))
    existing = CODES.get(code)
    if existing is not None and existing.name != name:
        raise ValueError(f"code {code} registered twice: {existing.name!r} and {name!r}")
    CODES[code] = info
    return info


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

    @property
    def name(self) -> str:
        info = CODES.get(self.code)
        return info.name if info else "unknown"

    def sort_key(self) -> tuple:
        return (self.span.path, self.span.line, self.span.column, self.code, self.message)

    def __str__(self) -> str:
        return f"{self.span}: {self.code} {self.message}"


def diagnostic(code: str, span: Span, message: str, hint: str | None = None) -> Diagnostic:
    """Build a diagnostic for a registered code, taking its severity from the registry."""
    info = CODES.get(code)
    if info is None:
        raise KeyError(f"unregistered diagnostic code {code!r}")
    return Diagnostic(code, info.severity, span, message, hint)


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


class InternalError(WarbookError):
    """A bug in warbook itself: the only error allowed a traceback, and only behind ``--debug``."""


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A "did you mean 'x'?" hint for a misspelt name, or ``None`` when nothing is close."""
    import difflib

    matches = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean {matches[0]!r}?" if matches else None
