"""Saves that prove themselves (issue 17): every line of a log is checked against its replay, a bad
file is a positioned diagnostic and never a traceback or a hang, and a log kept as the game goes
leaves a game that is killed a log that replays to where it stopped.
"""

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from driving import played, run_cli as run

from warbook.dsl.diagnostics import RulesError
from warbook.interpreter.agents import RandomAgent, iter_play
from warbook.interpreter.game import Game
from warbook.interpreter.log_check import entry_line
from warbook.interpreter.rng import choice_rng
from warbook.interpreter.savefile import LogWriter

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "interpreter" / "fixtures" / "mini"
SWEEP = ROOT / "scenarios" / "klicks_village_sweep.toml"
HANG_GUARD = 120
"""Seconds after which a call that should return at once is taken to hang (not a timing assertion)."""


def refused(log: Path) -> tuple[int, int, str]:
    """(line, column, message) of the one E803 a log is refused with."""
    with pytest.raises(RulesError) as info:
        Game.load(log)
    (found,) = info.value.diagnostics
    assert found.code == "E803" and found.span.path == str(log)
    return found.span.line, found.span.column, found.message


def edit(log: Path, number: int, change) -> None:
    """Change the entry on line ``number`` and write it back as warbook writes lines."""
    lines = log.read_text(encoding="utf-8").splitlines()
    entry = json.loads(lines[number - 1])
    change(entry)
    lines[number - 1] = json.dumps(entry, sort_keys=True) if number == 1 else entry_line(entry)  # a header may
    # hold what UTF-8 cannot (a lone surrogate), escaped
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")


def number_of(log: Path, test) -> int:
    """The number of the first line whose entry passes ``test``."""
    lines = log.read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, start=1) if test(json.loads(line)))


@pytest.fixture
def own_game(tmp_path) -> Path:
    folder = tmp_path / "mine"
    shutil.copytree(MINI, folder)
    return folder / "mini.toml"


@pytest.fixture
def mini_log(own_game) -> Path:
    log = own_game.parent / "game.jsonl"
    played(own_game).save(log)
    return log


@pytest.fixture(scope="module")
def sweep_game() -> Game:
    return played(SWEEP, seed=5, steps=80)  # into turn 2, past the first rolls of the game


@pytest.fixture
def sweep_log(sweep_game, tmp_path) -> Path:
    log = tmp_path / "sweep.jsonl"
    sweep_game.save(log)
    return log


# --- item 12: the whole file against the replay ---------------------------------------------------

def test_a_forged_result_is_refused_at_its_line(mini_log):
    number = number_of(mini_log, lambda e: e.get("kind") == "result")
    edit(mini_log, number, lambda e: e["result"].update(winner="red"))
    assert refused(mini_log) == (number, 1, f"line {number}: result event: 'result.winner' is 'red' in the log but "
                                            "'blue' on replay")


def test_edited_event_text_is_refused(mini_log):
    number = number_of(mini_log, lambda e: e.get("type") == "event" and e.get("kind") == "order")
    edit(mini_log, number, lambda e: e.update(text="R3 (hidden) runs away"))
    line, _, message = refused(mini_log)
    assert line == number and message.startswith(f"line {number}: order event: 'text' is 'R3 (hidden) runs away'")


@pytest.mark.parametrize("key, value", [("side", "red"), ("kind", "move"), ("options", 99)])
def test_an_edited_decision_is_refused(mini_log, key, value):
    number = number_of(mini_log, lambda e: e.get("type") == "decision" and e.get("side") == "blue")
    edit(mini_log, number, lambda e: e.update({key: value}))
    line, _, message = refused(mini_log)
    shown = repr(value) if isinstance(value, str) else str(value)
    assert line == number and message.startswith(f"line {number}: blue's ") and f"'{key}' is {shown} in the log" in message


@pytest.mark.parametrize("key, value", [("n", 7), ("dice", "2d6"), ("value", 0), ("reason", "no reason")])
def test_an_edited_roll_is_refused(sweep_log, key, value):
    number = number_of(sweep_log, lambda e: e.get("type") == "roll")
    edit(sweep_log, number, lambda e: e.update({key: value}))
    line, _, message = refused(sweep_log)
    assert line == number and message.startswith(f"line {number}: roll ") and f"'{key}' is" in message


def test_an_unknown_log_version_is_refused(mini_log):
    edit(mini_log, 1, lambda head: head.update(warbook_log=3))
    assert refused(mini_log)[2].startswith("the log is of version 3, which this warbook does not read")
    edit(mini_log, 1, lambda head: head.update(warbook_log="2"))
    assert refused(mini_log)[2].startswith("the log is of version '2'")


