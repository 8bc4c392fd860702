"""Movement: where a unit may go this move, what it costs, and the path it takes.

Three layers, each cheap enough for the one above it:

1. ``cost_table(rules, board, type)`` compiles, once per rules, map and unit type,
   what every cell costs that type to enter (``None``: it may never enter it)
   from the terrain's ``cost`` lines and the movement class's ``enters only`` /
   ``never enters`` lines, the side's ``never enters`` and the type's own ``never
   enters`` / ``may enter``, plus the neighbours it may step to (``diagonals no``,
   ``crosses only``).  Costs are whole numbers of ``1/scale`` points, so the
   search adds integers, never ``Fraction``s (python-chess precomputes its attack
   tables for the same reason); each cell's steps (neighbour, cost) are kept as
   searches reach it.
2. ``situation(world, side)`` reads what the other sides put in the way: cells
   holding enemy counters, cells in enemy zones of control, cells with markers
   that stop the side's units.  It is read again only when the other sides'
   units change, not at each of the side's own moves.
3. ``search(world, unit)`` is Dijkstra with a cutoff at the unit's points over
   those two (one list per cost rather than a heap, the costs being small whole
   numbers); no rule is evaluated in its inner loop.  ``reachable`` gives the
   cells it may end its move in, with their cost; the side's own stacks there
   come from the state's index of its units on the map.

Readings of the rules language (each a choice where the language leaves one):

- **``enters only`` lines are alternatives**: a cell may be entered if any line
  allows it; ``enters only road within 1`` allows every cell at most 1 cell from a
  road cell (graph hops, the road cell itself included).
- **Points.**  ``points factor F`` reads the type's factor F (``all`` is
  unlimited, a blank factor is 0), ``points N``, ``points unlimited``; ``unlimited
  distance`` ignores costs (each cell counts 1, for the canonical path) but not
  where the class may go: ``no entry`` terrain bars it like any other unit.  A
  class without a ``points`` line, ``never moves`` and ``needs transport`` give 0.
- **Enemy counters.**  Every counter on the map occupies its cell, face down or
  not, dummy or not (the mover sees a counter, not what it is).  An enemy cell is
  passed through by a class that ``ignores enemy``; otherwise it is barred when a
  ``stacking`` says ``enemy cells forbidden``, entered and stopped in when the
  class ``stops on entering enemy``, and passed through otherwise.
- **Zones of control.**  A zone reaches ``range`` cells (default 1) into cells its
  ``into`` names (every cell without ``into``); a mode's ``zone range +N`` adds N,
  and the added reach also covers the other cells up to N cells away: ZONE OF
  CONTROL's "2 in road and clear hexes, 1 in non-clear" for range 1 and +1.
  Distances are graph hops.  A zone with ``stops movement`` (or any zone, for a
  class that ``stops on entering enemy zone``) ends the move of a unit entering
  it.  ``zone to zone uses all points``: a unit that starts its move in an enemy
  zone may step to an adjacent cell in an enemy zone by spending all its points
  (the step must still be affordable), which ends its move; or it may leave
  through cells outside enemy zones as usual, stopping again on entering one.
  Mid-move a zone-to-zone step cannot happen, since entering a zone stops.
- **Dummies and hidden information.**  Legal moves are computed from what the
  moving side knows.  A face-down enemy dummy could be a unit, so it exerts a zone
  like one; a revealed dummy exerts none (a dummy "only hides real units").
  Otherwise a unit's legal moves would tell its owner which counters are dummies.
  Markers that stop the side's units (``effect stop opponent``, a class's ``stops
  on entering MARKER``) count only when the side can see them; hidden ones are
  sprung during the move itself (``interpreter.procedures.move``).
- **Stacking** is per side and per cell.  A unit counts against the first
  ``limit … for WHO`` line naming it, else (unless ``exempt``) against the general
  ``limit``; a marker counts only with ``counts for stacking yes``, a dummy unless
  it says ``no``.  Only where a move ends is checked (MOVEMENT: "You may drop off
  or pick up units on the way"), and only when ``checked always`` or ``during
  movement`` (or when ``checked`` is not given).
- **Canonical path**: the cheapest path; among equally cheap ones each cell's
  predecessor is the one with the lowest cell id.  WATCH fire and hidden markers
  are met along it.

Limits: ``combines with``, ``joins any force`` and forces of several units are
not handled here (one unit moves at a time); a zone with ``requires option`` is in
force when that option is (``interpreter.options``).
"""

from __future__ import annotations

import functools
import heapq
import math
import weakref
from collections.abc import Collection, Iterable, Mapping
from fractions import Fraction
from typing import Any, NamedTuple, Protocol

from attrs import frozen

from ..dsl.model import Declaration, Property
from .board import Board
from .options import in_force, option_on
from .rules import Rules, UnitType
from .state import GameState, Unit

UNLIMITED = None
"""``allowance`` of a unit with no movement-point limit."""
ZERO = Fraction(0)


class World(Protocol):
    """What movement reads: a ``Context`` or any object with these three attributes."""

    rules: Rules
    board: Board
    state: GameState


class Parts(NamedTuple):
    """A ``World`` made of parts, for callers without a ``Context``."""

    rules: Rules
    board: Board
    state: GameState


def cite(decl: Declaration | None, prop: Property | None = None) -> str:
    """The sections a rule comes from, as ``§A, §B`` (the line's own, else its declaration's)."""
    names: tuple[str, ...] = ()
    if prop is not None:
        names = prop.provenance.section_names
    if not names and decl is not None:
        names = decl.provenance.section_names
    return ", ".join(f"§{n}" for n in names)


def because(text: str, decl: Declaration | None, prop: Property | None = None, inside: str = "") -> str:
    """``text (inside, §SECTION)``: a reason followed by the rule that gives it."""
    parts = [p for p in (inside, cite(decl, prop)) if p]
    return f"{text} ({', '.join(parts)})" if parts else text


def _names(value: Iterable[Any] | None) -> tuple[str, ...]:
    return tuple(str(v) for v in value or ())


# --- per map: neighbours and cell selectors -------------------------------------------------------

_BOARD_CACHE: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()


def _board_cache(board: Board) -> dict[str, Any]:
    cache = _BOARD_CACHE.get(board.graph)
    if cache is None:
        cache = _BOARD_CACHE[board.graph] = {}
    return cache


def _rules_cache(rules: Rules, board: Board | None = None) -> dict[Any, Any]:
    """Derived data of one compiled ``Rules`` (``Rules.derived``), and of one map: it lives and dies with them.

    Procedures ask for it many times a decision, so the last map's cache is remembered beside a
    weak reference to that map's graph (a ``WeakKeyDictionary`` lookup costs more than the rest).
    """
    per_rules = rules.derived
    if "boards" not in per_rules:
        per_rules.update(boards=weakref.WeakKeyDictionary(), last_board=None)
    if board is None:
        return per_rules
    graph = board.graph
    last = per_rules["last_board"]
    if last is not None and last[0]() is graph:
        return last[1]
    per_board = per_rules["boards"].get(graph)
    if per_board is None:
        per_board = per_rules["boards"][graph] = {}
    per_rules["last_board"] = (weakref.ref(graph), per_board)
    return per_board


