"""``warbook odds`` with the newer combat forms (issue 13): for each, the odds give the column and,
roll by roll, the result that play gives for the same attack (the totals added up as the form's
reference says), or refuse the question; played in the gallery games (tests/gallery/).

Each position's totals are worked out by hand in its test."""

import json
from fractions import Fraction
from pathlib import Path

import pytest

from driving import do_call, run_cli
from gallery import at_position, fixed_roll, scenario_fixture
from warbook.interpreter.actions import Action
from warbook.interpreter.odds import OddsError, attack_odds
from warbook.interpreter.procedures import PROCEDURES
from warbook.interpreter.state import Unit

GALLERY = Path(__file__).parents[1] / "gallery"
range_fire = scenario_fixture(GALLERY / "range_fire" / "range_fire.toml")
several = scenario_fixture(GALLERY / "several_hexes" / "several_hexes.toml")
hexsides = scenario_fixture(GALLERY / "hexsides" / "hexsides.toml")
terrains = scenario_fixture(GALLERY / "terrains" / "terrains.toml")
turns = scenario_fixture(GALLERY / "turns" / "turns.toml")
steps = scenario_fixture(GALLERY / "steps" / "steps.toml")
ROLLS = range(1, 7)


def play(scenario, combat: str, units, attack: str, roll: int, monkeypatch, **state) -> tuple[str, str, str, str]:
    """(attack, defence, column, result) of the first roll of ``attack`` in ``do fight COMBAT``,
    every die showing ``roll``; later decisions answered ``done`` (or their first option)."""
    fixed_roll(monkeypatch, roll)
    ctx = at_position(scenario, "combat", *units, **state)
    flow = PROCEDURES["fight"](ctx, do_call(ctx.rules, "fight", combat))
    answer = Action.parse(attack)
    try:
        decision = next(flow)
        assert answer in decision.options, [str(o) for o in decision.options]
        while True:
            decision = flow.send(answer)
            answer = Action("done") if Action("done") in decision.options else decision.options[0]
    except StopIteration:
        pass
    (column,) = [e for e in ctx.events if e.get("column")][:1]
    (rolled,) = [e for e in ctx.events if e.get("result")][:1]
    return column["attack"], column["defence"], column["column"], rolled["result"]


def by_roll(odds) -> dict[int, str]:
    return {line.roll: line.result for line in odds.outcome.rolls}


@pytest.mark.parametrize("roll", ROLLS)
def test_supporting_fire_is_added_into_the_attack(range_fire, monkeypatch, roll):
    # Infantry B1 (1) with guns G1 and G2 (3 each) from range against rifles R1 (2): 7 against 2.
    units = (Unit("R1", "rifles", "red", "0302"), Unit("B1", "infantry", "blue", "0303"),
             Unit("G1", "guns", "blue", "0101"), Unit("G2", "guns", "blue", "0203"))
    played = play(range_fire, "assault", units, "attack 0302 with B1 G1 G2", roll, monkeypatch)
    odds = attack_odds(range_fire.rules, "assault", Fraction(7), Fraction(2))
    assert played == ("7", "2", odds.column, by_roll(odds)[roll]) and odds.column == "3:1"


@pytest.mark.parametrize("roll", ROLLS)
def test_an_attack_on_two_hexes_with_the_best_hex_for_the_defender(several, monkeypatch, roll):
    # Infantry B1 (0202, attack 3) on the rifles at 0302 (the hill, 1L) and 0303 (clear), defence
    # 1 each: ``skirmish`` shifts by terrain, the hill's 1L being best for the defender.
    units = (Unit("B1", "infantry", "blue", "0202"), Unit("R1", "rifles", "red", "0302"),
             Unit("R2", "rifles", "red", "0303"))
    played = play(several, "skirmish", units, "attack 0302 0303 with B1", roll, monkeypatch)
    odds = attack_odds(several.rules, "skirmish", Fraction(3), Fraction(2), terrain="hill")
    assert played == ("3", "2", odds.column, by_roll(odds)[roll]) and odds.column == "1:2"
    # ``assault`` multiplies each defender's defence by its own hex: 1 x2 + 1 = 3, given as such.
    played = play(several, "assault", units, "attack 0302 0303 with B1", roll, monkeypatch)
    odds = attack_odds(several.rules, "assault", Fraction(3), Fraction(3))
    assert played == ("3", "3", odds.column, by_roll(odds)[roll]) and odds.column == "1:1"


