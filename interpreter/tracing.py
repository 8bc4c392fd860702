"""Tracing: whether a side can trace a path from a cell to a source (``trace NAME { … }``).

A ``trace`` (``dsl.compiled.control.TraceRule``) is a supply line or a line of communication: a
path of at most ``length`` cells entered (or movement points, as a named unit type pays them) from
the cell in question to a source (a map edge, cells with a terrain or tag, a cell with a friendly
unit of a type, a cell the side controls), not entering a cell it is ``blocked by`` (an enemy real
unit, an enemy zone of control unless a friendly real unit is there and ``zones lifted by friendly
units``) nor a ``never through`` cell.  The cell the path starts from never blocks it, and a unit
standing on a source traces at length 0.

``traced_cells`` finds every cell a side can trace from, in one search backwards from the sources
(each step into a cell costs what entering it costs; from a cell that may not be entered the search
goes no further), and keeps the answer while the units and control it read are unchanged.  The
condition ``in TRACE`` (``interpreter.conditions``), ``do check supply … by TRACE`` and a
placement's ``in TRACE`` line read it.

Limits: face-down enemy counters block as what they are (the engine knows; a dummy is not a
unit and blocks nothing), as zones of control do elsewhere.
"""

from __future__ import annotations

import heapq

from ..dsl.compiled.control import TraceRule
from .caches import map_memos
from .cells import adjacency
from .control import named_cells
from .costs import cost_table
from .grid import parse_cell_id
from .world import World
from .zones import enemy_zones


def traces(world: World, trace: TraceRule, side: str, cell: str | None) -> bool:
    """Whether ``side`` can trace ``trace`` from ``cell`` (``None``, or a box: never)."""
    return cell is not None and cell in traced_cells(world, trace, side)


def traced_cells(world: World, trace: TraceRule, side: str) -> frozenset[str]:
    """Every cell ``side`` can trace ``trace`` from (module docstring), kept while the state's
    units and control are the same objects (and the turn the same: costs may depend on it)."""
    state = world.state
    memo = map_memos(world.rules, world.board).trace_cells
    key = (trace.name, side)
    last = memo.get(key)
    if last is not None and last[0] is state.units and last[1] is state.control and last[3] is trace \
            and last[4] == state.turn:
        return last[2]
    found = _search(world, trace, side)
    memo[key] = (state.units, state.control, found, trace, state.turn)
    return found


def on_edge(board, cell: str, edges: frozenset[str]) -> bool:
    """Whether a cell lies on one of these edges of the map (``north`` is row 1, ``west`` column 1)."""
    where = parse_cell_id(cell)
    if where is None:
        return False
    column, row = where
    return (("west" in edges and column == 1) or ("east" in edges and column == board.width)
            or ("north" in edges and row == 1) or ("south" in edges and row == board.height))


def _real_units(world: World) -> dict[str, set[str]]:
    """Each cell on the map holding real units (not markers or dummies), with their sides."""
    unit_type = world.rules.unit_type
    out: dict[str, set[str]] = {}
    for side, units in world.state.units_on_map().items():
        for unit in units:
            if not unit.dummy and unit_type(unit.type).kind == "unit":
                out.setdefault(unit.location, set()).add(side)
    return out


def source_cells(world: World, trace: TraceRule, side: str, holding: dict[str, set[str]] | None = None) -> set[str]:
    """The cells a path of ``side`` may end at."""
    rules, board = world.rules, world.board
    if holding is None:
        holding = _real_units(world)
    memo = map_memos(rules, board).trace_cells
    out: set[str] = set()
    for source in trace.sources_for(side):
        if source.kind == "edge":
            key = ("edge", source.names)
            if key not in memo:
                memo[key] = frozenset(c for c in board.cells if on_edge(board, c, frozenset(source.names)))
            out |= memo[key]
        elif source.kind == "cells":
            key = ("cells", source.names)
            if key not in memo:
                memo[key] = named_cells(rules, board, source.names)
            out |= memo[key]
        elif source.kind == "units":
            named = rules.types_matching(source.names)
            out |= {u.location for u in world.state.units_on_map().get(side, ())
                    if not u.dummy and u.type in named}
        else:
            out |= {cell for cell, who in world.state.control if who == side}
    return out


def _search(world: World, trace: TraceRule, side: str) -> frozenset[str]:
    rules, board = world.rules, world.board
    holding = _real_units(world)
    blocked: set[str] = set()
    if trace.enemy_units:
        blocked |= {cell for cell, sides in holding.items() if sides - {side}}
    if trace.enemy_zones:
        zones = enemy_zones(world, side)
        blocked |= {cell for cell in zones if not (trace.zones_lifted and side in holding.get(cell, ()))}
    if trace.never_through:
        blocked |= named_cells(rules, board, trace.never_through)
    if trace.points_as is not None:
        table = cost_table(rules, board, trace.points_as, world.state.turn)
        costs, around = table.cost, table.adjacency
        budget = None if trace.length is None else trace.length * table.scale
    else:
        around = adjacency(board)
        costs = None
        budget = trace.length
    dist: dict[str, int] = {}
    heap = [(0, cell) for cell in sorted(source_cells(world, trace, side, holding))]
    for _, cell in heap:
        dist[cell] = 0
    heapq.heapify(heap)
    while heap:
        d, cell = heapq.heappop(heap)
        if d > dist[cell] or cell in blocked:
            continue  # a path may not enter a blocked cell, so none goes on through it
        step = 1 if costs is None else costs.get(cell)
        if step is None:
            continue  # a cell the unit type may not enter
        nd = d + step
        if budget is not None and nd > budget:
            continue
        for n in around[cell]:
            if nd < dist.get(n, nd + 1):
                dist[n] = nd
                heapq.heappush(heap, (nd, n))
    return frozenset(dist)
