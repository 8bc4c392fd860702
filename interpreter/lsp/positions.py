"""Spans to LSP positions and back.

A ``Span`` is 1-based lines and columns counted in characters (code points), end exclusive.
An LSP position is 0-based, and its ``character`` counts code units of the encoding the client
and server agreed on: UTF-16 by default (a character outside the Basic Multilingual Plane, such
as most emoji, is two), or UTF-8 (``½`` is two bytes) or UTF-32 when the client offers them.

Lines are split at ``\\n`` only, as the parser counts them (a ``\\r`` before it is the line's last
character).  A position past the end of a line or of the text counts each missing character as
one unit; clients clamp such positions to the line's end, as the protocol says.
"""

from __future__ import annotations

from ...dsl.ast import Span

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"


def units(char: str, encoding: str = UTF16) -> int:
    """How many code units one character takes in ``encoding``."""
    if encoding == UTF8:
        return len(char.encode("utf-8", "surrogatepass"))
    if encoding == UTF32:
        return 1
    return 2 if ord(char) > 0xFFFF else 1


def to_character(line_text: str, column: int, encoding: str = UTF16) -> int:
    """A 1-based character column of ``line_text`` as a 0-based LSP ``character``.

    >>> to_character("1: ½D x", 6, "utf-8"), to_character("1: ½D x", 6, "utf-16")
    (6, 5)
    """
    before = line_text[: column - 1]
    return sum(units(c, encoding) for c in before) + max(0, column - 1 - len(before))


def to_column(line_text: str, character: int, encoding: str = UTF16) -> int:
    """A 0-based LSP ``character`` on ``line_text`` as a 1-based character column (a position in the
    middle of a character is that character's)."""
    counted = 0
    for index, char in enumerate(line_text):
        if counted >= character:
            return index + 1
        counted += units(char, encoding)
        if counted > character:
            return index + 1
    return len(line_text) + 1 + (character - counted)


def lines_of(text: str) -> list[str]:
    return text.split("\n")


def _line(lines: list[str], number: int) -> str:
    return lines[number - 1] if 1 <= number <= len(lines) else ""


def to_range(span: Span, lines: list[str], encoding: str = UTF16) -> tuple[tuple[int, int], tuple[int, int]]:
    """A span as ``((line, character), (end line, end character))``, 0-based, in the encoding's units."""
    start = (span.line - 1, to_character(_line(lines, span.line), span.column, encoding))
    end = (span.end_line - 1, to_character(_line(lines, span.end_line), span.end_column, encoding))
    return start, end


def to_position(lines: list[str], line: int, character: int, encoding: str = UTF16) -> tuple[int, int]:
    """An LSP position (0-based line and ``character``) as a 1-based line and character column."""
    return line + 1, to_column(_line(lines, line + 1), character, encoding)