@pytest.mark.parametrize("roll", ROLLS)
def test_a_hexside_shift_is_named_and_counts_when_passed(hexsides, monkeypatch, roll):
    # Rifles B1 (0202, attack 2) across the river hexside 0202|0302 on the guards (defence 2):
    # 1:1, and 1L as every attacker is across the river.
    units = (Unit("B1", "rifles", "blue", "0202"), Unit("R1", "guards", "red", "0302"))
    played = play(hexsides, "assault", units, "attack 0302 with B1", roll, monkeypatch)
    odds = attack_odds(hexsides.rules, "assault", Fraction(2), Fraction(2), shifts=[(-1, "--shift 1L")])
    assert "shift 1L when …" in odds.conditional
    assert played == ("2", "2", odds.column, by_roll(odds)[roll]) and odds.column == "1:2"


@pytest.mark.parametrize("roll", ROLLS)
def test_terrains_in_one_cell_combine_as_the_rulebook_says(terrains, monkeypatch, roll):
    # The guards (defence 2) at 0201, woods with a hill; tanks (4) at 0101 and rifles (2) at 0202.
    # ``assault`` multiplies: x2 times x3, 2 x6 = 12 against 6, 1:2; ``fire`` sums the shifts:
    # 6 against 2 is 3:1, then 1L and 2L: three columns left, 1:2.
    units = (Unit("R1", "guards", "red", "0201"), Unit("B1", "tanks", "blue", "0101"),
             Unit("B2", "rifles", "blue", "0202"))
    played = play(terrains, "assault", units, "attack 0201 with B1 B2", roll, monkeypatch)
    odds = attack_odds(terrains.rules, "assault", Fraction(6), Fraction(2), terrain=["woods", "hill"])
    assert played == ("6", "12", odds.column, by_roll(odds)[roll]) and odds.column == "1:2"
    played = play(terrains, "fire", units, "attack 0201 with B1 B2", roll, monkeypatch)
    odds = attack_odds(terrains.rules, "fire", Fraction(6), Fraction(2), terrain=["woods", "hill"])
    assert [s for s, _ in odds.shifts] == [-1, -2]
    assert played == ("6", "2", odds.column, by_roll(odds)[roll]) and odds.column == "1:2"


@pytest.mark.parametrize("roll", ROLLS)
def test_weather_and_turn_lines_are_named_and_count_when_given(turns, monkeypatch, roll):
    # Two infantry (4 each) on the rifles (4) at 0202, clear, in mud on turn 3: the attack is
    # halved (8 to 4) and the column shifts 1L: 4 against 4, 1:1, then 1:2.
    units = (Unit("B1", "infantry", "blue", "0102"), Unit("B2", "infantry", "blue", "0201"),
             Unit("R1", "rifles", "red", "0202"))
    played = play(turns, "assault", units, "attack 0202 with B1 B2", roll, monkeypatch, turn=3, weather="mud")
    odds = attack_odds(turns.rules, "assault", Fraction(4), Fraction(4), shifts=[(-1, "--shift 1L")])
    assert odds.conditional == ("shift 1L when …", "strength attack x1/2 when …",
                                "strength defence x2 for rifles when …")
    assert played == ("4", "4", odds.column, by_roll(odds)[roll]) and odds.column == "1:2"


@pytest.mark.parametrize("roll", ROLLS)
def test_a_reduced_counter_shows_its_steps_factors(steps, monkeypatch, roll):
    # The brigade (6) on a column at its second step (defence 4, not 6): 6 against 4, 1:1.
    units = (Unit("B1", "brigade", "blue", "0101"), Unit("R1", "column", "red", "0201", step=2))
    played = play(steps, "assault", units, "attack 0201 with B1", roll, monkeypatch)
    odds = attack_odds(steps.rules, "assault", Fraction(6), Fraction(4))
    assert played == ("6", "4", odds.column, by_roll(odds)[roll]) and odds.column == "1:1"


def test_an_attack_below_the_minimum_odds_is_refused(range_fire, capsys):
    # ``assault`` needs 1:1: infantry alone (1) against rifles (2) is never offered in play.
    with pytest.raises(OddsError, match="below the combat's minimum odds 1:1"):
        attack_odds(range_fire.rules, "assault", Fraction(1), Fraction(2))
    assert attack_odds(range_fire.rules, "assault", Fraction(2), Fraction(2)).column == "1:1"
    rules = str(GALLERY / "range_fire" / "range_fire.rules")
    code, out, err = run_cli(capsys, "odds", rules, "assault", "--attack", "1", "--defence", "2")
    assert code == 2 and out == "" and "below the combat's minimum odds 1:1" in err


def test_the_command_combines_several_terrains(capsys):
    rules = str(GALLERY / "terrains" / "terrains.rules")
    code, out, _ = run_cli(capsys, "odds", rules, "fire", "--attack", "6", "--defence", "2",
                           "--terrain", "woods", "--terrain", "hill", "--json")
    assert code == 0
    found = json.loads(out)
    assert [s["columns"] for s in found["shifts"]] == [-1, -2] and found["column"] == "1:2"
