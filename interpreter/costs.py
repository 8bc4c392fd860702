"""What moving costs a unit type: its movement class, its allowance, and what each cell costs to enter.

``cost_table(rules, board, type)`` compiles, once per rules, map and unit type, what every cell
costs that type to enter (``None``: it may never enter it) from the terrain's ``cost`` lines and
the movement class's ``enters only`` / ``never enters`` lines, the side's ``never enters`` and the
type's own ``never enters`` / ``may enter``, plus the neighbours it may step to (``diagonals no``,
``crosses only``).  Costs are whole numbers of ``1/scale`` points, so the search adds integers,
never ``Fraction``s (python-chess precomputes its attack tables for the same reason); each cell's
steps (neighbour, cost) are kept as searches reach it.

Readings of the rules language (each a choice where the language leaves one):

- **``enters only`` lines are alternatives**: a cell may be entered if any line
  allows it; ``enters only road within 1`` allows every cell at most 1 cell from a
  road cell (graph hops, the road cell itself included).
- **Points.**  ``points factor F`` reads the type's factor F (``all`` is
  unlimited, a blank factor is 0), ``points N``, ``points unlimited``; ``unlimited
  distance`` ignores costs (each cell counts 1, for the canonical path) but not
  where the class may go: ``no entry`` terrain bars it like any other unit.  A
  class without a ``points`` line, ``never moves`` and ``needs transport`` give 0.
- **``cell cost N``** replaces every terrain's cost for the class (not its ``no entry``); under
  ``unlimited distance`` each cell still counts 1.
- **Entering only across a feature** (``entered only across``): a step into such a cell across
  a side or corner without one of the features is barred, whatever crosses it.
- **Crossing a feature** (a feature's ``cost`` lines, ``_crossings``): an edge with a feature
  whose line gives a whole cost (``cost ½``, a road) costs the cheapest such, whatever the cell
  and the edge's other features (a road across a river is a bridge); otherwise a ``no entry``
  line bars the step, and ``+N`` lines add to the cell's cost.  Under ``unlimited distance`` or
  ``cell cost`` only the bars count.

Limits: a table knows only the rules and the map, never the state: enemy counters, zones of
control, markers and stacking are the search's (``interpreter.movement``); a ``may enter … on
turn N`` line gets a table of its own for turn N (``table_key``).  So does each set of the
weather- and turn-dependent lines (terrain ``cost … when``, movement ``allowance … when``) that
hold: their conditions read the turn and the weather alone (``condition_lines.holds_at``).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from fractions import Fraction

from attrs import Factory, field, frozen

from ..dsl.compiled.lines import line_for
from .board import Board
from .caches import map_memos, share
from .cells import adjacency, cells_named, within
from .citations import because
from .condition_lines import holds_at, line_condition
from .options import option_on
from .rules import Rules, UnitType


UNLIMITED = None
"""``allowance`` of a unit with no movement-point limit."""

BUCKETS = 4096
"""Budgets (in scaled points) up to which the search (``interpreter.movement``) keeps one bucket per
distance instead of a heap, and a cost table keeps every point value up to its allowance (``point_list``)."""


def never_moves(rules: Rules, unit_type: UnitType) -> bool:
    """Whether a type cannot move by itself: ``never moves`` or ``needs transport``, on its class or marker."""
    mclass = rules.movement_of(unit_type)
    return unit_type.never_moves or (mclass is not None and (mclass.never_moves or mclass.needs_transport))


def allowance(rules: Rules, unit_type: UnitType) -> Fraction | None:
    """Movement points per move: a ``Fraction``, or ``None`` (``UNLIMITED``)."""
    if never_moves(rules, unit_type):
        return Fraction(0)
    mclass = rules.movement_of(unit_type)
    if mclass is None:
        return Fraction(0)
    points = mclass.points
    if mclass.unlimited_distance or points == "unlimited":
        return UNLIMITED
    if points is None or points == "none":
        return Fraction(0)
    if isinstance(points, str):  # "factor NAME"
        value = unit_type.factor(points.split(" ", 1)[1])
        if value == "all":
            return UNLIMITED
        return Fraction(value) if isinstance(value, (int, Fraction)) else Fraction(0)
    return Fraction(points)


def _allowance_held(mclass, unit_type: UnitType, points: Fraction | None, held: frozenset[int]) -> Fraction | None:
    """The allowance after the class's ``allowance … when`` lines that hold, in order: ``at most N``
    caps it (an unlimited one too), a multiplier scales a limited one, rounded down."""
    for line in mclass.allowances:
        if id(line.condition) not in held or (line.who and unit_type.selectors.isdisjoint(line.who)):
            continue
        if line.cap is not None:
            points = Fraction(line.cap) if points is UNLIMITED else min(points, Fraction(line.cap))
        elif points is not UNLIMITED:
            points = Fraction(math.floor(points * line.multiplier))
    return points


class Barred(Mapping[str, str]):
    """Why each barred cell is barred, held as the cells of each reason: a map has thousands of
    cells barred for a few reasons, and the same cells are barred for the same reasons to many unit
    types (the cell tuples are shared between tables, ``caches.share``).  Asked only to explain, so
    the cells are tuples, read through, not sets: the largest shipped scenario's 161 sets of barred
    cells were 109 KiB of a played game's memory."""

    __slots__ = ("_cells",)

    def __init__(self, cells: Mapping[str, tuple[str, ...]]) -> None:
        self._cells = cells
        """The cells barred, by the reason (in words ending with the rule's section)."""

    def __getitem__(self, cell: str) -> str:
        for reason, cells in self._cells.items():
            if cell in cells:
                return reason
        raise KeyError(cell)

    def __contains__(self, cell: object) -> bool:
        return any(cell in cells for cells in self._cells.values())

    def __iter__(self) -> Iterator[str]:
        for cells in self._cells.values():
            yield from cells

    def __len__(self) -> int:
        return sum(map(len, self._cells.values()))


