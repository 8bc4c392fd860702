"""The project configuration (``dsl.config``): how it is found, what it says, every bad value a
positioned E009 (never a traceback), and the command line's flags overriding it."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import tomli_w
from hypothesis import given, settings, strategies as st

from warbook.dsl.config import ConfigTable, config_for, converter, find_config, load_config, structure_plain
from warbook.interpreter.cli import main
from warbook.interpreter.render import concise

HERE = Path(__file__).resolve().parent / "config"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def lint(capsys, *args) -> tuple[int, str, str]:
    code = main(["lint", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_bad_config_fixture_matches_its_golden(monkeypatch, golden):
    """E009's fixture: each "fires" line reported at its key, each "ok" line kept."""
    folder = HERE / "E009_bad_config"
    monkeypatch.chdir(folder)
    config, problems = load_config(Path("warbook.toml"))
    golden(HERE / "E009_bad_config.expected", "".join(f"{concise(d)}\n" for d in sorted(problems, key=lambda d: d.sort_key())))
    assert config.select == ("E1",) and config.include == (folder / "rules",)
    assert config.search_paths == (HERE,)
    assert config.per_file_ignores == (("house/*.rules", ("W4",)),)
    assert config.fail_level is None and config.output_format is None


def test_found_by_walking_up_and_warbook_toml_wins_in_its_folder(tmp_path):
    deep = tmp_path / "a" / "b" / "c"
    deep.mkdir(parents=True)
    assert find_config(deep / "x.rules") is None or not find_config(deep / "x.rules").is_relative_to(tmp_path)
    write(tmp_path / "pyproject.toml", "[project]\nname = 'x'\n")  # no [tool.warbook]: not a configuration
    assert find_config(deep / "x.rules") is None or not find_config(deep / "x.rules").is_relative_to(tmp_path)
    write(tmp_path / "a" / "pyproject.toml", "[tool.warbook.lint]\nselect = ['E']\n")
    assert find_config(deep / "x.rules") == tmp_path / "a" / "pyproject.toml"
    write(tmp_path / "a" / "warbook.toml", "[lint]\nselect = ['W']\n")
    assert find_config(deep / "x.rules") == tmp_path / "a" / "warbook.toml"
    write(tmp_path / "a" / "b" / "pyproject.toml", "[tool.warbook]\ninclude = []\n")
    assert find_config(deep) == tmp_path / "a" / "b" / "pyproject.toml"  # the nearest wins
    assert config_for(deep / "x.rules")[0].root == tmp_path / "a" / "b"


def test_pyproject_table_is_read_and_its_problems_placed(tmp_path):
    path = write(tmp_path / "pyproject.toml", """\
        [project]
        name = "house"

        [tool.warbook.lint]
        select = ["W4"]
        fail-levl = "error"
        """)
    config, problems = load_config(path)
    assert config.select == ("W4",) and config.root == tmp_path
    assert [(d.code, d.span.line, d.span.column, d.message, d.hint) for d in problems] == [
        ("E009", 6, 1, "unknown key 'fail-levl' in [lint]", "did you mean 'fail-level'?")]


def test_invalid_toml_is_one_diagnostic_at_its_line(tmp_path):
    path = write(tmp_path / "warbook.toml", "[lint]\nselect = [\"E\"\nignore = 3\n")
    config, problems = load_config(path)
    assert [(d.code, d.span.line) for d in problems] == [("E009", 3)]
    assert problems[0].message.startswith("not valid TOML")
    assert config.select == () and config.root == tmp_path


VALUES = st.recursive(st.booleans() | st.integers(-5, 5) | st.text(max_size=8),  # (TOML has no null)
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                                   max_size=3), max_leaves=8)
KEYS = st.sampled_from(["include", "search-paths", "lint", "select", "per-file-ignores", "fail-level", "other"])


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(KEYS, VALUES, max_size=4), st.dictionaries(KEYS, VALUES, max_size=4))
def test_any_values_are_diagnostics_never_an_exception(tmp_path_factory, top, lint_table):
    folder = tmp_path_factory.mktemp("cfg")
    data = {**top, "lint": lint_table}
    path = folder / "warbook.toml"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    config, problems = load_config(path)
    assert all(d.code == "E009" and d.span.line >= 1 for d in problems)
    assert config.root == folder


