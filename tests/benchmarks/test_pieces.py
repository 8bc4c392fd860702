"""The other benchmarks' pieces: the generated rulebook, the movement queries, the memory baseline, the table.

Each benchmark checks its two sides agree before timing them; these tests check the
same things on small inputs, fast, so a broken benchmark shows up in the test run.
No timing here.
"""

from __future__ import annotations

from collections import Counter

import networkx as nx
import pytest

from benchmarks import BENCHMARKS
from benchmarks.generated_rulebook import big_rulebook
from benchmarks.harness import Figure, interleaved_many, interleaved_rounds, markdown, pairs, ratio, table
from benchmarks.memory import bare_graph_builder, same_graph
from benchmarks.movement_range import LEGEND, map_text, queries, rulebook, terrain_rows, weighted_digraph
from warbook.dsl.lint import lint_report
from warbook.interpreter.board import board_from_text
from warbook.interpreter.grid import parse_cell_id
from warbook.interpreter.movement import reachable
from warbook.interpreter.rules import Rules

# --- the generated rulebook -------------------------------------------------------------------


def test_generated_rulebook_loads_without_errors(tmp_path):
    path = tmp_path / "big.rules"
    path.write_text(big_rulebook(40), encoding="utf-8")
    report = lint_report(path)
    assert report.rulebook is not None
    assert not [d for d in report.diagnostics if d.severity.name == "ERROR"]


def test_the_full_size_rulebook_has_about_five_thousand_lines():
    assert 5000 <= len(big_rulebook().splitlines()) <= 6000


def test_copies_are_the_body_repeated_with_unique_names(tmp_path):
    once, four = big_rulebook(40), big_rulebook(40, copies=4)
    header, sequence = 12, 5  # the sequence gains one `do fight` line per extra copy
    body = len(once.splitlines()) - header - sequence
    assert len(four.splitlines()) == header + 4 * body + sequence + 3
    path = tmp_path / "four.rules"
    path.write_text(four, encoding="utf-8")
    report = lint_report(path)
    assert report.rulebook is not None
    assert not [d for d in report.diagnostics if d.severity.name == "ERROR"]
    names = [(d.kind, d.name) for d in report.rulebook.declarations]
    assert len(names) == len(set(names))


def test_lint_findings_in_the_body_grow_with_the_copies(tmp_path):
    """Four copies give the linter four times the work: four times each finding about the body."""
    counts = []
    for copies in (1, 4):
        path = tmp_path / f"r{copies}.rules"
        path.write_text(big_rulebook(40, copies=copies), encoding="utf-8")
        counts.append(Counter(d.code for d in lint_report(path).diagnostics if d.code != "I605"))  # I605: header
    assert counts[0] and counts[1] == Counter({code: 4 * n for code, n in counts[0].items()})


# --- movement ------------------------------------------------------------------------------------


def small_board(size: int):
    rows = terrain_rows(size, seed=3)
    return board_from_text(map_text(rows), f"test-{size}.toml", LEGEND.values())


def test_reachable_cells_are_networkx_dijkstra_with_a_cutoff():
    board = small_board(24)
    graph = weighted_digraph(board)
    cells = [(5, 5), (12, 12), (1, 1), (24, 24), (9, 17), (2, 23)]
    for world, unit in queries(board, Rules(rulebook()), cells):
        ours = reachable(world, unit)
        theirs = nx.single_source_dijkstra_path_length(graph, unit.location, cutoff=8, weight="weight")
        del theirs[unit.location]
        assert ours == theirs


def test_the_same_range_on_a_larger_map_from_the_same_corner():
    rows = terrain_rows(40, seed=3)
    small = board_from_text(map_text([r[:20] for r in rows[:20]]), "s.toml", LEGEND.values())
    large = board_from_text(map_text(rows), "l.toml", LEGEND.values())
    rules = Rules(rulebook())
    for (sw, su), (lw, lu) in zip(queries(small, rules, [(10, 10)]), queries(large, rules, [(10, 10)])):
        assert {parse_cell_id(c): v for c, v in reachable(sw, su).items()} == \
            {parse_cell_id(c): v for c, v in reachable(lw, lu).items()}


# --- memory ------------------------------------------------------------------------------------


