"""A combat result's effects (every verb, ``when`` conditions) and combat ``shift … for`` selectors.

Played on a tiny neutral game, fixtures/combat_effects/effects.rules, on this map (even columns
half a hex lower)::

    row 1  . . . . .      0202 wood (terrain tag cover), 0302 marsh,
    row 2  . w m r .      0402 clear with the cell tag ridge; the rest clear
    row 3  . . . . .      0203's neighbours: 0103 0202 0303

Factors (attack, defence): rifles 2 2 and tanks 4 3 (blue); raiders 1 2 and veterans 2 2 (red,
veterans tagged veteran).  The CRT (columns 1:2 1:1 2:1 3:1 4:1, rounding for the defender) has
one result per row in every column: 1 DE, 2 OV, 3 HD, 4 VP, 5 BN, 6 NE.  Every expectation
below is worked out by hand from those lines.
"""

import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from driving import drive, run_cli

from warbook.dsl.diagnostics import RulesError
from warbook.dsl.lint import lint_path
from warbook.dsl.vocabulary import EFFECTS
from warbook.interpreter import results
from warbook.interpreter.context import Context
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.rules import ELIMINATED
from warbook.interpreter.state import GameState, Unit

FIXTURES = Path(__file__).parent / "fixtures" / "combat_effects"


@pytest.fixture(scope="module")
def scenario():
    return load_scenario(FIXTURES / "effects.toml")


def make(scenario, *units: Unit, vp: dict[str, int] | None = None) -> Context:
    ctx = Context(scenario, seed=0)
    state = GameState(turn=1, phase="battle", units=tuple(sorted(units)))
    for side, value in (vp or {}).items():
        state = state.with_resource(side, "vp", Fraction(value))
    ctx.state = state
    return ctx


def fight(ctx, attackers, defenders, answers=(), **kw):
    """Resolve one assault of ``attackers`` on ``defenders`` (ids); returns (outcome, decisions)."""
    side = ctx.state.unit(attackers[0]).side
    flow = results.resolve(ctx, "assault", [ctx.state.unit(i) for i in attackers],
                          [ctx.state.unit(i) for i in defenders], reason="test", attacker_side=side, **kw)
    outcome = None

    def keep():
        nonlocal outcome
        outcome = yield from flow

    decisions = drive(keep(), answers)
    return outcome, decisions


def said(ctx) -> list[str]:
    return [e["text"] for e in ctx.events if e["type"] == "event"]


def vp(ctx) -> dict[str, Fraction]:
    return {side: ctx.state.resource(side, "vp") for side in ("blue", "red")}


# --- `when` on a result's effects ------------------------------------------------------------------


def test_a_result_effect_applies_when_its_condition_holds(scenario, dice):
    """Reference, Results, events, combat: "A `when` condition on such a line is read as the line is
    carried out …: … `ROLE FACTOR` totals the role's counters still in the fight. The line is
    carried out only if it holds"."""
    # OV: "eliminate all defenders when attackers attack exceeds defenders defence" — tanks' attack
    # 4 exceeds the raiders' defence 2, so the raiders go; "retreat defenders 1 when attackers
    # attack at most defenders defence" (4 at most 2) does not hold.
    ctx = make(scenario, Unit("B1", "tanks", "blue", "0303"), Unit("R1", "raiders", "red", "0203"))
    dice.append((6, 2))
    outcome, decisions = fight(ctx, ["B1"], ["R1"])
    assert outcome.result == "OV" and decisions == []
    assert ctx.state.unit("R1").location == ELIMINATED and ctx.state.unit("B1").location == "0303"
    assert "test: 'attackers attack at most defenders defence' does not hold; 'retreat defenders 1' does not " \
        "apply" in said(ctx)
    assert not any("does not evaluate" in line for line in said(ctx))


def test_a_result_effect_does_not_apply_when_its_condition_fails(scenario, dice):
    """Reference, Results, events, combat: "The line is carried out only if it holds; otherwise the
    log says so, and no die is rolled for it"."""
    # Rifles' attack 2 does not exceed the raiders' defence 2: no elimination; 2 is at most 2, so
    # the raiders retreat one hex: 0103 or 0202 (0303 holds the rifles).
    ctx = make(scenario, Unit("B1", "rifles", "blue", "0303"), Unit("R1", "raiders", "red", "0203"))
    dice.append((6, 2))
    outcome, decisions = fight(ctx, ["B1"], ["R1"], ["retreat R1 0103"])
    assert [(d.kind, d.side) for d in decisions] == [("retreat", "red")]
    assert ctx.state.unit("R1").location == "0103"
    assert "test: 'attackers attack exceeds defenders defence' does not hold; 'eliminate all defenders' does " \
        "not apply" in said(ctx)