def test_an_appended_entry_is_refused(sweep_log, mini_log):
    lines = mini_log.read_text(encoding="utf-8").splitlines()
    mini_log.write_text("\n".join([*lines, lines[-1]]) + "\n", encoding="utf-8")
    assert refused(mini_log) == (len(lines) + 1, 1, f"line {len(lines) + 1}: the game is over on replay, but the log "
                                                     "goes on with result event 'blue wins: Victory'")
    lines = sweep_log.read_text(encoding="utf-8").splitlines()
    roll = next(line for line in lines if '"type": "roll"' in line)
    sweep_log.write_text("\n".join([*lines, roll]) + "\n", encoding="utf-8")
    line, _, message = refused(sweep_log)
    assert line == len(lines) + 1 and "the replay waits here for" in message and "but the log has roll 0" in message


def test_a_removed_trailing_roll_or_decision_is_refused(sweep_log):
    lines = sweep_log.read_text(encoding="utf-8").splitlines()
    last_roll = max(n for n, line in enumerate(lines, start=1) if '"type": "roll"' in line)
    cut = sweep_log.with_name("cut.jsonl")
    cut.write_text("\n".join(lines[: last_roll - 1]) + "\n", encoding="utf-8")
    line, _, message = refused(cut)
    assert line == last_roll and message.startswith(f"line {last_roll}: the log ends at line {last_roll - 1}, but the "
                                                    "replay goes on with roll")
    without = [line for n, line in enumerate(lines, start=1) if n != last_roll]
    cut.write_text("\n".join(without) + "\n", encoding="utf-8")
    assert refused(cut)[0] == last_roll
    last_decision = max(n for n, line in enumerate(lines, start=1) if '"type": "decision"' in line)
    cut.write_text("\n".join(lines[: last_decision - 1] + lines[last_decision:]) + "\n", encoding="utf-8")
    assert refused(cut)[0] == last_decision


def test_windows_line_ends_are_named(mini_log):
    mini_log.write_bytes(mini_log.read_bytes().replace(b"\n", b"\r\n"))
    assert refused(mini_log) == (2, 1, "line 2: ends in a carriage return (the lines of a log end in a line feed "
                                       "alone)")


def test_a_line_spelt_otherwise_is_refused(mini_log):
    lines = mini_log.read_text(encoding="utf-8").splitlines()
    lines[3] = json.dumps(json.loads(lines[3]), separators=(",", ":"), sort_keys=True)
    mini_log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert "spelt otherwise than warbook writes it (same values)" in refused(mini_log)[2]


def flip_one_bit(data: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(data))
    return data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1:]


INFORMATION = {"warbook", "files_at"}
"""Header keys a replay does not check: the version of warbook that wrote it, where its files were."""


@pytest.mark.parametrize("which, flips", [("mini", 300), ("sweep", 120)])
def test_every_bit_flip_is_refused_or_changes_nothing_the_game_says(which, flips, request, tmp_path):
    """A bounded, seeded fuzz: flip one bit of a save; the replay either refuses the file with a
    diagnostic or accepts a file that says the same game (same entries, same header but for
    information it does not check)."""
    log = request.getfixturevalue(f"{which}_log")
    original = log.read_bytes()
    original_lines = original.decode("utf-8").split("\n")
    original_head = json.loads(original_lines[0])
    rng = random.Random(17)
    accepted = 0
    flipped_log = log.with_name("flipped.jsonl")
    for _ in range(flips):
        flipped = flip_one_bit(original, rng)
        flipped_log.write_bytes(flipped)
        try:
            game = Game.load(flipped_log)
        except RulesError as exc:
            assert exc.diagnostics
            continue
        accepted += 1
        text = flipped.decode("utf-8").split("\n")
        assert [entry_line(e) for e in game.log] == original_lines[1:-1] == text[1:-1], flipped
        head = json.loads(text[0])
        differs = {k for k in set(head) | set(original_head) if head.get(k) != original_head.get(k)}
        allowed = INFORMATION | ({"rulebook_hash"} if which == "sweep" else set())  # shipped rules: layout may change
        assert differs <= allowed, (differs, flipped)
    assert accepted < flips // 5


# --- items 5, 6 and 8: bad files are diagnostics, never tracebacks nor hangs ----------------------

def test_json_nested_too_deep_is_a_diagnostic(mini_log):
    lines = mini_log.read_text(encoding="utf-8").splitlines()
    mini_log.write_text("\n".join([lines[0], "[" * 100_000, *lines[1:]]) + "\n", encoding="utf-8")
    assert refused(mini_log) == (2, 1, "line 2: nested too deep to be a log entry")
    mini_log.write_text("[" * 100_000 + "\n", encoding="utf-8")
    assert refused(mini_log) == (1, 1, "line 1: nested too deep to be a log entry")


