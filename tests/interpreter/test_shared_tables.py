"""Cost tables and cell sets held once however many unit types share them (issue 18 item 1), in the
neutral movement fixture (tests/interpreter/fixtures/movement/generic.rules) plus a second walker.

By hand from the rulebook: ``walker`` and ``strider`` are both blue (``never enters wall``) with
movement ``walk`` (2 points, no diagonals), so they cost the same everywhere; ``raider`` walks too
but is red, so it may enter walls; ``boat`` sails (``enters only water harbour``); ``flier`` (added
here) is red and flies (``unlimited distance``), so it enters every cell, a step costing 1."""

from __future__ import annotations

from pathlib import Path

import pytest

from warbook.dsl import load_rulebook
from warbook.interpreter import pathfinding
from warbook.interpreter.board import board_from_text
from warbook.interpreter.caches import share
from warbook.interpreter.costs import cost_table
from warbook.interpreter.rules import Rules

FIXTURE = Path(__file__).parent / "fixtures" / "movement" / "generic.rules"
STRIDER = '\nunit strider "Strider" {\n    side blue\n    movement walk\n}\n'
FLIER = '\nmovement fly "Fly" {\n    unlimited distance\n}\nunit flier "Flier" {\n    side red\n    movement fly\n}\n'
LEGEND = {".": "plain", "~": "water", "x": "wall", "h": "harbour"}


def board_of(rows: list[str]):
    lines = ["[map]", 'grid = "square"', f"width = {len(rows[0])}", f"height = {len(rows)}",
             "rows = [" + ", ".join(f'"{r}"' for r in rows) + "]", "[map.legend]"]
    lines += [f'"{c}" = "{t}"' for c, t in LEGEND.items()]
    return board_from_text("\n".join(lines) + "\n", "test-map.toml")


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    path = tmp_path_factory.mktemp("rules") / "generic.rules"
    path.write_text(FIXTURE.read_text(encoding="utf-8") + STRIDER + FLIER, encoding="utf-8")
    return Rules(load_rulebook(path))


ROWS = ["..x.", "~hx.", "~~.."]  # two wall cells, three water, one harbour, six plain


def cells_of(board, terrain: str) -> set[str]:
    return {c for c in board.cells if board.terrain(c) == terrain}


def test_types_that_cost_the_same_share_their_costs_steps_and_searches(rules):
    board = board_of(ROWS)
    walker, strider, raider = (cost_table(rules, board, t) for t in ("walker", "strider", "raider"))
    assert len(walker.cost) == 10 and len(raider.cost) == 12  # the walls barred to blue only
    assert walker.cost is strider.cost and walker.adjacency is strider.adjacency
    assert walker.searches is strider.searches and walker.known_steps is strider.known_steps
    assert raider.cost is not walker.cost and raider.searches is not walker.searches
    assert walker.adjacency is raider.adjacency  # the same class: no diagonals for either


def test_the_cells_a_step_goes_to_are_one_tuple_for_every_table_that_steps_there(rules):
    board = board_of(ROWS)
    walker, raider = cost_table(rules, board, "walker"), cost_table(rules, board, "raider")
    assert walker.known_neighbours is not raider.known_neighbours  # two tables, two memos
    # 0102 (water) steps to 0101, 0103, 0202 for both walking types; beside the wall 0301, 0201
    # steps to it for the red raider alone (no diagonals for either).
    assert pathfinding._neighbours(walker, "0102") == ("0101", "0103", "0202")
    assert pathfinding._neighbours(raider, "0102") is walker.known_neighbours["0102"] is walker.adjacency["0102"]
    assert pathfinding._neighbours(walker, "0201") == ("0101", "0202")
    assert pathfinding._neighbours(raider, "0201") == ("0101", "0202", "0301")
    assert raider.known_neighbours["0201"] is raider.adjacency["0201"]  # every neighbour: nothing new kept
    assert walker.step_tuples is raider.step_tuples and list(walker.step_tuples) == [("0101", "0202")]


