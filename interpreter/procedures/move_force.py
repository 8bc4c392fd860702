"""``move force``: the force a side designated (``interpreter.procedures.operations``) moves.

- **Where it goes.**  Its owner chooses one of the cells the whole force may end in
  (``interpreter.forces.Force.destinations``) and the force takes ``Force.path`` there.  On the
  way it stops early on entering a cell with enemy markers that stop its class (face up ones: a
  face-down counter the side cannot identify is offered as an enemy counter, ``zones.unidentified``,
  so a path never passes one and the force stops only by entering its cell), or where the enemy
  intercepts it
  (``interpreter.procedures.interception``).  A force that ends its move in a cell with enemy
  counters starts a battle there (``ctx.operation.cell``).
- **Drop-offs and going on** (``move force dropping off SELECTOR…``, a class's ``may go on past
  markers``).  The move is a series of legs.  Where a leg ends with no battle, the owner may drop
  units off (``drop UNIT``: those the selectors name, never a unit the force's action is ``led
  by``, only where the unit may end a move and no enemy counter stands, and only while the rest
  still move together), then ``move CELL`` the rest on or ``stop``.  A force stopped by markers
  alone (no enemy unit there; stopped short, or ending its leg in their cell) of a class that may go on past them turns them face up; they meet
  ``revealed``, and the force may go on without a drop; markers it has gone on from do not stop it
  again.  Going on needs a drop or such markers, so a move has at most one leg more than it has
  units and marker cells.  Dropped units leave the force (they take no part in its battle).
- **Exits** (``interpreter.exits``).  A force whose units may all take an ``exit`` is offered
  ``exit NAME`` beside its moves (after a leg, on the terms of ``move CELL``): it walks to the exit
  cell ``force_ways_off`` finds and, if nothing stops it on the way or there, its units still in
  the force step off into the exit's box, scoring ``on exited``; units dropped off stay.
- **Redeployment.**  A force designated for a ``between cells with …`` action moves its one unit
  straight to a cell the action allows.
- **Raids.**  A cell only this turn's ``may enter … on turn N`` opens to the carried units is
  offered one step past where the force may end; the carriers set them down from there.
- **Infiltration.**  A force whose move starts no battle ends its units' moves: those in the
  cells of an ``award … on infiltrated`` score it (``interpreter.infiltration``, shared with
  ``do move``).
- **Reaction moves.**  During a battle the reacting force a side designated flies into the
  contested cell.
"""

from __future__ import annotations

from attrs import evolve

from ...dsl.compiled.calls import MoveForce
from ..actions import Action
from ..context import Context, Flow
from ..control import settle
from . import procedure
from ..caches import rules_cache
from ..costs import cost_table
from ..event_effects import revealed
from ..exits import force_ways_off, step_off
from ..forces import Force, class_of, has_enemy, redeploy_cells
from ..infiltration import infiltrate
from ..situation import stop_markers
from ..state import Unit
from ..zones import is_counter
from .interception import intercept, move_interceptors_in


@procedure("move force")
def move_force(ctx: Context, call: MoveForce) -> Flow:
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
        action = ctx.rules.actions[operation.mode.split(":", 1)[1]]
        cells = redeploy_cells(ctx, action, units[0])
        choice = yield from ctx.choose(side, "redeploy", f"redeploy {units[0].id} to", 
                                       [Action("redeploy", (units[0].id, c)) for c in cells])
        _relocate(ctx, units, choice.args[1], (units[0].location, choice.args[1]))
        return
    force = Force(ctx, units)
    ends = force.destinations()
    if not ends:
        ctx.say(f"the force in {operation.origin} has nowhere to go", kind="operation", side=side)
        return
    ways = force_ways_off(ctx, force)
    choice = yield from ctx.choose(side, "move", f"move the force from {operation.origin} to",
                                   [*_exits(ways), *_moves(ctx, ends)], in_order=not ways and _numbered_alike(ends))
    everyone = list(operation.force)
    met: set[str] = set()  # cells whose markers the force met and went on from (8.4 "on first entering")
    while True:
        way = ways[choice.args[0]] if choice.kind == "exit" else None
        target = way[1] if way else choice.args[0]
        if target == force.units[0].location:  # an exit from where it stands: no leg to walk
            final, units, how = target, force.units, "open"
        else:
            final, units, how = yield from _leg(ctx, force, target, met)
        if way and how == "open" and final == target and units:
            _exit(ctx, units, way[0])
            break
        if how == "ended" or not units:
            break
        choice, ways = yield from _after_leg(ctx, call, final, how == "markers")
        if choice is None:
            break
        force = Force(ctx, [ctx.state.unit(i) for i in operation.force])
        force.destinations()  # read (kept) where it may go: its paths
    here = ctx.state.units_at(final)
    if any(u.side == side for u in here) and any(u.side != side for u in here):  # not if markers sank it all
        operation.cell = final
        ctx.say(f"battle in {final}", kind="operation", cell=final, side=side)
        dropped = [ctx.state.unit(i) for i in everyone if i not in operation.force]
        yield from infiltrate(ctx, [u for u in dropped if u.location != final])
    else:
        yield from infiltrate(ctx, [ctx.state.unit(i) for i in everyone])


