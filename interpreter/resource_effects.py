"""Effects on resources, wherever they are carried out: ``gain``/``lose``, ``reduce income``, ``multiply gains``.

- ``gain|lose RESOURCE N|DICE [to ROLE] [minimum N]`` (a result, an event, a counter's moment, a
  scenario option): for each side the role names (``effects.sides_for``), in order, the dice are
  rolled (once per side) and ``victory.change_within`` adds or takes the amount (caps, the
  resource's own minimum, this turn's gains multiplier, and a loss stopped at ``minimum N``).
- ``reduce income RESOURCE N|DICE`` (an event or a moment): a turn modifier ``(side,
  "income:RESOURCE", -n)`` for the target's side that the income procedure adds to this turn's
  income, which it never lets go below 0; so ``minimum 0`` is what every reduction gets.
- ``multiply gains RESOURCE by N this turn [for ROLE]``: a turn modifier ``(side,
  "gains:RESOURCE", N)`` per side the role names, read by ``victory.gain``.
"""

from __future__ import annotations

from attrs import evolve

from ..dsl.effects import Change, MultiplyGains, ReduceIncome, Where
from .context import Context, Flow
from .effects import Target, carries_out, sides_for
from .victory import change_within


@carries_out(Change, Where.RESULT, Where.EVENT, Where.MOMENT, Where.OPTION)
def change(ctx: Context, effect: Change, target: Target) -> Flow:
    verb = "gain" if effect.sign > 0 else "lose"
    for side in sides_for(ctx, effect.role, target):
        amount = _amount(ctx, effect, f"{target.why}: {verb} {effect.resource}")
        change_within(ctx, side, effect.resource, effect.sign * amount, effect.floor, target.why)
    yield from ()


@carries_out(ReduceIncome, Where.EVENT, Where.MOMENT)
def reduce_income(ctx: Context, effect: ReduceIncome, target: Target) -> Flow:
    amount = _amount(ctx, effect, f"{target.why}: reduce income")
    add_turn_modifier(ctx, target.side, f"income:{effect.resource}", -amount)
    ctx.say(f"{ctx.shown('side', target.side)}: {effect.resource} income this turn reduced by {amount} ({target.why})",
            kind="effect", effect="reduce", side=target.side, amount=amount)
    yield from ()


@carries_out(MultiplyGains, Where.EVENT, Where.MOMENT)
def multiply_gains(ctx: Context, effect: MultiplyGains, target: Target) -> Flow:
    for side in sides_for(ctx, effect.role, target):
        add_turn_modifier(ctx, side, f"gains:{effect.resource}", effect.factor)
        ctx.say(f"{ctx.shown('side', side)}: {effect.resource} gains x{effect.factor} this turn ({target.why})",
                kind="effect", effect="multiply", side=side, factor=effect.factor)
    yield from ()


def _amount(ctx: Context, effect: Change | ReduceIncome, reason: str) -> int:
    return ctx.roll(effect.dice, reason) if effect.dice is not None else int(effect.amount)


def add_turn_modifier(ctx: Context, side: str, what: str, amount: int) -> None:
    """Add ``(side, what, amount)`` to this turn's modifiers (they go at the end of the turn)."""
    ctx.state = evolve(ctx.state, turn_modifiers=tuple(sorted([*ctx.state.turn_modifiers, (side, what, amount)])))

