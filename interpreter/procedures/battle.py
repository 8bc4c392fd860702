"""Battles of an operation: ``do recon with DICE …``, ``do commit support …`` and ``do resolve
fire with COMBAT``, and strikes by support markers alone.

A game of alternating operations (``interpreter.operation``) fights a battle when a moving
force ends its move in a cell with enemy counters (``ctx.operation.cell``).  The sequence
repeats a recon step, a support step and a fire step until one side remains; these three
procedures are those steps.  Each does nothing outside a battle (``ctx.operation`` is ``None``,
has no contested cell, or has ended).  Everything game-specific is read from declarations:

- **Who is in the battle.**  The attacker is the side conducting the operation; its units
  that fight are those of the force (``operation.force``) in the cell, plus the support markers
  committed to it (``operation.support``).  Every other side's counters in the cell defend, all
  of them.  A side takes part while it has a *unit* (a counter that is not a marker) there; the
  attacker while a unit of its force is there (or, in a strike, while one of its markers is).
  When that ends the battle is over: ``operation.ended`` is set and the committed support
  markers go back to their box (``battle_over``).

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
break_off``) gives the first fire to the other side.  A strike rolls no recon (below).

``commit support [of MARKER…] [paying ACTION] [by each side]`` (committing support).  The acting
side (the step's ``side``, else the ACTION's), or with ``by each side`` every side in the battle,
the attacker first, may commit markers that say ``support from BOX`` and lie in its BOX, not
committed yet this turn, into the contested cell, one at a time (decision ``support``: ``commit
ID`` or ``done``), paying ACTION's cost for each (its ``cost`` line for the marker; nothing
without ``paying``).  ``of MARKER…`` limits the types offered.  ``support only into WHERE
[within N]``, ``support never with friendly units``, ``support never alone`` (only where a unit of
its side fights) and ``support never against markers alone`` limit the cells.  Only the lowest id
of each marker type is offered: they are alike.  A committed marker gets the turn flag
``committed`` (so it is used once a turn) and fights with its side; when the battle ends it goes
back to its box, unless it leaves when a combat round ends (``remove self to BOX when combat round
ends``): then it goes to that BOX, also when the battle ends inside a round (a break-off).

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
``(side, "roll:fire", N)``.  A side whose total is 0 does not fire.  After a side fires, markers
in the cell meet ``SIDE fires in cell`` (``interpreter.event_effects.fired``); at the end of the
round the counters there meet ``[first] combat round ends`` (``event_effects.round_ended``), whose
effects are carried out like any moment's.

Raises:
    RulesError: (E805) when the COMBAT says ``fire is simultaneous``: only sequential fire is
    carried out.

Limits: a marker's ``once`` is remembered with the turn flag ``used:WHAT
roll``; recon picks are made one after the other, not simultaneously.
"""

from __future__ import annotations

from fractions import Fraction

from attrs import evolve

from ...dsl.diagnostics import RulesError, diagnostic
from ...dsl.effects import ModifyRoll, Where
from ...dsl.model import Declaration, Property
from .. import combat as fire
from .. import event_effects, retreats
from ..actions import Action
from ..caches import rules_cache
from ..cells import within
from ..citations import cite
from ..conditions import Scope, effect_condition, holds
from ..context import Context, Flow
from ..effects import Target, reads, sides_for
from ..flags import COMMITTED, USED_ROLL, with_arg
from ..flow import procedure
from ..results import resolve
from ..rules import Rules
from ..state import Unit
from ..victory import gain



# --- who is in the battle ----------------------------------------------------------------------


def _is_unit(ctx: Context, unit: Unit) -> bool:
    return not unit.dummy and ctx.rules.unit_type(unit.type).kind == "unit"


def _shown(ctx: Context, side: str) -> str:
    decl = ctx.rulebook.get("side", side)
    return decl.display if decl is not None else side


def _here(ctx: Context) -> tuple[Unit, ...]:
    return ctx.state.units_at(ctx.operation.cell)


def defenders_of(ctx: Context) -> list[str]:
    """The sides other than the attacker with counters in the contested cell, in player order."""
    present = {u.side for u in _here(ctx)}
    return [s for s in ctx.player_order if s != ctx.operation.side and s in present]


