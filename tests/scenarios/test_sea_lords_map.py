"""The Sea Lords map (scenarios/maps/sea_lords_delta.toml), a reconstruction, against real geography and the seed.

The mapsheet is not in the source, so the map is rebuilt on the game's 10 km squares
(2.13) from real coordinates.  The expected values here do not come from the map file
or from warbook's output: town squares are computed from each town's latitude and
longitude with the frame's own formula, the rules of movement (8.3, 8.4) are read from
the rulebook, and the town lists are the seed's set-up text (24.4-26.5), pasted below.
"""

from __future__ import annotations

import math
import re
import tomllib
from pathlib import Path

import networkx as nx
import pytest

from warbook.dsl import load_rulebook
from warbook.interpreter.board import Board, read_board
from warbook.interpreter.rules import Rules

ROOT = Path(__file__).resolve().parents[2]
MAP = ROOT / "scenarios" / "maps" / "sea_lords_delta.toml"
RULEBOOK = ROOT / "rulebooks" / "sea_lords.rules"
GOLDEN = Path(__file__).parent / "golden" / "sea_lords_delta.txt"
SEED = Path("/work/shared/seeds/000_1665db6584a31974.txt")

# --- The frame: 10 km squares (2.13) from 11.80 N 104.20 E -------------------------------
# 10 km is 0.0904 deg of latitude (110.6 km a degree at 10 N) and 0.0915 deg of longitude
# (109.4 km a degree at 10.5 N); 34 columns reach 107.31 E, past Vung Tau, and 37 rows
# reach 8.46 N, past the Ca Mau cape (8.6 N).
NORTH, WEST = 11.80, 104.20
DLAT, DLON = 0.0904, 0.0915
COLUMNS, ROWS = 34, 37


def square(lat: float, lon: float) -> str:
    """The cell id of the square holding a point: column from the west edge, row from the north."""
    column = math.floor((lon - WEST) / DLON) + 1
    row = math.floor((NORTH - lat) / DLAT) + 1
    return f"{column:02d}{row:02d}"


# Real coordinates (WGS84, to 0.01 deg) of the towns the scenarios name, under the seed's
# spellings as well: "Bin Thuy" is Binh Thuy and "Long Xugen" is Long Xuyen.
SCENARIO_TOWNS = {
    "Saigon": (10.78, 106.70), "Nha Be": (10.69, 106.74), "Vung Tau": (10.35, 107.08),
    "Tan An": (10.54, 106.41), "My Tho": (10.36, 106.36), "Dong Tam": (10.34, 106.24),
    "Vinh Long": (10.25, 105.97), "Sa Dec": (10.30, 105.76), "Can Tho": (10.03, 105.78),
    "Binh Thuy": (10.07, 105.73), "Bin Thuy": (10.07, 105.73),
    "Long Xuyen": (10.38, 105.43), "Long Xugen": (10.38, 105.43),
    "Rach Gia": (10.01, 105.08), "Bac Lieu": (9.29, 105.72),
}
CAMBODIAN_TOWNS = {
    "Phnom Penh": (11.56, 104.92), "Neak Luong": (11.26, 105.28), "Takeo": (10.99, 104.78),
    "Svay Rieng": (11.09, 105.80), "Kep": (10.48, 104.32), "Prey Veng": (11.49, 105.32),
}
VIETNAMESE_BORDER_TOWNS = {
    "Ha Tien": (10.38, 104.49), "Chau Doc": (10.70, 105.12), "Tan Chau": (10.80, 105.24),
    "Hong Ngu": (10.81, 105.34), "Moc Hoa": (10.76, 105.93), "Tay Ninh": (11.31, 106.10),
}

