"""``warbook play`` and ``warbook replay`` end to end on the tiny generic game."""

import io
import json
from pathlib import Path

import pytest

from driving import run_cli as run

from warbook.interpreter.cli import main

MINI = str((Path(__file__).parent / "fixtures" / "mini" / "mini.toml").resolve())
RESULT = "Result: Victory for blue (margin 4; blue 4, red 0)"


def test_play_prints_the_narrative_and_result_and_replay_narrates_it_identically(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    code, played, err = run(capsys, "play", MINI, "--seed", "3", "--log", str(log))
    assert code == 0 and err == ""
    assert played.startswith("Mini, seed 3\n") and played.rstrip("\n").endswith(RESULT)
    assert "Turn 1 — Orders (blue)" in played
    code, replayed, err = run(capsys, "replay", str(log))
    assert code == 0 and err == "" and replayed == played


def test_play_is_byte_identical_for_the_same_seed_and_agents(capsys):
    for agents in ("random,random", "greedy,random", "greedy,greedy"):
        first = run(capsys, "play", MINI, "--seed", "11", "--agents", agents)
        assert first[0] == 0 and run(capsys, "play", MINI, "--seed", "11", "--agents", agents) == first


def test_quiet_prints_only_the_result(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    assert run(capsys, "play", MINI, "--quiet", "--log", str(log)) == (0, RESULT + "\n", "")
    assert run(capsys, "replay", str(log), "--quiet") == (0, RESULT + "\n", "")


def test_scripted_agents_replay_a_log_through_the_command_line(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    _, played, _ = run(capsys, "play", MINI, "--seed", "8", "--agents", "greedy,random", "--log", str(log))
    again = run(capsys, "play", MINI, "--seed", "8", "--agents", f"script:{log},script:{log}")
    assert again == (0, played, "")


@pytest.mark.parametrize("argv, message", [
    (["--agents", "random,wizard"], "unknown agent 'wizard'"),
    (["--agents", "random"], "--agents names 1 agent but the scenario has 2 sides (blue, red)"),
    (["--agents", "script:,random"], "'script:' needs a file"),
    (["--seed", "x"], "the seed must be a whole number, not 'x'"),
    (["--log", "/no/such/folder/game.jsonl"], "no folder '/no/such/folder'"),
    (["--colour", "red"], "unrecognized arguments: --colour"),
    (["--option", "night=maybe"], "argument --option: option 'night' must be on or off, not 'maybe'"),
    (["--option", "=on"], "argument --option: an option needs a name"),
])
def test_bad_arguments_exit_2_with_a_message(capsys, argv, message):
    code, _, err = run(capsys, "play", MINI, *argv)
    assert code == 2 and message in err and "Traceback" not in err


def test_missing_files_are_one_line_diagnostics(capsys, tmp_path):
    code, out, err = run(capsys, "play", str(tmp_path / "nope.toml"))
    assert code == 1 and out == "" and err == f"{tmp_path / 'nope.toml'}:1:1: E004 no such scenario file " \
                                              f"'{tmp_path / 'nope.toml'}'\n"
    code, _, err = run(capsys, "play", MINI, "--agents", f"script:{tmp_path / 'x.txt'},random")
    assert code == 1 and "E811 cannot read script" in err
    code, _, err = run(capsys, "replay", str(tmp_path / "nope.jsonl"))
    assert code == 1 and "E803 cannot read log" in err
    assert run(capsys, "replay")[0] == 2


def tamper(path: Path, number: int, change) -> None:
    lines = path.read_text().splitlines()
    entry = json.loads(lines[number - 1])
    change(entry)
    lines[number - 1] = json.dumps(entry)
    path.write_text("\n".join(lines) + "\n")


def test_a_tampered_log_exits_1_with_a_positioned_diagnostic(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    run(capsys, "play", MINI, "--seed", "3", "--log", str(log))
    number = next(n for n, line in enumerate(log.read_text().splitlines(), start=1) if '"decision"' in line)
    tamper(log, number, lambda e: e.update(choice="place R9 0101"))
    code, out, err = run(capsys, "replay", str(log))
    assert code == 1 and out == "" and err.startswith(f"{log}:{number}:1: E803 line {number}: illegal action")
    tamper(log, 1, lambda e: e.pop("seed"))
    code, _, err = run(capsys, "replay", str(log))
    assert code == 1 and err == f"{log}:1:1: E803 the header needs 'scenario' (a shipped name, an embedded file or a path) and 'seed' (a whole number)\n"
    log.write_text("[1, 2]\n")
    code, _, err = run(capsys, "replay", str(log))
    assert code == 1 and "E803 line 1: not a log entry" in err


def test_a_person_plays_through_the_terminal(capsys, monkeypatch):
    # Blue's decisions in the mini game: watch orders for B1 each turn.  Turn 1: garbage, then
    # "1" (declare B1 watch).  Turn 2: "d" is ambiguous (declare, done), then "do" means done.
    monkeypatch.setattr("sys.stdin", io.StringIO("garbage\n1\nd\ndo\n"))
    code, out, err = run(capsys, "play", MINI, "--seed", "3", "--agents", "human,random")
    assert code == 0 and err == ""
    assert "illegal action 'garbage' for blue (declare watch)" in out
    assert "'d' matches 2 actions" in out
    assert "  B1 Trooper goes on Watch" in out and out.rstrip("\n").endswith(RESULT)
    # Narrated to blue, red's face-down counters stay anonymous, even in red's own set-up lines.
    assert "Guerrilla" not in out and "Decoy" not in out


def test_end_of_input_abandons_the_game_cleanly_and_keeps_the_log(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    log = tmp_path / "game.jsonl"
    code, out, err = run(capsys, "play", MINI, "--seed", "3", "--agents", "human,random", "--log", str(log))
    assert code == 1 and "input ended while blue was to choose" in err and "Traceback" not in err
    code, out, _ = run(capsys, "replay", str(log))
    assert code == 0 and out.rstrip("\n").endswith("Result: the game is not over")


SHIPPED = sorted((Path(__file__).resolve().parents[2] / "scenarios").glob("*.toml"))


@pytest.mark.parametrize("scenario", SHIPPED, ids=lambda p: p.stem)
def test_shipped_scenarios_play_and_replay_identically(capsys, tmp_path, scenario):
    from warbook.dsl.diagnostics import RulesError
    from warbook.interpreter.game import Game

    try:
        Game.new(scenario, 0)
    except RulesError as exc:
        pytest.skip(f"{scenario.name} does not load yet: {exc}")
    log = tmp_path / "game.jsonl"
    code, played, err = run(capsys, "play", str(scenario), "--seed", "2", "--agents", "greedy,random", "--log", str(log))
    assert code == 0 and err == "" and played.splitlines()[-1].startswith("Result: ")
    assert run(capsys, "replay", str(log)) == (0, played, "")


def test_play_under_a_house_rule_and_replay_it(capsys, tmp_path):
    house = tmp_path / "house.rules"
    base = (Path(MINI).parent / "mini.rules").read_text(encoding="utf-8")
    house.write_text(base.replace("points 2", "points 5"), encoding="utf-8")
    log = tmp_path / "game.jsonl"
    code, out, err = run(capsys, "play", MINI, "--rules", str(house), "--quiet", "--log", str(log))
    # The trooper holds the town (0202) both turns and nothing moves it: 5 points a turn.
    assert (code, err) == (0, "") and "blue 10" in out
    assert run(capsys, "replay", str(log), "--quiet")[1] == out
    code, _, err = run(capsys, "play", MINI, "--rules", str(tmp_path / "missing.rules"))
    assert code == 1 and "E004" in err


GAME_WARDEN = str(Path(__file__).resolve().parents[2] / "scenarios" / "sea_lords_game_warden.toml")


def test_play_with_an_option_names_it_saves_it_and_replays_it(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    code, played, err = run(capsys, "play", GAME_WARDEN, "--seed", "1", "--option", "communist_cp",
                            "--option", "naval_zoc=off", "--log", str(log))
    assert code == 0 and err == ""
    assert played.splitlines()[0].endswith(", seed 1; optional rules: communist_cp")
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header["options"] == {"communist_cp": True, "naval_zoc": False}
    assert run(capsys, "replay", str(log)) == (0, played, "")


def test_an_unknown_option_exits_1_listing_the_rulebooks_options(capsys):
    code, out, err = run(capsys, "play", GAME_WARDEN, "--option", "bogus")
    assert (code, out) == (1, "") and "Traceback" not in err
    assert err == "<option>:1:1: E804 unknown option 'bogus'; the rulebook's options: communist_cp, naval_zoc\n"
    code, _, err = run(capsys, "play", GAME_WARDEN, "--option", "naval_zoc=maybe")
    assert code == 2 and "option 'naval_zoc' must be on or off, not 'maybe'" in err and "Traceback" not in err


def test_a_whole_game_warden_game_runs_every_phase_of_the_sequence_every_turn(capsys):
    """Issue 5's "done when", end to end: greedy against random through all 6 turns of Game Warden (24.1),
    narrated, and each turn runs the nine phases of the 6.2 outline, in order."""
    phases = ["I. First Player Random Events Phase", "II. Second Player Random Events Phase",
              "III. First Player Reinforcement & Refit Phase", "IV. Second Player Reinforcement & Refit Phase",
              "V. Mutual & Alternating Operations Phase", "VI. First Player Logistics Phase",
              "VII. Second Player Logistics Phase", "VIII. First Player Territorial Victory Point Phase",
              "IX. Second Player Territorial Victory Point Phase"]
    scenario = Path(__file__).resolve().parents[2] / "scenarios" / "sea_lords_game_warden.toml"
    assert main(["play", str(scenario), "--seed", "3", "--agents", "greedy,random"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for turn in range(1, 7):
        heads = [line.split(" — ", 1)[1].split(" (")[0] for line in lines
                 if line.startswith(f"Turn {turn} — ") and " Phase" in line and "Sub-Phase" not in line]
        assert heads == phases, turn
    assert not any(line.startswith("Turn 7 ") for line in lines)
    assert "Victory" in lines[-1] or "Draw" in lines[-1]


def test_a_rulebook_the_linter_rejects_is_never_played(capsys, tmp_path, monkeypatch):
    """One contract between lint and play: what ``warbook lint`` reports as an error stops
    ``warbook play`` before the first decision, with the same positioned diagnostic."""
    mini = Path(MINI).parent
    for name in ("mini.toml", "map.toml"):
        (tmp_path / name).write_text((mini / name).read_text())
    rules = (mini / "mini.rules").read_text().replace("        for each side in player order\n",
                                                      "        for each side in player order\n        side first\n")
    (tmp_path / "mini.rules").write_text(rules)
    line = rules.splitlines().index("        side first") + 1
    monkeypatch.chdir(tmp_path)  # paths print relative to the working folder
    message = f"mini.rules:{line}:9: E307 phase 'orders' says both 'for each side in player order' " \
              "and 'side first'"
    code, out, err = run(capsys, "lint", "mini.rules", "--select", "E")
    assert code == 1 and out.splitlines() == [message]
    code, out, err = run(capsys, "play", "mini.toml")
    assert code == 1 and out == "" and err.splitlines() == [message]