class Searches(dict):
    """``CostTable.searches``: answers of ``pathfinding.cheapest_costs`` by what decides them, with
    how many cells they hold between them (``pathfinding`` keeps that below a few times the table's
    cells, forgetting the oldest first)."""

    __slots__ = ("cells",)

    def __init__(self) -> None:
        super().__init__()
        self.cells = 0


def _step_costs(table: "CostTable") -> list[int]:
    """Every scaled cost a step may have on ``table``: entering a cell, or crossing a feature."""
    return [*table.cost.values(), *(c for c in table.crossing.values() if c is not None)]


@frozen
class CostTable:
    """What each cell costs one unit type to enter, compiled once per rules, map and type."""

    type_name: str
    scale: int
    """Costs are whole numbers of ``1/scale`` movement points."""
    cost: Mapping[str, int]
    """Cells the type may enter, with their scaled cost; a cell not here is barred."""
    barred: Mapping[str, str]
    """Why each barred cell is barred, in words ending with the rule's section (a ``Barred``)."""
    adjacency: Mapping[str, tuple[str, ...]]
    allowance: Fraction | None
    must_end: frozenset[str] | None
    """Cells a move must end in (``must end on``), or ``None`` when any will do."""
    must_end_reason: str = ""
    crossing: Mapping[tuple[str, str], int | None] = field(factory=dict)
    """Steps whose cost a feature on the edge crossed changes (a feature's ``cost`` lines): the
    scaled cost of stepping from the first cell into the second, ``None`` where it is barred."""
    searches: Searches = field(factory=lambda: Searches(), eq=False, repr=False)
    """Searches of this table already made, by what decides them (``interpreter.movement``):
    the same unit type from the same cell among the same obstacles is searched again and again
    in a phase.  Shared like the table, and with every table of the same costs and steps (these
    four memos read nothing else); ``pathfinding`` bounds it."""
    known_steps: dict[str, tuple[tuple[str, int], ...]] = field(factory=dict, eq=False, repr=False)
    """``steps`` of the cells asked so far (read it directly in a loop; never change it).  A cell
    ``steps_within`` knows is not kept here until ``steps`` is asked (then as the same tuple): the
    searches with a budget read ``steps_within`` alone, and the smallest shipped scenario's played
    game kept both, 15 KiB of dictionaries for nothing."""
    known_steps_within: dict[str, tuple[tuple[tuple[str, int], ...], ...]] = field(factory=dict, eq=False, repr=False)
    """``steps_within`` of the cells asked so far (read it directly in a loop; never change it)."""
    step_pairs: dict[tuple[str, int], tuple[str, int]] = field(factory=dict, eq=False, repr=False)
    """One copy of each step ``(cell, cost)`` the step memos hold, shared by the steps of all the
    cell's neighbours and by every table of the rules on the map (``MapMemos.step_pairs``): kept per
    table and cell instead, a played game of the largest shipped scenario held 2,008 pairs, 1,069 of
    them distinct (157 KiB with their dictionaries)."""
    known_neighbours: dict[str, tuple[str, ...]] = field(factory=dict, eq=False, repr=False)
    """The cells ``steps`` goes to from each cell asked so far, in ``steps`` order; each tuple is
    the one copy ``step_tuples`` keeps.  Kept by ``interpreter.pathfinding`` (read from the costs,
    making and keeping no ``steps``); for a table that enters every cell and bars no step, the
    ``adjacency`` itself.  The smallest shipped scenario's unlimited tables kept 280 cells' steps
    and neighbours, 57 KiB, to read the neighbours alone."""
    step_tuples: dict[tuple[str, ...], tuple[str, ...]] = field(factory=dict, eq=False, repr=False)
    """One copy of each ``known_neighbours`` tuple, shared by every table of the rules on the map
    (``MapMemos.step_tuples``): a tuple each cell and table was most of a played game's memory
    on a large map with many unit types (the largest shipped scenario: 1,336 KiB of sets and
    tuples, 15 tables)."""
    point_values: dict[int, Fraction] = field(factory=dict, eq=False, repr=False)
    """Scaled costs already turned back into points (a ``Fraction`` is slow to make), shared by
    every table of the rules on the map with the same ``scale`` (``MapMemos.point_values``): one
    dictionary of ``Fraction``s per table was 13 KiB of a played game of the smallest shipped
    scenario (13 tables, 2 scales)."""
    # Derived from the fields above once, when the table is made (fields, not ``cached_property``:
    # attrs gives a slotted class with one a ``__getattr__``, and CPython then reads none of the
    # class's attributes by its specialised fast path, in the search's inner loops too).
    full_budget: int | None = field(init=False, eq=False, repr=False, default=Factory(
        lambda t: None if t.allowance is None else math.floor(t.allowance * t.scale), takes_self=True))
    """The whole allowance in table units (asked at nearly every move)."""
    min_step: int = field(init=False, eq=False, repr=False, default=Factory(
        lambda t: min(_step_costs(t), default=0), takes_self=True))
    """The cheapest scaled cost of a step (0 for a type that may enter no cell)."""
    max_step: int = field(init=False, eq=False, repr=False, default=Factory(
        lambda t: max(_step_costs(t), default=0), takes_self=True))
    """The dearest scaled cost of a step (0 for a type that may enter no cell)."""
    point_list: list[Fraction] = field(init=False, eq=False, repr=False, default=Factory(
        lambda t: [] if t.full_budget is None or t.full_budget > BUCKETS else
        [t.points(n) for n in range(t.full_budget + 1)], takes_self=True))
    """``points(n)`` for every ``n`` up to the whole allowance (none for an unlimited or huge one)."""

    @property
    def unlimited(self) -> bool:
        return self.allowance is None

    def scaled(self, points: Fraction | None) -> int | None:
        """Points as a budget in table units (rounded down: costs are whole units)."""
        if points is self.allowance:
            return self.full_budget
        return None if points is None else math.floor(points * self.scale)

    def points(self, scaled: int) -> Fraction:
        value = self.point_values.get(scaled)
        if value is None:
            value = self.point_values[scaled] = Fraction(scaled, self.scale)
        return value

    def step_cost(self, cell: str, into: str) -> int | None:
        """The scaled cost of stepping from ``cell`` into the neighbour ``into`` (``None``: barred)."""
        if into not in self.cost:
            return None
        return self.crossing.get((cell, into), self.cost[into]) if self.crossing else self.cost[into]

    def steps_within(self, cell: str) -> tuple[tuple[tuple[str, int], ...], ...]:
        """``steps(cell)`` by the points left: item ``r`` (0 to ``max_step``) holds the steps that
        cost at most ``r``, in id order, so a search with ``r`` points left reads only the steps it
        can take.  Built a cell at a time, as ``steps``."""
        found = self.known_steps_within.get(cell)
        if found is None:
            every = self.known_steps.get(cell)
            if every is None:  # made, not kept twice: ``steps`` reads it from here
                every = self._steps(cell)
            by_points: list[tuple[tuple[str, int], ...]] = []
            for r in range(self.max_step + 1):
                steps = tuple(s for s in every if s[1] <= r)
                # The same steps for several budgets (all of them, often) are one tuple.
                by_points.append(every if len(steps) == len(every) else
                                 by_points[-1] if by_points and len(by_points[-1]) == len(steps) else steps)
            found = self.known_steps_within[cell] = tuple(by_points)
        return found

    def steps(self, cell: str) -> tuple[tuple[str, int], ...]:
        """The neighbours the type may step to from ``cell``, each with its scaled cost, in id order.

        Built a cell at a time as searches reach it (then kept), so a search's inner loop reads
        one tuple per cell instead of a cost per neighbour, and a huge map costs only what is
        searched."""
        found = self.known_steps.get(cell)
        if found is None:
            within = self.known_steps_within.get(cell)
            found = self.known_steps[cell] = within[-1] if within is not None else self._steps(cell)
        return found

    def _steps(self, cell: str) -> tuple[tuple[str, int], ...]:
        """``steps(cell)``, made (not kept: ``steps`` and ``steps_within`` keep it, each in its memo)."""
        step_to = self.step_to
        if not self.crossing:
            return tuple(step_to(n) for n in self.adjacency[cell] if n in self.cost)
        # A feature on the edge may change a step's cost, or bar it.
        return tuple(step_to(n) if (cell, n) not in self.crossing else (n, self.crossing[cell, n])
                     for n in self.adjacency[cell] if n in self.cost and self.crossing.get((cell, n), 0) is not None)

    def step_to(self, cell: str) -> tuple[str, int]:
        step = (cell, self.cost[cell])
        return self.step_pairs.setdefault(step, step)


