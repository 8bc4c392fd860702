"""Retreats and breaking off: where a unit that must leave a fight may go, and taking it there.

- **Retreat.**  For each retreating unit its owner (or the side the combat's ``retreat chosen by
  attacker|victor`` names) picks, per hex of retreat, an adjacent hex one step further from where
  it started that movement would let it enter (``interpreter.costs``: terrain, its class's
  ``enters only``/``never enters``, its side's ``never enters``), that holds no enemy counter (nor,
  with ``retreat not through friendly units``, a friendly one), that is not in an enemy zone which
  ``blocks retreat`` (a face-down dummy exerts one, as it does for movement: the side cannot tell),
  and that has room under stacking (``interpreter.stacking``).  With ``retreat extended by N when
  overstacked`` only the hex it ends in needs room: where that would be overstacked, the retreat
  goes on, up to N hexes more.  Only hexes from which the retreat can still be completed are
  offered (``RetreatPaths``: look-ahead), so no choice leads into a dead end; a unit with no
  complete retreat, or that never moves, is eliminated where it stands.
- **Break off.**  When the combat has ``break off …`` lines, ``break off ROLE`` moves every
  counter of the role out of the cell (``break_off``): each owner picks, unit by unit, one of
  the places those lines allow (an adjacent cell its class may step to and enter, a cell with
  a friendly counter the line names, the side's box; never a cell holding an enemy counter;
  with ``with carried units`` carried units may follow a carrier that went to a cell, within
  its ``carried with`` capacity); ``never`` counters stay; a unit with nowhere to go stays.
  Without such lines the role's units get the ``broke off`` turn flag (``interpreter.results``;
  what that stops is the calling procedure's business).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from attrs import evolve

from ..dsl.compiled.movement import CarriedWith
from ..dsl.compiled.combat import BreakOff as BreakOffLine, CombatRule, RetreatRule
from .actions import Action
from .citations import cite_first
from .combat import Engagement, eliminate, unit_factor
from .context import Context, Flow
from .costs import cost_table, never_moves
from .flags import BROKE_OFF
from .stacking import stacking_problem
from .state import Unit
from .zones import enemy_zones, is_counter, occupies


DEFAULT_RETREAT = RetreatRule()
"""A combat without ``retreat …`` lines: the owner chooses, through friendly units with room."""

# Where a unit may go is movement's question; ``interpreter.costs``, ``.stacking`` and ``.zones`` answer
# it for retreats too, so moving and retreating read the terrain, class, stacking and zone rules the same way.


def in_enemy_zone(ctx: Context, cell: str, side: str) -> bool:
    """Whether ``cell`` lies in a zone that ``blocks retreat``, exerted by an enemy of ``side``.

    As for movement, a face-down dummy exerts a zone (the side cannot tell it from a unit).
    """
    return cell in enemy_zones(ctx, side, blocking_retreat=True)


def enemy_occupied(ctx: Context, cell: str, side: str) -> bool:
    """Enemy units or dummies (which look like units) in the cell, or face-down counters the side cannot
    identify (``zones.occupies``); markers it sees, such as a revealed trap, do not occupy."""
    return any(u.side != side and occupies(ctx.rules, side, u) for u in ctx.state.units_at(cell))


def entry_problem(ctx: Context, unit: Unit, cell: str) -> str | None:
    """Why ``unit`` may not be put into ``cell`` outside a move (a retreat, an advance after combat):
    enemy counters hold it, or the unit's cost table (this turn's and weather's) bars it; else ``None``."""
    if enemy_occupied(ctx, cell, unit.side):
        return f"{cell} holds enemy counters"
    costs = cost_table(ctx.rules, ctx.board, unit.type, ctx.state.turn, ctx.state.weather)
    if cell not in costs.cost:
        return costs.barred.get(cell, f"{unit.id} may not enter {cell}")
    return None


def retreat_problem(ctx: Context, unit: Unit, cell: str, origin: str | None = None, step: int = 1, *,
                    rule: RetreatRule = DEFAULT_RETREAT, start: str | None = None) -> str | None:
    """Why ``unit`` may not retreat into ``cell`` from ``start`` (where it stands, unless given) as its
    ``step``-th hex away from ``origin``, or ``None``.  Under ``rule``'s extension the hex need not have
    room (``retreat_end_problem`` asks that of the hex a retreat ends in)."""
    origin = origin or unit.location
    start = start or unit.location
    if never_moves(ctx.rules, ctx.rules.unit_type(unit.type)):
        return f"{unit.id} never moves"
    if cell not in ctx.board.graph:
        return f"{cell!r} is not on the map"
    if cell not in set(ctx.board.neighbours(start)):
        return f"{cell} is not adjacent to {start}"
    if ctx.board.distance(origin, cell) != step:
        return f"{cell} is not {step} hex(es) from {origin}, where the retreat began"
    entry = entry_problem(ctx, unit, cell)
    if entry is not None:
        return entry
    if not rule.through_friendly and any(u.side == unit.side and u.id != unit.id and is_counter(
            ctx.rules.unit_type(u.type)) for u in ctx.state.units_at(cell)):
        return f"{cell} holds friendly units, which retreats may not pass through"
    if not rule.extension:
        stacking = stacking_problem(ctx, unit.side, cell, [unit])
        if stacking is not None:
            return stacking
    if in_enemy_zone(ctx, cell, unit.side):
        return f"{cell} is in an enemy zone of control, which blocks retreat"
    return None


