"""W5xx: table sanity under the rulebook's own ordering of results, and other numbers that disagree.

A table may say which way results improve for the roller (``better for roller
right``, ``higher rolls better for roller``) and each result how good it is
for the roller (``worth 2``; a compound ``K+R`` is worth the sum of its parts).
Only then can the linter tell a misprint from a design: these checks never
guess an ordering the rulebook does not declare.

Limits: worth is one number per result, so results that are good in one
table and bad in another cannot be ordered; cells whose worth is unknown are
skipped (and reported by W503), comparing each cell with the nearest known
one before it.
"""

from __future__ import annotations

from typing import Iterator

from ..diagnostics import Diagnostic, diagnostic
from . import check
from .names import index, ref_of
from .rows import roll_rows
from .tables import high_end, low_end
from ..model import Rulebook
from ..tables import TableView, cell_worth, result_parts


def _ordered(view: TableView, prop: str) -> str | None:
    """The last word of an ordering property (``right``/``left``, ``better``/``worse``) on a results table."""
    found = view.decl.first(prop)
    if found is None or view.cells_are != "results":
        return None
    return found.words[-1].text if prop == "better" else found.words[2].text


def _out_of_order(code: str, view: TableView, line, better: bool, before: str, idx) -> Iterator[Diagnostic]:
    """Compare each cell of ``line`` (``(cell, where)`` pairs in reading order) with the nearest
    earlier cell of known worth; ``better`` says whether worth should rise along the line."""
    previous = None  # (cell, worth)
    for cell, where in line:
        worth = cell_worth(idx, cell.text)  # type: ignore[arg-type]
        if worth is None:
            continue
        if previous is not None and (worth < previous[1] if better else worth > previous[1]):
            yield diagnostic(code, cell.span, f"{cell.text!r} {where} of table {view.name!r} is "
                             f"{'worse' if better else 'better'} for the roller than {previous[0].text!r} {before}",
                             f"worth {worth} after {previous[1]}; check the cell against the source")
        previous = (cell, worth)


