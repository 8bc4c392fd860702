"""Supporting fire from range in ``do fight`` (a combat's ``supporting fire from range``).

A unit that could bombard a hex (the combat's ``range factor``, ``fires at least N hexes away`` and
``line of fire blocked by``: ``interpreter.line_of_fire``), not adjacent to it, may add its attack factor
to an assault on it: each group of attackers ``fight`` offers is offered again with the units
that may support it, all of them (with ``any combination of attackers``, every group of them),
before the combat's ``minimum odds`` drops those below them.  A supporting unit has attacked for the phase; results
against the attackers leave it unharmed (``results.resolve``'s ``support``).

With ``one attack on several hexes`` an attack on several hexes is supported the same way, by the
units in range of every hex attacked (along a clear line to each) and adjacent to none: the fire
joins the one attack, and a unit that cannot fire on one of the hexes cannot fire on the
defenders there (a reading: reference, "Fire at range and attacks on several hexes").
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from ...dsl.compiled.combat import CombatRule
from ..combat import unit_factor
from ..context import Context
from ..flags import ATTACKED
from ..line_of_fire import cells_in_range
from ..state import Unit
from .attack_facts import combat_factor, may_fire


def supporters(ctx: Context, combat: CombatRule, side: str, cells: Sequence[str]) -> list[str]:
    """The side's units that may add their fire to an attack on ``cells`` (one hex, or the hexes of
    one attack on several), in id order: in range of each, adjacent to none."""
    fire = combat.range_fire
    near = _near(ctx, cells)
    targets = set(cells)
    out = []
    for unit in ctx.state.units_of(side):
        if not unit.on_map or unit.location in near or not may_fire(ctx, combat, unit, ATTACKED, ground=False):
            continue
        reach = unit_factor(ctx, unit, combat_factor(combat, "range"))
        if reach is not None and len(cells_in_range(ctx, unit.location, int(reach), fire.minimum, fire.blocked_by,
                                                     targets)) == len(targets):
            out.append(unit.id)
    return sorted(out)


def support_groups(ctx: Context, combat: CombatRule, side: str, cells: Sequence[str],
                   groups: list[list[str]]) -> list[list[str]]:
    """``groups`` attacking ``cells``, each followed by itself with the units that may support it."""
    helpers = supporters(ctx, combat, side, cells)
    extra = ([list(g) for n in range(len(helpers), 0, -1) for g in combinations(helpers, n)]
             if combat.model.any_combination else [helpers] if helpers else [])
    return [g for group in groups for g in (group, *(sorted(group + more) for more in extra))]


def split_support(ctx: Context, combat: CombatRule, cells: Sequence[str],
                  units: list[Unit]) -> tuple[list[Unit], list[Unit]]:
    """(the units assaulting ``cells``, the units supporting them from range): those next to none
    of them (nor in one) support."""
    if not combat.model.supporting_fire:
        return units, []
    near = _near(ctx, cells)
    return [u for u in units if u.location in near], [u for u in units if u.location not in near]


def _near(ctx: Context, cells: Sequence[str]) -> set[str]:
    """The hexes attacked and every hex next to one of them."""
    near = set(cells)
    for cell in cells:
        near.update(ctx.board.neighbours(cell))
    return near
