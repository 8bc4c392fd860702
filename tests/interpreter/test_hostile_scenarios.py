"""Hostile scenario and map files (issue 17, "Hardening"): every problem is a positioned E7xx
or E004, never a traceback, a hang or minutes of set-up.

Over-long numbers (item 5), FIFOs (item 7), values of the wrong type and unbounded counts
(item 9), ``rules``/``map`` paths outside the scenario's folder (item 14).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from warbook.dsl.diagnostics import RulesError
from warbook.interpreter.board import board_from_text
from warbook.interpreter.scenario import MAX_COUNTERS, load_scenario
from warbook.interpreter.scenario_lint import lint_data_file

MINI = Path(__file__).parent / "fixtures" / "mini"
HEAD = """\

[scenario]
rules = "mini.rules"
map = "map.toml"
turns = 2
player_order = ["blue", "red"]
"""
"""Six lines, the first blank (a diagnostic wrongly put on line 1 shows)."""
TROOPER = '[[setup]]\nside = "blue"\nunit = "trooper"\ncount = {count}\nat = "0202"\n'
HUGE = "9" * 5000


def problems(tmp_path: Path, text: str = "", head: str = HEAD, map_text: str | None = None):
    """(code, line, column, message, hint) of each diagnostic loading the scenario gives."""
    for name in ("mini.rules", "map.toml"):
        shutil.copy(MINI / name, tmp_path / name)
    if map_text is not None:
        (tmp_path / "map.toml").write_text(map_text, encoding="utf-8")
    path = tmp_path / "s.toml"
    path.write_text(head + text, encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        load_scenario(path)
    return [(d.code, d.span.line, d.span.column, d.message, d.hint) for d in caught.value.diagnostics]


# --- item 9: wrong types and unbounded counts ----------------------------------------------

@pytest.mark.parametrize("head, line, message", [
    (HEAD.replace('["blue", "red"]', '[1, "blue"]'), 6, "'player_order' must be a list of names, not [1, 'blue']"),
    (HEAD + 'setup_order = ["red", 2]\n', 7, "'setup_order' must be a list of names, not ['red', 2]"),
])
def test_a_side_order_of_mixed_types_is_an_e704(tmp_path, head, line, message):
    assert [p[:4] for p in problems(tmp_path, head=head)] == [("E704", line, 1, message)]


@pytest.mark.parametrize("unit, shown", [('["x"]', "['x']"), ("{ a = 1 }", "{'a': 1}")])
def test_a_unit_that_is_no_name_is_an_e704(tmp_path, unit, shown):
    text = TROOPER.format(count=1).replace('"trooper"', unit)
    assert [p[:4] for p in problems(tmp_path, text)] == [("E704", 9, 1, f"'unit' must be a string, not {shown}")]


def test_a_map_feature_that_is_no_table_is_an_e701(tmp_path):
    map_text = (MINI / "map.toml").read_text().replace("[map.legend]", 'features = ["river"]\n[map.legend]')
    (found,) = problems(tmp_path, map_text=map_text)
    assert found[:3] == ("E701", 7, 1) and found[3].startswith("a feature must be a table") and found[4]


@pytest.mark.parametrize("text, head, line, message", [
    (TROOPER.format(count=10_000_000), HEAD, 10, "'count' must be from 1 to 1000, not 10000000"),
    ("", HEAD.replace("turns = 2", "turns = 1000000000000000"), 5,
     "'turns' must be from 1 to 1000, not 1000000000000000"),
    ("", HEAD + "year = 100000\n", 7, "'year' must be from 1 to 9999, not 100000"),
    ("", HEAD + "[scenario.resources.blue]\nvp = 100000000000000\n", 8,
     "'vp' must be from -1000000000 to 1000000000, not 100000000000000"),
    ('[[setup]]\nside = "red"\nunit = "guerrilla"\ncount = 1\nzone = { columns = "3-4" }\nper_cell = 5000\n', HEAD, 12,
     "'per_cell' must be from 1 to 1000, not 5000"),
])
def test_a_count_past_its_bound_is_an_e704_at_its_key(tmp_path, text, head, line, message):
    """``count = 10000000`` took minutes and 2.5 GB of set-up."""
    (found,) = problems(tmp_path, text, head)
    assert found[:4] == ("E704", line, 1, message) and found[4]


def test_turns_written_as_a_float_is_an_e704(tmp_path):
    (found,) = problems(tmp_path, head=HEAD.replace("turns = 2", "turns = 1e15"))
    assert found[:4] == ("E704", 5, 1, "'turns' must be a whole number of at least 1, not 1000000000000000.0")


def test_the_whole_set_up_is_bounded(tmp_path):
    entries = MAX_COUNTERS // 1000 + 1
    (found,) = problems(tmp_path, TROOPER.format(count=1000) * entries)
    assert found[:2] == ("E704", 7 + 5 * (entries - 1))
    assert found[3] == f"the set-up would hold more than {MAX_COUNTERS} counters"


def test_a_long_value_is_cut_short_in_the_message(tmp_path):
    text = '[[setup]]\nside = "red"\nunit = "guerrilla"\ncount = 1\nzone = { columns = "' + "9" * 3000 + '" }\n'
    (found,) = problems(tmp_path, text)
    assert found[:3] == ("E704", 11, 10) and len(found[3]) < 150 and found[3].endswith("9…")


# --- item 5: numbers past the int limit in TOML --------------------------------------------

def test_an_over_long_number_in_a_scenario_is_an_e704_at_it(tmp_path):
    (found,) = problems(tmp_path, TROOPER.format(count=HUGE))
    assert found[:4] == ("E704", 10, 9, "a number has more than 4300 digits")


def test_an_over_long_number_in_a_map_is_an_e701_at_it():
    text = (MINI / "map.toml").read_text().replace("width = 4", f"width = {HUGE}")
    with pytest.raises(RulesError) as caught:
        board_from_text(text, "m.toml")
    assert [(d.code, d.span.line, d.span.column) for d in caught.value.diagnostics] == [("E701", 4, 9)]


def test_tables_nested_too_deep_are_an_e704(tmp_path):
    (found,) = problems(tmp_path, "deep = " + "[" * 50_000 + "]" * 50_000 + "\n")
    assert found[0] == "E704" and "nested too deep" in found[3]


# --- item 14: rules and map stay in the scenario's folder ----------------------------------

@pytest.mark.parametrize("key, line, written", [
    ("rules", 3, "/etc/passwd"),
    ("rules", 3, "../elsewhere/mini.rules"),
    ("map", 4, "/etc/passwd"),
    ("map", 4, "../elsewhere/map.toml"),
])
def test_a_path_outside_the_scenario_folder_is_refused_unread(tmp_path, key, line, written):
    """``rules = "/etc/passwd"`` was parsed as rules, its lines printed as syntax errors."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for name in ("mini.rules", "map.toml"):
        shutil.copy(MINI / name, elsewhere / name)
    here = tmp_path / "here"
    here.mkdir()
    default = "mini.rules" if key == "rules" else "map.toml"
    (found,) = problems(here, head=HEAD.replace(f'"{default}"', f'"{written}"'))
    assert found[:4] == ("E704", line, 1, f"{key} {written!r} is outside the scenario's folder")
    assert "must be a file in its folder" in found[4]