def fighting_counters(ctx: Context, side: str) -> list[Unit]:
    """The side's counters in the contested cell that fire and may be fired at (module docstring)."""
    operation = ctx.operation
    here = [u for u in _here(ctx) if u.side == side and not u.dummy]
    if side != operation.side:
        return here
    ours = set(operation.force) | set(operation.support)
    return [u for u in here if u.id in ours]


def side_in_battle(ctx: Context, side: str) -> bool:
    """Whether ``side`` still takes part in the battle (module docstring: who is in the battle)."""
    operation = ctx.operation
    if side != operation.side:
        return any(_is_unit(ctx, u) for u in _here(ctx) if u.side == side)
    force_units = [ctx.state.unit(i) for i in operation.force]
    here = [u for u in force_units if u.location == operation.cell]
    if any(_is_unit(ctx, u) for u in force_units):
        return any(_is_unit(ctx, u) for u in here)
    return bool(here) or any(ctx.state.unit(i).location == operation.cell for i in operation.support)


def side_in_battle_units(ctx: Context, side: str) -> bool:
    """Whether a unit (not a marker) of ``side`` fights in the battle."""
    return any(_is_unit(ctx, u) for u in fighting_counters(ctx, side))


def battle_on(ctx: Context) -> bool:
    """Whether a battle is being fought: an operation with a contested cell, not ended, where the
    attacker and another side both take part."""
    operation = ctx.operation
    if operation is None or not operation.fighting():
        return False
    return side_in_battle(ctx, operation.side) and any(side_in_battle(ctx, s) for s in defenders_of(ctx))


def battle_over(ctx: Context) -> Flow:
    """End the battle: the operation ends and committed support markers go back to their box.

    A battle that ends inside a round (a break-off at the bounce) ends that round for the markers
    committed to it: one that leaves ``when combat round ends`` (played for a round) goes where
    that effect sends it, not back to be played again.
    """
    operation = ctx.operation
    if operation is None or operation.cell is None:
        return
    for marker_id in operation.support:
        marker = ctx.state.unit(marker_id)
        if operation.round and marker.location == operation.cell and event_effects.leaves_at_round_end(ctx, marker):
            yield from event_effects.round_ended(ctx, operation.cell, first=operation.round <= 1, counters=[marker])
            continue
        box = _support_box(ctx, marker)
        if marker.location == operation.cell and box is not None:
            ctx.update_unit(evolve(marker, location=box))
            ctx.say(f"{ctx.label(marker)} goes back to the {box}: the battle in {operation.cell} is over",
                    kind="combat", unit=marker.id, box=box)
    operation.support = []
    if not operation.ended:
        operation.ended = True
        ctx.say(f"the battle in {operation.cell} is over", kind="combat", cell=operation.cell)


# --- markers' effects ----------------------------------------------------------------------------


def _decl(ctx: Context, unit: Unit) -> Declaration | None:
    return ctx.rulebook.get(ctx.rules.unit_type(unit.type).kind, unit.type)


@reads(ModifyRoll)
def roll_modifier(ctx: Context, side: str, what: str, cell: str, *, use: bool = True) -> tuple[int, list[str]]:
    """The modifier to ``side``'s WHAT roll in ``cell``: counters' ``modify WHAT roll`` effects whose
    condition holds and the turn modifier ``(side, "roll:WHAT", N)``, with the reasons.  ``use``:
    spend ``once`` effects."""
    total, why = 0, []
    for marker in ctx.state.units_at(cell):
        if marker.dummy:
            continue
        decl = _decl(ctx, marker)
        for effect in ctx.rules.effects_of(ctx.rules.unit_type(marker.type)):
            if not isinstance(effect, ModifyRoll) or effect.what != what:
                continue
            if side not in sides_for(ctx, effect.role, Target(Where.STANDING, decl, marker.side, decl.display)):
                continue
            if not holds(ctx, effect_condition(effect), Scope(marker.side, cell, marker)):
                continue
            flag = with_arg(USED_ROLL, f"{what} roll")
            if effect.once:
                if flag in marker.turn_flags:
                    continue
                if use:
                    ctx.update_unit(evolve(marker, turn_flags=marker.turn_flags | {flag}))
            total += effect.modifier
            why.append(f"{effect.modifier:+d} {decl.display}")
    for s, name, amount in ctx.state.turn_modifiers:
        if s == side and name == f"roll:{what}":
            total += amount
            why.append(f"{amount:+d} this turn")
    return total, why


