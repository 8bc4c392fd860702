"""The combat procedures: ``do fight COMBAT``, ``do bombard with COMBAT`` and ``do trigger MARKER…``.

Each decides who attacks what and hands the fight to ``interpreter.results.resolve``; who may
take part, the cells each may attack and the ranking are ``interpreter.procedures.attack_choice``'s.

``fight`` (an assault on adjacent hexes, or on the own cell when the combat is
not ``adjacent``) runs in rounds.  In each round the unit that may still attack
and ranks first under the combat's ``order by F descending|ascending`` leads:
its side chooses one of

- ``attack CELL with ID…``: every one of the side's units that may still attack
  and can reach CELL (the leader among them), so a stack adds up its factors;
- ``attack CELL with ID``: a leading unit alone;
- ``pass ID``: a leading unit gives up its attack this phase;
- ``done``: the side makes no more attacks this phase.

Several units rank equal when they share the value; between sides, player order
breaks the tie (the source gives no order for equal motivation).  Each unit
attacks at most once (``attacked`` in its phase flags); a cell may be attacked
again by other units (the source limits attackers, not targets).  Only single
units and the whole eligible group are offered, which keeps the choice small;
any other subset is not an option.  A combat's model lines change this
(``attack_choice.attack_options``): ``any combination of attackers``, ``each
defender attacked once per phase`` (``defended`` in the defenders' phase flags),
``minimum odds``, ``mandatory attack …`` (no pass or ``done`` while an attack is
owed), and ``attacks declared before any is resolved`` (a side's attacks are
recorded as chosen and fought, in that order, when it is done).

Who takes part: a unit may attack if it is real, on the map, has the combat's
attack factor above 0, has a value for the combat's defence factor when the
combat declares one (units printed ``defend none`` — aircraft — are no ground
combatants), is in no mode or status that ``forbids attack``, and has a target.  Targets
are enemy counters that have the defence factor, or are dummies; hidden counters
may be attacked when a ``spotting`` rule says ``unspotted may be attacked`` (or
the rulebook has no spotting rule).  Every attacking unit being in one mode with
a ``roll modifier`` (WATCH's -1) modifies the roll.

A combat that says ``recycle until one side remains`` fights each attack (and each
bombardment) round after round until one side has left the fight (``fight_rounds``); one that says
``advance after combat`` then offers the attackers the hex emptied (``interpreter.advance``).

``bombard``: each side in player order bombards until it is done.  A unit with
the combat's ``range factor`` reaches enemy cells up to that many hexes away; a
unit without one whose movement class has ``unlimited distance`` (helicopters and
aircraft) reaches any cell on the map, as it flies to its target.  Unlike an
assault, a bombarding unit needs no defence factor (aircraft print none).  Every unit
reaching a cell may join (``bombard CELL with ID…``: "the combined
bombardment"), or one alone; with the combat's ``any combination of attackers``, every group of
them (``attack_choice.every_group``).  Each unit bombards once a phase (``bombarded`` in
its phase flags); an air unit also gets ``bombarded`` and ``bombarded:CELL`` in
its turn flags, for fire against aircraft.  It is not moved: the flag names its
bombardment hex.  With ``held for fire at aircraft`` the bombardment of units that fly to
their target is only declared here (``held:COMBAT:CELL`` in their turn flags): the turn's
next ``do fire at aircraft`` makes it after its fire, with the units still holding it
(``interpreter.procedures.missions``); an ``abandon mission`` result takes it away, and one
still held when the turn ends is not made.

``trigger``: for each marker of the named types on the map, the enemy counters (of the
effect's role and selectors) in its cell that stopped there this phase (``trap`` in their phase flags, set by
movement) are attacked by each of the marker's ``attack`` effects
(``attack opponent at 2:1 ignoring terrain``), using the first combat that
compares odds (or totals, for ``attack … with N``).  The marker is revealed and
stays; it is no attacking unit, so results against attackers fall on nobody.
Other marker effects (``stop`` …) belong to other procedures.  Effects with a
``when`` condition whose moment is ``SIDE force enters`` or ``revealed`` (sensors,
hidden markers) are carried out during an operation by
``interpreter.event_effects.trigger_moments``: markers in the cells the
force entered, then markers face up in the contested cell.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from attrs import evolve, frozen

from ...dsl.effects import Attack, Where
from ...dsl.compiled.combat import CombatRule, RangeFire
from ...dsl.compiled.calls import Bombard, Fight, Trigger
from ...dsl.model import Declaration
from ...dsl.values import Dice
from ..actions import Action
from ..advance import advance_after_combat
from ..citations import because
from ..combat import current_units, mode_roll_modifier, reveal_all, unit_factor
from ..condition_lines import effect_condition
from ..conditions import Scope, holds
from ..context import Context, Flow, sides_in_turn
from ..effects import Target, carries_out, reads, sides_for
from ..event_effects import trigger_moments
from ..flags import ATTACKED, BOMBARDED, DEFENDED, HELD, TRAP, with_arg
from ..line_of_fire import cells_in_range
from . import procedure
from .range_support import split_support
from .several_hexes import attacked_cells
from .attack_choice import Readiness, attack_options, every_group, ranking, why_not_attack
from .attack_facts import attack_cells, combat_factor, may_attack_hidden, may_fire, targets_in, type_facts
from ..results import resolve
from ..rules import Rules
from ..side_states import forbids_attack
from ..state import Unit, replace, unit_with_spent

__all__ = ["attack_cells", "bombard", "bombardment", "fight", "fight_rounds", "may_attack_hidden", "targets_in",
           "trigger"]


def _flag(ctx: Context, ids: Iterable[str], flag: str, turn: bool = False) -> None:
    """Add ``flag`` to the units' phase flags (``turn``: their turn flags), in one state change."""
    state = ctx.state
    units = [state.unit(unit_id) for unit_id in ids]
    if turn:
        ctx.state = state.with_units([replace(u, turn_flags=u.turn_flags | {flag}) for u in units])
    else:
        ctx.state = state.with_units([unit_with_spent(u, u.spent | {flag}) for u in units])