def test_numbers_past_the_digit_limit_are_a_diagnostic(mini_log):
    lines = mini_log.read_text(encoding="utf-8").splitlines()
    head = lines[0].replace('"seed": 3', '"seed": ' + "9" * 5000)
    mini_log.write_text("\n".join([head, *lines[1:]]) + "\n", encoding="utf-8")
    column = head.index("9" * 5000) + 1
    assert refused(mini_log) == (1, column, "line 1: a number too long to read")
    at = next(i for i, line in enumerate(lines) if '"turn": ' in line)
    lines[at] = re.sub(r'"turn": [0-9]+', '"turn": ' + "1" * 4400, lines[at])
    mini_log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert refused(mini_log) == (at + 1, lines[at].index("1" * 4400) + 1, f"line {at + 1}: a number too long to read")


def test_a_big_seed_within_the_limit_is_refused_by_the_replay(mini_log):
    edit(mini_log, 1, lambda head: head.update(seed=int("7" * 4000)))
    line, _, message = refused(mini_log)
    assert line >= 2 and message.startswith(f"line {line}: ")


@pytest.mark.parametrize("change, message", [
    (lambda h: h.update(files_at="a\0b"), "the header's 'files_at' must be a folder's path"),
    (lambda h: h.update(files_at="x" * 300), "the header's 'files_at' must be a folder's path"),
    (lambda h: h.update(files_at="/".join(["x"] * 3000)), "the header's 'files_at' must be a folder's path"),
    (lambda h: h["files"].update({"a\0.rules": "x"}), "the header's 'files' must map relative paths"),
    (lambda h: h["files"].update({"y" * 256: "x"}), "the header's 'files' must map relative paths"),
    (lambda h: h["files"].update({"\ud800.rules": "x"}), "the header's 'files' must map relative paths"),
    (lambda h: h.update(scenario={"file": "mini\0.toml"}), "the header needs 'scenario'"),
    (lambda h: h.update(scenario={"shipped": "../rulebooks/sea_lords"}), "the header needs 'scenario'"),
    (lambda h: h.update(scenario={"shipped": "klicks_village_sweep", "file": "mini.toml"}), "the header needs"),
    (lambda h: h.update(scenario="mini.toml"), "the header needs 'scenario'"),  # a path: version 1 only
    (lambda h: h.update(colour="red"), "the header has a key a version-2 log does not have: 'colour'"),
    (lambda h: h.pop("map_hash"), "the header has no 'map_hash'"),
    (lambda h: h.update(map_hash="x" * 16), "the header's 'map_hash' must be 16 hexadecimal digits"),
    (lambda h: h.update(options={"fog": 1}), "the header's 'options' must map option names to true or false"),
    (lambda h: h["files"].update({"extra.rules": "x"}), "the file 'extra.rules' the log carries is not the one"),
    (lambda h: h.update(declarations={}), "the header's 'declarations' is not what a save of the replayed game"),
])
def test_a_bad_header_is_a_diagnostic_at_line_1(mini_log, change, message):
    edit(mini_log, 1, change)
    line, column, said = refused(mini_log)
    assert (line, column) == (1, 1) and said.startswith(message)


def as_version_1(head: dict, scenario: str) -> None:
    """A header as version 1 wrote it: the scenario by its path, no files carried."""
    head.update(warbook_log=1, scenario=scenario)
    del head["files"], head["files_at"]


@pytest.mark.parametrize("path", ["mini\0.toml", "m" * 300 + ".toml", "/".join(["m"] * 3000)])
def test_a_version_1_header_naming_a_bad_path_is_a_diagnostic(mini_log, path):
    edit(mini_log, 1, lambda h: as_version_1(h, path))
    assert refused(mini_log)[:2] == (1, 1)


