"""Rendering diagnostics for people and programs: concise, full (with carets) and JSON.

Formats follow ruff: ``concise`` is ``path:line:col: CODE message``; ``full``
adds the source line, a caret under the span and ``help:``; ``json`` is a list
of objects with ruff's field names and sorted keys.
"""

from __future__ import annotations

from typing import Callable, Iterable

from ..dsl.diagnostics import Diagnostic

TAB_SIZE = 4
"""Tabs in a source line are shown as this many columns in the ``full`` format."""


def concise(d: Diagnostic) -> str:
    return f"{d.span}: {d.code} {d.message}"


def full(d: Diagnostic, source: Callable[[str], str | None]) -> str:
    lines = [f"{concise(d)} [{d.name}]"]
    text = source(d.span.path)
    if text is not None:
        source_lines = text.splitlines()
        if 1 <= d.span.line <= len(source_lines):
            line = source_lines[d.span.line - 1]
            width = (d.span.end_column - d.span.column) if d.span.end_line == d.span.line else len(line) - d.span.column + 1
            # Columns count a tab as one character; expand tabs so the caret stays under the span.
            start = len(line[: d.span.column - 1].expandtabs(TAB_SIZE))
            end = len(line[: d.span.column - 1 + max(width, 0)].expandtabs(TAB_SIZE))
            gutter = f"{d.span.line:>4} | "
            lines.append(gutter + line.expandtabs(TAB_SIZE))
            lines.append(" " * (len(gutter) + start) + "^" * max(end - start, 1))
    if d.hint:
        lines.append(f"  help: {d.hint}")
    return "\n".join(lines)


def as_json(diagnostics: Iterable[Diagnostic]) -> str:
    items = [
        {
            "code": d.code,
            "name": d.name,
            "severity": d.severity.label,
            "message": d.message,
            "hint": d.hint,
            "filename": d.span.path,
            "location": {"row": d.span.line, "column": d.span.column},
            "end_location": {"row": d.span.end_line, "column": d.span.end_column},
        }
        for d in diagnostics
    ]
    import json  # here, not at the top: only --format json needs it

    return json.dumps(items, indent=2, sort_keys=True, ensure_ascii=False)