def adjacency(board: Board) -> dict[str, tuple[str, ...]]:
    """Every cell's neighbours in id order, built once per map."""
    cache = _board_cache(board)
    if "adjacency" not in cache:
        graph = board.graph
        cache["adjacency"] = {cell: tuple(sorted(graph.adj[cell])) for cell in graph.nodes}
    return cache["adjacency"]


def within(board: Board, sources: Iterable[str], distance: int) -> dict[str, int]:
    """Cells at most ``distance`` steps from any of ``sources`` (graph hops), with that distance."""
    adj = adjacency(board)
    seen = {cell: 0 for cell in sources}
    frontier = list(seen)
    for step in range(1, distance + 1):
        nxt = []
        for cell in frontier:
            for n in adj[cell]:
                if n not in seen:
                    seen[n] = step
                    nxt.append(n)
        frontier = nxt
    return seen


def cell_selectors(rules: Rules, board: Board) -> dict[str, frozenset[str]]:
    """Every name a selector may use for each cell (terrain, its tags, the cell's tags)."""
    cache = _rules_cache(rules, board)
    if "selectors" not in cache:
        memo: dict[tuple[str, frozenset[str]], frozenset[str]] = {}
        out = {}
        for cell, data in board.graph.nodes(data=True):
            key = (data["terrain"], data["tags"])
            if key not in memo:
                memo[key] = rules.cell_selectors(*key)
            out[cell] = memo[key]
        cache["selectors"] = out
    return cache["selectors"]


def _cells_named(rules: Rules, board: Board, names: Iterable[str]) -> frozenset[str]:
    wanted = set(names)
    return frozenset(c for c, sel in cell_selectors(rules, board).items() if sel & wanted)


# --- per unit type: allowance and cost table -------------------------------------------------------


def movement_class(rules: Rules, unit_type: UnitType) -> Declaration | None:
    return rules.rulebook.get("movement", unit_type.movement) if unit_type.movement else None


def never_moves(rules: Rules, unit_type: UnitType) -> bool:
    """Whether a type cannot move by itself: ``never moves`` or ``needs transport``, on its class or marker.

    Read once per ``Rules`` and type (retreats ask it for every hex they consider)."""
    cache = _rules_cache(rules).setdefault("never_moves", {})
    found = cache.get(unit_type.name)
    if found is None:
        found = cache[unit_type.name] = _never_moves(rules, unit_type)
    return found


def _never_moves(rules: Rules, unit_type: UnitType) -> bool:
    mclass = movement_class(rules, unit_type)
    decl = rules.rulebook.get(unit_type.kind, unit_type.name)
    for d in (mclass, decl):
        if d is not None and (any(p.has("moves") for p in d.all("never")) or d.has("needs")):
            return True
    return False


def allowance(rules: Rules, unit_type: UnitType) -> Fraction | None:
    """Movement points per move: a ``Fraction``, or ``None`` (``UNLIMITED``); read once per unit type."""
    cache = _rules_cache(rules).setdefault("allowance", {})
    if unit_type.name not in cache:
        cache[unit_type.name] = _allowance(rules, unit_type)
    return cache[unit_type.name]


def _allowance(rules: Rules, unit_type: UnitType) -> Fraction | None:
    if never_moves(rules, unit_type):
        return Fraction(0)
    mclass = movement_class(rules, unit_type)
    if mclass is None:
        return Fraction(0)
    if mclass.has("unlimited"):
        return UNLIMITED
    points = mclass.first("points")
    if points is None or points.has("none"):
        return Fraction(0)
    if points.has("unlimited"):
        return UNLIMITED
    if points.get("factor") is not None:
        value = unit_type.factor(str(points.get("factor")))
        if value == "all":
            return UNLIMITED
        return Fraction(value) if isinstance(value, (int, Fraction)) else Fraction(0)
    return Fraction(points.get("count") or 0)


@frozen
class CostTable:
    """What each cell costs one unit type to enter, compiled once per rules, map and type."""

    type_name: str
    scale: int
    """Costs are whole numbers of ``1/scale`` movement points."""
    cost: Mapping[str, int]
    """Cells the type may enter, with their scaled cost; a cell not here is barred."""
    barred: Mapping[str, str]
    """Why each barred cell is barred, in words ending with the rule's section."""
    adjacency: Mapping[str, tuple[str, ...]]
    allowance: Fraction | None
    must_end: frozenset[str] | None
    """Cells a move must end in (``must end on``), or ``None`` when any will do."""
    must_end_reason: str = ""

    @property
    def unlimited(self) -> bool:
        return self.allowance is None

    def scaled(self, points: Fraction | None) -> int | None:
        """Points as a budget in table units (rounded down: costs are whole units)."""
        if points is self.allowance:
            return self.full_budget
        return None if points is None else math.floor(points * self.scale)

    @functools.cached_property
    def full_budget(self) -> int | None:
        """The whole allowance in table units (asked at nearly every move; the table is frozen)."""
        return None if self.allowance is None else math.floor(self.allowance * self.scale)

    def points(self, scaled: int) -> Fraction:
        value = self.point_values.get(scaled)
        if value is None:
            value = self.point_values[scaled] = Fraction(scaled, self.scale)
        return value

    @functools.cached_property
    def point_values(self) -> dict[int, Fraction]:
        """Scaled costs already turned back into points (a ``Fraction`` is slow to make)."""
        return {}

    @functools.cached_property
    def point_list(self) -> list[Fraction]:
        """``points(n)`` for every ``n`` up to the whole allowance (none for an unlimited or huge one)."""
        if self.full_budget is None or self.full_budget > BUCKETS:
            return []
        return [self.points(n) for n in range(self.full_budget + 1)]

    @functools.cached_property
    def min_step(self) -> int:
        """The cheapest scaled cost of entering a cell (0 for a type that may enter no cell)."""
        return min(self.cost.values(), default=0)

    @functools.cached_property
    def known_steps(self) -> dict[str, tuple[tuple[str, int], ...]]:
        """``steps`` of the cells asked so far (read it directly in a loop; never change it)."""
        return {}

    @functools.cached_property
    def max_step(self) -> int:
        """The dearest scaled cost of entering a cell (0 for a type that may enter no cell)."""
        return max(self.cost.values(), default=0)

    @functools.cached_property
    def known_steps_within(self) -> dict[str, tuple[tuple[tuple[str, int], ...], ...]]:
        """``steps_within`` of the cells asked so far (read it directly in a loop; never change it)."""
        return {}

    def steps_within(self, cell: str) -> tuple[tuple[tuple[str, int], ...], ...]:
        """``steps(cell)`` by the points left: item ``r`` (0 to ``max_step``) holds the steps that
        cost at most ``r``, in id order, so a search with ``r`` points left reads only the steps it
        can take.  Built a cell at a time, as ``steps``."""
        found = self.known_steps_within.get(cell)
        if found is None:
            every = self.steps(cell)
            found = self.known_steps_within[cell] = tuple(
                tuple(s for s in every if s[1] <= r) for r in range(self.max_step + 1))
        return found

    def steps(self, cell: str) -> tuple[tuple[str, int], ...]:
        """The neighbours the type may step to from ``cell``, each with its scaled cost, in id order.

        Built a cell at a time as searches reach it (then kept), so a search's inner loop reads
        one tuple per cell instead of a cost per neighbour, and a huge map costs only what is
        searched."""
        found = self.known_steps.get(cell)
        if found is None:
            cost = self.cost
            found = self.known_steps[cell] = tuple((n, cost[n]) for n in self.adjacency[cell] if n in cost)
        return found


