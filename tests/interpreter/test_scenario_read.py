"""Reading a scenario's TOML (interpreter.scenario_toml): each problem of shape is one E704 at the
offending key's line and column, and the key-finding that places it."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from warbook.dsl.diagnostics import RulesError
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.scenario_toml import TomlPositions, show_path

MINI = Path(__file__).parent / "fixtures" / "mini"

HEAD = """\

[scenario]
rules = "mini.rules"
map = "map.toml"
turns = 2
player_order = ["blue", "red"]
"""
"""Six lines, the first blank (a diagnostic wrongly put on line 1 shows)."""


def problems(tmp_path: Path, text: str, head: str = HEAD) -> list[tuple[int, int, str, str | None]]:
    for name in ("mini.rules", "map.toml"):
        shutil.copy(MINI / name, tmp_path / name)
    path = tmp_path / "s.toml"
    path.write_text(head + textwrap.dedent(text), encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        load_scenario(path)
    assert all(d.code == "E704" for d in caught.value.diagnostics)
    return [(d.span.line, d.span.column, d.message, d.hint) for d in caught.value.diagnostics]


def test_a_value_of_the_wrong_type_is_placed_at_its_key(tmp_path):
    (found,) = problems(tmp_path, """\
        [[setup]]
        side = "blue"
        unit = "trooper"
        count = "two"
        at = "0202"
        """)
    assert found == (10, 1, "'count' must be a whole number of at least 1, not 'two'", None)


def test_a_key_of_an_inline_table_is_placed_at_its_column(tmp_path):
    (found,) = problems(tmp_path, """\
        [[setup]]
        side = "red"
        unit = "guerrilla"
        zone = { terrain = ["clear"], columns = "three" }
        """)
    assert found[:3] == (10, 31, "'columns' must be a range such as \"4-12\", not 'three'")


def test_an_unknown_key_names_the_close_match(tmp_path):
    (found,) = problems(tmp_path, """\
        [[setup]]
        side = "blue"
        unit = "trooper"
        at = "0202"
          per_cel = 2
        """)
    assert found == (11, 3, "unknown key 'per_cel' in a set-up entry", "did you mean 'per_cell'?")


def test_an_unknown_key_in_a_zone_is_placed_inside_the_inline_table(tmp_path):
    (found,) = problems(tmp_path, """\
        [[setup]]
        side = "red"
        unit = "guerrilla"
        zone = { tag = ["x"] }
        """)
    assert found == (10, 10, "unknown key 'tag' in a zone", "did you mean 'tags'?")


def test_a_missing_key_is_placed_at_its_table(tmp_path):
    (found,) = problems(tmp_path, """\
        [[setup]]
        side = "blue"
        unit = "trooper"
        at = "0202"

          [[setup]]
        side = "blue"
        at = "0202"
        """)
    assert found == (12, 3, "missing key 'unit' in a set-up entry", "'unit' is a string")


def test_a_missing_key_of_scenario_is_reported_alone(tmp_path):
    (found,) = problems(tmp_path, """\
        [[setup]]
        side = "nobody"
        unit = "trooper"
        at = "0202"
        """, head=HEAD.replace("turns = 2\n", ""))
    assert found[:3] == (2, 1, "missing key 'turns' in [scenario]")
    assert found[3].startswith("'turns' is a whole number of at least 1; the rulebook's sequence leaves")


def test_an_unknown_table_names_the_close_match(tmp_path):
    (found,) = problems(tmp_path, """\
        [[set_up]]
        side = "blue"
        """)
    assert found == (7, 1, "unknown table 'set_up'", "did you mean 'setup'?")


def test_a_value_in_a_sub_table_of_scenario(tmp_path):
    (found,) = problems(tmp_path, """\
        [scenario.resources.blue]
        vp = "none"
        """)
    assert found == (8, 1, "'vp' must be a whole number, not 'none'", None)


def test_every_entry_is_read_and_every_problem_reported(tmp_path):
    found = problems(tmp_path, """\
        [[setup]]
        side = "blue"
        unit = "trooper"
        at = true
        [[setup]]
        side = "blue"
        unit = "troper"
        at = "0202"
        """)
    assert [(line, message) for line, _, message, _ in found] == [
        (10, "'at' must be a string, not True"), (11, "unknown unit type 'troper'")]


def test_positions_count_arrays_of_tables_and_their_sub_tables():
    positions = TomlPositions(textwrap.dedent("""\
        [[draw]]
        side = "red"
        [[draw.place]]
        units = ["a"]
        [[draw]]
        side = "red"
        [[draw.place]]
        zone = {}
        [[draw.place]]
        zone = { edge = ["west"] }
        """))
    assert positions.locate(("draw", 1, "side")) == (6, 1, 4)
    assert positions.locate(("draw", 1, "place", 1, "zone", "edge")) == (10, 10, 4)
    assert positions.locate(("draw", 0, "place", 0)) == (3, 1, 0)
    assert positions.locate(("draw", 1, "count")) == (5, 1, 0)  # not written: the entry's header
    assert show_path(("draw", 1, "place", 0, "zone")) == "$.draw[1].place[0].zone"


def test_a_map_on_another_grid_than_the_rulebook_says_is_refused(tmp_path):
    """`rulebook { grid hex | square | square with diagonals }` — "The map grid the rules assume":
    a scenario whose map has another grid is refused at its `map` key (E704).  The neutral
    phase-binding game says `grid square with diagonals`; a copy of its map made hex is refused."""
    here = Path(__file__).parent / "fixtures" / "phase_binding"
    for f in here.iterdir():
        shutil.copy(f, tmp_path / f.name)
    scenario = tmp_path / "moving.toml"
    load_scenario(scenario)  # as shipped: the map is square
    map_file = next(p for p in tmp_path.glob("*.toml") if 'grid = "square"' in p.read_text())
    map_file.write_text(map_file.read_text().replace('grid = "square"', 'grid = "hex"'))
    with pytest.raises(RulesError) as raised:
        load_scenario(scenario)
    (found,) = [d for d in raised.value.diagnostics if "grid" in d.message]
    assert found.code == "E704" and "the map's grid is 'hex'" in found.message
    assert found.span.line == scenario.read_text().splitlines().index(
        next(l for l in scenario.read_text().splitlines() if l.startswith("map"))) + 1
