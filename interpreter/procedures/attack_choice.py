"""What ``do fight`` offers a side, and why an attack is refused.

Split from ``interpreter.procedures.combat`` (which runs the fights): the readiness of who may
attack what, kept from round to round, the units' ranking under ``order by``, the attacks offered
under the combat's model lines, and the reasons a written attack is not one of them.  Which units
take part and which cells they may attack are ``interpreter.procedures.attack_facts``.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations, compress, count
from operator import is_not

from ...dsl.compiled.combat import CombatRule
from ..actions import Action
from ..cells import adjacency
from ..combat import combat_strength
from ..context import Context
from ..flags import ATTACKED, DEFENDED
from ..modes import forbidding_mode
from ..status_effects import status_forbids
from ..state import Unit
from ..zones import enemy_zones
from .attack_facts import may_attack_hidden, rank_key, section_cite, targets_in, type_facts


class Readiness:
    """Who may attack what in one ``fight``, kept from round to round.

    A unit may attack (``may_fire``: real, not done yet, its mode allowing it) the cells next to
    it (or its own, for a combat that is not ``adjacent``) holding counters another side may
    attack.  After a round only what it changed is read again: the units that changed, and the
    units in or next to a cell whose counters changed; so a fight of N rounds among N units does
    not look at every unit every round.
    """

    def __init__(self, ctx: Context, combat: CombatRule, sides: list[str]):
        self.ctx, self.sides = ctx, sides
        self.around = adjacency(ctx.board) if combat.adjacent else None
        self.facts = type_facts_of(ctx, combat)
        self.once = combat.model.defenders_once
        self.seen: tuple[Unit, ...] | None = None
        self.held: dict[str, set[str]] = {}
        self.entries: dict[str, tuple[Unit, list[str]]] = {}
        self.order: dict[str, int] = {}

    def ready(self, finished: set[str]) -> dict[str, tuple[Unit, list[str]]]:
        """Each unit of a side not ``finished`` that may attack now, with the cells it may attack,
        in player order and then the order of the state's units."""
        units = self.ctx.state.units
        if self.seen is None or len(units) != len(self.seen):
            self.held = target_holders(self.ctx, self.facts, self.once)
            self.order = {u.id: n for n, u in enumerate(units)}
            self.entries = {}
            for unit in units:
                self._look_at(unit)
        elif units is not self.seen:
            # Which units changed, found in C (a pass of Python over every unit each round made a
            # fight of N rounds among N units N²): the places where the two tuples differ.
            seen = self.seen
            changed = [(seen[n], units[n]) for n in compress(count(), map(is_not, seen, units))]
            cells = {u.location for pair in changed for u in pair if u.on_map}
            for cell in cells:
                self._hold(cell)
            near = set(cells)
            if self.around is not None:
                for cell in cells:
                    near.update(self.around.get(cell, ()))
            for cell in near:
                for unit in self.ctx.state.units_at(cell):
                    self._look_at(unit)
            for _, unit in changed:
                self._look_at(unit)
        self.seen = units
        rank = self.sides.index
        found = sorted((e for e in self.entries.values() if e[0].side not in finished),
                       key=lambda e: (rank(e[0].side), self.order[e[0].id]))
        return {e[0].id: e for e in found}

    def _hold(self, cell: str) -> None:
        """Read again which sides hold targets in ``cell`` (``target_holders`` for one cell)."""
        sides = holders(self.ctx.state.units_at(cell), self.facts, may_attack_hidden(self.ctx), self.once)
        if sides:
            self.held[cell] = sides
        else:
            self.held.pop(cell, None)

    def _targets(self, side: str, cell: str) -> bool:
        holders = self.held.get(cell)
        return holders is not None and (len(holders) > 1 or side not in holders)

    def _look_at(self, unit: Unit) -> None:
        """Read again whether ``unit`` may attack, and where."""
        self.entries.pop(unit.id, None)
        if unit.side not in self.sides or not unit.location[:1].isdigit() or unit.dummy or ATTACKED in unit.spent:
            return
        if self.around is None:
            cells = [unit.location] if self._targets(unit.side, unit.location) else []
        else:
            side, held = unit.side, self.held  # (``_targets`` inline: six calls a unit looked at)
            cells = []
            for c in self.around.get(unit.location, ()):  # in id order (a loop: no comprehension's frame)
                h = held.get(c)
                if h is not None and (len(h) > 1 or side not in h):
                    cells.append(c)
        # What the unit's type, mode and status allow, asked only of a unit with something to attack.
        if cells and self.facts(unit)[1] and not (unit.mode and forbidding_mode(self.ctx, unit, "attack")) \
                and not (unit.status and status_forbids(self.ctx, unit, "attack")):
            self.entries[unit.id] = (unit, cells)