def _leg(ctx: Context, force: Force, target: str, met: set[str]) -> Flow:
    """One leg of the force's move, to ``target``: returns where it stopped, its units still there,
    and how the leg ended: ``ended`` (a battle, an interception or a raid ends the move),
    ``markers`` (stopped by markers alone, met: it may go on) or ``open`` (it may drop units off)."""
    units = force.units
    path = force.path(target)
    if target in force.raids:  # the carriers set the raiders down and stay a step short (a reading: ``Force.raids``)
        via = force.raids[target]
        final, interceptors = yield from _walk(ctx, force, path[:-1], met)
        carriers = [u for u in units if u not in force.cargo]
        _relocate(ctx, carriers, final, path[: path.index(final) + 1])
        if final == via and not interceptors:
            _relocate(ctx, force.cargo, target, (via, target))
            final = target
        else:
            _relocate(ctx, force.cargo, final, path[: path.index(final) + 1])
            move_interceptors_in(ctx, interceptors, final)
        return final, [], "ended"
    final, interceptors = yield from _walk(ctx, force, path, met)
    _relocate(ctx, units, final, path[: path.index(final) + 1])
    move_interceptors_in(ctx, interceptors, final)
    if interceptors:
        return final, [], "ended"
    how = "open"
    if _only_markers(ctx, force, final):  # stopped short by them, or entered (face down, they are offered as enemy)
        met.add(final)
        how = "markers"
        yield from _meet_markers(ctx, force, final)
    alive = [u for u in (ctx.state.unit(i) for i in ctx.operation.force) if u.on_map and u.location == final]
    ctx.operation.force = [u.id for u in alive]
    if how == "open" and has_enemy(ctx, ctx.operation.side, final):
        how = "ended"
    return final, alive, how


def _only_markers(ctx: Context, force: Force, cell: str) -> bool:
    """Whether the force stopped in ``cell`` for markers alone, and its class may go on past them
    (``may go on past markers``): no enemy unit stands there, only markers."""
    lead = (force.movers or force.joiners)[0]
    mclass = class_of(ctx, lead)
    if mclass is None or mclass.goes_on_past_markers is None or not stop_markers(ctx, lead, cell):
        return False
    return not any(u.side != lead.side and is_counter(ctx.rules.unit_type(u.type)) for u in ctx.state.units_at(cell))


def _meet_markers(ctx: Context, force: Force, cell: str) -> Flow:
    """The markers that stopped the force turn face up and meet ``revealed`` (their effects act)."""
    lead = (force.movers or force.joiners)[0]
    markers = sorted(stop_markers(ctx, lead, cell), key=lambda u: u.id)
    hidden = [m for m in markers if ctx.state.unit(m.id).hidden]
    for marker in hidden:
        ctx.update_unit(evolve(ctx.state.unit(marker.id), hidden=False))
        ctx.say(f"{ctx.label(ctx.state.unit(marker.id))} revealed: the force stops in {cell}", kind="spot",
                unit=marker.id, cell=cell, spotted=True)
    yield from revealed(ctx, [ctx.state.unit(m.id) for m in hidden])


def _after_leg(ctx: Context, call: MoveForce, cell: str, marked: bool) -> Flow:
    """Where the force stopped without a battle: its owner drops units off (``drop UNIT``), then
    moves the rest on (``move CELL``: after a drop, or past markers it met), takes an exit off the
    map with them (``exit NAME``, on the same terms) or stops there (``stop``).  Returns the ``move``
    or ``exit`` chosen (``None`` when the force stops) and the exits the rest may take."""
    operation, side = ctx.operation, ctx.acting
    dropped = False
    while True:
        units = [ctx.state.unit(i) for i in operation.force]
        options = [Action("drop", (u.id,)) for u in units if _may_drop(ctx, call, units, u, cell)]
        ways = {}
        if dropped or marked:
            rest = Force(ctx, units)
            if units and rest.problem() is None:
                options += _moves(ctx, [c for c in rest.destinations() if c != cell])
                ways = force_ways_off(ctx, rest)
                options += _exits(ways)
        if not options:
            return None, {}
        choice = yield from ctx.choose(side, "move", f"the force at {cell}: drop a unit off, move on or stop",
                                       [*options, _STOP])
        if choice.kind == "stop":
            return None, {}
        if choice.kind in ("move", "exit"):
            return choice, ways
        unit = ctx.state.unit(choice.args[0])
        operation.force.remove(unit.id)
        dropped = True
        ctx.say(f"{ctx.label(unit)} is dropped off at {cell}", kind="drop", unit=unit.id, cell=cell)


