"""Hostile rules input (issue 17, "Hardening"): every bad file, path or value is a positioned
diagnostic, never a traceback, a hang or gigabytes of memory.

Numbers past Python's 4,300-digit ``int`` limit (item 5), paths the system refuses (item 6),
include fan-out, FIFOs and devices (item 7), parser memory (item 10), characters that look
like line breaks (item 11).
"""

from __future__ import annotations

import os
import tracemalloc
from pathlib import Path

import pytest

from warbook.dsl import loader, sources, values
from warbook.dsl.diagnostics import RulesError
from warbook.dsl.lint import lint_path
from warbook.dsl.parser import parse_text

MINI = (Path(__file__).resolve().parents[1] / "interpreter" / "fixtures" / "mini" / "mini.rules").read_text()
HUGE = "9" * 5000
"""Past ``sys.get_int_max_str_digits()``: ``int(HUGE)`` raises ``ValueError``."""
READERS = [values.read_int, values.read_number, values.read_dice, values.read_range, values.read_odds,
           values.read_shift, values.read_multiplier, values.read_modifier]


def lint_text(tmp_path: Path, text: str, name: str = "main.rules") -> list[tuple[str, int, int, str]]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return [(d.code, d.span.line, d.span.column, d.message) for d in lint_path(path) if d.severity.name == "ERROR"]


# --- item 5: over-long numbers -------------------------------------------------------------

@pytest.mark.parametrize("text", [HUGE, f"-{HUGE}", f"1/{HUGE}", f"{HUGE}½", f"1.{HUGE}", f"d{HUGE}", f"{HUGE}d6",
                                  f"1..{HUGE}", f"{HUGE}+", f"<{HUGE}", f"{HUGE}:1", f"{HUGE}L", f"x{HUGE}",
                                  f"+{HUGE}", "1" * 19])
@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.__name__)
def test_value_readers_refuse_over_long_numbers_without_raising(reader, text):
    assert reader(text) is None
    assert values.is_backwards_range(f"{HUGE}..1") is False


def test_numbers_of_up_to_eighteen_digits_still_read():
    assert values.read_int("9" * 18) == 10**18 - 1
    assert values.read_range("1.." + "9" * 18).high == 10**18 - 1


@pytest.mark.parametrize("text", ["101d6", "d1001", "0d6", "d1"])
def test_dice_are_bounded_so_a_roll_stays_cheap(text):
    assert values.read_dice(text) is None
    assert values.read_dice("100d1000") == values.Dice(100, 1000)


@pytest.mark.parametrize("old, new, line, column", [
    ("cost 1\n", f"cost {HUGE}\n", 16, 10),
    ("move 3\n", f"move {HUGE}\n", 30, 10),
    ("level draw 0..1", f"level draw 0..{HUGE}", 56, 16),
    ("cost 1\n", f"cost 1/{HUGE}\n", 16, 10),
])
def test_an_over_long_number_in_a_rulebook_is_an_e105_at_its_word(tmp_path, old, new, line, column):
    found = lint_text(tmp_path, MINI.replace(old, new, 1))
    assert [f[:3] for f in found] == [("E105", line, column)]
    assert "has more than 18 digits" in found[0][3] and len(found[0][3]) < 120


def test_over_long_dice_are_an_e124(tmp_path):
    found = lint_text(tmp_path, MINI.replace("dice d6", f"dice d{HUGE}"))
    assert [f[:3] for f in found] == [("E124", 12, 6)]


@pytest.mark.parametrize("number", [HUGE, "--5", "²"])
def test_a_condition_number_that_is_no_whole_number_is_a_condition_error(number):
    """``isdigit()`` let these through to ``int()``, which raised ``ValueError``."""
    from warbook.dsl.conditions import ConditionError, parse_condition
    from warbook.dsl.model import Rulebook

    with pytest.raises(ConditionError):
        parse_condition([number, ">=", "3"], Rulebook("x", ()))
    assert parse_condition(["-5", ">=", "3"], Rulebook("x", ())).clauses[0].op == ">="


# --- item 6: paths the system refuses ------------------------------------------------------

@pytest.mark.parametrize("line", [
    'extends "' + "a" * 300 + '.rules"\n',
    'extends "' + "a" * 300 + '"\n',
    'include "' + "a" * 300 + '.rules"\n',
    'include "a\0b.rules"\n',
    'extends "a\0b.rules"\n',
    'extends "a\0b"\n',
])
def test_a_path_the_system_refuses_is_an_e004_at_the_path(tmp_path, line):
    found = lint_text(tmp_path, "\n" + line)
    assert [f[:3] for f in found] == [("E004", 2, 9)]


def test_the_reasons_name_what_is_wrong(tmp_path):
    (nul,) = lint_text(tmp_path, 'include "a\0b.rules"\n')
    assert nul[3].endswith("the path holds a NUL character")
    (long,) = lint_text(tmp_path, 'include "' + "a" * 300 + '.rules"\n')
    assert long[3].endswith("the path is longer than the system allows")


# --- item 7: fan-out, FIFOs, devices, bounds -----------------------------------------------

def test_a_file_included_twice_is_read_once(tmp_path, monkeypatch):
    """Twelve files each including the next twice were 2**11 reads; each is now read once."""
    for i in range(12):
        body = f'include "f{i + 1}.rules"\ninclude "f{i + 1}.rules"\n' if i < 11 else "dice d6\n"
        (tmp_path / f"f{i}.rules").write_text(body, encoding="utf-8")
    reads = []
    real = loader.read_source
    monkeypatch.setattr(loader, "read_source", lambda path: reads.append(path) or real(path))
    found = lint_path(tmp_path / "f0.rules")
    assert len(reads) == 12 and len(set(reads)) == 12
    assert {d.code for d in found if d.severity.name == "ERROR"} == {"E102"}  # the second copy of 'd6'