@pytest.mark.parametrize("attacker, defender, lost, retreats", [
    # Blue attacks red: red is defending, so one attacker is lost; no enemy (of blue) veteran.
    (("B1", "rifles", "blue", "0303"), ("R1", "raiders", "red", "0203"), ["B1"], []),
    # Blue attacks red veterans: one attacker lost, and enemy veteran units are in the cell.
    (("B1", "rifles", "blue", "0303"), ("R1", "veterans", "red", "0203"), ["B1"], ["R1"]),
    # Red attacks blue: red is not defending; blue has no veteran units.  Nothing happens.
    (("R1", "raiders", "red", "0303"), ("B1", "rifles", "blue", "0203"), [], []),
])
def test_defending_and_counters_in_cell_read_the_engagement(scenario, dice, attacker, defender, lost, retreats):
    """Reference, Results, events, combat: "`own` is the side that rolled, `in cell` the cell fought
    over, `[WHO] defending` the side fired at (in a battle, its defending side)"."""
    # HD: "eliminate 1 attackers when red defending"; "retreat defenders 1 when enemy veteran
    # units in cell".  A retreat from 0203 may go to 0103 or 0202.
    ctx = make(scenario, Unit(*attacker), Unit(*defender))
    dice.append((6, 3))
    answers = [f"retreat {r} 0103" for r in retreats]
    outcome, _ = fight(ctx, [attacker[0]], [defender[0]], answers)
    assert outcome.result == "HD"
    assert [i for i in (attacker[0], defender[0]) if ctx.state.unit(i).location == ELIMINATED] == lost
    assert [i for i in (attacker[0], defender[0]) if ctx.state.unit(i).location == "0103"] == retreats


# --- gain and lose in a combat result -------------------------------------------------------------


def test_gain_and_lose_in_a_result_score_for_the_roles_sides(scenario, dice):
    """Reference, Results, events, combat: "In `gain`/`lose … to ROLE`, `attackers`/`firers`,
    `owner`/`self` (and no `to`) are the side that rolled, `defenders`/`targets` the side fired
    at"."""
    # VP, red leading 5 to 0: blue (attackers) +2 → 2; red (defenders) -1 → 4; red's lead is then
    # 2 >= 1, so blue (owner: the side that rolled) gains d6 = 3 → 5.
    ctx = make(scenario, Unit("B1", "rifles", "blue", "0303"), Unit("R1", "raiders", "red", "0203"),
               vp={"blue": 0, "red": 5})
    dice.extend([(6, 4), (6, 3)])
    outcome, decisions = fight(ctx, ["B1"], ["R1"])
    assert outcome.result == "VP" and decisions == []
    assert vp(ctx) == {"blue": 5, "red": 4}


def test_lose_stops_at_its_minimum_and_an_unmet_condition_rolls_nothing(scenario, dice):
    """Reference, Effects: `lose … [minimum <floor:INT>]`; Results, events, combat: "The line is
    carried out only if it holds; otherwise … no die is rolled for it"."""
    # VP at 0 to 0: blue +2 → 2; red's loss of 1 stops at its minimum 0; red's lead is -2, so no d6.
    ctx = make(scenario, Unit("B1", "rifles", "blue", "0303"), Unit("R1", "raiders", "red", "0203"))
    dice.append((6, 4))
    fight(ctx, ["B1"], ["R1"])
    assert vp(ctx) == {"blue": 2, "red": 0}


def test_an_event_rolled_from_a_result_is_carried_out_for_the_roller(scenario, dice):
    """Reference, Results, events, combat: "A combat carries out the effect lines of the result it
    rolls …, and of an event a cell names (a table `cells are events`, or a result's `roll DICE
    on TABLE`)"; `owner` there is "the side that rolled"."""
    # BN: "roll d6 on bonus" → windfall: "gain vp 1 to owner" (red, the attacker), "lose vp 1 to
    # opponent" (blue: 3 → 2).
    ctx = make(scenario, Unit("R1", "raiders", "red", "0303"), Unit("B1", "rifles", "blue", "0203"),
               vp={"blue": 3})
    dice.extend([(6, 5), (6, 1)])
    outcome, _ = fight(ctx, ["R1"], ["B1"])
    assert outcome.result == "BN"
    assert vp(ctx) == {"blue": 2, "red": 1}


def test_warbook_play_carries_out_a_gain_in_a_combat_result(capsys, dice, tmp_path):
    """Issue 12: a combat result whose effect is `gain … to attackers` lints clean and then
    stopped `warbook play` with an internal error; it must play to the end."""
    blue = tmp_path / "blue.txt"
    red = tmp_path / "red.txt"
    blue.write_text("attack 0203 with B1\n")
    red.write_text("done\n")
    # VP, 0 to 0: blue +2, red's loss stops at 0, no lead so no d6.  Blue wins by 2.
    dice.append((6, 4))
    code, out, err = run_cli(capsys, "play", str(FIXTURES / "play.toml"), "--agents",
                             f"script:{blue},script:{red}")
    assert (code, err) == (0, "")
    assert out.rstrip("\n").endswith("Result: Victory for blue (margin 2; blue 2, red 0)")


