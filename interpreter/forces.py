"""Forces: who may be in one, how it is carried, what it costs and where it may go.

A force is the units of one side that an operation (``designate force``, ``move force``:
``interpreter.procedures.operations``) moves together.  This module reads a candidate force
against the rules and the state; it asks no decisions.  Everything game-specific comes from
declarations:

- **Who may be in a force.**  Units of the acting side in the chosen cell that can move: not
  ``never moves``, and carried units (a class that ``needs transport``) only with carriers.
  Movers of more than one class must ``combine with`` each other (and then keep to the cells
  the ``combines with … only in`` line names); a class that ``joins any force`` may join any.
- **Carrying.**  A class that ``needs transport`` is ``transported by`` some classes and
  ``carried with CAPACITY against COST``: the carriers of one class in the force must have
  capacity factors summing to at least the carried units' cost factors (for each capacity
  factor, the costs of the carried units whose lines name it).  When the force has no
  other movers, carriers of a joining class (airmobile) may come from any cell to lift it.
  Whether a designation may add one more carried unit is ``interpreter.carrying``'s.
- **What it costs.**  The ``designate force paying …`` line names the actions; those of the
  acting side apply.  A force with a unit an action is ``led by`` pays that action's line for
  its cheapest leader; otherwise it pays a ``per unit`` action's line for every unit; otherwise
  an action with a flat price (a ``cost`` line without ``per unit``) once, at its first line whose
  ``for`` names a unit of the force, else its first line without ``for``.
  An action with ``between cells with …`` moves a single carried unit straight from one such
  cell to another at its ``cost … times N transport`` price (strategic redeployment).  A ``once
  per turn`` action is offered a side until it takes it, then not again that turn (``may_take``).
- **Where it may go.**  Every mover's reachable cells (``interpreter.movement.search``),
  intersected, where every carried unit may also be set down (into a battle too).  A force of
  one kind follows the canonical path of its first mover; a mixed force (several classes,
  joiners, carried units) the shortest path over cells every member may enter and steps every
  mover class may take (it moves together).
- **Raids.**  A cell only this turn's ``may enter … on turn N`` opens to the carried units is
  offered one step past where the force may end (``Force.raids``).

Limits (readings, noted in docs/scenarios.md and the README): a unit of a moving class is never
itself carried.  Dropping units off on the way is ``move force``'s (``interpreter.procedures.move_force``).
"""

from __future__ import annotations

from fractions import Fraction

from attrs import evolve

from ..dsl.compiled.actions import ActionRule
from ..dsl.compiled.movement import MovementClass
from . import movement
from .caches import map_memos, share
from .cells import cells_named
from .context import Context
from .costs import CostTable, cost_table, table_key
from .rules import Rules
from .situation import situation
from .state import Unit

# --- reading the rules -----------------------------------------------------------------------


def class_of(ctx: Context, unit: Unit) -> MovementClass | None:
    """The unit's movement class (``None`` when its type names none)."""
    return ctx.rules.movement_by_type[unit.type]


def is_carried(mclass: MovementClass | None) -> bool:
    """Whether units of the movement class move only when carried (``needs transport``)."""
    return mclass is not None and mclass.needs_transport


def joins_any_force(mclass: MovementClass | None) -> bool:
    """Whether units of the movement class may join any force (``joins any force``)."""
    return mclass is not None and mclass.joins_any_force


def _static(ctx: Context, unit: Unit) -> bool:
    return unit.type in ctx.rules.static_types


def is_movable(ctx: Context, unit: Unit) -> bool:
    """Whether the unit is on the map and of a type that may be in a force."""
    return unit.on_map and unit.type in ctx.rules.force_types


def _factor(rules: Rules, unit: Unit, name: str | None) -> int | Fraction:
    value = rules.factor(unit, name, 0) if name else 0
    return value if isinstance(value, (int, Fraction)) else 0


def transported_by(mclass: MovementClass | None) -> set[str]:
    """The movement classes a carried class is ``transported by``."""
    return set(mclass.transported_by) if mclass is not None else set()


def action_price(ctx: Context, action: ActionRule, selectors: frozenset[str] | None,
                 per_unit: bool | None = None) -> tuple[str, Fraction] | None:
    """(resource, amount) the action costs a unit with these selectors in the scenario's year
    (``ActionRule.price``; ``None`` selectors: a pick not known yet), or ``None`` when no line applies."""
    line = action.price(selectors, getattr(ctx.scenario, "year", None), per_unit)
    return (line.resource, line.amount) if line is not None else None


