"""The combat procedures: ``fight`` (COMBAT PHASE), ``bombard`` (BOMBARDMENT PHASE), ``trigger`` (BOOBY TRAPS).

Expected options and results are worked out by hand from the Several Klicks text;
the map is fixtures/combat/map.toml (see test_combat.py for its picture).  The
last tests play a tiny generic game (fixtures/combat/skirmish.rules) through the
game driver, so the procedures are also exercised as a sequence of play runs them.
"""

import random
from pathlib import Path

import pytest

from warbook.interpreter import rng
from driving import do_call, drive
from warbook.interpreter.actions import Action
from warbook.interpreter.context import Context
from warbook.interpreter.procedures import PROCEDURES, load_procedures
from warbook.interpreter.game import Game
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.rules import ELIMINATED
from warbook.interpreter.state import GameState, Unit

FIXTURES = Path(__file__).parent / "fixtures" / "combat"


@pytest.fixture(scope="module")
def scenario():
    load_procedures()
    return load_scenario(FIXTURES / "combat.toml")


def make(scenario, *units: Unit) -> Context:
    ctx = Context(scenario, seed=0)
    ctx.state = GameState(turn=1, phase="combat_phase", units=tuple(sorted(units)))
    return ctx


def script_dice(monkeypatch, *values: int) -> list[int]:
    left = list(values)
    monkeypatch.setattr(rng, "roll", lambda seed, n, faces, count=1: left.pop(0))
    return left


def run(ctx, procedure: str, answers: list[str]):
    """Run the sequence's ``do PROCEDURE …`` line, answering decisions in order; returns the decisions."""
    return drive(PROCEDURES[procedure](ctx, do_call(ctx.rules, procedure)), answers)


def shown(decision) -> list[str]:
    return [str(o) for o in decision.options]


def rolls(ctx) -> list[str]:
    return [e["reason"] for e in ctx.events if e["type"] == "roll"]


# --- fight (COMBAT PHASE) ---------------------------------------------------------------------------
# Special Forces (motivation 4) at 0203 and US Infantry (2) at 0304 are both next to an NVA
# (3) at 0303; a VC Local (1) at 0402 touches 0303 and 0403 only, so no allied unit.  The NVA
# is next to both allied hexes.


def fight_setup(scenario, **kw):
    return make(scenario, Unit("A1", "us_infantry", "allies", "0304", **kw),
                Unit("A2", "special_forces", "allies", "0203"),
                Unit("V1", "nva", "vc_nva", "0303"), Unit("V2", "vc_local", "vc_nva", "0402"))


def test_the_highest_motivated_unit_attacks_first_then_down_to_the_lowest(scenario):
    ctx = fight_setup(scenario)
    decisions = run(ctx, "fight", ["pass A2", "done", "done"])
    # Special Forces (4) lead: alone, or with every allied unit next to 0303.
    assert decisions[0].side == "allies"
    assert shown(decisions[0]) == ["attack 0303 with A1 A2", "attack 0303 with A2", "done", "pass A2"]
    # Then the NVA (3), which may attack either allied hex.
    assert decisions[1].side == "vc_nva"
    assert shown(decisions[1]) == ["attack 0203 with V1", "attack 0304 with V1", "done", "pass V1"]
    # Then the US Infantry (2); the VC Local (1) has no allied unit next to it.
    assert decisions[2].side == "allies"
    assert shown(decisions[2]) == ["attack 0303 with A1", "done", "pass A1"]
    assert ctx.state.rolls == 0


def test_a_combined_attack_adds_up_and_each_unit_attacks_once(scenario, monkeypatch):
    ctx = fight_setup(scenario)
    script_dice(monkeypatch, 1)
    # US Infantry 2 + Special Forces 4 = 6 on NVA 4 in clear: 1.5 → 1:1; best motivation 4 against
    # 3 → one column right → 2:1.  Row 1 of 2:1: D.  Nothing else can attack afterwards: the VC
    # Local has no allied neighbour and both allied units have attacked.
    decisions = run(ctx, "fight", ["attack 0303 with A1 A2"])
    assert len(decisions) == 1
    assert rolls(ctx) == ["Combat Results Table 2:1 (attack on 0303)"]
    assert ctx.state.unit("V1").location == ELIMINATED
    assert {u.id for u in ctx.state.units if "attacked" in u.spent} == {"A1", "A2"}


def test_patrol_forbids_attacking(scenario):
    # PATROL MODE: "They cannot move, attack or be transported but may defend."
    ctx = fight_setup(scenario, mode="patrol")
    decisions = run(ctx, "fight", ["done", "done"])
    assert shown(decisions[0]) == ["attack 0303 with A2", "done", "pass A2"]
    why = decisions[0].why_not(Action.parse("attack 0303 with A1"))
    assert "PATROL" in why and "forbid" in why