def _sides(ctx: Context) -> list[str]:
    """The sides that attack now: the acting side (else every side, in player order), less a side
    in a state that forbids its attacks (``side_states``)."""
    sides = [ctx.acting] if ctx.acting else list(ctx.player_order)
    if ctx.state.side_states:
        sides = [s for s in sides if not forbids_attack(ctx, s)]
    return sides


# --- fight ---------------------------------------------------------------------------------------


@procedure("fight")
def fight(ctx: Context, call: Fight) -> Flow:
    """Assaults in order of the combat's ``order by`` factor, each unit at most once (module docstring)."""
    combat = ctx.rules.combats[call.combat]
    sides = _sides(ctx)
    finished: set[str] = set()
    rank = ranking(ctx, combat)
    readiness = Readiness(ctx, combat, sides)
    declared: dict[str, list[_Declared]] = {}  # (``attacks declared before any is resolved``)
    while True:
        ready = readiness.ready(finished)
        if not ready:
            for side in sides:
                yield from _resolve_declared(ctx, combat, side, declared.pop(side, []))
            return
        first = min((rank(u), sides.index(u.side)) for u, _ in ready.values())
        side = sides[first[1]]
        leaders = [u for u, _ in ready.values() if u.side == side and rank(u) == first[0]]
        mine = {uid: cells for uid, (u, cells) in ready.items() if u.side == side}
        options, must = attack_options(ctx, combat, side, leaders, mine)
        action = yield from ctx.choose(
            side, "attack", f"{combat.label}: {', '.join(u.id for u in leaders)} may attack now"
            + (f" ({', '.join(must)} must still attack or be attacked)" if must else ""),
            options, lambda a, side=side, leaders=leaders: why_not_attack(ctx, combat, side, a, leaders))
        if action.kind == "done":
            finished.add(side)
            ctx.say(f"{side} makes no more attacks", kind="combat", side=side)
            yield from _resolve_declared(ctx, combat, side, declared.pop(side, []))
            continue
        if action.kind == "pass":
            _flag(ctx, action.args, ATTACKED)
            ctx.say(f"{ctx.label(ctx.state.unit(action.args[0]))} does not attack", kind="combat",
                    unit=action.args[0])
            continue
        cells, ids = attacked_cells(action)
        cell, also = cells[0], cells[1:]  # (``also``: the other hexes of one attack on several hexes)
        _flag(ctx, ids, ATTACKED)
        attackers, support = split_support(ctx, combat, cells, [ctx.state.unit(i) for i in ids])
        defenders = [u for c in cells for u in targets_in(ctx, combat, c, side)]
        if combat.model.defenders_once or combat.model.on_adjacent:
            _flag(ctx, [u.id for u in defenders], DEFENDED)
            defenders = [ctx.state.unit(u.id) for u in defenders]
        if combat.model.declared:
            declared.setdefault(side, []).append(_Declared(cell, {u.id: u.location for u in attackers},
                                                           tuple(u.id for u in defenders),
                                                           {u.id: u.location for u in support}, also))
            ctx.say(f"{', '.join(ctx.label(u) for u in attackers)} will attack {_hexes(cells)}"
                    f"{_supported(ctx, support)}", kind="combat", cell=cell, units=list(ids), side=side)
            continue
        yield from _attack_on(ctx, combat, side, cell, attackers, defenders, support, also)


