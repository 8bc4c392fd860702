"""``move force``: the force a side designated (``interpreter.procedures.operations``) moves.

- **Where it goes.**  Its owner chooses one of the cells the whole force may end in
  (``interpreter.forces.Force.destinations``) and the force takes ``Force.path`` there.  On the
  way it stops early on entering a cell with enemy markers that stop its class (they may be face
  down, so legal moves cannot know them), or where the enemy intercepts it
  (``interpreter.procedures.interception``).  A force that ends its move in a cell with enemy
  counters starts a battle there (``ctx.operation.cell``).
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
from ..forces import Force, redeploy_cells
from ..infiltration import infiltrate
from ..situation import stop_markers
from ..state import Unit
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
    options = [Action("move", (c,)) for c in ends]
    choice = yield from ctx.choose(side, "move", f"move the force from {operation.origin} to", options)
    target = choice.args[0]
    path = force.path(target)
    if target in force.raids:  # the carriers set the raiders down and stay a step short (a reading: ``Force.raids``)
        via = force.raids[target]
        final, interceptors = yield from _walk(ctx, force, path[:-1])
        carriers = [u for u in units if u not in force.cargo]
        _relocate(ctx, carriers, final, path[: path.index(final) + 1])
        if final == via and not interceptors:
            _relocate(ctx, force.cargo, target, (via, target))
            final = target
        else:
            _relocate(ctx, force.cargo, final, path[: path.index(final) + 1])
            move_interceptors_in(ctx, interceptors, final)
    else:
        final, interceptors = yield from _walk(ctx, force, path)
        _relocate(ctx, units, final, path[: path.index(final) + 1])
        move_interceptors_in(ctx, interceptors, final)
    if any(u.side != side for u in ctx.state.units_at(final)):
        operation.cell = final
        ctx.say(f"battle in {final}", kind="operation", cell=final, side=side)
    else:
        yield from infiltrate(ctx, [ctx.state.unit(u.id) for u in units])


def _walk(ctx: Context, force: Force, path: tuple[str, ...]) -> Flow:
    """Where the force really stops along ``path``, and the enemy units that intercept it there: the
    first cell with enemy markers that stop it (hidden ones too: the mover finds them only on
    entering), or where the enemy intercepts it (``intercept``)."""
    lead = (force.movers or force.joiners)[0]
    for previous, cell in zip(path, path[1:]):
        if stop_markers(ctx, lead, cell):
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
