"""Cost tables and cell sets held once however many unit types share them (issue 18 item 1), in the
neutral movement fixture (tests/interpreter/fixtures/movement/generic.rules) plus a second walker.

By hand from the rulebook: ``walker`` and ``strider`` are both blue (``never enters wall``) with
movement ``walk`` (2 points, no diagonals), so they cost the same everywhere; ``raider`` walks too
but is red, so it may enter walls; ``boat`` sails (``enters only water harbour``)."""

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
LEGEND = {".": "plain", "~": "water", "x": "wall", "h": "harbour"}


def board_of(rows: list[str]):
    lines = ["[map]", 'grid = "square"', f"width = {len(rows[0])}", f"height = {len(rows)}",
             "rows = [" + ", ".join(f'"{r}"' for r in rows) + "]", "[map.legend]"]
    lines += [f'"{c}" = "{t}"' for c, t in LEGEND.items()]
    return board_from_text("\n".join(lines) + "\n", "test-map.toml")


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    path = tmp_path_factory.mktemp("rules") / "generic.rules"
    path.write_text(FIXTURE.read_text(encoding="utf-8") + STRIDER, encoding="utf-8")
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