def returns_without_hanging(call):
    """``call()``'s outcome (a value, or the exception raised), failing if it has not returned within
    ``HANG_GUARD`` seconds (a guard against a hang, not a timing assertion)."""
    outcome = []

    def target():
        try:
            outcome.append(call())
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            outcome.append(exc)

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(HANG_GUARD)
    assert outcome, "the call hangs"
    return outcome[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_is_never_read(mini_log, own_game, tmp_path):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    found = returns_without_hanging(lambda: Game.load(fifo))
    assert isinstance(found, RulesError) and "is not a regular file" in found.diagnostics[0].message
    # A version-1 header naming a FIFO as its scenario.
    edit(mini_log, 1, lambda h: as_version_1(h, str(fifo)))
    found = returns_without_hanging(lambda: Game.load(mini_log))
    assert isinstance(found, RulesError) and "which is not a regular file" in found.diagnostics[0].message


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_where_the_files_were_is_passed_over_for_the_carried_copies(own_game):
    game = played(own_game)
    log = own_game.parent / "game.jsonl"
    game.save(log)
    rules = own_game.parent / "mini.rules"
    rules.unlink()
    os.mkfifo(rules)
    loaded = returns_without_hanging(lambda: Game.load(log))
    assert isinstance(loaded, Game) and loaded.log == game.log


# --- items 13 and 15: the log kept as the game goes -------------------------------------------------

def test_a_log_kept_as_the_game_goes_is_what_a_save_writes(tmp_path):
    kept, saved = tmp_path / "kept.jsonl", tmp_path / "saved.jsonl"
    game = Game.new(MINI / "mini.toml", 3)
    writer = LogWriter(game, kept)
    agents = {side: RandomAgent(choice_rng(3, side)) for side in game.ctx.rules.sides}
    lines_seen = []
    for _ in iter_play(game, agents):
        writer.sync()
        lines_seen.append(len(kept.read_bytes().split(b"\n")))
        loaded = Game.load(kept)  # at every step the file on disk replays to where the game is
        assert loaded.log == game.log
    writer.close()
    game.save(saved)
    assert kept.read_bytes() == saved.read_bytes() and lines_seen == sorted(lines_seen)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.jsonl", "saved.jsonl"]  # no stray temporary file


def test_replay_notes_where_an_unfinished_log_ends(tmp_path, capsys):
    log = tmp_path / "unfinished.jsonl"
    game = played(MINI / "mini.toml", steps=3)
    game.save(log)
    end = len(game.log) + 1
    code, out, err = run(capsys, "replay", str(log))
    assert code == 0 and out.rstrip("\n").endswith("Result: the game is not over")
    decision = game.decision
    assert err == (f"{log}:{end}:1: I806 the log ends at line {end} before the game ended; {decision.side} was to "
                   f"make a {decision.kind} decision\n")


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_game_killed_in_play_leaves_a_log_that_replays_to_where_it_stopped(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    command = [sys.executable, "-m", "warbook.interpreter.cli", "play", str(MINI / "mini.toml"), "--seed", "3",
               "--agents", "human,random", "--log", str(log)]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               cwd=tmp_path)
    try:
        process.stdin.write(b"1\n")  # blue's first choice; blue's next decision then waits for input
        process.stdin.flush()
        # Kill it once it waits for blue's second choice: the log then replays to a decision of
        # blue's (read it until it does; a line being written meanwhile does not replay yet).
        deadline = time.monotonic() + HANG_GUARD  # a guard against a hang, not a timing assertion
        while time.monotonic() < deadline:
            assert process.poll() is None, process.stderr.read().decode()  # it waits for blue, or it failed
            if log.exists() and '"side": "blue", "type": "decision"' in log.read_text(encoding="utf-8"):
                try:
                    waiting = Game.load(log)
                except RulesError:
                    waiting = None
                if waiting is not None and waiting.decision is not None and waiting.decision.side == "blue":
                    break
            time.sleep(0.05)
        process.send_signal(signal.SIGKILL)
        process.wait()
    finally:
        if process.poll() is None:
            process.kill()
    game = Game.load(log)
    assert not game.is_over() and game.choices and game.decision.side == "blue"
    code, _, err = run(capsys, "replay", str(log))
    end = len(game.log) + 1
    assert code == 0 and err.startswith(f"{log}:{end}:1: I806 the log ends at line {end} before the game ended")
    assert [p.name for p in tmp_path.iterdir()] == ["game.jsonl"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_log_is_never_written_over_what_is_not_a_regular_file(tmp_path, capsys):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code, out, err = run(capsys, "play", str(MINI / "mini.toml"), "--log", str(fifo))
    assert code == 2 and out == "" and "it is not a regular file" in err
    with pytest.raises(OSError, match="not a regular file"):
        Game.new(MINI / "mini.toml", 1).save(fifo)
    assert fifo.is_fifo() and sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_a_save_through_a_symbolic_link_keeps_the_link(tmp_path):
    real, link = tmp_path / "real.jsonl", tmp_path / "link.jsonl"
    real.write_text("old\n", encoding="utf-8")
    link.symlink_to(real)
    game = played(MINI / "mini.toml")
    game.save(link)
    assert link.is_symlink() and Game.load(link).log == game.log and Game.load(real).log == game.log


def test_a_torn_last_line_is_refused_at_its_line(mini_log):
    data = mini_log.read_bytes()
    mini_log.write_bytes(data[:-20])
    lines = data[:-20].split(b"\n")
    line, column, message = refused(mini_log)
    assert line == len(lines) and message.startswith(f"line {line}: not JSON")


def test_a_bad_carried_file_is_reported_at_the_header_naming_the_file(mini_log):
    edit(mini_log, 1, lambda h: h["files"].update({"mini.rules": h["files"]["mini.rules"] + "\nterrain {{{\n"}))
    with pytest.raises(RulesError) as info:
        Game.load(mini_log)
    found = info.value.diagnostics[0]
    assert (found.span.path, found.span.line) == (str(mini_log), 1)
    assert found.message.startswith("in the file 'mini.rules' the log carries, line ")
