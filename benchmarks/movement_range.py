"""Movement range: warbook's reachable cells against networkx's Dijkstra, and against a 9x larger map.

Two figures, on generated hex maps of clear (1 MP), wood (2) and hill (3) and the
``scout`` of ``benchmarks/games/open_ground.rules`` (8 MP):

- **movement** — ``interpreter.movement.reachable(world, unit)`` on a 100×100 map ÷
  ``networkx.single_source_dijkstra_path_length(G, cell, cutoff=8, weight="weight")``
  on a directed graph whose edge weights are precomputed entry costs.  Both answer
  the same question; the benchmark asserts the same cells at the same costs for
  every query.  Target ≤ 1.6×.  warbook's cost table is compiled once per rules, map
  and unit type (the warm-up pays for it), as networkx's weights are built once.
- **mapsize** — the same queries on a 300×300 map whose top-left 100×100 corner is
  the small map ÷ on the 100×100 map.  A range query should cost what the range
  covers, not what the map holds.  Target ≤ 1.3×.  The reachable sets are asserted
  equal, cell for cell (by column and row).

Run: ``python -m benchmarks movement`` or ``python -m benchmarks mapsize``.
"""

from __future__ import annotations

import random
import statistics
from functools import cache
from pathlib import Path

from benchmarks.harness import Figure, interleaved, pairs, profile_call, ratio, show_time, spread

NAMES = ("movement", "mapsize")
RULES = Path(__file__).parent / "games" / "open_ground.rules"
LEGEND = {".": "clear", "w": "wood", "h": "hill"}
COSTS = {"clear": 1, "wood": 2, "hill": 3}
SMALL, LARGE = 100, 300
QUERIES = 40
MARGIN = 10
"""Start cells lie this far inside the small map, so no range reaches its edge (8 MP reach 8 hexes)."""


def terrain_rows(size: int, seed: int = 6) -> list[str]:
    """``size`` rows of ``size`` cells: half clear, 30% wood, 20% hill, from a fixed seed."""
    rng = random.Random(seed)
    return ["".join(rng.choices(".wh", weights=(5, 3, 2), k=size)) for _ in range(size)]


def map_text(rows: list[str]) -> str:
    lines = ["[map]", f'name = "Generated {len(rows[0])}x{len(rows)}"', 'grid = "hex"', f"width = {len(rows[0])}",
             f"height = {len(rows)}", "rows = [" + ", ".join(f'"{r}"' for r in rows) + "]", "[map.legend]"]
    lines += [f'"{char}" = "{name}"' for char, name in LEGEND.items()]
    return "\n".join(lines) + "\n"


def start_cells(count: int = QUERIES, seed: int = 8) -> list[tuple[int, int]]:
    """(column, row) of each query's unit, inside the small map's margin."""
    rng = random.Random(seed)
    return [(rng.randint(MARGIN + 1, SMALL - MARGIN), rng.randint(MARGIN + 1, SMALL - MARGIN)) for _ in range(count)]


@cache
def rulebook():
    from warbook.dsl.loader import load_rulebook

    return load_rulebook(RULES)


@cache
def large_rows() -> tuple[str, ...]:
    return tuple(terrain_rows(LARGE))


def board(size: int):
    """The generated board of ``size``×``size``: the top-left corner of the large map."""
    from warbook.interpreter.board import board_from_text

    rows = [row[:size] for row in large_rows()[:size]]
    return board_from_text(map_text(rows), f"generated-{size}.toml", LEGEND.values())


def queries(the_board, rules, cells: list[tuple[int, int]]):
    """One ``(world, unit)`` per start cell: the scout alone on the map."""
    from warbook.interpreter.grid import cell_id
    from warbook.interpreter.world import Parts
    from warbook.interpreter.state import GameState, Unit

    digits = the_board.graph.graph["id_width"]
    out = []
    for column, row in cells:
        unit = Unit("B1", "scout", "blue", cell_id(column, row, digits))
        out.append((Parts(rules, the_board, GameState(units=(unit,))), unit))
    return out


def weighted_digraph(the_board):
    """networkx's side: every edge both ways, weighted with the cost of entering its head."""
    import networkx as nx

    graph = nx.DiGraph()
    terrain = the_board.graph.nodes
    for a, b in the_board.graph.edges:
        graph.add_edge(a, b, weight=COSTS[terrain[b]["terrain"]])
        graph.add_edge(b, a, weight=COSTS[terrain[a]["terrain"]])
    return graph


def bench_movement(profile: bool = False) -> Figure:
    import networkx as nx

    from warbook.interpreter.movement import reachable
    from warbook.interpreter.rules import Rules

    the_board = board(SMALL)
    rules = Rules(rulebook())
    asked = queries(the_board, rules, start_cells())
    graph = weighted_digraph(the_board)
    sizes = []
    for world, unit in asked:
        ours = reachable(world, unit)
        theirs = nx.single_source_dijkstra_path_length(graph, unit.location, cutoff=8, weight="weight")
        theirs = {cell: cost for cell, cost in theirs.items() if cell != unit.location}
        if ours != theirs:
            raise AssertionError(f"reachable cells differ from networkx's from {unit.location}: "
                                 f"{sorted(set(ours) ^ set(theirs))[:8]}")
        sizes.append(len(ours))

    def warbook() -> None:
        for world, unit in asked:
            reachable(world, unit)

    def networkx() -> None:
        for _, unit in asked:
            nx.single_source_dijkstra_path_length(graph, unit.location, cutoff=8, weight="weight")

    ours_t, theirs_t = interleaved(warbook, networkx)
    if profile:
        profile_call(warbook)
    return Figure("Movement range (100x100, 8 MP)", ratio(ours_t, theirs_t), 1.6, pairs=pairs(ours_t, theirs_t), raw=[
        f"{len(asked)} queries, {sum(sizes) / len(sizes):.0f} cells reached on average",
        f"warbook reachable:          {spread(ours_t)}, {show_time(statistics.median(ours_t) / len(asked))} a query",
        f"networkx dijkstra (cutoff): {spread(theirs_t)}, {show_time(statistics.median(theirs_t) / len(asked))} a query",
    ])


def bench_mapsize(profile: bool = False) -> Figure:
    from warbook.interpreter.grid import parse_cell_id
    from warbook.interpreter.movement import reachable
    from warbook.interpreter.rules import Rules

    rules = Rules(rulebook())
    cells = start_cells()
    small, large = queries(board(SMALL), rules, cells), queries(board(LARGE), rules, cells)
    for (sw, su), (lw, lu) in zip(small, large):
        a, b = reachable(sw, su), reachable(lw, lu)
        if {parse_cell_id(c): v for c, v in a.items()} != {parse_cell_id(c): v for c, v in b.items()}:
            raise AssertionError(f"the ranges from {su.location} differ between the two maps")

    def query_all(asked) -> None:
        for world, unit in asked:
            reachable(world, unit)

    large_t, small_t = interleaved(lambda: query_all(large), lambda: query_all(small))
    if profile:
        profile_call(lambda: query_all(large))
    return Figure("Map-size independence (300x300 / 100x100)", ratio(large_t, small_t), 1.3,
                  pairs=pairs(large_t, small_t), raw=[
        f"{len(cells)} queries from the same cells of both maps",
        f"300x300: {spread(large_t)}, {show_time(statistics.median(large_t) / len(cells))} a query",
        f"100x100: {spread(small_t)}, {show_time(statistics.median(small_t) / len(cells))} a query",
    ])


def run(name: str, profile: bool = False) -> list[Figure]:
    return [bench_movement(profile)] if name == "movement" else [bench_mapsize(profile)]
