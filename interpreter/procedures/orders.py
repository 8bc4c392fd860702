"""Orders and scoring: ``do declare MODE`` and ``do score AWARD…``.

A ``mode`` (watch, patrol …) says which side and which units may take it
(``side``, ``for``); the acting side picks units one at a time and ends with
``done``.  Orders last until the end of the turn.
"""

from __future__ import annotations

from attrs import evolve

from dsl.model import Property
from interpreter.actions import Action
from interpreter.context import Context, Flow
from interpreter.flow import procedure
from interpreter.rules import Rules
from interpreter.victory import score_held


def may_take(ctx: Context, mode, unit) -> bool:
    """Units (not markers, not dummies) on the map without orders, of the mode's side and kinds."""
    if unit.dummy or not unit.on_map or unit.mode or ctx.rules.unit_type(unit.type).kind == "marker":
        return False
    side = mode.first("side")
    if side is not None and str(side.get("side")) != unit.side:
        return False
    who = mode.first("for")
    return who is None or Rules.unit_matches(ctx.rules.unit_type(unit.type), who.get("who") or ())


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
            ctx.update_unit(evolve(unit, mode=mode.name))
            ctx.say(f"{ctx.label(unit)} goes on {mode.display}", kind="order", unit=unit.id, mode=mode.name)


@procedure("score")
def score(ctx: Context, prop: Property) -> Flow:
    for ref in prop.get("awards") or ():
        award = ctx.rulebook.get("award", str(ref))
        if award is not None and award.first("on") is not None and award.first("on").has("held"):
            score_held(ctx, award)
    return
    yield  # a generator that needs no decision
