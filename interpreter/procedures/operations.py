"""Operations: a side designates a force in one cell, pays for it, and moves it (``designate force``,
``move force``).

These run inside a phase that alternates an operation step between the sides
(``interpreter.flow._alternate``), which opens ``ctx.operation``.  Everything
game-specific comes from declarations:

- **Who may be in a force.**  Units of the acting side in the chosen cell that can move: not
  ``never moves``, and carried units (a class that ``needs transport``) only with carriers.
  Movers of more than one class must ``combine with`` each other (and then keep to the cells
  the ``combines with … only in`` line names); a class that ``joins any force`` may join any.
- **Carrying.**  A class that ``needs transport`` is ``transported by`` some classes and
  ``carried with CAPACITY against COST``: the carriers of one class in the force must have
  capacity factors summing to at least the carried units' cost factors.  When the force has no
  other movers, carriers of a joining class (airmobile) may come from any cell to lift it.
- **What it costs.**  The ``designate force paying …`` line names the actions; those of the
  acting side apply.  A force with a unit an action is ``led by`` pays that action's line for
  its cheapest leader; otherwise it pays a ``per unit`` action's line for every unit.
  An action with ``between cells with …`` moves a single carried unit straight from one such
  cell to another at its ``cost … times N transport`` price (strategic redeployment).
- **Where it may go.**  Every mover's reachable cells (``interpreter.movement.search``),
  intersected, where every carried unit may also be set down (into a battle too: 8.9).  A force of
  one kind follows the canonical path of its first mover; a mixed force (several classes,
  joiners, carried units) the shortest path over cells every member may enter and steps every
  mover class may take (7.5).  On the way it stops early on entering a cell with enemy markers
  that stop its class (they may be face down, so legal moves cannot know them).  A force that
  ends its move in a cell with enemy counters starts a battle there (``ctx.operation.cell``).
- **Raids.**  A cell only this turn's ``may enter … on turn N`` opens to the carried units is
  offered one step past where the force may end; the carriers set them down from there.
- **Infiltration.**  A force whose move starts no battle ends its units' moves: those in the
  cells of an ``award … on infiltrated`` score it (``interpreter.infiltration``, shared with
  ``do move``).
- **Strikes.**  An action with ``strike with MARKER…`` offers ``strike CELL`` beside ``operate
  CELL``: support markers alone attack that cell (``interpreter.procedures.battle.strike``).
- **Reaction moves.**  During a battle (a step such as the air sub-phase runs ``designate
  force`` again) only classes that ``react from or to cells with …`` may be designated, and
  only into the contested cell, starting or ending in a cell with a friendly unit named there.

Limits (readings, noted in docs/scenarios.md and the README): a force moves as a whole (no
dropping units off on the way); a unit of a moving class is never itself carried.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Iterable

from attrs import evolve

from ...dsl.model import Declaration, Property
from .. import movement
from ..actions import Action
from ..cells import cells_named
from ..citations import cite
from ..context import Context, Flow
from ..costs import cost_table, movement_class, never_moves
from ..flow import procedure
from ..infiltration import infiltrate
from . import battle
from ..rules import Rules, UnitType
from ..situation import situation, stop_markers
from ..state import Unit
from ..zones import is_counter, zone_of, zone_rules

# --- reading the rules -----------------------------------------------------------------------


def _class(ctx: Context, unit: Unit) -> Declaration | None:
    return movement_class(ctx.rules, ctx.rules.unit_type(unit.type))


def _carried(mclass: Declaration | None) -> bool:
    return mclass is not None and mclass.has("needs")


def _joins(mclass: Declaration | None) -> bool:
    return mclass is not None and mclass.has("joins")


def _static(ctx: Context, unit: Unit) -> bool:
    return _type_facts(ctx, unit.type)[0]


def _type_facts(ctx: Context, type_name: str) -> tuple[bool, bool]:
    """(static, may be in a force) for a unit type, derived once per rules."""
    key = ("operations", type_name)
    found = ctx.rules.derived.get(key)
    if found is None:
        unit_type = ctx.rules.unit_type(type_name)
        mclass = movement_class(ctx.rules, unit_type)
        static = never_moves(ctx.rules, unit_type) and not _carried(mclass)
        found = ctx.rules.derived[key] = (static, unit_type.kind == "unit" and not static)
    return found


def _factor(unit_type: UnitType, name: str | None) -> Fraction:
    value = unit_type.factor(name, 0) if name else 0
    return Fraction(value) if isinstance(value, (int, Fraction)) else Fraction(0)


def _names(values: Iterable | None) -> tuple[str, ...]:
    return tuple(str(v) for v in values or ())


def _actions(ctx: Context, prop: Property, side: str) -> list[Declaration]:
    found = []
    for name in _names(prop.get("actions")):
        decl = ctx.rulebook.get("action", name)
        owner = decl.first("side") if decl is not None else None
        if decl is not None and (owner is None or str(owner.get("side")) == side):
            found.append(decl)
    return found


def _resource_cost(lines: Iterable[Property], unit_type: UnitType) -> tuple[str, Fraction] | None:
    line = Rules.line_for([p for p in lines if p.get("amount") is not None], unit_type)
    if line is None:
        return None
    return str(line.get("resource")), Fraction(line.get("amount"))


# --- forces ----------------------------------------------------------------------------------


class Force:
    """A candidate force read against the rules: its movers, joiners, carried units and carriers."""

    def __init__(self, ctx: Context, units: list[Unit]):
        self.ctx = ctx
        self.units = units
        self.movers = [u for u in units if not _carried(_class(ctx, u)) and not _joins(_class(ctx, u))]
        self.joiners = [u for u in units if _joins(_class(ctx, u))]
        self.cargo = [u for u in units if _carried(_class(ctx, u))]
        self._first = None
        self._paths: dict[str, str] | None = None
        self.raids: dict[str, str] = {}
        """Cells only the carried units may enter this turn, each with the cell the carriers stop in."""

    def carriers(self) -> list[Unit]:
        """The units that carry the cargo: the movers, or the joiners when there are no movers."""
        return self.movers or self.joiners

    def problem(self) -> str | None:
        """Why this force may not move together, or ``None``."""
        ctx = self.ctx
        if not self.units:
            return "the force is empty"
        classes = sorted({_class(ctx, u).name for u in self.movers if _class(ctx, u) is not None})
        if len(classes) > 1 and self.combined_cells() is None:
            return f"movement classes {', '.join(classes)} may not move together"
        if self.cargo:
            carriers = self.carriers()
            if not carriers:
                return "carried units need a carrier in the force"
            for unit in self.cargo:
                mclass = _class(ctx, unit)
                by = {n for p in mclass.all("transported") for n in _names(p.get("classes"))}
                carrier_classes = {_class(ctx, c).name for c in carriers}
                if not carrier_classes & by:
                    return f"{unit.id} may be carried only by {', '.join(sorted(by))}"
            capacity, need = self.capacity(), self.need()
            if need > capacity:
                return f"the carried units need {need} transport and the carriers have {capacity}"
        return None

    def _carry_factors(self) -> tuple[str | None, str | None]:
        for unit in self.cargo:
            line = _class(self.ctx, unit).first("carried")
            if line is not None:
                return str(line.get("capacity")), str(line.get("cost"))
        return None, None

    def capacity(self) -> Fraction:
        capacity, _ = self._carry_factors()
        return sum((_factor(self.ctx.rules.unit_type(u.type), capacity) for u in self.carriers()), Fraction(0))

    def need(self) -> Fraction:
        _, cost = self._carry_factors()
        return sum((_factor(self.ctx.rules.unit_type(u.type), cost) for u in self.cargo), Fraction(0))

    def combined_cells(self) -> frozenset[str] | None:
        """For movers of several classes: the cells their ``combines with … only in`` allows (all
        cells when it names none); ``None`` when some pair may not combine."""
        ctx = self.ctx
        classes = {_class(ctx, u).name: _class(ctx, u) for u in self.movers}
        allowed: frozenset[str] | None = frozenset(ctx.board.cells)
        for name, decl in classes.items():
            for other in classes:
                if other == name:
                    continue
                line = next((p for p in decl.all("combines") if other in _names(p.get("classes"))), None)
                if line is None:
                    return None
                where = _names(line.get("where"))
                if where:
                    allowed &= cells_named(ctx.rules, ctx.board, where)
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
        return len(types) > 1 and len({_class(self.ctx, u).name for u in self.units}) > 1

    def _common_paths(self, sit) -> dict[str, str]:
        """Breadth-first over the cells every member may enter and the steps every mover class may
        take (a mixed force moves together: 7.5), stopping at enemy cells for classes that stop
        there.  Returns each reached cell's predecessor (lowest cell id first, so it is canonical)."""
        ctx = self.ctx
        turn = ctx.state.turn
        tables = [cost_table(ctx.rules, ctx.board, t, turn) for t in sorted({u.type for u in self.units})]
        steppers = [cost_table(ctx.rules, ctx.board, t, turn)
                    for t in sorted({u.type for u in (self.movers or self.joiners)})]
        allowed = set(tables[0].cost)
        for table in tables[1:]:
            allowed &= set(table.cost)
        if len({_class(ctx, u).name for u in self.movers}) > 1:
            allowed &= self.combined_cells() or set()
        stops = sit.enemy_cells if any(not _class(ctx, u).has("ignores")
                                       for u in self.movers or self.joiners) else frozenset()
        start = self.units[0].location
        parent: dict[str, str] = {}
        frontier, seen = [start], {start}
        while frontier:
            following = []
            for cell in frontier:
                if cell in stops and cell != start:
                    continue
                for n in steppers[0].adjacency.get(cell, ()):
                    if n in seen or n not in allowed or any(n not in t.adjacency.get(cell, ()) for t in steppers[1:]):
                        continue
                    seen.add(n)
                    parent[n] = cell
                    following.append(n)
            frontier = sorted(following)
        return parent

    def destinations(self) -> list[str]:
        """Cells the whole force may end its move in, in order."""
        ctx = self.ctx
        movers = self.movers or self.joiners
        if not movers:
            return []
        sit = situation(ctx, movers[0].side)
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
        for unit in self.cargo:
            common &= set(cost_table(ctx.rules, ctx.board, unit.type, ctx.state.turn).cost)
        # Joiners go where the movers go, within their own rules (e.g. where they must end).
        for unit in self.joiners if self.movers else ():
            common &= set(movement.search(ctx, unit, sit=sit).ends)
        if len({_class(ctx, u).name for u in self.movers}) > 1:
            common &= self.combined_cells() or set()
        self._first, self._paths = first, None
        if common and self._mixed():
            self._paths = self._common_paths(sit)
            common &= set(self._paths)
        self.raids = self._raid_cells(first, common or set())
        return sorted({*(common or ()), *self.raids})

    def _raid_cells(self, first, reached: set[str]) -> dict[str, str]:
        """Cells only this turn's ``may enter … on turn N`` opens to the carried units (a raid), each
        with the cell the carriers bring them from: one step from
        where the force may end, across a step the carriers' class may take.  READING (marked as a gap
        where a rulebook uses it): the carriers set such units down there and stop a step short, since
        those units cannot move by themselves (8.7) and the carriers may not go in (8.3)."""
        ctx = self.ctx
        if not self.cargo or first is None:
            return {}
        opened: set[str] | None = None
        for unit in self.cargo:
            now = set(cost_table(ctx.rules, ctx.board, unit.type, ctx.state.turn).cost)
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


