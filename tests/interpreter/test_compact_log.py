"""Compact saves for long studies (issue 18): the decisions and the full log's digest; a replay
regenerates every roll and event and proves them the same as the game wrote."""

import json
from pathlib import Path

import pytest

import driving
from driving import run_cli as run

from warbook.dsl.diagnostics import RulesError
from warbook.interpreter.agents import RandomAgent, iter_play
from warbook.interpreter.game import Game
from warbook.interpreter.log_check import log_digest
from warbook.interpreter.rng import choice_rng
from warbook.interpreter.savefile import LogWriter

ROOT = Path(__file__).resolve().parents[2]
SWEEP = ROOT / "scenarios" / "klicks_village_sweep.toml"


def played(seed: int = 5, steps: int | None = None) -> Game:
    return driving.played(SWEEP, seed, steps)


def refused(log: Path) -> tuple[int, str]:
    with pytest.raises(RulesError) as info:
        Game.load(log)
    (found,) = info.value.diagnostics
    assert found.code == "E803"
    return found.span.line, found.message


def test_a_compact_save_holds_the_decisions_and_replays_to_the_full_log(tmp_path: Path) -> None:
    game = played()
    assert game.is_over()
    full, compact = tmp_path / "full.jsonl", tmp_path / "compact.jsonl"
    game.save(full)
    game.save(compact, compact=True)
    lines = [json.loads(line) for line in compact.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["compact"] is True
    assert lines[1:-1] == [{"choice": choice} for choice in game.choices]
    assert lines[-1] == {"type": "digest", "entries": len(game.log), "sha256": log_digest(game.log)}
    header = len(compact.read_text(encoding="utf-8").splitlines()[0])
    assert (compact.stat().st_size - header) * 5 < full.stat().st_size - header  # rolls and events: most of a log
    replayed = Game.load(compact)
    assert replayed.log == game.log and replayed.result() == game.result()


def test_a_compact_log_kept_as_the_game_goes_is_what_a_compact_save_writes(tmp_path: Path) -> None:
    game = Game.new(SWEEP, 7)
    kept = tmp_path / "kept.jsonl"
    writer = LogWriter(game, kept, compact=True)
    agents = {side: RandomAgent(choice_rng(7, side)) for side in game.ctx.rules.sides}
    for _ in iter_play(game, agents):
        writer.sync()
    writer.close()
    game.save(tmp_path / "saved.jsonl", compact=True)
    assert kept.read_bytes() == (tmp_path / "saved.jsonl").read_bytes()


def test_a_compact_log_cut_short_replays_to_its_last_decision(tmp_path: Path) -> None:
    game = played(steps=6)
    kept = tmp_path / "cut.jsonl"
    writer = LogWriter(game, kept, compact=True)
    writer.sync()  # killed here: never closed, so no digest line
    replayed = Game.load(kept)
    assert replayed.choices == game.choices and not replayed.is_over()
    assert replayed.log == game.log


def test_a_choice_not_offered_is_refused_at_its_line(tmp_path: Path) -> None:
    game = played()
    log = tmp_path / "compact.jsonl"
    game.save(log, compact=True)
    lines = log.read_text(encoding="utf-8").splitlines()
    lines[3] = json.dumps({"choice": "pass and pass again"})
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    line, message = refused(log)
    assert line == 4 and "pass and pass again" in message


def test_another_legal_choice_is_caught_by_the_digest(tmp_path: Path) -> None:
    """A choice swapped for another legal one replays, to another game: the digest says so."""
    game = played()
    log = tmp_path / "compact.jsonl"
    game.save(log, compact=True)
    lines = log.read_text(encoding="utf-8").splitlines()
    replay = Game.new(SWEEP, 5)
    for choice in game.choices[:2]:
        replay.apply(choice)
    other = next(str(a) for a in replay.legal_actions() if str(a) != game.choices[2])
    lines[3] = json.dumps({"choice": other})
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    line, message = refused(log)
    assert line in range(4, len(lines) + 1)


def test_a_digest_that_does_not_match_the_replay_is_refused_at_the_last_line(tmp_path: Path) -> None:
    game = played()
    log = tmp_path / "compact.jsonl"
    game.save(log, compact=True)
    lines = log.read_text(encoding="utf-8").splitlines()
    last = json.loads(lines[-1])
    last["sha256"] = "0" * 64
    lines[-1] = json.dumps(last)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    line, message = refused(log)
    assert line == len(lines) and "digest" in message


def test_a_digest_line_before_the_end_is_refused(tmp_path: Path) -> None:
    game = played()
    log = tmp_path / "compact.jsonl"
    game.save(log, compact=True)
    lines = log.read_text(encoding="utf-8").splitlines()
    lines.insert(2, lines[-1])
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    line, message = refused(log)
    assert line == 3 and "compact log holds one" in message


def test_replay_of_a_compact_log_narrates_the_whole_game(tmp_path: Path, capsys) -> None:
    full, compact = tmp_path / "full.jsonl", tmp_path / "compact.jsonl"
    assert run(capsys, "play", str(SWEEP), "--seed", "4", "--quiet", "--log", str(full))[0] == 0
    assert run(capsys, "play", str(SWEEP), "--seed", "4", "--quiet", "--log", str(compact), "--compact")[0] == 0
    from_full, from_compact = run(capsys, "replay", str(full)), run(capsys, "replay", str(compact))
    assert from_compact[0] == 0 and from_compact[1] == from_full[1] and len(from_full[1].splitlines()) > 50


def test_compact_without_a_log_is_a_usage_error(capsys) -> None:
    code, _, err = run(capsys, "play", str(SWEEP), "--compact")
    assert code == 2 and "--compact needs --log" in err


def test_an_unfinished_compact_log_is_noted_at_its_own_last_line(tmp_path: Path, capsys) -> None:
    game = played(steps=6)
    kept = tmp_path / "cut.jsonl"
    LogWriter(game, kept, compact=True).sync()
    code, _, err = run(capsys, "replay", str(kept))
    assert code == 0 and f"{kept}:7:1: I806 the log ends at line 7 before the game ended" in err
