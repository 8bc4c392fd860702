"""Supporting fire from range in ``do fight`` (a combat's ``supporting fire from range``).

A unit that could bombard a hex (the combat's ``range factor``, ``fires at least N hexes away`` and
``line of fire blocked by``: ``interpreter.line_of_fire``), not adjacent to it, may add its attack factor
to an assault on it: each group of attackers ``fight`` offers is offered again with the units
that may support it, all of them (with ``any combination of attackers``, every group of them),
before the combat's ``minimum odds`` drops those below them.  A supporting unit has attacked for the phase; results
against the attackers leave it unharmed (``results.resolve``'s ``support``).
"""

from __future__ import annotations

from itertools import combinations

from ...dsl.compiled.combat import CombatRule
from ..combat import unit_factor
from ..context import Context
from ..flags import ATTACKED
from ..line_of_fire import cells_in_range
from ..state import Unit
from .attack_facts import combat_factor, may_fire


def supporters(ctx: Context, combat: CombatRule, side: str, cell: str) -> list[str]:
    """The side's units that may add their fire to an attack on ``cell``, in id order."""
    fire = combat.range_fire
    near = set(ctx.board.neighbours(cell)) | {cell}
    out = []
    for unit in ctx.state.units_of(side):
        if not unit.on_map or unit.location in near or not may_fire(ctx, combat, unit, ATTACKED, ground=False):
            continue
        reach = unit_factor(ctx, unit, combat_factor(combat, "range"))
        if reach is not None and cells_in_range(ctx, unit.location, int(reach), fire.minimum, fire.blocked_by, {cell}):
            out.append(unit.id)
    return sorted(out)


def support_groups(ctx: Context, combat: CombatRule, side: str, cell: str,
                   groups: list[list[str]]) -> list[list[str]]:
    """``groups`` attacking ``cell``, each followed by itself with the units that may support it."""
    helpers = supporters(ctx, combat, side, cell)
    extra = ([list(g) for n in range(len(helpers), 0, -1) for g in combinations(helpers, n)]
             if combat.model.any_combination else [helpers] if helpers else [])
    return [g for group in groups for g in (group, *(sorted(group + more) for more in extra))]


def split_support(ctx: Context, combat: CombatRule, cell: str, units: list[Unit]) -> tuple[list[Unit], list[Unit]]:
    """(the units assaulting ``cell``, the units supporting them from range): those not next to it
    (nor in it) support."""
    if not combat.model.supporting_fire:
        return units, []
    near = set(ctx.board.neighbours(cell)) | {cell}
    return [u for u in units if u.location in near], [u for u in units if u.location not in near]