# --- cost ------------------------------------------------------------------------------------


def operation_cost(ctx: Context, actions: list[Declaration], units: list[Unit]) -> tuple[str, Fraction, str] | None:
    """(resource, amount, action name) a force pays; ``None`` when no named action prices it.

    A leader's action (``led by``) when the force has such a unit, at its cheapest leader's line;
    otherwise the ``per unit`` action, summed over the units.
    """
    best = None
    for action in actions:
        led = action.first("led")
        if led is None:
            continue
        for unit in units:
            unit_type = ctx.rules.unit_type(unit.type)
            if Rules.unit_matches(unit_type, led.get("who") or ()):
                cost = _resource_cost(action.all("cost"), unit_type)
                if cost is not None and (best is None or cost[1] < best[1]):
                    best = (cost[0], cost[1], action.name)
    if best is not None:
        return best
    for action in actions:
        lines = [p for p in action.all("cost") if p.has("per")]
        if not lines or action.has("led") or action.has("between"):
            continue
        total, resource = Fraction(0), None
        for unit in units:
            cost = _resource_cost(lines, ctx.rules.unit_type(unit.type))
            if cost is None:
                break
            resource = cost[0]
            total += cost[1]
        else:
            if resource is not None:
                return resource, total, action.name
    return None


def redeploy_cost(ctx: Context, action: Declaration, unit: Unit) -> tuple[str, Fraction] | None:
    """The ``cost … times N transport`` price of moving ``unit`` by a ``between cells`` action."""
    mclass = _class(ctx, unit)
    carried = mclass.first("carried") if mclass is not None else None
    if carried is None:
        return None
    unit_type = ctx.rules.unit_type(unit.type)
    need = _factor(unit_type, str(carried.get("cost")))
    if need <= 0:
        return None
    line = Rules.line_for([p for p in action.all("cost") if p.get("multiple") is not None], unit_type)
    if line is None:
        return None
    return str(line.get("resource")), need * line.get("multiple")


