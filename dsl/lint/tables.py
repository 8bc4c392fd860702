"""E2xx: the structure of tables: column headings, one cell per column, a table with rows.

Each check reads tables through ``dsl.tables.TableView``, the same view the
interpreter and ``warbook show`` use, so the linter and the engine agree on
what a heading, a row key and a cell are.  The die-roll rows are
``dsl.lint.rows``, what the cells say ``dsl.lint.cells``, and what a combat
result's effects may do ``dsl.lint.contexts``.  The helpers at the top (range
ends, wording of counts) are shared by those modules.

The last checks are about fights past a combat's table (W509: whether the table says what they
read) and about battles of more than one round (E225: the combat's ``recycle`` and the
sequence's ``repeat`` agree).

Limits: value columns are checked as written; the linter does not evaluate the
modifiers and shifts that move a fight between columns, only whether any may apply.
"""

from __future__ import annotations

from typing import Iterable, Iterator

from ..diagnostics import Diagnostic, diagnostic, did_you_mean
from . import check
from .names import describe, index, ref_of
from ..model import Declaration, Property, Rulebook
from ..tables import Column, TableView
from ..values import Range
from ..vocabulary import REPEAT_CONDITION


def low_end(r: Range) -> float:
    """The low end of a range, ``-inf`` for a "below" range (``<1``); for sorting and sweeping."""
    return float("-inf") if r.low is None else r.low


def high_end(r: Range) -> float:
    """The high end of a range, ``inf`` for an open range (``27+``)."""
    return float("inf") if r.high is None else r.high


def number_ranges(values: Iterable[int]) -> str:
    """``[1, 2, 3, 5]`` → ``1-3, 5``."""
    runs: list[list[int]] = []
    for v in values:
        if runs and v == runs[-1][1] + 1:
            runs[-1][1] = v
        else:
            runs.append([v, v])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def plural(word: str, items) -> str:
    """``roll`` or ``rolls``, agreeing with the number of ``items``."""
    return word + ("s" if len(items) != 1 else "")


def verb_agreeing(verb: str, items) -> str:
    """``find`` or ``finds``, agreeing with the number of ``items``."""
    return verb + ("" if len(items) != 1 else "s")


