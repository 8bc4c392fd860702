"""``warbook lint`` for the ecosystem: each output format against a golden, SARIF against its
official schema, ``--statistics``, ``--fix`` and ``--unsafe-fixes``, ``--watch`` stepped by a
test, stdin with ``--stdin-filename``, and ``--format`` kept as an alias of ``--output-format``.

Goldens are ``outputs/findings.<format>.expected``: stdout, then stderr after a marker
(``pytest --update-goldens`` rewrites them)."""

import io
import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from warbook import __version__
from warbook.interpreter.cli import build_parser, main
from warbook.interpreter.cli.lint import watch

HERE = Path(__file__).resolve().parent / "outputs"
FINDINGS = HERE / "findings.rules"
SCHEMA = Path(__file__).resolve().parent / "sarif" / "sarif-schema-2.1.0.json"


def lint(capsys, *args) -> tuple[int, str, str]:
    code = main(["lint", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("output_format", ["concise", "full", "json", "github", "sarif"])
def test_each_output_format_matches_its_golden(output_format, capsys, monkeypatch, golden):
    monkeypatch.chdir(HERE)
    code, out, err = lint(capsys, FINDINGS.name, "--output-format", output_format)
    assert code == 1
    golden(HERE / f"findings.{output_format}.expected",
           f"{out.replace(__version__, 'VERSION')}--- stderr ---\n{err}")


def test_format_is_an_alias_of_output_format(capsys, monkeypatch):
    monkeypatch.chdir(HERE)
    assert lint(capsys, FINDINGS.name, "--format", "github") == lint(capsys, FINDINGS.name, "--output-format", "github")


def test_github_annotations_name_the_place_and_the_code(capsys, monkeypatch):
    monkeypatch.chdir(HERE)
    _, out, _ = lint(capsys, FINDINGS.name, "--output-format", "github", "--select", "E101")
    first = out.splitlines()[0]
    assert first == ("::error file=findings.rules,line=5,col=12,endLine=5,endColumn=17,title=E101"
                     "::unknown tag 'grond'%0Ahelp: did you mean 'ground'?")


def test_sarif_validates_against_the_official_schema(capsys, monkeypatch):
    jsonschema = pytest.importorskip("jsonschema")
    monkeypatch.chdir(HERE)
    _, out, _ = lint(capsys, FINDINGS.name, "--output-format", "sarif")
    log = json.loads(out)
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.validators.validator_for(schema)(schema).validate(log)
    run = log["runs"][0]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["E101", "W403"]
    assert [(r["ruleId"], r["level"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
            for r in run["results"]] == [("W403", "warning", 3), ("W403", "warning", 4), ("E101", "error", 5),
                                         ("W403", "warning", 7), ("W403", "warning", 8), ("E101", "error", 9)]
    fix = run["results"][2]["fixes"][0]["artifactChanges"][0]["replacements"][0]
    assert fix == {"deletedRegion": {"startLine": 5, "startColumn": 12, "endLine": 5, "endColumn": 17},
                   "insertedContent": {"text": "ground"}}


def test_schema_validation_can_fail():
    """The validation above is not vacuous: a log without results' messages is refused."""
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    bad = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "warbook"}}, "results": [{"ruleId": "E101"}]}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validators.validator_for(schema)(schema).validate(bad)


def test_statistics_count_each_code_most_frequent_first(capsys, monkeypatch):
    monkeypatch.chdir(HERE)
    code, out, err = lint(capsys, FINDINGS.name, "--statistics")
    assert code == 1
    assert out == "4\tW403\tunused-tag\n2\tE101\t[*] unknown-name\n"
    assert err.startswith("1 file checked: 2 errors, 4 warnings, 0 infos\n")
    _, out, _ = lint(capsys, FINDINGS.name, "--statistics", "--output-format", "json")
    assert json.loads(out) == [{"code": "W403", "name": "unused-tag", "count": 4, "fixable": False},
                               {"code": "E101", "name": "unknown-name", "count": 2, "fixable": True}]


@pytest.fixture
def copy(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(FINDINGS, tmp_path / FINDINGS.name)
    return tmp_path / FINDINGS.name


def test_fix_applies_the_safe_rename_only(capsys, copy, golden):
    code, out, err = lint(capsys, copy.name, "--fix", "--select", "E")
    assert code == 1 and out == "findings.rules:9:12: E101 unknown tag 'foot'\n"
    assert err == "1 file checked: 1 error, 0 warnings, 0 infos, 1 fixed\n"
    golden(HERE / "findings.fixed.expected", copy.read_text(encoding="utf-8"))
    assert "within ground" in copy.read_text(encoding="utf-8") and "within foot\n" in copy.read_text(encoding="utf-8")


def test_unsafe_fixes_also_take_the_closest_of_several(capsys, copy):
    code, out, err = lint(capsys, copy.name, "--unsafe-fixes", "--select", "E")
    assert (code, out) == (0, "")
    assert err == "1 file checked: 0 errors, 0 warnings, 0 infos, 2 fixed\n"
    text = copy.read_text(encoding="utf-8")
    assert "within ground" in text and "within foot2" in text  # of foot1 and foot2, difflib's pick
    assert lint(capsys, copy.name, "--unsafe-fixes", "--select", "E")[2].endswith("0 fixed\n")  # nothing left to do


def test_fix_keeps_line_breaks_and_a_misspelt_keyword(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "crlf.rules"
    path.write_bytes(b'tag ground "Ground"\r\ntga sea "Sea"\r\ntag foot "Foot" {\r\n    within grond\r\n}\r\n')
    code, _, err = lint(capsys, path.name, "--fix", "--select", "E")
    assert code == 0 and err.endswith("2 fixed\n")
    assert path.read_bytes() == b'tag ground "Ground"\r\ntag sea "Sea"\r\ntag foot "Foot" {\r\n    within ground\r\n}\r\n'


def test_fix_writes_nothing_when_there_is_nothing_to_fix(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "ok.rules"
    path.write_text('tag a "A"\n', encoding="utf-8")
    before = path.stat().st_mtime_ns
    lint(capsys, path.name, "--fix")
    assert path.stat().st_mtime_ns == before


def test_fix_and_watch_refuse_stdin(capsys):
    assert lint(capsys, "-", "--fix")[0] == 2
    assert lint(capsys, "-", "--watch")[0] == 2


def stepper(changes: dict[int, tuple[Path, str]]):
    """A ``wait`` for ``watch`` that, at the polls named, rewrites a file and moves its time on by
    a second (nothing sleeps); and the list of polls made."""
    polls = []

    def step():
        polls.append(1)
        if len(polls) in changes:
            path, text = changes[len(polls)]
            before = path.stat().st_mtime_ns
            path.write_text(text, encoding="utf-8")
            os.utime(path, ns=(before + 10**9, before + 10**9))

    return step, polls


def test_watch_lints_again_when_a_file_changes(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "house.rules"
    path.write_text('tag a "A"\n', encoding="utf-8")
    step, polls = stepper({2: (path, 'tag a "A"\ntag b "B" {\n    within c\n}\n')})
    args = build_parser().parse_args(["lint", path.name, "--select", "E"])
    code = watch(args, step, polls=4)
    out, err = capsys.readouterr()
    assert len(polls) == 4 and code == 1
    assert out == "house.rules:3:12: E101 unknown tag 'c'\n"
    assert err == ("1 file checked: 0 errors, 0 warnings, 0 infos\n"
                   "warbook: a file changed; linting again\n"
                   "1 file checked: 1 error, 0 warnings, 0 infos\n")


def test_watch_sees_a_changed_include_and_configuration(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    part, config = tmp_path / "part.rules", tmp_path / "warbook.toml"
    part.write_text('tag a "A"\n', encoding="utf-8")
    (tmp_path / "house.rules").write_text('include "part.rules"\n', encoding="utf-8")
    config.write_text('[lint]\nselect = ["E"]\n', encoding="utf-8")
    step, _ = stepper({1: (part, 'tag b "B" {\n    within c\n}\n'), 3: (config, '[lint]\nselect = ["W"]\n')})
    code = watch(build_parser().parse_args(["lint", "house.rules"]), step, polls=3)
    out, err = capsys.readouterr()
    assert code == 1 and out == ("part.rules:2:12: E101 unknown tag 'c'\n"    # the include changed
                                 "part.rules:1:5: W403 tag 'b' is never used\n")  # then the configuration
    assert err.count("linting again") == 2


def test_stdin_resolves_includes_and_configuration_as_the_named_file(capsys, tmp_path, monkeypatch):
    house = tmp_path / "house"
    house.mkdir()
    (house / "part.rules").write_text('tag a "A"\n', encoding="utf-8")
    (house / "warbook.toml").write_text('[lint]\nignore = ["W403"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO('include "part.rules"\ntag b "B" {\n    within c\n}\n'))
    code, out, err = lint(capsys, "-", "--stdin-filename", "house/unsaved.rules")
    assert code == 1 and out == "house/unsaved.rules:3:12: E101 unknown tag 'c'\n"  # W403 ignored by house's config
    monkeypatch.setattr(sys, "stdin", io.StringIO('include "part.rules"\n'))
    code, out, err = lint(capsys, "--stdin-filename", "house/unsaved.rules")  # no path: stdin
    assert (code, out) == (0, "")
    monkeypatch.setattr(sys, "stdin", io.StringIO('include "part.rules"\n'))
    code, out, err = lint(capsys, "-")  # no name: relative to the current folder, where there is no part.rules
    assert code == 1 and out == "<stdin>:1:9: E004 no such rules file 'part.rules'\n"


def test_stdin_filename_needs_stdin(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.rules").write_text('tag a "A"\n', encoding="utf-8")
    assert lint(capsys, "a.rules", "--stdin-filename", "b.rules")[0] == 2
    assert lint(capsys, "-", "--stdin-filename", "b.toml")[0] == 2


def test_linting_a_rules_file_in_every_format_loads_no_engine():
    """``warbook lint`` of a rules file stays the language alone, whatever the output (a fresh process)."""
    import subprocess

    script = ("import sys, contextlib, io\n"
              "from warbook.interpreter.cli import main\n"
              "for f in ('sarif', 'github', 'json'):\n"
              "    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
              f"        main(['lint', {str(FINDINGS)!r}, '--output-format', f, '--statistics'])\n"
              "print(sorted(m for m in sys.modules if m.split('.')[0] == 'networkx'\n"
              "             or m in ('warbook.interpreter.game', 'warbook.interpreter.board')))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout == "[]\n"