def cost_table(rules: Rules, board: Board, type_name: str, turn: int | None = None,
               weather: str | None = None) -> CostTable:
    """The compiled costs of ``type_name`` on ``board`` (cached while both are alive).

    ``turn``: the game turn, for a type with a ``may enter … on turn N`` line: on turn N its table
    lets it into those cells too (a table of its own); on other turns, and without ``turn``, not.
    ``turn`` and ``weather`` also decide which ``cost … when`` and ``allowance … when`` lines hold.
    """
    cache = map_memos(rules, board).costs
    key = table_key(rules, type_name, turn, weather)
    table = cache.get(key)
    if table is None:
        flags = key[2] if len(key) > 2 else ()
        held = frozenset(id(c) for c, on in zip(moving_conditions(rules, type_name), flags) if on)
        table = cache[key] = _compile(rules, board, rules.unit_type(type_name), key[1], held)
    return table


def table_key(rules: Rules, type_name: str, turn: int | None, weather: str | None = None) -> tuple:
    """(type, turn) when the type has a ``may enter … on turn`` line for that turn, else (type, None);
    for a type some ``… when`` line may apply to, a third item: whether each of those holds."""
    key = (type_name, turn if turn in rules.unit_type(type_name).may_enter_turns else None)
    conditions = moving_conditions(rules, type_name)
    if not conditions:
        return key
    return (*key, tuple(holds_at(c, turn or 0, weather) for c in conditions))


