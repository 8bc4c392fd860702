"""``warbook diff`` end to end: text and JSON output, exit codes, a house rule against its base,
bad input as diagnostics; and ``interpreter.divergence``: where two games of one seed part."""

import json
from pathlib import Path

import pytest

from driving import run_cli
from warbook.interpreter.agents import RandomAgent, ScriptedAgent
from warbook.interpreter.divergence import Divergence, compare_plays, first_divergence, iter_entries
from warbook.interpreter.game import Game
from warbook.interpreter.rng import choice_rng

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "interpreter" / "fixtures" / "mini"
HOUSE = "examples/house_rules/klicks_jungle_fighting.rules"


@pytest.fixture
def at_root(monkeypatch):
    """Run from the checkout, so that paths are shown as in docs/diff.md."""
    monkeypatch.chdir(ROOT)


def mini_copy(tmp_path, old: str = "", new: str = "") -> Path:
    """The mini game's rulebook, copied with one exact piece replaced."""
    text = (MINI / "mini.rules").read_text(encoding="utf-8")
    assert text.count(old) == 1 or not old
    path = tmp_path / "mini.rules"
    path.write_text(text.replace(old, new) if old else text, encoding="utf-8")
    return path


def test_a_house_rule_against_its_base_as_text(capsys, at_root):
    code, out, err = run_cli(capsys, "diff", HOUSE)
    assert code == 1
    assert out == (
        "--- rulebooks/several_klicks.rules\n"
        f"+++ {HOUSE}\n"
        'changed table crt "Combat Results Table"\n'
        "    cell 6 × 1:1: ½A → ½D½A\n"
        "    cell 6 × 4:1: D½A → D\n"
        'changed terrain jungle "Jungle"\n'
        "    cost 3 → cost 4\n"
        '    + note "House rule: the printed cost is 3."\n'
        'removed terrain mountain "Mountain"\n')
    assert err == "3 declarations differ: 2 changed, 1 removed\n"
    assert run_cli(capsys, "diff", "several_klicks", HOUSE) == (code, out, err)  # a shipped name works too


def test_json_has_the_documented_shape(capsys, at_root):
    code, out, _ = run_cli(capsys, "diff", HOUSE, "--json")
    shape = json.loads(out)
    assert code == 1 and set(shape) == {"old", "new", "equal", "declarations"}
    assert (shape["old"], shape["new"], shape["equal"]) == ("rulebooks/several_klicks.rules", HOUSE, False)
    assert [(d["status"], d["kind"], d["name"]) for d in shape["declarations"]] == [
        ("changed", "table", "crt"), ("changed", "terrain", "jungle"), ("removed", "terrain", "mountain")]
    assert shape["declarations"][2] == {"status": "removed", "kind": "terrain", "name": "mountain",
                                        "label": "Mountain", "parent": None, "changes": []}


def test_a_reformatted_copy_says_the_same_and_exits_0(capsys, tmp_path):
    text = (MINI / "mini.rules").read_text(encoding="utf-8")
    messy = tmp_path / "messy.rules"
    messy.write_text("\n\n" + text.replace("    ", "\t").replace(" {", "   {"), encoding="utf-8")
    assert run_cli(capsys, "diff", str(MINI / "mini.rules"), str(messy)) == (0, "", "the rulebooks say the same\n")
    code, out, _ = run_cli(capsys, "diff", str(MINI / "mini.rules"), str(messy), "--json")
    assert code == 0 and json.loads(out)["equal"] is True and json.loads(out)["declarations"] == []


@pytest.mark.parametrize(("argv", "message"), [
    (("no_such.rules", "several_klicks"), "E004 no such rules file 'no_such.rules'"),
    (("several_klicks",), "'several_klicks' extends no rulebook, so there is nothing to compare it with"),
    (("a", "b", "c"), "diff compares two rulebooks, not 3"),
    (("several_klicks", "several_klicks", "--seed", "3"), "--seed and --agents say how to play --scenario"),
    (("several_klicks", "several_klicks", "--scenario", "klicks_village_sweep", "--agents", "human,random"),
     "diff plays both games itself"),
    (("several_klicks", "several_klicks", "--scenario", "no_such_scenario"), "E004 no scenario file or shipped"),
])
def test_bad_input_is_a_diagnostic_and_exit_2(capsys, argv, message):
    code, out, err = run_cli(capsys, "diff", *argv)
    assert code == 2 and message in err and "Traceback" not in err and out == ""