def cost_table(rules: Rules, board: Board, type_name: str, turn: int | None = None) -> CostTable:
    """The compiled costs of ``type_name`` on ``board`` (cached while both are alive).

    ``turn``: the game turn, for a type with a ``may enter … on turn N`` line: on turn N its table
    lets it into those cells too (a table of its own); on other turns, and without ``turn``, not.
    """
    cache = _rules_cache(rules, board).setdefault("costs", {})
    key = _turn_key(rules, type_name, turn)
    table = cache.get(key)
    if table is None:
        table = cache[key] = _compile(rules, board, rules.unit_type(type_name), key[1])
    return table


def _turn_key(rules: Rules, type_name: str, turn: int | None) -> tuple[str, int | None]:
    """(type, turn) when the type has a ``may enter … on turn`` line for that turn, else (type, None)."""
    turns = _rules_cache(rules).setdefault("may enter turns", {})
    found = turns.get(type_name)
    if found is None:
        unit_type = rules.unit_type(type_name)
        decl = rules.rulebook.get(unit_type.kind, type_name)
        found = turns[type_name] = frozenset(p.get("turn") for p in (decl.all("may") if decl is not None else ())
                                             if p.get("turn") is not None)
    return (type_name, turn if turn in found else None)


def _terrain_cost_line(rules: Rules, terrain: str, unit_type: UnitType) -> tuple[Fraction | None, str]:
    cost = rules.terrain_cost(terrain, unit_type)
    if cost is not None:
        return cost, ""
    decl = rules.rulebook.get("terrain", terrain)
    line = next((p for p in decl.all("cost") if p.has("no")), None) if decl else None
    return None, because(f"{terrain}: no entry", decl, line, f"terrain '{terrain}'")


def _compile(rules: Rules, board: Board, unit_type: UnitType, turn: int | None = None) -> CostTable:
    rulebook = rules.rulebook
    mclass = movement_class(rules, unit_type)
    points = allowance(rules, unit_type)
    unit_names = unit_type.selectors

    # Where the class, the side and the type forbid or confine.
    confine: list[tuple[frozenset[str], str]] = []  # (allowed cells, wording) per `enters only`, alternatives
    forbid: list[tuple[frozenset[str], str]] = []
    if mclass is not None:
        for line in mclass.all("enters"):
            where = _names(line.get("where"))
            distance = line.get("distance")
            cells = _cells_named(rules, board, where)
            if distance:
                cells = frozenset(within(board, cells, distance))
            confine.append((cells, " ".join(where) + (f" within {distance}" if distance else "")))
        for line in mclass.all("never"):
            if line.has("moves"):
                continue
            exceptions = _names(line.get("exceptions"))
            if exceptions and unit_names & set(exceptions):
                continue
            cells = _cells_named(rules, board, _names(line.get("where"))) - _cells_named(rules, board, exceptions)
            where = " ".join(_names(line.get("where")))
            forbid.append((cells, because(f"movement '{mclass.name}' never enters {where}", mclass, line)))
    decl = rulebook.get(unit_type.kind, unit_type.name)
    may_enter = frozenset()
    if decl is not None:
        # A `may enter … on turn N` holds on turn N only: in that turn's table alone.
        may_enter = _cells_named(rules, board, [n for p in decl.all("may") if p.get("turn") in (None, turn)
                                                for n in _names(p.get("where"))])
        for line in decl.all("never"):
            if line.has("moves"):
                continue
            where = " ".join(_names(line.get("where")))
            forbid.append((_cells_named(rules, board, _names(line.get("where"))),
                           because(f"{unit_type.name} never enters {where}", decl, line)))
    side = rulebook.get("side", unit_type.side) if unit_type.side else None
    if side is not None:
        for line in side.all("never"):
            if line.get("option") is not None and option_on(rulebook, str(line.get("option"))):
                continue  # `never enters … unless option NAME` while NAME is in force
            cells = _cells_named(rules, board, _names(line.get("where"))) - may_enter
            where = " ".join(_names(line.get("where")))
            forbid.append((cells, because(f"side '{side.name}' never enters {where}", side, line)))
    confine_reason = ""
    if confine and mclass is not None:
        line = mclass.first("enters")
        confine_reason = because(f"movement '{mclass.name}' enters only "
                                 f"{', or '.join(text for _, text in confine)}", mclass, line)

    # Costs, terrain by terrain.
    by_terrain: dict[str, tuple[Fraction | None, str]] = {}
    raw: dict[str, Fraction] = {}
    barred: dict[str, str] = {}
    for cell, terrain in board.graph.nodes(data="terrain"):
        if terrain not in by_terrain:
            cost, why = _terrain_cost_line(rules, terrain, unit_type)
            by_terrain[terrain] = (Fraction(1) if points is UNLIMITED and cost is not None else cost, why)
        cost, why = by_terrain[terrain]
        if cost is None:
            barred[cell] = why
            continue
        if confine and not any(cell in cells for cells, _ in confine):
            barred[cell] = f"{terrain}: {confine_reason}"
            continue
        reason = next((text for cells, text in forbid if cell in cells), None)
        if reason is not None:
            barred[cell] = f"{terrain}: {reason}"
            continue
        raw[cell] = cost
    scale = 1
    for value in {*raw.values(), *([points] if points else [])}:
        scale = math.lcm(scale, value.denominator)
    scaled = {value: int(value * scale) for value in set(raw.values())}
    cost = {cell: scaled[value] for cell, value in raw.items()}

    # Neighbours: every adjacent cell, unless the class limits diagonals or crossings.
    adj = adjacency(board)
    if mclass is not None and (mclass.has("crosses") or any(p.has("no") for p in mclass.all("diagonals"))):
        features = set(_names(mclass.first("crosses").get("features"))) if mclass.has("crosses") else None
        no_corners = any(p.has("no") for p in mclass.all("diagonals"))
        filtered = {}
        for cell, around in adj.items():
            keep = []
            for n in around:
                edge = board.edge(cell, n)
                if no_corners and edge.get("kind") == "corner":
                    continue
                if features is not None and not (edge.get("features", frozenset()) & features):
                    continue
                keep.append(n)
            filtered[cell] = tuple(keep)
        adj = filtered

    must_end, must_end_reason = None, ""
    if mclass is not None and mclass.has("must"):
        line = mclass.first("must")
        must_end = _cells_named(rules, board, _names(line.get("where")))
        must_end_reason = because(f"movement '{mclass.name}' must end on "
                                  f"{' '.join(_names(line.get('where')))}", mclass, line)
    return CostTable(unit_type.name, scale, cost, barred, adj, points, must_end, must_end_reason)