def test_the_memory_baseline_is_the_same_graph():
    board = small_board(12)
    built = bare_graph_builder(board)()
    assert same_graph(built, board.graph)
    assert built.number_of_nodes() == 144


# --- the harness -------------------------------------------------------------------------------


def test_calls_are_interleaved_after_a_warm_up():
    calls = []
    interleaved_many({"a": lambda: calls.append("a"), "b": lambda: calls.append("b")}, repeats=5, warmup=1)
    assert "".join(calls) == "ab" * 6


def test_fewer_than_five_repetitions_are_refused():
    with pytest.raises(ValueError):
        interleaved_many({"a": lambda: None}, repeats=4)


def test_the_table_shows_ratio_target_and_result():
    text = table([Figure("Fast", 1.2, 3.0, ["raw a"]), Figure("Slow", 4.5, 3.0), Figure("Rate", None, None,
                                                                                      shown="7/s")])
    lines = text.splitlines()
    assert lines[0].split() == ["figure", "measured", "[spread]", "target", "result"]
    assert lines[2].split() == ["Fast", "1.20x", "<=", "3x", "pass"]
    assert lines[3].split() == ["Slow", "4.50x", "<=", "3x", "miss"]
    assert lines[4].split() == ["Rate", "7/s", "report", "report"]
    assert "    raw a" in lines


def test_a_ratio_is_the_median_of_the_rounds_paired_ratios():
    """Round by round: one lucky round on either side does not set the figure (each side's minimum
    would give 1.0 / 0.5 = 2.0 here)."""
    ours, theirs = [1.0, 3.0, 3.3, 3.0, 6.0], [0.5, 3.0, 3.0, 2.0, 3.0]
    assert pairs(ours, theirs) == pytest.approx([2.0, 1.0, 1.1, 1.5, 2.0])
    assert ratio(ours, theirs) == 1.5


def test_a_paired_figure_shows_its_spread_and_the_readme_table():
    figure = Figure("Paired", 1.5, 3.0, pairs=[2.0, 1.0, 1.1, 1.5, 2.0])
    assert table([figure]).splitlines()[2].split() == ["Paired", "1.50x", "[1.00-2.00]", "<=", "3x", "pass"]
    assert markdown([figure]).splitlines()[2] == "| Paired | 1.50x [1.00-2.00] | ≤ 3x | pass |"


def test_each_round_gets_its_own_calls():
    made = []

    def make(round_):
        made.append(round_)
        return {"a": lambda: None}

    times = interleaved_rounds(make, repeats=5, warmup=2)
    assert made == list(range(7)) and len(times["a"]) == 5


def test_every_benchmark_module_has_a_run_function():
    import importlib

    for name, module in BENCHMARKS.items():
        assert callable(importlib.import_module(module).run), name


def test_the_growth_benchmark_tiles_the_map_and_its_units(tmp_path):
    from benchmarks.growth import tiled
    from warbook.interpreter.game import Game
    from warbook.interpreter.scenario import load_scenario

    one, eight = tmp_path / "one", tmp_path / "eight"
    one.mkdir()
    eight.mkdir()
    small, big = load_scenario(tiled(one, 1, 1, 1)), load_scenario(tiled(eight, 4, 2, 8))
    assert big.board.graph.number_of_nodes() == 8 * small.board.graph.number_of_nodes()
    assert len(Game.new(big, 1).state.units) == 8 * len(Game.new(small, 1).state.units)
    # the copy one tile to the right (8 cells and a border of 2) has the same terrain around it
    graph = big.board.graph
    terrain = [graph.nodes[c]["terrain"] for c in ("0304", "1304", "0312", "3312")]
    assert len(set(terrain)) == 1
    around = [sorted(graph.nodes[n]["terrain"] for n in graph.neighbors(c)) for c in ("0304", "1304", "3312")]
    assert around[0] == around[1] == around[2]
    # the border: the east and south of every tile are lake, at 1x too
    assert {graph.nodes[f"{c:02d}{r:02d}"]["terrain"] for c in (9, 10, 19, 20) for r in range(1, 17)} == {"lake"}
    assert {small.board.graph.nodes[f"{c:02d}07"]["terrain"] for c in range(1, 11)} == {"lake"}
