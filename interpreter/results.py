"""Combat results carried out: ``resolve`` fights one combat, ``apply_result`` carries out a cell.

- **Losses.**  ``eliminate half`` rounds up: the losing side loses the odd counter,
  so a lone counter is lost on a ½ result (a rulebook that leaves halving odd
  stacks open should say so with a ``gap`` on the result).  Which counters are lost
  when not all are is chosen by their owner unless the combat says ``losses chosen
  by opponent|random``.
- **Refits.**  ``refit N ROLE [of WHAT] to BOX`` puts N of the role's counters in BOX (the
  side's own, for a box ``per side``), chosen like eliminations, and scores ``award … on
  refitted``.  In a battle round (``combat.Battle``) the side's ``first_refit`` unit goes first
  when it may be taken, and once the side has refitted a unit the rule is spent for the round.
  A ``refit`` line without ``to BOX`` is refused before play (E223).
- **Which counters may be lost** (``loss_candidates``): a marker's ``losses never`` keeps it out,
  ``losses only on CODE…`` lets only those result codes take it, ``losses last`` only when no
  unit (non-marker) of its side may be taken.
- **Retreat and break off** are ``interpreter.retreats``'s.  Without ``break off …`` lines in the
  combat, ``break off ROLE`` gives the role's units the ``broke off`` turn flag.
- **Other effects.**  ``stand`` keeps units where they are; ``roll DICE on TABLE`` rolls on a
  nested table and carries out its cell against the same roles (fire against aircraft's hit →
  effect table); ``gain``/``lose`` are ``interpreter.resource_effects``'s; ``when`` conditions
  and the effects no result can carry out (E220, E221) are ``interpreter.combat_effects``'s.

Every effect line goes through ``interpreter.effects.carry_out``; this module registers the
implementations of the verbs only a result carries out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from attrs import evolve

from ..dsl.effects import BreakOff, Eliminate, Losses, NoEffect, Refit, Retreat, RollOn, Stand, Where
from ..dsl.compiled.combat import CombatRule
from ..dsl.tables import combined_parts
from ..dsl.values import Dice, Odds
from . import combat_effects
from .actions import Action
from .citations import cite_first
from .combat import (
    Battle,
    CombatOutcome,
    Engagement,
    combat_roll_modifier,
    combat_scope,
    current_units,
    eliminate,
    find_column,
    off_table_note,
    refit,
    reveal_all,
    roll_on_table,
    row_lookup,
    strength_scope,
)
from .context import Context, Flow
from .effects import Target, carries_out, carry_out
from .flags import BROKE_OFF
from .retreats import break_off, retreat
from .strengths import strength_lines_held
from .rules import Rules
from .state import Unit


def resolve(ctx: Context, combat_name: str, attackers: Sequence[Unit], defenders: Sequence[Unit], *, reason: str,
            attacker_side: str, roll_modifier: int = 0, fixed_odds: Odds | None = None,
            ignore_terrain: bool = False, strength: Fraction | None = None, battle: Battle | None = None,
            support: Sequence[Unit] = ()) -> Flow:
    """Fight one combat: reveal, total, find the column, roll, and carry out the result.

    ``strength`` replaces the attackers' total (an ``attack … with N`` effect).  ``battle``: one
    side's fire in a round of a battle (``Battle``); ``attacker_side`` is then the firing side.
    ``support``: units adding their attack factor from range, whom no result touches.
    Returns a ``CombatOutcome``.
    """
    combat = ctx.rules.combats.get(combat_name)
    if combat is None:
        raise KeyError(f"no combat {combat_name!r}")
    attackers, defenders = current_units(ctx, attackers), current_units(ctx, defenders)
    support = current_units(ctx, support)
    cell = defenders[0].location if defenders else None
    reveal_all(ctx, [*attackers, *support, *defenders])
    for dummy in (d for d in defenders if d.dummy):
        eliminate(ctx, dummy, f"{reason}: a dummy has no defence")
    defenders = [d for d in current_units(ctx, defenders) if not d.dummy]
    attackers = current_units(ctx, attackers)
    if not defenders:
        ctx.say(f"{reason}: no real unit defends {cell}; nothing is rolled", kind="combat", cell=cell)
        return CombatOutcome(None, None, None, None, Fraction(0), Fraction(0))
    column = find_column(ctx, combat, [*attackers, *support], defenders, attacker_side=attacker_side, fixed_odds=fixed_odds,
                         ignore_terrain=ignore_terrain, strength=strength,
                         defending_side=battle.defending_side if battle is not None else None)
    view = column.view
    shifts = "".join(f", {'+' if s > 0 else ''}{s} ({why})" for s, why in column.shifts if s)
    strengths = f"total {column.attack}" if combat.compare == "total" else \
        f"attack {column.attack} against defence {column.defence}"
    if combat.strengths:  # `strength attack|defence MULT … when …` lines that held say so
        held = strength_lines_held(ctx, combat, attackers, defenders, strength_scope(attackers, defenders, cell))
        strengths += f" ({'; '.join(held)})" if held else ""
    ctx.say(f"{reason}: {strengths} at {view.columns[column.base].label}{shifts}: column {column.label}",
            kind="combat", cell=cell,
            attack=str(column.attack), defence=str(column.defence), column=column.label)
    note = off_table_note(view, column.edge, f"column {column.label}") if column.edge else None
    if note:
        ctx.say(f"{reason}: {note}", kind="combat", cell=cell, table=view.name)
    dice = view.dice
    roll = ctx.roll(dice, reason=f"{view.decl.display} {column.label} ({reason})")
    defending = battle.defending_side if battle is not None else defenders[0].side
    scope = combat_scope(attackers, defenders, cell, attacker_side, defending)
    modified = roll + roll_modifier + combat_roll_modifier(ctx, combat, scope)
    index, past = row_lookup(view, modified)
    row = view.rows[index]
    text = row.cells[column.index].text
    note = f" modified to {modified}" if modified != roll else ""
    ctx.say(f"{reason}: rolled {roll}{note}, row {row.key}: {text}", kind="combat", cell=cell, result=text,
            roll=roll, modified=modified)
    past_note = off_table_note(view, "rows", f"row {row.key}") if past else None
    if past_note:
        ctx.say(f"{reason}: {past_note}", kind="combat", cell=cell, table=view.name)
    engagement = Engagement(ctx, combat, attackers, defenders, attacker_side, reason, battle)
    yield from apply_result(ctx, text, engagement)
    return CombatOutcome(column.label, roll, modified, text, column.attack, column.defence,
                         tuple(engagement.eliminated), tuple(engagement.retreated))


def apply_result(ctx: Context, text: str, engagement: Engagement) -> Flow:
    """Carry out a table cell: each part of a compound code (parts that say ``combines with +``;
    lint E224 refuses any other compound), each ``effect`` line in order, if it applies."""
    parts = combined_parts(ctx.rulebook, text)
    if parts is None:
        event = ctx.rulebook.get("event", text)
        if event is None:
            raise KeyError(f"cell {text!r} names no result or event")
        parts = (event,)
    for part in parts:
        engagement.result_code = part.name
        target = Target(Where.RESULT, part, engagement.attacker_side, f"{part.display}, {engagement.reason}",
                        engagement=engagement)
        for effect in ctx.rules.effects(part):
            if combat_effects.applies(ctx, part, effect, engagement):
                yield from carry_out(ctx, effect, target)


# --- the verbs only a result carries out ---------------------------------------------------------


@carries_out(NoEffect, Where.RESULT)
def _no_effect(ctx: Context, effect: NoEffect, target: Target) -> Flow:
    ctx.say(f"{target.engagement.reason}: no effect", kind="combat")
    yield from ()


@carries_out(Eliminate, Where.RESULT)
def _eliminate_some(ctx: Context, effect: Eliminate, target: Target) -> Flow:
    engagement = target.engagement
    chooser = _losses_chosen_by(engagement.combat)
    for group, count in _loss_groups(ctx, effect, target):
        lost = yield from _pick_losses(ctx, group, count, chooser, engagement)
        for unit in lost:
            target.affected.add(unit.id)
            engagement.eliminated.append(unit.id)
            eliminate(ctx, unit, engagement.reason)


@carries_out(Refit, Where.RESULT)
def _refit_some(ctx: Context, effect: Refit, target: Target) -> Flow:
    """``refit N ROLE … to BOX``: the owner (or whoever ``losses chosen by`` says) picks; the
    battle's ``first_refit`` unit goes first when it may be taken."""
    engagement = target.engagement
    chooser = _losses_chosen_by(engagement.combat)
    battle = engagement.battle
    for group, count in _loss_groups(ctx, effect, target):
        if not count:
            continue
        side = group[0].side
        lost: list[Unit] = []
        first = battle.first_refit.get(side) if battle is not None else None
        forced = next((u for u in group if u.id == first), None)
        if forced is not None:
            ctx.say(f"{ctx.label(forced)} made its side's recon roll, so it is the first to refit "
                    f"({cite_first(engagement.combat.decl, 'recon')})", kind="combat", unit=forced.id)
            lost.append(forced)
        rest = [u for u in group if u not in lost]
        lost += yield from _pick_losses(ctx, rest, count - len(lost), chooser, engagement)
        for unit in lost:
            target.affected.add(unit.id)
            engagement.refitted.append(unit.id)
            refit(ctx, unit, str(effect.box), engagement.reason)
        if battle is not None and any(ctx.rules.unit_type(u.type).kind == "unit" for u in lost):
            battle.first_refit.pop(side, None)