# --- the state around a moving side --------------------------------------------------------------


def _ignores(rules: Rules, unit_type: UnitType, zone: "ZoneRule") -> bool:
    """Whether the zone's ``ignored by`` names the moving unit's type."""
    return zone.ignored_by is not None and Rules.unit_matches(unit_type, zone.ignored_by)


@frozen
class ZoneRule:
    """A ``zone`` declaration, read."""

    decl: Declaration
    into: frozenset[str] | None
    range: int
    stops: bool
    zone_to_zone: bool
    blocks_retreat: bool
    exerted_by: tuple[str, ...] | None
    ignored_by: tuple[str, ...] | None = None


def zone_rules(rules: Rules) -> tuple[ZoneRule, ...]:
    cache = _rules_cache(rules)
    if "zones" not in cache:
        out = []
        for decl in rules.rulebook.of_kind("zone"):
            if not in_force(rules.rulebook, decl):
                continue
            into = decl.first("into")
            rng = decl.first("range")
            exerted = decl.first("exerted")
            ignored = decl.first("ignored")
            out.append(ZoneRule(decl, frozenset(_names(into.get("where"))) if into else None,
                                rng.get("range") if rng else 1, decl.has("stops"), decl.has("zone"),
                                any(p.has("retreat") for p in decl.all("blocks")),
                                _names(exerted.get("who")) if exerted else None,
                                _names(ignored.get("who")) if ignored else None))
        cache["zones"] = tuple(out)
    return cache["zones"]


def is_counter(unit_type: UnitType) -> bool:
    """A unit, or a dummy standing in for one: what occupies a cell and may exert a zone."""
    return unit_type.kind == "unit" or unit_type.dummy


def zone_extra(rules: Rules, unit: Unit, unit_type: UnitType) -> int:
    """The ``zone range +N`` of the unit's mode (the first line naming it, else the general one)."""
    mode = rules.rulebook.get("mode", unit.mode) if unit.mode else None
    if mode is None:
        return 0
    line = Rules.line_for(mode.all("zone"), unit_type)
    return int(line.get("modifier")) if line is not None else 0


def zone_of(world: World, unit: Unit, zone: ZoneRule) -> frozenset[str]:
    """The cells ``unit`` holds in ``zone`` (not its own cell), or nothing when it does not exert it."""
    cache = _rules_cache(world.rules, world.board).setdefault("zone_of", {})
    key = (unit.type, unit.location, unit.mode, zone.decl.name)
    found = cache.get(key)
    if found is None:
        found = cache[key] = _zone_of(world, unit, zone)
    return found


def _zone_of(world: World, unit: Unit, zone: ZoneRule) -> frozenset[str]:
    unit_type = world.rules.unit_type(unit.type)
    if zone.exerted_by is not None and not Rules.unit_matches(unit_type, zone.exerted_by):
        return frozenset()
    extra = zone_extra(world.rules, unit, unit_type)
    selectors = cell_selectors(world.rules, world.board)
    out = set()
    for cell, distance in within(world.board, [unit.location], zone.range + extra).items():
        if distance == 0:
            continue
        if zone.into is None or selectors[cell] & zone.into:
            if distance <= zone.range + extra:
                out.add(cell)
        elif distance <= extra:
            out.add(cell)
    return frozenset(out)


def _counter_types(rules: Rules) -> dict[str, bool]:
    """``is_counter`` of every unit type, read once per ``Rules``."""
    cache = _rules_cache(rules)
    found = cache.get("counter_types")
    if found is None:
        found = cache["counter_types"] = {name: is_counter(t) for name, t in rules.unit_types.items()}
    return found


def enemy_zones(world: World, side: str, *, stopping: bool | None = None, blocking_retreat: bool | None = None,
                omniscient: bool = False) -> Mapping[str, ZoneRule]:
    """Cells in zones exerted by enemies of ``side``, with the zone each is in (the first, in rulebook order).

    ``stopping``/``blocking_retreat`` keep only zones that (do or do not) stop movement or block retreat.
    ``omniscient`` drops face-down dummies, which the moving side cannot tell from units.
    """
    return _enemy_zones_of(world, side, _others_on_map(world.state, side), stopping, blocking_retreat, omniscient)


def _others_on_map(state: GameState, side: str) -> tuple[Unit, ...]:
    """The units of every side but ``side`` on the map: all that can occupy a cell or exert a zone
    (from the state's index, so while they do not change it is the same tuple, or an equal one)."""
    groups = [units for owner, units in state.units_on_map().items() if owner != side]
    if len(groups) == 1:
        return groups[0]
    return tuple([u for u in state.units if u.side != side and u.on_map])  # in ``units`` order


def _enemy_zones_of(world: World, side: str, others: tuple[Unit, ...], stopping: bool | None,
                    blocking_retreat: bool | None, omniscient: bool) -> Mapping[str, ZoneRule]:
    """``enemy_zones`` given the other sides' units."""
    zones = [z for z in zone_rules(world.rules)
             if (stopping is None or z.stops == stopping)
             and (blocking_retreat is None or z.blocks_retreat == blocking_retreat)]
    if not zones:
        return {}
    # The answer depends only on the other sides' units, which stay the same objects while one
    # side acts (``GameState.with_unit`` keeps unchanged units), so the last answer per question
    # is kept on the rules/board cache and reused while the tuple of those units is equal
    # (identity first) to the one it was read from; any change to one of them reads afresh.
    # Callers only read the returned mapping.
    memo = _rules_cache(world.rules, world.board).setdefault("enemy_zones", {})
    key = (side, stopping, blocking_retreat, omniscient)
    last = memo.get(key)
    if last is not None and last[0] == others:
        return last[1]
    out = memo[key] = (others, _enemy_zones(world, others, side, zones, omniscient))
    return out[1]