TAKEN = "taken:"
"""``GameState.turn_modifiers`` holds ``(side, "taken:ACTION", 1)`` once the side has taken a ``once
per turn`` action this game turn; it goes at the end of the turn, with the other turn modifiers."""


def may_take(ctx: Context, action: ActionRule, side: str) -> bool:
    """Whether ``side`` may take ``action`` now: the action's ``side`` allows it, and a ``once per
    turn`` action only if the side has not taken it yet this game turn."""
    if not action.taken_by(side):
        return False
    return not action.once_per_turn or (side, TAKEN + action.name, 1) not in ctx.state.turn_modifiers


def took(ctx: Context, action: ActionRule, side: str) -> None:
    """``side`` took ``action`` (paid its price): a ``once per turn`` action is not offered it again
    this turn (``may_take``)."""
    if action.once_per_turn and may_take(ctx, action, side):
        entry = (side, TAKEN + action.name, 1)
        ctx.state = evolve(ctx.state, turn_modifiers=tuple(sorted((*ctx.state.turn_modifiers, entry))))


# --- forces ----------------------------------------------------------------------------------


class Force:
    """A candidate force read against the rules: its movers, joiners, carried units and carriers."""

    def __init__(self, ctx: Context, units: list[Unit]):
        self.ctx = ctx
        self.units = units
        self.movers: list[Unit] = []
        """Units that move by their own class: neither carried nor joining."""
        self.joiners: list[Unit] = []
        self.cargo: list[Unit] = []
        by_type = ctx.rules.movement_by_type
        for unit in units:  # (each unit's class read once)
            mclass = by_type[unit.type]
            carried, joins = is_carried(mclass), joins_any_force(mclass)
            if joins:
                self.joiners.append(unit)
            if carried:
                self.cargo.append(unit)
            elif not joins:
                self.movers.append(unit)
        self.lifted: list[Unit] = []
        """Movers carried as another class (``carried as CLASS by …``, ``_lift``): part of ``cargo``."""
        self._lift()
        self._first = None
        self._paths: dict[str, str] | None = None
        self.raids: dict[str, str] = {}
        """Cells only the carried units may enter this turn, each with the cell the carriers stop in."""

    def _lift(self) -> None:
        """Movers whose type is ``carried as CLASS by CARRIERS…`` become cargo when they are all the
        force's movers, its joiners are all of CARRIERS, and those can lift them (with the rest of
        the cargo); otherwise they move by their own class."""
        if not self.movers or not self.joiners:
            return
        rules = self.ctx.rules
        types = [rules.unit_type(u.type) for u in self.movers]
        if any(t.carried_as is None for t in types):
            return
        if any(class_of(self.ctx, j).name not in t.carried_by for j in self.joiners for t in types):
            return
        movers, cargo = self.movers, self.cargo
        self.movers, self.cargo, self.lifted = [], [*cargo, *movers], list(movers)
        if self.overload() is not None:
            self.movers, self.cargo, self.lifted = movers, cargo, []

    def cargo_class(self, unit: Unit) -> MovementClass | None:
        """The class ``unit`` is carried as: a lifted mover's ``carried as`` class, else its own."""
        if unit in self.lifted:
            return self.ctx.rules.movement_classes.get(self.ctx.rules.unit_type(unit.type).carried_as)
        return class_of(self.ctx, unit)

    def carried_by(self, unit: Unit) -> set[str]:
        """The classes that may carry ``unit``: a lifted mover's ``by`` classes, else ``transported by``."""
        if unit in self.lifted:
            return set(self.ctx.rules.unit_type(unit.type).carried_by)
        return transported_by(class_of(self.ctx, unit))

    @property
    def liftable(self) -> bool:
        """Whether every mover may be carried as another class: airlifters may then come to lift them."""
        types = [self.ctx.rules.unit_type(u.type) for u in self.movers]
        return bool(types) and all(t.carried_as is not None for t in types)

    def carriers(self) -> list[Unit]:
        """The units that carry the cargo: the movers, or the joiners when there are no movers."""
        return self.movers or self.joiners

    def problem(self) -> str | None:
        """Why this force may not move together, or ``None``."""
        ctx = self.ctx
        if not self.units:
            return "the force is empty"
        classes = sorted({class_of(ctx, u).name for u in self.movers if class_of(ctx, u) is not None})
        if len(classes) > 1 and self.combined_cells() is None:
            return f"movement classes {', '.join(classes)} may not move together"
        if self.cargo:
            carriers = self.carriers()
            if not carriers:
                return "carried units need a carrier in the force"
            carrier_classes = {class_of(ctx, c).name for c in carriers}
            for unit in self.cargo:
                by = self.carried_by(unit)
                if not carrier_classes & by:
                    return f"{unit.id} may be carried only by {', '.join(sorted(by))}"
            over = self.overload()
            if over is not None:
                factor, need, capacity = over
                named = f" ({self.ctx.shown('factor', factor)})" if len(self.needs()) > 1 else ""
                return f"the carried units need {need} transport and the carriers have {capacity}{named}"
        return None

    def fits(self) -> bool:
        """Whether ``problem`` finds none: decided by the types of the force's units alone (their
        classes, carrying lines and factors), so kept per rules and map and those types."""
        return force_fits(self.ctx, self.units, self)

    def needs(self) -> dict[str, Fraction]:
        """What the cargo needs carried, by capacity factor: each carried unit its own ``carried with
        CAPACITY against COST`` line's cost factor, summed by the lines' capacity factors (carried
        units of classes with different lines draw on different capacities).  A carried unit whose
        class has no such line needs nothing."""
        rules = self.ctx.rules
        totals: dict[str, int | Fraction] = {}
        for unit in self.cargo:
            mclass = self.cargo_class(unit)
            line = mclass.carried_with if mclass is not None else None
            if line is not None:  # (ints add without Fractions)
                totals[line.capacity] = totals.get(line.capacity, 0) + _factor(rules, unit, line.cost)
        return {factor: Fraction(total) for factor, total in totals.items()}

    def capacities(self, factors) -> dict[str, Fraction]:
        """The carriers' total of each of ``factors`` (capacity factors)."""
        rules, carriers = self.ctx.rules, self.carriers()
        return {factor: Fraction(sum([_factor(rules, u, factor) for u in carriers])) for factor in factors}

    def overload(self) -> tuple[str, Fraction, Fraction] | None:
        """The first capacity factor (in the order the cargo names them) the cargo needs more of than
        the carriers have: (factor, need, capacity); ``None`` when every need is covered."""
        needs = self.needs()
        have = self.capacities(needs)
        return next(((factor, need, have[factor]) for factor, need in needs.items() if need > have[factor]), None)

    def combined_cells(self) -> frozenset[str] | None:
        """For movers of several classes: the cells their ``combines with … only in`` allows (all
        cells when it names none); ``None`` when some pair may not combine.  Decided by the movers'
        classes alone: kept per rules and map by those."""
        ctx = self.ctx
        classes = {class_of(ctx, u).name: class_of(ctx, u) for u in self.movers}
        memo = map_memos(ctx.rules, ctx.board).combined_cells
        key = tuple(classes)
        found = memo.get(key, _UNKNOWN)
        if found is _UNKNOWN:
            found = memo[key] = self._combined_cells(classes)
        return found

    def _combined_cells(self, classes: dict[str, MovementClass]) -> frozenset[str] | None:
        """``combined_cells``, afresh."""
        ctx = self.ctx
        allowed: frozenset[str] | None = frozenset(ctx.board.cells)
        for name, mclass in classes.items():
            for other in classes:
                if other == name:
                    continue
                line = mclass.combination_with(other)
                if line is None:
                    return None
                if line.where:
                    allowed &= cells_named(ctx.rules, ctx.board, line.where)
        return allowed

    def path(self, cell: str) -> tuple[str, ...]:
        """The path the force takes to ``cell`` (after ``destinations``): its first mover's canonical
        path, or for a mixed force the shortest path every member may take."""
        if cell in self.raids:
            return (*self.path(self.raids[cell]), cell)
        if self._paths is not None:
            out = [cell]
            while out[-1] in self._paths:
                out.append(self._paths[out[-1]])
            return tuple(reversed(out))
        return self._first.path(cell)

    def _mixed(self) -> bool:
        """Members that move differently: several classes, joiners with movers, or cargo."""
        types = {u.type for u in self.units}
        return len(types) > 1 and len({class_of(self.ctx, u).name for u in self.units}) > 1

    def _common_paths(self, sit, goal: set[str] | None = None) -> dict[str, str]:
        """Breadth-first over the cells every member may enter and the steps every mover class may
        take (a mixed force moves together), stopping at enemy cells for classes that stop
        there.  Returns each reached cell's predecessor (lowest cell id first, so it is canonical);
        with a ``goal``, returns as soon as a cell of it is reached (empty when none is)."""
        ctx = self.ctx
        turn = ctx.state.turn
        tables = [cost_table(ctx.rules, ctx.board, t, turn, ctx.state.weather)
                  for t in sorted({u.type for u in self.units})]
        steppers = [cost_table(ctx.rules, ctx.board, t, turn, ctx.state.weather)
                    for t in sorted({u.type for u in (self.movers or self.joiners)})]
        allowed = self._common_cells(tables)
        stops = sit.enemy_cells if any(not class_of(ctx, u).ignores_enemy
                                       for u in self.movers or self.joiners) else frozenset()
        start = self.units[0].location
        parent: dict[str, str] = {}
        frontier, seen = [start], {start}
        steps, others = steppers[0].adjacency, steppers[1:]  # (most forces' movers are of one type)
        while frontier:
            following = []
            for cell in frontier:
                if cell in stops and cell != start:
                    continue
                for n in steps.get(cell, ()):
                    if n in seen or n not in allowed or others and any(n not in t.adjacency.get(cell, ())
                                                                      for t in others):
                        continue
                    seen.add(n)
                    parent[n] = cell
                    if goal is not None and n in goal:
                        return parent
                    following.append(n)
            frontier = sorted(following)
        return {} if goal is not None else parent

    def _common_cells(self, tables: list[CostTable]) -> frozenset[str]:
        """The cells every member may enter (``tables``: the members' cost tables, one a type, by
        type), within ``combined_cells`` for movers of several classes.  Decided by the tables and
        the classes, not the situation: kept per rules and map by those, each distinct set once
        (``caches.share``: a game of the largest shipped scenario kept 25 keys but 3 distinct sets,
        370 KiB -> 45 KiB)."""
        ctx = self.ctx
        classes = {class_of(ctx, u).name for u in self.movers}
        key = (tuple([table_key(ctx.rules, t, ctx.state.turn, ctx.state.weather)
                      for t in sorted({u.type for u in self.units})]),
               tuple(sorted(classes)) if len(classes) > 1 else None)
        memo = map_memos(ctx.rules, ctx.board).common_cells
        found = memo.get(key)
        if found is None:
            allowed = set(tables[0].cost)
            for table in tables[1:]:
                allowed &= set(table.cost)
            if len(classes) > 1:
                allowed &= self.combined_cells() or set()
            found = memo[key] = share(ctx.rules, ctx.board, frozenset(allowed))
        return found

    def destinations(self) -> list[str]:
        """Cells the whole force may end its move in, in order.

        The last force's answer is kept with the side's situation while the state's units, turn and
        weather are the same (what it reads of the state): a force that moves reads it again to
        offer its moves, its exits and its paths.  Whether a candidate force may move at all is
        ``can_move``'s, which keeps nothing."""
        ctx = self.ctx
        movers = self.movers or self.joiners
        if not movers:
            return []
        sit = situation(ctx, movers[0].side)
        key = (ctx.state.units, ctx.state.turn, ctx.state.weather, tuple(self.units))  # (the cost tables read both)
        known = sit.known.get("destinations")
        if known is None or known[0][0] is not key[0] or known[0] != key:
            known = sit.known["destinations"] = (key, self._destinations(movers, sit), self._first, self._paths,
                                                 self.raids)
        _, found, self._first, self._paths, self.raids = known
        return list(found)

    def can_move(self) -> bool:
        """Whether ``destinations`` has a cell, found without a mixed force's whole paths: a
        designation asks it of the force at each unit added, and most such forces never move."""
        movers = self.movers or self.joiners
        if not movers:
            return False
        sit = situation(self.ctx, movers[0].side)
        common, _ = self._ends(movers, sit)
        if not common or not self._mixed():
            return bool(common)  # (raids only lead on from where the force may end)
        return bool(self._common_paths(sit, goal=common))

    def _ends(self, movers: list[Unit], sit) -> tuple[set[str], object]:
        """The cells every member may end in, before a mixed force's common paths (and the first
        mover's search, whose paths a force of one kind follows)."""
        ctx = self.ctx
        common: set[str] | None = None
        first = None
        by_type: dict[str, set[str]] = {}
        for unit in movers:
            if unit.type not in by_type:
                found = movement.search(ctx, unit, sit=sit)
                first = first or found
                by_type[unit.type] = set(found.ends)
            ends = by_type[unit.type]
            common = ends if common is None else common & ends
        # Carried units are set down where the force ends (into a battle too): only where they could be.
        for unit in self.cargo:  # (the few cells reached looked up, not the whole map's costs copied)
            costs = cost_table(ctx.rules, ctx.board, unit.type, ctx.state.turn, ctx.state.weather).cost
            common = {c for c in common if c in costs}
        # Joiners go where the movers go, within their own rules (e.g. where they must end).
        for unit in self.joiners if self.movers else ():
            common &= set(movement.search(ctx, unit, sit=sit).ends)
        if len({class_of(ctx, u).name for u in self.movers}) > 1:
            common &= self.combined_cells() or set()
        return common or set(), first

    def _destinations(self, movers: list[Unit], sit) -> list[str]:
        """``destinations``, afresh."""
        common, first = self._ends(movers, sit)
        self._first, self._paths = first, None
        if common and self._mixed():
            self._paths = self._kept_common_paths(sit)
            common &= set(self._paths)
        self.raids = self._raid_cells(first, common)
        return sorted({*common, *self.raids})

    def _kept_common_paths(self, sit) -> dict[str, str]:
        """``_common_paths``, kept with the situation (which holds the enemy cells it stops at) by
        what else it reads: the turn and weather (the cost tables), the start and the types of the
        units, movers and joiners (the tables, the steps and the classes); callers only read it."""
        ctx = self.ctx
        key = ("common paths", ctx.state.turn, ctx.state.weather, self.units[0].location,
               tuple([u.type for u in self.units]), tuple([u.type for u in self.movers]),
               tuple([u.type for u in self.joiners]))
        found = sit.known.get(key)
        if found is None:
            found = sit.known[key] = self._common_paths(sit)
        return found

    def _raid_cells(self, first, reached: set[str]) -> dict[str, str]:
        """Cells only this turn's ``may enter … on turn N`` opens to the carried units (a raid), each
        with the cell the carriers bring them from: one step from
        where the force may end, across a step the carriers' class may take.  READING (marked as a gap
        where a rulebook uses it): the carriers set such units down there and stop a step short, since
        those units cannot move by themselves and the carriers may not go in."""
        ctx = self.ctx
        if not self.cargo or first is None:
            return {}
        opened: set[str] | None = None
        for unit in self.cargo:
            now = set(cost_table(ctx.rules, ctx.board, unit.type, ctx.state.turn, ctx.state.weather).cost)
            extra = now - set(cost_table(ctx.rules, ctx.board, unit.type).cost)
            opened = extra if opened is None else opened & extra
        if not opened:
            return {}
        steps = cost_table(ctx.rules, ctx.board, (self.movers or self.joiners)[0].type).adjacency
        raids = {}
        for cell in sorted(opened):
            via = next((n for n in sorted(steps.get(cell, ())) if n in reached and cell in steps.get(n, ())), None)
            if via is not None:
                raids[cell] = via
        return raids