def _affordable(ctx: Context, side: str, resource: str, amount: Fraction) -> bool:
    return ctx.state.resource(side, resource) >= amount


def _pay(ctx: Context, side: str, resource: str, amount: Fraction, why: str) -> None:
    from ..victory import gain

    if amount:
        gain(ctx, side, resource, -amount, why)


# --- designate force -------------------------------------------------------------------------


def _movable(ctx: Context, unit: Unit) -> bool:
    return unit.on_map and _type_facts(ctx, unit.type)[1]


def _enemy_in(ctx: Context, side: str, cell: str) -> bool:
    return any(u.side != side for u in ctx.state.units_at(cell))


def _airlifters(ctx: Context, side: str, cell: str | None) -> list[Unit]:
    """Units of a joining class elsewhere on the map than ``cell``: they may fly in to lift."""
    out = []
    for unit in ctx.state.units_of(side):
        if unit.location == cell or not _movable(ctx, unit) or not _joins(_class(ctx, unit)):
            continue
        if _enemy_in(ctx, side, unit.location):
            continue
        out.append(unit)
    return out


@procedure("designate force")
def designate_force(ctx: Context, prop: Property) -> Flow:
    """Choose a cell, the units of the force and how it goes; pay for it (or pass)."""
    operation, side = ctx.operation, ctx.acting
    if operation is None or side is None:
        return
    actions = _actions(ctx, prop, side)
    if not actions or operation.ended or operation.passed:
        return
    strikes = [a for a in actions if a.has("strike")]
    actions = [a for a in actions if not a.has("strike")]
    if operation.fighting():
        if not (operation.mode == "strike" and side == operation.side):  # a strike is markers alone
            yield from _designate_reaction(ctx, actions, side)
        return
    if operation.force:
        return  # designated already: this line belongs to a later sub-phase of a battle that is over
    failed: set[str] = set()  # cells where no force could be formed: not offered again
    while True:
        cells = sorted({u.location for u in ctx.state.units_of(side) if _movable(ctx, u)
                        and not _enemy_in(ctx, side, u.location)} - failed)
        lifters = _Airlifters(ctx, side)
        options = [Action("pass")] + [Action("operate", (c,)) for c in cells
                                      if _could_operate(ctx, actions, side, c, lifters)]
        options += [Action("strike", (c,)) for c in battle.strike_cells(ctx, strikes, side)]
        choice = yield from ctx.choose(side, "operation", "choose a cell to operate from or to strike, or pass",
                                       options)
        if choice.kind == "pass":
            operation.passed = True
            ctx.say(f"{_side_name(ctx, side)} passes", kind="operation", side=side)
            return
        if choice.kind == "strike":
            yield from battle.strike(ctx, strikes, side, choice.args[0])
            return
        chosen = yield from _choose_force(ctx, actions, side, choice.args[0])
        if chosen:
            return
        failed.add(choice.args[0])


