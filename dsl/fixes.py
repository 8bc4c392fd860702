"""Applying diagnostics' fixes to a file's text (``warbook lint --fix``), as ruff applies its own.

A fix is a set of edits of spans (``dsl.diagnostics.Fix``).  ``apply_fixes`` applies, to one
file's text, the fixes whose every edit is in that file and reads there what it expects
(``Edit.old``, as written or quoted); fixes are taken in the order of their first edit, and one
that overlaps a fix already taken waits for the next pass (the caller lints again and repeats,
``MAX_PASSES`` times at most), so edits never clash.  Line breaks of the text are kept as they
are (``\\r\\n`` too).

Limits: an edit replaces a name as a whole word; a new name that is not a bare word is written
quoted.
"""

from __future__ import annotations

import re
from typing import Iterable

from .ast import Span
from .diagnostics import Diagnostic, Edit, Fix

MAX_PASSES = 10
"""How many times ``warbook lint --fix`` lints and fixes one file before it stops."""

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_BARE = re.compile(r"[A-Za-z_][A-Za-z0-9_.'-]*")


def applicable(diagnostics: Iterable[Diagnostic], unsafe: bool = False) -> list[Fix]:
    """The fixes ``--fix`` applies (safe ones), or ``--unsafe-fixes`` too (``unsafe``)."""
    return [d.fix for d in diagnostics if d.fix is not None and (d.fix.safe or unsafe)]


def apply_fixes(text: str, fixes: Iterable[Fix], is_this_file) -> tuple[str, int]:
    """``text`` with every fix applied that ``is_this_file(path)`` says is wholly in it, that reads
    as expected and that overlaps no fix applied before it; and how many were applied."""
    starts = [0, *(m.end() for m in _LINE_BREAK.finditer(text))]
    chosen: list[tuple[int, int, str]] = []
    taken: list[tuple[int, int]] = []
    applied = 0
    planned = []
    for fix in fixes:
        edits = [_locate(edit, text, starts) for edit in fix.edits if is_this_file(edit.span.path)]
        if fix.edits and len(edits) == len(fix.edits) and all(e is not None for e in edits):
            planned.append(sorted(edits))
    for edits in sorted(planned):
        if any(start < end_taken and start_taken < end for start, end, _ in edits for start_taken, end_taken in taken):
            continue
        chosen.extend(edits)
        taken.extend((start, end) for start, end, _ in edits)
        applied += 1
    for start, end, new in sorted(chosen, reverse=True):
        text = text[:start] + new + text[end:]
    return text, applied


def _locate(edit: Edit, text: str, starts: list[int]) -> tuple[int, int, str] | None:
    """(start, end, replacement) of an edit in ``text``, or ``None`` when the text there is not
    what the edit expects."""
    start, end = _offset(edit.span, starts, "start"), _offset(edit.span, starts, "end")
    if start is None or end is None or end < start:
        return None
    written = text[start:end]
    if written == edit.old and _BARE.fullmatch(edit.new):
        return start, end, edit.new
    if written in (f'"{edit.old}"', edit.old):
        return start, end, '"' + edit.new.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return None


def _offset(span: Span, starts: list[int], which: str) -> int | None:
    line, column = (span.line, span.column) if which == "start" else (span.end_line, span.end_column)
    if not 1 <= line <= len(starts) or column < 1:
        return None
    return starts[line - 1] + column - 1