def force_fits(ctx: Context, units: list[Unit], force: Force | None = None) -> bool:
    """``Force(ctx, units).fits()``, read from its memo before a ``Force`` is built (a designation
    asks it of a one-unit force in every cell of the side at every decision)."""
    memo = map_memos(ctx.rules, ctx.board).force_fits
    key = tuple([u.type for u in units])
    found = memo.get(key)
    if found is None:
        if len(memo) >= FORCE_FITS_KEPT:
            memo.clear()
        found = memo[key] = (force or Force(ctx, units)).problem() is None
    return found


FORCE_FITS_KEPT = 1024
"""Answers ``force_fits`` keeps before it forgets them all and starts again: an airlift is asked with
every airlifter of the side elsewhere, so random games of the largest shipped scenario add about 120
new ones each."""


# --- cost and payment ------------------------------------------------------------------------


def operation_cost(ctx: Context, actions: list[ActionRule], units: list[Unit]) -> tuple[str, Fraction, str] | None:
    """(resource, amount, action name) a force pays; ``None`` when no named action prices it.

    A leader's action (``led by``) when the force has such a unit, at its cheapest leader's line;
    otherwise the ``per unit`` action, summed over the units; otherwise a flat-priced action, once.
    Decided by the actions, the units' types and the scenario's year alone: kept per rules.
    """
    memo = ctx.rules.derived.setdefault("operation costs", {})
    key = (tuple([a.name for a in actions]), tuple([u.type for u in units]), getattr(ctx.scenario, "year", None))
    found = memo.get(key, _UNKNOWN)
    if found is _UNKNOWN:
        found = memo[key] = _operation_cost(ctx, actions, units)
    return found


