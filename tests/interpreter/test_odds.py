"""Exact odds (``interpreter.odds``, ``warbook odds``) against hand-computed fractions, and against play.

The Several Klicks CRT (seed text, COMBAT PHASE; d6, one row per face, so each row is 1/6)::

    DIE ROLL  1:4  1:3   1:2   1:1   2:1   3:1   4:1
    1         ½A   ½D    ½D    ½D    D     D     D
    2         A    ½DA   ½D½A  ½D½A  D     D     D
    3         A    A     ½D½A  ½D½A  D½A   D     D
    4         A    A     ½A    ½D½A  D½A   D     D
    5         A    A     ½A    ½D½A  ½D½A  ½D½A  D
    6         A    A     ½A    ½A    ½D½A  ½D½A  D½A

Sea Lords' fire CRT (rulebooks/sea_lords.rules, table crt, 27.0) is looked up by the firing
total; its rows are read from the rulebook as encoded (most cells provisional there).
"""

import json
from fractions import Fraction as F
from pathlib import Path

import pytest

from warbook.dsl.loader import load_rulebook
from warbook.dsl.rulebook_paths import find_rulebook
from warbook.interpreter import results, rng
from warbook.interpreter.cli import main
from warbook.interpreter.context import Context
from warbook.interpreter.odds import OddsError, attack_odds, table_odds
from warbook.interpreter.rules import Rules
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.state import GameState, Unit

COMBAT = Path(__file__).parent / "fixtures" / "combat" / "combat.toml"


@pytest.fixture(scope="module")
def scenario():
    return load_scenario(COMBAT)


@pytest.fixture(scope="module")
def klicks(scenario):
    return scenario.rules


@pytest.fixture(scope="module")
def sea_lords():
    return Rules(load_rulebook(find_rulebook("sea_lords")))


def results_of(odds):
    return dict(odds.outcome.results)


# --- Several Klicks: odds, rounding for the defender, terrain, shifts, modifiers ---------------------


@pytest.mark.parametrize("attack, defence, column, expected", [
    # 7 to 3 is 2.33:1, rounded for the defender to 2:1: D on 1-2, D½A on 3-4, ½D½A on 5-6.
    (7, 3, "2:1", {"D": F(1, 3), "D½A": F(1, 3), "½D½A": F(1, 3)}),
    # 3 to 7 is 1:2.33, rounded for the defender to 1:3: ½D on 1, ½DA on 2, A on 3-6.
    (3, 7, "1:3", {"½D": F(1, 6), "½DA": F(1, 6), "A": F(2, 3)}),
    # 4 to 4 is 1:1: ½D on 1, ½D½A on 2-5, ½A on 6.
    (4, 4, "1:1", {"½D": F(1, 6), "½D½A": F(2, 3), "½A": F(1, 6)}),
    # 9 to 2 is 4.5:1, past the last column: 4:1, D on 1-5 and D½A on 6.
    (9, 2, "4:1", {"D": F(5, 6), "D½A": F(1, 6)}),
])
def test_several_klicks_columns_match_the_printed_crt(klicks, attack, defence, column, expected):
    odds = attack_odds(klicks, "assault", F(attack), F(defence))
    assert odds.column == column
    assert results_of(odds) == expected
    assert sum(expected.values()) == 1


def test_jungle_triples_the_defence_but_not_a_mech_defenders(klicks):
    # Jungle "defence x3" (TERRAIN TABLE): 6 against 1 in jungle is 6:3, 2:1.
    assert attack_odds(klicks, "assault", F(6), F(1), terrain="jungle").column == "2:1"
    # "x1 for mech": 6 against a mech's 1 stays 6:1, past 4:1.
    mech = attack_odds(klicks, "assault", F(6), F(1), terrain="jungle", defender="us_mech")
    assert (mech.defence, mech.column, mech.edge) == (1, "4:1", "above")


def test_a_shift_and_a_roll_modifier_move_the_column_and_the_rows(klicks):
    # 7 to 3 is 2:1; one column left is 1:1; -1 makes rolls 1-6 read rows 0-5, and 0 reads row 1
    # (`rolls outside use nearest row`): ½D on rolls 1-2, ½D½A on 3-6.
    odds = attack_odds(klicks, "assault", F(7), F(3), shifts=[(-1, "test")], roll_modifier=-1)
    assert (odds.base, odds.column) == ("2:1", "1:1")
    assert results_of(odds) == {"½D": F(1, 3), "½D½A": F(2, 3)}
    assert [line.row for line in odds.outcome.rolls] == ["1", "1", "2", "3", "4", "5"]
    assert odds.outcome.rolls[0].past and not odds.outcome.rolls[1].past


def test_the_motivation_shift_is_named_not_guessed(klicks):
    assert attack_odds(klicks, "assault", F(7), F(3)).conditional == (
        "column shift by motivation difference toward higher",)


def test_expected_worth_weighs_each_result(klicks):
    # 2:1: D (+2), D½A (+1), ½D½A (0), a third each: 1.
    assert attack_odds(klicks, "assault", F(7), F(3)).worth == 1


def test_the_whole_table_is_each_columns_results(klicks):
    table = table_odds(klicks, "assault")
    assert [c.column for c in table.columns] == ["1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1"]
    by_column = {c.column: dict(c.results) for c in table.columns}
    assert by_column["1:4"] == {"½A": F(1, 6), "A": F(5, 6)}
    assert by_column["1:2"] == {"½D": F(1, 6), "½D½A": F(1, 3), "½A": F(1, 2)}
    assert by_column["3:1"] == {"D": F(2, 3), "½D½A": F(1, 3)}
    assert all(sum(c.values()) == 1 for c in by_column.values())


