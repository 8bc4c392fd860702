"""Counters' ``modify WHAT roll +N [for ROLE] [once]`` effects and the turn modifiers
``(side, "roll:WHAT", N)``, added to a side's recon or fire roll in a battle's cell (``roll_modifier``).

Limits: a marker's ``once`` is remembered with the turn flag ``used:WHAT roll``.
"""

from __future__ import annotations

from attrs import evolve

from ...dsl.effects import ModifyRoll, Where
from ..condition_lines import effect_condition
from ..conditions import Scope, holds
from ..context import Context
from ..effects import Target, reads, sides_for
from ..flags import USED_ROLL, with_arg
from .combatants import counter_decl


@reads(ModifyRoll)
def roll_modifier(ctx: Context, side: str, what: str, cell: str, *, use: bool = True) -> tuple[int, list[str]]:
    """The modifier to ``side``'s WHAT roll in ``cell``: counters' ``modify WHAT roll`` effects whose
    condition holds and the turn modifier ``(side, "roll:WHAT", N)``, with the reasons.  ``use``:
    spend ``once`` effects."""
    total, why = 0, []
    for marker in ctx.state.units_at(cell):
        if marker.dummy:
            continue
        decl = counter_decl(ctx, marker)
        for effect in ctx.rules.effects_of(ctx.rules.unit_type(marker.type)):
            if not isinstance(effect, ModifyRoll) or effect.what != what:
                continue
            if side not in sides_for(ctx, effect.role, Target(Where.STANDING, decl, marker.side, decl.display)):
                continue
            if not holds(ctx, effect_condition(effect), Scope(marker.side, cell, marker)):
                continue
            flag = with_arg(USED_ROLL, f"{what} roll")
            if effect.once:
                if flag in marker.turn_flags:
                    continue
                if use:
                    ctx.update_unit(evolve(marker, turn_flags=marker.turn_flags | {flag}))
            total += effect.modifier
            why.append(f"{effect.modifier:+d} {decl.display}")
    for s, name, amount in ctx.state.turn_modifiers:
        if s == side and name == f"roll:{what}":
            total += amount
            why.append(f"{amount:+d} this turn")
    return total, why
