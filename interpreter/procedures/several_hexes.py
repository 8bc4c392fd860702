"""One attack on several hexes in ``do fight`` (a combat's ``one attack on several hexes``).

Besides the attacks on one hex, ``fight`` offers one attack against each set of two or more hexes
a leading unit may attack (hexes holding enemy counters it may attack), by the units of the side
that are each adjacent to every hex of the set: all of them together or a leading unit alone
(with ``any combination of attackers``, every group holding a leading unit), at the combat's
``minimum odds`` or better; with ``supporting fire from range`` each group also with the units
that may support it (``range_support``: in range of every hex, adjacent to none).  The attackers'
total is set against the total of every defender in the hexes, each defender's terrain its own
(``combat.combat_strength``), the column shifts those of the hex best for the defender
(``combat.find_column``); the result applies to all of them.
"""

from __future__ import annotations

from itertools import combinations

from ...dsl.compiled.combat import CombatRule
from ..actions import Action
from ..combat import combat_strength
from ..context import Context
from ..state import Unit
from .attack_facts import targets_in
from .range_support import support_groups


def several_hex_attacks(ctx: Context, combat: CombatRule, side: str, leaders: list[Unit],
                        mine: dict[str, list[str]]) -> list[Action]:
    """The attacks on two or more hexes at once that ``fight`` offers ``side`` now (module docstring)."""
    lead = [u.id for u in leaders]
    reached = sorted({c for uid in lead for c in mine[uid]})
    out: list[Action] = []
    for size in range(2, len(reached) + 1):
        for cells in combinations(reached, size):
            able = sorted(uid for uid, found in mine.items() if set(cells) <= set(found))
            if not any(uid in able for uid in lead):
                continue
            if combat.model.any_combination:
                groups = [list(g) for n in range(len(able), 0, -1) for g in combinations(able, n)
                          if any(uid in g for uid in lead)]
            else:
                groups = [able, *([uid] for uid in lead if uid in able)]
            if combat.model.supporting_fire:
                groups = support_groups(ctx, combat, side, cells, groups)
            seen: list[list[str]] = []
            for group in groups:
                if group not in seen and odds_allowed_on(ctx, combat, group, cells, side):
                    seen.append(group)
                    out.append(Action("attack", (*cells, "with", *group)))
    return out


def odds_allowed_on(ctx: Context, combat: CombatRule, ids: list[str], cells: tuple[str, ...], side: str) -> bool:
    """Whether these units attacking every hex of ``cells`` at once reach the combat's ``minimum odds``."""
    minimum = combat.model.minimum_odds
    if minimum is None:
        return True
    attackers = [ctx.state.unit(i) for i in ids]
    defenders = [u for c in cells for u in targets_in(ctx, combat, c, side)]
    attack, defence = combat_strength(ctx, combat, attackers, defenders, cells[0])
    return defence == 0 or attack * minimum.defence >= defence * minimum.attack


def attacked_cells(action: Action) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the hexes, the units) of an ``attack CELL… with ID…`` action."""
    cut = action.args.index("with")
    return action.args[:cut], action.args[cut + 1:]
