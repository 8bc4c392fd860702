"""Balance studies (``interpreter.study``, ``study_report``, ``statistics``, ``warbook sim``).

The games are the gallery's combat_model scenario (3 turns, two sides, a few combats a turn):
small enough that a study of a few seeds takes about a second.  Interval values are worked
out by hand from their formulas.
"""

import json
import math
from pathlib import Path

import pytest

from warbook.interpreter import study_games
from warbook.interpreter.agents import iter_play, automatic_agent
from warbook.interpreter.cli import main
from warbook.interpreter.game import Game
from warbook.interpreter.statistics import mean, paired_difference, wilson
from warbook.interpreter.study import GameRecord, StudyArm, iter_study, play_game, read_records, seed_ranges
from warbook.interpreter.study_report import compare, signed_margin, summarize

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = str(ROOT / "tests" / "gallery" / "combat_model" / "combat_model.toml")
SIDES = ("blue", "red")


# --- statistics -------------------------------------------------------------------------------------


def test_wilson_interval_by_hand():
    # 8 of 10, z = 1.96: centre (0.8 + 1.9208/10) / 1.38415 = 0.71674, half 1.96·√(0.016 + 0.00960)
    # / 1.38415 = 0.22657: 0.4902 to 0.9433.
    low, high = wilson(8, 10)
    assert math.isclose(low, 0.4902, abs_tol=1e-4) and math.isclose(high, 0.9433, abs_tol=1e-4)
    # 0 of 10: the interval starts at 0 and reaches z²/(n + z²) = 3.8415/13.8415 = 0.2775.
    low, high = wilson(0, 10)
    assert low == 0 and math.isclose(high, 0.2775, abs_tol=1e-4)


def test_paired_difference_by_hand():
    # Differences 1, 0, 0, 1: mean 0.5, sample sd √(1/3), half-width 1.96·√(1/3)/2 = 0.5658.
    found = paired_difference([1, 1, 0, 1], [0, 1, 0, 0])
    assert found.estimate == 0.5
    assert math.isclose(found.high - found.estimate, 0.5658, abs_tol=1e-4)
    assert mean([3, 3, 3]).low == mean([3, 3, 3]).high == 3


# --- records and reports ---------------------------------------------------------------------------


def record(seed, winner, margin=0, arm="study", totals=(), losses=()):
    return GameRecord(seed, arm, winner, "Victory" if winner else "Draw", margin, totals, 3, 10,
                      (("move", 6), ("fight", 4)), losses)


def test_the_first_sides_margin_is_read_from_the_totals_or_the_winner():
    assert signed_margin(record(0, "red", 3, totals=(("red", "5"), ("blue", "2"))), SIDES) == -3
    assert signed_margin(record(0, "blue", 2), SIDES) == 2
    assert signed_margin(record(0, None), SIDES) == 0


def test_a_summary_counts_wins_draws_and_errors_whatever_the_order():
    records = [record(2, "red", 1), record(0, "blue", 2), record(1, None),
               GameRecord(3, "study", None, None, 0, error="KeyError: 'x'")]
    summary = summarize(records, SIDES)
    assert summary == summarize(list(reversed(records)), SIDES)
    assert summary.games == 3 and summary.errors == ((3, "KeyError: 'x'"),)
    assert [(side, n) for side, n, _ in summary.wins] == [("blue", 1), ("red", 1)]
    assert summary.draws[0] == 1
    assert summary.margins == ((-1, 1), (0, 1), (2, 1))
    assert summary.margin.estimate == pytest.approx(1 / 3)
    assert [(phase, i.estimate) for phase, i in summary.phase_decisions] == [("move", 6), ("fight", 4)]


def test_an_ab_comparison_pairs_seeds_and_says_what_changed():
    # blue wins seeds 0-3 under the house rule, only seed 0 under the base: +75 points; seed 4 is
    # played by the house arm only, so it is left out.
    house = [record(s, "blue", 1, "house", losses=(("blue", 0), ("red", 2))) for s in range(5)]
    base = [record(0, "blue", 1, "base", losses=(("blue", 0), ("red", 2))),
            *(record(s, "red", 1, "base", losses=(("blue", 1), ("red", 2))) for s in range(1, 4))]
    found = compare(house, base, SIDES)
    assert found.paired == 4
    wins = dict(found.wins)
    assert wins["blue"].estimate == 0.75 and wins["red"].estimate == -0.75
    assert dict(found.losses)["blue"].estimate == -0.75 and dict(found.losses)["red"].estimate == 0
    assert any(v.startswith("the house rule raises blue's win rate by 75.0 points") for v in found.verdict)