class _Airlifters:
    """The side's airlifters in one state, found once and only when a cell needs them."""

    def __init__(self, ctx: Context, side: str):
        self.ctx, self.side = ctx, side
        self._all: list[Unit] | None = None

    def besides(self, cell: str) -> list[Unit]:
        if self._all is None:
            self._all = _airlifters(self.ctx, self.side, None)
        return [u for u in self._all if u.location != cell]


def _could_operate(ctx: Context, actions: list[Declaration], side: str, cell: str,
                   airlifters: _Airlifters | None = None) -> bool:
    """Whether some one-unit force in ``cell`` (or an airlift of it) is affordable."""
    airlifters = airlifters or _Airlifters(ctx, side)
    here = [u for u in ctx.state.units_at(cell) if u.side == side and _movable(ctx, u)]
    seen: set[str] = set()
    for unit in here:
        if unit.type in seen:
            continue
        seen.add(unit.type)
        units = [unit]
        if _carried(_class(ctx, unit)):
            lifters = [u for u in here if not _carried(_class(ctx, u))] or airlifters.besides(cell)
            force = Force(ctx, [unit, *lifters])
            if force.problem() is not None:
                continue
            units = [unit, *lifters]
        cost = operation_cost(ctx, actions, units)
        if cost is not None and _affordable(ctx, side, cost[0], cost[1]):
            return True
    return False


