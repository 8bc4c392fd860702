"""A combat's ``strength attack|defence MULT [for WHO…] when CONDITION`` lines: factors multiplied while
a condition holds (``strength attack x1/2 when weather is mud``).

Each line that holds multiplies the attack factor of every attacker (the defence factor of every
defender) that its ``for`` names, or every one without ``for``; several lines multiply together,
before terrain (``combat.combat_strength``).  The conditions are read as a ``shift … when`` is: the
caller passes the combat's scope (``combat.combat_scope``; ``own`` is the attacking side).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction

from ..dsl.compiled.combat import CombatRule, StrengthLine
from .condition_lines import line_condition
from .conditions import Scope, holds
from .context import Context
from .rules import Rules
from .state import Unit


def strength_multipliers(ctx: Context, combat: CombatRule, attackers: Sequence[Unit], defenders: Sequence[Unit],
                         scope: Scope) -> dict[tuple[str, str], Fraction]:
    """The product of the multipliers of the lines that hold, for each (``attack``/``defence``, unit id)."""
    out: dict[tuple[str, str], Fraction] = {}
    for line, unit in _hits(ctx, combat, attackers, defenders, scope):
        key = (line.role, unit.id)
        out[key] = out.get(key, Fraction(1)) * line.multiplier
    return out


def strength_lines_held(ctx: Context, combat: CombatRule, attackers: Sequence[Unit], defenders: Sequence[Unit],
                        scope: Scope) -> list[str]:
    """The words of the lines that multiplied some unit's factor, for narration."""
    lines = {id(line): line for line, _ in _hits(ctx, combat, attackers, defenders, scope)}
    return [" ".join(w.text for w in line.source.words) for line in lines.values()]


def _hits(ctx: Context, combat: CombatRule, attackers: Sequence[Unit], defenders: Sequence[Unit],
          scope: Scope) -> Iterator[tuple[StrengthLine, Unit]]:
    for line in combat.strengths:
        if holds(ctx, line_condition(line), scope):
            for unit in attackers if line.role == "attack" else defenders:
                if not line.who or Rules.unit_matches(ctx.rules.unit_type(unit.type), line.who):
                    yield line, unit
