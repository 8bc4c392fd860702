"""E2xx: tables: headings, rows, cells, and whether every roll finds a row and every total a column.

Each check reads tables through ``dsl.tables.TableView``, the same view the
interpreter and ``warbook show`` use, so the linter and the engine agree on
what a heading, a row key and a cell are.  (What a combat result's effects may
do is ``dsl.lint.contexts``.)

Limits: the linter does not evaluate modifiers.  Whether a row outside the
die (``0``, ``7``) is reachable is judged from whether anything in the
rulebook modifies rolls on that table; an ``effect modify … roll`` whose words
name no table is taken to reach every table.
"""

from __future__ import annotations

from typing import Iterable, Iterator

from ..diagnostics import Diagnostic, diagnostic, did_you_mean
from . import check
from .names import Index, index, ref_of
from ..model import Rulebook
from ..tables import Cell, Column, TableRow, TableView, result_parts
from ..values import Dice, Range, is_backwards_range, read_dice, read_modifier, read_multiplier, read_number


def low_end(r: Range) -> float:
    """The low end of a range, ``-inf`` for a "below" range (``<1``); for sorting and sweeping."""
    return float("-inf") if r.low is None else r.low


def high_end(r: Range) -> float:
    """The high end of a range, ``inf`` for an open range (``27+``)."""
    return float("inf") if r.high is None else r.high


def _numbers(values: Iterable[int]) -> str:
    """``[1, 2, 3, 5]`` → ``1-3, 5``."""
    runs: list[list[int]] = []
    for v in values:
        if runs and v == runs[-1][1] + 1:
            runs[-1][1] = v
        else:
            runs.append([v, v])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def _plural(word: str, items) -> str:
    """``roll`` or ``rolls``, agreeing with the number of ``items``."""
    return word + ("s" if len(items) != 1 else "")


def _verb(verb: str, items) -> str:
    """``find`` or ``finds``, agreeing with the number of ``items``."""
    return verb + ("" if len(items) != 1 else "s")


def _ranged(view: TableView) -> list[Column]:
    """Columns that are value ranges, in ascending order of their low end."""
    return sorted((c for c in view.columns if c.range is not None), key=lambda c: low_end(c.range))


def roll_rows(view: TableView) -> list[TableRow]:
    """Die-roll rows that read as ranges, in ascending order of their low end."""
    if view.row_keys != "rolls":
        return []
    return sorted((r for r in view.rows if r.roll is not None), key=lambda r: low_end(r.roll))


def _dice_rolled_on(idx: Index) -> dict[str, set[str]]:
    """Table name → dice named by ``effect roll DICE on TABLE`` lines."""
    out: dict[str, set[str]] = {}
    for decl in idx.declarations:
        for prop in decl.properties:
            if prop.name == "effect" and prop.get("effect") == "roll" and prop.get("table") is not None:
                out.setdefault(str(prop.get("table")), set()).add(str(prop.get("dice")))
    return out


def _table_dice(view: TableView, rolled_on: dict[str, set[str]]) -> Dice | None:
    """The dice a table is rolled with: its own ``roll``, else the one die every ``roll … on`` it names."""
    if view.dice is not None:
        return read_dice(view.dice)
    named = rolled_on.get(view.name, set())
    return read_dice(next(iter(named))) if len(named) == 1 else None


def _modified_tables(idx: Index) -> tuple[bool, set[str]]:
    """Whether rolls on every table may be modified, and which tables' rolls may be."""
    everywhere, named = False, set()
    tables = set(idx.names("table"))
    for decl in idx.declarations:
        for prop in decl.properties:
            if prop.name == "roll" and prop.get("modifier") is not None:
                # A mode's modifier may name its table; a combat's applies to the combat's table.
                target = prop.get("table") or (ref_of(decl, "table", "table") if decl.kind == "combat" else None)
                if target is None:
                    everywhere = True
                else:
                    named.add(str(target))
            elif prop.name == "effect" and prop.get("effect") == "modify":
                what = prop.get("what")
                if what in tables:
                    named.add(what)
                else:
                    everywhere = True
    return everywhere, named