_STOP = Action("stop")


def _moves(ctx: Context, cells: list[str]) -> list[Action]:
    """``move CELL`` for each of ``cells``: values, made once per rules and cell, that serve every
    decision and game (a force is offered every cell it may reach)."""
    made = rules_cache(ctx.rules).setdefault("move force options", {})
    try:  # every cell's option made before: the usual case, read in one C loop
        return list(map(made.__getitem__, cells))
    except KeyError:
        for cell in cells:
            if cell not in made:
                made[cell] = Action("move", (cell,))
        return list(map(made.__getitem__, cells))


def _numbered_alike(cells: list[str]) -> bool:
    """Whether ``cells`` (distinct, sorted as text, as ``Force.destinations`` gives them) are in the
    order ``choose`` sorts options in too: numbers of one width, which order as their text does
    (the usual map), so a force's many ``move`` options need not be sorted again."""
    return len(set(map(len, cells))) <= 1 and all(map(str.isdigit, cells))


def _exits(ways: dict) -> list[Action]:
    """``exit NAME`` for each exit the force may take (``interpreter.exits.force_ways_off``)."""
    return [Action("exit", (name,)) for name in ways]


def _exit(ctx: Context, units: list[Unit], rule) -> None:
    """The units still in the force step off the map by ``rule`` (``interpreter.exits.step_off``):
    they leave the force, which has nothing left to fight with."""
    for unit in units:
        step_off(ctx, unit, rule)
    ctx.operation.force = []


def _may_drop(ctx: Context, call: MoveForce, units: list[Unit], unit: Unit, cell: str) -> bool:
    """Whether the force may leave ``unit`` in ``cell`` (``move force dropping off SELECTOR…``): the
    selectors name it, it does not lead the force (its action is ``led by`` it), it may end a move in
    the cell (a carried unit is set down), no enemy counter is there, and the rest still move
    together (a carrier whose lift the cargo needs stays)."""
    if not call.drop or has_enemy(ctx, unit.side, cell):
        return False
    unit_type = ctx.rules.unit_type(unit.type)
    action = ctx.rules.actions.get(ctx.operation.action or "")
    if not unit_type.matches(call.drop) or (action is not None and action.led_by and unit_type.matches(action.led_by)):
        return False
    table = cost_table(ctx.rules, ctx.board, unit.type, ctx.state.turn, ctx.state.weather)
    if cell not in table.cost or (table.must_end is not None and cell not in table.must_end):
        return False  # its move ends where it is left: where it may stand and end (``must end on``)
    rest = Force(ctx, [u for u in units if u.id != unit.id])
    return bool(rest.movers or rest.joiners) and rest.problem() is None


def _walk(ctx: Context, force: Force, path: tuple[str, ...], met: set[str]) -> Flow:
    """Where the force really stops along ``path``, and the enemy units that intercept it there: the
    first cell with enemy markers that stop it (hidden ones too: the mover finds them only on
    entering; not those of ``met`` cells, which it has gone on from), or where the enemy
    intercepts it (``intercept``)."""
    lead = (force.movers or force.joiners)[0]
    for previous, cell in zip(path, path[1:]):
        if cell not in met and stop_markers(ctx, lead, cell):
            return cell, []
        interceptors = yield from intercept(ctx, force, previous, cell)
        if interceptors:
            return cell, interceptors
    return path[-1], []


def _relocate(ctx: Context, units: list[Unit], cell: str, path: tuple[str, ...]) -> None:
    starts = sorted({ctx.state.unit(u.id).location for u in units})
    ctx.state = ctx.state.with_units([evolve(ctx.state.unit(u.id), location=cell) for u in units]) \
        if hasattr(ctx.state, "with_units") else _with_each(ctx, units, cell)
    for where in (*starts, cell):
        settle(ctx, where)  # the cells the force left and entered change hands (``control``)
    walked = ctx.operation.path
    joined = walked and path and walked[-1] == path[0] and ctx.operation.mode == "operation" and not ctx.operation.cell
    ctx.operation.path = (*walked, *path[1:]) if joined else tuple(path)
    ctx.say(f"{', '.join(ctx.label(u) for u in units)} move {' → '.join((path[0], cell)) if path else cell}",
            kind="move", units=[u.id for u in units], cell=cell, path=list(path))
    from .spotting import hide_again

    hide_again(ctx)


def _with_each(ctx: Context, units: list[Unit], cell: str):
    state = ctx.state
    for unit in units:
        state = state.with_unit(evolve(state.unit(unit.id), location=cell))
    return state
