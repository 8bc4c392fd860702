"""What an attack is expected to take from each side, unit by unit: the greedy agent's second
measure of an attack, beside the rulebook's ``worth``.

A result's ``worth`` rates it as a whole ("attacker eliminated": −1), whoever attacked.  What it
does to each counter depends on who took part: units supporting an attack from range are immune
to its results (``results.resolve``'s ``support``), and a unit the result leaves alone loses
nothing.  ``expected_exchange`` reads each result's effects as play carries them out and weighs
the counters they take by their printed factors:

- ``eliminate`` / ``refit`` (``all``, ``half`` rounded up, or N; ``other``; ``of SELECTOR``):
  the counters a side loses leave with their whole strength;
- ``step loss N``: each step costs the drop in the counter's strength, its last step its whole
  strength;
- the counters taken are the weakest of the side (its owner choosing, as greedy gives up its
  weakest), or the strongest when the combat says ``losses chosen by opponent``; only those
  ``losses`` lines let go (``results.loss_candidates``).

A counter's strength is the sum of its numeric factors at its step (a dummy's: nothing).  The
exchange is the enemy's strength lost minus the attacking side's.

Limits (each counts nothing, never a guess): effects with a ``when`` condition, retreats, break
offs, ``strength loss`` lines, losses chosen at random, and what an event in a table cell does.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from ..dsl.effects import Losses, StepLoss
from ..dsl.tables import combined_parts
from .caches import rules_cache
from .combat import roll_results
from .context import Context
from .results import loss_candidates
from .state import Unit


def expected_exchange(ctx: Context, combat_name: str, attackers: Sequence[Unit], defenders: Sequence[Unit], *,
                      support: Sequence[Unit] = (), rolls: Sequence[tuple[Fraction, str]] | None = None) -> Fraction:
    """The expected strength the defenders' side loses minus the attackers' side's, over every roll
    (``support``: units adding their fire from range, counted in the odds, never taken; ``rolls``:
    the attack's ``combat.roll_results``, when the caller has them already)."""
    if rolls is None:
        rolls = roll_results(ctx, combat_name, attackers, defenders, support=support)
    if not rolls:
        return Fraction(0)
    chooser = ctx.rules.combats[combat_name].losses_chosen_by
    attackers, defenders = list(attackers), [d for d in defenders if not d.dummy]
    # What a cell takes depends only on the kinds of counter on each side (not which ones): kept per rules.
    kinds = (chooser, _kinds(attackers), _kinds(defenders))
    known = rules_cache(ctx.rules).setdefault("exchange results", {})
    total = Fraction(0)
    for chance, text in rolls:
        found = known.get((text, kinds))
        if found is None:
            found = known[text, kinds] = result_exchange(ctx, chooser, text, attackers, defenders)
        total += chance * found
    return total


def _kinds(units: Sequence[Unit]) -> tuple:
    return tuple(sorted((u.type, u.step, bool(u.dummy), u.side) for u in units))


def result_exchange(ctx: Context, chooser: str, text: str, attackers: list[Unit], defenders: list[Unit]) -> Fraction:
    """The strength one table cell takes from the defenders less what it takes from the attackers."""
    parts = combined_parts(ctx.rulebook, text)
    if not parts:
        return Fraction(0)
    lost: dict[str, Fraction] = {}  # unit id: strength lost so far
    left = {u.id: (u, u.step) for u in (*attackers, *defenders)}  # unit id: (unit, its step now)
    affected: set[str] = set()
    for part in parts:
        for effect in ctx.rules.effects(part):
            if effect.condition is not None or effect.condition_error is not None:
                continue
            if not isinstance(effect, (Losses, StepLoss)):
                continue
            units = [left[u.id][0] for u in _role(effect.role, attackers, defenders) if u.id in left]
            if effect.other:
                units = [u for u in units if u.id not in affected]
            if effect.what:
                units = [u for u in units if ctx.rules.unit_matches(ctx.rules.unit_type(u.type), effect.what)]
            for side in sorted({u.side for u in units}):
                group = loss_candidates(ctx, [u for u in units if u.side == side], part.name)
                if isinstance(effect, StepLoss):
                    _take_steps(ctx, chooser, group, effect.count, left, lost, affected)
                else:
                    _take_units(ctx, chooser, group, _count(effect, len(group)), left, lost, affected)
    enemy = {u.id for u in defenders}
    return sum((v for i, v in lost.items() if i in enemy), Fraction(0)) - \
        sum((v for i, v in lost.items() if i not in enemy), Fraction(0))


def strength(ctx: Context, unit: Unit, step: int | None = None) -> Fraction:
    """The sum of a counter's numeric factors at ``step`` (its own by default); a dummy's is 0.
    Kept per rules, type and step."""
    if unit.dummy:
        return Fraction(0)
    at = unit.step if step is None else step
    known = rules_cache(ctx.rules).setdefault("exchange strengths", {})
    found = known.get((unit.type, at))
    if found is None:
        unit_type = ctx.rules.unit_type(unit.type)
        values = () if unit_type.dummy else (unit_type.factor(name, step=at) for name, _ in unit_type.factors)
        found = known[unit.type, at] = sum(
            (Fraction(v) for v in values if isinstance(v, (int, Fraction)) and not isinstance(v, bool)), Fraction(0))
    return found


def _role(role: str | None, attackers: list[Unit], defenders: list[Unit]) -> list[Unit]:
    if role == "attackers":
        return attackers
    if role == "defenders":
        return defenders
    if role == "both":
        return [*attackers, *defenders]
    return []


def _count(effect: Losses, candidates: int) -> int:
    if effect.portion == "all":
        return candidates
    if effect.portion == "half":
        return math.ceil(candidates / 2)
    return min(effect.count, candidates)


def _order(ctx: Context, chooser: str, group: list[Unit], left: dict) -> list[Unit]:
    """The order a side's counters are taken in, by their strength at the step they are left at:
    weakest first, strongest first for the opponent's choice; ``[]`` for a random choice (counted
    as nothing)."""
    if chooser == "random":
        return []
    ranked = sorted(group, key=lambda u: (strength(ctx, u, left[u.id][1]), u.id))
    return ranked[::-1] if chooser == "opponent" else ranked


def _take_units(ctx, chooser, group, count, left, lost, affected) -> None:
    """``count`` counters of the group leave with what strength they have left."""
    for unit in _order(ctx, chooser, group, left)[:count]:
        lost[unit.id] = lost.get(unit.id, Fraction(0)) + strength(ctx, unit, left[unit.id][1])
        affected.add(unit.id)
        del left[unit.id]


def _take_steps(ctx, chooser, group, count, left, lost, affected) -> None:
    """``count`` steps from the group, one at a time, each from the counter the chooser gives up."""
    for _ in range(count):
        order = _order(ctx, chooser, [left[u.id][0] for u in group if u.id in left], left)
        if not order:
            return
        unit = order[0]
        step = left[unit.id][1]
        now = strength(ctx, unit, step)
        affected.add(unit.id)
        if step >= ctx.rules.unit_type(unit.type).step_count:
            lost[unit.id] = lost.get(unit.id, Fraction(0)) + now
            del left[unit.id]
        else:
            lost[unit.id] = lost.get(unit.id, Fraction(0)) + now - strength(ctx, unit, step + 1)
            left[unit.id] = (unit, step + 1)
