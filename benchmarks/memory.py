"""Memory: what warbook holds for a map and a game state, against the bare networkx graph.

Measured with ``tracemalloc`` as the memory still allocated after building (garbage
collected), on the 100×100 map of the movement benchmarks:

- warbook: the ``Board`` read from the map's TOML (its frozen ``networkx`` graph with
  node attributes ``terrain``/``tags``/``place`` and edge attributes ``kind``/``features``,
  plus the character of each cell), a ``GameState`` with 20 units, and what movement
  derives from the map once a unit has moved: the neighbour lists, the cost table of
  the unit's type, the per-map caches.  The rulebook is not counted: it is the same
  whatever the map.
- baseline: a plain ``networkx.Graph`` with the same nodes, the same node attributes
  and the same edges with the same attributes, built directly.

Target ≤ 1.5×.  Memory is not timed, but is measured in the same A B A B order, five
times after a warm-up, keeping each side's minimum.

A second figure per shipped game counts everything a played game keeps: one random game
of the scenario to its end, then what is still allocated, against the scenario's board (its
graph with its attributes) as loaded.  Counted: the ``Game`` and its context, the state, and
every cache play filled, whoever holds it — the compiled rules' and the board's memos (cost
tables, their steps and searches, zones, cells of each selector, set-up and placement cells),
the lint answers a new game asks for, and the module-level memos (option sort keys).  Not
counted: the rulebook and its compiled rules and the board themselves (built before the game),
and code (every module a game may import is imported before measuring).  The game's *log* is
measured exactly (what is freed when the game lets go of it) but reported apart, in bytes per
decision: it is the game's record, not a cache, and grows with the game's length (a long study
keeps compact saves instead, ``interpreter.savefile``).  Same target; the caches alone (what
is still allocated after the game is gone) are shown under it.

Run: ``python -m benchmarks memory``.
"""

from __future__ import annotations

import gc
import tracemalloc

from benchmarks.harness import Figure

NAMES = ("memory",)
UNITS = 20
REPEATS = 5


def _kib(n: int) -> str:
    return f"{n / 1024:,.0f} KiB"