def _reveal_in_cell(ctx: Context, cell: str) -> Flow:
    """Turn every counter in the cell face up, then units there meet ``revealed`` (units that go
    when revealed leave)."""
    for counter in sorted(ctx.state.units_at(cell), key=lambda u: u.id):
        if counter.hidden:
            ctx.update_unit(evolve(counter, hidden=False))
            ctx.say(f"{counter.id} is revealed: {ctx.label(evolve(counter, hidden=False))}", kind="reveal",
                    unit=counter.id, unit_type=counter.type, cell=cell)
    units = [u for u in sorted(ctx.state.units_at(cell), key=lambda u: u.id) if _is_unit(ctx, u)
             and any(e.moment == "revealed" for e in ctx.rules.effects_of(ctx.rules.unit_type(u.type)))]
    if units:
        yield from event_effects.revealed(ctx, units)


# --- recon ---------------------------------------------------------------------------------------


def _battle_combat(ctx: Context, prop: Property) -> Declaration | None:
    name = prop.get("combat")
    if name is not None:
        return ctx.rulebook.get("combat", str(name))
    return next((c for c in ctx.rulebook.of_kind("combat") if c.has("first")), None)


def _prints(ctx: Context, unit: Unit, factor: str | None) -> bool:
    """Whether the counter's own declaration prints the factor (a marker with a recon value)."""
    decl = _decl(ctx, unit)
    return factor is not None and decl is not None and decl.has(f"factor:{factor}")


def recon_candidates(ctx: Context, side: str, factor: str | None) -> list[Unit]:
    """The side's units in the battle it may pick to roll recon with (and markers printing ``factor``)."""
    return [u for u in fighting_counters(ctx, side) if _is_unit(ctx, u) or _prints(ctx, u, factor)]


def _terrain_recon(ctx: Context, cell: str, role: str) -> tuple[int, str | None]:
    decl = ctx.rulebook.get("terrain", ctx.board.terrain(cell))
    line = decl.first("recon") if decl is not None else None
    if line is None or line.get("modifier") is None or str(line.get("role")) != role:
        return 0, None
    return line.get("modifier"), f"{line.get('modifier'):+d} {decl.display}"


def _ties_to(combat: Declaration | None, attacker: str, defender: str) -> str:
    line = combat.first("first") if combat is not None else None
    if line is not None and line.has("ties") and line.has("attacker"):
        return attacker
    return defender


@procedure("recon")
def recon(ctx: Context, prop: Property) -> Flow:
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
        ctx.say(f"a strike by support markers alone: no recon; {_shown(ctx, attacker)} fires first",
                kind="combat", cell=cell)
        return
    yield from _reveal_in_cell(ctx, cell)
    if not battle_on(ctx):
        yield from battle_over(ctx)
        return
    defender = defenders_of(ctx)[0]
    factor = str(prop.get("factor")) if prop.get("factor") is not None else None
    combat = _battle_combat(ctx, prop)
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
            ctx.say(f"{_shown(ctx, side)} rolls recon with {ctx.label(unit)}", kind="recon", side=side,
                    unit=unit.id)
    totals: dict[str, int] = {}
    for side, role in ((attacker, "attacker"), (defender, "defender")):
        unit = picked[side]
        parts: list[str] = []
        value = ctx.roll(str(prop.get("dice")), f"recon for {_shown(ctx, side)} in {cell}")
        total = value
        printed = fire.unit_factor(ctx, unit, factor) if unit is not None else None
        if printed:
            total += int(printed)
            parts.append(f"{int(printed):+d} {ctx.label(unit)}")
        terrain, why = _terrain_recon(ctx, cell, role)
        if why:
            total += terrain
            parts.append(why)
        modifier, reasons = roll_modifier(ctx, side, "recon", cell)
        total += modifier
        parts += reasons
        totals[side] = total
        ctx.say(f"{_shown(ctx, side)} recon: rolled {value}{''.join(f', {p}' for p in parts)} = {total}", kind="recon",
                side=side, roll=value, total=total)
    if totals[attacker] != totals[defender]:
        bounce = attacker if totals[attacker] > totals[defender] else defender
    else:
        bounce = _ties_to(combat, attacker, defender)
    other = defender if bounce == attacker else attacker
    operation.bounce = bounce
    section = cite(combat, combat.first("first")) if combat is not None and combat.first("first") else ""
    ctx.say(f"{_shown(ctx, bounce)} has the bounce ({totals[attacker]} against {totals[defender]}"
            f"{', a tie' if totals[attacker] == totals[defender] else ''}{f'; {section}' if section else ''})",
            kind="recon", side=bounce)
    mine = [u for u in _here(ctx) if u.side == bounce]
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
        ctx.say(f"{_shown(ctx, bounce)} fires first", kind="recon", side=bounce)
        return
    ctx.say(f"{_shown(ctx, bounce)} breaks off", kind="recon", side=bounce)
    yield from retreats.break_off(ctx, combat, bounce, mine, forced=False, reason=f"the bounce in {cell}")
    operation.first_fire = other
    if not battle_on(ctx):
        yield from battle_over(ctx)
    else:
        ctx.say(f"{_shown(ctx, other)} fires first at the units that stayed", kind="recon", side=other)


