"""Replacements: ``do replace steps paying ACTION [of SELECTOR…] [returning to BOX] [in TRACE]``.

The side (each paying side, ``prices.paying_sides``) spends the action's price one step at a
time: ``restore ID`` turns one of its reduced counters on the map (of the selectors) back one
step, in place; with ``returning to BOX``, ``rebuild ID`` brings one of its eliminated counters of
a type with steps back into BOX on its last step (a reinforcement or refit procedure then brings
it on the map).  It is asked again after each, until it says ``done`` or can pay for nothing more.
The price is the action's line for the counter's type (``prices.price``).

With ``in TRACE`` a counter is restored in place only in a cell from which its side can trace
that ``trace`` (a supply line, ``interpreter.tracing``); a rebuilt counter goes to its box as before.

Limits: no rule of enemy contact limits where a step may be restored; a rulebook that has one
should say so with a ``gap``.
"""

from __future__ import annotations

from ...dsl.compiled.calls import ReplaceSteps
from ..actions import Action
from ..context import Context, Flow
from ..rules import Rules
from ..state import Unit
from ..steps import restore_step, return_reduced
from ..tracing import traces
from . import procedure
from .prices import can_pay, pay, paying_sides, price
from .strategic_readings import counters_in_box


@procedure("replace steps")
def replace_steps(ctx: Context, call: ReplaceSteps) -> Flow:
    """Offer each paying side its reduced and eliminated counters, one step at a time (module docstring)."""
    action, what, box = ctx.rules.actions.get(call.action), call.what, call.box
    trace = ctx.rules.traces[call.trace] if call.trace is not None else None

    def named(unit: Unit) -> bool:
        unit_type = ctx.rules.unit_type(unit.type)
        return unit_type.step_count > 1 and (not what or Rules.unit_matches(unit_type, what))

    for side in paying_sides(ctx, action):
        while True:
            def affordable(unit: Unit) -> bool:
                return can_pay(ctx, side, price(ctx, action, ctx.rules.unit_type(unit.type)))

            options = [Action("restore", (u.id,)) for u in ctx.state.units_of(side)
                       if u.step > 1 and named(u) and affordable(u)
                       and (trace is None or traces(ctx, trace, side, u.location))]
            if box is not None:
                options += [Action("rebuild", (u.id,)) for u in counters_in_box(ctx, side, ctx.rules.eliminated_box)
                            if named(u) and not u.dummy and affordable(u)]
            if not options:
                break
            choice = yield from ctx.choose(side, "replace", f"spend {action.label} on a step",
                                           [*options, Action("done")])
            if choice.kind == "done":
                break
            unit = ctx.state.unit(choice.args[0])
            pay(ctx, side, price(ctx, action, ctx.rules.unit_type(unit.type)), f"{action.label}: {ctx.label(unit)}")
            if choice.kind == "restore":
                restore_step(ctx, unit, action.label)
            else:
                return_reduced(ctx, unit, box, action.label)
