"""The canonical layout of a ``.rules`` file (``warbook fmt``), made from its tokens.

The formatter works on the text, never on the resolved model: it must keep every comment, and
every word exactly as written (``½D½A``, ``1..3``, a quoted text with its escapes).  It tokenizes
the text with the grammar's own terminals (``dsl.reader``) plus comments and line breaks, and
prints each statement again in one layout (docs/fmt.md):

- four spaces per block level; ``{`` ends its statement's line, ``}`` stands on its own line,
  an empty block is ``{}``;
- one space between words, a comma right after the word before it, ``§`` right before its
  section, the row ``:`` right after the row's key;
- provenance in one order: sections, then gaps, then errata (each kind in the order written;
  the model keeps the kinds apart, so this changes no rule);
- consecutive table rows (no blank line or comment between) aligned in columns: keys padded to
  the widest key, each cell to the widest cell of its column, as ``warbook show`` prints tables;
- blank lines as written but at most one in a row, none at the start of the file or of a block,
  none before a ``}``; a trailing comment two spaces after the code; no trailing whitespace;
  one newline at the end.

Text with a syntax error is refused (``RulesError``, the parser's diagnostics).  As Black does,
the result is parsed again and compared with the original's tree (spans aside): a layout that
changed what the text says would be a bug here, and raises ``AssertionError`` rather than
writing it.
"""

from __future__ import annotations

import re

import attrs
from attrs import frozen

from .ast import Statement
from .parser import parse_text
from .reader import ATOM, COMMENT, SPACE, STRING

INDENT = "    "
"""One block level."""

_TOKEN = re.compile(
    f"({SPACE})|({COMMENT})|(\\r?\\n)|({STRING})|({ATOM})|([{{}}:,§])|(gap|errata)")
"""One terminal of the grammar, or ignored text: the kinds below, tried in the reader's order."""
_SPACE, _COMMENT, _NL, _STRING, _ATOM, _PUNCT, _KEYWORD = range(1, 8)
_ORDER = {"§": 0, "gap": 1, "errata": 2}
"""The canonical order of provenance annotations, by marker (and by ``Annotation.kind`` below)."""
_KIND_ORDER = {"section": 0, "gap": 1, "errata": 2}


@frozen
class _Entry:
    """One line of output before rows are aligned: its depth, its code (or a row's parts), the
    comment after it, and whether a blank line comes before it."""

    depth: int
    code: str
    comment: str | None = None
    blank: bool = False
    row: tuple[str, tuple[str, ...], str] | None = None
    """A table row's key (with its ``:``), cells and annotations, for aligning."""
    opens: bool = False


def format_text(text: str, path: str = "<string>") -> str:
    """``text`` in the canonical layout.

    Raises:
        RulesError: if the text has a syntax error (the parser's positioned diagnostics).
        AssertionError: if the layout would change what the text says (a bug in this module).
    """
    before = parse_text(text, path)  # its text has no byte order mark
    out = _render(_entries(_lines(before.text)))
    after = parse_text(out, path)
    if _shape(after.statements) != _shape(before.statements):  # as Black checks its output
        raise AssertionError(f"formatting {path} would change what it says; please report this")
    return out


def is_formatted(text: str, path: str = "<string>") -> bool:
    return format_text(text, path) == text


def _lines(text: str) -> list[tuple[list[tuple[int, str]], str | None]]:
    """Each source line's code tokens (kind, text) and its comment (``None`` if it has none); a
    quoted text that goes on over lines stays one token of the line it starts on."""
    lines: list[tuple[list[tuple[int, str]], str | None]] = []
    tokens: list[tuple[int, str]] = []
    comment = None
    for found in _TOKEN.finditer(text):
        kind = found.lastindex
        if kind == _NL:
            lines.append((tokens, comment))
            tokens, comment = [], None
        elif kind == _COMMENT:
            comment = found.group().rstrip()
        elif kind != _SPACE:
            tokens.append((kind, found.group()))
    if tokens or comment is not None:
        lines.append((tokens, comment))
    return lines


