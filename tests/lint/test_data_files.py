"""``warbook lint`` on scenario and map files (``.toml``): play's own diagnostics, before play.

Built on the mini fixture game (4x3 hexes, columns 3-4 hold six cells): a lake is
added on the last row of columns 3 and 4, which no unit may enter (``cost no entry``).
"""

import json
import shutil
from pathlib import Path

import pytest
from driving import run_cli as run

MINI = Path(__file__).resolve().parents[1] / "interpreter" / "fixtures" / "mini"
LAKE = '''
terrain lake "Lake" {
    cost no entry
}
'''
SHIPPED = sorted(p.relative_to(MINI.parents[3]) for p in (MINI.parents[3] / "scenarios").rglob("*.toml"))


@pytest.fixture
def game(tmp_path, monkeypatch) -> Path:
    shutil.copytree(MINI, tmp_path, dirs_exist_ok=True)
    (tmp_path / "mini.rules").write_text((MINI / "mini.rules").read_text() + LAKE)
    board = (MINI / "map.toml").read_text()
    (tmp_path / "map.toml").write_text(board.replace('"...."]', '"..~~"]').replace('"T" = "town"', '"T" = "town"\n"~" = "lake"'))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_clean_scenario_and_map_lint_clean(capsys, game):
    code, out, err = run(capsys, "lint", "mini.toml", "map.toml")
    assert (code, out) == (0, "") and err == "2 files checked: 0 errors, 0 warnings, 0 infos\n"


def test_counters_that_can_never_be_placed_are_reported_at_their_entry(capsys, game):
    scenario = (game / "mini.toml").read_text().replace("count = 2\n", "count = 7\n")  # the guerrillas, line 14
    scenario += '\n[[setup]]\nside = "blue"\nunit = "trooper"\ncount = 1\nzone = { terrain = ["lake"] }\n'
    (game / "mini.toml").write_text(scenario)
    code, out, _ = run(capsys, "lint", "mini.toml")
    assert code == 1 and out.splitlines() == [
        "mini.toml:14:1: W705 the zone's 4 cells at 1 per cell hold 4 of 7 guerrilla of red",
        "mini.toml:27:1: W705 no cell of the zone may hold 1 trooper of blue",
    ]


def test_a_scenario_naming_what_its_rulebook_lacks_gets_plays_diagnostic(capsys, game):
    (game / "mini.toml").write_text((game / "mini.toml").read_text().replace('unit = "decoy"', 'unit = "decoi"'))
    code, out, _ = run(capsys, "lint", "mini.toml", "--format", "json")
    (found,) = json.loads(out)
    assert code == 1 and (found["code"], found["message"]) == ("E704", "unknown unit type 'decoi'")
    assert (found["filename"], found["location"]["row"]) == ("mini.toml", 21)  # the entry's [[setup]] line


def test_a_broken_map_and_a_file_that_is_neither_are_positioned_errors(capsys, game):
    (game / "map.toml").write_text((game / "map.toml").read_text().replace('".T.."', '".T."'))
    (game / "notes.toml").write_text("title = 'x'\n")
    code, out, _ = run(capsys, "lint", "map.toml", "notes.toml")
    lines = out.splitlines()
    assert code == 1 and lines[0].startswith("map.toml:") and " E702 " in lines[0]
    assert lines[1] == "notes.toml:1:1: E704 neither a scenario nor a map: no [scenario] or [map] table"


@pytest.mark.parametrize("path", SHIPPED, ids=str)
def test_every_shipped_scenario_and_map_lints_clean(capsys, monkeypatch, path):
    monkeypatch.chdir(MINI.parents[3])
    code, out, _ = run(capsys, "lint", str(path))
    assert (code, out) == (0, "")