def moving_conditions(rules: Rules, type_name: str) -> tuple:
    """The conditions of the terrain ``cost … when`` lines and the type's class's ``allowance … when``
    lines, in a fixed order (worked out once per type).

    Raises:
        RulesError: (E805) for one the grammar could not read (lint W508).
    """
    key = ("moving conditions", type_name)
    found = rules.derived.get(key)
    if found is None:
        mclass = rules.movement_of(rules.unit_type(type_name))
        lines = [c for t in rules.terrains.values() for c in t.conditional_costs]
        lines += list(mclass.allowances if mclass is not None else ())
        found = rules.derived[key] = tuple(line_condition(line) for line in lines)
    return found


def _terrain_cost_line(rules: Rules, terrain: str, unit_type: UnitType,
                       cell_tags: frozenset[str], held: frozenset[int] = frozenset()) -> tuple[Fraction | None, str]:
    def held_line(known):  # a `cost … when` line that holds overrides the terrain's plain lines
        if not held or not known.conditional_costs:
            return None
        return line_for([c.line for c in known.conditional_costs if id(c.condition) in held], unit_type.selectors)

    cost, known, line = rules.cell_cost(terrain, unit_type, cell_tags, held_line)
    if cost is not None:
        return cost, ""
    name = known.name if known else terrain
    return None, because(f"{name}: no entry", known.decl if known else None, line.source if line else None,
                         f"terrain '{name}'")