def test_unknown_names_are_refused_with_what_there_is(klicks):
    with pytest.raises(OddsError, match="no combat 'asault'") as found:
        attack_odds(klicks, "asault", F(1), F(1))
    assert "assault" in found.value.hint
    with pytest.raises(OddsError, match="no terrain 'swamp'"):
        attack_odds(klicks, "assault", F(1), F(1), terrain="swamp")


# --- Sea Lords: the fire CRT by totals ---------------------------------------------------------------


@pytest.mark.parametrize("total, shifts, column, expected", [
    # Total 2, column 2: Z, A, NE, NE, R, R.
    (2, [], "2", {"Z": F(1, 6), "A": F(1, 6), "NE": F(1, 3), "R": F(1, 3)}),
    # Total 5 is in 4-5: Z, A?, NE?, R?, K?, K?.
    (5, [], "4-5", {"Z": F(1, 6), "A": F(1, 6), "NE": F(1, 6), "R": F(1, 6), "K": F(1, 3)}),
    # Total 30 is past 27+: R+Z, K+B+A, K+R, 2K, 2K, 2K.
    (30, [], "27+", {"R+Z": F(1, 6), "K+B+A": F(1, 6), "K+R": F(1, 6), "2K": F(1, 2)}),
    # Total 1 shifted 1L reaches the `shifted only` <1* column: Z, A, A, NE, NE, R.
    (1, [(-1, "bunker")], "<1*", {"Z": F(1, 6), "A": F(1, 3), "NE": F(1, 3), "R": F(1, 6)}),
])
def test_sea_lords_fire_columns_by_total(sea_lords, total, shifts, column, expected):
    odds = attack_odds(sea_lords, "fire_combat", F(total), shifts=shifts)
    assert odds.column == column
    assert results_of(odds) == expected
    assert not odds.by_odds


def test_a_terrain_shift_of_the_fire_table_applies(sea_lords):
    # 27.0's Terrain Effects: a town shifts fire at the defender one column left; 8-9 becomes 6-7.
    town = attack_odds(sea_lords, "fire_combat", F(8), terrain="town")
    assert (town.base, town.column) == ("8-9", "6-7")


# --- play agrees ------------------------------------------------------------------------------------
# Three NVA (attack 3, motivation 3) at 0304 attack a US Infantry (defend 4, motivation 2) at 0303,
# clear terrain: 9 to 4 is 2.25:1, 2:1, and the motivation difference of 1 shifts one column right:
# 3:1.  Each scripted roll must give, in play, the result the odds give for that roll.


@pytest.mark.parametrize("roll", range(1, 7))
def test_a_fight_in_play_lands_on_the_result_the_odds_give_for_its_roll(scenario, klicks, monkeypatch, roll):
    odds = attack_odds(klicks, "assault", F(9), F(4), shifts=[(1, "motivation 3 against 2")])
    assert odds.column == "3:1"
    expected = {line.roll: line.result for line in odds.outcome.rolls}[roll]
    ctx = Context(scenario, seed=0)
    attackers = [Unit(i, "nva", "vc_nva", "0304") for i in ("V1", "V2", "V3")]
    ctx.state = GameState(turn=1, phase="combat_phase", units=tuple(sorted([*attackers,
                                                                             Unit("A1", "us_infantry", "allies", "0303")])))
    script = [roll]
    monkeypatch.setattr(rng, "roll", lambda seed, n, faces, count=1: script.pop(0))
    flow = results.resolve(ctx, "assault", attackers, [ctx.state.unit("A1")], reason="test", attacker_side="vc_nva")
    try:
        decision = next(flow)
        while True:
            decision = flow.send(decision.options[0])
    except StopIteration as stop:
        outcome = stop.value
    assert (outcome.column, outcome.roll, outcome.result) == ("3:1", roll, expected)


# --- the command ------------------------------------------------------------------------------------


def test_the_command_prints_fractions_as_json(capsys):
    assert main(["odds", "several_klicks", "assault", "--attack", "7", "--defence", "3", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["column"] == "2:1"
    assert {r["result"]: r["chance"] for r in found["results"]} == {"D": "1/3", "D½A": "1/3", "½D½A": "1/3"}
    assert {r["result"]: r["rolls"] for r in found["results"]}["D"] == [1, 2]


def test_the_command_prints_the_whole_table(capsys):
    assert main(["odds", "several_klicks", "assault", "--table", "--drm", "-1"]) == 0
    out = capsys.readouterr().out
    assert "roll modifier -1" in out
    # 1:4 with -1: rolls 1 and 2 read row 1 (½A), 3-6 read rows 2-5 (A).
    row = next(line for line in out.splitlines() if line.startswith("│ ½A "))
    assert row.split("│")[2].strip() == "1/3"


@pytest.mark.parametrize("argv, message", [
    (["odds", "several_klicks", "asault", "--attack", "1", "--defence", "1"], "no combat 'asault'"),
    (["odds", "several_klicks", "assault", "--attack", "7"], "--defence is needed"),
    (["odds", "several_klicks", "assault", "--defence", "7"], "--attack is needed"),
    (["odds", "several_klicks", "assault", "--table", "--attack", "7"], "takes no --attack"),
])
def test_the_command_refuses_a_bad_question_with_exit_2(capsys, argv, message):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_a_bad_shift_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["odds", "several_klicks", "assault", "--attack", "1", "--defence", "1", "--shift", "left"])
    assert stop.value.code == 2
    assert "a shift is a number of columns" in capsys.readouterr().err
