"""Battles of an operation: ``do resolve fire with COMBAT``, a battle's last step, and strikes by
support markers alone.

Who is in a battle and when it is over: ``interpreter.procedures.combatants``; its recon step:
``interpreter.procedures.recon``; its support step: ``interpreter.procedures.support``.

**Strikes.**  An action with ``strike with MARKER…`` lets ``designate force`` offer ``strike
CELL``: those markers alone attack a cell holding enemy counters, without moving there
(``strike``).  The action's price is paid once and the markers committed then, and in later
``commit support`` lines of the battle, cost nothing more; no reaction move joins the striking
side; ``recon`` rolls nothing and turns nothing face up, the striker firing first; and the battle
is one round of fire (``resolve fire`` ends it).  Combat turns face up the counters that fire
and are fired at, as in any battle, so what a strike hits is shown.

``resolve fire with COMBAT``.  The side with first fire fires, its losses taken at once; then
the other side fires with what it has left.  A side fires the
total of its firing units' attack factor (the COMBAT's ``attack factor``) on the COMBAT's table
(``interpreter.results.resolve``, with a ``Battle``: terrain shifts only fire at the defender, and
the recon unit is the first into a box by a ``refit`` result, ``recon unit refitted first``),
adding its markers' ``modify fire roll +N [for self] [once]`` effects and the turn modifier
``(side, "roll:fire", N)``.  A side whose total is 0 does not fire.  The battle goes on after
the round only when the COMBAT says ``recycle until one side remains`` (the step around the round
then repeats it, ``repeat until only one side remains in the contested square``: lint E225 has the
two agree); otherwise it is over after one round of fire.  After a side fires, markers
in the cell meet ``SIDE fires in cell`` (``interpreter.event_effects.fired``); at the end of the
round the counters there meet ``[first] combat round ends`` (``event_effects.round_ended``), whose
effects are carried out like any moment's.

Raises:
    RulesError: (E805) when the COMBAT says ``fire is simultaneous``: only sequential fire is
    carried out.
"""

from __future__ import annotations

from fractions import Fraction

from ...dsl.compiled.combat import CombatRule
from ...dsl.compiled.actions import ActionRule
from ...dsl.diagnostics import RulesError, diagnostic
from ...dsl.compiled.calls import ResolveFire
from .. import combat as fire
from .. import event_effects
from ..citations import cite
from ..context import Context, Flow
from ..flags import COMMITTED
from ..forces import took
from . import procedure
from ..results import resolve
from ..state import Unit
from ..victory import gain
from .combatants import battle_on, battle_over, counters_here, defenders_of, fighting_counters, support_box
from .roll_modifiers import roll_modifier
from .support import commit_markers, may_support, support_price


# --- strikes: support markers attacking alone -----------------------------------------------------


def _strike_fights(side: str):
    """Who fights with units in a strike by ``side``: every side but the striker."""
    return lambda s: s != side


def _strikers(action: ActionRule) -> frozenset[str]:
    """The marker types a ``strike with MARKER…`` action strikes with."""
    return frozenset(action.strike_with)


def _ready_strikers(ctx: Context, action: ActionRule, side: str) -> list[tuple[Unit, tuple[str, Fraction]]]:
    """One marker of each type ``action`` strikes with that ``side`` has ready in its box and can pay
    for, with its price: whether it may go into a cell is then a question about the type alone."""
    kinds, ready = _strikers(action), {}
    for marker in ctx.state.units:
        if marker.side != side or marker.type not in kinds or marker.type in ready:
            continue
        if COMMITTED in marker.turn_flags or marker.location != support_box(ctx, marker):
            continue
        price = support_price(ctx, action, marker)
        if price is not None and ctx.state.resource(side, price[0]) >= price[1]:
            ready[marker.type] = (marker, price)
    return list(ready.values())


def strike_price(ctx: Context, action: ActionRule, side: str, cell: str,
                 ready: list | None = None) -> tuple[str, Fraction] | None:
    """What a strike on ``cell`` costs ``side`` under ``action`` (its line for the cheapest marker
    that could strike there), or ``None`` when no marker could or the side cannot pay."""
    ready = _ready_strikers(ctx, action, side) if ready is None else ready
    prices = [price for marker, price in ready
              if may_support(ctx, marker, cell, _strike_fights(side))]
    return min(prices, key=lambda price: price[1]) if prices else None


def strike_cells(ctx: Context, actions: list[ActionRule], side: str) -> list[str]:
    """Cells holding enemy counters that ``side`` could strike with support markers alone."""
    ready = [(a, r) for a in actions if a.strike_with and (r := _ready_strikers(ctx, a, side))]
    if not ready:
        return []
    cells = sorted({u.location for other, units in ctx.state.units_on_map().items() if other != side for u in units})
    fights = _strike_fights(side)  # (``strike_price`` is not None: some ready marker may strike there)
    markers = [marker for _, r in ready for marker, _ in r]
    return [c for c in cells if any(may_support(ctx, marker, c, fights) for marker in markers)]


