"""``warbook odds`` with the newer combat forms (issue 13): for each, the odds give the column and,
roll by roll, the result that play gives for the same attack (the totals added up as the form's
reference says), or refuse the question; played in the gallery games (tests/gallery/).

Each position's totals are worked out by hand beside its case."""

import functools
import json
from fractions import Fraction
from pathlib import Path

import pytest

from driving import do_call, run_cli
from gallery import at_position, fixed_roll
from warbook.interpreter.actions import Action
from warbook.interpreter.odds import OddsError, attack_odds
from warbook.interpreter.procedures import PROCEDURES, load_procedures
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.state import Unit

GALLERY = Path(__file__).parents[1] / "gallery"
ROLLS = range(1, 7)


@functools.cache
def gallery_scenario(gallery: str):
    """The gallery game ``tests/gallery/GALLERY/GALLERY.toml``, loaded once."""
    load_procedures()
    return load_scenario(GALLERY / gallery / f"{gallery}.toml")


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


def case(gallery, combat, units, attack, odds, played, column, **state):
    """One newer form: the attack played, the question asked of the odds (attack, defence and
    ``attack_odds``'s keywords), the totals play logs, and the column both give."""
    return pytest.param(gallery, combat, units, attack, odds, played, column, state, id=f"{gallery}-{combat}")


CASES = [
    # Infantry B1 (1) with guns G1 and G2 (3 each) from range against rifles R1 (2): 7 against 2.
    case("range_fire", "assault", (Unit("R1", "rifles", "red", "0302"), Unit("B1", "infantry", "blue", "0303"),
                                   Unit("G1", "guns", "blue", "0101"), Unit("G2", "guns", "blue", "0203")),
         "attack 0302 with B1 G1 G2", (7, 2, {}), ("7", "2"), "3:1"),
    # Infantry B1 (0202, attack 3) on the rifles at 0302 (the hill, 1L) and 0303 (clear), defence 1
    # each: ``skirmish`` shifts by terrain, the hill's 1L being best for the defender.
    case("several_hexes", "skirmish", (Unit("B1", "infantry", "blue", "0202"), Unit("R1", "rifles", "red", "0302"),
                                       Unit("R2", "rifles", "red", "0303")),
         "attack 0302 0303 with B1", (3, 2, {"terrain": "hill"}), ("3", "2"), "1:2"),
    # ``assault`` multiplies each defender's defence by its own hex: 1 x2 + 1 = 3, given as such.
    case("several_hexes", "assault", (Unit("B1", "infantry", "blue", "0202"), Unit("R1", "rifles", "red", "0302"),
                                      Unit("R2", "rifles", "red", "0303")),
         "attack 0302 0303 with B1", (3, 3, {}), ("3", "3"), "1:1"),
    # Rifles B1 (0202, attack 2) across the river hexside 0202|0302 on the guards (defence 2): 1:1,
    # and 1L as every attacker is across the river (a ``when`` line: passed as --shift).
    case("hexsides", "assault", (Unit("B1", "rifles", "blue", "0202"), Unit("R1", "guards", "red", "0302")),
         "attack 0302 with B1", (2, 2, {"shifts": [(-1, "--shift 1L")]}), ("2", "2"), "1:2"),
    # The guards (defence 2) at 0201, woods with a hill; tanks (4) at 0101 and rifles (2) at 0202.
    # ``assault`` multiplies: x2 times x3, 2 x6 = 12 against 6, 1:2; ``fire`` sums the shifts: 6
    # against 2 is 3:1, then 1L and 2L, three columns left: 1:2.
    case("terrains", "assault", (Unit("R1", "guards", "red", "0201"), Unit("B1", "tanks", "blue", "0101"),
                                 Unit("B2", "rifles", "blue", "0202")),
         "attack 0201 with B1 B2", (6, 2, {"terrain": ["woods", "hill"]}), ("6", "12"), "1:2"),
    case("terrains", "fire", (Unit("R1", "guards", "red", "0201"), Unit("B1", "tanks", "blue", "0101"),
                              Unit("B2", "rifles", "blue", "0202")),
         "attack 0201 with B1 B2", (6, 2, {"terrain": ["woods", "hill"]}), ("6", "2"), "1:2"),
    # Two infantry (4 each) on the rifles (4) at 0202, clear, in mud on turn 3: the attack halved
    # (8 to 4, folded into the attack asked) and 1L (passed): 4 against 4, 1:1, then 1:2.
    case("turns", "assault", (Unit("B1", "infantry", "blue", "0102"), Unit("B2", "infantry", "blue", "0201"),
                              Unit("R1", "rifles", "red", "0202")),
         "attack 0202 with B1 B2", (4, 4, {"shifts": [(-1, "--shift 1L")]}), ("4", "4"), "1:2",
         turn=3, weather="mud"),
    # The brigade (6) on a column at its second step (defence 4, not 6): 6 against 4, 1:1.
    case("steps", "assault", (Unit("B1", "brigade", "blue", "0101"), Unit("R1", "column", "red", "0201", step=2)),
         "attack 0201 with B1", (6, 4, {}), ("6", "4"), "1:1"),
]


@pytest.mark.parametrize("gallery, combat, units, attack, asked, totals, column, state", CASES)
def test_the_odds_give_the_column_and_each_rolls_result_play_gives(monkeypatch, gallery, combat, units, attack,
                                                                    asked, totals, column, state):
    scenario = gallery_scenario(gallery)
    strength, defence, keywords = asked
    odds = attack_odds(scenario.rules, combat, Fraction(strength), Fraction(defence), **keywords)
    assert odds.column == column
    for roll in ROLLS:
        played = play(scenario, combat, units, attack, roll, monkeypatch, **state)
        assert played == (*totals, column, by_roll(odds)[roll]), roll


def test_the_lines_that_depend_on_the_situation_are_named():
    hexsides, turns = gallery_scenario("hexsides"), gallery_scenario("turns")
    assert attack_odds(hexsides.rules, "assault", Fraction(2), Fraction(2)).conditional == ("shift 1L when …",)
    assert attack_odds(turns.rules, "assault", Fraction(4), Fraction(4)).conditional == (
        "shift 1L when …", "strength attack x1/2 when …", "strength defence x2 for rifles when …")


def test_an_attack_below_the_minimum_odds_is_refused(capsys):
    range_fire = gallery_scenario("range_fire")
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


def test_the_command_says_what_the_totals_count_for_supporting_fire_and_several_hexes(capsys):
    rules = str(GALLERY / "range_fire" / "range_fire.rules")
    code, out, _ = run_cli(capsys, "odds", rules, "assault", "--attack", "7", "--defence", "2", "--json")
    assert code == 0 and json.loads(out)["totals"] == [
        "supporting fire from range: the supporting units' attack factors are part of the attack",
        "one attack on several hexes: the defence is every defender's"]
    rules = str(GALLERY / "several_hexes" / "several_hexes.rules")
    code, out, _ = run_cli(capsys, "odds", rules, "assault", "--attack", "3", "--defence", "3")
    assert code == 0 and "count in the totals: one attack on several hexes: the defence is every defender's, " \
        "each multiplied by its own hex's terrain (then no terrain)" in " ".join(out.split())