def _side_name(ctx: Context, side: str) -> str:
    decl = ctx.rulebook.get("side", side)
    return decl.display if decl else side


def _choose_force(ctx: Context, actions: list[Declaration], side: str, cell: str) -> Flow:
    """Add units one at a time, then ``go`` (or ``redeploy``); returns whether a force was designated."""
    operation = ctx.operation
    picked: list[str] = []
    redeploy = [a for a in actions if a.has("between")]
    while True:
        units = [ctx.state.unit(i) for i in picked]
        force = Force(ctx, units)
        here = [u for u in ctx.state.units_at(cell) if u.side == side and _movable(ctx, u) and u.id not in picked]
        addable = list(here)
        if force.cargo and not force.movers:
            addable += [u for u in _airlifters(ctx, side, cell) if u.id not in picked]
        options = [Action("add", (u.id,)) for u in addable if _may_carry(ctx, force, u, addable)]
        cost = operation_cost(ctx, actions, units) if units else None
        if (units and force.problem() is None and cost is not None and _affordable(ctx, side, cost[0], cost[1])
                and force.destinations()):
            options.append(Action("go"))
        for action in redeploy:
            price = redeploy_cost(ctx, action, units[0]) if len(units) == 1 else None
            if price is not None and _affordable(ctx, side, *price) and _redeploy_cells(ctx, action, units[0]):
                options.append(Action("redeploy"))
                break
        if not options:
            ctx.say(f"no force can be formed in {cell}", kind="operation", side=side)
            return False
        shown = f" (force: {', '.join(picked)})" if picked else ""
        choice = yield from ctx.choose(side, "force", f"designate the force in {cell}{shown}", options)
        if choice.kind == "add":
            picked.append(choice.args[0])
            continue
        operation.force = list(picked)
        operation.origin = cell
        if choice.kind == "go":
            resource, amount, name = cost
            operation.mode = "operation"
            _pay(ctx, side, resource, amount, f"{ctx.rulebook.get('action', name).display}: {', '.join(picked)}")
        else:
            action = next(a for a in redeploy if redeploy_cost(ctx, a, units[0]) is not None)
            resource, amount = redeploy_cost(ctx, action, units[0])
            operation.mode = f"redeploy:{action.name}"
            _pay(ctx, side, resource, amount, f"{action.display}: {picked[0]}")
        ctx.say(f"{_side_name(ctx, side)} designates {', '.join(ctx.label(u) for u in units)} in {cell}",
                kind="operation", side=side, cell=cell, force=list(picked))
        return True


