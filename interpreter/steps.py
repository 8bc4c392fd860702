"""Multi-step counters: a unit flips to its next step when it loses one, and back when it regains one.

A unit type with ``step N …`` lines (``dsl.compiled.units.UnitType.steps``) has that many steps; the
unit's ``step`` says which one it shows (1, the full side), and every factor read goes through
``Rules.factor``, which knows it.  A type without step lines has one step, so losing it is being
eliminated: a rulebook without steps plays exactly as before.

- ``lose_step``: the unit shows its next step, or is eliminated (``combat.eliminate``, which scores
  ``award … on eliminated``) when it was on its last.
- ``restore_step``: the unit shows the step before (never past its full side).
- ``drop``: how many points of a factor a unit's next step loss costs it (its whole factor at its
  last step), the measure of ``strength loss``.

Narration names the step and the step count; a face-down counter is named as ``Context.label``
names it, and its step is left out of the text and the data (``Game.observe`` leaves it out too).
"""

from __future__ import annotations

from fractions import Fraction

from attrs import evolve

from .combat import eliminate, unit_factor
from .context import Context
from .state import Unit


def step_count(ctx: Context, unit: Unit) -> int:
    """How many steps the unit's type has (1 for a type without ``step`` lines)."""
    return ctx.rules.unit_type(unit.type).step_count


def at_last_step(ctx: Context, unit: Unit) -> bool:
    """Whether losing a step eliminates the unit."""
    return unit.step >= step_count(ctx, unit)


def drop(ctx: Context, unit: Unit, factor: str) -> Fraction:
    """The points of ``factor`` the unit's next step loss costs: the step's value less the next
    step's, or the whole value at the last step; 0 for a factor that is not a number."""
    now = unit_factor(ctx, unit, factor) or Fraction(0)
    if at_last_step(ctx, unit):
        return now
    after = unit_factor(ctx, evolve(unit, step=unit.step + 1), factor) or Fraction(0)
    return max(now - after, Fraction(0))


def lose_step(ctx: Context, unit: Unit, why: str) -> bool:
    """The unit loses one step: flipped to its next, or eliminated at its last.  Returns whether it
    was eliminated."""
    unit = ctx.state.unit(unit.id)
    if at_last_step(ctx, unit) or unit.dummy:
        eliminate(ctx, unit, why)
        return True
    reduced = evolve(unit, step=unit.step + 1)
    ctx.update_unit(reduced)
    ctx.say(f"{ctx.label(reduced)} loses a step{_showing(ctx, reduced)} ({why})", kind="step", unit=unit.id,
            **_data(reduced, -1))
    return False


def restore_step(ctx: Context, unit: Unit, why: str) -> None:
    """The unit regains one step (it must have lost one)."""
    unit = ctx.state.unit(unit.id)
    assert unit.step > 1, unit
    restored = evolve(unit, step=unit.step - 1)
    ctx.update_unit(restored)
    ctx.say(f"{ctx.label(restored)} regains a step{_showing(ctx, restored)} ({why})", kind="step", unit=unit.id,
            **_data(restored, 1))


def return_reduced(ctx: Context, unit: Unit, box: str, why: str) -> None:
    """An eliminated unit comes back on its last (most reduced) step, into ``box``."""
    unit = ctx.state.unit(unit.id)
    back = evolve(unit, location=box, step=step_count(ctx, unit), mode=None)
    ctx.update_unit(back)
    ctx.say(f"{ctx.label(back)} comes back{_showing(ctx, back)} to the {ctx.shown('box', box)} ({why})",
            kind="step", unit=unit.id, box=box, **_data(back, 0))


def _showing(ctx: Context, unit: Unit) -> str:
    """``: step 2 of 3, attack 3, defence 2`` (the factors its steps change, as it shows them now), or
    nothing for a face-down counter."""
    if unit.hidden:
        return ""
    unit_type = ctx.rules.unit_type(unit.type)
    changing = [name for name, value in unit_type.factors if any(dict(s).get(name) != value for s in unit_type.steps)]
    shown = "".join(f", {name} {unit_type.factor(name, step=unit.step)}" for name in changing)
    return f": step {unit.step} of {unit_type.step_count}{shown}"


def _data(unit: Unit, change: int) -> dict:
    return {} if unit.hidden else {"step": unit.step, "change": change}
