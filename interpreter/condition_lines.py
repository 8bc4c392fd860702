"""Conditions read with no state: a compiled line's condition, and the weather and the turn alone.

``interpreter.conditions`` answers a condition against the game as it stands; what it needs of a
line before that (its parsed condition, or the E805 a condition the grammar could not read
makes) and the answer to a condition of the weather and the turn alone (a cost table's ``cost …
when`` and ``allowance … when``, which know no state) are here, below the mechanics that read
them: a cost table (``interpreter.costs``) must not depend on the whole condition evaluator, which
reads traces, which read cost tables.
"""

from __future__ import annotations

import operator

from ..dsl.conditions import Compare, Condition, Weather
from ..dsl.diagnostics import RulesError, diagnostic
from ..dsl.effects import Effect
from ..dsl.model import Property

OPERATORS = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le, "=": operator.eq}


def line_condition(line) -> Condition | None:
    """A compiled rule line's condition (``dsl.compiled``: a combat's ``shift … when``, ``roll
    modifier … when``), or ``None`` without one.

    Raises:
        RulesError: (E805) when the grammar could not read it (the linter reports it as W508).
    """
    return _readable(line.condition, line.condition_error, line.source)


def effect_condition(effect: Effect) -> Condition | None:
    """A compiled effect line's condition, or ``None`` without one.

    Raises:
        RulesError: (E805) when the grammar could not read it (the linter reports it as W508).
    """
    return _readable(effect.condition, effect.condition_error, effect.line)


def _readable(condition: Condition | None, error, line: Property) -> Condition | None:
    """A condition compiled with its line, or the E805 its ``error`` (a ``ConditionError``) makes."""
    if error is not None:
        words = " ".join(str(w) for w in line.get("condition"))
        raise RulesError([diagnostic("E805", line.span, f"cannot read condition {words!r}: {error.message}",
                                     error.hint)])
    return condition


def holds_at(condition: Condition | None, turn: int, weather: str | None) -> bool:
    """Whether a condition of the weather and the turn alone holds on ``turn`` in ``weather``: for
    lines read where there is no state, only its turn and weather (a cost table's ``cost … when``
    and ``allowance … when``; lint E150 refuses any other clause there, and a moment)."""
    if condition is None:
        return True
    for clause in condition.clauses:
        if isinstance(clause, Weather):
            if weather not in clause.names:
                return False
        elif isinstance(clause, Compare) and {clause.left.kind, clause.right.kind} <= {"number", "turn"}:
            left, right = (turn if q.kind == "turn" else q.value for q in (clause.left, clause.right))
            if not OPERATORS[clause.op](left, right):
                return False
        else:
            raise TypeError(f"not a condition of the weather and the turn: {condition}")  # lint E150
    return True
