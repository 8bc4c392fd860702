"""Lark's LALR parser of the grammar: the tree of text with syntax errors, and those errors.

``dsl.parser`` reads text without errors by hand (``dsl.reader``) and comes here only for text
the reader does not accept, so ``warbook lint`` of a good file never imports Lark.  Only this
module and ``dsl.lark_cache`` touch Lark.
"""

from __future__ import annotations

import functools
import re

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.tree import Meta

from .ast import Annotation, Span, Statement, Word
from .diagnostics import Diagnostic, diagnostic
from .lark_cache import build_lark
from .reader import cells_span, statement, unescape

__all__ = ["UnexpectedInput", "ast_parser", "bare_parser", "to_diagnostic"]

# Terminal display names for "expected one of …" (Lark's own examples do the same).
_DISPLAY = {
    "ATOM": "a word",
    "STRING": 'a "quoted text"',
    "_NL": "the end of the line",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "COLON": "':'",
    "COMMA": "','",
    "SECTION": "'§'",
    "GAP": "'gap'",
    "ERRATA": "'errata'",
    "$END": "the end of the file",
}


@functools.cache
def bare_parser() -> Lark:
    """The bare LALR parser, building Lark's tree: ``ast_parser`` without its transformer
    (tests, and the loading benchmarks' baseline, which must do the same parsing work)."""
    return build_lark(maybe_placeholders=True)


@functools.cache
def ast_parser() -> tuple[Lark, "ToAst"]:
    """The parser of text with errors: it builds ``dsl.ast`` nodes during the parse (Lark's inline
    ``transformer=``), so no intermediate tree is built and walked again.  The transformer's
    ``path`` is set before each parse."""
    to_ast = ToAst("<string>")
    return build_lark(transformer=to_ast, maybe_placeholders=True), to_ast


def _expected(names) -> str:
    shown = sorted({_DISPLAY.get(n, f"'{n.lower()}'") for n in names if not n.startswith("__ANON")})
    return ", ".join(shown) if shown else "something else"


def to_diagnostic(exc: UnexpectedInput, path: str, text: str) -> tuple[Diagnostic, bool]:
    """The diagnostic of a syntax error, and whether parsing must stop there (an unclosed block)."""
    line, column = max(getattr(exc, "line", 1), 1), max(getattr(exc, "column", 1), 1)
    span = Span(path, line, column, line, column + 1)
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        last = text.rstrip("\n").count("\n") + 1
        opened = unclosed_brace(text, path) or Span.point(path, last, 1)
        return diagnostic("E003", opened, "file ends inside a '{' block",
                          f"add the '}}' that closes this '{{' (the file ends at line {last})"), True
    if isinstance(exc, UnexpectedCharacters):
        char = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else ""
        hint = "close the text with '\"'" if char == '"' else None
        if char == "§":
            hint = 'write the section after §, e.g. §"8.4"'
        return diagnostic("E002", span, f"unexpected character {char!r}", hint), False
    assert isinstance(exc, UnexpectedToken)
    token = exc.token
    shown = "end of line" if token.type == "_NL" else repr(str(token))
    hint = f"expected {_expected(exc.expected)}"
    if token.type == "RBRACE":
        hint = "this '}' closes no block; remove it or add the '{' it belongs to"
    elif str(token) in {"§", "gap", "errata"}:
        hint = "provenance goes after the words of a statement: terrain clear §\"8.4\""
    elif token.type == "COLON":
        hint = "a ':' makes a table row and may appear once per line"
    return diagnostic("E001", Span(path, token.line, token.column, token.end_line or token.line,
                                   token.end_column or token.column + 1), f"unexpected {shown}", hint), False


_BRACES = re.compile(r'#[^\n]*|"[^"\\]*(?:\\.[^"\\]*)*"|[{}]')
"""A comment, a quoted text or a brace: braces inside the first two are no braces."""


def unclosed_brace(text: str, path: str) -> Span | None:
    """The span of the last ``{`` that no ``}`` closes: E003 points at the block left open, not
    at the end of the file, where the mistake rarely is."""
    open_at: list[int] = []
    for found in _BRACES.finditer(text):
        if found.group() == "{":
            open_at.append(found.start())
        elif found.group() == "}" and open_at:
            open_at.pop()
    if not open_at:
        return None
    at = open_at[-1]
    start = text.rfind("\n", 0, at) + 1
    line, column = text.count("\n", 0, start) + 1, at - start + 1
    return Span(path, line, column, line, column + 1)


def _span(path: str, item: Token | Meta) -> Span:
    return Span(path, item.line, item.column, item.end_line, item.end_column)


class ToAst(Transformer):
    """Parse tree to ``dsl.ast`` nodes; purely mechanical, no checks of meaning (the nodes are
    ``dsl.reader``'s, so both parsers give the same tree)."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path

    def _word(self, token: Token) -> Word:
        if token.type == "STRING":
            return Word(_span(self.path, token), unescape(str(token)), True)
        return Word(_span(self.path, token), str(token))

    def ATOM(self, token: Token) -> Word:
        return self._word(token)

    def STRING(self, token: Token) -> Word:
        return self._word(token)

    def start(self, children):
        return [c for c in children if isinstance(c, Statement)]

    def statement(self, children):
        # Meta positions are unreliable here because rules end with _NL; compute from children.
        words = tuple(c for c in children if isinstance(c, Word))
        cells = next((c for c in children if isinstance(c, _Cells)), None)
        annotations = tuple(c for c in children if isinstance(c, Annotation))
        block = next((c for c in children if isinstance(c, _Block)), None)
        return statement(self.path, words, (cells.words, cells.span) if cells else None, annotations,
                         (block.statements, block.span) if block else None)

    def cells(self, children):
        words = tuple(c for c in children if isinstance(c, Word))
        return _Cells(words, cells_span(self.path, words))

    def block(self, children):
        # The closing brace is a named token, so the statement's span can end on it.
        statements = tuple(c for c in children if isinstance(c, Statement))
        open_brace, close_brace = children[0], children[-1]
        span = Span(self.path, open_brace.line, open_brace.column, close_brace.end_line, close_brace.end_column)
        return _Block(statements, span)

    def _annotation(self, kind: str, children) -> Annotation:
        value = children[-1]
        return Annotation(value.span, kind, value.text)

    def section(self, children):
        return self._annotation("section", children)

    def gap(self, children):
        return self._annotation("gap", children)

    def errata(self, children):
        return self._annotation("errata", children)


class _Cells:
    def __init__(self, words, span):
        self.words, self.span = words, span


class _Block:
    def __init__(self, statements, span):
        self.statements, self.span = statements, span