def _entries(lines) -> list[_Entry]:
    """The output lines, one per statement, ``{`` or ``}`` (a line holding ``x { y`` gives two)."""
    entries: list[_Entry] = []
    depth, blanks = 0, 0
    for tokens, comment in lines:
        if not tokens and comment is None:
            blanks += 1
            continue
        first = len(entries)
        if not tokens:  # a comment on a line of its own
            entries.append(_Entry(depth, "", comment))
        at = 0
        while at < len(tokens):
            if tokens[at][1] == "}":
                depth -= 1
                previous = entries[-1] if entries else None
                if previous is not None and previous.opens and previous.comment is None and comment is None:
                    entries[-1] = _Entry(previous.depth, previous.code + "}", None, previous.blank)  # {}
                else:
                    entries.append(_Entry(depth, "}"))
                at += 1
                continue
            end = next((i for i in range(at, len(tokens)) if tokens[i] == (_PUNCT, "{")), len(tokens))
            code, row = _statement(tokens[at:end])
            if end + 1 < len(tokens) and tokens[end + 1][1] == "}":
                entries.append(_Entry(depth, code + " {}"))
                at = end + 2
                continue
            opens = end < len(tokens)
            entries.append(_Entry(depth, code + (" {" if opens else ""), row=None if opens else row, opens=opens))
            depth += opens
            at = end + 1
        if first < len(entries):  # the line's comment goes with its first statement
            blank = bool(blanks) and first > 0 and not entries[first - 1].opens and entries[first].code != "}"
            entries[first] = attrs.evolve(entries[first], comment=comment, blank=blank)
        blanks = 0
    return entries


def _statement(tokens: list[tuple[int, str]]) -> tuple[str, tuple[str, tuple[str, ...], str] | None]:
    """A statement's line (words, cells, annotations), and for a row its parts for aligning."""
    words: list[str] = []
    cells: list[str] | None = None
    notes: list[tuple[int, str]] = []
    at = 0
    while at < len(tokens):
        kind, value = tokens[at]
        if value in _ORDER and kind != _STRING and kind != _ATOM:
            shown = f"§{tokens[at + 1][1]}" if value == "§" else f"{value} {tokens[at + 1][1]}"
            notes.append((_ORDER[value], shown))
            at += 2
            continue
        target = words if cells is None else cells
        if kind == _PUNCT and value == ":":
            cells = []
            words[-1] += ":"
        elif kind == _PUNCT and value == "," and target:
            target[-1] += ","
        else:
            target.append(value)
        at += 1
    annotations = " ".join(shown for _, shown in sorted(notes, key=lambda n: n[0]))
    code = " ".join([*words, *(cells or ()), *([annotations] if annotations else [])])
    if cells is None:
        return code, None
    return code, (" ".join(words), tuple(cells), annotations)


def _render(entries: list[_Entry]) -> str:
    out: list[str] = []
    for group in _groups(entries):
        codes = _aligned(group) if len(group) > 1 else [group[0].code]
        for entry, code in zip(group, codes):
            if entry.blank:
                out.append("")
            line = INDENT * entry.depth + code if code else INDENT * entry.depth
            if entry.comment is not None:
                line = f"{line}  {entry.comment}" if code else f"{line}{entry.comment}"
            out.append(line.rstrip(" ") if "\n" not in code else line)
    return "".join(f"{line}\n" for line in out)


def _groups(entries: list[_Entry]) -> list[list[_Entry]]:
    """Runs of entries to align together: table rows one after another at one depth, with no
    blank line or comment line between (a quoted text over several lines breaks a run)."""
    groups: list[list[_Entry]] = []
    for entry in entries:
        last = groups[-1][-1] if groups else None
        if (last is not None and entry.row and last.row and entry.depth == last.depth and not entry.blank
                and "\n" not in entry.code and "\n" not in last.code):
            groups[-1].append(entry)
        else:
            groups.append([entry])
    return groups


def _aligned(rows: list[_Entry]) -> list[str]:
    key_width = max(len(r.row[0]) for r in rows)
    widths: list[int] = []
    for row in rows:
        for i, cell in enumerate(row.row[1]):
            if i == len(widths):
                widths.append(0)
            widths[i] = max(widths[i], len(cell))
    out = []
    for row in rows:
        key, cells, annotations = row.row
        parts = [key.ljust(key_width) if cells else key, *(c.ljust(widths[i]) for i, c in enumerate(cells))]
        line = " ".join(parts)  # a row's provenance lines up after its last column
        out.append(f"{line} {annotations}" if annotations else line.rstrip(" "))
    return out


def _shape(statements: tuple[Statement, ...]) -> tuple:
    """What the statements say, positions aside and provenance in the canonical order."""
    return tuple(
        (tuple((w.text, w.quoted) for w in st.words),
         None if st.cells is None else tuple((w.text, w.quoted) for w in st.cells),
         tuple((a.kind, a.text) for a in sorted(st.annotations, key=lambda a: _KIND_ORDER[a.kind])),
         None if st.block is None else _shape(st.block))
        for st in statements)

