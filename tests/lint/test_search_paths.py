"""Rulebook search paths (``search-paths`` in ``warbook.toml``): a house-rules folder extends a
designer's own game in the folder beside it, by path or by name, and nothing outside the
rulebook's folder and the search paths is read."""

import os
import textwrap
from pathlib import Path

import pytest

from warbook.dsl.diagnostics import RulesError
from warbook.dsl.lint import lint_report
from warbook.dsl.loader import load_rulebook, load_with_diagnostics
from warbook.interpreter.cli import main

CLEAN = Path(__file__).resolve().parent / "fixtures" / "support" / "clean.rules"

HOUSE = """\
    extends "{base}"
    override side red "Reds" {{
    }}
    """


@pytest.fixture
def folders(tmp_path, monkeypatch):
    """``my_game/my_game.rules`` (a complete rulebook) and an empty ``house/`` beside it; run from ``house``."""
    (tmp_path / "my_game").mkdir()
    (tmp_path / "my_game" / "my_game.rules").write_text(CLEAN.read_text(encoding="utf-8"), encoding="utf-8")
    house = tmp_path / "house"
    house.mkdir()
    monkeypatch.chdir(house)
    return tmp_path


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def codes(path, **kwargs) -> list[str]:
    return [f"{d.code} {d.message}" for d in lint_report(path, **kwargs).diagnostics]


def test_a_sibling_folder_is_refused_without_a_search_path(folders):
    house = write(folders / "house" / "house.rules", HOUSE.format(base="../my_game/my_game.rules"))
    found = codes(house)
    assert found[0] == "E007 '../my_game/my_game.rules' is outside the rulebook folder '.'"


def test_a_search_path_lets_a_house_rule_extend_its_sibling_by_path(folders):
    write(folders / "house" / "warbook.toml", 'search-paths = ["../my_game"]\n')
    house = write(folders / "house" / "house.rules", HOUSE.format(base="../my_game/my_game.rules"))
    assert codes(house) == []
    rulebook = load_rulebook(house)  # the engine's loading (play, show) honours it too
    assert rulebook.get("side", "red").label == "Reds"


def test_a_search_path_lets_a_house_rule_extend_its_sibling_by_name(folders):
    write(folders / "warbook.toml", 'search-paths = ["my_game"]\n')  # the project root's configuration
    house = write(folders / "house" / "house.rules", HOUSE.format(base="my_game"))
    assert codes(house) == []
    assert load_rulebook(house).get("side", "red").label == "Reds"


def test_the_command_line_lints_the_house_rule_through_the_search_path(folders, capsys):
    write(folders / "house" / "warbook.toml", 'search-paths = ["../my_game"]\n')
    write(folders / "house" / "house.rules", HOUSE.format(base="my_game"))
    assert main(["lint", "house.rules"]) == 0
    assert capsys.readouterr().err == "1 file checked: 0 errors, 0 warnings, 0 infos\n"


def test_an_explicit_empty_search_path_ignores_the_configuration(folders):
    write(folders / "house" / "warbook.toml", 'search-paths = ["../my_game"]\n')
    house = write(folders / "house" / "house.rules", HOUSE.format(base="../my_game/my_game.rules"))
    _, found = load_with_diagnostics(house, search_paths=())
    assert [d.code for d in found][:1] == ["E007"]


def test_escaping_the_search_paths_is_refused(folders):
    write(folders / "house" / "warbook.toml", 'search-paths = ["../my_game"]\n')
    write(folders / "secret.rules", 'side green "Green"\n')
    (folders / "my_game" / "notes.txt").write_text('side green "Green"\n', encoding="utf-8")
    os.symlink(folders / "secret.rules", folders / "my_game" / "linked.rules")
    for target in ("../secret.rules", "../my_game/../secret.rules", "../my_game/notes.txt",
                   "../my_game/linked.rules", str(folders / "secret.rules")):
        house = write(folders / "house" / "house.rules", f'include "{target}"\n')
        found = codes(house)
        assert found and found[0].startswith("E007 ") and "the project's search paths" in found[0], target
        with pytest.raises(RulesError):
            load_rulebook(house)


def test_a_file_reached_through_a_search_path_is_confined_too(folders):
    """The base in the search path may include only within its own folder or the search paths."""
    write(folders / "house" / "warbook.toml", 'search-paths = ["../my_game"]\n')
    write(folders / "secret.rules", 'side green "Green"\n')
    write(folders / "my_game" / "base.rules", 'include "../secret.rules"\n')
    house = write(folders / "house" / "house.rules", 'extends "../my_game/base.rules"\n')
    assert codes(house)[0].startswith("E007 '../secret.rules' is outside the rulebook folder")


def test_search_paths_must_be_relative_folders(folders):
    write(folders / "house" / "warbook.toml", f'search-paths = ["{folders / "my_game"}", "../nowhere"]\n')
    house = write(folders / "house" / "house.rules", HOUSE.format(base="../my_game/my_game.rules"))
    found = codes(house)
    assert [f for f in found if f.startswith("E009")] == [
        f"E009 '{folders / 'my_game'}' must be relative to the configuration's folder",
        "E009 search path '../nowhere' is not a folder of '.'",
    ]
    assert found[0].startswith("E007 ")  # no search path left: the sibling is refused


def test_a_scenario_in_the_house_folder_names_the_sibling_game_and_map(tmp_path, monkeypatch, capsys):
    """A scenario finds a rulebook by name, and a map by path, through the project's search paths."""
    example = Path(__file__).resolve().parents[2] / "examples" / "orvel_gap"
    (tmp_path / "my_game").mkdir()
    (tmp_path / "house").mkdir()
    for name in ("orvel_gap.rules", "map.toml"):
        (tmp_path / "my_game" / name).write_text((example / name).read_text(encoding="utf-8"), encoding="utf-8")
    scenario = (example / "orvel_gap.toml").read_text(encoding="utf-8")
    scenario = scenario.replace('rules = "orvel_gap.rules"', 'rules = "orvel_gap"').replace(
        'map = "map.toml"', 'map = "../my_game/map.toml"')
    write(tmp_path / "house" / "gap.toml", scenario)
    monkeypatch.chdir(tmp_path / "house")
    assert main(["lint", "gap.toml", "--select", "E"]) == 1  # neither is found, nor may be read
    assert capsys.readouterr().out == "gap.toml:4:1: E704 no rules file or shipped rulebook 'orvel_gap'\n"
    write(tmp_path / "house" / "warbook.toml", 'search-paths = ["../my_game"]\n')
    assert main(["lint", "gap.toml", "--select", "E"]) == 0
    assert capsys.readouterr().out == ""