def test_a_syntax_error_is_reported_where_it_is(capsys, tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text('side a "A" {\n    short a\n', encoding="utf-8")
    code, out, err = run_cli(capsys, "diff", str(MINI / "mini.rules"), str(bad))
    assert code == 2 and out == "" and ":1:12: E0" in err and "Traceback" not in err


def test_a_house_rule_whose_base_is_missing(capsys, tmp_path):
    house = tmp_path / "house.rules"
    house.write_text('extends "no_such_game"\n', encoding="utf-8")
    code, _, err = run_cli(capsys, "diff", str(house))
    assert code == 2 and "house.rules:1:9: E004 no shipped rulebook called 'no_such_game'" in err


def test_a_scenario_the_new_rules_do_not_fit_still_prints_the_diff(capsys, at_root):
    code, out, err = run_cli(capsys, "diff", HOUSE, "--scenario", "klicks_village_sweep")
    assert code == 2 and out.startswith("--- rulebooks/several_klicks.rules\n")
    assert "E704 the rulebook has no terrain 'mountain', which the map uses" in err


# --- the replay ---------------------------------------------------------------------------------


def test_a_label_changed_diverges_at_the_first_entry_that_names_it(capsys, tmp_path):
    """The mini set-up: the trooper is set up without a decision (entry 1), red places its first
    guerrilla (entry 2, a decision, its choice worded by counter id), whose set-up event is the
    first entry naming the type by its label (entry 3)."""
    renamed = mini_copy(tmp_path, 'unit guerrilla "Guerrilla"', 'unit guerrilla "Partisan"')
    code, out, err = run_cli(capsys, "diff", str(MINI / "mini.rules"), str(renamed), "--scenario",
                             str(MINI / "mini.toml"), "--seed", "5", "--json")
    found = json.loads(out)["replay"]
    assert code == 1 and found["identical"] is False and found["seed"] == 5
    assert found["agents"] == {"blue": "random", "red": "random"}
    divergence = found["divergence"]
    assert (divergence["entry"], divergence["decisions"], divergence["turn"], divergence["phase"]) == (3, 1, 0,
                                                                                                       "setup")
    old, new = divergence["old"]["text"], divergence["new"]["text"]
    assert old.startswith("R1 Guerrilla set up at ") and new == old.replace("Guerrilla", "Partisan")
    assert err == "1 declaration differs: 1 changed; the games diverge\n"


def test_a_score_changed_diverges_at_the_first_score(tmp_path):
    """Blue scores 3 instead of 2 for the town: every entry before the first scoring of it is the
    same, and the first that differs is that score (found in the old game's own log)."""
    more = mini_copy(tmp_path, "    points 2\n", "    points 3\n")
    games = [Game.new(rules, MINI / "mini.toml", 7) for rules in (MINI / "mini.rules", more)]
    agents = [{s: RandomAgent(choice_rng(7, f"random:{s}")) for s in g.scenario.player_order} for g in games]
    found = compare_plays(*games, *agents)
    old_log = list(iter_entries(Game.new(MINI / "mini.toml", 7),
                                {s: RandomAgent(choice_rng(7, f"random:{s}")) for s in ("blue", "red")}))
    first_score = next(i for i, e in enumerate(old_log) if e.get("kind") == "resource")
    assert found is not None and found.entry == first_score + 1 and found.old == old_log[first_score]
    assert (found.turn, found.phase) == (1, "scoring")
    assert found.old["text"] == "Blue: +2 vp, now 2 (Town held at the end of a turn: 1 held)"
    assert found.new["text"] == "Blue: +3 vp, now 3 (Town held at the end of a turn: 1 held)"


def test_the_same_rules_play_identically(capsys, tmp_path):
    copy = mini_copy(tmp_path)
    code, out, err = run_cli(capsys, "diff", str(MINI / "mini.rules"), str(copy), "--scenario",
                             str(MINI / "mini.toml"), "--agents", "greedy,random")
    assert code == 0 and err == "the rulebooks say the same; the games play identically\n"
    assert out == (f"replay {MINI / 'mini.toml'}, seed 0, agents blue greedy, red random:\n"
                   "    the two games play identically to the end\n")


def test_a_scripted_choice_the_rules_refuse_stops_that_game():
    game = Game.new(MINI / "mini.toml", 0)
    entries = list(iter_entries(game, {"red": ScriptedAgent(["nonsense"]), "blue": ScriptedAgent([])}))
    assert entries[-1]["type"] == "stopped" and "nonsense" in entries[-1]["text"]
    assert [e["type"] for e in entries[:-1]] == ["event"]  # the trooper's set-up, then red's first decision


def test_a_log_that_ends_early_diverges_where_it_ends():
    shared = [{"type": "event", "turn": 2, "phase": "p", "text": "x"}, {"type": "decision", "choice": "c"}]
    assert first_divergence(shared, shared + [{"type": "event", "text": "y"}]) == Divergence(
        3, 1, 2, "p", None, {"type": "event", "text": "y"})
    assert first_divergence(shared, list(shared)) is None


def test_the_examples_of_docs_diff_md_are_real_output(capsys, at_root):
    import re
    import shlex

    examples = re.findall(r"```console\n\$ warbook (.*?)\n(.*?)```", (ROOT / "docs" / "diff.md").read_text("utf-8"),
                          re.S)
    assert len(examples) == 3
    for command, shown in examples:
        code, out, _ = run_cli(capsys, *shlex.split(command))
        assert code == 1 and out == shown, command