# --- combat `shift … for SELECTOR` ------------------------------------------------------------------
# assault: shift 1L for marsh (terrain), 1L for cover (a terrain's tag), 1L for ridge (a cell's tag),
# 1R for tanks (a unit type), 1L for veteran (a unit tag).  Row 6 is NE, so only the column counts.


@pytest.mark.parametrize("attacker, defender, column", [
    # Rifles 2 on raiders 2 in clear: 1:1, no line applies.
    (("B1", "rifles", "blue", "0303"), ("R1", "raiders", "red", "0203"), "1:1"),
    # The defender's cell is marsh: 1:1, 1L → 1:2.
    (("B1", "rifles", "blue", "0303"), ("R1", "raiders", "red", "0302"), "1:2"),
    # Wood carries the tag cover: 1L → 1:2 (the line names the tag, not the terrain).
    (("B1", "rifles", "blue", "0303"), ("R1", "raiders", "red", "0202"), "1:2"),
    # 0402 is clear with the map's cell tag ridge: 1L → 1:2.
    (("B1", "rifles", "blue", "0303"), ("R1", "raiders", "red", "0402"), "1:2"),
    # The attacker stands in marsh, the defender in clear: the attacker's cell does not count.
    (("B1", "rifles", "blue", "0302"), ("R1", "raiders", "red", "0303"), "1:1"),
    # Tanks 4 on raiders 2: 2:1, 1R for tanks among the attackers → 3:1.
    (("B1", "tanks", "blue", "0303"), ("R1", "raiders", "red", "0203"), "3:1"),
    # Raiders 1 on tanks 3: 1:3 → 1:2; the 1R would help the roller, but the tanks defend.
    (("R1", "raiders", "red", "0303"), ("B1", "tanks", "blue", "0203"), "1:2"),
    # Rifles 2 on veterans 2: 1:1, 1L for veteran among the defenders → 1:2.
    (("B1", "rifles", "blue", "0303"), ("R1", "veterans", "red", "0203"), "1:2"),
    # Veterans 2 on rifles 2: 1:1; the 1L would help the defender, but the veterans attack.
    (("R1", "veterans", "red", "0303"), ("B1", "rifles", "blue", "0203"), "1:1"),
    # Tanks 4 on veterans 2 in marsh: 2:1, +1 tanks, -1 veteran, -1 marsh → 1:1.
    (("B1", "tanks", "blue", "0303"), ("R1", "veterans", "red", "0302"), "1:1"),
])
def test_a_shift_for_a_selector_applies_by_what_it_names(scenario, dice, attacker, defender, column):
    """Reference, Results, events, combat: "A combat's `shift … for SELECTOR…` line applies when one
    of its selectors names a unit (its type, a tag, …) with the side the shift helps …; or the cell
    of the units fired at …: its terrain, a tag of that terrain, or a tag the map gives the
    cell"."""
    ctx = make(scenario, Unit(*attacker), Unit(*defender))
    dice.append((6, 6))
    outcome, _ = fight(ctx, [attacker[0]], [defender[0]])
    assert (outcome.column, outcome.result) == (column, "NE")


def test_a_shift_for_terrain_does_not_apply_to_an_attack_ignoring_terrain(scenario, dice):
    """Reference, Results, events, combat: "An attack `ignoring terrain` ignores these lines too"."""
    # Rifles on raiders in marsh: 1:1, and the marsh line is ignored with the terrain.
    ctx = make(scenario, Unit("B1", "rifles", "blue", "0303"), Unit("R1", "raiders", "red", "0302"))
    dice.append((6, 6))
    outcome, _ = fight(ctx, ["B1"], ["R1"], ignore_terrain=True)
    assert outcome.column == "1:1"


# --- conditions a combat result cannot evaluate -----------------------------------------------------


def overlay(tmp_path: Path, text: str) -> Path:
    """A rulebook extending effects.rules by ``text`` and a scenario playing it, in ``tmp_path``."""
    for name in ("effects.rules", "map.toml"):
        shutil.copy(FIXTURES / name, tmp_path / name)
    (tmp_path / "overlay.rules").write_text('extends "effects.rules"\n' + text, encoding="utf-8")
    (tmp_path / "overlay.toml").write_text((FIXTURES / "effects.toml").read_text().replace(
        "effects.rules", "overlay.rules"), encoding="utf-8")
    return tmp_path / "overlay.toml"


