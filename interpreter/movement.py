"""Movement: where a unit may go this move, what it costs, and the path it takes.

Three layers, each cheap enough for the one above it:

1. ``cost_table(rules, board, type)`` (``interpreter.costs``) compiles, once per rules, map and
   unit type, what every cell costs that type to enter and the neighbours it may step to.
2. ``situation(world, side)`` (``interpreter.situation``) reads what the other sides put in the
   way: cells holding enemy counters, cells in enemy zones of control (``interpreter.zones``),
   cells with markers that stop the side's units.
3. ``search(world, unit)``, here, is Dijkstra with a cutoff at the unit's points over
   those two (``interpreter.pathfinding``: one list per cost rather than a heap, the costs
   being small whole numbers); no rule is evaluated in its inner loop.  ``reachable`` gives the
   cells it may end its move in, with their cost; the side's own stacks there
   come from the state's index of its units on the map (``interpreter.stacking``).

Readings of the rules language (each a choice where the language leaves one):

- **Enemy counters.**  An enemy cell is passed through by a class that ``ignores
  enemy``; otherwise it is barred when a ``stacking`` says ``enemy cells forbidden``,
  entered and stopped in when the class ``stops on entering enemy``, and passed
  through otherwise.  Carried units are never set down in one.
- **Zones of control** stop a unit entering one when the zone ``stops movement`` or
  its class ``stops on entering enemy zone`` (unless the zone is ``ignored by`` it);
  a unit starting in a ``zone to zone`` zone may step straight into another by
  spending all its points (``interpreter.zones`` has the whole reading).
- **Canonical path**: the cheapest path; among equally cheap ones each cell's
  predecessor is the one with the lowest cell id.  WATCH fire and hidden markers
  are met along it.

Limits: ``combines with``, ``joins any force`` and forces of several units are
not handled here (one unit moves at a time; ``interpreter.procedures.operations`` moves forces).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from fractions import Fraction
from typing import Any, NamedTuple

from .board import Board
from .caches import map_memos, rules_cache
from .cells import adjacency
from .citations import because
from .pathfinding import cheapest_costs
from .costs import UNLIMITED, CostTable, allowance, cost_table, moving_conditions, table_key
from .rules import Rules
from .situation import Situation, situation, stop_markers
from .stacking import enemy_cells_forbidden, safe_stack_size, stacking_problem, stacks_badly
from .state import Unit
from .world import World
from .zones import ZoneRule, has_zone_to_zone, zone_rules


ZERO = Fraction(0)
_NO_CELLS: frozenset[str] = frozenset()


class Reach:
    """Where one unit may go this move: costs, canonical paths, and the cells it may end in."""

    def __init__(self, unit: Unit, table: CostTable, points: Fraction | None, dist: dict[str, int],
                 parent: dict[str, str] | None, stops: set[str], ends: dict[str, Fraction],
                 zone_step: tuple[Mapping[str, ZoneRule], int] | None = None):
        self.unit = unit
        self.start = unit.location
        self.table = table
        self.points = points
        """The points the search allowed (``None``: unlimited)."""
        self.dist = dist
        """Every cell reached (ends and cells only passed through), scaled cost."""
        self._parents = parent
        """Each cell's predecessor on its canonical path, or ``None`` to find them when asked."""
        self.stops = stops
        """Reached cells where the move must stop (an enemy zone, a stopping marker …)."""
        self.ends = ends
        """Cells the move may end in, with their cost in movement points."""
        self._zone_step = zone_step
        """(zone, budget) when a first step into the zone took the whole budget (zone to zone)."""

    @property
    def parent(self) -> dict[str, str]:
        """Each reached cell's predecessor on its canonical path (the start has none)."""
        return {cell: self._parent_of(cell) for cell in self.dist if cell != self.start}

    def _parent_of(self, cell: str) -> str:
        """The lowest-id cell the search reached ``cell`` from at its cost: an expanded cell (the
        start, or one where the move need not stop) next to it whose cost plus the step equals it.

        Found when asked, since most searches never walk a path (every predecessor of a cell is
        known once its cost is, so this is the parent the search itself would have kept)."""
        if self._parents is None:
            self._parents = {}
        found = self._parents.get(cell)
        if found is None:
            dist, table, start = self.dist, self.table, self.start
            want, step = dist[cell], table.cost[cell]
            crossing = table.crossing
            for p in table.adjacency[cell]:  # in id order: the first that fits is the lowest
                had = dist.get(p)
                if had is None or (p != start and p in self.stops) or cell not in table.adjacency[p]:
                    continue
                if crossing:  # a feature on the edge may change the step's cost, or bar it
                    step = table.step_cost(p, cell)
                    if step is None:
                        continue
                if p == start and self._zone_step is not None and cell in self._zone_step[0]:
                    if step <= self._zone_step[1] == want:  # an affordable step that took every point
                        found = p
                        break
                elif had + step == want:
                    found = p
                    break
            self._parents[cell] = found
        return found

    def cost(self, cell: str) -> Fraction:
        return self.table.points(self.dist[cell])

    def path(self, cell: str) -> tuple[str, ...]:
        """The canonical path from the start to ``cell``, both included."""
        out = [cell]
        while out[-1] != self.start:
            out.append(self._parent_of(out[-1]))
        return tuple(reversed(out))

    def points_left(self, cell: str) -> Fraction | None:
        """Points the unit has left after moving to ``cell``: none when it had to stop there."""
        if self.points is None:
            return ZERO if cell in self.stops else None
        if cell in self.stops:
            return ZERO
        if self.points is self.table.allowance:
            # The whole allowance is a whole number of table units, so what is left is too.
            return self.table.points(self.table.full_budget - self.dist[cell])
        return self.points - self.cost(cell)