def target_holders(ctx: Context, facts, once: bool = False) -> dict[str, set[str]]:
    """Every map cell holding counters that may be attacked in this combat, with their sides: a
    side's targets (``targets_in``) are the cells held by any other side.  One pass over the
    state's index of occupied cells serves every side."""
    hidden_ok = may_attack_hidden(ctx)
    out: dict[str, set[str]] = {}
    for cell, here in ctx.state.units_by_cell().items():
        if not cell[:1].isdigit():
            continue  # a holding area (eliminated, a box …): nobody attacks there
        sides = holders(here, facts, hidden_ok, once)
        if sides:
            out[cell] = sides
    return out


def holders(here: Iterable[Unit], facts, hidden_ok: bool, once: bool = False) -> set[str]:
    """The sides of the counters in one cell that may be attacked (``fought``): units this combat
    fights, and dummies; any face-down one, only where hidden counters may be attacked; with ``once``
    (``each defender attacked once per phase``), none attacked already this phase."""
    sides = set()
    for u in here:  # (``fought`` read inline: a call per counter of every occupied cell, each fight)
        if (hidden_ok if u.hidden else (u.dummy or facts(u)[0])) and not (once and DEFENDED in u.spent):
            sides.add(u.side)
    return sides


def type_facts_of(ctx: Context, combat: CombatRule):
    """``type_facts`` for one combat, looked up by unit type and step (for real units)."""
    known: dict[tuple[str, int], tuple[bool, bool, bool]] = {}

    def facts(unit: Unit) -> tuple[bool, bool, bool]:
        found = known.get((unit.type, unit.step))
        if found is None:
            found = known[unit.type, unit.step] = type_facts(ctx, combat, unit)
        return found

    return facts


def ranking(ctx: Context, combat: CombatRule):
    """``rank_key`` for one combat, read once per unit type and step (a rank depends only on the factor shown)."""
    if combat.order_factor is None:
        return lambda unit: (0, 0)
    ranks: dict[tuple[str, bool, int, frozenset[str]], tuple[int, object]] = {}

    def rank(unit: Unit) -> tuple[int, object]:
        key = (unit.type, unit.dummy, unit.step, unit.status)
        found = ranks.get(key)
        if found is None:
            found = ranks[key] = rank_key(ctx, combat, unit)
        return found

    return rank


def why_not_attack(ctx: Context, combat: CombatRule, side: str, action: Action, leaders: list[Unit]) -> str | None:
    if action.kind != "attack" or len(action.args) < 3 or action.args[1] != "with":
        return None
    cell, ids = action.args[0], action.args[2:]
    cite = section_cite(combat.decl)
    for unit_id in ids:
        try:
            unit = ctx.state.unit(unit_id)
        except KeyError:
            return f"there is no unit {unit_id!r}"
        if unit.side != side:
            return f"{unit_id} is not {side}'s"
        mode = forbidding_mode(ctx, unit, "attack")
        if mode is not None:
            return f"{unit_id} is on {mode.label} orders, which forbid attacking{section_cite(mode.decl)}"
        status = status_forbids(ctx, unit, "attack")
        if status is not None:
            return f"{unit_id} is {status.label.lower()}, which forbids attacking{section_cite(status.decl)}"
        if ATTACKED in unit.spent:
            return f"{unit_id} has already attacked this phase{cite}"
        if combat.adjacent and cell not in set(ctx.board.neighbours(unit.location)):
            return f"{unit_id} is not adjacent to {cell}: units in adjacent hexes can be attacked{cite}"
    if cell in ctx.board.graph and not targets_in(ctx, combat, cell, side):
        return f"{cell} holds no enemy counter that may be attacked{cite}"
    if not any(u.id in ids for u in leaders):
        return f"{', '.join(u.id for u in leaders)} attack first (in order of the combat's ranking){cite}"
    if not odds_allowed(ctx, combat, ids, cell, side):
        return f"the odds are below {combat.model.minimum_odds.text}, the least an attack may be made at{cite}"
    return None


# --- what fight offers -------------------------------------------------------------------------------