def _why(whys: dict[tuple[str, str], str], terrain: str, reason: str) -> str:
    """``"TERRAIN: REASON"``, made once per terrain and reason (a map has thousands of cells barred
    for the same few reasons; one string each would be most of a cost table's memory)."""
    found = whys.get((terrain, reason))
    if found is None:
        found = whys[terrain, reason] = f"{terrain}: {reason}"
    return found


def _compile(rules: Rules, board: Board, unit_type: UnitType, turn: int | None = None,
             held: frozenset[int] = frozenset()) -> CostTable:
    mclass = rules.movement_of(unit_type)
    points = allowance(rules, unit_type)
    if held and mclass is not None and points != 0:
        points = _allowance_held(mclass, unit_type, points, held)
    unit_names = unit_type.selectors

    # Where the class, the side and the type forbid or confine.
    confine: list[tuple[frozenset[str], str]] = []  # (allowed cells, wording) per `enters only`, alternatives
    forbid: list[tuple[frozenset[str], str]] = []
    if mclass is not None:
        for line in mclass.confinements:
            cells = cells_named(rules, board, line.where)
            if line.distance:
                cells = frozenset(within(board, cells, line.distance))
            confine.append((cells, " ".join(line.where) + (f" within {line.distance}" if line.distance else "")))
        for barrier in mclass.barriers:
            if barrier.exceptions and unit_names & set(barrier.exceptions):
                continue
            cells = cells_named(rules, board, barrier.where) - cells_named(rules, board, barrier.exceptions)
            forbid.append((cells, because(f"movement '{mclass.name}' never enters {' '.join(barrier.where)}",
                                          mclass.decl, barrier.source)))
    # A `may enter … on turn N` holds on turn N only: in that turn's table alone.
    may_enter = cells_named(rules, board, [n for e in unit_type.may_enter if e.turn in (None, turn) for n in e.where])
    for entry in unit_type.never_enters:
        forbid.append((cells_named(rules, board, entry.where),
                       because(f"{unit_type.name} never enters {' '.join(entry.where)}", unit_type.decl, entry.source)))
    side = rules.side_rules.get(unit_type.side) if unit_type.side else None
    if side is not None:
        for barrier in side.barriers:
            if barrier.unless_option is not None and option_on(rules.rulebook, barrier.unless_option):
                continue  # `never enters … unless option NAME` while NAME is in force
            cells = cells_named(rules, board, barrier.where) - may_enter
            forbid.append((cells, because(f"side '{side.name}' never enters {' '.join(barrier.where)}",
                                          side.decl, barrier.source)))
    confine_reason = ""
    if confine and mclass is not None:
        confine_reason = because(f"movement '{mclass.name}' enters only "
                                 f"{', or '.join(text for _, text in confine)}", mclass.decl,
                                 mclass.confinements[0].source)

    # Costs, terrain by terrain.
    by_terrain: dict[tuple[str, frozenset[str]], tuple[Fraction | None, str]] = {}
    raw: dict[str, Fraction] = {}
    barred: dict[str, list[str]] = {}  # the cells barred, by the reason
    whys: dict[tuple[str, str], str] = {}  # one explanation per terrain and reason, shared by its cells
    for cell, data in board.graph.nodes(data=True):
        terrain = data["terrain"]
        key = (terrain, data["tags"])  # the tags may give a deferring terrain its other terrain
        if key not in by_terrain:
            cost, why = _terrain_cost_line(rules, terrain, unit_type, data["tags"], held)
            if cost is not None and points is UNLIMITED:
                cost = Fraction(1)
            elif cost is not None and mclass is not None and mclass.cell_cost is not None:
                cost = mclass.cell_cost  # `cell cost N`: whatever the terrain (no entry still bars)
            by_terrain[key] = (cost, why)
        cost, why = by_terrain[key]
        if cost is None:
            barred.setdefault(why, []).append(cell)
            continue
        if confine and not any(cell in cells for cells, _ in confine):
            barred.setdefault(_why(whys, terrain, confine_reason), []).append(cell)
            continue
        reason = next((text for cells, text in forbid if cell in cells), None)
        if reason is not None:
            barred.setdefault(_why(whys, terrain, reason), []).append(cell)
            continue
        raw[cell] = cost
    scale = 1
    for value in {*raw.values(), *([points] if points else [])}:
        scale = math.lcm(scale, value.denominator)

    # Neighbours: every adjacent cell, unless the class limits diagonals or crossings.
    adj = adjacency(board)
    if mclass is not None and (mclass.crosses_only is not None or mclass.no_diagonals):
        features, no_corners = mclass.crosses_only, mclass.no_diagonals
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
    if mclass is not None and mclass.must_end_on:
        must_end = cells_named(rules, board, mclass.must_end_on)
        must_end_reason = because(f"movement '{mclass.name}' must end on {' '.join(mclass.must_end_on)}",
                                  mclass.decl, mclass.must_end_source)
    crossing = _crossings(rules, board, unit_type, mclass, raw, points)
    for value in {v for v in crossing.values() if v is not None}:
        scale = math.lcm(scale, value.denominator)
    scaled = {value: int(value * scale) for value in {*raw.values(), *crossing.values()} if value is not None}
    cost = share(rules, board, {cell: scaled[value] for cell, value in raw.items()})
    adj = share(rules, board, adj) if adj is not adjacency(board) else adj
    steps = share(rules, board, {step: None if value is None else scaled[value] for step, value in crossing.items()})
    why = Barred({reason: share(rules, board, tuple(cells)) for reason, cells in barred.items()})
    # A type whose costs and steps are another's (several classes of ground units often are) shares
    # that table's memos of steps and searches: they read nothing else.
    kept = map_memos(rules, board)
    alike = next((t for t in kept.costs.values()
                  if t.cost is cost and t.adjacency is adj and t.crossing is steps), None)
    memos = {"step_tuples": kept.step_tuples, "step_pairs": kept.step_pairs,
             "point_values": kept.point_values.setdefault(scale, {})}
    if alike is not None:
        memos |= {"searches": alike.searches, "known_steps": alike.known_steps,
                  "known_steps_within": alike.known_steps_within, "known_neighbours": alike.known_neighbours}
    elif len(cost) == len(adj) and None not in steps.values():
        # Every cell entered and no step barred: each cell steps to all its neighbours, so the
        # neighbours the searches step to are the adjacency itself, whole (read, never added to).
        memos["known_neighbours"] = adj
    return CostTable(unit_type.name, scale, cost, why, adj, points, must_end, must_end_reason, steps, **memos)


