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
    r"|(\{)|(\})|(:)|(,)|(§)|(gap)|(errata))")
"""One terminal, after any ignored text; the group that matched is the terminal's kind."""
_NL, _STRING, _ATOM, _OPEN, _CLOSE, _COLON, _COMMA, _SECTION, _GAP, _ERRATA = range(1, 11)
_END = 0
_TRAILING = re.compile(f"(?:{SPACE}|{COMMENT})*+")
_KINDS = {_SECTION: "section", _GAP: "gap", _ERRATA: "errata"}


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
    first word to the end of whichever part ends last."""
    first = words[0].span
    last_parts = [w.span for w in words]
    if cells:
        last_parts += [w.span for w in cells[0]] + [cells[1]]
    last_parts += [a.span for a in annotations]
    if block:
        last_parts.append(block[1])
    last = max(last_parts, key=lambda s: (s.end_line, s.end_column))
    span = Span(path, first.line, first.column, last.end_line, last.end_column)
    return Statement(span, words, cells[0] if cells else None, annotations, block[0] if block else None)


def cells_span(path: str, words: tuple[Word, ...]) -> Span:
    """The span a row's cells count with in their statement's: the last cell's (a row without
    cells counts with the file's first position, so never as its statement's end)."""
    return Span.point(path, 1, 1) if not words else words[-1].span


def _tokens(text: str, path: str):
    """(kind, its ``Word``, or its ``Span`` for a brace, colon, comma or marker; ``None`` for a
    newline) of each terminal, then ``(_END, None)``; ``None`` where no terminal matches."""
    line, start, at = 1, 0, 0
    for found in _TOKENS.finditer(text):
        if found.start() != at:
            yield None
            return
        kind, at = found.lastindex, found.end()
        begin = found.start(kind)
        if kind == _NL:
            value = found[kind]
            line, start = line + value.count("\n"), begin + value.rindex("\n") + 1
            yield _NL, None
        elif kind == _ATOM:
            yield _ATOM, Word(Span(path, line, begin - start + 1, line, at - start + 1), found[kind])
        elif kind == _STRING:  # a quoted text may go on over lines
            value = found[kind]
            column, newlines = begin - start + 1, value.count("\n")
            end_line = line + newlines
            if newlines:
                start = begin + value.rindex("\n") + 1
            yield _STRING, Word(Span(path, line, column, end_line, at - start + 1), unescape(value), True)
            line = end_line
        else:
            yield kind, Span(path, line, begin - start + 1, line, at - start + 1)
    at = _TRAILING.match(text, at).end()
    if at != len(text):
        yield None
        return
    yield _END, None


def read(text: str, path: str) -> list[Statement] | None:
    """The statements of ``text`` (which ends with a newline), as Lark's parse with
    ``dsl.lalr``'s transformer gives them; ``None`` if the grammar does not accept it."""
    tokens = _tokens(text, path)
    token = next(tokens)
    if token is not None and token[0] == _NL:
        token = next(tokens)
    out: list[Statement] = []
    open_blocks: list[tuple[list[Statement], tuple, Span]] = []  # the statements around, the parts, '{'
    while True:
        if token is None:
            return None
        kind = token[0]
        if kind == _END:
            return out if not open_blocks else None
        if kind == _CLOSE:
            if not open_blocks:
                return None
            inner, close = out, token[1]
            out, (words, cells, annotations), opened = open_blocks.pop()
            block = (tuple(inner), Span(path, opened.line, opened.column, close.end_line, close.end_column))
            token = next(tokens)
            if token is None or token[0] != _NL:
                return None
            out.append(statement(path, words, cells, annotations, block))
            token = next(tokens)
            continue
        if kind != _ATOM and kind != _STRING:
            return None
        words = [token[1]]
        token = next(tokens)
        while token is not None and (token[0] == _ATOM or token[0] == _STRING or token[0] == _COMMA):
            if token[0] != _COMMA:
                words.append(token[1])
            token = next(tokens)
        cells = None
        if token is not None and token[0] == _COLON:
            cell_words = []
            token = next(tokens)
            while token is not None and (token[0] == _ATOM or token[0] == _STRING or token[0] == _COMMA):
                if token[0] != _COMMA:
                    cell_words.append(token[1])
                token = next(tokens)
            cells = (tuple(cell_words), cells_span(path, tuple(cell_words)))
        annotations = []
        while token is not None and token[0] in _KINDS:
            marker = token[0]
            token = next(tokens)
            if token is None or not (token[0] == _STRING or (token[0] == _ATOM and marker == _SECTION)):
                return None
            annotations.append(Annotation(token[1].span, _KINDS[marker], token[1].text))
            token = next(tokens)
        if token is None:
            return None
        if token[0] == _OPEN:
            open_blocks.append((out, (tuple(words), cells, tuple(annotations)), token[1]))
            out = []
            token = next(tokens)
            if token is not None and token[0] == _NL:
                token = next(tokens)
            continue
        if token[0] != _NL:
            return None
        out.append(statement(path, tuple(words), cells, tuple(annotations), None))
        token = next(tokens)