def test_a_file_below_the_scenario_folder_is_allowed(tmp_path):
    (tmp_path / "sub").mkdir()
    for name in ("mini.rules", "map.toml"):
        shutil.copy(MINI / name, tmp_path / "sub" / name)
    path = tmp_path / "s.toml"
    path.write_text(HEAD.replace('"mini.rules"', '"sub/mini.rules"').replace('"map.toml"', '"sub/map.toml"'))
    assert load_scenario(path).turns == 2


def test_a_shipped_rulebook_by_name_is_allowed_but_not_a_path_through_the_search_folders(tmp_path):
    found = problems(tmp_path, head=HEAD.replace('rules = "mini.rules"', 'rulebook = "../../../etc/passwd"'))
    assert [f[:4] for f in found] == [("E704", 3, 1, "no rules file or shipped rulebook '../../../etc/passwd'")]


# --- item 7: FIFOs and devices as scenario or map ------------------------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_scenario_or_map_is_refused_not_waited_on(tmp_path):
    os.mkfifo(tmp_path / "pipe.toml")
    with pytest.raises(RulesError) as caught:
        load_scenario(tmp_path / "pipe.toml")
    assert [d.code for d in caught.value.diagnostics] == ["E004"]
    assert "it is a FIFO, not a regular file" in caught.value.diagnostics[0].message
    assert [d.code for d in lint_data_file(tmp_path / "pipe.toml").diagnostics] == ["E004"]
    found = problems(tmp_path, head=HEAD.replace('"map.toml"', '"pipe.toml"'))
    assert [f[0] for f in found] == ["E004"] and "FIFO" in found[0][3]


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_device_as_scenario_is_refused():
    with pytest.raises(RulesError) as caught:
        load_scenario("/dev/zero")
    assert caught.value.diagnostics[0].message.endswith("it is a device, not a regular file")
