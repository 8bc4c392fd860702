"""Map files to boards: geometry checked by hand, and every bad map a diagnostic."""

import pytest

from warbook.dsl.diagnostics import RulesError
from warbook.interpreter import grid
from warbook.interpreter.board import board_from_text

HEX = '''
[map]
name = "Hand-checked hexes"
grid = "hex"
width = 4
height = 3
rows = ["..j.", ".~..", "...."]
[map.legend]
"." = "clear"
"j" = "jungle"
"~" = ["river", "water"]
[map.places]
"Ford" = "0202"
'''


def test_hex_neighbours_follow_the_even_columns_low_convention():
    board = board_from_text(HEX, "h.toml")
    # Column 2 is even, so it sits half a hex lower: 0202 touches 0102/0103 and 0302/0303.
    assert sorted(board.neighbours("0202")) == ["0102", "0103", "0201", "0203", "0302", "0303"]
    # Column 3 is odd: 0302 touches 0201/0202 and 0401/0402.
    assert sorted(board.neighbours("0302")) == ["0201", "0202", "0301", "0303", "0401", "0402"]
    # A corner hex has only the neighbours that lie on the map.
    assert sorted(board.neighbours("0101")) == ["0102", "0201"]


def test_a_map_may_set_its_odd_columns_low():
    board = board_from_text(HEX.replace('grid = "hex"', 'grid = "hex"\nlow_columns = "odd"'), "h.toml")
    # Column 2 is even, now the higher: 0202 touches 0101/0102 and 0301/0302.
    assert sorted(board.neighbours("0202")) == ["0101", "0102", "0201", "0203", "0301", "0302"]
    # Column 3 is odd, now lower: 0302 touches 0202/0203 and 0402/0403.
    assert sorted(board.neighbours("0302")) == ["0202", "0203", "0301", "0303", "0402", "0403"]
    assert sorted(board.neighbours("0101")) == ["0102", "0201", "0202"]
    # 0101, 0202, 0302, 0403: three hexes (four with the even columns low).
    assert board.distance("0101", "0403") == 3
    assert all(board.distance(a, b) == 1 for a in board.cells for b in board.neighbours(a))


def test_an_unknown_map_key_or_column_setting_is_refused():
    typo = errors(HEX.replace('grid = "hex"', 'grid = "hex"\nlow_colums = "odd"'))
    assert typo == [("E701", 5, "unknown key 'low_colums' in [map]")]
    assert errors(HEX.replace('grid = "hex"', 'grid = "hex"\nlow_columns = "both"'))[0][:2] == ("E701", 5)
    square = errors(HEX.replace('grid = "hex"', 'grid = "square"\nlow_columns = "odd"'))
    assert square[0][0] == "E701" and "square grid" in square[0][2]


def test_terrain_tags_places_and_text():
    board = board_from_text(HEX, "h.toml")
    assert board.terrain("0301") == "jungle"
    assert board.terrain("0202") == "river" and board.tags("0202") == frozenset({"water"})
    assert board.place("Ford") == "0202"
    assert board.to_text() == "..j.\n.~..\n...."
    assert board.distance("0101", "0403") == 4
    assert board.within("0202", 1) == {"0202", "0102", "0103", "0201", "0203", "0302", "0303"}


def test_square_grid_has_side_and_corner_edges():
    text = HEX.replace('grid = "hex"', 'grid = "square"')
    board = board_from_text(text, "s.toml")
    assert len(list(board.neighbours("0202"))) == 8
    assert board.edge("0202", "0303")["kind"] == "corner"
    assert board.edge("0202", "0203")["kind"] == "side"
    assert board.distance("0101", "0403") == 3


WIDE = HEX.replace("width = 4", "width = 9").replace("height = 3", "height = 7").replace(
    'rows = ["..j.", ".~..", "...."]', "rows = [" + ", ".join(['"' + "." * 9 + '"'] * 7) + "]")


@pytest.mark.parametrize("setting", ['grid = "hex"', 'grid = "hex"\nlow_columns = "odd"', 'grid = "square"'])
def test_distance_from_kept_coordinates_is_the_grid_distance_between_every_two_cells(setting):
    board = board_from_text(WIDE.replace('grid = "hex"', setting), "w.toml")
    def measured(a, b):
        points = grid.parse_cell_id(a), grid.parse_cell_id(b)
        return grid.hex_distance(*points, board.low_columns) if board.grid == "hex" else grid.square_distance(*points)

    cells = sorted(board.cells)
    for a in cells:
        for b in cells:
            assert board.distance(a, b) == measured(a, b)
    assert len(board.axes) == len(cells) == 63
    # Corner to corner, 8 columns and 6 rows apart: 8 diagonal squares; 8 hexes slanting down cover
    # 4 of the rows (whichever columns are low), 2 more hexes the rest.
    assert board.distance("0101", "0907") == board.distance("0907", "0101") == (8 if board.grid == "square" else 10)
    # An id off the map is measured but not kept: the coordinates kept stay one pair per map cell.
    assert board.distance("0101", "1201") == 11 and "1201" not in board.axes
    with pytest.raises(ValueError, match="not a cell id"):
        board.distance("0101", "road")


def errors(text: str, terrain=None) -> list[tuple[str, int, str]]:
    with pytest.raises(RulesError) as info:
        board_from_text(text, "bad.toml", terrain)
    return [(d.code, d.span.line, d.message) for d in info.value.diagnostics]


def test_bad_maps_are_diagnostics():
    assert errors("[map\n")[0][0] == "E701"
    assert errors('x = 1\n')[0][2] == "no [map] table"
    assert ("E702", 7, "row 1 has 3 cells, width is 4") in errors(HEX.replace('"..j."', '"..j"'))
    assert any(code == "E702" and "'?'" in msg for code, _, msg in errors(HEX.replace('"...."', '"..?."')))
    assert any(code == "E703" for code, _, _ in errors(HEX.replace('"0202"', '"0909"')))
    assert errors(HEX.replace('grid = "hex"', 'grid = "tri"'))[0][2] == "unknown grid 'tri'"
    assert errors(HEX.replace("width = 4", 'width = "4"'))[0][2] == "'width' must be a whole number, not '4'"


def test_legend_is_checked_against_the_rulebook_terrain():
    found = errors(HEX, terrain=["clear", "jungel", "river"])
    assert found == [("E702", 10, "unknown terrain 'jungle' in the legend")]


def test_features_must_join_adjacent_cells():
    text = HEX + '[[map.features]]\nkind = "bridge"\npath = ["0101", "0301"]\n'
    assert errors(text)[0][2] == "feature 'bridge' joins 0101 and 0301, which are not adjacent"
    ok = board_from_text(HEX + '[[map.features]]\nkind = "bridge"\npath = ["0101", "0201"]\n', "f.toml")
    assert ok.edge("0101", "0201")["features"] == frozenset({"bridge"})