# --- support ------------------------------------------------------------------------------------


def _support_box(ctx: Context, marker: Unit) -> str | None:
    decl = _decl(ctx, marker)
    line = next((p for p in decl.all("support") if p.get("box") is not None), None) if decl is not None else None
    return str(line.get("box")) if line is not None else None


def support_problem(ctx: Context, marker: Unit, cell: str, units_fight=None) -> str | None:
    """Why ``marker`` may not be committed into ``cell`` now, or ``None``.

    ``units_fight(side)``: whether a unit of that side fights in the battle (by default, as the
    battle stands; a strike being designated passes its own answer).
    """
    units_fight = units_fight or (lambda s: side_in_battle_units(ctx, s))
    decl = _decl(ctx, marker)
    box = _support_box(ctx, marker)
    if box is None:
        return f"{marker.id} is no support marker"
    if marker.location != box:
        return f"{marker.id} is not in the {box}"
    if COMMITTED in marker.turn_flags:
        return f"{marker.id} has been used this turn ({cite(decl, decl.first('support'))})"
    for line in decl.all("support"):
        if line.get("where"):
            wanted = tuple(sorted(str(w) for w in line.get("where")))
            if cell not in _support_cells(ctx, wanted, line.get("distance") or 0):
                return f"{decl.display} only goes into {' '.join(wanted)} ({cite(decl, line)})"
        friendly = any(u.side == marker.side and _is_unit(ctx, u) for u in ctx.state.units_at(cell))
        if line.has("friendly") and friendly:
            return f"{decl.display} never goes into a cell with friendly units ({cite(decl, line)})"
        if line.has("against"):
            if not any(units_fight(s) for s in ctx.player_order if s != marker.side):
                return f"{decl.display} is never played against markers alone ({cite(decl, line)})"
        elif line.has("alone") and not units_fight(marker.side):
            return f"{decl.display} never goes alone into a battle ({cite(decl, line)})"
    return None


def _support_cells(ctx: Context, wanted: tuple[str, ...], distance: int) -> frozenset[str]:
    """Cells ``support only into WANTED within DISTANCE`` allows, found once per rules and map."""
    cache = rules_cache(ctx.rules, ctx.board).setdefault("support_cells", {})
    key = (wanted, distance)
    if key not in cache:
        spots = [c for c in ctx.board.cells
                 if set(wanted) & ctx.rules.cell_selectors(ctx.board.terrain(c), ctx.board.tags(c))]
        cache[key] = frozenset(within(ctx.board, spots, distance))
    return cache[key]


def _price(ctx: Context, action: Declaration, marker: Unit) -> tuple[str, Fraction] | None:
    line = Rules.line_for([p for p in action.all("cost") if p.get("amount") is not None],
                          ctx.rules.unit_type(marker.type))
    return (str(line.get("resource")), Fraction(line.get("amount"))) if line is not None else None