def _enemy_zones(world: World, others: tuple[Unit, ...], side: str, zones: list[ZoneRule],
                 omniscient: bool) -> dict[str, ZoneRule]:
    """The zones of ``others``, the other sides' units on the map (``_others_on_map``)."""
    out: dict[str, ZoneRule] = {}
    known = _rules_cache(world.rules, world.board).setdefault("zone_of", {})  # zone_of's memo
    counters = _counter_types(world.rules)
    one = zones[0] if len(zones) == 1 else None
    held = []  # with one zone: each unit's cells, joined at the end
    for unit in others:
        # Units and dummies exert zones; a dummy only while the mover cannot tell it from a unit.
        if not counters[unit.type] or (unit.dummy and not (unit.hidden and not omniscient)):
            continue
        for zone in zones:
            cells = known.get((unit.type, unit.location, unit.mode, zone.decl.name))
            if cells is None:
                cells = zone_of(world, unit, zone)
            if one is not None:
                held.append(cells)
            elif cells:
                # The first unit and zone to reach a cell names its zone (set operations, in C).
                out.update(dict.fromkeys(cells.difference(out), zone))
    if one is not None:
        return dict.fromkeys(frozenset().union(*held), one)
    return out


def stacking_rules(rules: Rules) -> tuple[Declaration, ...]:
    return rules.rulebook.of_kind("stacking")


def enemy_cells_forbidden(rules: Rules) -> Declaration | None:
    """The ``stacking`` that says ``enemy cells forbidden``, if any."""
    cache = _rules_cache(rules)
    if "forbidding" not in cache:
        cache["forbidding"] = next((d for d in stacking_rules(rules)
                                    if any(p.has("forbidden") for p in d.all("enemy"))), None)
    return cache["forbidding"]


class StackRule:
    """A ``stacking`` declaration, read: its limits and which line each type counts against."""

    def __init__(self, rules: Rules, decl: Declaration):
        self.rules = rules
        self.decl = decl
        self.limits = decl.all("limit")
        self.counts = tuple(line.get("count") for line in self.limits)
        self.one = tuple((name, line) for line in decl.all("one") for name in _names(line.get("who")))
        checked = decl.first("checked")
        self.on_moves = checked is None or checked.has("always") or checked.has("during")
        self._lines: dict[str, int | None] = {}
        self.safe_size = min([*self.counts, *((1,) if self.one else ())], default=math.inf)
        """So many counters or fewer together break no line of this rule (no limit below it)."""

    def line_of(self, type_name: str) -> int | None:
        """Which ``limit`` line a type counts against (its index), or ``None``."""
        if type_name not in self._lines:
            self._lines[type_name] = self._line(self.rules.unit_type(type_name))
        return self._lines[type_name]

    def _line(self, unit_type: UnitType) -> int | None:
        decl = self.rules.rulebook.get(unit_type.kind, unit_type.name)
        counts = decl.first("counts") if decl is not None else None
        if unit_type.kind != "unit":
            if not ((counts is not None and counts.has("yes"))
                    or (unit_type.dummy and not (counts and counts.has("no")))):
                return None
        elif counts is not None and counts.has("no"):
            return None
        line = Rules.line_for(self.limits, unit_type)
        if line is not None and line.get("who"):
            return self.limits.index(line)
        if any(Rules.unit_matches(unit_type, line.get("who") or ()) for line in self.decl.all("exempt")):
            return None
        return None if line is None else self.limits.index(line)

    def problem(self, together: list[Unit], arriving: list[Unit]) -> str | None:
        """Why ``together`` (``arriving`` among them) break this rule, in words, or ``None``."""
        if len(together) <= self.safe_size:
            return None
        return self._problem(together, arriving, True)

    def is_broken(self, together: list[Unit], arriving: list[Unit]) -> bool:
        """Whether ``problem`` would find one (without putting it into words: searches ask often)."""
        return len(together) > self.safe_size and self._problem(together, arriving, False) is not None

    def _problem(self, together: list[Unit], arriving: list[Unit], wording: bool) -> str | None:
        counts = [0] * len(self.limits)
        for unit in together:
            index = self.line_of(unit.type)
            if index is not None:
                counts[index] += 1
        for index, line in enumerate(self.limits):
            if counts[index] > self.counts[index] and any(self.line_of(u.type) == index for u in arriving):
                if not wording:
                    return ""
                who = f" for {' '.join(_names(line.get('who')))}" if line.get("who") else ""
                return because(f"stacking limit {self.counts[index]}{who}: {counts[index]} counters would end "
                               "there", self.decl, line, f"stacking '{self.decl.name}'")
        for name, line in self.one:
            same = [u for u in together if Rules.unit_matches(self.rules.unit_type(u.type), [name])]
            if len(same) > 1 and any(u in same for u in arriving):
                if not wording:
                    return ""
                return because(f"one {name} per cell", self.decl, line, f"stacking '{self.decl.name}'")
        return None


def stack_rules(rules: Rules) -> tuple[StackRule, ...]:
    """The stacking rules checked where a move ends (``checked always``/``during movement``/unsaid)."""
    cache = _rules_cache(rules)
    if "stacks" not in cache:
        cache["stacks"] = tuple(r for r in (StackRule(rules, d) for d in stacking_rules(rules)) if r.on_moves)
    return cache["stacks"]


def stacking_problem(world: World, side: str, cell: str, arriving: Iterable[Unit],
                     leaving: Iterable[str] = ()) -> str | None:
    """Why ``arriving`` may not end a move in ``cell`` beside the side's counters there, or ``None``."""
    arriving = list(arriving)
    gone = {u.id for u in arriving} | set(leaving)
    here = [u for u in world.state.units_at(cell) if u.side == side and u.id not in gone]
    return _stack_problem(world.rules, [*here, *arriving], arriving)


def _safe_stack_size(rules: Rules) -> float:
    """So many counters or fewer together break no stacking rule checked on moves (``safe_size``)."""
    cache = _rules_cache(rules)
    found = cache.get("safe_stack_size")
    if found is None:
        found = cache["safe_stack_size"] = min((r.safe_size for r in stack_rules(rules)), default=math.inf)
    return found


def _stacks_badly(rules: Rules, together: list[Unit], arriving: list[Unit]) -> bool:
    """Whether ``_stack_problem`` would find a problem (for searches, which need no words)."""
    return any(rule.is_broken(together, arriving) for rule in stack_rules(rules))


def _stack_problem(rules: Rules, together: list[Unit], arriving: list[Unit]) -> str | None:
    for rule in stack_rules(rules):
        found = rule.problem(together, arriving)
        if found is not None:
            return found
    return None