# --- The seed's set-up lines that name towns (24.4-26.5), verbatim ----------------------
SEED_TOWN_LINES = [
    "6 x bases: one each Bin Thuy, Can Tho, Sa Dec, My Tho, Nha Be & Vung Tau.",
    "9 x bases, one each in Saigon, Nha Be, Vung Tau, Tan An, Vinh long, My Tho, Can Tho, Long Xugen & Rach Gia.",
    "3 x infantry divisions, one each at My Tho, Sa Dec & Bac Lieu.",
    "7 x logistical bases, one each Bin Thuy, Can Tho, Vinh Long, My Tho, Dong Tam, Nha Be, Vung Tau.",
    "7 x logistical bases, one each in Bin Thuy, Can Tho, Vinh Long, My Tho, Dong Tam, Nha Be & Vung Tau.",
    "3 x infantry divisions, one each at Dong Tam, Sa Dec & Bac Lieu.",
]


def seed_town_names() -> set[str]:
    names = set()
    for line in SEED_TOWN_LINES:
        listed = re.split(r"(?:one each (?:in |at )?)", line, maxsplit=1)[1].rstrip(".")
        names.update(n.strip() for n in re.split(r",|&", listed))
    return names


# --- Fixtures -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules(load_rulebook(RULEBOOK))


@pytest.fixture(scope="module")
def board(rules) -> Board:
    return read_board(MAP, [d.name for d in rules.rulebook.of_kind("terrain")])


def names_of(values) -> set[str]:
    return {getattr(v, "name", str(v)) for v in values or ()}


def enters_only(rules: Rules, movement: str) -> set[str]:
    """The names in a movement class's ``enters only`` line (8.3)."""
    return names_of(rules.rulebook.get("movement", movement).first("enters").get("where"))


def water_feature(rules: Rules) -> str:
    """The feature R units must cross (8.4: ``crosses only``)."""
    (name,) = names_of(rules.rulebook.get("movement", "R").first("crosses").get("features"))
    return name


def selectors(rules: Rules, board: Board, cell: str) -> frozenset[str]:
    return rules.cell_selectors(board.terrain(cell), board.tags(cell))


def water_graph(rules: Rules, board: Board) -> nx.Graph:
    feature = water_feature(rules)
    return nx.Graph([(a, b) for a, b, data in board.graph.edges(data=True) if feature in data["features"]])


def place(board: Board, name: str) -> str | None:
    """A place by name, ignoring case (the seed writes "Vinh long" beside "Vinh Long")."""
    return next((cell for n, cell in board.places if n.lower() == name.lower()), None)


def column_row(cell: str) -> tuple[int, int]:
    return int(cell[:2]), int(cell[2:])


# --- Loading and the frame ---------------------------------------------------------------


def test_the_map_loads_with_the_terrain_of_the_rulebook(board):
    assert board.grid == "square"
    assert (board.width, board.height) == (COLUMNS, ROWS)
    assert len(board.cells) == COLUMNS * ROWS


def test_the_map_says_it_is_a_reconstruction(board):
    assert board.note.startswith("RECONSTRUCTION")
    head = MAP.read_text(encoding="utf-8").split("[map]")[0]
    assert "RECONSTRUCTION" in head and "not in the source" in head


def test_the_frame_holds_the_area_of_the_game():
    # 2.2: southern South Vietnam and the adjoining part of Cambodia.
    for lat, lon in [(11.56, 104.92), (8.60, 104.72), (10.35, 107.08), (10.38, 104.49), (11.31, 106.10)]:
        column, row = column_row(square(lat, lon))
        assert 1 <= column <= COLUMNS and 1 <= row <= ROWS, (lat, lon)


def test_the_extra_tags_of_the_legend_are_names_of_the_rulebook(rules):
    legend = tomllib.loads(MAP.read_text(encoding="utf-8"))["map"]["legend"]
    declared = {d.name for kind in ("tag", "terrain") for d in rules.rulebook.of_kind(kind)}
    extra = {tag for value in legend.values() if isinstance(value, list) for tag in value[1:]}
    assert extra <= declared
    assert extra == {"river", "coastal", "cambodia", "saigon_vung_tau"}


# --- Towns ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SCENARIO_TOWNS))
def test_each_scenario_town_is_in_the_square_its_coordinates_give(name, board):
    assert board.place(name) == square(*SCENARIO_TOWNS[name])