_UNKNOWN = object()


def _operation_cost(ctx: Context, actions: list[ActionRule], units: list[Unit]) -> tuple[str, Fraction, str] | None:
    best = None
    year = getattr(ctx.scenario, "year", None)
    for action in actions:
        if not action.led_by:
            continue
        for unit in units:
            unit_type = ctx.rules.unit_type(unit.type)
            if unit_type.matches(action.led_by):
                cost = action_price(ctx, action, unit_type.selectors)
                if cost is not None and (best is None or cost[1] < best[1]):
                    best = (cost[0], cost[1], action.name)
    if best is not None:
        return best
    for action in actions:
        if action.led_by or action.between is not None or not any(c.per_unit for c in action.priced(year)):
            continue
        total, resource = Fraction(0), None
        for unit in units:
            cost = action_price(ctx, action, ctx.rules.unit_type(unit.type).selectors, per_unit=True)
            if cost is None:
                break
            resource = cost[0]
            total += cost[1]
        else:
            if resource is not None:
                return resource, total, action.name
    for action in actions:
        if action.led_by or action.between is not None:
            continue
        everyone = frozenset().union(*(ctx.rules.unit_type(u.type).selectors for u in units))
        cost = action_price(ctx, action, everyone, per_unit=False)
        if cost is not None:
            return cost[0], cost[1], action.name
    return None