@carries_out(Retreat, Where.RESULT)
def _retreat(ctx: Context, effect: Retreat, target: Target) -> Flow:
    for unit in target.engagement.units(effect.role):
        if unit.id not in target.affected and unit.on_map:
            target.affected.add(unit.id)
            yield from retreat(ctx, unit, effect.distance, target.engagement)


@carries_out(Stand, Where.RESULT)
def _stand(ctx: Context, effect: Stand, target: Target) -> Flow:
    units = target.engagement.units(effect.role)
    if units:
        ctx.say(f"{target.engagement.reason}: {', '.join(u.id for u in units)} stand", kind="combat")
    yield from ()


@carries_out(BreakOff, Where.RESULT)
def _break_off(ctx: Context, effect: BreakOff, target: Target) -> Flow:
    engagement = target.engagement
    units = engagement.units(effect.role)
    if engagement.combat is not None and engagement.combat.break_offs:
        for side in sorted({u.side for u in units}):
            gone = yield from break_off(ctx, engagement.combat, side, [u for u in units if u.side == side],
                                        forced=True, reason=engagement.reason)
            engagement.broke_off.extend(gone)
        return
    for unit in units:
        ctx.update_unit(evolve(unit, turn_flags=unit.turn_flags | {BROKE_OFF}))
        engagement.broke_off.append(unit.id)
        ctx.say(f"{ctx.label(unit)} breaks off ({engagement.reason})", kind="combat", unit=unit.id)