@pytest.mark.parametrize("name", sorted({**CAMBODIAN_TOWNS, **VIETNAMESE_BORDER_TOWNS}))
def test_border_towns_are_in_the_square_their_coordinates_give(name, board):
    assert board.place(name) == square(*{**CAMBODIAN_TOWNS, **VIETNAMESE_BORDER_TOWNS}[name])


def test_every_town_the_seed_set_ups_name_is_a_place(board):
    names = seed_town_names()
    assert {"Bin Thuy", "Long Xugen", "Vinh long", "Saigon", "Bac Lieu", "Dong Tam"} <= names
    assert {n for n in names if place(board, n) is None} == set()


def test_the_pasted_set_up_lines_are_the_seeds():
    if not SEED.is_file():
        pytest.skip(f"seed text not present at {SEED}")
    text = SEED.read_text(encoding="utf-8")
    assert [line for line in SEED_TOWN_LINES if line not in text] == []


def test_towns_and_cities(board):
    # Saigon is the capital; Can Tho the delta's largest city (the docs give the reasons).
    assert board.terrain(board.place("Saigon")) == "city"
    assert board.terrain(board.place("Can Tho")) == "city"
    cities = {c for c in board.cells if board.terrain(c) == "city"}
    assert cities == {board.place("Saigon"), board.place("Can Tho")}
    for name in set(SCENARIO_TOWNS) - {"Saigon", "Can Tho"}:
        assert board.terrain(board.place(name)) == "town", name
    # Every town or city square is named, and every named square is a town, city or base.
    named = {cell for _, cell in board.places}
    towns = {c for c in board.cells if board.terrain(c) in ("town", "city")}
    bases = {c for c in board.cells if board.terrain(c) == "communist_base"}
    assert towns <= named and named == towns | bases


def test_only_spellings_share_a_square(board):
    by_cell: dict[str, set[str]] = {}
    for name, cell in board.places:
        by_cell.setdefault(cell, set()).add(name)
    shared = sorted(names for names in by_cell.values() if len(names) > 1)
    assert shared == [{"Binh Thuy", "Bin Thuy"}, {"Long Xuyen", "Long Xugen"}]


def test_saigon_and_vung_tau_are_the_squares_communists_may_not_enter(board):
    # 8.3 point 1.
    marked = {c for c in board.cells if "saigon_vung_tau" in board.tags(c)}
    assert marked == {board.place("Saigon"), board.place("Vung Tau")}


# --- Sea and coast -------------------------------------------------------------------------


def test_high_seas_are_the_open_sea_off_the_east_west_and_south(board):
    seas = {c for c in board.cells if board.terrain(c) == "high_seas"}
    # One body of water reaching the west (Gulf of Thailand), east and south (South China Sea) edges.
    assert nx.is_connected(board.graph.subgraph(seas))
    assert {column_row(c)[0] for c in seas} >= {1, COLUMNS}
    assert ROWS in {column_row(c)[1] for c in seas}
    # Points in open water, far from any coast.
    for lat, lon in [(9.5, 104.3), (8.5, 105.5), (9.0, 107.0), (10.0, 107.2), (8.9, 104.4)]:
        assert board.terrain(square(lat, lon)) == "high_seas", (lat, lon)
    # The coast in the frame lies south of Kampot (10.61 N): no sea north of Kampot's row.
    kampot_row = column_row(square(10.61, 104.21))[1]
    assert all(column_row(c)[1] > kampot_row for c in seas)
    # No town is at sea.
    assert not {cell for _, cell in board.places} & seas


