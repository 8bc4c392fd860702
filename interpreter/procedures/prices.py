"""Prices of actions, and counters picked one at a time and paid for (``paid_picks``).

Prices (``cost`` lines of an action): a line with ``from YEAR`` applies from that scenario year,
``until YEAR`` up to it; a scenario with no year uses the lines with no year, else the first
line.  A unit pays the line ``Rules.line_for`` gives its type; a random draw, whose unit is not
known yet, pays the first line with no ``for``.  A side may not pay more than it has above the
resource's ``minimum`` (0 when none is declared).

A ``… paying ACTION`` line runs for the acting side (every side, in a mutual phase), but only for
the action's ``side`` when the action names one (``paying_sides``).

Limits: a ``per unit`` price is read as its plain amount and ``times N transport`` lines are not
read.
"""

from __future__ import annotations

from fractions import Fraction

from ...dsl.model import Declaration, Property
from ..actions import Action
from ..context import Context, Flow
from ..rules import Rules, UnitType
from ..victory import gain
from .strategic_readings import counters_in_box, one_per_type


def paying_sides(ctx: Context, action: Declaration | None) -> list[str]:
    """The sides a ``… paying ACTION`` line runs for: the action's side when it is acting, else none."""
    sides = [ctx.acting] if ctx.acting else list(ctx.player_order)
    owner = action.first("side") if action is not None else None
    if owner is None:
        return sides
    return [s for s in sides if s == str(owner.get("side"))]


def _year_lines(ctx: Context, action: Declaration) -> list[Property]:
    """The action's ``cost <resource> <amount>`` lines that apply in the scenario's year."""
    lines = [p for p in action.all("cost") if p.get("amount") is not None]
    year = getattr(ctx.scenario, "year", None)
    if year is None:
        undated = [p for p in lines if p.get("year") is None]
        return undated or lines
    out = []
    for line in lines:
        limit = line.get("year")
        if limit is None or (line.has("from") and year >= limit) or (line.has("until") and year <= limit):
            out.append(line)
    return out


def price(ctx: Context, action: Declaration, unit_type: UnitType | None = None) -> tuple[str, Fraction] | None:
    """What the action costs: ``(resource, amount)`` for a unit of ``unit_type``, or for a blind pick
    (the first line with no ``for``) when ``unit_type`` is ``None``; ``None`` when no line applies."""
    lines = _year_lines(ctx, action)
    if unit_type is None:
        line = next((p for p in lines if not p.get("who")), None)
    else:
        line = Rules.line_for(lines, unit_type)
    if line is None:
        return None
    return str(line.get("resource")), Fraction(line.get("amount"))


def can_pay(ctx: Context, side: str, cost: tuple[str, Fraction] | None) -> bool:
    """Whether the side has the price to spend, above the resource's ``minimum`` (0 when none)."""
    if cost is None:
        return False
    resource, amount = cost
    decl = ctx.rulebook.get("resource", resource)
    floor = decl.first("minimum") if decl is not None else None
    return ctx.state.resource(side, resource) - amount >= (floor.get("value") if floor is not None else 0)


def pay(ctx: Context, side: str, cost: tuple[str, Fraction], reason: str) -> None:
    """Spend the price (nothing when it is 0), logged with ``reason``."""
    if cost[1]:
        gain(ctx, side, cost[0], -cost[1], reason)


def paid_picks(ctx: Context, side: str, box: str, action: Declaration, kind: str, verb: str, prompt: str,
               then, allowed=None) -> Flow:
    """Offer ``side`` one counter of each type in ``box`` that it can pay ``action``'s price for (and
    that ``allowed`` lets through), as ``VERB ID`` or ``done``; pay for the one picked, carry out
    ``then(unit)`` (a flow, or ``None``), and ask again until it is done or nothing is left."""
    while True:
        options = [Action(verb, (u.id,)) for u in one_per_type(counters_in_box(ctx, side, box))
                   if can_pay(ctx, side, price(ctx, action, ctx.rules.unit_type(u.type)))
                   and (allowed is None or allowed(u))]
        if not options:
            return
        choice = yield from ctx.choose(side, kind, prompt, [*options, Action("done")])
        if choice.kind == "done":
            return
        unit = ctx.state.unit(choice.args[0])
        pay(ctx, side, price(ctx, action, ctx.rules.unit_type(unit.type)), f"{action.display}: {ctx.label(unit)}")
        flow = then(unit)
        if flow is not None:
            yield from flow