PLAIN = st.lists(st.text(max_size=4), max_size=3)
PLAIN_TABLE = st.fixed_dictionaries({}, optional={"select": PLAIN, "fail-level": st.text(max_size=5),
                                                  "per-file-ignores": st.dictionaries(st.text(max_size=4), PLAIN)})


@settings(max_examples=80, deadline=None)
@given(st.dictionaries(KEYS, VALUES | PLAIN, max_size=4), st.dictionaries(KEYS, VALUES | PLAIN, max_size=4) | PLAIN_TABLE)
def test_the_plain_reading_agrees_with_the_converter(top, lint_table):
    """``structure_plain`` (no cattrs) builds exactly what the converter builds, or declines."""
    from cattrs import BaseValidationError

    data = {**top, "lint": lint_table}
    plain = structure_plain(data, ConfigTable)
    try:
        structured = converter().structure(data, ConfigTable)
    except (BaseValidationError, ValueError):
        assert plain is None
    else:
        assert plain is None or plain == structured


def test_a_plain_configuration_is_read_without_cattrs(tmp_path):
    """The common case (lists of strings, a string) does not import cattrs; the repository's own is one."""
    path = write(tmp_path / "warbook.toml", '[lint]\nselect = ["W"]\nfail-level = "error"\n'
                 '[lint.per-file-ignores]\n"house/*.rules" = ["W4"]\n')
    table = {"lint": {"select": ["W"], "fail-level": "error", "per-file-ignores": {"house/*.rules": ["W4"]}}}
    assert structure_plain(table, ConfigTable) == converter().structure(table, ConfigTable)
    assert structure_plain({"lint": {"select": "W"}}, ConfigTable) is None  # a string, not a list: the converter's
    assert structure_plain({"lnit": {}}, ConfigTable) is None
    code = ("import sys; from pathlib import Path; from warbook.dsl.config import load_config; "
            f"c, p = load_config(Path({str(path)!r})); assert c.select == ('W',) and not p, p; "
            "assert 'cattrs' not in sys.modules, 'cattrs imported'")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=80))