def test_coastal_squares_are_the_land_squares_touching_the_sea(rules, board):
    seas = {c for c in board.cells if board.terrain(c) == "high_seas"}
    coast = {c for c in board.cells if "coastal" in selectors(rules, board, c)}
    for cell in board.cells:
        if cell in seas:
            continue
        sides = [n for n in board.neighbours(cell) if board.edge(cell, n)["kind"] == "side"]
        if any(n in seas for n in sides):
            assert cell in coast, cell
    assert all(any(n in seas for n in board.neighbours(c)) for c in coast)
    # The mainland coast is one line, Kep to Vung Tau round the Ca Mau cape.
    mainland = max(nx.connected_components(board.graph.subgraph(coast)), key=len)
    assert {board.place("Kep"), board.place("Ha Tien"), board.place("Rach Gia"), board.place("Vung Tau")} <= mainland
    assert square(8.62, 104.75) in mainland  # the cape


def test_naval_units_can_sail_the_whole_sea_and_coast(rules, board):
    # 8.5: N units move only through high seas and coastal squares.
    allowed = enters_only(rules, "N")
    naval = [c for c in board.cells if selectors(rules, board, c) & allowed]
    mainland = max(nx.connected_components(board.graph.subgraph(naval)), key=len)
    # Trawlers enter on the west and east edges (12.4) and reach the Vung Tau and Rach Gia bases.
    assert {board.place("Vung Tau"), board.place("Rach Gia")} <= mainland
    assert any(column_row(c)[0] == 1 for c in mainland) and any(column_row(c)[0] == COLUMNS for c in mainland)


# --- Cambodia ------------------------------------------------------------------------------


def test_cambodia_is_tagged_north_west_of_the_border(board):
    cambodia = {c for c in board.cells if "cambodia" in board.tags(c)}
    for name, coordinates in CAMBODIAN_TOWNS.items():
        assert square(*coordinates) in cambodia, name
    for name, coordinates in {**VIETNAMESE_BORDER_TOWNS, **SCENARIO_TOWNS}.items():
        assert square(*coordinates) not in cambodia, name
    assert "0101" in cambodia  # 11.8 N 104.2 E, west of Phnom Penh
    # One country, joined north of the map where the frame cuts it (the Fishhook, north of
    # Tay Ninh, reaches the map only in its top row).
    for part in nx.connected_components(board.graph.subgraph(cambodia)):
        assert any(column_row(c)[1] == 1 for c in part), sorted(part)
    assert not any(board.terrain(c) == "high_seas" for c in cambodia)
    # The border meets the Gulf west of Ha Tien (10.42 N) and runs north-east: nothing south
    # of Ha Tien's row or east of Saigon is Cambodian.
    _, ha_tien_row = column_row(square(10.38, 104.49))
    saigon_column, _ = column_row(square(10.78, 106.70))
    assert all(column_row(c)[1] <= ha_tien_row - 1 for c in cambodia)
    assert all(column_row(c)[0] < saigon_column for c in cambodia)


# --- Communist bases, Saigon LoC -----------------------------------------------------------


def test_twelve_printed_communist_base_squares_in_both_countries(rules, board):
    # 24.8, 25.8, 26.8: "one each per printed Communist base area square", 12 of them.
    bases = [c for c in board.cells if board.terrain(c) == "communist_base"]
    assert len(bases) == 12
    cambodian = [c for c in bases if "cambodia" in board.tags(c)]
    assert 1 <= len(cambodian) < 12
    named = {cell for _, cell in board.places}
    assert all(c in named for c in bases)
    # Static logistical bases may be placed only in the squares 8.3 lists.
    static = enters_only(rules, "static")
    assert all(selectors(rules, board, c) & static for c in bases)


def test_infiltration_junks_can_sail_from_cambodian_bases_to_bases_in_south_vietnam(rules, board):
    # 12.4: R units start on Communist bases on river or coastal squares in Cambodia;
    # 15.1: junks move by R movement to printed bases in South Vietnam.
    water = water_graph(rules, board)
    allowed = enters_only(rules, "R")
    bases = [c for c in board.cells if board.terrain(c) == "communist_base"]
    cambodian = [c for c in bases if "cambodia" in board.tags(c)]
    vietnamese = [c for c in bases if "cambodia" not in board.tags(c)]
    r_squares = [c for c in water if selectors(rules, board, c) & allowed]
    routes = water.subgraph(r_squares)
    for start in cambodian:
        assert {"river", "coastal"} & selectors(rules, board, start), start
        assert start in routes and any(nx.has_path(routes, start, end) for end in vietnamese), start
    assert all(c in routes for c in vietnamese)