@procedure("commit support")
def commit_support(ctx: Context, prop: Property) -> Flow:
    """Commit support markers to the battle, paying for each (module docstring)."""
    operation = ctx.operation
    if operation is None or not operation.fighting():
        return
    action = ctx.rulebook.get("action", str(prop.get("action"))) if prop.get("action") is not None else None
    owner = action.first("side") if action is not None else None
    if prop.has("each"):
        sides = [operation.side, *defenders_of(ctx)]
    else:
        sides = [ctx.acting or (str(owner.get("side")) if owner is not None else None)]
    kinds = frozenset(str(m) for m in prop.get("markers") or ())
    for side in sides:
        if side is None or not battle_on(ctx) or not side_in_battle(ctx, side):
            continue
        # A strike's one price covers every marker committed to it.
        paying = None if operation.mode == "strike" and side == operation.side else action
        yield from commit_markers(ctx, side, operation.cell, paying, kinds)


def commit_markers(ctx: Context, side: str, cell: str, action: Declaration | None,
                   kinds: frozenset[str] = frozenset(), *, units_fight=None, must: bool = False) -> Flow:
    """Offer ``side``'s support markers (of ``kinds``, or any) for ``cell`` one at a time until it is
    ``done``, paying ``action``'s price for each (nothing when ``None``); ``must``: at least one."""
    operation = ctx.operation
    ask = (f"{action.display}: commit support to the battle in {cell}?" if action is not None
           else f"commit support to the battle in {cell} (at no cost)?")
    while True:
        ready: dict[str, Unit] = {}
        for marker in sorted(ctx.state.units, key=lambda u: u.id):
            if (marker.side != side or marker.type in ready or (kinds and marker.type not in kinds)
                    or support_problem(ctx, marker, cell, units_fight) is not None):
                continue
            price = _price(ctx, action, marker) if action is not None else None
            if price is not None and ctx.state.resource(side, price[0]) < price[1]:
                continue
            ready[marker.type] = marker
        if not ready:
            return
        options = [Action("commit", (m.id,)) for m in ready.values()]
        if not must:
            options.insert(0, Action("done"))
        choice = yield from ctx.choose(side, "support", ask, options,
                                       lambda a: _why_not_commit(ctx, a, cell, units_fight))
        if choice.kind == "done":
            return
        must = False
        marker = ctx.state.unit(choice.args[0])
        price = _price(ctx, action, marker) if action is not None else None
        if price is not None and price[1]:
            gain(ctx, side, price[0], -price[1], f"{action.display}: {marker.id}")
        ctx.update_unit(evolve(marker, location=cell, hidden=False, turn_flags=marker.turn_flags | {COMMITTED}))
        operation.support.append(marker.id)
        ctx.say(f"{ctx.label(marker)} is committed to the battle in {cell}", kind="support", unit=marker.id,
                cell=cell, side=side)


# --- strikes: support markers attacking alone -----------------------------------------------------


def _strike_fights(side: str):
    """Who fights with units in a strike by ``side``: every side but the striker."""
    return lambda s: s != side


def _strikers(action: Declaration) -> frozenset[str]:
    """The marker types a ``strike with MARKER…`` action strikes with."""
    return frozenset(str(m) for m in action.first("strike").get("markers") or ())


def _ready_strikers(ctx: Context, action: Declaration, side: str) -> list[tuple[Unit, tuple[str, Fraction]]]:
    """One marker of each type ``action`` strikes with that ``side`` has ready in its box and can pay
    for, with its price: whether it may go into a cell is then a question about the type alone."""
    kinds, ready = _strikers(action), {}
    for marker in ctx.state.units:
        if marker.side != side or marker.type not in kinds or marker.type in ready:
            continue
        if COMMITTED in marker.turn_flags or marker.location != _support_box(ctx, marker):
            continue
        price = _price(ctx, action, marker)
        if price is not None and ctx.state.resource(side, price[0]) >= price[1]:
            ready[marker.type] = (marker, price)
    return list(ready.values())


def strike_price(ctx: Context, action: Declaration, side: str, cell: str,
                 ready: list | None = None) -> tuple[str, Fraction] | None:
    """What a strike on ``cell`` costs ``side`` under ``action`` (its line for the cheapest marker
    that could strike there), or ``None`` when no marker could or the side cannot pay."""
    ready = _ready_strikers(ctx, action, side) if ready is None else ready
    prices = [price for marker, price in ready
              if support_problem(ctx, marker, cell, _strike_fights(side)) is None]
    return min(prices, key=lambda price: price[1]) if prices else None