def test_why_not_names_the_rule(scenario):
    ctx = fight_setup(scenario)
    decisions = run(ctx, "fight", ["done", "done"])
    why = decisions[0].why_not
    assert "adjacent" in why(Action.parse("attack 0402 with A2"))
    assert "COMBAT PHASE" in why(Action.parse("attack 0402 with A2"))
    assert "attack first" in why(Action.parse("attack 0303 with A1"))


def test_hidden_counters_may_be_attacked(scenario, monkeypatch):
    # SPOTTING: "if not spotted the allied player may attack the hidden counter".  The attack
    # reveals it: a dummy is removed and nothing is rolled.
    ctx = make(scenario, Unit("A1", "us_infantry", "allies", "0304"),
               Unit("V1", "dummy", "vc_nva", "0303", hidden=True, dummy=True))
    decisions = run(ctx, "fight", ["attack 0303 with A1"])
    assert shown(decisions[0]) == ["attack 0303 with A1", "done", "pass A1"]
    assert ctx.state.unit("V1").location == ELIMINATED and ctx.state.rolls == 0


def test_aircraft_and_markers_are_not_fought_on_the_ground(scenario):
    # Air units print no Defend ("hit only by FIRE AGAINST AIRCRAFT"); a booby trap is no unit.
    ctx = make(scenario, Unit("A1", "gunship", "allies", "0304"), Unit("A2", "us_infantry", "allies", "0204"),
               Unit("V1", "nva", "vc_nva", "0303"), Unit("V2", "booby_trap", "vc_nva", "0305"))
    # The gunship at 0304 neither attacks the NVA next to it nor may be attacked by it; the
    # US Infantry at 0204 touches only the trap (0305) among enemy counters.  No attack is possible.
    assert run(ctx, "fight", []) == []


# --- bombard (BOMBARDMENT PHASE) -------------------------------------------------------------------


def bombard_setup(scenario):
    # Mortars (attack 5, range 2) and Artillery (6, range 8) at 0101; a VC Local at 0103 (2 hexes
    # down the column) and an NVA at 0104 (3 hexes).
    return make(scenario, Unit("A1", "mortars", "allies", "0101"), Unit("A2", "artillery", "allies", "0101"),
                Unit("V1", "vc_local", "vc_nva", "0103"), Unit("V2", "nva", "vc_nva", "0104"))


def test_bombardment_reaches_as_far_as_the_range(scenario):
    ctx = bombard_setup(scenario)
    decisions = run(ctx, "bombard", ["done"])
    assert decisions[0].side == "allies"
    assert shown(decisions[0]) == ["bombard 0103 with A1", "bombard 0103 with A1 A2", "bombard 0103 with A2",
                                   "bombard 0104 with A2", "done"]


def test_combined_bombardment_adds_attack_factors(scenario, monkeypatch):
    ctx = bombard_setup(scenario)
    script_dice(monkeypatch, 5)
    # "Use the attack factor of all the combined bombardment": 5 + 6 = 11 on VC Local 1 → 4:1
    # (no motivation shift in bombardment).  Row 5 of 4:1: D.  The artillery then may still
    # bombard 0104 alone; the mortars have bombarded.
    decisions = run(ctx, "bombard", ["bombard 0103 with A1 A2"])
    assert len(decisions) == 1
    assert rolls(ctx) == ["Combat Results Table 4:1 (bombardment of 0103)"]
    assert ctx.state.unit("V1").location == ELIMINATED


def test_air_units_bombard_anywhere_and_are_flagged(scenario, monkeypatch):
    # "Artillery units / air units may bombard an enemy hex"; helicopters and aircraft have
    # unlimited movement, so any enemy hex.  The payload is dropped after the Air Defence Phase's
    # fire (the rulebook's gap on "held for fire at aircraft"): NVA 3 does not exceed the gunship's
    # 5, so no ground fire.  Gunship 5 on NVA 4: 5:4 → 1:1; row 1: ½D, and the NVA (alone, so
    # lost) has no survivor to retreat.
    ctx = make(scenario, Unit("A1", "gunship", "allies", "0605"), Unit("V1", "nva", "vc_nva", "0101"))
    script_dice(monkeypatch, 1)
    decisions = run(ctx, "bombard", ["bombard 0101 with A1"])
    assert shown(decisions[0]) == ["bombard 0101 with A1", "done"]
    assert ctx.state.unit("A1").turn_flags == {"bombarded", "bombarded:0101", "held:bombardment:0101"}
    assert ctx.state.unit("A1").location == "0605" and ctx.state.unit("V1").location == "0101"
    run(ctx, "fire at aircraft", [])
    assert ctx.state.unit("A1").turn_flags == {"bombarded", "bombarded:0101"}
    assert rolls(ctx) == ["Combat Results Table 1:1 (bombardment of 0101)"]
    assert ctx.state.unit("V1").location == ELIMINATED