class UnionReach(Reach):
    """Several searches as one (a dummy moves as any of its side's unit types could): the cheapest wins."""

    def __init__(self, unit: Unit, reaches: list[Reach]):
        self.unit, self.start = unit, unit.location
        self.reaches = reaches
        self.via: dict[str, Reach] = {}
        for reach in reaches:
            for cell in reach.ends:
                best = self.via.get(cell)
                if best is None or reach.ends[cell] < best.ends[cell]:
                    self.via[cell] = reach
        self.ends = {cell: reach.ends[cell] for cell, reach in sorted(self.via.items())}
        self.stops = {cell for cell, reach in self.via.items() if cell in reach.stops}
        self.points = reaches[0].points if reaches else Fraction(0)

    def cost(self, cell: str) -> Fraction:
        return self.ends[cell]

    def path(self, cell: str) -> tuple[str, ...]:
        return self.via[cell].path(cell)

    def points_left(self, cell: str) -> Fraction | None:
        return Fraction(0)


def proxies(rules: Rules, unit: Unit, using: str | None = None, only: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The types a counter moves as: its own, or for a dummy without a movement class every unit type
    of its side that can move (so a dummy's moves never tell it from a unit) and that ``only`` names
    (when it names any: ``do move only WHO…``); each as movement class ``using`` when given
    (``do move using CLASS``: ``Rules.moving_as``)."""
    unit_type = rules.unit_type(unit.type)
    if not (unit_type.dummy and unit_type.movement is None):
        return (unit.type if using is None else rules.moving_as[unit.type, using],)
    names = (t.name for t in rules.unit_types.values()
             if t.kind == "unit" and t.side == unit.side and (not only or t.matches(only)))
    if using is not None:
        names = (rules.moving_as[name, using] for name in names)
    return tuple(sorted(n for n in names if allowance(rules, rules.unit_type(n)) != 0))


def _search_profile(rules: Rules, type_name: str) -> tuple[bool, bool, bool, bool, bool, bool]:
    """What a type's movement class says about enemies, read once per ``Rules`` and type:
    (``ignores enemy``, ``stops on entering enemy``, ``stops on entering enemy zone``, whether
    every zone in force stops it, ``avoids cells next to enemy``, ``avoids enemy zones``).  A
    rulebook does not change while its ``Rules`` lives."""
    cache = rules_cache(rules).setdefault("search_profile", {})
    found = cache.get(type_name)
    if found is None:
        unit_type = rules.unit_type(type_name)
        mclass = rules.movement_of(unit_type)
        ignores_enemy = mclass is not None and mclass.ignores_enemy
        enemy_stops = mclass is not None and mclass.stops_on_enemy
        class_zone = mclass is not None and mclass.stops_on_enemy_zone
        all_stop = all((z.stops or class_zone) and not z.is_ignored_by(unit_type) for z in zone_rules(rules))
        found = cache[type_name] = (ignores_enemy, enemy_stops, class_zone, all_stop,
                                    mclass is not None and mclass.avoids_enemy,
                                    mclass is not None and mclass.avoids_zones)
    return found


class _Plan(NamedTuple):
    """What a search of one unit type reads from the rules, gathered once per ``Rules``, map and type."""

    table: CostTable
    ignores_enemy: bool
    enemy_stops: bool
    class_zone: bool
    all_zones_stop: bool
    avoids_enemy: bool
    """``avoids cells next to enemy``: such cells are barred, and a unit starting in one stays."""
    avoids_zones: bool
    """``avoids enemy zones``: so are the cells of enemy zones that do not ignore it."""
    enemy_cells_barred: bool
    """A ``stacking`` says ``enemy cells forbidden``."""
    zone_to_zone: bool
    """Some zone in force says ``zone to zone``."""
    alone_ok: bool
    """One counter of the type, alone in a cell, breaks no stacking rule."""
    safe_stack: float
    """So many counters together break no stacking rule checked on moves."""
    crowded: dict[tuple[str, ...], bool]
    """Whether a counter of the first type arriving beside counters of the other types (in
    ``units`` order) breaks a stacking rule, as searches have found it (``StackRule`` reads the
    types alone)."""


def _plan(rules: Rules, board: Board, type_name: str, turn: int | None = None, weather: str | None = None) -> _Plan:
    """The type's plan, kept by ``table_key``, and by the type's name alone when its table never
    depends on the turn or the weather (most types: a shorter lookup than ``table_key``'s); by the
    type, turn and weather asked otherwise.  (By type and turn for every type, these grew with the
    game: 53 keys, 5 KiB, by the end of the smallest shipped scenario.)"""
    cache = map_memos(rules, board).plans
    found = cache.get(type_name)
    if found is None:
        found = cache.get((type_name, turn, 0, weather))
    if found is not None:
        return found
    key = table_key(rules, type_name, turn, weather)
    found = cache.get(key)
    if found is None:
        table = cost_table(rules, board, type_name, turn, weather)
        lone = [Unit("", type_name, "", "")]
        found = cache[key] = _Plan(table, *_search_profile(rules, type_name),
                                         enemy_cells_forbidden(rules) is not None, has_zone_to_zone(rules),
                                         not stacks_badly(rules, lone, lone), safe_stack_size(rules), {})
    if rules.unit_type(type_name).may_enter_turns or moving_conditions(rules, type_name):
        cache[type_name, turn, 0, weather] = found
    else:
        cache[type_name] = found
    return found


def search(world: World, unit: Unit, points: Fraction | None | str = "full", *, cargo: Iterable[Unit] = (),
           omniscient: bool = False, ignore_stops: bool = False, as_type: str | None = None,
           sit: Situation | None = None) -> Reach:
    """Dijkstra from the unit's cell with a cutoff at ``points`` (``"full"``: its whole allowance).

    ``cargo`` are units it carries: they end the move with it (stacking, no enemy cell).
    ``ignore_stops`` lets zones and markers pass (for explanations), ``as_type`` moves it as
    another type.  Dummies without a movement class: use ``reach``.

    The answer is kept with the situation while the state's units and turn are the same (what
    it reads of the state): a force's destinations are asked as each unit is added to it, and
    again when it moves.  Callers only read it.
    """
    sit = sit or situation(world, unit.side, omniscient=omniscient)
    cargo = tuple(cargo)
    units, turn = world.state.units, (world.state.turn, world.state.weather)
    memo = sit.known.get("searches")
    if memo is None or memo[0] is not units or memo[1] != turn:
        memo = sit.known["searches"] = (units, turn, {})
    # By the unit's identity, not its value: the answer holds the unit (``Reach.unit``), so the id
    # stays its own while the answer is kept, and a unit hashed by its eleven fields twice a search
    # cost more than the rare search asked again for an equal unit of another state saves.
    key = (id(unit), points, cargo, omniscient, ignore_stops, as_type)
    searches = memo[2]
    found = searches.get(key)
    if found is None:
        found = searches[key] = _search(world, unit, points, cargo, omniscient, ignore_stops, as_type, sit)
    return found


def _search(world: World, unit: Unit, points: Fraction | None | str, cargo: tuple[Unit, ...], omniscient: bool,
            ignore_stops: bool, as_type: str | None, sit: Situation) -> Reach:
    """``search``, afresh."""
    rules, board = world.rules, world.board
    plan = _plan(rules, board, as_type or unit.type, world.state.turn, world.state.weather)
    table = plan.table
    if type(points) is str and points == "full":  # (comparing a Fraction with a str is slow)
        points = table.allowance
    if points is not UNLIMITED and table.allowance is UNLIMITED:
        points = UNLIMITED
    budget = table.full_budget if points is table.allowance else table.scaled(points)  # (``scaled``'s first case)
    blocked: frozenset[str] = _NO_CELLS
    extra: set[str] = set()  # cells that stop the move besides zones
    if not plan.ignores_enemy:
        if plan.enemy_cells_barred:
            blocked = sit.enemy_cells
        elif plan.enemy_stops:
            extra |= sit.enemy_cells
    if ignore_stops:
        zone: Mapping[str, ZoneRule] = {}
        zone_cells: frozenset[str] = _NO_CELLS
    elif plan.all_zones_stop:
        zone = sit.zone  # every zone stops this type: no need to filter cell by cell
        zone_cells = sit.zone_cells
    else:
        zone = {c: z for c, z in sit.zone.items()
                if (z.stops or plan.class_zone)
                and not z.is_ignored_by(rules.unit_type(as_type or unit.type))}
        zone_cells = frozenset(zone)
    marked: frozenset[str] = _NO_CELLS
    if not ignore_stops and sit.markers:
        marked = _marker_stops(world, unit, sit, omniscient)
        if unit.location in marked:
            marked = marked.difference((unit.location,))
    # Read by membership only; frozen, so the search memo (``cheapest_costs``) keys by it as it is.
    stop: Collection[str] = zone_cells
    if extra and not marked and zone_cells is sit.zone_cells:  # enemy cells and every zone: kept
        stop = sit.known.get("enemy cells and zones")
        if stop is None:
            stop = sit.known["enemy cells and zones"] = zone_cells.union(extra)
    elif extra or marked:
        stop = zone_cells.union(extra, marked)
    zone_to_zone = plan.zone_to_zone and unit.location in zone and any(z.zone_to_zone for z in zone.values())

    start = unit.location
    if plan.avoids_enemy or plan.avoids_zones:
        avoided = avoided_cells(world, sit, as_type or unit.type)
        if start in avoided:
            budget = 0  # it may not start here: it stays
        blocked = blocked.union(avoided)
    dist, parent, reached_stops = cheapest_costs(table, start, budget, blocked, stop, zone if zone_to_zone else None)
    zone_step = (zone, budget) if zone_to_zone and budget is not None else None

    # Where the move may end.
    cargo = list(cargo)
    arriving = [unit, *cargo]
    must_end = table.must_end
    alone = plan.alone_ok if not cargo else not stacks_badly(rules, arriving, arriving)
    own = sit.side
    values = table.point_list
    usual = not cargo and must_end is None and alone
    if usual and not (budget is not None and budget < len(values)):
        # No budget (or a huge one): the points of the costs reached, listed here.
        top = max(dist.values())
        values = [table.points(n) for n in range(top + 1)] if top <= _POINTS_LISTED else []
        usual = bool(values)
    if usual:
        # The usual case: every cell reached, less the start and the cells the side's counters
        # there make too crowded.  Only the reached cells that hold more counters than any stack
        # may safely take are looked at: the state's index of units by cell met with the cells
        # reached in one set intersection (in C, over the smaller of the two), so a search costs
        # the same on a side of 6 or of 600 units.
        ends = dict(zip(dist, map(values.__getitem__, dist.values())))  # {cell: values[d]}, in C
        del ends[start]
        by_cell = world.state.units_by_cell()
        safe = plan.safe_stack - 1
        crowded = plan.crowded
        for cell in ends.keys() & by_cell.keys():
            here = by_cell[cell]
            if len(here) <= safe:
                continue
            mine = []  # (a loop: no comprehension's frame for each stack met)
            for other in here:
                if other.side == own and other.id != unit.id:
                    mine.append(other)
            here = mine
            if len(here) > safe:
                key = (unit.type, *[u.type for u in here])
                bad = crowded.get(key)
                if bad is None:
                    bad = crowded[key] = stacks_badly(rules, [*here, unit], arriving)
                if bad:
                    del ends[cell]
        return Reach(unit, table, points, dist, parent, reached_stops, ends, zone_step)
    # The side's own counters where the move could end, from the state's index of units by cell.
    by_cell = world.state.units_by_cell()
    gone = {u.id for u in arriving}
    ends = {}
    points_of, known_points = table.points, table.point_values
    # Carried units are set down where the carrier ends: only where they could stand.
    cargo_costs = [cost_table(rules, board, u.type, world.state.turn, world.state.weather).cost
                   for u in cargo if not u.dummy]
    for cell, d in dist.items():
        if cell == start or (must_end is not None and cell not in must_end):
            continue
        if cargo and (cell in sit.enemy_cells or any(cell not in costs for costs in cargo_costs)):
            continue
        here = by_cell.get(cell)
        if here:
            here = [u for u in here if u.side == own and u.id not in gone]
        if here:
            if stacks_badly(rules, [*here, *arriving], arriving):
                continue
        elif not alone:
            continue
        value = known_points.get(d)
        ends[cell] = value if value is not None else points_of(d)
    return Reach(unit, table, points, dist, parent, reached_stops, ends, zone_step)


def avoided_cells(world: World, sit: Situation, type_name: str) -> frozenset[str]:
    """The cells a type's class ``avoids`` in ``sit``: those holding or next to an enemy counter
    (``avoids cells next to enemy``), those in an enemy zone that does not ignore it (``avoids enemy
    zones``); kept on the situation, by type."""
    key = ("avoided", type_name)
    found = sit.known.get(key)
    if found is None:
        rules = world.rules
        unit_type = rules.unit_type(type_name)
        mclass = rules.movement_of(unit_type)
        cells: set[str] = set()
        if mclass is not None and mclass.avoids_enemy:
            around = adjacency(world.board)
            cells.update(sit.enemy_cells)
            for cell in sit.enemy_cells:
                cells.update(around[cell])
        if mclass is not None and mclass.avoids_zones:
            cells.update(c for c, z in sit.zone.items() if not z.is_ignored_by(unit_type))
        found = sit.known[key] = frozenset(cells)
    return found


_POINTS_LISTED = 4096
"""A search without a budget lists the points of the costs it reached when they are at most this."""


def _marker_stops(world: World, unit: Unit, sit: Situation, omniscient: bool) -> frozenset[str]:
    """The cells of ``sit.markers`` whose markers stop ``unit`` (``stop_markers``), its own cell
    perhaps among them.  For a unit that is no marker they depend on its type and side only (and
    its own cell, which a search leaves out), so they are kept on the situation while the state's
    units are the same."""
    units = world.state.units
    key = ("marker stops", unit.type, unit.side, omniscient)
    found = sit.known.get(key)
    if found is not None and found[0] is units:
        return found[1]
    cells = frozenset(c for c in sit.markers if stop_markers(world, unit, c, known_only=not omniscient))
    if world.rules.unit_type(unit.type).kind != "marker":  # (a marker moving: never kept)
        sit.known[key] = (units, cells)
    return cells


def reach(world: World, unit: Unit, points: Fraction | None | str = "full", *, using: str | None = None,
          only: tuple[str, ...] = (), **options: Any) -> Reach:
    """``search`` for any counter, dummies included (a ``UnionReach`` over its side's unit types),
    as movement class ``using`` when given (``proxies``)."""
    unit_type = world.rules.unit_type(unit.type)
    if not (unit_type.dummy and unit_type.movement is None):  # it moves as itself (``proxies``)
        if using is not None:
            options["as_type"] = world.rules.moving_as[unit.type, using]
        return search(world, unit, points, **options)
    types = proxies(world.rules, unit, using, only)
    sit = options.pop("sit", None) or situation(world, unit.side, omniscient=options.get("omniscient", False))
    return UnionReach(unit, [search(world, unit, "full", as_type=t, sit=sit, **options) for t in types])


def entering(world: World, unit: Unit, cell: str, *, as_type: str | None = None) -> Fraction | None | str:
    """What entering the map at ``cell`` leaves ``unit`` (a counter off the map, as type ``as_type``
    when given): its allowance less the cell's cost (``None``: unlimited), ``ZERO`` when an enemy zone
    or counter there stops it; ``"blocked"`` when it may not enter there now: the type may not enter
    the cell (terrain, turn, weather), an enemy counter stands there, its class ``avoids`` the cell,
    or the cost is more than its whole allowance.  No hexside is crossed: it comes from off the map."""
    rules = world.rules
    type_name = as_type or unit.type
    plan = _plan(rules, world.board, type_name, world.state.turn, world.state.weather)
    table = plan.table
    sit = situation(world, unit.side)
    scaled = table.cost.get(cell)
    if scaled is None or cell in sit.enemy_cells or \
            ((plan.avoids_enemy or plan.avoids_zones) and cell in avoided_cells(world, sit, type_name)):
        return BLOCKED
    if table.allowance is None:
        left = None
    elif scaled > table.full_budget:
        return BLOCKED
    else:
        left = table.points(table.full_budget - scaled)
    zone = sit.zone.get(cell)
    if zone is not None and (zone.stops or plan.class_zone) and not zone.is_ignored_by(rules.unit_type(type_name)):
        return ZERO
    return left


BLOCKED = "blocked"
"""``entering``'s answer for a cell a counter may not enter the map at."""


def reachable(world: World, unit: Unit, points: Fraction | None | str = "full", **options: Any) -> dict[str, Fraction]:
    """The cells ``unit`` may end its move in, with what reaching each costs.

    For example ``reachable(ctx, ctx.state.unit("A1"))`` → ``{"0102": Fraction(1), …}``.
    """
    return reach(world, unit, points, **options).ends


def explain(world: World, unit: Unit, cell: str, points: Fraction | None | str = "full", *,
            cargo: Iterable[Unit] = (), using: str | None = None, only: tuple[str, ...] = ()) -> str | None:
    """Why ``unit`` may not end its move in ``cell`` (naming the rule and its section), or ``None``;
    ``using``/``only`` as for ``reach``."""
    rules, board = world.rules, world.board
    if cell not in board.graph:
        return f"{cell!r} is not a cell of the map"
    if cell == unit.location:
        return f"{unit.id} is already at {cell}"
    cargo = list(cargo)
    types = proxies(rules, unit, using, only)
    reasons = [_explain_as(world, unit, cell, points, cargo, t) for t in types]
    if not types or any(r is None for r in reasons):
        return None if types else f"{unit.id} cannot move"
    return reasons[0]


def _explain_as(world: World, unit: Unit, cell: str, points, cargo: list[Unit], type_name: str) -> str | None:
    rules = world.rules
    table = cost_table(rules, world.board, type_name, world.state.turn, world.state.weather)
    if table.allowance == 0 and points == "full":
        mclass = rules.movement_of(rules.unit_type(type_name))
        return because(f"{unit.id} cannot move", mclass.decl if mclass else None, None,
                       f"movement '{mclass.name if mclass else 'none'}'")
    if cell in table.barred:
        return f"{cell} is {table.barred[cell]}"
    sit = situation(world, unit.side)
    mclass = rules.movement_of(rules.unit_type(type_name))
    if mclass is not None and mclass.avoid_sources:
        avoided = avoided_cells(world, sit, type_name)
        for where, what in ((unit.location, f"{unit.id} starts at {unit.location}"), (cell, cell)):
            if where in avoided:
                line = mclass.avoid_sources[0]
                return because(f"{what}: a cell movement '{mclass.name}' avoids", mclass.decl, line,
                               f"{line.text}, movement '{mclass.name}'")
    forbidding = enemy_cells_forbidden(rules)
    if cell in sit.enemy_cells and (forbidding is not None or cargo):
        if cargo:
            return f"{cell} holds enemy counters: carried units may not be set down there"
        return because(f"{cell} holds enemy counters: enemy cells forbidden", forbidding.decl,
                       forbidding.enemy_cells_forbidden,
                       f"stacking '{forbidding.name}'")
    found = search(world, unit, points, cargo=cargo, as_type=type_name, sit=sit)
    if cell in found.ends:
        return None
    if cell in found.dist:
        if table.must_end is not None and cell not in table.must_end:
            return f"{cell}: {table.must_end_reason}"
        return f"{cell}: " + (stacking_problem(world, unit.side, cell, [unit, *cargo]) or "the move may not end here")
    free = search(world, unit, points, cargo=cargo, as_type=type_name, sit=sit, ignore_stops=True)
    if cell in free.dist:
        for step in free.path(cell)[1:]:
            if step in sit.zone:
                zone = sit.zone[step]
                line = zone.stops_source
                return because(f"enemy zone of control stops movement at {step}", zone.decl, line,
                               f"zone '{zone.decl.name}'")
            if step in sit.markers and stop_markers(world, unit, step, known_only=True):
                marker = stop_markers(world, unit, step, known_only=True)[0]
                decl = rules.rulebook.get("marker", marker.type)
                return because(f"{marker.type} at {step} stops movement", decl, None, f"marker '{marker.type}'")
        return f"{cell} cannot be reached"
    anywhere = search(world, unit, UNLIMITED, cargo=cargo, as_type=type_name, sit=sit, ignore_stops=True)
    if cell in anywhere.dist and points is not UNLIMITED:
        have = table.allowance if points == "full" else points
        mclass = rules.movement_of(rules.unit_type(type_name))
        return because(f"{cell} is {show_points(anywhere.cost(cell))} away and {unit.id} has {show_points(have)}",
                       mclass.decl if mclass else None, None, f"movement '{mclass.name if mclass else '?'}'")
    return f"{cell} cannot be reached from {unit.location}: no path avoids barred and enemy-held cells"


def show_points(value: Fraction | None) -> str:
    """Movement points in words: ``1 movement point``, ``2½ movement points``, ``unlimited movement``.

    Memoised: a pure function of the number, asked at every move, with few distinct values.  The
    memo is keyed by numerator and denominator, which hash far faster than a ``Fraction``."""
    key = None if value is None else (value.numerator, value.denominator)
    text = _SHOWN_POINTS.get(key)
    if text is None:
        if len(_SHOWN_POINTS) >= 1024:
            _SHOWN_POINTS.clear()
        text = _SHOWN_POINTS[key] = _show_points(value)
    return text


_SHOWN_POINTS: dict[tuple[int, int] | None, str] = {}


def _show_points(value: Fraction | None) -> str:
    if value is None:
        return "unlimited movement"
    whole, part = divmod(value, 1)
    if part == 0:
        text = str(int(whole))
    elif part == Fraction(1, 2):
        text = f"{int(whole) if whole else ''}½"
    else:
        text = f"{int(whole)} {part}" if whole else str(part)
    return f"{text} movement point{'' if value == 1 else 's'}"