def _may_carry(ctx: Context, force: Force, unit: Unit, available: list[Unit]) -> bool:
    """Whether adding ``unit`` leaves the force able to move: a carried unit only when the units
    at hand could carry it with the rest of the force's cargo."""
    if not _carried(_class(ctx, unit)):
        return True
    whole = Force(ctx, [*force.units, *available])
    by_class: dict[str, list[Unit]] = {}
    for carrier in whole.movers + whole.joiners:
        by_class.setdefault(_class(ctx, carrier).name, []).append(carrier)
    need = Force(ctx, [*force.cargo, unit]).need()
    mclass = _class(ctx, unit)
    carried_by = {n for p in mclass.all("transported") for n in _names(p.get("classes"))}
    for name, carriers in by_class.items():
        if name in carried_by and Force(ctx, [*carriers, *force.cargo, unit]).capacity() >= need:
            return True
    return False


def _redeploy_cells(ctx: Context, action: Declaration, unit: Unit) -> list[str]:
    """Cells a ``between cells with …`` move may go to from where ``unit`` is (none when it may not start)."""
    who = action.first("between").get("who") or ()

    def qualifies(cell: str) -> bool:
        return (not _enemy_in(ctx, unit.side, cell)
                and any(u.side == unit.side and Rules.unit_matches(ctx.rules.unit_type(u.type), who)
                        for u in ctx.state.units_at(cell)))

    if not unit.on_map or not qualifies(unit.location):
        return []
    cells = {u.location for u in ctx.state.units_of(unit.side) if u.location != unit.location}
    costs = cost_table(ctx.rules, ctx.board, unit.type, ctx.state.turn).cost
    return sorted(c for c in cells if qualifies(c) and c in costs)


def _designate_reaction(ctx: Context, actions: list[Declaration], side: str) -> Flow:
    """During a battle: a force of reacting classes flies into the contested cell (or none does)."""
    operation = ctx.operation
    target = operation.cell
    cells = sorted({u.location for u in ctx.state.units_of(side)
                    if _movable(ctx, u) and _reacts(ctx, u) and u.location != target
                    and not _enemy_in(ctx, side, u.location) and _reaction_allowed(ctx, u, target)})
    options = [Action("pass")] + [Action("react", (c,)) for c in cells if _could_operate(ctx, actions, side, c)]
    if len(options) == 1:
        return
    choice = yield from ctx.choose(side, "reaction", f"move a force into the battle at {target}, or pass",
                                   options, in_order=True)
    if choice.kind == "pass":
        return
    cell = choice.args[0]
    picked: list[str] = []
    while True:
        units = [ctx.state.unit(i) for i in picked]
        force = Force(ctx, units)
        here = [u for u in ctx.state.units_at(cell) if u.side == side and _movable(ctx, u) and u.id not in picked
                and (_reacts(ctx, u) or _carried(_class(ctx, u)))]
        options = [Action("add", (u.id,)) for u in here]
        cost = operation_cost(ctx, actions, units) if units else None
        if (units and force.problem() is None and not force.movers and cost is not None
                and _affordable(ctx, side, cost[0], cost[1]) and target in force.destinations()):
            options.append(Action("go"))
        if not options:
            return
        choice = yield from ctx.choose(side, "force", f"designate the reacting force in {cell}", options)
        if choice.kind == "add":
            picked.append(choice.args[0])
            continue
        resource, amount, name = cost
        _pay(ctx, side, resource, amount, f"{ctx.rulebook.get('action', name).display}: {', '.join(picked)}")
        operation.moving = list(picked)
        ctx.say(f"{_side_name(ctx, side)} reacts with {', '.join(ctx.label(u) for u in units)} from {cell}",
                kind="operation", side=side, cell=cell, force=list(picked))
        return


def _reacts(ctx: Context, unit: Unit) -> bool:
    mclass = _class(ctx, unit)
    return mclass is not None and mclass.has("reacts")


