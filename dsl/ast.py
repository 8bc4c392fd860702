"""The surface syntax tree: what the text says, with where it says it.

The tree mirrors ``dsl/grammar.lark`` one class per rule and does no checking of
meaning; ``dsl.schema`` and ``dsl.loader`` turn it into a ``dsl.model.Rulebook``.
Every node is frozen and carries a ``Span``.
"""

from __future__ import annotations

from attrs import frozen


@frozen(order=True)
class Span:
    """Where a node came from: 1-based lines and columns, end exclusive (Lark's convention).

    ``end_line``/``end_column`` point just past the last character, so a one-character
    token at line 3, column 5 has ``Span(path, 3, 5, 3, 6)``.
    """

    path: str
    line: int
    column: int
    end_line: int
    end_column: int

    @classmethod
    def point(cls, path: str, line: int = 1, column: int = 1) -> "Span":
        """A zero-width span, for diagnostics about a whole file or a position."""
        return cls(path, line, column, line, column)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


@frozen
class Word:
    """One word of a statement: an atom (``3:1``, ``½D½A``, ``d6``) or a quoted string."""

    span: Span
    text: str
    """The text as written; for a quoted string, the unescaped contents."""
    quoted: bool = False
    """True for a ``"string"``: never a name, always text."""

    def __str__(self) -> str:
        return repr(self.text) if self.quoted else self.text


@frozen
class Annotation:
    """Provenance attached to a statement: ``§"8.4"``, ``gap "…"`` or ``errata "…"``."""

    span: Span
    kind: str
    """``"section"``, ``"gap"`` or ``"errata"``."""
    text: str


@frozen
class Statement:
    """One logical line: words, optional row cells after ``:``, annotations, optional block."""

    span: Span
    words: tuple[Word, ...]
    cells: tuple[Word, ...] | None
    """``None`` for an ordinary statement; the words after ``:`` for a table row."""
    annotations: tuple[Annotation, ...]
    block: tuple["Statement", ...] | None
    """``None`` when the statement has no ``{ … }``; ``()`` for an empty block."""

    @property
    def is_row(self) -> bool:
        return self.cells is not None

    @property
    def head(self) -> Word:
        return self.words[0]


@frozen
class RulesFile:
    """A parsed file: its statements and the text they came from (for carets and suppressions)."""

    path: str
    text: str
    statements: tuple[Statement, ...]