def _hexes(cells: Iterable[str]) -> str:
    """``0202``, or ``0202 and 0203`` for one attack on several hexes."""
    return " and ".join(cells)


def _supported(ctx: Context, support: list[Unit]) -> str:
    """The log's words for the units supporting an attack from range (none: nothing)."""
    return f", supported by {', '.join(ctx.label(u) for u in support)}" if support else ""


def _attack_on(ctx: Context, combat: CombatRule, side: str, cell: str, attackers: list[Unit],
               defenders: list[Unit], support: list[Unit] = (), also: tuple[str, ...] = ()) -> Flow:
    """One attack of ``fight``: its rounds, then the advance after combat (into each hex attacked,
    in turn, for an attack on several)."""
    where = _hexes((cell, *also))
    ctx.say(f"{', '.join(ctx.label(u) for u in attackers)} attack {where}{_supported(ctx, support)}", kind="attack",
            cell=cell, units=[u.id for u in (*attackers, *support)], side=side)
    places = {u.id: u.location for u in attackers}
    retreated = yield from fight_rounds(ctx, combat, attackers, defenders, cell, reason=f"attack on {where}",
                                        side=side, support=support, also=also)
    if combat.advance is not None:
        for hex_ in (cell, *also):
            yield from advance_after_combat(ctx, combat, side, places, hex_, retreated)


@frozen
class _Declared:
    """An attack declared and not yet resolved: the hex, where each attacker declared it from, and
    the units attacked."""

    cell: str
    places: dict[str, str]
    defenders: tuple[str, ...]
    support: dict[str, str]
    """Where each unit supporting the attack from range declared it from."""
    also: tuple[str, ...] = ()
    """The other hexes of one attack on several hexes."""


def _resolve_declared(ctx: Context, combat: CombatRule, side: str, attacks: list[_Declared]) -> Flow:
    """The side's declared attacks, resolved in the order declared: each by its units still where
    they declared it from (an earlier attack's results or advance may have moved them) against
    the units attacked still in the hex; with either side gone, it is not made."""
    if attacks:
        said = "its declared attack is" if len(attacks) == 1 else f"its {len(attacks)} declared attacks are"
        ctx.say(f"{combat.label}: {side} has declared every attack; {said} resolved", kind="combat", side=side)
    for attack in attacks:
        attackers = [u for u in (ctx.state.unit(i) for i in attack.places) if u.location == attack.places[u.id]]
        defenders = [u for u in (ctx.state.unit(i) for i in attack.defenders)
                     if u.location == attack.cell or u.location in attack.also]
        if not attackers or not defenders:
            ctx.say(f"the attack on {_hexes((attack.cell, *attack.also))} is not made: no "
                    f"{'attacker' if not attackers else 'defender'} "
                    "is left in place", kind="combat", cell=attack.cell, side=side)
            continue
        support = [u for u in (ctx.state.unit(i) for i in attack.support) if u.location == attack.support[u.id]]
        yield from _attack_on(ctx, combat, side, attack.cell, attackers, defenders, support, attack.also)


DONE = Action("done")


MAX_ROUNDS = 100
"""A recycling fight is fought at most this many rounds: a table whose results can leave both
sides standing round after round must still end (reaching it is logged)."""


