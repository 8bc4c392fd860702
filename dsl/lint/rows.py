"""E2xx: die-roll rows: every roll the dice can make finds exactly one row, and the dice are known.

A table keyed by rolls (the default for a table with a ``roll`` line) is read
as ranges of die results; these checks sweep the rows in order of their low
end against what the table's dice can roll.

W510 asks whether a combat's table says what a roll modified past its rows reads: the modifiers
play can add to rolls on it (``_roll_modifiers``) are summed, each sign apart, onto its dice.

Limits: the linter does not evaluate modifiers' conditions.  Whether a row outside the
die (``0``, ``7``) is reachable (E207) is judged from whether anything in the
rulebook modifies rolls on that table; an ``effect modify … roll`` whose words
name no table is taken to reach every table.
"""

from __future__ import annotations

from typing import Iterator

from ..diagnostics import Diagnostic, diagnostic
from . import check
from .names import Index, index, ref_of
from .tables import high_end, low_end, number_ranges, plural, verb_agreeing
from ..model import Rulebook
from ..tables import TableRow, TableView
from ..values import Dice, is_backwards_range, read_dice


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
            rolls = f"{plural('roll', missing)} {number_ranges(missing)} on {dice} {verb_agreeing('find', missing)}"
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



def _roll_modifiers(idx: Index) -> dict[str, list[int]]:
    """Combat table → the modifiers play may add to a roll on it: its combat's ``roll modifier``
    lines, modes' ``roll modifier`` (on it, or on no table named), and for a combat fought by
    ``resolve fire`` counters' ``effect modify fire roll``.  Rolls on other tables are never
    modified at play."""
    fired = {str(p.get("combat")) for sequence in idx.of_kind("sequence") for d in sequence.walk()
             for p in d.all("do") if p.get("procedure") == "resolve fire"}
    fire = [int(p.get("modifier")) for d in idx.declarations for p in d.properties
            if p.name == "effect" and p.get("effect") == "modify" and p.get("what") == "fire"]
    modes = [(int(p.get("modifier")), ref_of(mode, "roll", "table")) for mode in idx.of_kind("mode")
             for p in mode.all("roll") if p.get("modifier") is not None]
    out: dict[str, list[int]] = {}
    for combat in idx.of_kind("combat"):
        table = ref_of(combat, "table", "table")
        if table is None:
            continue
        found = out.setdefault(table, [])
        found += [int(p.get("modifier")) for p in combat.all("roll") if p.get("modifier") is not None]
        found += [m for m, on in modes if on in (None, table)]
        if combat.name in fired:
            found += fire
    return out


@check("W510", "off-table-roll-unsaid")
def off_table_roll_unsaid(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a combat's table whose rolls play may modify past its printed rows (a `+1` on a
    `d6` table whose last row is `6`) when the table does not say `rolls outside use nearest row`.

    ## Why is this bad?
    The rules are silent where play can go. The engine reads the nearest row, as most games do,
    and says in the log that the reading is its own; writing the line makes it the rulebook's,
    with its section or a `gap`. An open row (`6+`, `<1`) needs no line.

    ## Example
    ```
    mode steady {
        roll modifier -1 on crt
    }
    table crt {
        roll d6
        1: DE
        2-6: NE
    }
    ```
    Use instead: add `rolls outside use nearest row`, or key the first row `<2`.
    """
    idx = index(rb)
    modifiers = _roll_modifiers(idx)
    for view in idx.tables:
        rows, found = roll_rows(view), modifiers.get(view.name, [])
        if not rows or view.rolls_nearest is not None or view.dice is None or not found:
            continue
        dice = read_dice(view.dice)
        low = dice.low + sum(m for m in found if m < 0)  # modifiers may add up
        high = dice.high + sum(m for m in found if m > 0)
        top = max(high_end(r.roll) for r in rows)
        if high > top or low < low_end(rows[0].roll):
            past = high if high > top else low
            yield diagnostic("W510", view.decl.name_span, f"a modified roll of {past} on table {view.name!r} is "
                             "past its rows, and the table does not say what it reads",
                             "add 'rolls outside use nearest row' (with a gap when the source is silent); until "
                             "then play uses the nearest row as the engine's own reading")