@check("W501", "row-out-of-order")
def row_out_of_order(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    In a table that says `better for roller right` (or `left`), reports a cell worse for the
    roller than the cell before it along its row, judged by each result's `worth`.

    ## Why is this bad?
    More odds or more firepower should never hurt the roller; a cell that does is usually
    a misprint or a slip in copying the table.

    ## Example
    ```
    better for roller right
    1: AE DR AE
    ```
    With `AE` worth -2 and `DR` worth 1, the third cell is worse than the second.
    """
    idx = index(rb)
    for view in idx.tables:
        direction = _ordered(view, "better")
        if direction not in ("right", "left"):
            continue
        for row in view.rows:
            cells = row.cells if direction == "right" else tuple(reversed(row.cells))
            line = [(cell, f"in row {row.key!r}") for cell in cells]
            before = "to its left" if direction == "right" else "to its right"
            yield from _out_of_order("W501", view, line, True, before, idx)


@check("W502", "column-out-of-order")
def column_out_of_order(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    In a table that says `higher rolls better for roller` (or `worse`), reports a cell down a
    column that goes the wrong way compared with the rows for lower rolls, judged by `worth`.

    ## Why is this bad?
    When higher rolls help the roller, a high roll giving a worse result than a low one is
    usually a misprint or a row copied into the wrong place.

    ## Example
    ```
    higher rolls worse for roller
    1: DE
    2: AE
    3: DR
    ```
    `DR` on 3 is better for the roller than `AE` on 2.
    """
    idx = index(rb)
    for view in idx.tables:
        direction = _ordered(view, "higher")
        if direction not in ("better", "worse"):
            continue
        rows = roll_rows(view)
        for i, column in enumerate(view.columns or [None]):
            where = f" in column {column.label!r}" if column is not None else ""
            line = [(row.cells[i], f"on roll {row.key!r}{where}") for row in rows if i < len(row.cells)]
            yield from _out_of_order("W502", view, line, direction == "better", "on a lower roll", idx)


@check("W503", "result-without-worth")
def result_without_worth(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a result used in a table that declares an ordering (`better for roller …` or
    `higher rolls … for roller`) when the result has no `worth`. Reported once per result
    and table, at its first cell.

    ## Why is this bad?
    W501 and W502 skip cells whose worth is unknown, so the table is only partly checked.

    ## Example
    ```
    better for roller right
    result DR "Defender retreats" {
        effect retreat defenders 1
    }
    ```
    Use instead: add `worth 1` to the result.
    """
    idx = index(rb)
    for view in idx.tables:
        if _ordered(view, "better") is None and _ordered(view, "higher") is None:
            continue
        reported: set[str] = set()
        for row in view.rows:
            for cell in row.cells:
                for part in result_parts(idx, cell.text) or ():  # type: ignore[arg-type]
                    if part.name not in reported and not part.has("worth"):
                        reported.add(part.name)
                        yield diagnostic("W503", cell.span, f"result {part.name!r} in table {view.name!r} has no "
                                         "worth, so its order cannot be checked", "add 'worth N' to the result "
                                         "(positive: good for the roller)")


@check("W504", "result-without-effect")
def result_without_effect(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `result` or `event` with no `effect` line.

    ## Why is this bad?
    The engine would apply nothing; players would read the text and the game would
    ignore it. A result that truly does nothing should say `effect no effect`.

    ## Example
    ```
    result NE "No effect" {
        text "Nothing happens."
    }
    ```
    Use instead: add `effect no effect`.
    """
    idx = index(rb)
    for decl in (*idx.of_kind("result"), *idx.of_kind("event")):
        if not decl.has("effect"):
            yield diagnostic("W504", decl.name_span, f"{decl.kind} {decl.name!r} has no effect",
                             "add 'effect …' (or 'effect no effect' when it does nothing)")


@check("W505", "victory-levels-gap")
def victory_levels_gap(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports victory levels whose ranges overlap, or leave margins between them that no
    level covers (`0-25` then `27-50`).

    ## Why is this bad?
    A game ending on such a margin has two results, or none.

    ## Example
    ```
    level draw 0-25
    level marginal 27-50
    ```
    Use instead: `level marginal 26-50`.
    """
    for victory in index(rb).of_kind("victory"):
        levels = sorted(((p.get("range"), p) for p in victory.all("level") if p.get("range") is not None),
                        key=lambda item: low_end(item[0]))
        reach = None
        for rng, prop in levels:
            if reach is not None:
                before, before_prop = reach
                if rng.overlaps(before):
                    yield diagnostic("W505", prop.span, f"victory level {prop.get('level')!r} overlaps "
                                     f"{before_prop.get('level')!r}", "each margin should reach exactly one level")
                elif before.high is not None and rng.low is not None and rng.low > before.high + 1:
                    first, last = before.high + 1, rng.low - 1
                    gap = f"margin {first} reaches" if first == last else f"margins {first}-{last} reach"
                    yield diagnostic("W505", prop.span, f"{gap} no victory level between "
                                     f"{before_prop.get('level')!r} and {prop.get('level')!r}",
                                     "each margin should reach exactly one level")
            if reach is None or high_end(rng) > high_end(reach[0]):
                reach = (rng, prop)


@check("W506", "unit-missing-factor")
def unit_missing_factor(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a unit with no line at all for a factor a rule needs from it, when the factor
    has no `default`: the factor its movement class counts points by (`points factor
    move`), or the defence factor of a combat whose attack factor the unit has. A line
    such as `defence none` says the value is absent on purpose and is not reported.

    ## Why is this bad?
    The engine has no number to use: the unit cannot move, or it can attack but nothing
    says whether it can be attacked back.

    ## Example
    ```
    movement foot "Foot" {
        points factor move
    }
    unit rifle "Rifle" {
        movement foot
    }
    ```
    Use instead: give the unit `move 4` (or `move none`), or the factor a `default`.
    """
    idx = index(rb)
    defaults = {f.name for f in idx.of_kind("factor") if f.has("default")}

    def lacks(unit, factor: str | None) -> bool:
        return factor is not None and factor not in defaults and idx.get("factor", factor) is not None \
            and not unit.has(f"factor:{factor}")

    defended: dict[tuple[str, str], list[str]] = {}  # (attack, defence) factors → combats
    for combat in idx.of_kind("combat"):
        attack, defence = ref_of(combat, "attack", "factor"), ref_of(combat, "defence", "factor")
        if attack is not None and defence is not None:
            defended.setdefault((attack, defence), []).append(combat.name)
    for unit in idx.of_kind("unit"):
        movement = idx.get("movement", ref_of(unit, "movement", "class") or "")
        points = ref_of(movement, "points", "factor") if movement is not None else None
        if lacks(unit, points):
            yield diagnostic("W506", unit.name_span, f"unit {unit.name!r} has no {points!r}, which its movement "
                             f"class {movement.name!r} counts points by",
                             f"give it '{points} N' (or '{points} none'), or the factor a default")
        for (attack, defence), combats in defended.items():
            if unit.has(f"factor:{attack}") and lacks(unit, defence):
                which = f"combat {combats[0]!r} defends" if len(combats) == 1 else \
                    f"combats {' and '.join(repr(c) for c in combats)} defend"
                yield diagnostic("W506", unit.name_span,
                                 f"unit {unit.name!r} has {attack!r} but no {defence!r}, which {which} with",
                                 f"give it '{defence} N', or '{defence} none' if it cannot be attacked")


@check("W507", "resource-cap-below-minimum")
def resource_cap_below_minimum(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a resource whose `cap` is below its `minimum`.

    ## Why is this bad?
    No total satisfies both: every gain is ignored and every spend is illegal.

    ## Example
    `minimum 0` with `cap -1` → the cap and minimum are swapped or mistyped.
    """
    for resource in index(rb).of_kind("resource"):
        cap, minimum = resource.first("cap"), resource.first("minimum")
        if cap is not None and minimum is not None and cap.get("value") < minimum.get("value"):
            yield diagnostic("W507", cap.span, f"resource {resource.name!r} has cap {cap.get('value')} below its "
                             f"minimum {minimum.get('value')}")


def _condition_words(prop) -> tuple | None:
    """The words of a property's ``when``/``until`` condition (always its last words), or ``None``."""
    condition = prop.get("condition")
    if not condition:
        return None
    return prop.words[len(prop.words) - len(condition):]


@check("W508", "unknown-condition")
def unknown_condition(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reads every `when …` and `repeat until …` condition with the condition grammar
    (`dsl.conditions`; docs/reference.md, "Conditions") and reports one it cannot read, at the
    word where reading failed: an unknown word, a name that is not a side, resource, factor,
    phase or selector where one is needed, or a clause left unfinished.

    ## Why is this bad?
    The engine cannot tell when the rule applies, so a game reaching it stops with an error
    instead of applying the rule.

    ## Example
    ```
    effect gain cp d6 when we are winning
    ```
    Use instead: `effect gain cp d6 when vp lead >= 25`.
    """
    from ..conditions import ConditionError, Names, parse_condition

    names = None
    for decl in index(rb).declarations:
        for prop in decl.properties:
            words = _condition_words(prop)
            if words is None:
                continue
            names = names or Names(rb)
            try:
                parse_condition([w.text for w in words], names)
            except ConditionError as exc:
                at = words[min(exc.index, len(words) - 1)]
                span = at.span if exc.index < len(words) else words[-1].span
                yield diagnostic("W508", span, f"cannot read condition {' '.join(w.text for w in words)!r}: "
                                 f"{exc.message}", exc.hint or "see docs/reference.md, Conditions")
