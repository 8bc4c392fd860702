"""Prices of actions, and counters picked one at a time and paid for (``paid_picks``).

Prices (``cost`` lines of an action) follow ``dsl.compiled.actions``: the lines in force in the
scenario's year, then the first naming the unit, else the first general one; a random draw,
whose unit is not known yet, pays the first general one.  A side may not pay more than it has above the
resource's ``minimum`` (0 when none is declared).

A ``… paying ACTION`` line runs for the acting side (every side, in a mutual phase), but only for
the action's ``side`` when the action names one (``paying_sides``).

Limits: a ``per unit`` price is read as its plain amount and ``times N transport`` lines are not
read.
"""

from __future__ import annotations

from fractions import Fraction

from ...dsl.compiled.actions import ActionRule
from ..actions import Action
from ..context import Context, Flow, SideAt
from ..forces import action_price
from ..rules import UnitType
from ..victory import gain
from .strategic_readings import counters_in_box, one_per_type


def paying_sides(ctx: Context, action: ActionRule | None) -> list[str]:
    """The sides a ``… paying ACTION`` line runs for: the action's side when it is acting, else none."""
    sides = [ctx.acting] if ctx.acting else list(ctx.player_order)
    return sides if action is None else [s for s in sides if action.taken_by(s)]


def price(ctx: Context, action: ActionRule, unit_type: UnitType | None = None) -> tuple[str, Fraction] | None:
    """What the action costs: ``(resource, amount)`` for a unit of ``unit_type``, or for a blind pick
    (the first line with no ``for``) when ``unit_type`` is ``None``; ``None`` when no line applies."""
    return action_price(ctx, action, unit_type.selectors if unit_type is not None else None)


def can_pay(ctx: Context, side: str, cost: tuple[str, Fraction] | None) -> bool:
    """Whether the side has the price to spend, above the resource's ``minimum`` (0 when none)."""
    if cost is None:
        return False
    resource, amount = cost
    track = ctx.rules.resources.get(resource)
    floor = track.floor if track is not None else 0
    # (compared, not subtracted, when there is no floor: a Fraction difference is reduced by a gcd)
    return ctx.state.resource(side, resource) >= (amount + floor if floor else amount)


def pay(ctx: Context, side: str, cost: tuple[str, Fraction], reason: str) -> None:
    """Spend the price (nothing when it is 0), logged with ``reason``."""
    if cost[1]:
        gain(ctx, side, cost[0], -cost[1], reason)


def paid_picks(ctx: Context, side: str, box: str, action: ActionRule, kind: str, verb: str, prompt: str,
               then, allowed=None, progress: SideAt | None = None) -> Flow:
    """Offer ``side`` one counter of each type in ``box`` that it can pay ``action``'s price for (and
    that ``allowed`` lets through), as ``VERB ID`` or ``done``; pay for the one picked, carry out
    ``then(unit)`` (a flow, or ``None``), and ask again until it is done or nothing is left.
    Each question reads only the state: with the side's ``progress`` it is resumable."""
    while True:
        options = [Action(verb, (u.id,)) for u in one_per_type(counters_in_box(ctx, side, box))
                   if can_pay(ctx, side, price(ctx, action, ctx.rules.unit_type(u.type)))
                   and (allowed is None or allowed(u))]
        if not options:
            return
        choice = yield from ctx.choose(side, kind, prompt, [*options, Action("done")],
                                       resume=progress is not None, progress=progress)
        if choice.kind == "done":
            return
        unit = ctx.state.unit(choice.args[0])
        pay(ctx, side, price(ctx, action, ctx.rules.unit_type(unit.type)), f"{action.label}: {ctx.label(unit)}")
        flow = then(unit)
        if flow is not None:
            yield from flow