def fight_rounds(ctx: Context, combat: CombatRule, attackers: list[Unit], defenders: list[Unit], cell: str, *,
                 reason: str, side: str, support: Iterable[Unit] = (), also: tuple[str, ...] = ()) -> Flow:
    """One attack on ``cell``: a round of the combat, and with its ``recycle until one side
    remains`` another while both sides remain, an attacking unit still where it attacked from
    and a unit attacked still in the cell (one eliminated, retreated, broken off or put in a box
    has left the fight).  Each round rolls anew, with the modifier of the attackers left (their
    mode's).  An attack by a counter's effect (``trigger``) has no attacking unit: one round.
    ``support``: units adding their fire from range (``supporting fire from range``), unharmed;
    they fight every round, while one of ``attackers`` does.  ``also``: the other hexes of one
    attack on several hexes (a defender in any of them is still in the fight).
    Returns every hex retreated, (unit, from, to) in order (for ``advance after combat``)."""
    places = {u.id: u.location for u in attackers}
    retreated: list[tuple[str, str, str]] = []
    defenders = _unmasked(ctx, combat, defenders, cell, reason)
    if not defenders:
        return retreated
    targets = [u.id for u in defenders]
    for round_ in range(1, MAX_ROUNDS + 1):
        if round_ > 1:
            ctx.say(because(f"{combat.label}: both sides remain in the fight for {cell}, round {round_}",
                            combat.decl, combat.recycle), kind="combat", cell=cell, round=round_)
        outcome = yield from resolve(ctx, combat.name, attackers, defenders, reason=reason, attacker_side=side,
                                     roll_modifier=mode_roll_modifier(ctx, attackers, combat.table), support=support)
        retreated += outcome.retreated
        if combat.recycle is None:
            return retreated
        attackers = [u for u in (ctx.state.unit(i) for i in places) if u.location == places[u.id]]
        defenders = [u for u in (ctx.state.unit(i) for i in targets) if u.location == cell or u.location in also]
        if not attackers or not defenders:
            return retreated
    ctx.say(f"{combat.label}: the fight for {cell} stopped after {MAX_ROUNDS} rounds with both sides left",
            kind="combat", cell=cell)
    return retreated



def _unmasked(ctx: Context, combat: CombatRule, defenders: list[Unit], cell: str, reason: str) -> list[Unit]:
    """The defenders an attack fights, once the face-down ones are turned up: a face-down counter
    may be attacked whatever it is (``attack_facts.fought``); one that turns out to be neither a
    dummy nor a unit this combat fights (a trap, an aircraft printed ``defend none``) is revealed
    and stays where it is, out of the fight.  When nothing is left, nothing is rolled."""
    kept, found = [], []
    for unit in defenders:
        unit = ctx.state.unit(unit.id)
        (kept if unit.dummy or type_facts(ctx, combat, unit)[0] else found).append(unit)
    if found:
        reveal_all(ctx, found)
        ctx.say(f"{reason}: {', '.join(ctx.label(u) for u in current_units(ctx, found))} "
                f"{'is' if len(found) == 1 else 'are'} no unit to fight"
                + ("" if kept else "; nothing is rolled"), kind="combat", cell=cell)
    return kept


# --- bombard ---------------------------------------------------------------------------------------


def _enemy_held(ctx: Context, side: str) -> set[str]:
    """The map cells holding a counter of a side other than ``side``, from the state's index of
    the units on the map by side: read once for a bombardment decision, not once for each unit."""
    return {u.location for other, units in ctx.state.units_on_map().items() if other != side for u in units}


def _reach(ctx: Context, combat: CombatRule, unit: Unit, occupied: set[str]) -> tuple[list[str], bool]:
    """(enemy cells the unit may bombard, whether it flies there); ``occupied``: ``_enemy_held``
    for the unit's side."""
    if not may_fire(ctx, combat, unit, BOMBARDED, ground=False):
        return [], False
    reach = unit_factor(ctx, unit, combat_factor(combat, "range"))
    flies = False
    if reach is not None and combat.range_fire != RangeFire():  # `fires at least N hexes away`, `line of fire blocked by`
        fire = combat.range_fire
        cells = cells_in_range(ctx, unit.location, int(reach), fire.minimum, fire.blocked_by, occupied)
        return [c for c in cells if targets_in(ctx, combat, c, unit.side)], False
    if reach is not None:
        cells = [c for c in ctx.board.within(unit.location, int(reach)) if c != unit.location]
    else:
        unit_type = ctx.rules.unit_type(unit.type)
        movement = ctx.rules.movement_of(unit_type)
        if movement is None or not movement.unlimited_distance:
            return [], False
        cells, flies = list(ctx.board.cells), True
    # Only cells holding an enemy counter can hold a target: look there, not at every cell.
    return sorted(c for c in cells if c in occupied and targets_in(ctx, combat, c, unit.side)), flies


