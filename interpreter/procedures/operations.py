"""Operations: a side designates a force in one cell and pays for it (``designate force``); the
force then moves (``move force``: ``interpreter.procedures.move_force``).

These run inside a phase that alternates an operation step between the sides
(``interpreter.flow._alternate``), which opens ``ctx.operation``.  Everything
game-specific comes from declarations; who may be in a force, how it is carried, what it
costs and where it may go are read by ``interpreter.forces``.  Here:

- **Designating.**  The side chooses a cell to ``operate CELL`` from (or passes), adds units one
  at a time (``add UNIT``), then ``go`` (paying the force's operation cost) or ``redeploy``
  (a single carried unit by a ``between cells with …`` action).
- **Strikes.**  An action with ``strike with MARKER…`` offers ``strike CELL`` beside ``operate
  CELL``: support markers alone attack that cell (``interpreter.procedures.battle.strike``).
- **Reaction moves.**  During a battle (a step such as the air sub-phase runs ``designate
  force`` again) only classes that ``react from or to cells with …`` may be designated, and
  only into the contested cell, starting or ending in a cell with a friendly unit named there.
"""

from __future__ import annotations

from fractions import Fraction

from ...dsl.compiled.actions import ActionRule
from ...dsl.compiled.calls import DesignateForce
from ..actions import Action
from ..caches import map_memos
from ..context import Context, Flow
from . import procedure
from ..carrying import addable_units
from ..forces import (Force, can_afford, class_of, force_fits, has_enemy, is_carried, is_movable,
                      joins_any_force, may_take, operation_cost, pay, redeploy_cells, redeploy_cost, took)
from ..rules import Rules
from ..state import Unit
from . import battle


def _actions(ctx: Context, call: DesignateForce, side: str) -> list[ActionRule]:
    """The line's actions the side may take now (``forces.may_take``: its own, and a ``once per
    turn`` one not yet taken this turn)."""
    return [action for name in call.actions
            if (action := ctx.rules.actions.get(name)) is not None and may_take(ctx, action, side)]


# --- designate force -------------------------------------------------------------------------


def _airlifters(ctx: Context, side: str, cell: str | None) -> list[Unit]:
    """Units of a joining class elsewhere on the map than ``cell``: they may fly in to lift."""
    joining = _joining_types(ctx)
    if not joining:
        return []
    return [u for u in ctx.state.units_of(side)  # (``is_movable``: ``units_of`` gives those on the map only)
            if u.type in joining and u.location != cell and not has_enemy(ctx, side, u.location)]


def _joining_types(ctx: Context) -> frozenset[str]:
    """The unit types that may be in a force and whose class ``joins any force``, found once per rules."""
    found = ctx.rules.derived.get("joining force types")
    if found is None:
        found = ctx.rules.derived["joining force types"] = frozenset(
            t for t in ctx.rules.force_types if joins_any_force(ctx.rules.movement_by_type[t]))
    return found


@procedure("designate force")
def designate_force(ctx: Context, call: DesignateForce) -> Flow:
    """Choose a cell, the units of the force and how it goes; pay for it (or pass)."""
    operation, side = ctx.operation, ctx.acting
    if operation is None or side is None:
        return
    actions = _actions(ctx, call, side)
    if not actions or operation.ended or operation.passed:
        return
    strikes = [a for a in actions if a.strike_with]
    actions = [a for a in actions if not a.strike_with]
    if operation.fighting():
        if not (operation.mode == "strike" and side == operation.side):  # a strike is markers alone
            yield from _designate_reaction(ctx, actions, side)
        return
    if operation.force:
        return  # designated already: this line belongs to a later sub-phase of a battle that is over
    failed: set[str] = set()  # cells where no force could be formed: not offered again
    while True:
        movable = ctx.rules.force_types  # (``is_movable``: ``units_of`` gives those on the map only)
        held = {u.location for u in ctx.state.units_of(side) if u.type in movable} - failed
        cells = sorted([c for c in held if not has_enemy(ctx, side, c)])  # (once a cell, not once a unit)
        asked = _Designation(ctx, side)
        # Listed as ``choose`` orders them (operate, pass, strike), so that it need not sort them again.
        options = [Action("operate", (c,)) for c in cells if _could_operate(ctx, actions, side, c, asked)]
        options += [_PASS, *(Action("strike", (c,)) for c in battle.strike_cells(ctx, strikes, side))]
        # Resumable on the first ask: nothing is logged or changed before it, so this procedure
        # started again on the operation as it stands asks it again (not after a cell ``failed``).
        choice = yield from ctx.choose(side, "operation", "choose a cell to operate from or to strike, or pass",
                                       options, resume=not failed)
        if choice.kind == "pass":
            operation.passed = True
            ctx.say(f"{ctx.shown('side', side)} passes", kind="operation", side=side)
            return
        if choice.kind == "strike":
            yield from battle.strike(ctx, strikes, side, choice.args[0])
            return
        chosen = yield from _choose_force(ctx, actions, side, choice.args[0])
        if chosen:
            return
        failed.add(choice.args[0])