def stop_markers(world: World, unit: Unit, cell: str, *, known_only: bool = False) -> list[Unit]:
    """Markers in ``cell`` that stop ``unit`` on entering it (``effect stop …``, ``stops on entering M``).

    With ``known_only``, face-down markers of another side are left out: the mover cannot see them.
    """
    rules = world.rules
    unit_type = rules.unit_type(unit.type)
    mclass = movement_class(rules, unit_type)
    named = {n for p in (mclass.all("stops") if mclass else ()) for n in _names(p.get("markers"))}
    out = []
    for marker in world.state.units:
        if marker.location != cell or marker.id == unit.id:
            continue
        marker_type = rules.unit_type(marker.type)
        if marker_type.kind != "marker" or marker_type.dummy:
            continue
        if known_only and marker.hidden and marker.side != unit.side:
            continue
        if marker.type in named and marker.side != unit.side or _marker_stops(rules, marker, unit):
            out.append(marker)
    return out


def _marker_stops(rules: Rules, marker: Unit, unit: Unit) -> bool:
    decl = rules.rulebook.get("marker", marker.type)
    for line in decl.all("effect") if decl else ():
        if line.get("effect") != "stop":
            continue
        if line.has("opponent") or line.has("enemy"):
            if unit.side != marker.side:
                return True
        elif line.has("owner") or line.has("self"):
            if unit.side == marker.side:
                return True
        elif line.has("both"):
            return True
    return False


@frozen
class Situation:
    """What the other sides' counters (and markers) put in the way of one side's moves, as that side sees it.

    It does not hold the side's own counters: a search reads them, where a move could end, from
    the state's indexes of its units.  So one reading serves every state in which the other
    sides' units are the same, and the side's own moves do not change it.
    """

    side: str
    enemy_cells: frozenset[str]
    zone: Mapping[str, ZoneRule]
    """Cells in enemy zones of control (any zone; the search keeps those that stop it), with the zone."""
    markers: frozenset[str]
    """Cells holding markers the side can see (the search asks which of them stop its unit)."""


def situation(world: World, side: str, *, omniscient: bool = False) -> Situation:
    """Read the state for searches by ``side``: remembered while the state is the same object, and
    while the other sides' units are (when the rulebook has no markers, which any side may move)."""
    memo = _rules_cache(world.rules, world.board).setdefault("situation", {})
    state = world.state
    last = memo.get((side, omniscient))
    if last is not None and last[0] is state:
        return last[2]
    others = _others_on_map(state, side)
    if last is not None and last[1] == others and not last[3]:
        found = last[2]
        if last[1] is others:  # the same reading, from the same units: only the state is new
            last[0] = state
            return found
    else:
        found = _situation(world, side, omniscient, others)
    memo[side, omniscient] = [state, others, found, _has_markers(world.rules)]
    return found


def _situation(world: World, side: str, omniscient: bool, others: tuple[Unit, ...]) -> Situation:
    rules, state = world.rules, world.state
    enemy, zone = _enemy_reading(world, side, omniscient, others)
    markers = set()
    if _has_markers(rules):
        for unit in state.units:
            ut = rules.unit_type(unit.type)
            if unit.on_map and ut.kind == "marker" and not ut.dummy and (omniscient or not unit.hidden
                                                                        or unit.side == side):
                markers.add(unit.location)
    return Situation(side, enemy, zone, frozenset(markers))


def _has_zone_to_zone(rules: Rules) -> bool:
    """Whether any zone in force says ``zone to zone``; read once per ``Rules``."""
    cache = _rules_cache(rules)
    found = cache.get("zone_to_zone")
    if found is None:
        found = cache["zone_to_zone"] = any(z.zone_to_zone for z in zone_rules(rules))
    return found


def _has_markers(rules: Rules) -> bool:
    """Whether the rulebook declares any (non-dummy) marker type; read once per ``Rules``."""
    cache = _rules_cache(rules)
    found = cache.get("has_markers")
    if found is None:
        found = cache["has_markers"] = any(t.kind == "marker" and not t.dummy for t in rules.unit_types.values())
    return found


def _enemy_reading(world: World, side: str, omniscient: bool,
                   others: tuple[Unit, ...]) -> tuple[frozenset[str], Mapping[str, ZoneRule]]:
    """The cells holding counters of other sides than ``side``, and their zones of control.

    Both depend only on the other sides' units on the map (``others``), which stay the same objects while one side
    moves unit after unit (``GameState.with_unit`` keeps the unchanged ones), so the last
    answer per side is kept on the rules/board cache and reused while the tuple of the other
    sides' units is equal (identity first) to the one it was read from.  Any change to one of
    those units (place, mode, face, flags) makes a new tuple and a fresh reading.
    """
    memo = _rules_cache(world.rules, world.board).setdefault("enemy_reading", {})
    last = memo.get((side, omniscient))
    if last is not None and last[0] == others:
        return last[1]
    counters = _counter_types(world.rules)
    enemy = frozenset([u.location for u in others if counters[u.type] and u.location[:1].isdigit()])  # on_map
    found = (enemy, _enemy_zones_of(world, side, others, None, None, omniscient))
    memo[side, omniscient] = (others, found)
    return found


# --- the search -----------------------------------------------------------------------------------


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
            for p in table.adjacency[cell]:  # in id order: the first that fits is the lowest
                had = dist.get(p)
                if had is None or (p != start and p in self.stops) or cell not in table.adjacency[p]:
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


def proxies(rules: Rules, unit: Unit) -> tuple[str, ...]:
    """The types a counter moves as: its own, or for a dummy without a movement class every unit type
    of its side that can move (so a dummy's moves never tell it from a unit)."""
    unit_type = rules.unit_type(unit.type)
    if not (unit_type.dummy and unit_type.movement is None):
        return (unit.type,)
    return tuple(sorted(t.name for t in rules.unit_types.values()
                        if t.kind == "unit" and t.side == unit.side and allowance(rules, t) != 0))


def _search_profile(rules: Rules, type_name: str) -> tuple[bool, bool, bool, bool]:
    """What a type's movement class says about enemies, read once per ``Rules`` and type:
    (``ignores enemy``, ``stops on entering enemy``, ``stops on entering enemy zone``, whether
    every zone in force stops it).  A rulebook does not change while its ``Rules`` lives."""
    cache = _rules_cache(rules).setdefault("search_profile", {})
    found = cache.get(type_name)
    if found is None:
        unit_type = rules.unit_type(type_name)
        mclass = movement_class(rules, unit_type)
        ignores_enemy = mclass is not None and mclass.has("ignores")
        stop_lines = mclass.all("stops") if mclass is not None else ()
        enemy_stops = any(p.has("enemy") and not p.has("zone") for p in stop_lines)
        class_zone = any(p.has("enemy") and p.has("zone") for p in stop_lines)
        all_stop = all((z.stops or class_zone) and not _ignores(rules, unit_type, z) for z in zone_rules(rules))
        found = cache[type_name] = (ignores_enemy, enemy_stops, class_zone, all_stop)
    return found


class _Plan(NamedTuple):
    """What a search of one unit type reads from the rules, gathered once per ``Rules``, map and type."""

    table: CostTable
    ignores_enemy: bool
    enemy_stops: bool
    class_zone: bool
    all_zones_stop: bool
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