def strike(ctx: Context, actions: list[ActionRule], side: str, cell: str) -> Flow:
    """Designate a strike on ``cell``: pay the cheapest ``strike with MARKER…`` action once (taken), then
    commit at least one of those markers; the battle that follows rolls no recon (``recon``) and
    ends after one round of fire (``resolve fire``)."""
    priced = [(p, a) for a in actions if a.strike_with and (p := strike_price(ctx, a, side, cell)) is not None]
    (resource, amount), action = min(priced, key=lambda pa: pa[0][1])
    operation = ctx.operation
    operation.mode, operation.cell = "strike", cell
    line = action.strike_source
    if amount:
        gain(ctx, side, resource, -amount, f"{action.label}: strike on {cell}")
    took(ctx, action, side)  # a ``once per turn`` action is not offered again this turn
    ctx.say(f"{ctx.shown('side', side)} strikes {cell} with support markers alone ({cite(action.decl, line)})",
            kind="operation", side=side, cell=cell)
    yield from commit_markers(ctx, side, cell, None, _strikers(action), units_fight=_strike_fights(side), must=True)
    if not battle_on(ctx):  # face-down markers alone: nothing there fights
        ctx.say(f"the strike on {cell} finds no enemy unit", kind="combat", cell=cell)
        yield from battle_over(ctx)


# --- fire ----------------------------------------------------------------------------------------


def _first_refit(ctx: Context, combat: CombatRule) -> dict[str, str]:
    if not combat.recon_refitted_first:
        return {}
    out = {}
    for side, unit_id in ctx.operation.recon_units.items():
        unit = ctx.state.unit(unit_id)
        if combat.recon_refitted_unless and ctx.rules.unit_type(unit.type).matches(combat.recon_refitted_unless):
            continue
        out[side] = unit_id
    return out


def firepower(ctx: Context, combat: CombatRule, units: list[Unit]) -> Fraction:
    """The total a side fires with: its firing units' attack factor."""
    factor = fire.factor_name(combat, "attack")
    return sum((fire.unit_factor(ctx, u, factor) or Fraction(0) for u in units), Fraction(0))


@procedure("resolve fire")
def resolve_fire(ctx: Context, call: ResolveFire) -> Flow:
    """The fire sub-phase of one round: first fire, losses, then the other side's fire (module docstring)."""
    operation = ctx.operation
    if operation is None or not operation.fighting():
        return
    if not battle_on(ctx):
        yield from battle_over(ctx)
        return
    combat = ctx.rules.combats[call.combat]
    fire_is = combat.fire_simultaneous
    if fire_is is not None:
        raise RulesError([diagnostic("E805", fire_is.span, f"combat {combat.name!r}: simultaneous fire is not "
                                     "supported by 'resolve fire' yet", "write 'fire is sequential'")])
    cell = operation.cell
    attacker = operation.side
    defender = defenders_of(ctx)[0]
    first = operation.first_fire or attacker
    order = [first, defender if first == attacker else attacker]
    battle = fire.Battle(cell, defender, _first_refit(ctx, combat))
    for side in order:
        if not battle_on(ctx):
            break
        firers = fighting_counters(ctx, side)
        targets = [u for u in counters_here(ctx) if u.side != side and not u.dummy]
        total = firepower(ctx, combat, firers)
        if total <= 0:
            ctx.say(f"{ctx.shown('side', side)} has no firepower in {cell} and does not fire", kind="combat", side=side,
                    cell=cell)
            continue
        modifier, reasons = roll_modifier(ctx, side, "fire", cell)
        note = f" (roll {', '.join(reasons)})" if reasons else ""
        ctx.say(f"{ctx.shown('side', side)} fires in {cell} with {', '.join(ctx.label(u) for u in firers)}: "
                f"firepower {total}{note}",
                kind="attack", side=side, cell=cell, units=[u.id for u in firers])
        yield from resolve(ctx, combat.name, firers, targets, reason=f"{ctx.shown('side', side)} fire in {cell}",
                                attacker_side=side, roll_modifier=modifier, battle=battle)
        yield from event_effects.fired(ctx, side, cell)
    yield from event_effects.round_ended(ctx, cell, first=operation.round <= 1)
    if battle_on(ctx) and operation.mode != "strike" and combat.recycle is None:
        ctx.say(f"{combat.label} is one round: it does not recycle until one side remains", kind="combat", cell=cell)
    if not battle_on(ctx) or operation.mode == "strike" or combat.recycle is None:
        yield from battle_over(ctx)  # a strike is one round of fire, and so is a combat that does not recycle
