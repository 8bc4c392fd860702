"""Text to a syntax tree, with every syntax error turned into a ``Diagnostic``.

Text without syntax errors is read by hand (``dsl.reader``), without importing Lark; any other
text is parsed again with Lark (``dsl.lalr``), whose errors make the diagnostics.  After an
error the parser resumes
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
import re
import unicodedata

from .ast import RulesFile, Span
from .diagnostics import Diagnostic, RulesError, diagnostic
from .reader import read

MAX_ERRORS = 10

_FALSE_BREAKS = re.compile(r"[\u2028\u2029\x85\x0b\x0c\x1c-\x1e]|\r(?!\n)")
"""Characters other tools (editors, ``str.splitlines``) show as a line break but the grammar does
not: a lone carriage return, vertical tab, form feed, the file, group and record separators,
NEL and the Unicode line and paragraph separators.  After a ``#`` they would hide the rest of
the file in one comment, so they are refused wherever they are."""


def _parser():
    """The bare LALR parser, building Lark's tree (tests, and the loading benchmarks' baseline)."""
    from .lalr import bare_parser

    return bare_parser()


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
    statements = read(source, path)
    if statements is None:
        statements = _parse_reporting(source, path)
    return RulesFile(path, text, tuple(statements))


def _parse_reporting(source: str, path: str) -> list:
    """Lark's parse of text the reader does not accept: its tree if it is good after all, else
    every syntax error as a diagnostic, resuming at the next line after each."""
    from .lalr import UnexpectedInput, ast_parser, to_diagnostic

    lines = source.split("\n")
    errors: list[Diagnostic] = []
    parser, to_ast = ast_parser()
    to_ast.path = path
    while True:
        try:
            statements = parser.parse("\n".join(lines))
            break
        except UnexpectedInput as exc:
            error, fatal = to_diagnostic(exc, path, "\n".join(lines))
            errors.append(error)
            line = getattr(exc, "line", -1)
            if fatal or len(errors) >= MAX_ERRORS or not (1 <= line <= len(lines)) or not lines[line - 1].strip():
                raise RulesError(errors) from None
            lines[line - 1] = ""
    if errors:
        raise RulesError(errors)
    return statements


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


def _tree_for_tests(text: str):
    """The raw Lark tree, for grammar tests."""
    return _parser().parse(text)
