"""Rendering diagnostics for people and programs: concise, full (with carets), JSON, GitHub
annotations and statistics (SARIF: ``render_sarif``).

Formats follow ruff: ``concise`` is ``path:line:col: CODE message``; ``full``
adds the source line, a caret under the span and ``help:``; ``json`` is a list
of objects with ruff's field names and sorted keys; ``github`` is one workflow
command per diagnostic (``::error file=…,line=…::message``), which GitHub Actions
shows as an annotation on the line; ``statistics`` counts each code.
"""

from __future__ import annotations

from typing import Callable, Iterable

from ..dsl.diagnostics import Diagnostic, Severity

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
            "fix": None if d.fix is None else {
                "applicability": "safe" if d.fix.safe else "unsafe",
                "message": d.fix.title,
                "edits": [{"content": e.new, "location": {"row": e.span.line, "column": e.span.column},
                           "end_location": {"row": e.span.end_line, "column": e.span.end_column}}
                          for e in d.fix.edits],
            },
        }
        for d in diagnostics
    ]
    import json  # here, not at the top: only --format json needs it

    return json.dumps(items, indent=2, sort_keys=True, ensure_ascii=False)


GITHUB_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
"""The workflow command of each severity."""


def github(d: Diagnostic) -> str:
    """A GitHub Actions annotation: ``::error file=…,line=…,col=…,endLine=…,endColumn=…,title=CODE::message``."""
    place = {"file": d.span.path, "line": d.span.line, "col": d.span.column, "endLine": d.span.end_line,
             "endColumn": d.span.end_column, "title": d.code}
    properties = ",".join(f"{key}={_escape(str(value), True)}" for key, value in place.items())
    text = d.message + (f"\nhelp: {d.hint}" if d.hint else "")
    return f"::{GITHUB_LEVELS[d.severity]} {properties}::{_escape(text)}"


def _escape(text: str, is_property: bool = False) -> str:
    """Escape for a workflow command (as the Actions toolkit does): ``%``, line breaks, and in a
    property ``:`` and ``,``."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if is_property else text


def statistics(diagnostics: Iterable[Diagnostic]) -> list[tuple[str, str, int, bool]]:
    """(code, name, count, fixable) for each code found, most frequent first (then by code)."""
    counts: dict[str, list] = {}
    for d in diagnostics:
        row = counts.setdefault(d.code, [d.name, 0, False])
        row[1] += 1
        row[2] = row[2] or d.fix is not None
    return sorted(((code, name, n, fixable) for code, (name, n, fixable) in counts.items()),
                  key=lambda row: (-row[2], row[0]))


def statistics_text(rows: list[tuple[str, str, int, bool]]) -> str:
    """ruff's ``--statistics`` table: count, code, ``[*]`` when some are fixable, name."""
    width = max((len(str(n)) for _, _, n, _ in rows), default=1)
    return "\n".join(f"{n:>{width}}\t{code}\t{'[*] ' if fixable else ''}{name}" for code, name, n, fixable in rows)


def statistics_json(rows: list[tuple[str, str, int, bool]]) -> str:
    import json

    return json.dumps([{"code": code, "name": name, "count": n, "fixable": fixable} for code, name, n, fixable in rows],
                      indent=2, sort_keys=True)