def test_saigon_loc_surrounds_saigon(rules, board):
    saigon = board.place("Saigon")
    loc = {c for c in board.cells if board.terrain(c) == "saigon_loc"}
    assert loc
    for cell in board.neighbours(saigon):
        assert cell in loc or board.terrain(cell) == "town", cell
    # Rocket Attack (27.0): a Communist unit may stand next to Saigon.
    allowed = enters_only(rules, "L")
    assert any(selectors(rules, board, c) & allowed for c in board.neighbours(saigon) if c in loc)


def test_the_scenario_set_ups_have_squares_to_go_to(rules, board):
    # 24.4/25.4: N units (WPB, DE) set up on US base squares: one of them is coastal.
    us_bases = [board.place(n) for n in ("Bin Thuy", "Can Tho", "Sa Dec", "My Tho", "Nha Be", "Vung Tau")]
    assert any(selectors(rules, board, c) & enters_only(rules, "N") for c in us_bases)
    # R units and static bases at every town the set-ups name.
    for name in seed_town_names():
        cell = place(board, name)
        assert selectors(rules, board, cell) & enters_only(rules, "R"), name
        assert selectors(rules, board, cell) & enters_only(rules, "static"), name
    # 26.4: MRBs on South Vietnamese major river squares without a Communist base.
    assert any(board.terrain(c) == "major_river" and "cambodia" not in board.tags(c) for c in board.cells)


# --- Water links (8.4) ---------------------------------------------------------------------


def test_the_map_text_matches_the_golden_copy(board, golden):
    golden(GOLDEN, board.to_text() + "\n")


@pytest.mark.parametrize("a, b", [("My Tho", "Can Tho"), ("My Tho", "Saigon"), ("Saigon", "Can Tho")])
def test_my_tho_can_tho_and_saigon_are_joined_by_water(a, b, rules, board):
    water = water_graph(rules, board)
    path = nx.shortest_path(water, board.place(a), board.place(b))
    assert path[0] == board.place(a) and path[-1] == board.place(b)


def test_every_water_link_joins_squares_riverine_units_may_enter(rules, board):
    allowed = enters_only(rules, "R")
    assert allowed == {"river", "coastal", "city", "town", "base"}
    water = water_graph(rules, board)
    assert water.number_of_edges() > 300
    bad = [(a, b) for a, b in water.edges if not (selectors(rules, board, a) & allowed
                                                   and selectors(rules, board, b) & allowed)]
    assert bad == []


def test_every_river_square_has_a_water_link(rules, board):
    # A square drawn as a river, canal or river town has the water symbol crossing it.
    water = water_graph(rules, board)
    rivers = [c for c in board.cells if "river" in selectors(rules, board, c)]
    assert [c for c in rivers if c not in water] == []


def test_the_rivers_run_through_their_towns(rules, board):
    water = water_graph(rules, board)
    on_the_mekong = ["Phnom Penh", "Neak Luong", "Tan Chau", "Hong Ngu", "Cao Lanh", "Sa Dec",
                     "Vinh Long", "Dong Tam", "My Tho"]
    on_the_bassac = ["Chau Doc", "Long Xuyen", "Binh Thuy", "Can Tho"]
    for name in on_the_mekong + on_the_bassac + ["Saigon", "Nha Be", "Vung Tau", "Tan An", "Rach Gia", "Ca Mau"]:
        assert board.place(name) in water, name


def test_the_docs_draw_the_map_as_it_is(board):
    lines = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8").splitlines()
    section = lines.index("## Sea Lords map (reconstruction)")
    rows = board.to_text().splitlines()
    start = next(i for i in range(section, len(lines)) if lines[i].startswith(rows[0]))
    assert [line[: len(rows[0])] for line in lines[start : start + len(rows)]] == rows