def test_barred_cells_give_their_reason_cell_by_cell(rules):
    board = board_of(ROWS)
    walls, plain = cells_of(board, "wall"), cells_of(board, "plain")
    assert len(walls) == 2 and len(plain) == 6
    walker, strider, boat = (cost_table(rules, board, t) for t in ("walker", "strider", "boat"))
    assert set(walker.barred) == walls and len(walker.barred) == 2
    for cell in walls:
        assert cell in walker.barred
        assert walker.barred[cell].startswith("wall: side 'blue' never enters wall")
    some_plain = min(plain)
    assert some_plain not in walker.barred and walker.barred.get(some_plain) is None
    with pytest.raises(KeyError):
        walker.barred[some_plain]
    # The same cells barred to two types are one set.
    assert [id(s) for s in walker.barred._cells.values()] == [id(s) for s in strider.barred._cells.values()]
    # A boat enters water and harbour only: every plain and wall cell is barred, for that reason.
    assert set(boat.barred) == plain | walls and len(boat.barred) == 8
    assert boat.barred[some_plain].startswith("plain: movement 'sail' enters only water harbour")


def test_share_gives_one_object_per_value(rules):
    board = board_of(ROWS)
    a = share(rules, board, frozenset({"0101", "0201"}))
    assert share(rules, board, frozenset({"0201", "0101"})) is a
    assert share(rules, board, frozenset({"0101"})) is not a
    d = share(rules, board, {"0101": 1, "0201": 2})
    assert share(rules, board, {"0101": 1, "0201": 2}) is d
    # Equal as dicts but iterated in another order: not the same object, so iteration stays as asked.
    other = {"0201": 2, "0101": 1}
    assert share(rules, board, other) is other
    assert share(rules, board, ("0101", "0201")) is share(rules, board, ("0101", "0201"))
    # Unequal values of one hash (CPython hashes -1 as -2) are kept side by side, each given back.
    first, second = (-1,), (-2,)
    assert hash(first) == hash(second)
    assert share(rules, board, first) is first and share(rules, board, second) is second
    assert share(rules, board, tuple([-1])) is first and share(rules, board, tuple([-2])) is second


def test_searches_kept_stay_within_a_few_times_the_map_and_answer_as_fresh_ones(rules):
    board = board_of(["." * 12] * 12)
    table = cost_table(rules, board, "runner")  # 3 points, with diagonals: up to 49 cells a search
    limit = pathfinding.SEARCH_CELLS_KEPT * len(table.cost)
    starts = sorted(board.cells)
    budget = table.full_budget
    for start in starts:
        found = pathfinding.cheapest_costs(table, start, budget, (), (), None)
        assert found == pathfinding._search(table, start, budget, (), (), None)
        assert table.searches.cells <= limit
        assert table.searches.cells == sum(len(kept[0]) for kept in table.searches.values())
        # The last search is kept: asked again, the same answer object.
        assert pathfinding.cheapest_costs(table, start, budget, (), (), None) is found
    assert len(table.searches) < len(starts)  # the oldest were forgotten


def test_a_step_to_a_cell_at_a_cost_is_one_pair_for_every_table(rules):
    board = board_of(ROWS)
    walker, raider = cost_table(rules, board, "walker"), cost_table(rules, board, "raider")
    # From 0201 (plain, beside the wall 0301) both walk to 0101 (water) and 0202 (harbour); the red
    # raider into the wall too.  Their costs are alike but for the wall: the same pairs, one copy.
    walks, raids = walker.steps("0201"), raider.steps("0201")
    assert [cell for cell, _ in walks] == ["0101", "0202"]
    assert [cell for cell, _ in raids] == ["0101", "0202", "0301"]
    assert walks[0] is raids[0] and walks[1] is raids[1]
    assert walks[0] == ("0101", walker.cost["0101"])
    assert walker.step_pairs is raider.step_pairs and raids[2] in raider.step_pairs


