"""``warbook fmt`` end to end: writing, --check, --diff, stdin, exit codes, bad input."""

import io
import os
import sys
from pathlib import Path

import pytest

from warbook.interpreter.cli import main

MESSY = 'side  a "A"  {\n  short a\n}\n'
CLEAN = 'side a "A" {\n    short a\n}\n'


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def fmt(capsys, *args) -> tuple[int, str, str]:
    code = main(["fmt", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_rewrites_in_place_keeping_the_permissions(capsys, here):
    (here / "a.rules").write_text(MESSY, encoding="utf-8")
    (here / "b.rules").write_text(CLEAN, encoding="utf-8")
    os.chmod(here / "a.rules", 0o640)
    assert fmt(capsys, "a.rules", "b.rules") == (0, "", "1 file reformatted, 1 file left unchanged\n")
    assert (here / "a.rules").read_text(encoding="utf-8") == CLEAN
    assert (os.stat(here / "a.rules").st_mode & 0o777) == 0o640
    assert sorted(p.name for p in here.iterdir()) == ["a.rules", "b.rules"]  # no temporary file left
    assert fmt(capsys, "a.rules") == (0, "", "1 file left unchanged\n")


def test_check_writes_nothing_and_exits_1(capsys, here):
    (here / "a.rules").write_text(MESSY, encoding="utf-8")
    (here / "b.rules").write_text(CLEAN, encoding="utf-8")
    assert fmt(capsys, "--check", ".") == (1, "Would reformat: a.rules\n",
                                            "1 file would be reformatted, 1 file already formatted\n")
    assert (here / "a.rules").read_text(encoding="utf-8") == MESSY
    assert fmt(capsys, "--check", "b.rules") == (0, "", "1 file already formatted\n")


def test_diff_prints_a_unified_diff(capsys, here):
    (here / "a.rules").write_text(MESSY, encoding="utf-8")
    code, out, _ = fmt(capsys, "--diff", "a.rules")
    assert code == 1 and out == (
        "--- a.rules\t(original)\n+++ a.rules\t(formatted)\n@@ -1,3 +1,3 @@\n"
        '-side  a "A"  {\n-  short a\n+side a "A" {\n+    short a\n }\n')
    assert (here / "a.rules").read_text(encoding="utf-8") == MESSY


def test_crlf_counts_as_a_change(capsys, here):
    (here / "a.rules").write_bytes(CLEAN.replace("\n", "\r\n").encode())
    assert fmt(capsys, "--check", "a.rules")[0] == 1
    assert fmt(capsys, "a.rules")[0] == 0 and (here / "a.rules").read_bytes() == CLEAN.encode()


def test_stdin_to_stdout(capsys, here, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(MESSY))
    assert fmt(capsys, "-") == (0, CLEAN, "")
    monkeypatch.setattr(sys, "stdin", io.StringIO(MESSY))
    assert fmt(capsys, "--check", "-") == (1, "Would reformat: <stdin>\n", "1 file would be reformatted\n")


def test_bad_input_is_a_positioned_diagnostic_and_exit_2(capsys, here):
    (here / "bad.rules").write_text('side a "A" {\n    short a\n', encoding="utf-8")
    (here / "a.rules").write_text(MESSY, encoding="utf-8")
    code, out, err = fmt(capsys, "bad.rules", "nowhere.rules", "a.rules")
    assert (code, out) == (2, "")
    assert err.splitlines() == ["bad.rules:1:12: E003 file ends inside a '{' block",
                                "nowhere.rules:1:1: E004 no such rules file 'nowhere.rules'",
                                "1 file reformatted"]
    assert (here / "a.rules").read_text(encoding="utf-8") == CLEAN  # the good file is still formatted


def test_needs_a_path(capsys):
    with pytest.raises(SystemExit) as info:
        main(["fmt"])
    assert info.value.code == 2


def test_diff_of_a_file_without_a_last_newline_says_so(capsys, here):
    (here / "a.rules").write_text("a  b", encoding="utf-8")
    code, out, _ = fmt(capsys, "--diff", "a.rules")
    assert code == 1 and out.splitlines()[2:] == ["@@ -1 +1 @@", "-a  b", "\\ No newline at end of file", "+a b"]


def test_the_shipped_rulebooks_and_examples_are_formatted(capsys, monkeypatch):
    """The files warbook ships (and the gallery's) are kept in the layout: `warbook fmt` on them
    after an edit, or this fails."""
    root = Path(__file__).resolve().parents[1]
    monkeypatch.chdir(root)
    code, out, err = fmt(capsys, "--check", "rulebooks", "scenarios", "examples", "tests/gallery")
    assert (code, out) == (0, ""), f"run: warbook fmt rulebooks scenarios examples tests/gallery\n{out}"