def test_records_round_trip_through_json_lines_and_a_cut_line_is_skipped():
    original = record(7, "red", 2, totals=(("red", "3"), ("blue", "1")), losses=(("blue", 1), ("red", 0)))
    lines = [original.to_line(), original.to_line()[:20]]
    assert read_records(lines) == [original]


def test_seed_ranges_cover_every_seed_once():
    assert [s for r in seed_ranges(range(3, 20), 4) for s in r] == list(range(3, 20))


# --- playing -----------------------------------------------------------------------------------------


def test_a_study_game_is_the_game_play_plays_with_that_seed():
    arm = StudyArm("study", SCENARIO)
    found = play_game(arm, 5)
    game = Game.new(SCENARIO, 5)
    agents = {side: automatic_agent("random", side, game) for side in game.scenario.player_order}
    decisions = sum(1 for entry in iter_play(game, agents) if entry.get("type") == "decision")
    result = game.result()
    assert (found.winner, found.level, found.margin, found.decisions) == (
        result["winner"], result["level"], result["margin"], decisions)
    assert sum(n for _, n in found.phase_decisions) == decisions


def test_jobs_1_and_2_give_the_same_report(capsys):
    reports = []
    for jobs in ("1", "2"):
        assert main(["sim", SCENARIO, "--games", "6", "--seed", "10", "--jobs", jobs, "--json", "--quiet"]) == 0
        reports.append(json.loads(capsys.readouterr().out))
    assert reports[0] == reports[1]
    assert reports[0]["arms"][0]["games"] == 6


def test_an_interrupted_study_keeps_its_finished_games(tmp_path, monkeypatch, capsys):
    # The fourth game is interrupted (as Ctrl-C would): seeds 0-2 are in the file, each a whole
    # game with its result, and the report is of those three.
    played = study_games.play_game

    def play(arm, seed):
        if seed == 3:
            raise KeyboardInterrupt
        return played(arm, seed)

    monkeypatch.setattr(study_games, "play_game", play)  # where play_seeds finds it
    out = tmp_path / "games.jsonl"
    assert main(["sim", SCENARIO, "--games", "10", "--out", str(out), "--json", "--quiet"]) == 130
    report = json.loads(capsys.readouterr().out)
    records = read_records(out.read_text(encoding="utf-8").splitlines())
    assert [r.seed for r in records] == [0, 1, 2]
    assert all(r.level is not None and r.error is None for r in records)
    assert report["interrupted"] and report["arms"][0]["games"] == 3


def test_against_compares_two_rulebooks_on_the_same_seeds(capsys):
    rules = str(ROOT / "tests" / "gallery" / "combat_model" / "combat_model.rules")
    assert main(["sim", SCENARIO, "--games", "3", "--against", rules, "--json", "--quiet"]) == 0
    report = json.loads(capsys.readouterr().out)
    # The same rules on both arms: every paired difference is exactly 0.
    assert report["comparison"]["paired_games"] == 3
    assert all(v["estimate"] == v["low"] == v["high"] == 0 for v in report["comparison"]["wins"].values())


def test_a_plot_is_written(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    target = tmp_path / "study.svg"
    assert main(["sim", SCENARIO, "--games", "2", "--plot", str(target), "--quiet"]) == 0
    assert target.read_text(encoding="utf-8").lstrip().startswith("<?xml")
    assert "Wins and draws" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["--agents", "human,random"], "unknown agent 'human'"),
    (["--agents", "random"], "--agents names 1 agents but the scenario has 2 sides"),
    (["--plot", "study.txt"], "--plot writes .svg or .png"),
    (["--address", "ray://x:1"], "--address is for --backend ray"),
])
def test_bad_options_are_usage_errors(capsys, argv, message):
    assert main(["sim", SCENARIO, "--games", "1", "--quiet", *argv]) == 2
    assert message in capsys.readouterr().err


def test_the_ray_backend_gives_the_same_records():
    pytest.importorskip("ray", reason="the ray backend is an optional extra (pip install 'warbook[ray]')")
    from warbook.interpreter.study_ray import ray_runner

    arm = StudyArm("study", SCENARIO)
    local = sorted(iter_study([arm], range(4)), key=lambda r: r.seed)
    on_ray = sorted(iter_study([arm], range(4), jobs=1, runner=ray_runner()), key=lambda r: r.seed)
    assert on_ray == local
