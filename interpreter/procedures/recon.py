"""Recon and the bounce: ``do recon with DICE [adding FACTOR] [for COMBAT]``, a battle's first step
(``interpreter.procedures.combatants`` says who is in the battle).

``recon with DICE [adding FACTOR] [for COMBAT]`` (recon and the bounce).  Each
round: ``operation.round`` goes up by one (this procedure counts the rounds).  Face-down
counters in the cell are turned face up, and the units there meet ``revealed``
(``interpreter.event_effects.revealed``: a unit with ``effect remove self [to BOX] when
revealed`` leaves the map for that box, with no award).  Then each side, the
attacker first, picks one of its units in the battle (decision ``recon``: ``recon ID``; a marker
may be picked when its declaration prints the FACTOR, such as a surveillance aircraft; a lone
candidate is taken without asking) and rolls DICE, adding the unit's FACTOR, the cell's terrain
``recon attacker|defender +N``, its side's markers' ``modify recon roll +N [for self] [once]``
effects in the cell whose condition holds and the turn modifier ``(side, "roll:recon", N)``.  The higher
total has the bounce; a tie goes to the side the COMBAT's ``first fire by … ties to
defender|attacker`` names (the defender when it names none).  The side with the bounce chooses
(decision ``bounce``) ``fire first`` or ``break off``; breaking off (``interpreter.retreats.
break_off``) gives the first fire to the other side.  A strike rolls no recon: the striker fires
first.

Limits: recon picks are made one after the other, not simultaneously.
"""

from __future__ import annotations

from attrs import evolve

from ...dsl.compiled.combat import CombatRule
from ...dsl.compiled.calls import Recon
from .. import combat as fire
from .. import event_effects, retreats
from ..actions import Action
from ..citations import cite
from ..context import Context, Flow
from . import procedure
from ..state import Unit
from .combatants import (battle_on, battle_over, counters_here, defenders_of, fighting_counters,
                         is_unit)
from .roll_modifiers import roll_modifier


def _reveal_in_cell(ctx: Context, cell: str) -> Flow:
    """Turn every counter in the cell face up, then units there meet ``revealed`` (units that go
    when revealed leave)."""
    for counter in sorted(ctx.state.units_at(cell), key=lambda u: u.id):
        if counter.hidden:
            ctx.update_unit(evolve(counter, hidden=False))
            ctx.say(f"{counter.id} is revealed: {ctx.label(evolve(counter, hidden=False))}", kind="reveal",
                    unit=counter.id, unit_type=counter.type, cell=cell)
    units = [u for u in sorted(ctx.state.units_at(cell), key=lambda u: u.id) if is_unit(ctx, u)
             and any(e.moment == "revealed" for e in ctx.rules.effects_of(ctx.rules.unit_type(u.type)))]
    if units:
        yield from event_effects.revealed(ctx, units)


# --- recon ---------------------------------------------------------------------------------------


def _battle_combat(ctx: Context, call: Recon) -> CombatRule | None:
    name = call.combat
    if name is not None:
        return ctx.rules.combats.get(str(name))
    return next((c for c in ctx.rules.combats.values() if c.first_fire_by), None)


def _prints(ctx: Context, unit: Unit, factor: str | None) -> bool:
    """Whether the counter's own declaration prints the factor (a marker with a recon value)."""
    return factor is not None and factor in ctx.rules.unit_type(unit.type).printed


def recon_candidates(ctx: Context, side: str, factor: str | None) -> list[Unit]:
    """The side's units in the battle it may pick to roll recon with (and markers printing ``factor``)."""
    return [u for u in fighting_counters(ctx, side) if is_unit(ctx, u) or _prints(ctx, u, factor)]


def terrain_recon(ctx: Context, cell: str, role: str) -> tuple[int, str | None]:
    """The cell's terrain modifier to a recon roll by ``role``, combined over its terrains as the
    rulebook's ``terrains { recon … }`` says (only the first terrain's without it), and its wording."""
    terrains = ctx.rules.cell_terrains(ctx.board.terrain(cell), ctx.board.tags(cell))
    used = [terrains[i] for i in ctx.rules.terrain_mix.combine_recon([t.recon for t in terrains], role)]
    if not used:
        return 0, None
    return sum(t.recon.modifier for t in used), ", ".join(f"{t.recon.modifier:+d} {t.label}" for t in used)


def _ties_to(combat: CombatRule | None, attacker: str, defender: str) -> str:
    return attacker if combat is not None and combat.ties_to_attacker else defender