def retreat_end_problem(ctx: Context, unit: Unit, cell: str, step: int, distance: int,
                        rule: RetreatRule = DEFAULT_RETREAT) -> str | None:
    """Why a retreat of ``distance`` hexes may not end in ``cell``, its ``step``-th hex, or ``None``."""
    if step < distance:
        return f"the retreat is {distance} hexes"
    return stacking_problem(ctx, unit.side, cell, [unit]) if rule.extension else None


def retreat_cells(ctx: Context, unit: Unit, origin: str | None = None, step: int = 1, *,
                  rule: RetreatRule = DEFAULT_RETREAT, start: str | None = None) -> list[str]:
    """Hexes ``unit`` may retreat into from ``start`` (where it is), as the ``step``-th hex away from ``origin``."""
    start = start or unit.location
    return [c for c in sorted(ctx.board.neighbours(start))
            if retreat_problem(ctx, unit, c, origin, step, rule=rule, start=start) is None]


class RetreatPaths:
    """Look-ahead for one unit's retreat: which hexes lie on a complete retreat (one that ends
    ``distance`` hexes away, or within the rule's extension in a hex with room).

    The hexes of a retreat each lie one hex further from ``origin``, so a hex's step is its
    distance from ``origin`` and whether a retreat completes from it is kept per hex.
    """

    def __init__(self, ctx: Context, unit: Unit, distance: int, rule: RetreatRule):
        self.ctx, self.unit, self.distance, self.rule = ctx, unit, distance, rule
        self.origin = unit.location
        self._completes: dict[str, bool] = {}

    def steps_from(self, cell: str, step: int) -> list[str]:
        """Hexes entered as the ``step``-th hex of the retreat from ``cell`` (complete or not)."""
        return retreat_cells(self.ctx, self.unit, self.origin, step, rule=self.rule, start=cell)

    def ends_in(self, cell: str, step: int) -> bool:
        return retreat_end_problem(self.ctx, self.unit, cell, step, self.distance, self.rule) is None

    def completes(self, cell: str, step: int) -> bool:
        """Whether a retreat standing in ``cell`` after ``step`` hexes can end as the rule allows."""
        known = self._completes.get(cell)
        if known is None:
            known = self.ends_in(cell, step) or (
                step < self.distance + self.rule.extension
                and any(self.completes(c, step + 1) for c in self.steps_from(cell, step + 1)))
            self._completes[cell] = known
        return known

    def options(self, cell: str, step: int) -> list[str]:
        """The hexes offered as the ``step``-th: those from which the retreat can still be completed."""
        return [c for c in self.steps_from(cell, step) if self.completes(c, step)]

    def why_not(self, cell: str, step: int, start: str) -> str | None:
        """Why ``cell`` is not offered as the ``step``-th hex from ``start``, or ``None``."""
        problem = retreat_problem(self.ctx, self.unit, cell, self.origin, step, rule=self.rule, start=start)
        if problem is None and not self.completes(cell, step):
            return f"no retreat of {self.distance} hexes can be completed from {cell}"
        return problem

    def count(self, cell: str | None = None, step: int = 0) -> int:
        """How many complete retreats there are from ``cell`` (perft: each a sequence of offered hexes)."""
        cell = cell or self.origin
        if step and self.ends_in(cell, step):
            return 1
        return sum(self.count(c, step + 1) for c in self.options(cell, step + 1))


def retreat_chooser(ctx: Context, unit: Unit, engagement: Engagement) -> str:
    """The side that picks ``unit``'s retreat hexes under its combat's ``retreat chosen by`` line."""
    chosen_by = engagement.combat.retreat.chosen_by if engagement.combat is not None else "owner"
    if chosen_by == "attacker" and engagement.attacker_side is not None:
        return engagement.attacker_side
    if chosen_by == "victor":
        if unit.id in engagement.defenders and engagement.attacker_side is not None:
            return engagement.attacker_side
        if engagement.battle is not None:
            return engagement.battle.defending_side
        return next((ctx.state.unit(i).side for i in engagement.defenders), unit.side)
    return unit.side