def strike_cells(ctx: Context, actions: list[Declaration], side: str) -> list[str]:
    """Cells holding enemy counters that ``side`` could strike with support markers alone."""
    ready = [(a, r) for a in actions if a.has("strike") and (r := _ready_strikers(ctx, a, side))]
    if not ready:
        return []
    cells = sorted({u.location for u in ctx.state.units if u.side != side and u.on_map})
    return [c for c in cells if any(strike_price(ctx, a, side, c, r) is not None for a, r in ready)]


def strike(ctx: Context, actions: list[Declaration], side: str, cell: str) -> Flow:
    """Designate a strike on ``cell``: pay the cheapest ``strike with MARKER…`` action once, then
    commit at least one of those markers; the battle that follows rolls no recon (``recon``) and
    ends after one round of fire (``resolve fire``)."""
    priced = [(p, a) for a in actions if a.has("strike") and (p := strike_price(ctx, a, side, cell)) is not None]
    (resource, amount), action = min(priced, key=lambda pa: pa[0][1])
    operation = ctx.operation
    operation.mode, operation.cell = "strike", cell
    line = action.first("strike")
    if amount:
        gain(ctx, side, resource, -amount, f"{action.display}: strike on {cell}")
    ctx.say(f"{_shown(ctx, side)} strikes {cell} with support markers alone ({cite(action, line)})",
            kind="operation", side=side, cell=cell)
    yield from commit_markers(ctx, side, cell, None, _strikers(action), units_fight=_strike_fights(side), must=True)
    if not battle_on(ctx):  # face-down markers alone: nothing there fights
        ctx.say(f"the strike on {cell} finds no enemy unit", kind="combat", cell=cell)
        yield from battle_over(ctx)


def _why_not_commit(ctx: Context, action: Action, cell: str, units_fight=None) -> str | None:
    if action.kind != "commit" or not action.args:
        return None
    try:
        marker = ctx.state.unit(action.args[0])
    except KeyError:
        return f"there is no counter {action.args[0]!r}"
    return support_problem(ctx, marker, cell, units_fight)


# --- fire ----------------------------------------------------------------------------------------


def _first_refit(ctx: Context, combat: Declaration) -> dict[str, str]:
    line = combat.first("recon")
    if line is None:
        return {}
    out = {}
    for side, unit_id in ctx.operation.recon_units.items():
        unit = ctx.state.unit(unit_id)
        if line.get("who") and Rules.unit_matches(ctx.rules.unit_type(unit.type), line.get("who")):
            continue
        out[side] = unit_id
    return out


def firepower(ctx: Context, combat: Declaration, units: list[Unit]) -> Fraction:
    """The total a side fires with: its firing units' attack factor."""
    factor = fire.factor_name(combat, "attack")
    return sum((fire.unit_factor(ctx, u, factor) or Fraction(0) for u in units), Fraction(0))


@procedure("resolve fire")
def resolve_fire(ctx: Context, prop: Property) -> Flow:
    """The fire sub-phase of one round: first fire, losses, then the other side's fire (module docstring)."""
    operation = ctx.operation
    if operation is None or not operation.fighting():
        return
    if not battle_on(ctx):
        yield from battle_over(ctx)
        return
    combat = ctx.rulebook.get("combat", str(prop.get("combat")))
    fire_is = combat.first("fire")
    if fire_is is not None and fire_is.has("simultaneous"):
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
        targets = [u for u in _here(ctx) if u.side != side and not u.dummy]
        total = firepower(ctx, combat, firers)
        if total <= 0:
            ctx.say(f"{_shown(ctx, side)} has no firepower in {cell} and does not fire", kind="combat", side=side,
                    cell=cell)
            continue
        modifier, reasons = roll_modifier(ctx, side, "fire", cell)
        note = f" (roll {', '.join(reasons)})" if reasons else ""
        ctx.say(f"{_shown(ctx, side)} fires in {cell} with {', '.join(ctx.label(u) for u in firers)}: "
                f"firepower {total}{note}",
                kind="attack", side=side, cell=cell, units=[u.id for u in firers])
        yield from resolve(ctx, combat.name, firers, targets, reason=f"{_shown(ctx, side)} fire in {cell}",
                                attacker_side=side, roll_modifier=modifier, battle=battle)
        yield from event_effects.fired(ctx, side, cell)
    yield from event_effects.round_ended(ctx, cell, first=operation.round <= 1)
    if not battle_on(ctx) or operation.mode == "strike":
        yield from battle_over(ctx)  # a strike is one round of fire