def _crossings(rules: Rules, board: Board, unit_type: UnitType, mclass, raw: Mapping[str, Fraction],
               points: Fraction | None) -> dict[tuple[str, str], Fraction | None]:
    """What a feature's ``cost`` lines make of each step across an edge it lies on, for this type:
    the step's cost (``N``: N whatever the cell's terrain and the edge's other features, the
    cheapest of such features: a road across a river is a bridge; else ``+N``: the cell's cost and
    every such N), or ``None`` where a ``no entry`` line bars it (and no ``N`` line opens it), or
    the cell entered is ``entered only across`` features the edge lacks.  Only steps between cells
    the type may enter, and only where a line changes something; under ``unlimited distance`` or
    ``cell cost`` the barred steps alone (every cell costs the same there)."""
    costing = {name: f for name, f in rules.features.items() if f.crossing}
    narrow = {name: t.entered_across for name, t in rules.terrains.items() if t.entered_across is not None}
    if not costing and not narrow:
        return {}
    uniform = points is UNLIMITED or (mclass is not None and mclass.cell_cost is not None)
    out: dict[tuple[str, str], Fraction | None] = {}
    nodes = board.graph.nodes
    for a, b, data in board.graph.edges(data=True):
        if a not in raw or b not in raw:
            continue
        names = data.get("features", ())
        if narrow:  # `entered only across`: a step into such a cell across no such feature is barred
            for here, there in ((a, b), (b, a)):
                known = rules.cell_terrain(nodes[there]["terrain"], nodes[there]["tags"])
                if known is not None and known.name in narrow and names.isdisjoint(narrow[known.name]):
                    out[here, there] = None
        lines = [line.value for name in names if name in costing
                 for line in (line_for(costing[name].crossing, unit_type.selectors),) if line is not None]
        if not lines:
            continue
        amounts = [line.amount for line in lines if line.amount is not None]
        barred = not amounts and any(line.barred for line in lines)
        for here, there in ((a, b), (b, a)):
            if barred:
                out[here, there] = None
                continue
            if uniform or (here, there) in out:  # (barred by `entered only across`)
                continue
            if amounts:
                value = min(amounts)  # along a road: its cost, whatever else the edge or cell holds
            else:
                value = max(raw[there] + sum(line.extra for line in lines if line.extra is not None), Fraction(0))
            if value != raw[there]:
                out[here, there] = value
    return out