def test_a_search_by_neighbours_keeps_no_steps_and_a_table_entering_every_cell_reads_the_adjacency(rules):
    board = board_of(ROWS)
    flier, boat = cost_table(rules, board, "flier"), cost_table(rules, board, "boat")
    assert len(flier.cost) == 12 and flier.known_neighbours is flier.adjacency  # nothing of its own to keep
    pairs = len(flier.step_pairs)
    dist, parent, stops = pathfinding.cheapest_costs(flier, "0101", None, (), (), None)
    # With diagonals, a flier is as far from 0101 as the larger of the columns and rows between.
    assert dist == {"0101": 0, "0102": 1, "0201": 1, "0202": 1, "0103": 2, "0203": 2, "0301": 2, "0302": 2,
                    "0303": 2, "0401": 3, "0402": 3, "0403": 3}
    assert parent is None and stops is pathfinding.NO_STOPS  # predecessors read when asked; no stop reached
    assert flier.known_steps == {} and len(flier.step_pairs) == pairs
    # The boat enters 4 cells (water, harbour): its neighbours are kept cell by cell, still no steps.
    dist, _, _ = pathfinding.cheapest_costs(boat, "0102", None, (), (), None)
    assert dist == {"0102": 0, "0103": 1, "0202": 1, "0203": 1}
    assert boat.known_neighbours is not boat.adjacency and boat.known_neighbours["0102"] == ("0103", "0202", "0203")
    assert boat.known_steps == {}


def test_the_steps_by_points_left_and_the_steps_are_one_tuple_kept_once(rules):
    board = board_of(ROWS)
    walker = cost_table(rules, board, "walker")  # every cell costs 1, so item 0 steps nowhere
    within = walker.steps_within("0201")
    assert within == ((), (("0101", 1), ("0202", 1))) and "0201" not in walker.known_steps
    assert walker.steps("0201") is within[-1] is walker.known_steps["0201"]  # read from there, not made again
    assert walker.steps("0101") == (("0102", 1), ("0201", 1))
    assert walker.steps_within("0101")[-1] is walker.steps("0101")  # the other way round too


def test_points_of_scaled_costs_are_shared_by_the_tables_of_a_scale(rules):
    board = board_of(ROWS)
    walker, raider, boat = (cost_table(rules, board, t) for t in ("walker", "raider", "boat"))
    assert walker.scale == raider.scale == boat.scale == 1
    assert walker.point_values is raider.point_values is boat.point_values
    assert walker.points(2) == 2 and raider.points(2) is walker.points(2)


@pytest.mark.parametrize("blocked, stop", [((), ()), (("0202",), ("0201",)), (("0102", "0202"), ("0302", "0203"))])
def test_paths_after_a_search_by_neighbours_are_those_the_heap_keeps(rules, blocked, stop):
    from warbook.interpreter.movement import Reach
    from warbook.interpreter.state import Unit

    board = board_of(ROWS)
    flier = cost_table(rules, board, "flier")
    dist, parent, stops = pathfinding.cheapest_costs(flier, "0101", None, blocked, stop, None)
    # A budget past any bucket list: the heap, keeping each cell's predecessor as it goes.
    heap_dist, heap_parent, heap_stops = pathfinding._search(flier, "0101", 10 ** 6, blocked, stop, None)
    assert list(dist.items()) == list(heap_dist.items()) and set(stops) == heap_stops and parent is None
    reach = Reach(Unit("F1", "flier", "red", "0101"), flier, None, dist, parent, stops, {})
    assert reach.parent == heap_parent
    # By hand: the lowest-id cell a step nearer that the flier went on from (not a stop), in id order.
    assert reach.path("0403") == {0: ("0101", "0201", "0302", "0403"),  # 0201 before 0202
                                  1: ("0101", "0102", "0203", "0302", "0403"),  # round the stop 0201
                                  2: ("0101", "0201", "0301", "0402", "0403")}[len(blocked)]  # round 0302