def retreat(ctx: Context, unit: Unit, distance: int, engagement: Engagement) -> Flow:
    """Retreat one unit ``distance`` hexes, the side its combat names choosing each hex (its owner
    unless ``retreat chosen by`` says otherwise); eliminated if it cannot.

    Only hexes from which the retreat can still be completed are offered (``RetreatPaths``), so a
    unit is never led into a dead end while a complete retreat exists, and one with no complete
    retreat is eliminated where it stands.
    """
    unit = ctx.state.unit(unit.id)
    rule = engagement.combat.retreat if engagement.combat is not None else DEFAULT_RETREAT
    paths = RetreatPaths(ctx, unit, distance, rule)
    chooser = retreat_chooser(ctx, unit, engagement)
    # The unit is put down once, where its retreat ends: a hex it passes through under the
    # extension may be overstacked, which no state between decisions may show.
    at, step = unit.location, 0
    while distance > 0 and not (step and paths.ends_in(at, step)):
        step += 1
        cells = paths.options(at, step)
        if not cells:
            why = "no hex to retreat into" if step > 1 or not paths.steps_from(at, step) else \
                f"no retreat of {distance} hex{'es' if distance > 1 else ''} it could complete"
            engagement.eliminated.append(unit.id)
            eliminate(ctx, unit, f"{engagement.reason}: {why}")
            return
        action = yield from ctx.choose(
            chooser, "retreat", f"retreat {unit.id} from {at}", [Action("retreat", (unit.id, c)) for c in cells],
            lambda a, at=at, step=step: paths.why_not(a.args[-1], step, at) if a.kind == "retreat" and a.args
            else None)
        target = action.args[1]
        ctx.say(f"{ctx.label(unit)} retreats from {at} to {target}", kind="combat", unit=unit.id, cell=target)
        engagement.retreated.append((unit.id, at, target))
        at = target
    if at != unit.location:
        ctx.update_unit(evolve(ctx.state.unit(unit.id), location=at))


# --- break off ---------------------------------------------------------------------------------
# A combat's ``break off …`` lines say where units leaving a battle may go (breaking off).


def _line_applies(ctx: Context, line: BreakOffLine, unit: Unit) -> bool:
    unit_type = ctx.rules.unit_type(unit.type)
    if line.markers:
        return unit_type.kind == "marker"
    return not line.who or unit_type.matches(line.who)


def never_breaks_off(ctx: Context, combat: CombatRule, unit: Unit) -> bool:
    """Whether a ``break off never for …`` line keeps ``unit`` where it is."""
    return any(line.to == "never" and _line_applies(ctx, line, unit) for line in combat.break_offs)


def _enemy_counter_in(ctx: Context, cell: str, side: str) -> bool:
    """Any counter of another side, face down or not, unit or marker: a retreat may end where no enemy counter of any kind stands."""
    return any(u.side != side for u in ctx.state.units_at(cell))


def _carried_line(ctx: Context, unit: Unit) -> tuple[CarriedWith, tuple[str, ...]] | None:
    """(``carried with`` line, classes it is ``transported by``) of a carried unit's class, else ``None``."""
    mclass = ctx.rules.movement_of(ctx.rules.unit_type(unit.type))
    if mclass is None or not mclass.needs_transport or mclass.carried_with is None:
        return None
    return mclass.carried_with, mclass.transported_by


def break_off_cells(ctx: Context, combat: CombatRule, unit: Unit) -> list[str]:
    """Cells ``unit`` may break off into by itself (no box, no carrier), in id order.

    ``to adjacent``: a neighbour its class may step to and enter; ``to cells with WHO``: any cell
    holding a friendly counter WHO names that its class may enter.  Never a cell holding an enemy
    counter.
    """
    if never_breaks_off(ctx, combat, unit) or not unit.on_map:
        return []
    table = cost_table(ctx.rules, ctx.board, unit.type, ctx.state.turn, ctx.state.weather)
    if never_moves(ctx.rules, ctx.rules.unit_type(unit.type)):
        return []
    cells: set[str] = set()
    for line in combat.break_offs:
        if line.to not in ("adjacent", "cells") or not _line_applies(ctx, line, unit):
            continue
        if line.to == "adjacent":
            cells.update(c for c in table.adjacency.get(unit.location, ()) if c in table.cost)
        elif line.where:
            cells.update(u.location for u in ctx.state.units_of(unit.side)
                         if u.location != unit.location and u.location in table.cost
                         and ctx.rules.unit_type(u.type).matches(line.where))
    return sorted((c for c in cells if not _enemy_counter_in(ctx, c, unit.side)), key=lambda c: (len(c), c))


def break_off_boxes(ctx: Context, combat: CombatRule, unit: Unit) -> list[str]:
    """Boxes ``unit`` may break off into (``break off to BOX``: any unit, statics too)."""
    if never_breaks_off(ctx, combat, unit):
        return []
    return sorted({line.box for line in combat.break_offs if line.box is not None and _line_applies(ctx, line, unit)})