@procedure("recon")
def recon(ctx: Context, call: Recon) -> Flow:
    """The recon sub-phase of one round: reveal, pick, roll, and the bounce's choice (module docstring)."""
    operation = ctx.operation
    if operation is None or not operation.fighting():
        return
    cell = operation.cell
    if not battle_on(ctx):
        yield from battle_over(ctx)
        return
    operation.round += 1
    operation.bounce, operation.first_fire, operation.recon_units = None, None, {}
    ctx.say(f"battle in {cell}: round {operation.round}", kind="combat", cell=cell, round=operation.round)
    attacker = operation.side
    if operation.mode == "strike":
        operation.first_fire = attacker
        ctx.say(f"a strike by support markers alone: no recon; {ctx.shown('side', attacker)} fires first",
                kind="combat", cell=cell)
        return
    yield from _reveal_in_cell(ctx, cell)
    if not battle_on(ctx):
        yield from battle_over(ctx)
        return
    defender = defenders_of(ctx)[0]
    factor = call.factor
    combat = _battle_combat(ctx, call)
    picked: dict[str, Unit | None] = {}
    for side in (attacker, defender):
        candidates = recon_candidates(ctx, side, factor)
        if len(candidates) > 1:
            action = yield from ctx.choose(side, "recon", f"recon in {cell}: pick the unit to roll for",
                                           [Action("recon", (u.id,)) for u in candidates])
            unit = ctx.state.unit(action.args[0])
        else:
            unit = candidates[0] if candidates else None
        picked[side] = unit
        if unit is not None:
            operation.recon_units[side] = unit.id
            ctx.say(f"{ctx.shown('side', side)} rolls recon with {ctx.label(unit)}", kind="recon", side=side,
                    unit=unit.id)
    totals: dict[str, int] = {}
    for side, role in ((attacker, "attacker"), (defender, "defender")):
        unit = picked[side]
        parts: list[str] = []
        value = ctx.roll(call.dice, f"recon for {ctx.shown('side', side)} in {cell}")
        total = value
        printed = fire.unit_factor(ctx, unit, factor) if unit is not None else None
        if printed:
            total += int(printed)
            parts.append(f"{int(printed):+d} {ctx.label(unit)}")
        terrain, why = terrain_recon(ctx, cell, role)
        if why:
            total += terrain
            parts.append(why)
        modifier, reasons = roll_modifier(ctx, side, "recon", cell)
        total += modifier
        parts += reasons
        totals[side] = total
        ctx.say(f"{ctx.shown('side', side)} recon: rolled {value}{''.join(f', {p}' for p in parts)} = {total}",
                kind="recon", side=side, roll=value, total=total)
    if totals[attacker] != totals[defender]:
        bounce = attacker if totals[attacker] > totals[defender] else defender
    else:
        bounce = _ties_to(combat, attacker, defender)
    other = defender if bounce == attacker else attacker
    operation.bounce = bounce
    section = cite(combat.decl, combat.first_fire_source) if combat is not None and combat.first_fire_source else ""
    ctx.say(f"{ctx.shown('side', bounce)} has the bounce ({totals[attacker]} against {totals[defender]}"
            f"{', a tie' if totals[attacker] == totals[defender] else ''}{f'; {section}' if section else ''})",
            kind="recon", side=bounce)
    mine = [u for u in counters_here(ctx) if u.side == bounce]
    options = [Action("fire", ("first",))]
    if combat is not None and any(retreats.break_off_cells(ctx, combat, u) or retreats.break_off_boxes(ctx, combat, u)
                                  for u in mine):
        options.append(Action("break", ("off",)))
    choice = options[0]
    if len(options) > 1:
        choice = yield from ctx.choose(bounce, "bounce", f"the bounce in {cell}: fire first or break off?",
                                       options, in_order=True)
    if choice.kind == "fire":
        operation.first_fire = bounce
        ctx.say(f"{ctx.shown('side', bounce)} fires first", kind="recon", side=bounce)
        return
    ctx.say(f"{ctx.shown('side', bounce)} breaks off", kind="recon", side=bounce)
    yield from retreats.break_off(ctx, combat, bounce, mine, forced=False, reason=f"the bounce in {cell}")
    operation.first_fire = other
    if not battle_on(ctx):
        yield from battle_over(ctx)
    else:
        ctx.say(f"{ctx.shown('side', other)} fires first at the units that stayed", kind="recon", side=other)
