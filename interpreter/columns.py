"""Where an attack lands on its table, from numbers alone: odds or totals to a column, shifts, the
edges, and the row a (modified) roll reads.

These are the table arithmetic of ``interpreter.combat`` (whose docstring gives the readings:
rounding, whole odds, totals, off the table), kept apart from any game state so that
``interpreter.odds`` computes exact result distributions with the very functions play uses.

>>> roll_distribution(Dice(2, 6))[7]
Fraction(1, 6)
"""

from __future__ import annotations

import itertools
import math
from bisect import bisect_left, bisect_right
from fractions import Fraction

from ..dsl.tables import TableView
from ..dsl.values import Dice, Odds


_HEADINGS: dict[tuple[tuple[int, int, int], ...], tuple[list[tuple[Fraction, int]], list[Fraction]]] = {}
"""The odds columns of each set of odds headings (``_odds_columns``), by the headings' numbers and
places: as many as the distinct tables loaded."""


def _odds_columns(view: TableView) -> tuple[list[tuple[Fraction, int]], list[Fraction]]:
    """The table's odds columns (not ``shifted only``) as ``(ratio, index)`` in ascending order, and
    their ratios alone: made once per set of headings (a ``Fraction`` is made and compared in
    Python, and every attack read them all several times over, in ``odds_column`` and ``odds_edge``)."""
    key = tuple([(c.odds.attack, c.odds.defence, i) for i, c in enumerate(view.columns)
                 if c.odds is not None and not c.shifted_only])
    found = _HEADINGS.get(key)
    if found is None:
        columns = sorted((Fraction(a, d), i) for a, d, i in key)
        found = _HEADINGS[key] = (columns, [ratio for ratio, _ in columns])
    return found


def table_rounding(view: TableView) -> str:
    """The table's ``rounding`` line as words (``"for defender"``), or ``"down"`` when it has none."""
    return view.rounding


def better_direction(view: TableView) -> int:
    """+1 when results improve for the roller to the right (the default), -1 when to the left."""
    return view.better


def odds_column(view: TableView, attack: Fraction, defence: Fraction, rounding: str) -> int:
    """The column index for ``attack`` against ``defence`` on a table looked up by odds.

    With columns ``1:4 1:3 1:2 1:1 2:1 3:1 4:1`` and ``for defender``: 7 against 3
    (2.33:1) is 2:1, 3 against 7 (1:2.33) is 1:3, 9 against 2 is 4:1 (above the
    last column) and 1 against 5 is 1:4 (below the first).
    """
    columns, ratios = _odds_columns(view)
    if not columns:
        raise ValueError(f"table {view.name!r} has no odds columns")
    if defence <= 0:
        return columns[-1][1]
    ratio = Fraction(attack) / Fraction(defence)
    # In ascending order: the columns at or below the ratio end at ``under``, those at or above start at ``over``.
    under, over = bisect_right(ratios, ratio), bisect_left(ratios, ratio)
    if rounding in ("for attacker", "up"):
        return columns[over][1] if over < len(columns) else columns[-1][1]
    if rounding == "nearest" and under and over < len(columns):
        low, high = columns[under - 1], columns[over]
        return high[1] if high[0] - ratio < ratio - low[0] else low[1]
    return columns[under - 1][1] if under else columns[0][1]


def _whole_odds(ratio: Fraction, rounding: str) -> Fraction:
    """The ratio as whole odds, N:1 or 1:N, rounded as the table says (7 to 3 for defender: 2:1)."""
    value = ratio if ratio >= 1 else 1 / ratio
    for_defender = math.floor if ratio >= 1 else math.ceil  # 2.33:1 → 2:1, 1:2.33 → 1:3
    for_attacker = math.ceil if ratio >= 1 else math.floor
    if rounding == "nearest":
        low, high = math.floor(value), math.ceil(value)
        whole = for_defender(value) if value - low == high - value else low if value - low < high - value else high
    else:
        whole = (for_attacker if rounding in ("for attacker", "up") else for_defender)(value)
    return Fraction(whole) if ratio >= 1 else Fraction(1, whole)


