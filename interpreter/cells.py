"""Cells of a map as the rules see them: neighbours, distances, and the names that select each.

- ``adjacency(board)``: every cell's neighbours in id order (once per map);
- ``within(board, sources, n)``: the cells at most ``n`` steps from any source, with the distance;
- ``cell_selectors(rules, board)`` / ``cells_named(rules, board, names)``: which selector names
  (terrain, its tags, the cell's own tags) pick out each cell (once per rules and map);
- ``distances_from(rules, board, names)``: every cell's distance from the nearest such cell.

Distances are graph hops on the map's graph (``interpreter.board``): every edge counts one, a
diagonal or a crossing as much as any other.  Limits: what a unit may actually step across
(``diagonals no``, ``crosses only``) is a cost table's business (``interpreter.costs``), not these.
"""

from __future__ import annotations

from collections.abc import Iterable

from .board import Board
from .caches import board_cache, map_memos
from .rules import Rules


def adjacency(board: Board) -> dict[str, tuple[str, ...]]:
    """Every cell's neighbours in id order, built once per map."""
    cache = board_cache(board)
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
    memos = map_memos(rules, board)
    if memos.selectors is None:  # Rules.cell_selectors keeps each kind of cell's answer
        memos.selectors = {cell: rules.cell_selectors(data["terrain"], data["tags"])
                           for cell, data in board.graph.nodes(data=True)}
    return memos.selectors


def cells_named(rules: Rules, board: Board, names: Iterable[str]) -> frozenset[str]:
    """The cells any of ``names`` selects (by terrain, terrain tag or cell tag; see ``cell_selectors``)."""
    wanted = set(names)
    return frozenset(c for c, sel in cell_selectors(rules, board).items() if sel & wanted)


def distances_from(rules: Rules, board: Board, names: Iterable[str]) -> dict[str, int]:
    """Every cell's distance in graph steps from the nearest cell ``names`` select (0 in one; a
    cell none reaches is left out), once per rules, map and names (an award's ``at distance``)."""
    key = tuple(sorted(set(names)))
    cache = map_memos(rules, board).distances
    if key not in cache:
        cache[key] = within(board, cells_named(rules, board, key), board.graph.number_of_nodes())
    return cache[key]