def test_a_moment_in_a_result_effect_is_rejected_before_play_and_never_skipped(tmp_path, dice):
    """Reference, Results, events, combat: "A condition that waits for a moment (`revealed`, `combat
    round ends` …) is an error (E221): a result is carried out when it is rolled."  A game that
    reaches one anyway stops with that positioned diagnostic; the line is never skipped."""
    path = overlay(tmp_path, "override result NE {\n    effect eliminate all defenders when revealed\n}\n")
    found = [(d.code, d.span.line, d.span.column) for d in lint_path(tmp_path / "overlay.rules")]
    assert ("E221", 3, 41) in found  # "revealed": column 41
    ctx = make(load_scenario(path), Unit("B1", "rifles", "blue", "0303"), Unit("R1", "raiders", "red", "0203"))
    dice.append((6, 6))
    with pytest.raises(RulesError) as caught:
        fight(ctx, ["B1"], ["R1"])
    first = caught.value.diagnostics[0]
    assert (first.code, first.span.line) == ("E221", 3)
    assert ctx.state.unit("R1").location == "0203"


# --- every effect verb in a combat result ---------------------------------------------------------

EXAMPLES = {
    "eliminate": "eliminate 1 defenders",
    "refit": "refit 1 defenders to reserve",
    "retreat": "retreat defenders 1",
    "stand": "stand both",
    "break": "break off defenders",
    "abandon": "abandon mission defenders",
    "gain": "gain vp 1 to attackers",
    "lose": "lose vp 1 to defenders minimum 0",
    "reduce": "reduce income vp 1",
    "multiply": "multiply gains vp by 2 this turn for attackers",
    "reveal": "reveal defenders in this cell",
    "roll": "roll d6 on bonus",
    "pick": "pick reinforcement free for attackers",
    "return": "return 1 defenders to reserve",
    "attack": "attack defenders with 2",
    "modify": "modify recon roll +1 for attackers",
    "shift": "shift 1L for defenders",
    "supply": "supply attackers",
    "remove": "remove self",
    "score": "score taken",
    "stop": "stop defenders",
    "step": "step loss 1 defenders",
    "strength": "strength loss attackers attack at least defenders defence lost",
    "restore": "restore 1 step to owner",
    "mark": "mark defenders shaken",
    "set": "set weather mud",
    "no": "no effect",
}
"""One effect line per verb of the vocabulary, with names the overlay declares."""

CARRIED_OUT = {"eliminate", "refit", "retreat", "stand", "break", "abandon", "gain", "lose", "roll", "step", "strength",
               "no", "mark"}
"""The verbs a combat result carries out; every other verb is rejected before play (E220)."""

EXTRA_ROLLS = {"roll": [(6, 1)]}
"""Dice an example rolls after the CRT's (the bonus table's d6)."""

DECLARED = 'box reserve "Reserve"\naward taken "Taken" {\n    on eliminated\n    points 1\n}\nweather mud "Mud"\n'
STATUS = 'status shaken "Shaken" {\n    forbids attack\n}\n'
"""Declared after the result, so that the result's line numbers stay those asserted."""


def test_every_effect_verb_is_listed():
    """Reference, Effects: every verb the vocabulary accepts is listed here, so none escapes the
    test below."""
    assert set(EXAMPLES) == set(EFFECTS)


@pytest.mark.parametrize("verb", sorted(EXAMPLES))
def test_every_effect_verb_in_a_combat_result_is_carried_out_or_rejected_before_play(tmp_path, dice, verb):
    """Reference, Results, events, combat: "A combat result may `eliminate`, `refit`, `retreat`,
    `stand`, `break off`, `abandon mission`, `gain` or `lose` a resource, take a `step loss` or a `strength loss`,
    `roll … on` a table of results or events, or have `no effect`; any other effect there is an
    error before play (E220)"; in play it is that
    positioned diagnostic, never an internal error."""
    line = EXAMPLES[verb]
    path = overlay(tmp_path, f"{DECLARED}override result NE {{\n    effect {line}\n}}\n{STATUS}")
    found = [(d.code, d.span.line) for d in lint_path(tmp_path / "overlay.rules") if d.code in ("E220", "E105")]
    ctx = make(load_scenario(path), Unit("B1", "rifles", "blue", "0303"), Unit("R1", "raiders", "red", "0203"))
    dice.extend([(6, 6), *EXTRA_ROLLS.get(verb, [])])
    if verb in CARRIED_OUT:
        assert found == []
        fight(ctx, ["B1"], ["R1"], ["retreat R1 0103"] if verb == "retreat" else [])
    else:
        assert found == [("E220", 9)]
        with pytest.raises(RulesError) as caught:
            fight(ctx, ["B1"], ["R1"])
        first = caught.value.diagnostics[0]
        assert (first.code, first.span.line) == ("E220", 9)
        dice.clear()
