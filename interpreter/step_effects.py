"""The step effects carried out: ``step loss`` and ``strength loss`` in a result, ``restore`` in an
event or at a counter's moment.

- **Who chooses.**  Losses are taken one step at a time, each a ``losses`` decision (``lose ID``)
  of the counter's owner, or of the other side when the combat says ``losses chosen by
  opponent``, or a die roll for ``random``, as ``eliminate`` chooses (``interpreter.results``);
  which counters may be taken at all follows their ``losses`` lines (``results.loss_candidates``).
  When the losses left take every step the side has left, or one counter alone may be taken, no
  one is asked.
- **Strength points.**  ``strength loss ROLE FACTOR …`` counts what each step costs in FACTOR
  (``steps.drop``: a step's drop, a counter's whole value at its last step); with ``at least ROLE
  MEASURE lost`` the amount is what that role's counters lost so far in this result, counted in
  MEASURE (the steps of ``engagement.steps_lost``, and the whole MEASURE of each counter
  eliminated, at the step it showed).  Only counters whose loss counts are offered; when none is
  left, the side has lost all it could (narrated).
- **Restore.**  Each side the role names picks one of its reduced counters on the map (of the
  selectors), as many times as the line says (a ``restore`` decision, ``restore ID``); with none
  reduced, nothing happens (narrated).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ..dsl.effects import Restore, StepLoss, StrengthLoss, Where
from ..dsl.values import Dice
from .actions import Action
from .combat import ATTACKER_ROLES, DEFENDER_ROLES, Engagement, unit_factor
from .context import Context, Flow
from .effects import Target, carries_out, sides_for
from .results import loss_candidates
from .rules import Rules
from .state import Unit
from .steps import at_last_step, drop, lose_step, restore_step


@carries_out(StepLoss, Where.RESULT)
def _step_loss(ctx: Context, effect: StepLoss, target: Target) -> Flow:
    engagement = target.engagement
    for side, group in _groups(ctx, effect.role, effect.what, effect.other, target):
        for taken in range(effect.count):
            left = _in_play(ctx, engagement, group)
            if not left:
                break
            forced = sum(_steps_left(ctx, u) for u in left) <= effect.count - taken
            unit = left[0] if forced or len(left) == 1 else \
                (yield from _pick(ctx, left, engagement, f"choose a counter to lose a step "
                                  f"({effect.count - taken} left, {engagement.reason})"))
            _take(ctx, unit, target)


@carries_out(StrengthLoss, Where.RESULT)
def _strength_loss(ctx: Context, effect: StrengthLoss, target: Target) -> Flow:
    engagement = target.engagement
    if effect.amount is not None:
        amount, why = Fraction(effect.amount), f"{effect.amount} {effect.factor}"
    else:
        amount = lost_by(ctx, engagement, effect.measured_role, effect.measure)
        why = f"at least the {amount} {effect.measure} the {effect.measured_role} lost"
    for side, group in _groups(ctx, effect.role, (), False, target):
        lost = Fraction(0)
        while lost < amount:
            left = [u for u in _in_play(ctx, engagement, group) if drop(ctx, u, effect.factor) > 0]
            if not left:
                ctx.say(f"{ctx.shown('side', side)} has lost {lost} {effect.factor} of {why}: nothing more it "
                        f"could lose counts ({engagement.reason})", kind="combat", side=side, lost=str(lost))
                break
            unit = left[0] if len(left) == 1 else \
                (yield from _pick(ctx, left, engagement, f"choose a counter to lose a step: {amount - lost} "
                                  f"{effect.factor} more to lose ({engagement.reason})"))
            lost += drop(ctx, unit, effect.factor)
            _take(ctx, unit, target)


@carries_out(Restore, Where.EVENT, Where.MOMENT)
def _restore(ctx: Context, effect: Restore, target: Target) -> Flow:
    for side in sides_for(ctx, effect.role, target):
        for _ in range(effect.count):
            reduced = [u for u in ctx.state.units_of(side) if u.step > 1
                       and (not effect.what or Rules.unit_matches(ctx.rules.unit_type(u.type), effect.what))]
            if not reduced:
                ctx.say(f"{ctx.shown('side', side)} has no reduced counter to restore ({target.why})", kind="step",
                        side=side)
                break
            unit = reduced[0]
            if len(reduced) > 1:
                action = yield from ctx.choose(side, "restore", f"choose a counter to regain a step ({target.why})",
                                               [Action("restore", (u.id,)) for u in reduced])
                unit = ctx.state.unit(action.args[0])
            restore_step(ctx, unit, target.why)


def lost_by(ctx: Context, engagement: Engagement, role: str | None, factor: str | None) -> Fraction:
    """What a role's counters have lost so far in this result, in ``factor``: each step lost (its
    drop), and each counter eliminated (its whole value at the step it showed)."""
    ids = set(engagement.attackers if role in ATTACKER_ROLES else engagement.defenders if role in DEFENDER_ROLES
              else ())
    if factor is None:
        return Fraction(0)
    total = Fraction(0)
    for unit_id, step in engagement.steps_lost:
        if unit_id in ids:
            unit = ctx.state.unit(unit_id)
            before = unit_factor(ctx, _at(unit, step), factor) or Fraction(0)
            after = unit_factor(ctx, _at(unit, step + 1), factor) or Fraction(0)
            total += max(before - after, Fraction(0))
    for unit_id in dict.fromkeys(engagement.eliminated):
        if unit_id in ids:
            total += unit_factor(ctx, ctx.state.unit(unit_id), factor) or Fraction(0)
    return total


def _at(unit: Unit, step: int) -> Unit:
    return Unit(unit.id, unit.type, unit.side, unit.location, dummy=unit.dummy, step=step)


def _groups(ctx: Context, role: str | None, what: Sequence[str], other: bool,
            target: Target) -> list[tuple[str, list[Unit]]]:
    """Per side, in side order: the role's counters a result may take (module docstring)."""
    engagement = target.engagement
    candidates = [u for u in engagement.units(role) if not (other and u.id in target.affected)]
    if what:
        candidates = [u for u in candidates if Rules.unit_matches(ctx.rules.unit_type(u.type), what)]
    return [(side, loss_candidates(ctx, [u for u in candidates if u.side == side], engagement.result_code))
            for side in sorted({u.side for u in candidates})]


