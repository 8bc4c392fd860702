"""The grammar (``dsl/grammar.lark``) read by hand, for text without syntax errors.

A ``warbook lint`` run spends most of its time importing Lark and parsing with it; the
grammar is small and regular (statements of words, ``:`` cells, annotations, ``{ }``
blocks), so ``read`` reads it with one regular expression and a loop.  It answers only for
text the grammar accepts and gives then the very tree Lark gives (``dsl.lalr`` builds its
nodes with this module's functions); at the first thing it does not expect it answers
``None``, and ``dsl.parser`` parses the text again with Lark, whose errors make the
diagnostics.  ``tests/dsl/test_reader.py`` checks both against each other, terminal by
terminal and on generated text.

The terminals are Lark's, tried in Lark's order (``ATOM`` before the keywords ``gap`` and
``errata``, which it never matches whole): wherever a terminal this reader takes is one the
grammar allows, Lark's contextual lexer takes the same one.
"""

from __future__ import annotations

import re

from .ast import Annotation, Span, Statement, Word

ATOM = r'(?!gap\b|errata\b)[^\s{}#",:§]++(?::[^\s{}#",:§]++)*+'
STRING = r'"[^"\\]*+(?:\\.[^"\\]*+)*+"'
NEWLINE = r"(?:\r?\n[\t \f]*+(?:#[^\n]*+)?+)++"
COMMENT = r"#[^\n]*"
SPACE = r"[\t \f]+"
"""The grammar's terminals and ignored text, as written in ``grammar.lark`` (a test compares)."""

_TOKENS = re.compile(
    f"(?:{SPACE}|{COMMENT})*+(?:({NEWLINE})|({STRING})|({ATOM})"
    r"|(\{)|(\})|(:)|(,)|(§)|(gap)|(errata)|(\Z)|([\s\S]))")
"""One terminal, after any ignored text; the group that matched is the terminal's kind.  The
last two groups make every position match (the end of the text, after ignored text, or any
character no terminal starts with), so the matches follow each other without a gap."""
_NL, _STRING, _ATOM, _OPEN, _CLOSE, _COLON, _COMMA, _SECTION, _GAP, _ERRATA, _END, _OTHER = range(1, 13)
_KINDS = {_SECTION: "section", _GAP: "gap", _ERRATA: "errata"}
_WORDS = frozenset((_ATOM, _STRING, _COMMA))
"""What a statement's words and cells are made of (a comma only separates)."""


def unescape(raw: str) -> str:
    """A quoted string's contents: the quotes dropped, ``\\n`` and ``\\t`` read, any other
    escaped character kept as itself."""
    body = raw[1:-1]
    if "\\" not in body:
        return body
    out, i = [], 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def statement(path: str, words: tuple[Word, ...], cells: tuple[tuple[Word, ...], Span] | None,
              annotations: tuple[Annotation, ...], block: tuple[tuple[Statement, ...], Span] | None) -> Statement:
    """A statement from its parts (``cells`` and ``block`` with their spans): it spans from its
    first word to the end of whichever part ends last, which is the last written (the parts
    follow each other in the text; a row without cells counts with no position)."""
    if block:
        last = block[1]
    elif annotations:
        last = annotations[-1].span
    elif cells and cells[0]:
        last = cells[1]
    else:
        last = words[-1].span
    first = words[0].span
    span = Span(path, first.line, first.column, last.end_line, last.end_column)
    return Statement(span, words, cells[0] if cells else None, annotations, block[0] if block else None)


def cells_span(path: str, words: tuple[Word, ...]) -> Span:
    """The span a row's cells count with in their statement's: the last cell's (a row without
    cells counts with the file's first position, so never as its statement's end)."""
    return Span.point(path, 1, 1) if not words else words[-1].span


def _terminals(text: str, path: str) -> tuple[list[int], list] | None:
    """The kind of each terminal, ending with ``_END``, and beside it its ``Word``, or for a
    brace where its block starts or ends (line, column), ``None`` for the others; ``None``
    where no terminal matches."""
    kinds: list[int] = []
    found_at: list = []
    kind_of, at = kinds.append, found_at.append
    line, base = 1, -1  # the column of the character at offset o is o - base
    for found in _TOKENS.finditer(text):
        kind = found.lastindex
        kind_of(kind)
        if kind == _ATOM:
            begin, end = found.span(kind)
            at(Word(Span(path, line, begin - base, line, end - base), found[kind]))
        elif kind == _NL:
            value = found[kind]
            line, base = line + value.count("\n"), found.start(kind) + value.rindex("\n")
            at(None)
        elif kind == _STRING:  # a quoted text may go on over lines
            value = found[kind]
            begin, end = found.span(kind)
            newlines = value.count("\n")
            column = begin - base
            if newlines:
                base = begin + value.rindex("\n")
            body = value[1:-1]
            at(Word(Span(path, line, column, line + newlines, end - base),
                    body if "\\" not in body else unescape(value), True))
            line += newlines
        elif kind == _OPEN or kind == _CLOSE:  # a block's span starts at its '{' and ends after its '}'
            at((line, found.start(kind) - base + (kind == _CLOSE)))
        elif kind == _OTHER:
            return None
        else:
            at(None)
            if kind == _END:
                break
    return kinds, found_at


def read(text: str, path: str) -> list[Statement] | None:
    """The statements of ``text`` (which ends with a newline), as Lark's parse with
    ``dsl.lalr``'s transformer gives them; ``None`` if the grammar does not accept it."""
    terminals = _terminals(text, path)
    if terminals is None:
        return None
    kinds, found = terminals
    words_kinds = _WORDS
    at = 1 if kinds[0] == _NL else 0
    out: list[Statement] = []
    open_blocks: list[tuple[list[Statement], tuple, tuple[int, int]]] = []  # statements around, parts, '{'
    while True:
        kind = kinds[at]
        if kind == _END:
            return out if not open_blocks else None
        if kind == _CLOSE:
            if not open_blocks:
                return None
            inner, close = out, found[at]
            out, (words, cells, annotations), opened = open_blocks.pop()
            block = (tuple(inner), Span(path, *opened, *close))
            if kinds[at + 1] != _NL:
                return None
            out.append(statement(path, words, cells, annotations, block))
            at += 2
            continue
        if kind != _ATOM and kind != _STRING:
            return None
        words = [found[at]]
        at += 1
        while kinds[at] in words_kinds:
            if kinds[at] != _COMMA:
                words.append(found[at])
            at += 1
        cells = None
        if kinds[at] == _COLON:
            cell_words = []
            at += 1
            while kinds[at] in words_kinds:
                if kinds[at] != _COMMA:
                    cell_words.append(found[at])
                at += 1
            cells = (tuple(cell_words), cells_span(path, tuple(cell_words)))
        annotations = []
        while kinds[at] in _KINDS:
            marker = kinds[at]
            value = kinds[at + 1]
            if not (value == _STRING or (value == _ATOM and marker == _SECTION)):
                return None
            word = found[at + 1]
            annotations.append(Annotation(word.span, _KINDS[marker], word.text))
            at += 2
        kind = kinds[at]
        if kind == _OPEN:
            open_blocks.append((out, (tuple(words), cells, tuple(annotations)), found[at]))
            out = []
            at += 2 if kinds[at + 1] == _NL else 1
            continue
        if kind != _NL:
            return None
        out.append(statement(path, tuple(words), cells, tuple(annotations), None))
        at += 1
