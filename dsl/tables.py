"""A typed view of a ``table`` declaration, shared by the linter, ``warbook show`` and the interpreter.

The declaration keeps rows as written; this view reads the column headings
(odds, value ranges or plain keys), the row keys (die results or names) and the
cells (with ``?`` marking a provisional cell), what a fight past its edges reads
(``above last column use last`` …), and finds result codes, including compounds such as
``K+B+A`` whose parts say ``combines with +`` (§"apply each component in order").

>>> from warbook.dsl.values import read_range
>>> Cell.from_text("K+R?").text, Cell.from_text("K+R?").provisional
('K+R', True)
"""

from __future__ import annotations

from attrs import field, frozen

from .ast import Span, Word
from .model import Declaration, Property, Provenance, Rulebook
from .values import Odds, Range, read_odds, read_range


@frozen
class Column:
    label: str
    span: Span
    odds: Odds | None = None
    range: Range | None = None
    shifted_only: bool = False
    printed: str | None = None
    """The heading as printed, when ``columns`` gives a name (``blue_side`` → "Blue Side Event")."""

    @property
    def display(self) -> str:
        return self.printed or self.label


@frozen
class Cell:
    text: str
    """The cell as printed (without the provisional mark)."""
    provisional: bool = False
    span: Span | None = None

    @classmethod
    def from_text(cls, text: str, span: Span | None = None) -> "Cell":
        if text.endswith("?") and len(text) > 1:
            return cls(text[:-1], True, span)
        return cls(text, False, span)

    @classmethod
    def from_word(cls, word: Word) -> "Cell":
        return cls.from_text(word.text, word.span)


@frozen
class TableRow:
    key: str
    key_words: tuple[Word, ...]
    roll: Range | None
    cells: tuple[Cell, ...]
    span: Span
    provenance: Provenance


@frozen
class TableView:
    decl: Declaration
    lookup: str
    """``odds``, ``value``, ``key`` or the name of the factor totalled to find a column."""
    columns: tuple[Column, ...]
    rows: tuple[TableRow, ...]
    row_keys: str
    """``rolls`` or ``names``."""
    cells_are: str
    rounding: str = "down"
    """The ``rounding`` line's words (``for defender``), ``down`` when it has none."""
    better: int = 1
    """+1 when results improve for the roller to the right (the default), -1 when to the left."""
    above_last: Property | None = field(default=None, eq=False, repr=False)
    """The ``above last column use last`` line: a fight past the last column is the table's own
    reading, not the engine's default (``None``: the table does not say)."""
    below_first: Property | None = field(default=None, eq=False, repr=False)
    """The ``below first column use first`` line (``None``: unsaid)."""
    rolls_nearest: Property | None = field(default=None, eq=False, repr=False)
    """The ``rolls outside use nearest row`` line (``None``: unsaid)."""

    def says_off_table(self, edge: str) -> Property | None:
        """The line saying what a fight past the table's ``edge`` reads: ``above`` or ``below``
        (columns), ``rows`` (a modified roll past the printed rows); ``None`` when it is unsaid."""
        return {"above": self.above_last, "below": self.below_first, "rows": self.rolls_nearest}[edge]

    @property
    def name(self) -> str:
        return self.decl.name

    @property
    def dice(self) -> str | None:
        prop = self.decl.first("roll")
        return str(prop.get("dice")) if prop else None

    @classmethod
    def from_declaration(cls, decl: Declaration) -> "TableView":
        lookup_prop = decl.first("lookup")
        if lookup_prop is None:
            lookup = "key"
        elif lookup_prop.get("factor") is not None:
            lookup = str(lookup_prop.get("factor"))
        else:
            lookup = lookup_prop.words[-1].text
        shifted = {w.text for p in decl.all("shifted") for w in p.words[2:]}
        columns = []
        labels_prop = decl.first("columns")
        printed_prop = decl.first("printed")
        printed = [w.text for w in printed_prop.words[2:]] if printed_prop else []
        for index, word in enumerate(labels_prop.words[1:] if labels_prop else ()):
            odds = read_odds(word.text) if lookup == "odds" else None
            rng = None if lookup in ("odds", "key") else read_range(word.text.rstrip("*"))
            columns.append(Column(word.text, word.span, odds, rng, word.text in shifted,
                                  printed[index] if index < len(printed) else None))
        keys_prop = decl.first("row")
        if keys_prop is not None:
            row_keys = keys_prop.words[-1].text
        else:
            row_keys = "rolls" if decl.has("roll") else "names"
        cells_prop = decl.first("cells")
        cells_are = cells_prop.words[-1].text if cells_prop else "results"
        rows = []
        for row in decl.rows:
            key = row.key_text
            roll = read_range(key) if row_keys == "rolls" and len(row.key) == 1 else None
            rows.append(TableRow(key, row.key, roll, tuple(Cell.from_word(w) for w in row.cells), row.span,
                                 row.provenance))
        rounding = decl.first("rounding")
        better = decl.first("better")
        return cls(decl, lookup, tuple(columns), tuple(rows), row_keys, cells_are,
                   " ".join(w.text for w in rounding.words[1:]) if rounding else "down",
                   -1 if better is not None and better.has("left") else 1,
                   decl.first("above"), decl.first("below"), decl.first("rolls"))


def result_parts(rulebook: Rulebook, text: str) -> tuple[Declaration, ...] | None:
    """The result declarations a cell names: itself, or each part of a compound ``K+B+A``.

    ``None`` when some part names no declared result.  This is what the cell is written as;
    whether the parts may be combined is ``combined_parts``'s question.
    """
    whole = rulebook.get("result", text)
    if whole is not None:
        return (whole,)
    parts = [p.strip() for p in text.split("+")]
    if len(parts) < 2 or not all(parts):
        return None
    found = tuple(rulebook.get("result", p) for p in parts)
    return None if any(f is None for f in found) else found  # type: ignore[return-value]


def combined_parts(rulebook: Rulebook, text: str) -> tuple[Declaration, ...] | None:
    """The results a cell applies: its own declared result, or the parts of a compound ``K+B+A``
    when every part says ``combines with +`` (a result that does not may only stand alone: lint
    E224 refuses the cell); ``None`` otherwise."""
    parts = result_parts(rulebook, text)
    if parts is None or len(parts) == 1:
        return parts
    return parts if all(p.has("combines") for p in parts) else None


def cell_worth(rulebook: Rulebook, text: str):
    """The sum of the parts' ``worth`` for the roller, or ``None`` if any part has none."""
    parts = result_parts(rulebook, text)
    if not parts:
        return None
    total = 0
    for part in parts:
        prop = part.first("worth")
        if prop is None:
            return None
        total += prop.get("value")
    return total


def display_key(rulebook: Rulebook, row: TableRow) -> str:
    """A row key as printed: selector names shown by their labels, joined with commas."""
    if row.roll is not None or row.key_words and row.key_words[0].quoted:
        return row.key
    kinds = ("tag", "unit", "marker", "nationality", "side", "movement", "terrain", "size", "event", "result")
    shown = []
    for word in row.key_words:
        decl = rulebook.find(word.text, kinds)
        shown.append(decl.display if decl is not None and decl.label else word.text)
    return ", ".join(shown)


def display_cell(rulebook: Rulebook, view: TableView, cell: Cell) -> str:
    """A cell as printed: event names shown by the event's label."""
    if view.cells_are == "events":
        decl = rulebook.get("event", cell.text)
        if decl is not None:
            return decl.display
    return cell.text
