"""Cheapest costs over a cost table: the searches under ``interpreter.movement.search``.

``cheapest_costs(table, start, budget, blocked, stop, zone)`` gives the scaled cost of every
cell a unit type reaches from ``start`` within ``budget`` (``None``: no limit), never entering
``blocked`` cells and never going on from ``stop`` cells, and, where a step into ``zone`` takes the
whole budget, that too.  It knows costs and cells only, never rules or state; the same question
is answered once per cost table (``CostTable.searches``).

Guarantees: among equally cheap paths each cell's predecessor is the one with the lowest cell
id, whichever of the three searches answers (a bucket list per cost with a budget, breadth first
when every step costs 1 and there is no budget, a heap otherwise), and ``dist`` is filled in the
order the heap would fill it.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Collection, Mapping

from . import costs
from .costs import CostTable
from .zones import ZoneRule

SEARCH_CELLS_KEPT = 1
"""The cells the searches a cost table keeps (``CostTable.searches``) may hold between them, as a
multiple of the cells the table lets its types enter: beyond it the oldest are forgotten, so what a
game keeps stays in proportion to its map however long it runs (the searches asked again are
nearly all from the same phase: the last few).  At 1 rather than 2, a played game of the largest
shipped scenario keeps 130 KiB less (of the smallest, 27 KiB), and steady playouts count no more
instructions (1,679.3M -> 1,678.5M, 955.7M -> 955.2M, and for the benchmarks' small game 153.4M ->
153.3M)."""


NO_STOPS: frozenset[str] = frozenset()
"""The reached stops of every search kept that reached none (most): one empty set, not one each."""


def cheapest_costs(table: CostTable, start: str, budget: int | None, blocked: Collection[str], stop: Collection[str],
                   zone: Mapping[str, ZoneRule] | None) -> tuple[dict[str, int], dict[str, str] | None,
                                                                 Collection[str]]:
    """``_search``, kept per table: what it finds depends only on its arguments, and the same
    search is asked again and again (a unit offered moves, then walking one).  The answer is shared,
    so it is never changed: ``Reach`` only adds to the predecessors, which the answer decides."""
    # (Callers mostly pass frozensets already: ``frozenset`` of one is itself, but still a call.)
    key = (start, budget, blocked if blocked.__class__ is frozenset else frozenset(blocked),
           stop if stop.__class__ is frozenset else frozenset(stop), frozenset(zone) if zone is not None else None)
    memo = table.searches
    found = memo.get(key)
    if found is None:
        found = _search(table, start, budget, blocked, stop, zone)
        if not found[2]:
            found = (found[0], found[1], NO_STOPS)
        memo[key] = found
        memo.cells += len(found[0])
        limit = SEARCH_CELLS_KEPT * len(table.cost)
        while memo.cells > limit and len(memo) > 1:
            memo.cells -= len(memo.pop(next(iter(memo)))[0])
    return found


def _search(table: CostTable, start: str, budget: int | None, blocked: Collection[str], stop: Collection[str],
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
    if zone is None and budget is not None and budget <= costs.BUCKETS and table.min_step >= 1 and start not in blocked \
            and not table.crossing:  # (a crossing cost makes a cell's cost depend on the step into it)
        return _dial(table, start, budget, blocked, stop)
    if budget is None and table.min_step == table.max_step == 1:
        return _breadth_first(table, start, blocked, stop)
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
    if budget is not None and budget <= costs.BUCKETS and table.min_step >= 1:
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


def _breadth_first(table: CostTable, start: str, blocked: Collection[str],
                   stop: Collection[str]) -> tuple[dict[str, int], None, set[str]]:
    """``cheapest_costs``'s heap when there is no budget and every step costs 1 (``unlimited distance``).

    Cells are expanded a distance at a time, in id order within it, which is the order the heap
    pops them in: so ``dist`` is filled in the same order, and each cell's predecessor is the
    lowest-id expanded cell one step nearer, as there, which ``Reach`` reads from ``dist`` for the
    few cells whose path is walked (as after ``_dial``): none is kept here (a search of the whole
    map kept one per cell, 6 KiB of the smallest shipped scenario's played game).  No heap, no
    costs to add.  A cell's neighbours are one tuple (``_neighbours``) read in ``steps`` order, each
    tested against ``seen``: for a handful of neighbours a plain loop beats a set difference (which
    also needed a set of each cell's neighbours kept per table)."""
    known = table.known_neighbours.get
    seen = {start, *blocked}
    add = seen.add
    dist = {start: 0}
    stops: set[str] = set()
    frontier, d = [start], 0
    while frontier:
        frontier.sort()
        following: list[str] = []
        nd = d + 1
        for cell in frontier:
            if d and cell in stop:  # (the start never stops)
                stops.add(cell)
                continue
            around = known(cell)
            if around is None:  # (not ``or``: a cell may step nowhere, and ``()`` is kept too)
                around = _neighbours(table, cell)
            for n in around:
                if n not in seen:
                    add(n)
                    dist[n] = nd
                    following.append(n)
        frontier, d = following, nd
    return dist, None, stops


def _neighbours(table: CostTable, cell: str) -> tuple[str, ...]:
    """``CostTable.known_neighbours`` of ``cell``, made and kept: the table's neighbour tuple when
    every neighbour may be stepped to (most cells), else the copy ``step_tuples`` holds.  Read from
    the costs and the adjacency, not from ``steps``: a search that steps to every neighbour alike
    needs no step pairs kept (``CostTable._steps``'s test, in the same order)."""
    every = table.adjacency[cell]
    cost, crossing = table.cost, table.crossing
    order = tuple([n for n in every if n in cost and crossing.get((cell, n), 0) is not None]) if crossing \
        else tuple([n for n in every if n in cost])
    found = table.known_neighbours[cell] = every if order == every else table.step_tuples.setdefault(order, order)
    return found


def _dial(table: CostTable, start: str, budget: int, blocked: Collection[str],
          stop: Collection[str]) -> tuple[dict[str, int], None, set[str]]:
    """``cheapest_costs``'s lists per cost when no step takes the whole budget (no ``zone``).

    A cell costs the same to enter from any neighbour, and cells are expanded in order of cost,
    so the first time a cell is reached is at its lowest cost: it is never reached again more
    cheaply, sits in one list only, and "not reached yet" (nor barred) is the whole test; each
    cell's steps come already cut to the points left (``steps_within``).  (Barred cells are not
    put in ``dist`` beforehand: there are as many as enemy counters, most of them far away.)
    The answer is the one the general loop gives, in the same order."""
    dist = {start: 0}
    stops: set[str] = set()
    buckets: list[list[str]] = []
    for _ in range(budget + 1):  # (a loop: no comprehension's frame, at every search)
        buckets.append([])
    known, within_of, dearest, cheapest = table.known_steps_within.get, table.steps_within, table.max_step, \
        table.min_step
    around = known(start)
    if around is None:
        around = within_of(start)
    for n, step in around[budget if budget < dearest else dearest]:  # the start, at cost 0
        if n not in dist and n not in blocked:
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
                if n not in dist and n not in blocked:
                    nd = d + step
                    dist[n] = nd
                    buckets[nd].append(n)
    return dist, None, stops