def _in_play(ctx: Context, engagement: Engagement, group: Sequence[Unit]) -> list[Unit]:
    """The counters of ``group`` still in the fight, as they are now."""
    ids = {u.id for u in engagement.units("both", struck=False)}
    return [ctx.state.unit(u.id) for u in group if u.id in ids]


def _steps_left(ctx: Context, unit: Unit) -> int:
    return ctx.rules.unit_type(unit.type).step_count - unit.step + 1


def _take(ctx: Context, unit: Unit, target: Target) -> None:
    """One step lost: recorded on the engagement (a step, or an elimination)."""
    engagement = target.engagement
    target.affected.add(unit.id)
    last = at_last_step(ctx, unit) or unit.dummy
    if last:
        engagement.eliminated.append(unit.id)
    else:
        engagement.steps_lost.append((unit.id, unit.step))
    lose_step(ctx, unit, engagement.reason)


def _pick(ctx: Context, left: list[Unit], engagement: Engagement, prompt: str) -> Flow:
    """The counter that loses the next step, chosen as the combat's ``losses chosen by`` says."""
    chooser = engagement.combat.losses_chosen_by if engagement.combat is not None else "owner"
    if chooser == "random":
        pick = ctx.roll(Dice(1, len(left)), reason=f"which counter loses a step ({engagement.reason})") - 1
        return left[pick]
    owner = left[0].side
    side = owner if chooser == "owner" else next((s for s in ctx.rules.sides if s != owner), owner)
    action = yield from ctx.choose(side, "losses", prompt, [Action("lose", (u.id,)) for u in left])
    return next(u for u in left if u.id == action.args[0])
