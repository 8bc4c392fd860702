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

Limits: a table knows only the rules and the map, never the state: enemy counters, zones of
control, markers and stacking are the search's (``interpreter.movement``); a ``may enter … on
turn N`` line gets a table of its own for turn N (``table_key``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from fractions import Fraction

from attrs import frozen

from ..dsl.model import Declaration
from .board import Board
from .caches import rules_cache
from .cells import adjacency, cells_named, within
from .citations import because
from .options import option_on
from .rules import Rules, UnitType, as_names


UNLIMITED = None
"""``allowance`` of a unit with no movement-point limit."""

BUCKETS = 4096
"""Budgets (in scaled points) up to which the search (``interpreter.movement``) keeps one bucket per
distance instead of a heap, and a cost table keeps every point value up to its allowance (``point_list``)."""


def movement_class(rules: Rules, unit_type: UnitType) -> Declaration | None:
    """The ``movement`` declaration of the type's class, or ``None`` when it names none."""
    return rules.rulebook.get("movement", unit_type.movement) if unit_type.movement else None


def never_moves(rules: Rules, unit_type: UnitType) -> bool:
    """Whether a type cannot move by itself: ``never moves`` or ``needs transport``, on its class or marker.

    Read once per ``Rules`` and type (retreats ask it for every hex they consider)."""
    cache = rules_cache(rules).setdefault("never_moves", {})
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
    cache = rules_cache(rules).setdefault("allowance", {})
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
    cache = rules_cache(rules, board).setdefault("costs", {})
    key = table_key(rules, type_name, turn)
    table = cache.get(key)
    if table is None:
        table = cache[key] = _compile(rules, board, rules.unit_type(type_name), key[1])
    return table


def table_key(rules: Rules, type_name: str, turn: int | None) -> tuple[str, int | None]:
    """(type, turn) when the type has a ``may enter … on turn`` line for that turn, else (type, None)."""
    turns = rules_cache(rules).setdefault("may enter turns", {})
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
            where = as_names(line.get("where"))
            distance = line.get("distance")
            cells = cells_named(rules, board, where)
            if distance:
                cells = frozenset(within(board, cells, distance))
            confine.append((cells, " ".join(where) + (f" within {distance}" if distance else "")))
        for line in mclass.all("never"):
            if line.has("moves"):
                continue
            exceptions = as_names(line.get("exceptions"))
            if exceptions and unit_names & set(exceptions):
                continue
            cells = cells_named(rules, board, as_names(line.get("where"))) - cells_named(rules, board, exceptions)
            where = " ".join(as_names(line.get("where")))
            forbid.append((cells, because(f"movement '{mclass.name}' never enters {where}", mclass, line)))
    decl = rulebook.get(unit_type.kind, unit_type.name)
    may_enter = frozenset()
    if decl is not None:
        # A `may enter … on turn N` holds on turn N only: in that turn's table alone.
        may_enter = cells_named(rules, board, [n for p in decl.all("may") if p.get("turn") in (None, turn)
                                                for n in as_names(p.get("where"))])
        for line in decl.all("never"):
            if line.has("moves"):
                continue
            where = " ".join(as_names(line.get("where")))
            forbid.append((cells_named(rules, board, as_names(line.get("where"))),
                           because(f"{unit_type.name} never enters {where}", decl, line)))
    side = rulebook.get("side", unit_type.side) if unit_type.side else None
    if side is not None:
        for line in side.all("never"):
            if line.get("option") is not None and option_on(rulebook, str(line.get("option"))):
                continue  # `never enters … unless option NAME` while NAME is in force
            cells = cells_named(rules, board, as_names(line.get("where"))) - may_enter
            where = " ".join(as_names(line.get("where")))
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
        features = set(as_names(mclass.first("crosses").get("features"))) if mclass.has("crosses") else None
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
        must_end = cells_named(rules, board, as_names(line.get("where")))
        must_end_reason = because(f"movement '{mclass.name}' must end on "
                                  f"{' '.join(as_names(line.get('where')))}", mclass, line)
    return CostTable(unit_type.name, scale, cost, barred, adj, points, must_end, must_end_reason)