def _plan(rules: Rules, board: Board, type_name: str, turn: int | None = None) -> _Plan:
    cache = _rules_cache(rules, board).setdefault("plans", {})
    found = cache.get((type_name, turn, 0))  # by the turn asked, as well as by ``_turn_key``'s
    if found is not None:
        return found
    key = _turn_key(rules, type_name, turn)
    found = cache.get(key)
    if found is None:
        table = cost_table(rules, board, type_name, turn)
        lone = [Unit("", type_name, "", "")]
        found = cache[key] = _Plan(table, *_search_profile(rules, type_name),
                                         enemy_cells_forbidden(rules) is not None, _has_zone_to_zone(rules),
                                         not _stacks_badly(rules, lone, lone), _safe_stack_size(rules), {})
    cache[type_name, turn, 0] = found
    return found


def search(world: World, unit: Unit, points: Fraction | None | str = "full", *, cargo: Iterable[Unit] = (),
           omniscient: bool = False, ignore_stops: bool = False, as_type: str | None = None,
           sit: Situation | None = None) -> Reach:
    """Dijkstra from the unit's cell with a cutoff at ``points`` (``"full"``: its whole allowance).

    ``cargo`` are units it carries: they end the move with it (stacking, no enemy cell).
    ``ignore_stops`` lets zones and markers pass (for explanations), ``as_type`` moves it as
    another type.  Dummies without a movement class: use ``reach``.
    """
    rules, board = world.rules, world.board
    plan = _plan(rules, board, as_type or unit.type, world.state.turn)
    table = plan.table
    if type(points) is str and points == "full":  # (comparing a Fraction with a str is slow)
        points = table.allowance
    if points is not UNLIMITED and table.allowance is UNLIMITED:
        points = UNLIMITED
    budget = table.scaled(points)
    sit = sit or situation(world, unit.side, omniscient=omniscient)
    blocked: frozenset[str] = frozenset()
    extra: set[str] = set()  # cells that stop the move besides zones
    if not plan.ignores_enemy:
        if plan.enemy_cells_barred:
            blocked = sit.enemy_cells
        elif plan.enemy_stops:
            extra |= sit.enemy_cells
    if ignore_stops:
        zone: Mapping[str, ZoneRule] = {}
    elif plan.all_zones_stop:
        zone = sit.zone  # every zone stops this type: no need to filter cell by cell
    else:
        zone = {c: z for c, z in sit.zone.items()
                if (z.stops or plan.class_zone)
                and not _ignores(rules, rules.unit_type(as_type or unit.type), z)}
    if not ignore_stops and sit.markers:
        extra |= {c for c in sit.markers if c != unit.location and stop_markers(world, unit, c,
                                                                                   known_only=not omniscient)}
    # Read by membership only, so when only zones stop it their mapping serves without a copy.
    stop: Collection[str] = extra.union(zone) if extra else zone  # (a mapping tests its keys fastest)
    zone_to_zone = plan.zone_to_zone and unit.location in zone and any(z.zone_to_zone for z in zone.values())

    start = unit.location
    dist, parent, reached_stops = _dijkstra(table, start, budget, blocked, stop, zone if zone_to_zone else None)
    zone_step = (zone, budget) if zone_to_zone and budget is not None else None

    # Where the move may end.
    cargo = list(cargo)
    arriving = [unit, *cargo]
    must_end = table.must_end
    alone = plan.alone_ok if not cargo else not _stacks_badly(rules, arriving, arriving)
    own = sit.side
    values = table.point_list
    if not cargo and must_end is None and alone and budget is not None and budget < len(values):
        # The usual case: every cell reached, less the start and the cells the side's counters
        # there make too crowded (only the cells of the side's counters on the map, from the
        # state's index, are looked at, and only stacks big enough to break a limit are checked).
        ends = dict(zip(dist, map(values.__getitem__, dist.values())))  # {cell: values[d]}, in C
        del ends[start]
        crowds: dict[str, list[Unit]] = {}
        for other in world.state.units_on_map().get(own, ()):
            if other.location in ends and other.id != unit.id:
                crowds.setdefault(other.location, []).append(other)
        safe = plan.safe_stack - 1
        crowded = plan.crowded
        for cell, here in crowds.items():
            if len(here) > safe:
                key = (unit.type, *[u.type for u in here])
                bad = crowded.get(key)
                if bad is None:
                    bad = crowded[key] = _stacks_badly(rules, [*here, unit], arriving)
                if bad:
                    del ends[cell]
        return Reach(unit, table, points, dist, parent, reached_stops, ends, zone_step)
    # The side's own counters where the move could end, from the state's index of units by cell.
    by_cell = world.state.units_by_cell()
    gone = {u.id for u in arriving}
    ends = {}
    points_of, known_points = table.points, table.point_values
    # Carried units are set down where the carrier ends: only where they could stand.
    cargo_costs = [cost_table(rules, board, u.type, world.state.turn).cost for u in cargo if not u.dummy]
    for cell, d in dist.items():
        if cell == start or (must_end is not None and cell not in must_end):
            continue
        if cargo and (cell in sit.enemy_cells or any(cell not in costs for costs in cargo_costs)):
            continue
        here = by_cell.get(cell)
        if here:
            here = [u for u in here if u.side == own and u.id not in gone]
        if here:
            if _stacks_badly(rules, [*here, *arriving], arriving):
                continue
        elif not alone:
            continue
        value = known_points.get(d)
        ends[cell] = value if value is not None else points_of(d)
    return Reach(unit, table, points, dist, parent, reached_stops, ends, zone_step)


BUCKETS = 4096
"""Budgets (in scaled points) up to which the search keeps one bucket per distance instead of a heap."""