@procedure("bombard")
def bombard(ctx: Context, call: Bombard) -> Flow:
    """Combined bombardment of enemy cells in range, each unit once (module docstring)."""
    combat = ctx.rules.combats[call.combat]
    for at, side in sides_in_turn(ctx, "bombard", _sides(ctx)):
        while True:
            reach = {}
            occupied = _enemy_held(ctx, side)
            for unit in ctx.state.units_of(side):
                cells, flies = _reach(ctx, combat, unit, occupied)
                if cells:
                    reach[unit.id] = (cells, flies)
            targets = sorted({c for cells, _ in reach.values() for c in cells})
            if not targets:
                break
            options = [Action("done")]
            for cell in targets:
                group = sorted(uid for uid, (cells, _) in reach.items() if cell in cells)
                if combat.model.any_combination:
                    options.extend(Action("bombard", (cell, "with", *g)) for g in every_group(group))
                    continue
                options.append(Action("bombard", (cell, "with", *group)))
                if len(group) > 1:
                    options.extend(Action("bombard", (cell, "with", uid)) for uid in group)
            # Resumable: who has bombarded is flagged on the units (``_reach`` leaves them out), so
            # this procedure started again at this side (``at``) offers the same targets.
            action = yield from ctx.choose(side, "bombard", f"{combat.label}: choose a hex to bombard", options,
                                           resume=True, progress=at)
            if action.kind == "done":
                break
            cell, ids = action.args[0], action.args[2:]
            _flag(ctx, ids, BOMBARDED)
            for uid in ids:
                if reach[uid][1]:
                    _flag(ctx, [uid], BOMBARDED, turn=True)
                    _flag(ctx, [uid], f"{BOMBARDED}:{cell}", turn=True)
            held = [uid for uid in ids if call.held and reach[uid][1]]
            if held:
                _flag(ctx, held, with_arg(HELD, f"{combat.name}:{cell}"), turn=True)
                ctx.say(f"{', '.join(ctx.label(ctx.state.unit(i)) for i in held)} fly to bombard {cell}: the "
                        "bombardment is made after the fire against aircraft", kind="attack", cell=cell,
                        units=held, side=side, held=True)
            attackers = [ctx.state.unit(i) for i in ids if i not in held]
            if attackers:
                yield from bombardment(ctx, combat, side, cell, attackers)


def bombardment(ctx: Context, combat: CombatRule, side: str, cell: str, attackers: list[Unit]) -> Flow:
    """``attackers`` of ``side`` bombard ``cell``: narrated, then fought (``fight_rounds``)."""
    ctx.say(f"{', '.join(ctx.label(u) for u in attackers)} bombard {cell}", kind="attack", cell=cell,
            units=[u.id for u in attackers], side=side)
    yield from fight_rounds(ctx, combat, attackers, targets_in(ctx, combat, cell, side), cell,
                            reason=f"bombardment of {cell}", side=side)


# --- trigger ---------------------------------------------------------------------------------------


def combat_for(ctx: Context, effect: Attack) -> CombatRule:
    """The ``combat`` an attack effect is resolved by: the one comparing odds for an effect with
    ``odds``, else the one comparing totals; the first combat when none compares that way."""
    wanted = "odds" if effect.odds is not None else "total"
    combats = list(ctx.rules.combats.values())
    return next((c for c in combats if c.compare == wanted), combats[0])


def _attacked_by(ctx: Context, effect: Attack, target: Target, units, *, real_units: bool = True) -> list[Unit]:
    """The counters among ``units`` of the sides the effect's role names and of its selectors
    (``real_units``: units alone, no dummies or markers)."""
    sides = sides_for(ctx, effect.role, target)
    return [u for u in units if u.side in sides
            and (not real_units or (not u.dummy and ctx.rules.unit_type(u.type).kind == "unit"))
            and (not effect.what or Rules.unit_matches(ctx.rules.unit_type(u.type), effect.what))]


