"""Shipped games by name from any folder: ``warbook list``, names for lint, show and play, seats by side."""

import json
import tomllib
from pathlib import Path

import pytest
from driving import run_cli as run

import warbook
from warbook.interpreter.cli.play import seat_agents

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def elsewhere(tmp_path, monkeypatch):
    """Every command here runs in an empty folder, far from the checkout's files."""
    monkeypatch.chdir(tmp_path)


def test_list_names_every_shipped_rulebook_and_scenario_with_its_sides_in_order(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    assert "  sea_lords       Sea Lords on the Mekong Delta  aliases: sealords, sea-lords" in out
    assert "  several_klicks  Several Klicks in the Nam      aliases: klicks, several-klicks" in out
    # Firebase Night: player_order = ["vc_nva", "allies"], turns = 6 (scenarios/klicks_firebase_night.toml).
    line = next(line for line in out.splitlines() if line.startswith("  klicks_firebase_night "))
    assert "Night Attack on Firebase Kestrel" in line and "Several Klicks in the Nam" in line
    assert line.endswith("6 turns   vc_nva (VC/NVA) first, then allies (Allies)")


def test_list_as_json_agrees_with_the_scenario_files(capsys):
    code, out, _ = run(capsys, "list", "--json")
    listed = json.loads(out)
    assert code == 0 and [r["name"] for r in listed["rulebooks"]] == ["sea_lords", "several_klicks"]
    files = sorted((ROOT / "scenarios").glob("*.toml"))
    assert [s["name"] for s in listed["scenarios"]] == [f.stem for f in files]
    for entry, path in zip(listed["scenarios"], files):
        head = tomllib.loads(path.read_text(encoding="utf-8"))["scenario"]
        assert [side["name"] for side in entry["sides"]] == head["player_order"]
        assert entry["first"] == head["player_order"][0] and entry["turns"] == head["turns"]


def test_lint_and_show_take_a_shipped_rulebook_by_name_or_alias(capsys):
    code, _, err = run(capsys, "lint", "sea_lords", "klicks")
    assert code == 0 and err.startswith("2 files checked: 0 errors, 0 warnings")
    code, out, _ = run(capsys, "show", "several_klicks", "crt")
    assert code == 0 and out.startswith('table crt "Combat Results Table"')


def test_play_takes_a_shipped_scenario_by_name(capsys):
    code, out, err = run(capsys, "play", "klicks_village_sweep", "--seed", "1", "--quiet")
    assert code == 0 and err == "" and out.startswith("Result: ")


def test_an_unknown_scenario_name_lists_the_shipped_ones(capsys):
    code, out, err = run(capsys, "play", "no_such_game")
    assert code == 1 and out == ""
    assert err == "no_such_game:1:1: E004 no scenario file or shipped scenario 'no_such_game'\n"


def test_a_side_is_seated_by_name(capsys, monkeypatch):
    # Firebase Night sets up allies first (setup_order); the human seated there is asked first.
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, _, err = run(capsys, "play", "klicks_firebase_night", "--side", "allies=human")
    assert code == 1 and "input ended while allies was to choose" in err


def test_seats_come_from_agents_in_player_order_then_sides_by_name():
    sides = ("vc_nva", "allies")
    assert seat_agents(sides, [], []) == {"vc_nva": "random", "allies": "random"}
    assert seat_agents(sides, ["greedy", "random"], [("allies", "human")]) == {"vc_nva": "greedy", "allies": "human"}
    assert seat_agents(sides, [], [("allies", "human"), ("vc_nva", "greedy")]) == {"vc_nva": "greedy", "allies": "human"}
    assert seat_agents(sides, ["human"], []).startswith("--agents names 1 agent but the scenario has 2 sides")


@pytest.mark.parametrize("argv, message", [
    (["--side", "alies=human"], "--side alies=human: the scenario has no side 'alies'; its sides: vc_nva, allies "
                                "(did you mean 'allies'?)"),
    (["--side", "allies"], "a seat is SIDE=AGENT (such as blue=human), not 'allies'"),
    (["--side", "allies=hum"], "unknown agent 'hum'"),
])
def test_a_bad_seat_is_a_usage_error(capsys, argv, message):
    code, _, err = run(capsys, "play", "klicks_firebase_night", *argv)
    assert code == 2 and message in err and "Traceback" not in err


def test_version(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out == f"warbook {warbook.__version__}\n"