def break_off(ctx: Context, combat: CombatRule, side: str, units: Sequence[Unit], *, forced: bool,
              reason: str) -> Flow:
    """``side`` breaks off some of ``units`` (all of them when ``forced``, as for a B result).

    One decision per unit, kind ``break off``: ``break-off ID WHERE`` for each place it may go
    (``break_off_cells``, ``break_off_boxes``, and with ``break off with carried units`` a cell a
    carrier of its side went to this break-off with room left for it), and, unless ``forced``,
    ``done`` once one unit has gone.  A forced unit with nowhere to go stays.  A unit that breaks
    off leaves the force of the operation in progress (``ctx.operation``), which ends when no unit
    of its force is left in the contested cell.  Returns the ids that broke off.
    """
    carries = any(line.to == "carried" for line in combat.break_offs)
    cargo_room: dict[tuple[str, str], Fraction] = {}  # (cell, carrier class) -> capacity left
    left = [ctx.state.unit(u.id) for u in units]
    gone: list[str] = []
    cite = cite_first(combat.decl, "break")
    while True:
        left = [ctx.state.unit(u.id) for u in left]
        left = [u for u in left if u.on_map and not never_breaks_off(ctx, combat, u)]
        options = []
        for unit in left:
            places = [*break_off_cells(ctx, combat, unit), *break_off_boxes(ctx, combat, unit)]
            if carries:
                places += [c for c in _cargo_cells(ctx, unit, cargo_room) if c not in places]
            options += [Action("break-off", (unit.id, place)) for place in places]
        if not forced and gone:
            options.append(Action("done"))
        if not options or options == [Action("done")]:
            break
        action = yield from ctx.choose(side, "break off", f"break off from {left[0].location if left else ''}"
                                       f" ({reason}): which unit, and where?", options, in_order=False)
        if action.kind == "done":
            break
        unit = ctx.state.unit(action.args[0])
        place = action.args[1]
        origin = unit.location
        if carries and place in ctx.board.graph:
            _use_cargo_room(ctx, unit, place, cargo_room)
        ctx.update_unit(evolve(unit, location=place, turn_flags=unit.turn_flags | {BROKE_OFF}, mode=None))
        where = f"the {place}" if place not in ctx.board.graph else place
        ctx.say(f"{ctx.label(unit)} breaks off from {origin} to {where} ({reason}; {cite})", kind="combat",
                unit=unit.id, cell=place, side=side)
        gone.append(unit.id)
        left = [u for u in left if u.id != unit.id]
        _leave_operation(ctx, unit.id, origin)
    return gone


def _cargo_cells(ctx: Context, unit: Unit, room: dict[tuple[str, str], Fraction]) -> list[str]:
    """Cells a carried unit may go to with carriers that broke off there, room allowing."""
    carried = _carried_line(ctx, unit)
    if carried is None:
        return []
    line, by = carried
    cost = unit_factor(ctx, unit, line.cost) or Fraction(0)
    table = cost_table(ctx.rules, ctx.board, unit.type, ctx.state.turn, ctx.state.weather)
    return sorted({cell for (cell, mclass), free in room.items()
                   if mclass in by and free >= cost and cell in table.cost}, key=lambda c: (len(c), c))


def _use_cargo_room(ctx: Context, unit: Unit, cell: str, room: dict[tuple[str, str], Fraction]) -> None:
    """Book a carried unit into a carrier's room, or add a carrier's capacity to its cell."""
    carried = _carried_line(ctx, unit)
    if carried is not None:
        line, by = carried
        cost = unit_factor(ctx, unit, line.cost) or Fraction(0)
        for key in sorted(k for k in room if k[0] == cell and k[1] in by):
            if room[key] >= cost:
                room[key] -= cost
                return
        return
    unit_type = ctx.rules.unit_type(unit.type)
    for mclass in ctx.rules.movement_classes.values():
        carried_line = mclass.carried_with
        if carried_line is None:
            continue
        capacity = unit_factor(ctx, unit, carried_line.capacity)
        if capacity and unit_type.movement:
            key = (cell, unit_type.movement)
            room[key] = room.get(key, Fraction(0)) + capacity
            return


def _leave_operation(ctx: Context, unit_id: str, origin: str) -> None:
    """A unit that broke off leaves the operation's force; the operation ends when none is left in its cell."""
    operation = ctx.operation
    if operation is None or operation.cell != origin or unit_id not in operation.force:
        return
    operation.force = [i for i in operation.force if i != unit_id]
    if not any(ctx.state.unit(i).location == operation.cell for i in operation.force):
        operation.ended = True
        ctx.say(f"the attacking force has left {operation.cell}: the operation ends", kind="combat",
                cell=operation.cell)