def _attack(ctx: Context, effect: Attack, marker: Unit, victims: list[Unit], reason: str) -> Flow:
    combat = combat_for(ctx, effect)
    yield from resolve(ctx, combat.name, (), victims, reason=reason, attacker_side=marker.side,
                       fixed_odds=effect.odds, ignore_terrain=effect.ignoring_terrain, strength=effect.strength)


@carries_out(Attack, Where.MOMENT)
def attack_at_moment(ctx: Context, effect: Attack, target: Target) -> Flow:
    """A counter's ``attack … when MOMENT``: it attacks the role's units of the selectors in its cell
    (with ``losses to lowest FACTOR``, the unit with the lowest factor alone, ties at random)."""
    scope, decl = target.scope, target.decl
    if scope.unit is None or scope.cell is None:
        return
    targets = _attacked_by(ctx, effect, target, ctx.state.units_at(scope.cell))
    if not targets:
        ctx.say(f"{decl.display} in {scope.cell}: no unit to attack", kind="effect", effect="attack")
        return
    if effect.lowest is not None:
        targets = [_lowest(ctx, targets, effect.lowest, decl)]
    marker = ctx.state.unit(scope.unit.id)
    ctx.say(f"{decl.display} in {scope.cell} attacks {', '.join(ctx.label(u) for u in targets)}", kind="attack",
            cell=scope.cell, units=[u.id for u in targets], marker=marker.id)
    yield from _attack(ctx, effect, marker, targets, f"{decl.display} at {scope.cell}")


def _lowest(ctx: Context, units: list[Unit], factor: str, decl: Declaration) -> Unit:
    """The unit with the lowest printed factor; ties at random (one roll of a die with as many faces)."""
    def value(unit: Unit) -> Fraction:
        v = ctx.rules.factor(unit, factor)
        return v if isinstance(v, Fraction) else Fraction(0)

    low = min(value(u) for u in units)
    tied = sorted((u for u in units if value(u) == low), key=lambda u: u.id)
    if len(tied) == 1:
        return tied[0]
    pick = ctx.roll(Dice(1, len(tied)), f"{decl.display}: which of {', '.join(u.id for u in tied)} (lowest {factor} "
                                        f"{low}) takes the loss")
    return tied[pick - 1]


@procedure("trigger")
@reads(Attack)
def trigger(ctx: Context, call: Trigger) -> Flow:
    """Markers attack the enemy units stopped in their cell (module docstring)."""
    names = set(call.markers)
    markers = sorted((u for u in ctx.state.units if u.type in names and u.on_map), key=lambda u: (u.location, u.id))
    for marker in markers:
        decl = ctx.rulebook.get("marker", marker.type)
        cell = marker.location
        stopped = [u for u in ctx.state.units_at(cell) if u.side != marker.side and TRAP in u.spent]
        if not stopped:
            continue
        target = Target(Where.STANDING, decl, marker.side, decl.display, scope=Scope(marker.side, cell, marker))
        for effect in ctx.rules.effects(decl):
            if not isinstance(effect, Attack) or effect.moment is not None:
                continue
            if not holds(ctx, effect_condition(effect), target.scope):
                continue
            victims = [u for u in (ctx.state.unit(v.id) for v in stopped) if u.location == cell]
            victims = _attacked_by(ctx, effect, target, victims, real_units=False)
            if not victims:
                continue
            marker = ctx.state.unit(marker.id)
            if marker.hidden:
                ctx.update_unit(evolve(marker, hidden=False))
            ctx.say(f"{decl.display} at {cell} attacks {', '.join(ctx.label(u) for u in victims)}", kind="attack",
                    cell=cell, units=[u.id for u in victims], marker=marker.id)
            yield from _attack(ctx, effect, marker, victims, f"{decl.display} at {cell}")
        for unit in ctx.state.units_at(cell):  # (the state's index: in ``units`` order, as a pass over them)
            if TRAP in unit.spent and unit.side != marker.side:
                ctx.update_unit(evolve(unit, spent=unit.spent - {TRAP}))
    if ctx.operation is not None:
        yield from trigger_moments(ctx, names)