def redeploy_cost(ctx: Context, action: ActionRule, unit: Unit) -> tuple[str, Fraction] | None:
    """The ``cost … times N transport`` price of moving ``unit`` by a ``between cells`` action."""
    mclass = class_of(ctx, unit)
    carried = mclass.carried_with if mclass is not None else None
    if carried is None:
        return None
    unit_type = ctx.rules.unit_type(unit.type)
    need = Fraction(_factor(ctx.rules, unit, carried.cost))
    if need <= 0:
        return None
    line = action.transport_multiple(unit_type.selectors)
    if line is None:
        return None
    return line.resource, need * line.multiple


def can_afford(ctx: Context, side: str, resource: str, amount: Fraction) -> bool:
    """Whether ``side`` holds at least ``amount`` of ``resource``."""
    return ctx.state.resource(side, resource) >= amount


def pay(ctx: Context, side: str, resource: str, amount: Fraction, why: str) -> None:
    """``side`` spends ``amount`` of ``resource`` (logged with ``why``); nothing when it is 0."""
    from .victory import gain

    if amount:
        gain(ctx, side, resource, -amount, why)


def has_enemy(ctx: Context, side: str, cell: str) -> bool:
    """Whether ``cell`` holds a unit of a side other than ``side``."""
    return any(u.side != side for u in ctx.state.units_at(cell))


# --- redeploying one unit (adding one: ``interpreter.carrying``) -----------------------------


def redeploy_cells(ctx: Context, action: ActionRule, unit: Unit) -> list[str]:
    """Cells a ``between cells with …`` move may go to from where ``unit`` is (none when it may not start)."""
    who = action.between or ()

    def qualifies(cell: str) -> bool:
        return (not has_enemy(ctx, unit.side, cell)
                and any(u.side == unit.side and Rules.unit_matches(ctx.rules.unit_type(u.type), who)
                        for u in ctx.state.units_at(cell)))

    if not unit.on_map or not qualifies(unit.location):
        return []
    cells = {u.location for u in ctx.state.units_of(unit.side) if u.location != unit.location}
    costs = cost_table(ctx.rules, ctx.board, unit.type, ctx.state.turn, ctx.state.weather).cost
    return sorted(c for c in cells if qualifies(c) and c in costs)