_PASS = Action("pass")


class _Designation:
    """What one designation decision reads of the state for every cell it offers, found once and
    only when a cell needs it: the side's airlifters, and what the side holds of each resource."""

    def __init__(self, ctx: Context, side: str):
        self.ctx, self.side = ctx, side
        self._all: list[Unit] | None = None
        self._types: tuple[str, ...] | None = None
        self._lifting: frozenset[str] = frozenset()
        self.asked = 0
        """How many times ``besides`` was asked (an answer that read it depends on other cells)."""
        self._held: dict[str, Fraction] = {}
        self._key: tuple | None = None

    def key(self, actions: list[ActionRule]) -> tuple:
        """What a cell's kept costs were worked out for besides its counters: the actions' names
        and the scenario's year (the same for every cell of one decision, so made once)."""
        if self._key is None or self._key[0] is not actions:
            self._key = (actions, (tuple([a.name for a in actions]), getattr(self.ctx.scenario, "year", None)))
        return self._key[1]

    def affords_any(self, costs: tuple[tuple[str, Fraction], ...]) -> bool:
        """Whether the side holds enough for one of ``costs`` (``forces.can_afford``, with each
        resource's holding read once: cells ask of the same few)."""
        held = self._held
        for resource, amount in costs:
            have = held.get(resource)
            if have is None:
                have = held[resource] = self.ctx.state.resource(self.side, resource)
            if have >= amount:
                return True
        return False

    def _airlifters(self) -> list[Unit]:
        if self._all is None:
            self._all = _airlifters(self.ctx, self.side, None)
            self._types = tuple([u.type for u in self._all])
            self._lifting = frozenset([u.location for u in self._all])
        return self._all

    def besides(self, cell: str) -> list[Unit]:
        self.asked += 1
        return [u for u in self._airlifters() if u.location != cell]

    def types_besides(self, cell: str) -> tuple[str, ...]:
        """The types of ``besides(cell)``, in order: all a one-unit force's costs read of them
        (``force_fits`` and ``operation_cost`` go by types); not counted as an ask."""
        everyone = self._airlifters()
        if cell not in self._lifting:
            return self._types  # (no airlifter there: the same for most cells, made once)
        return tuple([u.type for u in everyone if u.location != cell])


def _could_operate(ctx: Context, actions: list[ActionRule], side: str, cell: str,
                   designation: _Designation | None = None) -> bool:
    """Whether some one-unit force in ``cell`` (or an airlift of it) is affordable.

    What such forces would cost is kept per rules and map, by side and cell, while the types of
    the side's counters there that may move (all the costs read of them), the actions and the
    year are the same: a side asks this of every cell it holds at each designation, and most of
    them have not changed since its last one.  Costs that looked at airlifters elsewhere are kept
    with the types of those airlifters (all they read of them), and hold while those are the
    same.  (Kept by types, not by the cell's counters: a memo holding those would keep every
    game's counters alive, for the garbage collector to walk.)"""
    memo = map_memos(ctx.rules, ctx.board).could_operate
    designation = designation or _Designation(ctx, side)
    key = designation.key(actions)
    here = ctx.state.units_at(cell)
    types = _movable_types(ctx, side, here)
    known = memo.get((side, cell))
    if known is not None and known[0] == types and known[1] == key and (
            known[3] is None or known[3] == designation.types_besides(cell)):
        costs = known[2]
    else:
        asked = designation.asked
        costs = _operation_costs(ctx, actions, side, cell, here, designation)
        memo[side, cell] = (types, key, costs, designation.types_besides(cell) if designation.asked != asked else None)
    return designation.affords_any(costs)


def _movable_types(ctx: Context, side: str, here) -> tuple[str, ...]:
    """The types of the side's counters in ``here`` that may be in a force, in order: all
    ``_operation_costs`` reads of them."""
    movable = ctx.rules.force_types
    return tuple([u.type for u in here if u.side == side and u.type in movable and u.on_map])


