"""Orders and scoring: ``do declare MODE`` and ``do score AWARD…``.

A ``mode`` (watch, patrol …) says which side and which units may take it
(``side``, ``for``); the acting side picks units one at a time and ends with
``done``.  Orders last until the end of the turn.
"""

from __future__ import annotations

from dsl.model import Property
from interpreter.actions import Action
from interpreter.context import Context, Flow
from interpreter.flow import procedure
from interpreter.movement import _rules_cache
from interpreter.rules import Rules
from interpreter.state import replace
from interpreter.victory import score_held


def may_take(ctx: Context, mode, unit) -> bool:
    """Units (not markers, not dummies) on the map without orders, of the mode's side and kinds."""
    if unit.dummy or not unit.on_map or unit.mode:
        return False
    # What the mode says of a type and side, read once per compiled Rules (its rulebook is fixed).
    cache = _rules_cache(ctx.rules).setdefault("may_take", {})
    key = (mode.name, unit.type, unit.side)
    found = cache.get(key)
    if found is None:
        found = cache[key] = _type_may_take(ctx.rules, mode, unit.type, unit.side)
    return found


def _type_may_take(rules: Rules, mode, type_name: str, unit_side: str) -> bool:
    unit_type = rules.unit_type(type_name)
    if unit_type.kind == "marker":
        return False
    side = mode.first("side")
    if side is not None and str(side.get("side")) != unit_side:
        return False
    who = mode.first("for")
    return who is None or Rules.unit_matches(unit_type, who.get("who") or ())


@procedure("declare")
def declare(ctx: Context, prop: Property) -> Flow:
    mode = ctx.rulebook.get("mode", str(prop.get("mode")))
    sides = [ctx.acting] if ctx.acting else list(ctx.player_order)
    for side in sides:
        while True:
            eligible = [u for u in ctx.state.units_of(side) if may_take(ctx, mode, u)]
            if not eligible:
                break
            options = [Action("declare", (u.id, mode.name)) for u in eligible] + [Action("done")]
            action = yield from ctx.choose(side, f"declare {mode.name}",
                                           f"put units on {mode.display} orders", options)
            if action.kind == "done":
                break
            unit = ctx.state.unit(action.args[0])
            ctx.update_unit(replace(unit, mode=mode.name))
            ctx.say(f"{ctx.label(unit)} goes on {mode.display}", kind="order", unit=unit.id, mode=mode.name)


@procedure("score")
def score(ctx: Context, prop: Property) -> Flow:
    for ref in prop.get("awards") or ():
        award = ctx.rulebook.get("award", str(ref))
        if award is not None and award.first("on") is not None and award.first("on").has("held"):
            score_held(ctx, award)
    return
    yield  # a generator that needs no decision
