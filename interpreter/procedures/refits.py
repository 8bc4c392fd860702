"""Refits: ``do refit from BOX paying ACTION delay DICE`` and ``do return refitted units``.

``do refit from BOX paying ACTION delay DICE``
    The side picks counters in its ``BOX`` one at a time (``refit ID``, one option per unit type,
    or ``done``), pays the action's line for the unit's type, rolls the delay and puts the unit on
    ``VIA:N`` (``VIA`` is the box's ``returns via`` box, ``N`` the turn plus the roll).  A unit due
    after the scenario's last turn stays there: it is never received, and its price is spent.
    A ``once per turn`` action refits one counter a turn (``forces.may_take``).

``do return refitted units``
    The acting side's counters due this turn (``VIA:TURN``) are placed as reinforcements, free.

Limits: a refit whose unit cannot be placed on its return turn goes where the track box's
``unplaced to`` says, costing nothing more.
"""

from __future__ import annotations

from attrs import evolve

from ...dsl.compiled.calls import Refit, ReturnRefitted
from ...dsl.values import Dice, read_dice
from ..context import Context, Flow, sides_in_turn
from ..forces import may_take, took
from . import procedure
from ..state import Unit
from .placement import place
from .prices import paid_picks, paying_sides


def _via(ctx: Context, box: str) -> str:
    known = ctx.rules.boxes.get(box)
    return known.returns_via if known is not None and known.returns_via is not None else box


@procedure("refit")
def refit(ctx: Context, call: Refit) -> Flow:
    """Pay for chosen counters of the box and put each on the turn it returns (module docstring)."""
    box = call.box
    action = ctx.rules.actions.get(call.action)
    dice = call.dice
    via = _via(ctx, box)

    def put_on_track(unit: Unit) -> None:
        delay = ctx.roll(_dice(ctx, dice), f"refit delay for {ctx.label(unit)}")
        due = ctx.state.turn + delay
        ctx.update_unit(evolve(unit, location=f"{via}:{due}"))
        if due > ctx.scenario.turns:
            ctx.say(f"{ctx.label(unit)} would return on turn {due}, after the last turn "
                    f"({ctx.scenario.turns}): it is never received", kind="refit", unit=unit.id, side=unit.side,
                    due=due, received=False)
        else:
            ctx.say(f"{ctx.label(unit)} will return on turn {due}", kind="refit", unit=unit.id, side=unit.side,
                    due=due, received=True)

    for at, side in sides_in_turn(ctx, "refit", paying_sides(ctx, action)):
        def refit_one(unit: Unit, side: str = side) -> None:
            took(ctx, action, side)
            put_on_track(unit)

        yield from paid_picks(ctx, side, box, action, "refit", "refit",
                              f"refit a counter from the {ctx.shown('box', box)} ({action.label})",
                              refit_one, allowed=lambda unit, side=side: may_take(ctx, action, side), progress=at)


def _dice(ctx: Context, dice) -> Dice:
    """The dice a ``delay DICE`` names (a ``dice`` declaration such as ``d6``)."""
    if isinstance(dice, Dice):
        return dice
    parsed = read_dice(str(dice))
    assert parsed is not None, dice  # the loader resolved the name to a dice declaration
    return parsed


@procedure("return refitted units")
def return_refitted(ctx: Context, call: ReturnRefitted) -> Flow:
    """Counters waiting in ``BOX:TURN`` for this turn enter play from ``BOX`` (module docstring)."""
    boxes = set(ctx.rules.boxes)
    origins: dict[str, str] = {}
    for box in ctx.rules.boxes.values():
        if box.returns_via is not None:
            origins.setdefault(box.returns_via, box.name)
    suffix = f":{ctx.state.turn}"
    for side in [ctx.acting] if ctx.acting else list(ctx.player_order):
        due = sorted(u for u in ctx.state.units
                     if u.side == side and u.location.endswith(suffix) and u.location[: -len(suffix)] in boxes)
        for unit in due:
            via = unit.location[: -len(suffix)]
            yield from place(ctx, ctx.state.unit(unit.id), via, why="refitted", back_to=origins.get(via, via))