def _reaction_allowed(ctx: Context, unit: Unit, target: str) -> bool:
    line = _class(ctx, unit).first("reacts")
    who = line.get("who") or ()

    def holds(cell: str) -> bool:
        return any(u.side == unit.side and Rules.unit_matches(ctx.rules.unit_type(u.type), who)
                   for u in ctx.state.units_at(cell))

    return holds(unit.location) or holds(target)


# --- move force ----------------------------------------------------------------------------------


@procedure("move force")
def move_force(ctx: Context, prop: Property) -> Flow:
    """Move the designated force: to a cell of its choice, or straight to a base (redeployment)."""
    operation, side = ctx.operation, ctx.acting
    if operation is None or side is None:
        return
    if operation.fighting():
        moving = operation.moving
        operation.moving = []
        if moving:
            units = [ctx.state.unit(i) for i in moving]
            _relocate(ctx, units, operation.cell, (units[0].location, operation.cell))
            if side == operation.side:
                operation.force.extend(moving)
        return
    if not operation.force or operation.passed or operation.ended or operation.path:
        return  # nothing designated, or the force has moved already
    units = [ctx.state.unit(i) for i in operation.force]
    if operation.mode.startswith("redeploy:"):
        action = ctx.rulebook.get("action", operation.mode.split(":", 1)[1])
        cells = _redeploy_cells(ctx, action, units[0])
        choice = yield from ctx.choose(side, "redeploy", f"redeploy {units[0].id} to", 
                                       [Action("redeploy", (units[0].id, c)) for c in cells])
        _relocate(ctx, units, choice.args[1], (units[0].location, choice.args[1]))
        return
    force = Force(ctx, units)
    ends = force.destinations()
    if not ends:
        ctx.say(f"the force in {operation.origin} has nowhere to go", kind="operation", side=side)
        return
    options = [Action("move", (c,)) for c in ends]
    choice = yield from ctx.choose(side, "move", f"move the force from {operation.origin} to", options)
    target = choice.args[0]
    path = force.path(target)
    if target in force.raids:  # the carriers set the raiders down and stay a step short (25.10 reading)
        via = force.raids[target]
        final, interceptors = yield from _walk(ctx, force, path[:-1])
        carriers = [u for u in units if u not in force.cargo]
        _relocate(ctx, carriers, final, path[: path.index(final) + 1])
        if final == via and not interceptors:
            _relocate(ctx, force.cargo, target, (via, target))
            final = target
        else:
            _relocate(ctx, force.cargo, final, path[: path.index(final) + 1])
            _move_in(ctx, interceptors, final)
    else:
        final, interceptors = yield from _walk(ctx, force, path)
        _relocate(ctx, units, final, path[: path.index(final) + 1])
        _move_in(ctx, interceptors, final)
    if any(u.side != side for u in ctx.state.units_at(final)):
        operation.cell = final
        ctx.say(f"battle in {final}", kind="operation", cell=final, side=side)
    else:
        yield from infiltrate(ctx, [ctx.state.unit(u.id) for u in units])


def _walk(ctx: Context, force: Force, path: tuple[str, ...]) -> Flow:
    """Where the force really stops along ``path``, and the enemy units that intercept it there: the
    first cell with enemy markers that stop it (hidden ones too: the mover finds them only on
    entering), or where the enemy intercepts it (``_interception``)."""
    lead = (force.movers or force.joiners)[0]
    for previous, cell in zip(path, path[1:]):
        if stop_markers(ctx, lead, cell):
            return cell, []
        interceptors = yield from _interception(ctx, force, previous, cell)
        if interceptors:
            return cell, interceptors
    return path[-1], []


# --- interception ------------------------------------------------------------------------------