def test_bombarding_units_are_unharmed_by_attacker_results(scenario, monkeypatch):
    # The rulebook's reading of a gap (combat bombardment, 'attackers unharmed'): bombarding
    # units fire from a distance.  Mortars 5 alone on an NVA (defend 4) in clear 0103: 5:4 → 1:1;
    # row 6 of 1:1 is ½A, which in an assault would cost the attackers half; here nobody.
    ctx = make(scenario, Unit("A1", "mortars", "allies", "0101"), Unit("V1", "nva", "vc_nva", "0103"))
    script_dice(monkeypatch, 6)
    run(ctx, "bombard", ["bombard 0103 with A1"])
    assert rolls(ctx) == ["Combat Results Table 1:1 (bombardment of 0103)"]
    assert ctx.state.unit("A1").location == "0101"
    assert ctx.state.unit("V1").location == "0103"


# --- trigger (BOOBY TRAPS) --------------------------------------------------------------------------


def trap_setup(scenario):
    # A VC/NVA booby trap in the jungle 0202; US Infantry and US Marines stopped on it this phase
    # (flagged by movement); a CIDG that was already there is not attacked.
    return make(scenario, Unit("V9", "booby_trap", "vc_nva", "0202", hidden=True),
                Unit("A1", "us_infantry", "allies", "0202", spent=frozenset({"trap"})),
                Unit("A2", "us_marines", "allies", "0202", spent=frozenset({"trap"})),
                Unit("A3", "cidg", "allies", "0202"))


def test_booby_trap_attacks_at_two_to_one_ignoring_terrain(scenario, monkeypatch):
    ctx = trap_setup(scenario)
    script_dice(monkeypatch, 5)
    # "They attack at 2:1 odds … Ignore terrain modifiers": the 2:1 column whatever the jungle.
    # Row 5 of 2:1 is ½D½A: half of the two trapped units (one) is lost, chosen by its owner; the
    # trap has no counters to lose.
    decisions = run(ctx, "trigger", ["lose A1"])
    assert rolls(ctx) == ["Combat Results Table 2:1 (Booby trap at 0202)"]
    assert [(d.kind, d.side) for d in decisions] == [("losses", "allies")]
    assert ctx.state.unit("A1").location == ELIMINATED
    assert ctx.state.unit("A2").location == "0202" and "trap" not in ctx.state.unit("A2").spent
    assert ctx.state.unit("A3").location == "0202"
    trap = ctx.state.unit("V9")
    assert trap.location == "0202" and not trap.hidden
    assert ctx.state.resource("vc_nva", "vp") == 1


def test_booby_trap_D_removes_every_trapped_unit(scenario, monkeypatch):
    ctx = trap_setup(scenario)
    script_dice(monkeypatch, 1)  # 2:1 row 1: D
    run(ctx, "trigger", [])
    assert {u.id for u in ctx.state.units if u.location == ELIMINATED} == {"A1", "A2"}


def test_no_trapped_unit_means_no_roll(scenario):
    ctx = make(scenario, Unit("V9", "booby_trap", "vc_nva", "0202"), Unit("A3", "cidg", "allies", "0202"))
    run(ctx, "trigger", [])
    assert ctx.state.rolls == 0


# --- the procedures under the game driver (a generic skirmish) -----------------------------------


def playout(seed: int, agent_seed: int) -> Game:
    game = Game.new(FIXTURES / "skirmish.toml", seed=seed)
    pick = random.Random(agent_seed)
    while not game.is_over():
        game.apply(pick.choice(game.legal_actions()))
    return game


def test_random_skirmishes_end_and_keep_units_in_one_place():
    for seed in range(6):
        game = playout(seed, seed + 1)
        kinds = {e.get("kind") for e in game.log if e["type"] == "decision"}
        assert kinds <= {"setup", "bombard", "attack", "losses", "retreat"}
        for unit in game.state.units:
            assert unit.location == ELIMINATED or unit.location in game.scenario.board.graph
        lost = sum(1 for u in game.state.units if u.location == ELIMINATED and not u.dummy)
        assert sum(v for _, _, v in game.state.resources) == lost  # one point per real unit lost


def test_skirmish_is_deterministic_and_replays(tmp_path):
    game = playout(3, 4)
    assert game.log == playout(3, 4).log
    path = tmp_path / "skirmish.jsonl"
    game.save(path)
    assert Game.load(path).log == game.log
