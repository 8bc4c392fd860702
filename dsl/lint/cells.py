"""E2xx: what the cells of a table say: declared results and events, numbers, explained guesses.

A table's ``cells are`` line (results by default, or events, numbers, text)
says what its cells must be; each check reads the cells of the tables of one
kind.  What a combat result's effects may do is ``dsl.lint.contexts``.

A compound result cell (``K+B+A``) is checked part by part: each part a declared result
(E204) that says ``combines with +`` (E224).

Limits: whether the parts make sense together is not checked.
"""

from __future__ import annotations

from typing import Iterator

from ..diagnostics import Diagnostic, diagnostic, did_you_mean
from . import check
from .names import index
from .tables import plural
from ..model import Rulebook
from ..tables import Cell, result_parts
from ..values import read_modifier, read_multiplier, read_number


@check("E204", "unknown-result")
def unknown_result(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a cell of a results table (the default, `cells are results`) naming no declared
    `result`. A compound cell such as `K+B+A` is checked part by part.

    ## Why is this bad?
    The engine applies a cell by looking its result up; an unknown code would do nothing,
    silently, in the middle of a game.

    ## Example
    ```
    result DE "Defender eliminated"
    table crt {
        1: DF
    }
    ```
    Use instead: `1: DE`.
    """
    idx = index(rb)
    known = idx.names("result")
    for view in idx.tables:
        if view.cells_are != "results":
            continue
        for row in view.rows:
            for cell in row.cells:
                if result_parts(idx, cell.text) is not None:  # type: ignore[arg-type]
                    continue
                parts = cell.text.split("+")
                unknown = [p for p in parts if idx.get("result", p) is None]
                if len(parts) > 1 and all(parts):
                    for part in unknown:
                        yield diagnostic("E204", cell.span, f"unknown result {part!r} in cell {cell.text!r} "
                                         f"of table {view.name!r}", did_you_mean(part, known))
                else:
                    yield diagnostic("E204", cell.span, f"unknown result {cell.text!r} in table {view.name!r}",
                                     did_you_mean(cell.text, known))


@check("E211", "unknown-event")
def unknown_event(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a cell of an events table (`cells are events`) naming no declared `event`.

    ## Why is this bad?
    The roll would land on an event the engine does not know; nothing would happen.

    ## Example
    ```
    event ambush "Ambush"
    table events {
        cells are events
        1: ambsh
    }
    ```
    Use instead: `1: ambush`.
    """
    idx = index(rb)
    known = idx.names("event")
    for view in idx.tables:
        if view.cells_are != "events":
            continue
        for row in view.rows:
            for cell in row.cells:
                if idx.get("event", cell.text) is None:
                    yield diagnostic("E211", cell.span, f"unknown event {cell.text!r} in table {view.name!r}",
                                     did_you_mean(cell.text, known))


@check("E216", "unexplained-provisional-cell")
def unexplained_provisional_cell(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a row with provisional cells (ending in `?`) when neither the row nor the table
    carries a `gap "…"` saying why.

    ## Why is this bad?
    A `?` says the value is not in the source; the `gap` is where the reader learns what
    the value is based on. Without it, a guess looks like a reading.

    ## Example
    `3: K? R` → `3: K? R gap "row 3 is not printed; K follows the column above"`.
    """
    for view in index(rb).tables:
        if view.decl.provenance.gaps:
            continue
        for row in view.rows:
            provisional = [c for c in row.cells if c.provisional]
            if provisional and not row.provenance.gaps:
                cells = f"{len(provisional)} provisional {plural('cell', provisional)}"
                yield diagnostic("E216", provisional[0].span, f"row {row.key!r} of table {view.name!r} has {cells} "
                                 "but no gap", 'add gap "…" to the row or the table saying what the value rests on')


def _is_number(cell: Cell) -> bool:
    text = cell.text
    return any(read(text) is not None for read in (read_number, read_modifier, read_multiplier))


@check("E218", "non-numeric-cell")
def non_numeric_cell(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a cell that is not a number in a table declared `cells are numbers`. Numbers are
    whole numbers, fractions (`1/2`, `½`), signed modifiers (`+1`) and multipliers (`x2`).

    ## Why is this bad?
    The engine adds or multiplies these cells; a word in their place cannot be used.

    ## Example
    `clear: one` → `clear: 1`; for words, declare `cells are text`.
    """
    for view in index(rb).tables:
        if view.cells_are != "numbers":
            continue
        for row in view.rows:
            for cell in row.cells:
                if not _is_number(cell):
                    yield diagnostic("E218", cell.span, f"cell {cell.text!r} of table {view.name!r} is not a number",
                                     "write a number (2, 1/2, +1, x2) or declare 'cells are text'")



@check("E224", "compound-cell-not-combining")
def compound_cell_not_combining(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a compound cell (`K+B`) of a results table naming a declared result that does not
    say `combines with +`. A compound declared as a result of its own (`result K+R`) is one result.

    ## Why is this bad?
    A compound cell applies each part in order, which is only right for results written to be
    combined (`combines with +`); splitting any cell at its `+` would apply results, an `AE`
    ending the fight say, in a way no rule says they combine.

    ## Example
    ```
    result K "Kill" {
        effect eliminate 1 targets
    }
    result B "Break off" {
        effect break off targets
    }
    table crt {
        1: K+B
    }
    ```
    Use instead: add `combines with +` to `K` and `B`, or declare `result K+B` with its effects.
    """
    idx = index(rb)
    seen: set[tuple[str, str]] = set()
    for view in idx.tables:
        if view.cells_are != "results":
            continue
        for row in view.rows:
            for cell in row.cells:
                parts = result_parts(idx, cell.text)  # type: ignore[arg-type]
                if parts is None or len(parts) < 2:
                    continue
                for part in parts:
                    if part.has("combines") or (view.name, f"{cell.text} {part.name}") in seen:
                        continue
                    seen.add((view.name, f"{cell.text} {part.name}"))
                    yield diagnostic("E224", cell.span, f"result {part.name!r} in cell {cell.text!r} of table "
                                     f"{view.name!r} does not say 'combines with +'",
                                     f"add 'combines with +' to result {part.name!r}, or declare result "
                                     f"{cell.text!r} of its own")