@carries_out(RollOn, Where.RESULT)
def _roll_on(ctx: Context, effect: RollOn, target: Target) -> Flow:
    engagement = target.engagement
    roll, text = roll_on_table(ctx, effect.table, reason=engagement.reason, dice=effect.dice)
    ctx.say(f"{engagement.reason}: rolled {roll} on {effect.table}: {text}", kind="combat", result=text)
    yield from apply_result(ctx, text, engagement)


# --- who is lost ----------------------------------------------------------------------------------


def _loss_groups(ctx: Context, effect: Losses, target: Target) -> list[tuple[list[Unit], int]]:
    """Per side, in side order: the counters that may be lost to an ``eliminate``/``refit`` line and
    how many are (``all``, ``half`` rounded up, or the count, at most all of them)."""
    engagement = target.engagement
    candidates = [u for u in engagement.units(effect.role) if not (effect.other and u.id in target.affected)]
    if effect.what:
        candidates = [u for u in candidates if Rules.unit_matches(ctx.rules.unit_type(u.type), effect.what)]
    out = []
    for side in sorted({u.side for u in candidates}):
        group = loss_candidates(ctx, [u for u in candidates if u.side == side], engagement.result_code)
        if effect.portion == "all":
            count = len(group)
        elif effect.portion == "half":
            count = math.ceil(len(group) / 2)
        else:
            count = min(effect.count, len(group))
        out.append((group, count))
    return out


def loss_candidates(ctx: Context, group: Sequence[Unit], code: str | None) -> list[Unit]:
    """The counters of one side that a result may take, by their markers' ``losses`` lines.

    ``losses never``: never taken.  ``losses only on CODE…``: only by a result part of those codes.
    ``losses last``: only when no unit (a counter that is not a marker) of the group may be taken.
    """
    types = {u.id: ctx.rules.unit_type(u.type) for u in group}
    kept = []
    for unit in group:
        unit_type = types[unit.id]
        if unit_type.losses == "never":
            continue
        if unit_type.losses == "only" and code not in unit_type.losses_only_on:
            continue
        kept.append(unit)
    if any(types[u.id].kind == "unit" for u in kept):
        kept = [u for u in kept if types[u.id].losses != "last"]
    return kept


def _losses_chosen_by(combat: CombatRule | None) -> str:
    return combat.losses_chosen_by if combat is not None else "owner"


def _pick_losses(ctx: Context, group: list[Unit], count: int, chooser: str, engagement: Engagement) -> Flow:
    if count >= len(group):
        return list(group)
    lost: list[Unit] = []
    left = list(group)
    while len(lost) < count:
        if chooser == "random":
            pick = ctx.roll(Dice(1, len(left)), reason=f"which counter is lost ({engagement.reason})") - 1
            unit = left[pick]
        else:
            owner = left[0].side
            side = owner if chooser == "owner" else next((s for s in ctx.rules.sides if s != owner), owner)
            options = [Action("lose", (u.id,)) for u in left]
            action = yield from ctx.choose(side, "losses", f"choose {count - len(lost)} more to lose "
                                           f"({engagement.reason})", options)
            unit = next(u for u in left if u.id == action.args[0])
        lost.append(unit)
        left.remove(unit)
    return lost