def retained(build) -> tuple[int, object]:
    """Bytes allocated by ``build()`` and still alive afterwards, and what it built (kept alive)."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        built = build()
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return after - before, built


def run(name: str = "memory", profile: bool = False) -> list[Figure]:
    from benchmarks.movement_range import LEGEND, SMALL, large_rows, map_text, rulebook
    from warbook.interpreter import movement
    from warbook.interpreter.board import board_from_text
    from warbook.interpreter.rules import Rules
    from warbook.interpreter.state import GameState, Unit
    from warbook.interpreter.world import Parts

    text = map_text([row[:SMALL] for row in large_rows()[:SMALL]])
    rules = Rules(rulebook())
    reference = board_from_text(text, "generated.toml", LEGEND.values())
    cells = list(reference.graph.nodes)
    starts = cells[SMALL * 10 + 10::len(cells) // UNITS][:UNITS]

    def warbook():
        board = board_from_text(text, "generated.toml", LEGEND.values())
        units = tuple(Unit(f"B{n:02d}", "scout", "blue", cell) for n, cell in enumerate(starts, start=1))
        state = GameState(units=units)
        world = Parts(rules, board, state)
        movement.reachable(world, units[0])
        return board, state

    bare = bare_graph_builder(reference)
    if not same_graph(bare(), reference.graph):
        raise AssertionError("the baseline graph differs from the board's")
    warbook()  # warm-up: imports, interned names, the rulebook's own caches
    ours, theirs = [], []
    for _ in range(REPEATS):
        size, kept = retained(warbook)
        ours.append(size)
        del kept
        size, kept = retained(bare)
        theirs.append(size)
        del kept
    board_size, kept = retained(lambda: board_from_text(text, "generated.toml", LEGEND.values()))
    del kept
    if profile:
        _profile(warbook)
    return [*_played_games(), Figure("Memory (map + state / networkx graph)", min(ours) / min(theirs), 1.5, [
        f"{len(cells)} cells, {reference.graph.number_of_edges()} edges, {UNITS} units",
        f"warbook board + state + movement caches: {_kib(min(ours))}",
        f"  of which the board alone:              {_kib(board_size)}",
        f"bare networkx graph, same attributes:    {_kib(min(theirs))}",
    ])]


GAMES = ("klicks_village_sweep", "sea_lords_zumwalt")
"""The shipped scenarios whose played games are measured: the smallest and the largest."""


def _played_games() -> list[Figure]:
    from pathlib import Path

    from warbook.interpreter.agents import RandomAgent, iter_play
    from warbook.interpreter.board import board_from_text
    from warbook.interpreter.game import Game
    from warbook.interpreter.rng import choice_rng
    from warbook.interpreter.scenario import load_scenario

    root = Path(__file__).resolve().parents[1]
    _import_everything()  # modules a game imports when first needed are not part of what it keeps
    figures = []
    for stem in GAMES:
        scenario = load_scenario(root / "scenarios" / f"{stem}.toml")
        rules = scenario.rules
        board_size, kept = retained(lambda: board_from_text(scenario.map_text, scenario.map_path, list(rules.terrains),
                                                            features=rules.features))
        del kept

        def play():
            game = Game.new(scenario, 1)
            agents = {side: RandomAgent(choice_rng(1, side)) for side in rules.sides}
            for _ in iter_play(game, agents):
                pass
            return game

        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            game = play()
            gc.collect()
            with_log = tracemalloc.get_traced_memory()[0] - before
            entries, decisions = len(game.log), len(game.choices)
            game.log = []  # what only the log holds is freed: its exact size
            gc.collect()
            with_game = tracemalloc.get_traced_memory()[0] - before
            log = with_log - with_game
            del game
            gc.collect()
            caches = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
        figures.append(Figure(f"Memory of a played game, caches included ({stem} / its board)",
                              with_game / board_size, 1.5, [
                                  f"one random game to its end: {decisions} decisions, {entries} log entries",
                                  f"kept with the game alive, its log aside: {_kib(with_game)}",
                                  f"  of which caches (kept after the game is gone): {_kib(caches)}",
                                  f"the log, apart: {_kib(log)}, {log / max(decisions, 1):,.0f} bytes a decision",
                                  f"the scenario's board as loaded: {_kib(board_size)}",
                              ]))
    return figures


def _import_everything() -> None:
    import importlib
    import pkgutil

    import warbook.dsl
    import warbook.interpreter

    for package in (warbook.dsl, warbook.interpreter):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            importlib.import_module(module.name)


def bare_graph_builder(board):
    """A function building the baseline: ``board``'s graph as a plain ``networkx.Graph``, by hand.

    The same nodes, node attributes, edges and edge attributes, held as a careful
    hand-built graph holds them: one id string per cell, one shared empty set.  The
    inputs (coordinates, terrain names, edge kinds) are prepared here, outside what is
    measured.
    """
    import networkx as nx

    from warbook.interpreter.grid import cell_id, parse_cell_id

    cells = list(board.graph.nodes)
    index = {cell: n for n, cell in enumerate(cells)}
    coordinates = [parse_cell_id(cell) for cell in cells]
    terrain = [board.terrain(cell) for cell in cells]
    places = [board.graph.nodes[cell]["place"] for cell in cells]
    edges = [(index[a], index[b], kind) for a, b, kind in board.graph.edges(data="kind")]
    digits = board.graph.graph["id_width"]
    if any(board.tags(cell) for cell in cells) or any(f for _, _, f in board.graph.edges(data="features")):
        raise ValueError("the baseline builder handles maps without cell tags or edge features only")

    def build() -> nx.Graph:
        empty = frozenset()
        ids = [cell_id(column, row, digits) for column, row in coordinates]
        graph = nx.Graph()
        for cell, kind, place in zip(ids, terrain, places):
            graph.add_node(cell, terrain=kind, tags=empty, place=place)
        for a, b, kind in edges:
            graph.add_edge(ids[a], ids[b], kind=kind, features=empty)
        return graph

    return build


def same_graph(a, b) -> bool:
    """The same nodes and edges with the same attributes (graph-level attributes aside)."""
    def edges(graph):
        return {frozenset((x, y)): data for x, y, data in graph.edges(data=True)}

    return dict(a.nodes(data=True)) == dict(b.nodes(data=True)) and edges(a) == edges(b)


def _profile(build, top: int = 12) -> None:
    """Print the source lines that allocated most of what ``build()`` keeps."""
    gc.collect()
    tracemalloc.start()
    built = build()
    gc.collect()
    snapshot = tracemalloc.take_snapshot()
    tracemalloc.stop()
    print(f"memory kept by warbook's map and state, top {top} lines:")
    for stat in snapshot.statistics("lineno")[:top]:
        frame = stat.traceback[0]
        print(f"  {stat.size / 1024:10,.0f} KiB {stat.count:8,} blocks  {frame.filename}:{frame.lineno}")
    del built
