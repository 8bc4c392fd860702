"""Carrying: whether a force may take on one more unit that must be carried (``add UNIT`` in a
designation, ``interpreter.procedures.operations``).

A carried unit (``needs transport``) may be added only when the units at hand, the force's and
those it could still add, include carriers of a class it is ``transported by`` whose capacity
covers it with the rest of the force's cargo (``interpreter.forces`` reads capacities and
needs).  The answer depends on the counters' types, steps and statuses alone, so it is kept per
rules, bounded (``MAY_CARRY_KEPT``), by keys of strings and numbers that the garbage collector
stops tracking.
"""

from __future__ import annotations

from collections import Counter

from .context import Context
from .forces import Force, class_of, is_carried, transported_by
from .state import Unit


def addable_units(ctx: Context, force: Force, available: list[Unit]) -> list[Unit]:
    """The units of ``available`` that may be added to the force: each leaves it able to move
    (``may_carry``: a carried unit only when the units at hand could carry it with the rest of the
    force's cargo)."""
    if not any(is_carried(class_of(ctx, u)) for u in available):
        return list(available)
    whole = _counters([*force.units, *available])
    return [u for u in available if may_carry(ctx, force, u, available, whole)]


def may_carry(ctx: Context, force: Force, unit: Unit, available: list[Unit], whole: tuple | None = None) -> bool:
    """Whether adding ``unit`` leaves the force able to move: a carried unit only when the units
    at hand could carry it with the rest of the force's cargo.  Decided by the counters' types,
    steps and statuses alone (their classes and factors): kept per rules by those of the force and
    the units at hand together (``whole``: ``_counters`` of both; the same while units are added
    from one to the other), of the force's cargo in order and of the unit, up to ``MAY_CARRY_KEPT``
    answers."""
    if not is_carried(class_of(ctx, unit)):
        return True
    memo = ctx.rules.derived.setdefault("may carry", {})
    key = (whole or _counters([*force.units, *available]), tuple([_counter(u) for u in force.cargo]), _counter(unit))
    found = memo.get(key)
    if found is None:
        if len(memo) >= MAY_CARRY_KEPT:
            memo.clear()
        found = memo[key] = _may_carry(ctx, force, unit, available)
    return found


MAY_CARRY_KEPT = 512
"""Answers ``may_carry`` keeps before it forgets them all and starts again (random games of the
shipped scenario that carries most add about 100 new ones each: kept, they would grow without end
over a long run of games)."""


def _counter(unit: Unit) -> tuple:
    """What ``may_carry`` reads of a counter: its type, step and status (as a sorted tuple: a key
    of strings and numbers alone, which the garbage collector stops tracking, where a frozenset
    would be walked by every full collection for as long as the answer is kept)."""
    return unit.type, unit.step, tuple(sorted(unit.status)) if unit.status else ()


def _counters(units: list[Unit]) -> tuple:
    """``_counter`` of each of ``units``, as a multiset (their order changes no answer: sums and
    ``any``): each distinct one with its count, in order."""
    return tuple(sorted(Counter(map(_counter, units)).items()))


def _may_carry(ctx: Context, force: Force, unit: Unit, available: list[Unit]) -> bool:
    """``may_carry``, afresh."""
    whole = Force(ctx, [*force.units, *available])
    by_class: dict[str, list[Unit]] = {}
    for carrier in whole.movers + whole.joiners:
        by_class.setdefault(class_of(ctx, carrier).name, []).append(carrier)
    needs = Force(ctx, [*force.cargo, unit]).needs()
    mclass = class_of(ctx, unit)
    carried_by = transported_by(mclass)
    for name, carriers in by_class.items():
        if name in carried_by:
            have = Force(ctx, [*carriers, *force.cargo, unit]).capacities(needs)
            if all(have[factor] >= need for factor, need in needs.items()):
                return True
    return False
