"""Who may take part in a combat, against what: the facts ``do fight``, ``do bombard`` and their
extensions (supporting fire from range, one attack on several hexes) all read.

A unit fights a combat when its type prints the combat's factor and no mode or status forbids
it; the cells it may attack hold targets (counters the combat fights, or face-down counters where
hidden ones may be attacked), adjacent or its own; ``order by`` ranks the units.
"""

from __future__ import annotations

from ...dsl.compiled.combat import CombatRule
from ...dsl.model import Declaration
from ..caches import rules_cache
from ..combat import factor_name, unit_factor
from ..context import Context
from ..flags import ATTACKED, DEFENDED
from ..modes import forbidding_mode
from ..status_effects import status_forbids
from ..state import Unit


def section_cite(decl: Declaration | None) -> str:
    """`` (§NAME)``, the declaration's first section, for a refusal's message; nothing without one."""
    names = decl.provenance.section_names if decl is not None else ()
    return f" (§{names[0]})" if names else ""


def combat_factor(combat: CombatRule, which: str) -> str | None:
    return factor_name(combat, which)


def _facts(ctx: Context) -> dict:
    """Answers read from the rulebook once per compiled ``Rules`` (keyed by mode, combat and unit
    type names, which name the same declarations for as long as that ``Rules`` lives), so the
    procedures below ask no string-keyed rulebook questions at decision time."""
    return rules_cache(ctx.rules).setdefault("combat_procedures", {})


def may_attack_hidden(ctx: Context) -> bool:
    """Whether face-down counters may be attacked unspotted (SPOTTING-style `unspotted may be attacked`)."""
    spottings = ctx.rules.spottings.values()
    return not spottings or any(s.unspotted_may_be_attacked for s in spottings)


def _fights(ctx: Context, combat: CombatRule, unit: Unit) -> bool:
    """Whether a real unit takes part in this kind of combat at all (has the defence factor it names)."""
    defence = combat_factor(combat, "defence")
    return defence is None or unit_factor(ctx, unit, defence) is not None


def type_facts(ctx: Context, combat: CombatRule, unit: Unit) -> tuple[bool, bool, bool]:
    """For a real (not dummy) unit of ``unit.type`` in ``combat``: (it is fought as a target,
    it may assault, it may bombard): what depends only on its type's printed factors."""
    cache = _facts(ctx).setdefault("types", {})
    key = (combat.name, unit.type, unit.step)
    found = cache.get(key)
    if found is None:
        fights = _fights(ctx, combat, unit)
        attack = unit_factor(ctx, unit, combat_factor(combat, "attack"))
        fires = attack is not None and attack > 0
        found = cache[key] = (ctx.rules.unit_type(unit.type).kind == "unit" and fights, fires and fights, fires)
    return found


def targets_in(ctx: Context, combat: CombatRule, cell: str, side: str) -> list[Unit]:
    """The enemy counters of ``side`` in ``cell`` that an attack there is made on: units and dummies,
    and any face-down counter (``fought``)."""
    out = []
    hidden_ok = may_attack_hidden(ctx)
    for unit in ctx.state.units_at(cell):
        if unit.side == side or (combat.model.defenders_once and DEFENDED in unit.spent):
            continue
        if fought(unit, type_facts(ctx, combat, unit)[0], hidden_ok):
            out.append(unit)
    return out


def fought(unit: Unit, fights: bool, hidden_ok: bool) -> bool:
    """Whether an attack may be made on ``unit``: a face-down counter where hidden counters may be
    attacked, whatever it turns out to be (the attacker cannot tell a trap or a dummy from a unit:
    ``fight_rounds`` reveals it and fights only what it fights); a face-up one when it is a dummy
    or a unit this combat fights (``fights``: ``type_facts``)."""
    return hidden_ok if unit.hidden else (unit.dummy or fights)


def may_fire(ctx: Context, combat: CombatRule, unit: Unit, flag: str, *, ground: bool = True) -> bool:
    """Real, on the map, not done yet, not forbidden by its mode, with an attack factor above 0.

    ``ground``: it must also have the defence factor (an assault is fought by units that can be
    fought back; a bombardment is not).
    """
    if unit.dummy or not unit.on_map or flag in unit.spent or forbidding_mode(ctx, unit, "attack") or \
            (unit.status and status_forbids(ctx, unit, "attack")):
        return False
    return type_facts(ctx, combat, unit)[1 if ground else 2]


def attack_cells(ctx: Context, combat: CombatRule, unit: Unit) -> list[str]:
    """Cells this unit may attack now: adjacent ones (``adjacent``) or its own, holding targets."""
    if not may_fire(ctx, combat, unit, ATTACKED):
        return []
    cells = ctx.board.neighbours(unit.location) if combat.adjacent else [unit.location]
    return sorted(c for c in cells if targets_in(ctx, combat, c, unit.side))


def rank_key(ctx: Context, combat: CombatRule, unit: Unit) -> tuple[int, object]:
    """Sort key: smaller goes first.  Units without the ordering factor go last."""
    if combat.order_factor is None:
        return (0, 0)
    value = unit_factor(ctx, unit, combat.order_factor)
    if value is None:
        return (1, 0)
    return (0, -value if combat.order_descending else value)
