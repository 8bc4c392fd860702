"""``warbook lint`` end to end: exit codes, --select/--ignore, --explain, suppressions."""

import json
import textwrap
from pathlib import Path

import pytest

from warbook.dsl.diagnostics import CODES
from warbook.dsl.lint import load_checks
from warbook.interpreter.cli import main

load_checks()

CLEAN = Path(__file__).resolve().parent / "fixtures" / "support" / "clean.rules"

# Two unused tags (W403), an unknown result in a table (E204) and a table nothing uses (W402).
FINDINGS = '''
tag mech "Mech"
tag foot "Foot"
result x "X" {
    effect no effect
}
table t "T" {
    1: x+y
}
'''


@pytest.fixture
def rules(tmp_path, monkeypatch):
    """Write a rules file in a temporary folder and run from there, so paths print as bare names."""
    monkeypatch.chdir(tmp_path)

    def write(text: str, name: str = "house.rules") -> str:
        (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
        return name

    return write


def lint(capsys, *args) -> tuple[int, list[str], str]:
    code = main(["lint", *args])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_clean_rulebook_exits_0(capsys):
    code, out, err = lint(capsys, str(CLEAN))
    assert (code, out) == (0, [])
    assert "0 errors, 0 warnings, 0 infos" in err


def test_findings_exit_1_and_exit_zero_gives_0(capsys, rules):
    path = rules(FINDINGS)
    code, out, _ = lint(capsys, path)
    assert code == 1
    assert [line.split(" ")[1] for line in out] == ["W403", "W403", "W402", "E204"]
    assert out[0] == "house.rules:2:5: W403 tag 'mech' is never used"
    code, out2, _ = lint(capsys, path, "--exit-zero")
    assert (code, out2) == (0, out)


def test_fail_level_error_ignores_warnings(capsys, rules):
    path = rules('tag mech "Mech"\n')
    assert lint(capsys, path, "--fail-level", "error")[0] == 0
    assert lint(capsys, path)[0] == 1


def test_select_and_ignore_take_prefixes(capsys, rules):
    path = rules(FINDINGS)
    _, out, _ = lint(capsys, path, "--select", "W4")
    assert {line.split(" ")[1] for line in out} == {"W402", "W403"}
    _, out, _ = lint(capsys, path, "--select", "w4,E2", "--ignore", "W403")
    assert {line.split(" ")[1] for line in out} == {"W402", "E204"}
    code, out, _ = lint(capsys, path, "--ignore", "W,E")
    assert (code, out) == (0, [])


def test_usage_errors_exit_2(capsys, rules):
    path = rules(FINDINGS)
    with pytest.raises(SystemExit) as info:
        main(["lint", path, "--no-such-option"])
    assert info.value.code == 2
    assert lint(capsys, path, "--select", "Z9")[0] == 2
    assert lint(capsys, "--explain", "W999")[0] == 2
    assert lint(capsys)[0] == 1  # no path: the project's files (here, the folder's house.rules)
    code, _, err = lint(capsys, "--explain", "Q1", "--exit-zero")
    assert code == 2 and "unknown code" in err


def test_explain_prints_the_docstring_and_list_prints_every_code(capsys):
    code, out, _ = lint(capsys, "--explain", "w401")
    assert code == 0 and out[0] == "W401 unused-result (warning)" and "## What it does" in out
    code, out, _ = lint(capsys, "--list")
    assert code == 0 and [line.split(" ")[0] for line in out] == sorted(CODES)


def test_json_format_through_the_command_line(capsys, rules):
    path = rules(FINDINGS)
    code, out, err = lint(capsys, path, "--format", "json", "--select", "E204")
    items = json.loads("\n".join(out))
    assert code == 1 and err == ""
    assert [(i["code"], i["filename"], i["location"], i["message"]) for i in items] == [
        ("E204", "house.rules", {"row": 8, "column": 8}, "unknown result 'y' in cell 'x+y' of table 't'")]


def test_full_format_through_the_command_line(capsys, rules):
    path = rules(FINDINGS)
    _, out, _ = lint(capsys, path, "--format", "full", "--select", "E204")
    assert out == [
        "house.rules:8:8: E204 unknown result 'y' in cell 'x+y' of table 't' [unknown-result]",
        "   8 |     1: x+y",
        "              ^^^",
        "",
    ]


def test_missing_file_is_a_diagnostic_not_a_traceback(capsys, rules):
    code, out, err = lint(capsys, "nowhere.rules")
    assert code == 1 and out == ["nowhere.rules:1:1: E004 no such rules file 'nowhere.rules'"]


SUPPRESSED = '''
# lint: ignore[W403]
tag mech "Mech"
tag foot "Foot"
tag air "Air"  # lint: ignore[W4]
result x "X" {
    effect no effect
}
table t "T" {  # lint: ignore[E2, W402]
    1: x+y
}
table u "U" {
    1: x+y
}
'''


def test_suppression_applies_to_one_declaration_and_is_counted(capsys, rules):
    path = rules(SUPPRESSED)
    code, out, err = lint(capsys, path)
    # 'mech' (comment on the line before), 'air' (same line) and everything inside table 't'
    # are suppressed; 'foot', just after 'mech', and table 'u' are not.
    assert out == [
        "house.rules:4:5: W403 tag 'foot' is never used",
        "house.rules:12:7: W402 table 'u' is never used",
        "house.rules:13:8: E204 unknown result 'y' in cell 'x+y' of table 'u'",
    ]
    assert code == 1 and err.strip().endswith("4 suppressed")


def test_unknown_code_in_a_suppression_is_reported(capsys, rules):
    path = rules('tag mech "Mech"  # lint: ignore[W403, W40X]\n')
    code, out, err = lint(capsys, path)
    assert out == ["house.rules:1:18: W490 unknown code 'W40X' in suppression"]
    assert "1 suppressed" in err


def test_trailing_suppression_does_not_reach_the_next_declaration(capsys, rules):
    # The comment trails the 'do move' line: it covers that line only, not the step below it.
    path = rules('''
        sequence {
            phase orders {
                do move  # lint: ignore[E305]
                step idle {
                    optional
                }
            }
        }
        ''')
    code, out, err = lint(capsys, path, "--select", "E305")
    assert out == ["house.rules:5:14: E305 step 'idle' does nothing"]
    assert "suppressed" not in err