def _dijkstra(table: CostTable, start: str, budget: int | None, blocked: Collection[str], stop: Collection[str],
              zone: Mapping[str, ZoneRule] | None) -> tuple[dict[str, int], dict[str, str] | None, set[str]]:
    """Scaled costs of the cells reachable from ``start`` within ``budget``, their canonical
    predecessors (``None``: for ``Reach`` to find when asked), and the reached cells where a move
    must stop (``stop``, never expanded; ``start`` never counts).

    ``blocked`` cells are never entered.  ``zone`` (given when a zone-to-zone step is allowed):
    a first step into one of its cells takes the whole budget.  Among equally cheap paths each
    cell's predecessor is the one with the lowest id.

    Costs are small whole numbers, so with a budget and every step costing at least 1 the cells
    are taken in order of cost from one list per cost (Dial's algorithm), which settles each cell
    after all its cheaper predecessors as a heap would, with no heap to keep.  Then every
    predecessor of a cell is known with its cost, so the canonical one can be read afterwards
    for the few cells whose path is walked, and none is kept here.  Otherwise (no budget, or
    free steps) a heap ordered by cost then cell id, keeping predecessors as it goes.
    """
    if zone is None and budget is not None and budget <= BUCKETS and table.min_step >= 1 and start not in blocked:
        return _dial(table, start, budget, blocked, stop)
    steps = table.steps
    limit = budget if budget is not None else math.inf
    dist = {start: 0}
    parent: dict[str, str] = {}
    stops: set[str] = set()
    first = []
    for n, step in steps(start):
        if step > limit or n in blocked:
            continue
        if zone is not None and n in zone and budget is not None:
            step = budget  # the step takes all the unit's points
        old = dist.get(n)
        if old is None or step < old:
            dist[n] = step
            parent[n] = start
            first.append((step, n))
    get = dist.get
    if budget is not None and budget <= BUCKETS and table.min_step >= 1:
        buckets: list[list[str]] = [[] for _ in range(budget + 1)]
        for d, n in first:
            buckets[d].append(n)
        known = table.known_steps.get
        for d in range(1, budget + 1):
            room = budget - d
            for cell in buckets[d]:
                if dist[cell] != d:
                    continue  # reached more cheaply since
                if cell in stop:
                    stops.add(cell)
                    continue
                around = known(cell)
                if around is None:
                    around = steps(cell)
                for n, step in around:
                    if step > room or n in blocked:
                        continue
                    nd = d + step
                    old = get(n)
                    if old is None or nd < old:
                        dist[n] = nd
                        buckets[nd].append(n)
        return dist, None, stops
    pop, push = heapq.heappop, heapq.heappush
    done = {start}
    heap = sorted(first)
    while heap:
        d, cell = pop(heap)
        if cell in done:
            continue
        done.add(cell)
        if cell in stop:
            stops.add(cell)
            continue
        for n, step in steps(cell):
            if n in done or n in blocked:
                continue
            nd = d + step
            if nd > limit:
                continue
            old = get(n)
            if old is None or nd < old:
                dist[n] = nd
                parent[n] = cell
                push(heap, (nd, n))
            elif nd == old and cell < parent[n]:
                parent[n] = cell
    return dist, parent, stops


def _dial(table: CostTable, start: str, budget: int, blocked: Collection[str],
          stop: Collection[str]) -> tuple[dict[str, int], None, set[str]]:
    """``_dijkstra``'s lists per cost when no step takes the whole budget (no ``zone``).

    A cell costs the same to enter from any neighbour, and cells are expanded in order of cost,
    so the first time a cell is reached is at its lowest cost: it is never reached again more
    cheaply, sits in one list only, and "not reached yet" is the whole test.  Barred cells are put
    in ``dist`` beforehand as reached (at -1), so that one test keeps them out too, and taken out
    at the end; and each cell's steps come already cut to the points left (``steps_within``).
    The answer is the one the general loop gives, in the same order."""
    dist = dict.fromkeys(blocked, -1) if blocked else {}
    dist[start] = 0
    stops: set[str] = set()
    buckets: list[list[str]] = [[] for _ in range(budget + 1)]
    known, within_of, dearest, cheapest = table.known_steps_within.get, table.steps_within, table.max_step, \
        table.min_step
    around = known(start)
    if around is None:
        around = within_of(start)
    for n, step in around[budget if budget < dearest else dearest]:  # the start, at cost 0
        if n not in dist:
            dist[n] = step
            buckets[step].append(n)
    for d in range(1, budget + 1):
        room = budget - d
        if room < cheapest:  # no step left from here: only note where the move stops
            for cell in buckets[d]:
                if cell in stop:
                    stops.add(cell)
            continue
        r = room if room < dearest else dearest
        for cell in buckets[d]:
            if cell in stop:
                stops.add(cell)
                continue
            around = known(cell)
            if around is None:
                around = within_of(cell)
            for n, step in around[r]:
                if n not in dist:
                    nd = d + step
                    dist[n] = nd
                    buckets[nd].append(n)
    for c in blocked:  # none was reached: each is still there at -1
        dist.pop(c, None)
    return dist, None, stops


def reach(world: World, unit: Unit, points: Fraction | None | str = "full", **options: Any) -> Reach:
    """``search`` for any counter, dummies included (a ``UnionReach`` over its side's unit types)."""
    unit_type = world.rules.unit_type(unit.type)
    if not (unit_type.dummy and unit_type.movement is None):  # it moves as itself (``proxies``)
        return search(world, unit, points, **options)
    types = proxies(world.rules, unit)
    sit = options.pop("sit", None) or situation(world, unit.side, omniscient=options.get("omniscient", False))
    return UnionReach(unit, [search(world, unit, "full", as_type=t, sit=sit, **options) for t in types])


def reachable(world: World, unit: Unit, points: Fraction | None | str = "full", **options: Any) -> dict[str, Fraction]:
    """The cells ``unit`` may end its move in, with what reaching each costs.

    For example ``reachable(ctx, ctx.state.unit("A1"))`` → ``{"0102": Fraction(1), …}``.
    """
    return reach(world, unit, points, **options).ends


def explain(world: World, unit: Unit, cell: str, points: Fraction | None | str = "full", *,
            cargo: Iterable[Unit] = ()) -> str | None:
    """Why ``unit`` may not end its move in ``cell`` (naming the rule and its section), or ``None``."""
    rules, board = world.rules, world.board
    if cell not in board.graph:
        return f"{cell!r} is not a cell of the map"
    if cell == unit.location:
        return f"{unit.id} is already at {cell}"
    cargo = list(cargo)
    types = proxies(rules, unit)
    reasons = [_explain_as(world, unit, cell, points, cargo, t) for t in types]
    if not types or any(r is None for r in reasons):
        return None if types else f"{unit.id} cannot move"
    return reasons[0]


def _explain_as(world: World, unit: Unit, cell: str, points, cargo: list[Unit], type_name: str) -> str | None:
    rules = world.rules
    table = cost_table(rules, world.board, type_name, world.state.turn)
    if table.allowance == 0 and points == "full":
        mclass = movement_class(rules, rules.unit_type(type_name))
        return because(f"{unit.id} cannot move", mclass, None, f"movement '{mclass.name if mclass else 'none'}'")
    if cell in table.barred:
        return f"{cell} is {table.barred[cell]}"
    sit = situation(world, unit.side)
    forbidding = enemy_cells_forbidden(rules)
    if cell in sit.enemy_cells and (forbidding is not None or cargo):
        if cargo:
            return f"{cell} holds enemy counters: carried units may not be set down there"
        line = next(p for p in forbidding.all("enemy") if p.has("forbidden"))
        return because(f"{cell} holds enemy counters: enemy cells forbidden", forbidding, line,
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
                line = zone.decl.first("stops")
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
        mclass = movement_class(rules, rules.unit_type(type_name))
        return because(f"{cell} is {show_points(anywhere.cost(cell))} away and {unit.id} has {show_points(have)}",
                       mclass, None, f"movement '{mclass.name if mclass else '?'}'")
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
