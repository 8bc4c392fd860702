"""``warbook show``: a rulebook's resolved declarations, for people and for programs.

What is shown is the rulebook *after* loading: includes followed, ``extends``
resolved, ``override`` merged and ``remove`` applied, so a house rule shows the
game as it will be played, not as its files are written.

- Without a NAME: an overview of every declaration, grouped by kind in the
  order of the reference (``dsl.schema.KINDS``), phases nested under their
  sequence.
- With a NAME (or ``KIND:NAME`` when a name is used by several kinds): that
  declaration.  A table prints as an aligned grid with its column headings and
  row keys as printed (``dsl.tables.display_key``/``display_cell``); a
  provisional cell shows its ``?`` mark, explained under the grid.  Other kinds
  print their label, provenance and properties as written.
- ``--json``: the public shape documented in ``docs/reference.md`` ("warbook
  show --json").  Keys may be added in later versions; the keys documented
  there are never renamed or removed.

The rendering functions are pure (rulebook in, ``str`` or ``dict`` out); only
``show`` prints.

Exit codes: 0 shown; 1 the rulebook has errors (missing file, syntax, names;
printed as ``path:line:col: CODE message`` with ``help:`` lines); 2 the NAME
matches no declaration, or more than one (printed the same way, code E101,
pointing at the rulebook).

Limits: text output does not wrap long lines, and grids are aligned by
character width (East Asian wide characters count as two), which assumes a
monospaced terminal.
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from fractions import Fraction
from typing import Any, Iterable

import attrs

from ..dsl.ast import Annotation, Span, Word
from ..dsl.diagnostics import Diagnostic, RulesError, WarbookError, diagnostic, did_you_mean
from ..dsl.loader import load_rulebook
from ..dsl.model import Declaration, Property, Provenance, Rulebook
from ..dsl.patterns import Ref, Text
from ..dsl.schema import KINDS
from ..dsl.tables import TableView, display_cell, display_key
from ..dsl.values import Dice, Odds, Range, Shift

EXIT_SHOWN, EXIT_RULES_ERRORS, EXIT_USAGE = 0, 1, 2

PROVISIONAL_MARK = "?"
"""Appended to a provisional cell in a grid: the mark the rules file itself uses."""

ANNOTATION_COLUMN = 48
"""Property lines up to this wide have their provenance aligned in one column after them."""

_GRID_PROPERTIES = ("columns", "key", "heading")
"""Table properties the grid itself shows (headings, key header, heading), so the text view omits them."""


class NameLookupError(WarbookError, LookupError):
    """A NAME on the command line matches no declaration, or more than one."""

    def __init__(self, diagnostic: Diagnostic):
        self.diagnostic = diagnostic
        super().__init__(str(diagnostic))


def show(args: argparse.Namespace) -> int:
    """Run ``warbook show RULEBOOK [NAME] [--json]``; returns the exit code."""
    try:
        rulebook = load_rulebook(args.rulebook)
    except RulesError as exc:
        _print_diagnostics(exc.diagnostics)
        return EXIT_RULES_ERRORS
    if args.name is None:
        print(_dumps(rulebook_json(rulebook)) if args.json else overview_text(rulebook, args.rulebook))
        return EXIT_SHOWN
    try:
        decl = find_declaration(rulebook, args.name)
    except NameLookupError as exc:
        _print_diagnostics([exc.diagnostic])
        return EXIT_USAGE
    print(_dumps(declaration_json(rulebook, decl)) if args.json else declaration_text(rulebook, decl))
    return EXIT_SHOWN


def _print_diagnostics(diagnostics: Iterable[Diagnostic]) -> None:
    for d in diagnostics:
        print(f"{d.span}: {d.code} {d.message}", file=sys.stderr)
        if d.hint:
            print(f"  help: {d.hint}", file=sys.stderr)


def _dumps(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


# Finding a declaration by name.

def find_declaration(rulebook: Rulebook, text: str) -> Declaration:
    """The declaration ``text`` names: ``NAME``, or ``KIND:NAME`` to choose among kinds.

    A name matches exactly first; failing that, a name or label that differs only
    in case (``CRT``, ``"Combat Results Table"``).

    Raises:
        NameLookupError: when nothing matches, or a bare name matches several kinds.
    """
    every = list(rulebook.walk())
    exact = [d for d in every if d.name == text]
    if not exact and ":" in text:
        kind, _, name = text.partition(":")
        if kind not in KINDS:
            raise NameLookupError(_lookup_error(
                rulebook, f"unknown kind {kind!r} in {text!r}",
                did_you_mean(kind, KINDS) or f"kinds are: {', '.join(sorted(KINDS))}"))
        exact = [d for d in every if d.kind == kind and d.name == name]
        if not exact:
            names = [f"{d.kind}:{d.name}" for d in every if d.kind == kind]
            raise NameLookupError(_lookup_error(
                rulebook, f"no {kind} called {name!r} in {rulebook.title!r}",
                did_you_mean(text, names) or _list_hint(f"every {kind}")))
    if not exact:
        folded = text.casefold()
        exact = [d for d in every if d.name.casefold() == folded or (d.label or "").casefold() == folded]
    if len(exact) == 1:
        return exact[0]
    if len(exact) > 1:
        choices = ", ".join(sorted(f"{d.kind}:{d.name}" for d in exact))
        raise NameLookupError(_lookup_error(
            rulebook, f"{text!r} names more than one declaration in {rulebook.title!r}", f"write one of: {choices}"))
    raise NameLookupError(_lookup_error(
        rulebook, f"no declaration called {text!r} in {rulebook.title!r}",
        did_you_mean(text, [d.name for d in every]) or _list_hint("every declaration")))


def _list_hint(what: str) -> str:
    return f"run 'warbook show RULEBOOK' without a NAME to list {what}"


def _lookup_error(rulebook: Rulebook, message: str, hint: str | None) -> Diagnostic:
    return diagnostic("E101", Span.point(rulebook.path), message, hint)


# Plain values for JSON.

def json_value(value: Any) -> Any:
    """A property value as plain JSON data.

    Whole numbers are numbers and other fractions strings (``"1/2"``), so nothing
    is rounded; names (``Ref``) and quoted text are strings; dice are their
    notation (``"2d6"``); ranges, odds and shifts are objects that keep the text
    as printed.

    >>> json_value(Fraction(1, 2)), json_value(Fraction(3)), json_value(Range(27, None, "27+"))
    ('1/2', 3, {'low': 27, 'high': None, 'text': '27+'})
    """
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if isinstance(value, (Ref, Text)):
        return str(value)
    if isinstance(value, Dice):
        return str(value)
    if isinstance(value, Range):
        return {"low": value.low, "high": value.high, "text": value.text}
    if isinstance(value, Odds):
        return {"attack": value.attack, "defence": value.defence, "text": value.text}
    if isinstance(value, Shift):
        return {"columns": value.columns, "text": value.text}
    if isinstance(value, (tuple, list)):
        return [json_value(v) for v in value]
    if attrs.has(type(value)):
        return {f.name: json_value(getattr(value, f.name)) for f in attrs.fields(type(value))}
    return str(value)


def _provenance_json(provenance: Provenance) -> dict[str, list[str]]:
    return {
        "sections": [a.text for a in provenance.sections],
        "gaps": [a.text for a in provenance.gaps],
        "errata": [a.text for a in provenance.errata],
    }


def property_json(prop: Property) -> dict[str, Any]:
    """``{"name", "text", "values", "sections", "gaps", "errata"}`` for one property line."""
    return {
        "name": prop.words[0].text,
        "text": written(prop.words),
        "values": {key: json_value(value) for key, value in prop.values},
        **_provenance_json(prop.provenance),
    }


def declaration_json(rulebook: Rulebook, decl: Declaration) -> dict[str, Any]:
    """The public JSON shape of one declaration: a table's grid, or any other kind's properties."""
    if decl.kind == "table":
        return table_json(rulebook, decl)
    return {
        "kind": decl.kind,
        "name": decl.name,
        "label": decl.label,
        **_provenance_json(decl.provenance),
        "properties": [property_json(p) for p in decl.properties],
        "children": [declaration_json(rulebook, c) for c in decl.children],
    }


def table_json(rulebook: Rulebook, decl: Declaration) -> dict[str, Any]:
    """``{"kind": "table", "name", "columns", "rows": [{"key", "cells"}]}`` plus additive keys.

    Columns, keys and cells are as printed (labels for names, no ``?`` mark);
    ``provisional`` lists the ``[row, column]`` indexes of provisional cells.
    """
    view = TableView.from_declaration(decl)
    heading, key_header = decl.first("heading"), decl.first("key")
    return {
        "kind": "table",
        "name": decl.name,
        "columns": [c.display for c in view.columns],
        "rows": [{"key": display_key(rulebook, row), "cells": [display_cell(rulebook, view, c) for c in row.cells]}
                 for row in view.rows],
        "label": decl.label,
        **_provenance_json(decl.provenance),
        "provisional": [[r, c] for r, row in enumerate(view.rows) for c, cell in enumerate(row.cells)
                        if cell.provisional],
        "heading": str(heading.get("text")) if heading else None,
        "key_header": str(key_header.get("text")) if key_header else None,
        "row_provenance": [{"row": r, **_provenance_json(row.provenance)}
                           for r, row in enumerate(view.rows) if row.provenance],
        "properties": [property_json(p) for p in decl.properties],
    }


def rulebook_json(rulebook: Rulebook) -> dict[str, Any]:
    """``{"rulebook": title, "declarations": [...]}``: every top-level declaration in resolved order."""
    return {
        "rulebook": rulebook.title,
        "path": rulebook.path,
        "declarations": [declaration_json(rulebook, d) for d in rulebook.declarations],
    }


# Text for people.

def written(words: Iterable[Word]) -> str:
    """Words as a rules file writes them: quoted text in double quotes, escapes restored."""
    return " ".join(_quote(w.text) if w.quoted else w.text for w in words)


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


def _section(text: str) -> str:
    """A section cite, quoted only when it needs to be: ``§8.4``, ``§"COMBAT PHASE"``."""
    return f"§{text}" if text and not any(ch.isspace() or ch in '{}#",:§' for ch in text) else f"§{_quote(text)}"


def _annotation(a: Annotation) -> str:
    return _section(a.text) if a.kind == "section" else f"{a.kind} {_quote(a.text)}"


def _annotations(provenance: Provenance) -> str:
    return " ".join(_annotation(a) for a in (*provenance.sections, *provenance.gaps, *provenance.errata))


def text_width(text: str) -> int:
    """Columns a string takes in a monospaced terminal.

    >>> text_width("½D½A"), text_width("e\\u0301")
    (4, 1)
    """
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
               for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - text_width(text))


def _aligned(rows: list[list[str]], separator: str = "  ") -> list[str]:
    """Rows of cells as lines with every column padded to its widest cell; no trailing spaces."""
    if not rows:
        return []
    count = max(len(r) for r in rows)
    widths = [max((text_width(r[i]) for r in rows if i < len(r)), default=0) for i in range(count)]
    return [separator.join(_pad(cell, widths[i]) for i, cell in enumerate(r)).rstrip() for r in rows]


def _title(decl: Declaration) -> str:
    label = f" {_quote(decl.label)}" if decl.label else ""
    return f"{decl.kind} {decl.name}{label}"


def _provenance_lines(provenance: Provenance) -> list[str]:
    lines = []
    if provenance.sections:
        lines.append("section  " + ", ".join(_section(a.text) for a in provenance.sections))
    lines += [f"gap      {a.text}" for a in provenance.gaps]
    lines += [f"errata   {a.text}" for a in provenance.errata]
    return lines


def _property_lines(properties: Iterable[Property]) -> list[str]:
    """Property lines as written, their provenance in a column (long lines are not padded to)."""
    rows = [(written(p.words), _annotations(p.provenance)) for p in properties]
    width = max((text_width(line) for line, _ in rows if text_width(line) <= ANNOTATION_COLUMN), default=0)
    return [_pad(line, width) + "  " + notes if notes else line for line, notes in rows]


def declaration_text(rulebook: Rulebook, decl: Declaration, indent: str = "") -> str:
    """One declaration for people: a title line, where it is declared, provenance, then properties or grid."""
    lines = [_title(decl), f"  declared at {decl.span}"]
    changed = sorted({part.span.path for part in (*decl.properties, *decl.rows, *decl.children)} - {decl.span.path})
    if changed:
        lines.append(f"  changed in {', '.join(changed)}")
    lines += [f"  {line}" for line in _provenance_lines(decl.provenance)]
    if decl.kind == "table":
        props = [p for p in decl.properties if p.name not in _GRID_PROPERTIES]
    else:
        props = list(decl.properties)
    if props:
        lines.append("")
        lines += [f"  {line}" for line in _property_lines(props)]
    if decl.kind == "table":
        lines.append("")
        lines += [f"  {line}".rstrip() for line in table_grid(rulebook, decl).splitlines()]
    for child in decl.children:
        lines.append("")
        lines += [f"  {line}".rstrip() for line in declaration_text(rulebook, child).splitlines()]
    return "\n".join(indent + line if line else line for line in lines)


def table_grid(rulebook: Rulebook, decl: Declaration) -> str:
    """A table as an aligned grid: headings, a rule, one line per row, then notes on marks and provenance."""
    view = TableView.from_declaration(decl)
    heading, key_header = decl.first("heading"), decl.first("key")
    key_title = str(key_header.get("text")) if key_header else (view.dice or "")
    width = max([len(view.columns), *(len(r.cells) for r in view.rows)])
    headings = [key_title, *(c.display for c in view.columns)]
    headings += [""] * (width + 1 - len(headings))
    body = []
    for row in view.rows:
        cells = [display_cell(rulebook, view, c) + (PROVISIONAL_MARK if c.provisional else "") for c in row.cells]
        body.append([display_key(rulebook, row), *cells, *[""] * (width - len(cells))])
    widths = [max(text_width(r[i]) for r in [headings, *body]) for i in range(width + 1)]
    rule = "-+-".join("-" * w for w in widths)
    grid = [" | ".join(_pad(cell, widths[i]) for i, cell in enumerate(r)).rstrip() for r in [headings, *body]]
    lines = []
    if heading:
        indent = widths[0] + 3
        lines.append(" " * indent + str(heading.get("text")))
    lines += [grid[0], rule, *grid[1:]] if any(headings) else grid[1:]
    if not view.rows:
        lines.append("(no rows)")
    notes = _grid_notes(rulebook, view)
    if notes:
        lines.append("")
        lines += notes
    return "\n".join(lines)


def _grid_notes(rulebook: Rulebook, view: TableView) -> list[str]:
    notes = []
    if any(c.provisional for row in view.rows for c in row.cells):
        notes.append(f"{PROVISIONAL_MARK} provisional: the source does not print this value (see the gaps)")
    shifted = [c.label for c in view.columns if c.shifted_only]
    if shifted:
        notes.append(f"used only when shifted into: {', '.join(shifted)}")
    for row in view.rows:
        if row.provenance:
            notes.append(f"row {display_key(rulebook, row)}: {_annotations(row.provenance)}")
    return notes


def _summary(decl: Declaration) -> str:
    """Sections cited and counts of gaps and errata anywhere in a declaration (its lines and rows too)."""
    provenances = [decl.provenance, *(p.provenance for p in decl.properties), *(r.provenance for r in decl.rows)]
    gaps = sum(len(p.gaps) for p in provenances)
    errata = sum(len(p.errata) for p in provenances)
    parts = [_section(a.text) for a in decl.provenance.sections]
    if gaps:
        parts.append(f"{gaps} gap{'s' if gaps != 1 else ''}")
    if errata:
        parts.append(f"{errata} errat{'a' if errata != 1 else 'um'}")
    return ", ".join(parts)


def _overview_rows(decl: Declaration, depth: int) -> list[list[str]]:
    rows = [["  " * depth + (f"{decl.kind} " if depth else "") + decl.name, decl.label or "", _summary(decl)]]
    for line in decl.all("turn") if decl.kind == "sequence" else ():  # the turn record, a row a turn
        notes = [f"weather {line.get('weather')}"] if line.get("weather") is not None else []
        rows.append(["  " * (depth + 1) + f"turn {line.get('turn')}", str(line.get("label")),
                     ", ".join([*notes, *([str(line.get("note"))] if line.get("note") is not None else [])])])
    for child in decl.children:
        rows += _overview_rows(child, depth + 1)
    return rows


def overview_text(rulebook: Rulebook, shown_path: str | None = None) -> str:
    """Every declaration, grouped by kind in reference order, one line each: name, label, provenance."""
    header = rulebook.get("rulebook", "rulebook")
    lines = [rulebook.title, f"  {shown_path or rulebook.path}"]
    if header is not None:
        lines += [f"  {line}" for line in _property_lines(header.properties)]
    order = {kind: i for i, kind in enumerate(KINDS)}
    kinds = sorted({d.kind for d in rulebook.declarations if d.kind != "rulebook"},
                   key=lambda k: (order.get(k, len(order)), k))
    for kind in kinds:
        decls = [d for d in rulebook.declarations if d.kind == kind]
        lines += ["", f"{kind} ({len(decls)})"]
        rows = [row for d in decls for row in _overview_rows(d, 0)]
        lines += [f"  {line}" for line in _aligned(rows, "   ")]
    total = sum(1 for _ in rulebook.walk())
    lines += ["", f"{total} declaration{'s' if total != 1 else ''}; "
                  f"'warbook show {shown_path or rulebook.path} NAME' shows one in full"]
    return "\n".join(lines)