def _operation_costs(ctx: Context, actions: list[ActionRule], side: str, cell: str, here,
                     airlifters: _Designation) -> tuple[tuple[str, Fraction], ...]:
    """(resource, amount) of each one-unit force in ``cell`` (or an airlift of it) that fits and
    that an action prices, one per unit type."""
    here = [u for u in here if u.side == side and is_movable(ctx, u)]
    seen: set[str] = set()
    costs = []
    for unit in here:
        if unit.type in seen:
            continue
        seen.add(unit.type)
        units = [unit]
        if is_carried(class_of(ctx, unit)):
            lifters = [u for u in here if not is_carried(class_of(ctx, u))] or airlifters.besides(cell)
            if not force_fits(ctx, [unit, *lifters]):
                continue
            units = [unit, *lifters]
        cost = operation_cost(ctx, actions, units)
        if cost is not None:
            costs.append((cost[0], cost[1]))
    return tuple(costs)



def _choose_force(ctx: Context, actions: list[ActionRule], side: str, cell: str) -> Flow:
    """Add units one at a time, then ``go`` (or ``redeploy``); returns whether a force was designated."""
    operation = ctx.operation
    picked: list[str] = []
    redeploy = [a for a in actions if a.between is not None]
    while True:
        units = [ctx.state.unit(i) for i in picked]
        force = Force(ctx, units)
        here = [u for u in ctx.state.units_at(cell) if u.side == side and is_movable(ctx, u) and u.id not in picked]
        addable = list(here)
        if force.cargo and not force.movers or force.liftable:  # 8.9: airlifters come to the cell
            addable += [u for u in _airlifters(ctx, side, cell) if u.id not in picked]
        options = [Action("add", (u.id,)) for u in addable_units(ctx, force, addable)]
        cost = operation_cost(ctx, actions, units) if units else None
        if (units and force.fits() and cost is not None and can_afford(ctx, side, cost[0], cost[1])
                and force.can_move()):
            options.append(Action("go"))
        for action in redeploy:
            price = redeploy_cost(ctx, action, units[0]) if len(units) == 1 else None
            if price is not None and can_afford(ctx, side, *price) and redeploy_cells(ctx, action, units[0]):
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
            operation.action = name
            pay(ctx, side, resource, amount, f"{ctx.rules.actions[name].label}: {', '.join(picked)}")
            took(ctx, ctx.rules.actions[name], side)
        else:
            action = next(a for a in redeploy if redeploy_cost(ctx, a, units[0]) is not None)
            resource, amount = redeploy_cost(ctx, action, units[0])
            operation.mode = f"redeploy:{action.name}"
            pay(ctx, side, resource, amount, f"{action.label}: {picked[0]}")
            took(ctx, action, side)
        ctx.say(f"{ctx.shown('side', side)} designates {', '.join(ctx.label(u) for u in units)} in {cell}",
                kind="operation", side=side, cell=cell, force=list(picked))
        return True


def _designate_reaction(ctx: Context, actions: list[ActionRule], side: str) -> Flow:
    """During a battle: a force of reacting classes flies into the contested cell (or none does)."""
    operation = ctx.operation
    target = operation.cell
    cells = sorted({u.location for u in ctx.state.units_of(side)
                    if is_movable(ctx, u) and _reacts(ctx, u) and u.location != target
                    and not has_enemy(ctx, side, u.location) and _reaction_allowed(ctx, u, target)})
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
        here = [u for u in ctx.state.units_at(cell) if u.side == side and is_movable(ctx, u) and u.id not in picked
                and (_reacts(ctx, u) or is_carried(class_of(ctx, u)))]
        options = [Action("add", (u.id,)) for u in here]
        cost = operation_cost(ctx, actions, units) if units else None
        if (units and force.fits() and not force.movers and cost is not None
                and can_afford(ctx, side, cost[0], cost[1]) and target in force.destinations()):
            options.append(Action("go"))
        if not options:
            return
        choice = yield from ctx.choose(side, "force", f"designate the reacting force in {cell}", options)
        if choice.kind == "add":
            picked.append(choice.args[0])
            continue
        resource, amount, name = cost
        pay(ctx, side, resource, amount, f"{ctx.rules.actions[name].label}: {', '.join(picked)}")
        took(ctx, ctx.rules.actions[name], side)
        operation.moving = list(picked)
        ctx.say(f"{ctx.shown('side', side)} reacts with {', '.join(ctx.label(u) for u in units)} from {cell}",
                kind="operation", side=side, cell=cell, force=list(picked))
        return


def _reacts(ctx: Context, unit: Unit) -> bool:
    mclass = class_of(ctx, unit)
    return mclass is not None and mclass.reacts


def _reaction_allowed(ctx: Context, unit: Unit, target: str) -> bool:
    who = class_of(ctx, unit).reacts_with

    def holds(cell: str) -> bool:
        return any(u.side == unit.side and Rules.unit_matches(ctx.rules.unit_type(u.type), who)
                   for u in ctx.state.units_at(cell))

    return holds(unit.location) or holds(target)


