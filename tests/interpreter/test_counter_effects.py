"""A counter's standing effects and moments are carried out (issue 12: nothing accepted is ignored).

Played on fixtures/combat_effects/counters.rules: the combat-effects game (see
test_combat_effects.py for its map, units and CRT) with a red ``fort`` (``shift 1L for enemy when
defending``) and a blue ``beacon`` (``gain vp 1 to owner when battle phase ends``).  Blue rifles
(attack 2) against red raiders (defence 2) in clear 0303 is 1:1 on the CRT (columns 1:2 1:1 2:1
3:1 4:1); one column left is 1:2.  Every expectation is worked out by hand from those lines.
"""

from fractions import Fraction
from pathlib import Path

import pytest

from driving import drive

from warbook.interpreter import results
from warbook.interpreter.combat import Battle
from warbook.interpreter.context import Context
from warbook.interpreter.flow import run_phase
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.state import GameState, Unit

FIXTURES = Path(__file__).parent / "fixtures" / "combat_effects"


@pytest.fixture(scope="module")
def scenario():
    return load_scenario(FIXTURES / "counters.toml")


def make(scenario, *units: Unit) -> Context:
    ctx = Context(scenario, seed=0)
    ctx.state = GameState(turn=1, phase="battle", units=tuple(sorted(units)))
    return ctx


def column(ctx, attackers, defenders, battle=None) -> str:
    side = ctx.state.unit(attackers[0]).side
    flow = results.resolve(ctx, "assault", [ctx.state.unit(i) for i in attackers],
                          [ctx.state.unit(i) for i in defenders], reason="test", attacker_side=side, battle=battle)
    found = {}

    def keep():
        found["outcome"] = yield from flow

    drive(keep())
    return found["outcome"].column


RIFLES = Unit("B1", "rifles", "blue", "0203")
RAIDERS = Unit("R1", "raiders", "red", "0303")
FORT = Unit("F1", "fort", "red", "0303")


def test_a_counter_shifts_the_fire_its_role_names_when_its_condition_holds(scenario, dice):
    """Reference, Effects: ``shift N[L|R] [for ROLE] [when …]`` on a counter shifts the column of the
    fire of the sides its role names while its condition holds.  The fort is red's and says
    ``for enemy when defending``: Blue's assault on the raiders in its cell, red defending, goes
    from 1:1 one column left, to 1:2 (roll 6: NE, nothing else happens)."""
    dice.append((6, 6))
    assert column(make(scenario, RIFLES, RAIDERS), ["B1"], ["R1"]) == "1:1"
    dice.append((6, 6))
    ctx = make(scenario, RIFLES, RAIDERS, FORT)
    assert column(ctx, ["B1"], ["R1"]) == "1:2"
    assert any("-1 (Fort shift 1L)" in e["text"] for e in ctx.events if "text" in e)


def test_a_counter_shift_does_not_apply_when_its_condition_fails_or_to_its_own_side(scenario, dice):
    """The same fort: in a battle in its cell that Blue defends (red conducts it), ``when
    defending`` fails for red, so Blue's fire is not shifted; and Red's own fire is never shifted
    by it, being no enemy of the fort (raiders 1 against rifles 2 is 1:2 either way)."""
    dice += [(6, 6), (6, 6)]
    ctx = make(scenario, Unit("B1", "rifles", "blue", "0303"), RAIDERS, FORT)
    battle = Battle("0303", "blue")
    assert column(ctx, ["B1"], ["R1"], battle) == "1:1"
    assert column(ctx, ["R1"], ["B1"], Battle("0303", "red")) == "1:2"
    assert not any("Fort" in e["text"] for e in ctx.events if "text" in e)


def test_a_counter_meets_the_end_of_a_phase(scenario):
    """Reference, Conditions: ``when PHASE phase ends`` is carried out as that phase ends.  The
    beacon on the map gives Blue 1 VP at the end of the battle phase (nobody is adjacent to an
    enemy, so nobody is asked anything); a beacon off the map gives nothing."""
    phase = next(d for d in scenario.rulebook.walk() if d.kind == "phase" and d.name == "battle")
    ctx = make(scenario, Unit("L1", "beacon", "blue", "0101"), Unit("R1", "raiders", "red", "0505"))
    assert drive(run_phase(ctx, phase)) == []
    assert ctx.state.resource("blue", "vp") == Fraction(1)
    assert any(e.get("resource") == "vp" and "Beacon" in e["text"] for e in ctx.events if "text" in e)
    ctx = make(scenario, Unit("L1", "beacon", "blue", "pool"), Unit("R1", "raiders", "red", "0505"))
    drive(run_phase(ctx, phase))
    assert ctx.state.resource("blue", "vp") == 0


def outcome(ctx, attackers, defenders):
    side = ctx.state.unit(attackers[0]).side
    flow = results.resolve(ctx, "assault", [ctx.state.unit(i) for i in attackers],
                          [ctx.state.unit(i) for i in defenders], reason="test", attacker_side=side)
    found = {}

    def keep():
        found["outcome"] = yield from flow

    drive(keep())
    return found["outcome"]


def test_a_combat_shift_applies_while_its_condition_holds(scenario, dice):
    """Reference, Results, events, combat: a combat's ``shift … when`` line applies while its
    condition holds, read for the firing side (``own``).  ``shift 1R when own vp >= 3``: Blue with
    2 VP attacks at 1:1, with 3 VP one column right, at 2:1."""
    dice += [(6, 6), (6, 6)]
    ctx = make(scenario, RIFLES, RAIDERS)
    ctx.state = ctx.state.with_resource("blue", "vp", Fraction(2))
    assert outcome(ctx, ["B1"], ["R1"]).column == "1:1"
    ctx.state = ctx.state.with_resource("blue", "vp", Fraction(3))
    assert outcome(ctx, ["B1"], ["R1"]).column == "2:1"


def test_a_combat_roll_modifier_applies_while_its_condition_holds(scenario, dice):
    """``roll modifier +1 when attackers attack >= 4``: tanks (attack 4) roll 5, modified to 6
    (NE); rifles (attack 2) roll 4 and keep it (VP: its d6 gain needs a lead Blue does not have)."""
    dice += [(6, 5), (6, 4)]
    tanks = outcome(make(scenario, Unit("B2", "tanks", "blue", "0203"), RAIDERS), ["B2"], ["R1"])
    assert (tanks.roll, tanks.modified_roll) == (5, 6)
    rifles = outcome(make(scenario, RIFLES, RAIDERS), ["B1"], ["R1"])
    assert (rifles.roll, rifles.modified_roll) == (4, 4)