@check("E201", "bad-column-heading")
def bad_column_heading(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a column heading that does not fit the table's `lookup`: a table looked up
    `by odds` needs odds headings (`1:2`, `3:1`); one looked up `by value` or by a factor
    needs numbers or ranges (`4`, `4-5`, `27+`, `<1`).

    ## Why is this bad?
    The engine finds a column by comparing the odds or total with the headings; a heading
    it cannot read is a column no combat can ever use.

    ## Example
    ```
    table crt {
        lookup by odds
        columns 1-2 1:1 2:1
    }
    ```
    Use instead: `columns 1:2 1:1 2:1`.
    """
    for view in index(rb).tables:
        if view.lookup == "key":
            continue
        for col in view.columns:
            if view.lookup == "odds" and col.odds is None:
                yield diagnostic("E201", col.span, f"column {col.label!r} of table {view.name!r} is not odds",
                                 "a table looked up by odds has headings like 1:2, 3:1")
            elif view.lookup != "odds" and col.range is None:
                yield diagnostic("E201", col.span, f"column {col.label!r} of table {view.name!r} is not a number "
                                 "or range", "headings of a table looked up by value are like 4, 4-5, 27+, <1")


def _column_key(col: Column):
    if col.odds is not None:
        return ("odds", col.odds.ratio)
    if col.range is not None:
        return ("range", col.range.low, col.range.high)
    return ("label", col.label)


@check("E202", "duplicate-column")
def duplicate_column(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a column heading given twice in a table, including headings written differently
    that mean the same odds (`2:1` and `4:2`) or the same range (`4-5` and `4..5`).

    ## Why is this bad?
    Only one of the two columns can ever be found; the other's cells are dead and the
    cells after it are probably shifted one column off.

    ## Example
    `columns 1:1 2:1 2:1 3:1` → `columns 1:1 2:1 3:1`.
    """
    for view in index(rb).tables:
        seen: dict = {}
        for col in view.columns:
            key = _column_key(col)
            if key in seen:
                first = seen[key]
                same = "is given twice" if first.label == col.label else f"means the same as {first.label!r}"
                yield diagnostic("E202", col.span, f"column {col.label!r} of table {view.name!r} {same}")
            else:
                seen[key] = col


@check("E203", "wrong-cell-count")
def wrong_cell_count(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a table row whose number of cells differs from the number of column headings,
    and a `printed columns` line that does not give one heading per column.

    ## Why is this bad?
    Every cell after a missing or extra one sits under the wrong heading; the engine would
    read a 3:1 result for a 2:1 attack.

    ## Example
    ```
    columns 1:1 2:1 3:1
    4: DR DE
    ```
    Use instead: `4: DR DE DE` (one cell per column).
    """
    for view in index(rb).tables:
        if not view.columns:
            continue
        width = len(view.columns)
        printed = view.decl.first("printed")
        if printed is not None and len(printed.words) - 2 != width:
            yield diagnostic("E203", printed.span, f"table {view.name!r} prints {len(printed.words) - 2} "
                             f"{_plural('heading', printed.words[2:])} for {width} columns")
        for row in view.rows:
            if len(row.cells) != width:
                yield diagnostic("E203", row.span, f"row {row.key!r} of table {view.name!r} has {len(row.cells)} "
                                 f"{_plural('cell', row.cells)} for {width} columns")


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


@check("E205", "uncovered-die-roll")
def uncovered_die_roll(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports die results that no row of a table keyed by rolls covers: a `d6` table needs
    rows for 1 to 6, a `2d6` table for 2 to 12. With `rolls outside use nearest row`, only
    gaps between rows are reported.

    ## Why is this bad?
    A roll that finds no row has no result; the game stops at the first unlucky roll.

    ## Example
    ```
    roll d6
    1-2: AE
    4-6: DE
    ```
    Use instead: add a row for `3`.
    """
    idx = index(rb)
    rolled_on = _dice_rolled_on(idx)
    for view in idx.tables:
        rows = roll_rows(view)
        dice = _table_dice(view, rolled_on)
        if not rows or dice is None or dice.high - dice.low > 10_000:
            continue
        low, high = dice.low, dice.high
        if view.decl.has("rolls"):  # rolls outside use nearest row: only holes between rows find none
            low = int(max(low, low_end(rows[0].roll)))
            high = int(min(high, max(high_end(r.roll) for r in rows)))
        missing: list[int] = []
        needed = low  # the lowest roll not yet covered
        for row in rows:
            start = low_end(row.roll)
            if start > needed:
                missing.extend(range(needed, int(min(start, high + 1))))
            needed = int(max(needed, min(high_end(row.roll), high) + 1))
        missing.extend(range(needed, high + 1))
        if missing:
            rolls = f"{_plural('roll', missing)} {_numbers(missing)} on {dice} {_verb('find', missing)}"
            yield diagnostic("E205", view.decl.name_span, f"{rolls} no row in table {view.name!r}",
                             "add rows so every die result has one")


@check("E206", "overlapping-rows")
def overlapping_rows(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a die-roll row whose range overlaps an earlier row (`1-3` and `3-4`, or the
    same roll twice).

    ## Why is this bad?
    One roll would match two rows; which result applies depends on the order of the lines.

    ## Example
    `1-3: AE` and `3-6: DE` → `1-3: AE` and `4-6: DE`.
    """
    for view in index(rb).tables:
        reach: TableRow | None = None
        for row in roll_rows(view):
            if reach is not None and row.roll.overlaps(reach.roll):
                yield diagnostic("E206", row.key_words[0].span,
                                 f"row {row.key!r} of table {view.name!r} overlaps row {reach.key!r}",
                                 f"row {reach.key!r} is at line {reach.span.line}")
            if reach is None or high_end(row.roll) > high_end(reach.roll):
                reach = row


@check("E207", "unreachable-row")
def unreachable_row(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a die-roll row wholly outside what the table's dice can roll (`7` on a `d6`
    table) when nothing in the rulebook modifies rolls on that table.

    ## Why is this bad?
    No roll can reach the row, so its results never happen; usually the die or the key is
    wrong (`d6` for `2d6`, `7` for `1`).

    ## Example
    ```
    roll d6
    7: DE
    ```
    Use instead: a row the die can roll, or a `roll modifier` on the combat that reaches it.
    """
    idx = index(rb)
    rolled_on = _dice_rolled_on(idx)
    everywhere, modified = _modified_tables(idx)
    if everywhere:
        return
    for view in idx.tables:
        dice = _table_dice(view, rolled_on)
        if dice is None or view.name in modified:
            continue
        for row in roll_rows(view):
            if high_end(row.roll) < dice.low or low_end(row.roll) > dice.high:
                yield diagnostic("E207", row.key_words[0].span,
                                 f"row {row.key!r} of table {view.name!r} is outside what {dice} can roll",
                                 f"{dice} rolls {dice.low} to {dice.high} and nothing modifies rolls on this table")


@check("E208", "overlapping-columns")
def overlapping_columns(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports value columns whose ranges overlap (`4-6` and `6-8`) in a table looked up by
    value or by a factor.

    ## Why is this bad?
    A total of 6 would match both columns; the result depends on the order of the headings.

    ## Example
    `columns 1-3 3-5 6+` → `columns 1-3 4-5 6+`.
    """
    for view in index(rb).tables:
        reach: Column | None = None
        for col in _ranged(view):
            if reach is not None and col.range.overlaps(reach.range) and _column_key(col) != _column_key(reach):
                yield diagnostic("E208", col.span,
                                 f"column {col.label!r} of table {view.name!r} overlaps column {reach.label!r}")
            if reach is None or high_end(col.range) > high_end(reach.range):
                reach = col


@check("E209", "gap-between-columns")
def gap_between_columns(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports totals that fall between two value columns (`1-3` then `5-6`: a total of 4 finds
    no column).

    ## Why is this bad?
    A fight with that total has no column to roll on. `above last column use last` and
    `below first column use first` cover the ends only, never a hole in the middle.

    ## Example
    `columns 1-3 5-6 7+` → `columns 1-4 5-6 7+`.
    """
    for view in index(rb).tables:
        reach: Column | None = None
        for col in _ranged(view):
            if reach is not None and reach.range.high is not None and col.range.low is not None \
                    and col.range.low > reach.range.high + 1:
                totals = range(reach.range.high + 1, col.range.low)
                yield diagnostic("E209", col.span, f"{_plural('total', totals)} {_numbers(totals)} "
                                 f"{_verb('find', totals)} no column in table {view.name!r}",
                                 f"extend {reach.label!r} or {col.label!r} to cover them")
            if reach is None or high_end(col.range) > high_end(reach.range):
                reach = col


@check("E210", "columns-out-of-order")
def columns_out_of_order(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a column heading lower than the heading before it: odds and value columns run
    from the firer's weakest to its strongest, left to right.

    ## Why is this bad?
    Column shifts count along the headings (`1R` moves one column right, toward the
    stronger side); out of order, a shift can move a fight to weaker odds.

    ## Example
    `columns 1:1 3:1 2:1` → `columns 1:1 2:1 3:1`.
    """
    for view in index(rb).tables:
        previous: Column | None = None
        for col in view.columns:
            if col.odds is not None:
                if previous is not None and previous.odds is not None and col.odds.ratio < previous.odds.ratio:
                    yield diagnostic("E210", col.span, f"column {col.label!r} of table {view.name!r} comes after "
                                     f"the higher {previous.label!r}", "order odds columns from lowest to highest")
            elif col.range is not None:
                if previous is not None and previous.range is not None and low_end(col.range) < low_end(previous.range):
                    yield diagnostic("E210", col.span, f"column {col.label!r} of table {view.name!r} comes after "
                                     f"the higher {previous.label!r}", "order value columns from lowest to highest")
            else:
                continue
            previous = col


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


@check("E212", "table-without-columns")
def table_without_columns(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a table whose rows have more than one cell but which has no `columns` line.
    A table with one cell per row (a random events list) needs no headings.

    ## Why is this bad?
    Without headings the engine cannot find a column for a fight, and `warbook show`
    cannot print the table as the source does.

    ## Example
    ```
    table crt {
        1: AE AR DR
    }
    ```
    Use instead: add `columns 1:1 2:1 3:1` (and `lookup by odds`).
    """
    for view in index(rb).tables:
        if not view.columns and any(len(row.cells) > 1 for row in view.rows):
            yield diagnostic("E212", view.decl.name_span,
                             f"table {view.name!r} has rows of several cells but no 'columns'",
                             "add 'columns' with one heading per cell")


@check("E213", "empty-table")
def empty_table(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a table with no rows.

    ## Why is this bad?
    Every lookup in it fails. Usually the rows were left for later or lost in an override.

    ## Example
    ```
    table events {
        roll d6
    }
    ```
    Use instead: add the rows (`1: ambush`), marking unknown cells `?` with a `gap`.
    """
    for view in index(rb).tables:
        if not view.rows:
            yield diagnostic("E213", view.decl.name_span, f"table {view.name!r} has no rows")


@check("E214", "unknown-shifted-column")
def unknown_shifted_column(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `shifted only` line naming a column the table does not have.

    ## Why is this bad?
    The column meant to be reachable only by a shift stays reachable by totals, or the
    misspelt heading hides that the column is missing.

    ## Example
    ```
    columns <1* 1 2 3
    shifted only <1
    ```
    Use instead: `shifted only <1*` (the heading as written).
    """
    for view in index(rb).tables:
        labels = [c.label for c in view.columns]
        for prop in view.decl.all("shifted"):
            for word in prop.words[2:]:
                if word.text not in labels:
                    yield diagnostic("E214", word.span, f"'shifted only' names no column {word.text!r} of table "
                                     f"{view.name!r}", did_you_mean(word.text, labels))


@check("E215", "bad-row-key")
def bad_row_key(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a row key that is not a die result in a table keyed by rolls (the default for a
    table with a `roll` line): keys are numbers or ranges (`3`, `1..3`, `4-5`, `6+`, `<1`).

    ## Why is this bad?
    No roll can match the row. A range written high to low (`6..4`) is the usual slip.

    ## Example
    `6..4: DE` → `4..6: DE`; for rows keyed by names, say `row keys names`.
    """
    for view in index(rb).tables:
        if view.row_keys != "rolls":
            continue
        for row in view.rows:
            if row.roll is not None:
                continue
            if len(row.key_words) == 1 and is_backwards_range(row.key):
                hint = "write the range from low to high"
            else:
                hint = "die-roll keys are like 3, 1..3, 4-5, 6+; for named rows add 'row keys names'"
            yield diagnostic("E215", row.key_words[0].span,
                             f"row key {row.key!r} of table {view.name!r} is not a die roll", hint)


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
                cells = f"{len(provisional)} provisional {_plural('cell', provisional)}"
                yield diagnostic("E216", provisional[0].span, f"row {row.key!r} of table {view.name!r} has {cells} "
                                 "but no gap", 'add gap "…" to the row or the table saying what the value rests on')


@check("E217", "duplicate-row-key")
def duplicate_row_key(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a row key given twice in a table keyed by names (`row keys names`). Repeated
    or overlapping die rolls are `E206`.

    ## Why is this bad?
    Only the first row can ever be found.

    ## Example
    ```
    row keys names
    clear: 1
    clear: 2
    ```
    Use instead: one row per key.
    """
    for view in index(rb).tables:
        if view.row_keys != "names":
            continue
        seen: dict[str, TableRow] = {}
        for row in view.rows:
            if row.key in seen:
                yield diagnostic("E217", row.key_words[0].span, f"row {row.key!r} of table {view.name!r} is given "
                                 "twice", f"first given at line {seen[row.key].span.line}")
            else:
                seen[row.key] = row


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


@check("E219", "rolls-without-dice")
def rolls_without_dice(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a table keyed by rolls (`row keys rolls`) that says neither what is rolled on it
    (`roll d6`) nor is rolled on by any `effect roll DICE on TABLE`.

    ## Why is this bad?
    The engine does not know which dice to roll, and the linter cannot check that every
    die result has a row.

    ## Example
    ```
    table hits {
        row keys rolls
        1-2: hit
    }
    ```
    Use instead: add `roll d10`.
    """
    idx = index(rb)
    rolled_on = _dice_rolled_on(idx)
    for view in idx.tables:
        if view.row_keys == "rolls" and view.dice is None and view.name not in rolled_on:
            yield diagnostic("E219", view.decl.first("row").span, f"table {view.name!r} is keyed by rolls but "
                             "nothing says which dice", "add 'roll d6' (or the dice rolled on it)")

