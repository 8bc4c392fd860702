"""Text to a syntax tree, with every syntax error turned into a ``Diagnostic``.

Only this module touches Lark's exceptions.  After an error the parser resumes
at the next line (the offending line is blanked, so positions are kept) and
gives up after ``MAX_ERRORS``; an unclosed block at the end of the file stops
it at once, since nothing after it can be trusted.

Characters that other tools show as a line break but the grammar does not (U+2028 and the
like, ``_FALSE_BREAKS``) are refused before parsing, each an E002 at its place: after a ``#``
they would turn the rest of the file into one comment that lints clean.

Limits: recovery is line-based, so an error inside a multi-line string or a
line holding an opening ``{`` can cause one follow-on error on the line that
closes it.
"""

from __future__ import annotations

import codecs
import functools
import re
import unicodedata

from lark import Lark, Token, Transformer, Tree, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.tree import Meta

from .ast import Annotation, RulesFile, Span, Statement, Word
from .diagnostics import Diagnostic, RulesError, diagnostic
from .lark_cache import build_lark

MAX_ERRORS = 10

_FALSE_BREAKS = re.compile(r"[\u2028\u2029\x85\x0b\x0c\x1c-\x1e]|\r(?!\n)")
"""Characters other tools (editors, ``str.splitlines``) show as a line break but the grammar does
not: a lone carriage return, vertical tab, form feed, the file, group and record separators,
NEL and the Unicode line and paragraph separators.  After a ``#`` they would hide the rest of
the file in one comment, so they are refused wherever they are."""


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
def _parser() -> Lark:
    """The bare LALR parser, building Lark's tree: ``parse_text``'s parser without its transformer
    (tests, and the loading benchmarks' baseline, which must do the same parsing work)."""
    return build_lark(maybe_placeholders=True)


@functools.cache
def _ast_parser() -> tuple[Lark, "_ToAst"]:
    """The parser ``parse_text`` uses: it builds ``dsl.ast`` nodes during the parse (Lark's inline
    ``transformer=``), so no intermediate tree is built and walked again.  The transformer's
    ``path`` is set before each parse."""
    to_ast = _ToAst("<string>")
    return build_lark(transformer=to_ast, maybe_placeholders=True), to_ast


def parse_text(text: str, path: str = "<string>") -> RulesFile:
    """Parse rules text into a ``RulesFile``.

    >>> parse_text('side allies "Allies"\\n').statements[0].words[1].text
    'allies'

    Raises:
        RulesError: with one diagnostic per syntax error found (up to ``MAX_ERRORS``).
    """
    if text.startswith(codecs.BOM_UTF8.decode()):
        text = text[1:]
    breaks = _false_breaks(text, path)
    if breaks:
        raise RulesError(breaks)
    source = text if text.endswith("\n") else text + "\n"
    lines = source.split("\n")
    errors: list[Diagnostic] = []
    parser, to_ast = _ast_parser()
    to_ast.path = path
    while True:
        try:
            statements = parser.parse("\n".join(lines))
            break
        except UnexpectedInput as exc:
            error, fatal = _to_diagnostic(exc, path, "\n".join(lines))
            errors.append(error)
            line = getattr(exc, "line", -1)
            if fatal or len(errors) >= MAX_ERRORS or not (1 <= line <= len(lines)) or not lines[line - 1].strip():
                raise RulesError(errors) from None
            lines[line - 1] = ""
    if errors:
        raise RulesError(errors)
    return RulesFile(path, text, tuple(statements))

_CONTROL_NAMES = {"\r": "carriage return", "\x0b": "line tabulation", "\x0c": "form feed", "\x1c": "file separator",
                  "\x1d": "group separator", "\x1e": "record separator", "\x85": "next line"}
"""Names of the control characters among ``_FALSE_BREAKS`` (``unicodedata`` has none for them)."""


def _false_breaks(text: str, path: str) -> list[Diagnostic]:
    """E002 at each character that looks like a line break but is none (``_FALSE_BREAKS``), up
    to ``MAX_ERRORS``: the text could mean something else than it shows, so it is not parsed."""
    out = []
    for found in _FALSE_BREAKS.finditer(text):
        start = text.rfind("\n", 0, found.start()) + 1
        line, column = text.count("\n", 0, start) + 1, found.start() - start + 1
        char = found.group()
        name = unicodedata.name(char, "") or _CONTROL_NAMES[char]
        out.append(diagnostic("E002", Span(path, line, column, line, column + 1),
                              f"unexpected character U+{ord(char):04X} ({name.lower()}), "
                              "which is not a line break here",
                              "end lines with a plain newline (\\n, or \\r\\n); the parser reads what follows "
                              "this character as the same line, even after a '#'"))
        if len(out) >= MAX_ERRORS:
            break
    return out


def _expected(names) -> str:
    shown = sorted({_DISPLAY.get(n, f"'{n.lower()}'") for n in names if not n.startswith("__ANON")})
    return ", ".join(shown) if shown else "something else"


def _to_diagnostic(exc: UnexpectedInput, path: str, text: str) -> tuple[Diagnostic, bool]:
    line, column = max(getattr(exc, "line", 1), 1), max(getattr(exc, "column", 1), 1)
    span = Span(path, line, column, line, column + 1)
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        last = text.rstrip("\n").count("\n") + 1
        return diagnostic("E003", Span.point(path, last, 1), "file ends inside a '{' block",
                          "add the missing '}'"), True
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


def _span(path: str, item: Token | Meta) -> Span:
    return Span(path, item.line, item.column, item.end_line, item.end_column)


def _unescape(raw: str) -> str:
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


class _ToAst(Transformer):
    """Parse tree to ``dsl.ast`` nodes; purely mechanical, no checks of meaning."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path

    def _word(self, token: Token) -> Word:
        if token.type == "STRING":
            return Word(_span(self.path, token), _unescape(str(token)), True)
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
        first = words[0].span
        last_parts = [w.span for w in words]
        if cells:
            last_parts += [w.span for w in cells.words] + [cells.span]
        last_parts += [a.span for a in annotations]
        if block:
            last_parts.append(block.span)
        last = max(last_parts, key=lambda s: (s.end_line, s.end_column))
        span = Span(self.path, first.line, first.column, last.end_line, last.end_column)
        return Statement(span, words, cells.words if cells else None, annotations,
                         block.statements if block else None)

    def cells(self, children):
        words = tuple(c for c in children if isinstance(c, Word))
        return _Cells(words, Span.point(self.path, 1, 1) if not words else words[-1].span)

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


def _tree_for_tests(text: str) -> Tree:
    """The raw Lark tree, for grammar tests."""
    return _parser().parse(text)