def odds_edge(view: TableView, attack: Fraction, defence: Fraction, rounding: str) -> str | None:
    """``above`` or ``below`` when the odds, rounded to whole odds as the table says, are past its
    last or first odds column (9 against 2 on a table ending at 4:1 is 4:1 for the defender but
    5:1, above it, for the attacker); ``None`` when a column holds them."""
    ratios = _odds_columns(view)[1]
    if not ratios:
        return None
    if defence <= 0:
        return "above"
    if attack <= 0:  # no strength at all (an effect's `attack … with 0`): below every column
        return "below"
    whole = _whole_odds(Fraction(attack) / Fraction(defence), rounding)
    return "above" if whole > ratios[-1] else "below" if whole < ratios[0] else None


def _whole_total(total: Fraction, rounding: str) -> int:
    total = Fraction(total)
    return math.ceil(total) if rounding in ("up", "for attacker") else \
        round(total) if rounding == "nearest" else math.floor(total)


def value_edge(view: TableView, total: Fraction, rounding: str = "down") -> str | None:
    """``above`` or ``below`` when the total (rounded as the table says) is past the printed ranges
    of the columns a total can find; ``None`` when one holds it."""
    usable = [c.range for c in view.columns if c.range is not None and not c.shifted_only]
    if not usable:
        return None
    whole = _whole_total(total, rounding)
    if usable[-1].high is not None and whole > usable[-1].high:
        return "above"
    if usable[0].low is not None and whole < usable[0].low:
        return "below"
    return None


def value_column(view: TableView, total: Fraction, rounding: str = "down") -> int:
    """The column index whose printed range holds ``total`` (``lookup by value`` or by a factor).

    Columns marked ``shifted only`` are never found by a total; totals beyond the
    ranges use the first or last of the other columns.
    """
    whole = _whole_total(total, rounding)
    usable = [(i, c) for i, c in enumerate(view.columns) if c.range is not None and not c.shifted_only]
    if not usable:
        raise ValueError(f"table {view.name!r} has no value columns")
    for index, column in usable:
        if whole in column.range:
            return index
    first, last = usable[0], usable[-1]
    if last[1].range.high is not None and whole > last[1].range.high:
        return last[0]
    return first[0]


def base_column(view: TableView, attack: Fraction, defence: Fraction,
                fixed_odds: Odds | None = None) -> tuple[int, str | None]:
    """(column index, edge) before any shift: from fixed odds, the odds of attack to defence, or the
    attack total, as the table is looked up and rounded; needs no game (``interpreter.odds``)."""
    rounding = table_rounding(view)
    if fixed_odds is not None:
        odds = Fraction(fixed_odds.attack), Fraction(fixed_odds.defence)
        return odds_column(view, *odds, rounding), odds_edge(view, *odds, rounding)
    if view.lookup == "odds":
        return odds_column(view, attack, defence, rounding), odds_edge(view, attack, defence, rounding)
    return value_column(view, attack, rounding), value_edge(view, attack, rounding)


def shifted_column(view: TableView, base: int, edge: str | None, shift: int) -> tuple[int, str | None]:
    """(column index, edge) after ``shift`` columns (positive: right), clamped to the table's first or
    last column; the edge is then the one the shift went past."""
    shifted = base + shift
    index = min(max(shifted, 0), len(view.columns) - 1)
    if shifted != index:
        edge = "above" if shifted > index else "below"
    return index, edge


def row_for(view: TableView, roll: int) -> int:
    """The row a (modified) roll reads; beyond the printed rows, the nearest row."""
    return row_lookup(view, roll)[0]


def row_lookup(view: TableView, roll: int) -> tuple[int, bool]:
    """(the row a modified roll reads, whether the roll is past the printed rows): past them, the
    nearest row (what ``rolls outside use nearest row`` says, and the reading of a table that
    does not say; ``TableView.says_off_table``)."""
    rows = [(i, r.roll) for i, r in enumerate(view.rows) if r.roll is not None]
    for index, keys in rows:
        if roll in keys:
            return index, False

    def gap(item) -> float:
        keys = item[1]
        low = float("-inf") if keys.low is None else keys.low
        high = float("inf") if keys.high is None else keys.high
        return low - roll if roll < low else roll - high

    return min(rows, key=gap)[0], True


def roll_distribution(dice: Dice) -> dict[int, Fraction]:
    """Each total of ``dice`` with its exact chance (2d6: 7 is 1/6)."""
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, dice.faces + 1), repeat=dice.count):
        counts[sum(faces)] = counts.get(sum(faces), 0) + 1
    total = dice.faces ** dice.count
    return {value: Fraction(n, total) for value, n in sorted(counts.items())}