def _ranged(view: TableView) -> list[Column]:
    """Columns that are value ranges, in ascending order of their low end."""
    return sorted((c for c in view.columns if c.range is not None), key=lambda c: low_end(c.range))


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
                             f"{plural('heading', printed.words[2:])} for {width} columns")
        for row in view.rows:
            if len(row.cells) != width:
                yield diagnostic("E203", row.span, f"row {row.key!r} of table {view.name!r} has {len(row.cells)} "
                                 f"{plural('cell', row.cells)} for {width} columns")


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
                yield diagnostic("E209", col.span, f"{plural('total', totals)} {number_ranges(totals)} "
                                 f"{verb_agreeing('find', totals)} no column in table {view.name!r}",
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



# --- past the table's edges, and battles of more than one round -------------------------------------


def _shifts_possible(combat: Declaration, counters_shift: bool) -> bool:
    """Whether anything may shift a combat's column: its ``shift`` or ``column shift`` lines,
    ``terrain shifts columns``, or (``counters_shift``) a counter's ``effect shift``."""
    terrain = combat.first("terrain")
    return (counters_shift or combat.has("shift") or combat.has("column")
            or (terrain is not None and terrain.has("shifts")))


def _edges_reached(view: TableView, combat: Declaration, shifts: bool) -> list[str]:
    """The edges (``above``, ``below``) a combat's fight may go past on ``view``: any, for odds
    (a ratio has no bound); for totals, past a bounded last range or a first range above 0
    (totals are never negative); and any edge when something may shift the column."""
    if combat.has("fixed"):
        return ["above", "below"] if shifts else []
    if view.lookup == "odds":
        return ["above", "below"]
    usable = [c.range for c in view.columns if c.range is not None and not c.shifted_only]
    if not usable:
        return []
    return [edge for edge, reached in (("above", shifts or usable[-1].high is not None),
                                       ("below", shifts or (usable[0].low is not None and usable[0].low > 0)))
            if reached]


@check("W509", "off-table-column-unsaid")
def off_table_column_unsaid(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a table a combat reads that does not say what a fight past its columns reads
    (`above last column use last`, `below first column use first`) when a fight can go there:
    odds always can; totals past a bounded last range (`10-12`) or below a first range (`1`);
    either, when a shift may apply.

    ## Why is this bad?
    The rules are silent where play can go. The engine uses the last (first) column, as most
    games do, and says in the log that the reading is its own; writing the line makes it the
    rulebook's, with its section or a `gap`.

    ## Example
    ```
    table crt {
        lookup by odds
        columns 1:2 1:1 2:1
    }
    ```
    Use instead: add `above last column use last` and `below first column use first`.
    """
    idx = index(rb)
    counters_shift = any(p.name == "effect" and p.get("effect") == "shift"
                         for d in idx.declarations for p in d.properties)
    said = {"above": "above last column use last", "below": "below first column use first"}
    for view in idx.tables:
        edges: dict[str, str] = {}
        for combat in idx.of_kind("combat"):
            if ref_of(combat, "table", "table") != view.name:
                continue
            for edge in _edges_reached(view, combat, _shifts_possible(combat, counters_shift)):
                edges.setdefault(edge, combat.name)
        for edge, combat_name in edges.items():
            if view.says_off_table(edge) is None:
                past = "above its last column" if edge == "above" else "below its first column"
                yield diagnostic("W509", view.decl.name_span, f"table {view.name!r} (read by combat "
                                 f"{combat_name!r}) does not say what a fight {past} reads",
                                 f"add '{said[edge]}' (with a gap when the source is silent); until then "
                                 f"play uses that column as the engine's own reading")


def _repeats_rounds(decl: Declaration) -> bool:
    repeat = decl.first("repeat")
    words = " ".join(str(w) for w in (repeat.get("condition") or ())) if repeat is not None else ""
    return words == REPEAT_CONDITION


def _fire_lines(decl: Declaration, repeated: Declaration | None = None) -> Iterator[tuple[Property, Declaration, Declaration | None]]:
    """Every ``do resolve fire`` line under ``decl``: (line, its phase or step, the nearest phase
    or step around it, itself included, that repeats until only one side remains)."""
    for child in decl.children:
        if child.kind not in ("phase", "step"):
            continue
        here = child if _repeats_rounds(child) else repeated
        for line in child.all("do"):
            if line.get("procedure") == "resolve fire":
                yield line, child, here
        yield from _fire_lines(child, here)


@check("E225", "recycle-mismatch")
def recycle_mismatch(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `do resolve fire with COMBAT` line whose combat and sequence disagree on how long a
    battle lasts: the combat says `recycle until one side remains` but no phase or step around
    the line repeats (`repeat until only one side remains in the contested square`), or a step
    repeats so while the combat does not recycle.

    ## Why is this bad?
    A battle's round is a run of steps (recon, support, fire), so the sequence repeats it; the
    combat says whether its battles go on after the first round. Without the repeat nothing
    would fight the second round the combat promises; without `recycle` the battle ends after
    one round and the repeat never runs again.

    ## Example
    ```
    combat fire {
        table crt
        recycle until one side remains
    }
    step fire {
        do resolve fire with fire
    }
    ```
    Use instead: put the round's steps in a step that says `repeat until only one side remains
    in the contested square`.
    """
    idx = index(rb)
    for sequence in idx.of_kind("sequence"):
        for line, step, repeated in _fire_lines(sequence):
            combat = idx.get("combat", str(line.get("combat")))
            if combat is None:
                continue
            if combat.has("recycle") and repeated is None:
                yield diagnostic("E225", line.span, f"combat {combat.name!r} recycles until one side remains, but "
                                 f"nothing around {describe(step)} repeats its rounds",
                                 "add 'repeat until only one side remains in the contested square' to the step "
                                 "holding the round")
            elif not combat.has("recycle") and repeated is not None:
                yield diagnostic("E225", repeated.first("repeat").span, f"{describe(repeated)} repeats until only "
                                 f"one side remains, but combat {combat.name!r} does not recycle: its battle ends "
                                 "after one round", f"add 'recycle until one side remains' to combat {combat.name!r}, "
                                 "or drop the repeat")