def test_the_files_of_one_rulebook_are_bounded_in_number(tmp_path, monkeypatch):
    monkeypatch.setattr(sources, "MAX_FILES", 3)
    for i in range(5):
        (tmp_path / f"f{i}.rules").write_text(f'\ninclude "f{i + 1}.rules"\n' if i < 4 else "dice d6\n")
    found = [d for d in lint_path(tmp_path / "f0.rules") if d.code == "E004"]
    assert [(d.span.path.endswith("f2.rules"), d.span.line, d.span.column) for d in found] == [(True, 2, 9)]
    assert "more than 3 files" in found[0].message


def test_the_files_of_one_rulebook_are_bounded_in_bytes(tmp_path, monkeypatch):
    monkeypatch.setattr(sources, "MAX_TOTAL_BYTES", 100)
    (tmp_path / "a.rules").write_text('\ninclude "b.rules"\n')
    (tmp_path / "b.rules").write_text("# " + "x" * 100 + "\ndice d6\n")
    (found,) = [d for d in lint_path(tmp_path / "a.rules") if d.code == "E004"]
    assert (found.span.line, found.span.column) == (2, 9) and "more than 100 bytes together" in found.message


def test_a_file_over_the_size_limit_is_an_e004(tmp_path, monkeypatch):
    monkeypatch.setattr(sources, "MAX_FILE_BYTES", 10)
    found = lint_text(tmp_path, "dice d6\n# a comment\n")
    assert [f[0] for f in found] == ["E004"] and "larger than" in found[0][3]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_is_refused_not_waited_on(tmp_path):
    os.mkfifo(tmp_path / "pipe.rules")
    assert lint_text(tmp_path, '\ninclude "pipe.rules"\n') == [
        ("E004", 2, 9, f"cannot read {os.path.relpath(tmp_path / 'pipe.rules')!r}: it is a FIFO, not a regular file")]
    (direct,) = lint_path(tmp_path / "pipe.rules")
    assert direct.code == "E004" and "FIFO" in direct.message


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_among_the_rulebooks_searched_by_name_is_skipped(tmp_path, monkeypatch):
    """``extends "NAME"`` reads each searched rulebook's header for its aliases."""
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    os.mkfifo(shelf / "pipe.rules")
    monkeypatch.setenv("WARBOOK_PATH", str(shelf))
    found = lint_text(tmp_path, '\nextends "no_such_game"\n')
    assert [f[:3] for f in found] == [("E004", 2, 9)] and "no shipped rulebook" in found[0][3]


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_device_is_refused_not_read_forever():
    (found,) = lint_path("/dev/zero")
    assert found.code == "E004" and found.message.endswith("it is a device, not a regular file")


def test_a_folder_is_refused(tmp_path):
    (tmp_path / "sub.rules").mkdir()
    assert [f[:3] for f in lint_text(tmp_path, '\ninclude "sub.rules"\n')] == [("E004", 2, 9)]


def test_read_source_translates_newlines_as_read_text_does(tmp_path):
    path = tmp_path / "a.rules"
    path.write_bytes(b"a\r\nb\rc\n")
    assert sources.read_source(path) == path.read_text(encoding="utf-8") == "a\nb\nc\n"
    assert not sources.is_file(Path("a" * 300)) and not sources.exists(Path("a\0b"))


# --- item 10: parser memory ----------------------------------------------------------------

@pytest.mark.parametrize("text", ["\n" * 200_000, 'title "' + "a" * 200_000 + '"\n', "title " + "a:" * 100_000 + "a\n",
                                  "\n".join(["# comment"] * 20_000) + "\n"],
                         ids=["newlines", "string", "atom", "comments"])
def test_the_parser_takes_memory_in_proportion_to_the_text(text):
    """The newline, string and atom terminals once repeated a capture group: Python's regex
    engine kept each repetition, 550 bytes a newline (1.1 GB for 2 MB of newlines)."""
    parse_text("x\n")
    tracemalloc.start()
    try:
        parse_text(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 40 * len(text)


def test_the_terminals_still_read_what_they_did():
    parsed = parse_text('\n  # c\n\ntitle "a \\" b" x:y:z\n  \n# d\nnext "" a:\n')
    assert [[w.text for w in st.words] for st in parsed.statements] == [["title", 'a " b', "x:y:z"], ["next", "", "a"]]
    assert parsed.statements[1].cells == ()


# --- item 11: characters that look like line breaks ----------------------------------------

SEPARATORS = ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e"]


@pytest.mark.parametrize("char", SEPARATORS, ids=lambda c: f"U+{ord(c):04X}")
def test_a_false_line_break_is_an_e002_where_it_stands(tmp_path, char):
    """After a '#' it made the rest of the rulebook a comment that linted clean."""
    found = lint_text(tmp_path, "\n# a comment" + char + "terain clear\n")
    assert [f[:3] for f in found] == [("E002", 2, 12)]
    assert f"U+{ord(char):04X}" in found[0][3]


def test_a_lone_carriage_return_is_refused_by_the_parser():
    with pytest.raises(RulesError) as caught:
        parse_text("\n# a\rterrain clear\n")
    assert [(d.code, d.span.line, d.span.column) for d in caught.value.diagnostics] == [("E002", 2, 4)]
    assert parse_text("dice d6\r\nside a\r\n").statements[1].words[0].text == "side"


def test_every_false_break_is_reported_up_to_the_limit():
    with pytest.raises(RulesError) as caught:
        parse_text("a\u2028b\n" * 50)
    assert len(caught.value.diagnostics) == 10
    assert [d.span.line for d in caught.value.diagnostics] == list(range(1, 11))