def _interception(ctx: Context, force: Force, previous: str, cell: str) -> Flow:
    """Enemy units that intercept the force stepping from ``previous`` into ``cell`` (or none).

    A zone with ``intercepts WHO paying ACTION`` is entered when the force (one of its units
    matching WHO) steps into a cell of the zone of some enemy unit whose zone did not already cover
    ``previous``.  Then the zone's owner may pick any of the units exerting it over ``cell``, paying
    ACTION for each (decision ``interception``: ``intercept ID``, then ``go``; or ``decline``).
    Never in a cell holding other units of the moving side: the battle is the force's, and they
    would be left sharing the cell with the interceptors when it ends.
    """
    mover = ctx.operation.side
    if any(u.side == mover and u not in force.units and is_counter(ctx.rules.unit_type(u.type))
           for u in ctx.state.units_at(cell)):
        return []  # not where other units of its side stand: they would share the cell outside the battle
    for zone in zone_rules(ctx.rules):
        line = zone.decl.first("intercepts")
        if line is None or not any(Rules.unit_matches(ctx.rules.unit_type(u.type), line.get("who"))
                                   for u in force.units):
            continue
        exerting = [u for u in ctx.state.units if u.side != mover and u.on_map and not u.dummy
                    and _type_facts(ctx, u.type)[1] and cell in zone_of(ctx, u, zone)]
        if not any(previous not in zone_of(ctx, u, zone) for u in exerting):
            continue
        action = ctx.rulebook.get("action", str(line.get("action")))
        for owner in dict.fromkeys(u.side for u in exerting):
            picked = yield from _choose_interceptors(ctx, zone.decl, line, action, owner,
                                                     [u for u in exerting if u.side == owner], cell)
            if picked:
                return picked
    return []


def _choose_interceptors(ctx: Context, zone: Declaration, line: Property, action: Declaration, side: str,
                         candidates: list[Unit], cell: str) -> Flow:
    """``side`` picks interceptors among ``candidates`` one at a time while it can pay for one more;
    returns them (paid for), or none when it declines."""
    picked: list[Unit] = []
    spent: tuple[str, Fraction] | None = None
    while True:
        options = [Action("go")] if picked else [Action("decline")]
        for unit in candidates:
            cost = _resource_cost(action.all("cost"), ctx.rules.unit_type(unit.type))
            total = cost[1] + (spent[1] if spent else 0) if cost else None
            if unit not in picked and cost is not None and _affordable(ctx, side, cost[0], total):
                options.append(Action("intercept", (unit.id,)))
        if len(options) == 1 and not picked:
            return []
        choice = yield from ctx.choose(side, "interception", f"{zone.display}: intercept the force entering {cell} "
                                       f"({cite(zone, line)})?", options)
        if choice.kind == "decline":
            return []
        if choice.kind == "go":
            _pay(ctx, side, spent[0], spent[1], f"{action.display}: {', '.join(u.id for u in picked)}")
            return picked
        unit = ctx.state.unit(choice.args[0])
        cost = _resource_cost(action.all("cost"), ctx.rules.unit_type(unit.type))
        spent = (cost[0], cost[1] + (spent[1] if spent else 0))
        picked.append(unit)


def _move_in(ctx: Context, units: list[Unit], cell: str) -> None:
    """Intercepting units move from wherever they are into the force's cell."""
    for unit in units:
        ctx.update_unit(evolve(ctx.state.unit(unit.id), location=cell))
        ctx.say(f"{ctx.label(unit)} intercepts: {unit.location} → {cell}", kind="move", unit=unit.id,
                cell=cell, path=[unit.location, cell])


def _relocate(ctx: Context, units: list[Unit], cell: str, path: tuple[str, ...]) -> None:
    ctx.state = ctx.state.with_units([evolve(ctx.state.unit(u.id), location=cell) for u in units]) \
        if hasattr(ctx.state, "with_units") else _with_each(ctx, units, cell)
    ctx.operation.path = tuple(path)
    ctx.say(f"{', '.join(ctx.label(u) for u in units)} move {' → '.join((path[0], cell)) if path else cell}",
            kind="move", units=[u.id for u in units], cell=cell, path=list(path))
    from .spotting import hide_again

    hide_again(ctx)


def _with_each(ctx: Context, units: list[Unit], cell: str):
    state = ctx.state
    for unit in units:
        state = state.with_unit(evolve(state.unit(unit.id), location=cell))
    return state
