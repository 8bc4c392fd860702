"""The compiled rules index: sides from nationalities, tags with their parents, terrain lines per unit."""

from pathlib import Path

import pytest

from warbook.dsl import load_rulebook
from warbook.interpreter.rules import Rules

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def sea_lords():
    return Rules(load_rulebook(ROOT / "rulebooks" / "sea_lords.rules"))


def test_a_units_side_comes_from_its_nationality(sea_lords):
    # Sea Lords §2.5: the background colour (nationality) gives the side: US and South
    # Vietnamese fight for the Free World, Viet Cong for the Communist player.
    assert sea_lords.unit_type("pbr").side == "free_world"
    assert sea_lords.unit_type("marine_bn").side == "free_world"
    assert sea_lords.unit_type("supply_junk").side == "communist"


def test_side_wide_prohibitions_reach_units_through_their_nationality(sea_lords):
    # §21.1 "Free World units may generally not enter Cambodia" is a side-wide 'never enters
    # cambodia' on side free_world; a PBR names only its nationality (US), so it must still be
    # barred from the Cambodian Mekong, which a Communist junk may sail (§21.2).
    from warbook.interpreter.board import read_board
    from warbook.interpreter.costs import cost_table

    board = read_board(ROOT / "scenarios" / "maps" / "sea_lords_delta.toml",
                       [d.name for d in sea_lords.rulebook.of_kind("terrain")])
    cambodian_river = [c for c in board.cells if "cambodia" in board.tags(c) and board.terrain(c) == "major_river"]
    assert cambodian_river, "the map has the Mekong in Cambodia"
    pbr = cost_table(sea_lords, board, "pbr").cost
    junk = cost_table(sea_lords, board, "supply_junk").cost
    assert not any(c in pbr for c in cambodian_river)
    assert all(c in junk for c in cambodian_river)