def attack_options(ctx: Context, combat: CombatRule, side: str, leaders: list[Unit],
                   mine: dict[str, list[str]]) -> tuple[list[Action], list[str]]:
    """(the options ``fight`` offers ``side`` now, the units and cells it must still attack).

    ``mine``: each of the side's units that may attack, with the cells it may attack.  Without the
    combat's model lines: for each cell a leader may attack, every unit of the side that may attack
    it together, and each leader alone; ``done``; a pass for each leader.  ``any combination of
    attackers`` offers every group holding a leader instead, ``minimum odds`` drops the attacks
    below them, and a ``mandatory attack`` takes away the passes and ``done`` that would leave an
    obligation unmet (``obligations``).  Listed as ``choose`` sorts them (each cell's distinct
    groups in order, ``done`` before the passes), so that it need not sort them again."""
    model = combat.model
    able: dict[str, list[str]] = {}  # each cell with the side's units that may attack it
    for uid, cells in mine.items():
        for c in cells:
            able.setdefault(c, []).append(uid)
    lead = {u.id for u in leaders}
    alone: dict[str, list[list[str]]] = {}  # each cell a leader may attack, with each such leader alone
    for u in leaders:
        for c in mine[u.id]:
            alone.setdefault(c, []).append([u.id])
    options = []
    for cell in sorted(alone):
        group = sorted(able[cell])
        if model.any_combination:
            groups = [g for g in every_group(group) if lead.intersection(g)]
        else:
            groups = [group, *alone[cell]]
        if model.supporting_fire:  # (imported here: range_support reads this module)
            from .range_support import support_groups
            groups = support_groups(ctx, combat, side, (cell,), groups)
        if model.minimum_odds is not None:
            groups = [g for g in groups if odds_allowed(ctx, combat, g, cell, side)]
        # Each distinct group once, in the order ``choose`` sorts options in (a shorter group
        # before a longer one it begins): so the options need no set nor sort there.
        options.extend([Action("attack", (cell, "with", *g)) for g in sorted(set(map(tuple, groups)))])
    if model.several_hexes:  # (imported here: several_hexes reads this module)
        from .several_hexes import several_hex_attacks
        options.extend(several_hex_attacks(ctx, combat, side, leaders, mine))
    must = obligations(ctx, combat, side, mine, able) if model.from_zones or model.on_adjacent else []
    bound = {u for u in must if u in mine}
    for cell in (c for c in must if c not in mine):
        bound.update(uid for uid in lead if cell in mine[uid])
    if not must:
        options.append(DONE)
    options.extend([Action("pass", (uid,)) for uid in sorted(u.id for u in leaders if u.id not in bound)])
    return options, must


DONE = Action("done")


def every_group(ids: list[str]) -> list[list[str]]:
    """Every non-empty group of ``ids``, largest first, then in the order of ``ids`` (``any combination
    of attackers``, for ``fight`` and ``bombard``)."""
    out = []
    for size in range(len(ids), 0, -1):
        out.extend(list(g) for g in combinations(ids, size))
    return out


def odds_allowed(ctx: Context, combat: CombatRule, ids: Iterable[str], cell: str, side: str) -> bool:
    """Whether these units attacking ``cell`` reach the combat's ``minimum odds`` (attack to defence,
    the defence as the combat's terrain line makes it, before any shift)."""
    minimum = combat.model.minimum_odds
    if minimum is None:
        return True
    attackers = [ctx.state.unit(i) for i in ids]
    attack, defence = combat_strength(ctx, combat, attackers, targets_in(ctx, combat, cell, side), cell)
    return defence == 0 or attack * minimum.defence >= defence * minimum.attack


def obligations(ctx: Context, combat: CombatRule, side: str, mine: dict[str, list[str]],
                able: dict[str, list[str]]) -> list[str]:
    """What ``side`` must still attack under the combat's ``mandatory attack`` lines: its units in an
    enemy zone their type does not ignore (``by units in enemy zones``) and the cells next to its
    units holding enemy units not attacked yet this phase (``on adjacent enemies``), each only
    where an attack at the minimum odds is possible (all the units that may attack the cell)."""
    model = combat.model
    allowed = {c: odds_allowed(ctx, combat, group, c, side) for c, group in able.items()}
    out: list[str] = []
    if model.from_zones:
        zones = enemy_zones(ctx, side)
        for uid, cells in mine.items():
            zone = zones.get(ctx.state.unit(uid).location)
            if zone is not None and not zone.is_ignored_by(ctx.rules.unit_type(ctx.state.unit(uid).type)) \
                    and any(allowed[c] for c in cells):
                out.append(uid)
    if model.on_adjacent:
        out += sorted(c for c in able if allowed[c]
                      and any(DEFENDED not in u.spent for u in targets_in(ctx, combat, c, side)))
    return out
