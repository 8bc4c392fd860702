"""Reinforcements: ``do reinforce from BOX paying ACTION``, one draw (``draw_reinforcement``) and
the ``pick reinforcement free`` effect.

``do reinforce from BOX paying ACTION``
    Runs only when the action's ``side`` is the acting side (or the action names none).  From a
    box that says ``draw at random`` the side chooses ``draw`` (paying the action's price) or
    ``done``, again and again: each draw picks one of the side's counters in the box with a roll
    of ``d<N>`` (N counters, in id order), and the owner places it before deciding to draw again.
    From any other box the side chooses which counter to take (``take ID``, one option per unit
    type), priced by the action's line for that type; types the action does not price are not
    offered (an action priced for one marker type places only those, not others waiting beside them).
    A ``once per turn`` action gives one draw or one counter a turn (``forces.may_take``).
    ``draw_reinforcement`` is one draw, for events that give a free pick.

Hidden information: a draw from a box whose ``draws shown to opponent`` does not name the side is
logged without the counter's id or type (``kind="draw"``, ``shown=False``), and its placement
with the id alone, as any counter on the map (``unit_type`` is logged only for a shown draw placed
face up); the placing side's decision prompts name it, and only that side sees its decisions.

Placing a reinforcement follows ``interpreter.procedures.placement``; its price,
``interpreter.procedures.prices``.
"""

from __future__ import annotations

from typing import NamedTuple

from ...dsl.compiled.actions import ActionRule
from ...dsl.diagnostics import RulesError, diagnostic
from ...dsl.effects import PickReinforcement, Where
from ...dsl.compiled.calls import Reinforce
from ...dsl.values import Dice
from ..actions import Action
from ..context import Context, Flow, SideAt, sides_in_turn
from ..effects import Target, carries_out, sides_for
from ..forces import may_take, took
from . import procedure
from .placement import place, placement_options
from .prices import can_pay, paid_picks, pay, paying_sides, price
from .strategic_readings import counters_in_box


def _random_box(ctx: Context) -> str | None:
    return next((b.name for b in ctx.rules.boxes.values() if b.draw_at_random), None)


def _shown(ctx: Context, box: str, side: str) -> bool:
    known = ctx.rules.boxes.get(box)
    return known is None or known.shows_draws_of(side)


class Drawn(NamedTuple):
    """``do reinforce``'s progress at the placement of a counter it drew: the side's ``SideAt``, the
    counter, and whether the draw was shown (``interpreter.checkpoint``'s ``progress``)."""

    at: SideAt
    unit: str
    shown: bool

    def __call__(self) -> "Drawn":
        return self  # a value already: it is its own progress (``Context.choose``)


def draw_reinforcement(ctx: Context, side: str, box: str | None = None, *, free: bool = False,
                       action: ActionRule | None = None, at: SideAt | None = None) -> Flow:
    """One blind pick from ``box`` (default: the box that says ``draw at random``), then its placement.

    ``free``: nothing is paid (an event's free pick); otherwise ``action``'s price for a blind pick
    is paid first.  Returns the drawn unit (as placed, or where it went when it could not be), or
    ``None`` when the box holds none of the side's counters or the side cannot pay.  ``at``: the
    ``do reinforce`` run it serves, whose placement question is then resumable (``Drawn``).
    """
    box = box or _random_box(ctx)
    if box is None:
        return None
    pool = sorted(counters_in_box(ctx, side, box))
    if not pool:
        return None
    if not free:
        cost = price(ctx, action, None) if action is not None else None
        if not can_pay(ctx, side, cost):
            return None
        pay(ctx, side, cost, f"{action.label}")
        took(ctx, action, side)
    index = ctx.roll(Dice(1, len(pool)), f"draw from the {ctx.shown('box', box)} ({len(pool)} counters)")
    unit = pool[index - 1]
    shown = _shown(ctx, box, side)
    side_name = ctx.shown('side', side)
    how = "free" if free else "paid"
    if shown:
        ctx.say(f"{side_name} draws {ctx.label(unit, side)} from the {ctx.shown('box', box)} ({how})",
                kind="draw", side=side, box=box, shown=True, unit=unit.id, unit_type=unit.type)
    else:
        ctx.say(f"{side_name} draws a counter from the {ctx.shown('box', box)} ({how})",
                kind="draw", side=side, box=box, shown=False)
    progress = Drawn(at, unit.id, shown) if at is not None else None
    placed = yield from place(ctx, unit, box, why="reinforcement", shown=shown, progress=progress)
    return placed if placed is not None else ctx.state.unit(unit.id)


@procedure("reinforce")
def reinforce(ctx: Context, call: Reinforce) -> Flow:
    """Draw from a random box, or take from another, paying the action (module docstring)."""
    box = call.box
    action = ctx.rules.actions.get(call.action)
    rule = ctx.rules.boxes.get(box)
    drawn = ctx.take_progress(Drawn)  # started again at a checkpoint at a drawn counter's placement
    for at, side in sides_in_turn(ctx, "reinforce", paying_sides(ctx, action), drawn.at if drawn else None):
        if rule is not None and rule.draw_at_random:
            yield from _draw_loop(ctx, side, box, action, at, drawn)
            drawn = None
        else:
            yield from _take_loop(ctx, side, box, action, at)


def _draw_loop(ctx: Context, side: str, box: str, action: ActionRule, at: SideAt, drawn: Drawn | None) -> Flow:
    if drawn is not None:  # the counter drawn before the checkpoint: placed first
        yield from place(ctx, ctx.state.unit(drawn.unit), box, why="reinforcement", shown=drawn.shown,
                         progress=drawn)
    while counters_in_box(ctx, side, box) and may_take(ctx, action, side):
        cost = price(ctx, action, None)
        if not can_pay(ctx, side, cost):
            return
        choice = yield from ctx.choose(side, "reinforce", f"pay {cost[1]} {cost[0]} to draw from the "
                                       f"{ctx.shown('box', box)} ({action.label})",
                                       [Action("draw"), Action("done")], resume=True, progress=at)
        if choice.kind == "done":
            return
        yield from draw_reinforcement(ctx, side, box, action=action, at=at)


def _take_loop(ctx: Context, side: str, box: str, action: ActionRule, at: SideAt) -> Flow:
    def take(unit):
        took(ctx, action, side)
        return place(ctx, unit, box, why=action.label)

    yield from paid_picks(ctx, side, box, action, "reinforce", "take",
                          f"{action.label}: take a counter from the {ctx.shown('box', box)}", take,
                          allowed=lambda unit: may_take(ctx, action, side) and bool(placement_options(ctx, unit, box)),
                          progress=at)


@carries_out(PickReinforcement, Where.EVENT, Where.MOMENT)
def pick_free(ctx: Context, effect: PickReinforcement, target: Target) -> Flow:
    """``pick reinforcement free [for ROLE] [from BOX]``: each side the role names draws a
    reinforcement at no cost (``draw_reinforcement``), from BOX or else the rulebook's box drawn
    ``at random``."""
    box = effect.box if effect.box is not None else _random_box(ctx)
    for side in sides_for(ctx, effect.role, target):
        shown = ctx.rulebook.get("side", side)
        if box is None:
            raise RulesError([diagnostic("E223", effect.line.span, f"effect {effect.text!r} names no box to draw "
                                         "from, and no box is drawn 'at random'", "write 'from BOX'")])
        ctx.say(f"{target.why}: {shown.display if shown else side} picks a reinforcement at no cost",
                kind="effect", effect="pick", side=side)
        yield from draw_reinforcement(ctx, side, str(box), free=True)