def test_any_text_is_diagnostics_never_an_exception(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("cfg") / "warbook.toml"
    path.write_text(text, encoding="utf-8")
    _, problems = load_config(path)
    assert all(d.code == "E009" for d in problems)


FINDINGS = """\
    tag mech "Mech"
    tag foot "Foot" {
        within mehc
    }
    """


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project folder with a rules file (an unused tag W403 twice and an unknown name E101), run from there."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "house.rules", FINDINGS)
    return tmp_path


def test_config_selects_and_flags_override_it(capsys, project):
    write(project / "warbook.toml", '[lint]\nselect = ["W"]\n')
    code, out, _ = lint(capsys, "house.rules")
    assert [line.split()[1] for line in out.splitlines()] == ["W403", "W403"] and code == 1
    _, out, _ = lint(capsys, "house.rules", "--select", "E")
    assert [line.split()[1] for line in out.splitlines()] == ["E101"]


def test_config_ignores_and_fail_level_and_flags_override_them(capsys, project):
    write(project / "warbook.toml", '[lint]\nignore = ["E1"]\nfail-level = "error"\n')
    code, out, _ = lint(capsys, "house.rules")
    assert code == 0 and [line.split()[1] for line in out.splitlines()] == ["W403", "W403"]
    assert lint(capsys, "house.rules", "--fail-level", "warning")[0] == 1
    code, out, _ = lint(capsys, "house.rules", "--ignore", "W")
    assert code == 1 and [line.split()[1] for line in out.splitlines()] == ["E101"]


def test_config_output_format_and_the_flag_overrides_it(capsys, project):
    write(project / "warbook.toml", '[lint]\noutput-format = "github"\n')
    _, out, _ = lint(capsys, "house.rules", "--select", "E")
    assert out.startswith("::error file=house.rules,line=3,col=12,")
    _, out, _ = lint(capsys, "house.rules", "--select", "E", "--format", "concise")
    assert out == "house.rules:3:12: E101 unknown tag 'mehc'\n"


def test_per_file_ignores_match_globs_relative_to_the_root(capsys, project):
    write(project / "variants" / "night.rules", FINDINGS)
    write(project / "warbook.toml", """\
        [lint.per-file-ignores]
        "variants/*.rules" = ["W403"]
        "house.rules" = ["E101"]
        """)
    _, out, _ = lint(capsys, "house.rules", "variants")
    assert [line.split(":")[0] + " " + line.split()[1] for line in out.splitlines()] == [
        "house.rules W403", "house.rules W403", "variants/night.rules E101"]


def test_a_bad_config_is_reported_once_and_fails(capsys, project):
    write(project / "warbook.toml", '[lint]\nselect = ["W"]\nshow-fixes = true\n')
    write(project / "other.rules", 'tag a "A"\n')
    code, out, _ = lint(capsys, "house.rules", "other.rules")
    assert code == 1
    assert [line for line in out.splitlines() if "E009" in line] == [
        "warbook.toml:3:1: E009 unknown key 'show-fixes' in [lint]"]


def test_no_path_lints_the_projects_include(capsys, project):
    write(project / "rules" / "game.rules", 'tag a "A"\n')
    write(project / "scenarios" / "broken.toml", "[scenario]\nname = 3\n")
    write(project / ".venv" / "lib" / "x.rules", "not rules at all {\n")  # hidden folders are skipped
    write(project / "warbook.toml", 'include = ["rules", "scenarios"]\n[lint]\nselect = ["W", "E7"]\n')
    code, out, err = lint(capsys)
    assert code == 1 and err.startswith("2 files checked:")
    assert sorted({line.split(":")[0] for line in out.splitlines()}) == ["rules/game.rules", "scenarios/broken.toml"]


def test_no_path_and_no_include_lints_the_root(capsys, project):
    write(project / "warbook.toml", '[lint]\nselect = ["E"]\n')
    code, out, err = lint(capsys)
    assert (code, out) == (1, "house.rules:3:12: E101 unknown tag 'mehc'\n")
    assert err.startswith("1 file checked:")  # warbook.toml itself is not linted as a scenario


def test_the_documented_configuration_is_valid(tmp_path):
    """docs/config.md's example configuration names only keys and values warbook takes."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "config.md").read_text(encoding="utf-8")
    example = doc.split("```toml\n", 1)[1].split("```", 1)[0]
    project = tmp_path / "project"
    for folder in (project / "rulebooks", project / "scenarios", tmp_path / "my_game"):
        folder.mkdir(parents=True)
    config, problems = load_config(write(project / "warbook.toml", example))
    assert problems == []
    assert config.search_paths == (tmp_path / "my_game",) and config.output_format == "full"
    assert config.ignored_codes(project / "variants" / "night.rules") == ("W403",)
    assert config.ignored_codes(project / "night.rules") == ()


@pytest.mark.parametrize("text", ["# tool.warbook\ntool = 3\n", "tool.warbook = 3\n", "[tool]\nwarbook = [1]\n"])
def test_a_pyproject_whose_tool_table_is_not_a_table_is_a_diagnostic(tmp_path, text):
    path = write(tmp_path / "pyproject.toml", text)
    config, problems = load_config(path)
    assert [d.message for d in problems] == ["'tool.warbook' must be a table"] and config.root == tmp_path


def test_files_that_are_not_plain_text_are_diagnostics(tmp_path):
    path = tmp_path / "warbook.toml"
    path.write_bytes(b"\xff\xfe[lint]\n")
    assert [d.code for d in load_config(path)[1]] == ["E004"]
    (tmp_path / "sub").mkdir()
    os.mkfifo(tmp_path / "sub" / "warbook.toml")  # a FIFO is never read (it would wait for a writer)
    assert find_config(tmp_path / "sub" / "x.rules") == path
