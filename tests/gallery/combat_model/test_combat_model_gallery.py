"""Mechanics gallery: combat model choices, played in a neutral game (combat_model.rules).

Every expected value is worked out by hand from combat_model.rules and map.toml.  Scouts attack 1,
rifles 2, guards (red) 2, every defence as printed (terrain does not multiply).  ``assault``
offers any combination of the units that may attack a hex, each defender once a phase, at 1:1
or better; ``melee`` offers one unit or all (as without model lines), at 1:2 or better, and its
attacks are mandatory: a unit in an enemy zone (every hex next to an enemy) must attack, and
every enemy next to a unit of the side must be attacked; they are all declared before any is
resolved.  The zone of control locks the units in it.  Hexes: even columns sit half a hex
lower, so 0202 touches 0201, 0203, 0102, 0103, 0302 and 0303; 0101 touches 0102 and 0201.
"""

from pathlib import Path

import pytest
from attrs import evolve

from driving import do_call, drive, options, run_cli
from gallery import greedy_game, random_games_replay_alike
from warbook.interpreter.context import Context, options_in_order
from warbook.interpreter.procedures import PROCEDURES, load_procedures
from warbook.interpreter.procedures.attack_choice import attack_options
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.state import GameState, Unit

HERE = Path(__file__).parent
SCENARIO = HERE / "combat_model.toml"


@pytest.fixture(scope="module")
def scenario():
    load_procedures()
    return load_scenario(SCENARIO)


def make(scenario, *units: Unit) -> Context:
    ctx = Context(scenario, seed=0)
    ctx.state = GameState(turn=1, phase="assault", units=tuple(sorted(units)))
    return ctx


GUARDS = Unit("R1", "guards", "red", "0202")
SCOUT1, SCOUT2 = Unit("B1", "scouts", "blue", "0201"), Unit("B2", "scouts", "blue", "0102")
RIFLES = Unit("B3", "rifles", "blue", "0302")


def offered(decision) -> set[str]:
    """A decision's options, as a set (a decision lists them in its own order)."""
    found = options(decision)
    assert len(set(found)) == len(found)  # none offered twice
    return set(found)


def first_decision(ctx, combat: str):
    return next(PROCEDURES["fight"](ctx, do_call(ctx.rules, "fight", combat)))


def fixed_roll(monkeypatch, value: int) -> None:
    from warbook.interpreter import rng

    monkeypatch.setattr(rng, "roll", lambda seed, n, faces, count=1: value)


# --- which units attack together, and at what odds ------------------------------------------------------


def test_any_combination_from_several_hexes_at_the_minimum_odds(scenario):
    ctx = make(scenario, GUARDS, SCOUT1, SCOUT2, RIFLES)
    decision = first_decision(ctx, "assault")
    # Three hexes touch the guards (defence 2).  Of the 7 groups of B1, B2, B3 those with 2 or more
    # attack reach 1:1: all three, B1+B2, B1+B3, B2+B3, B3 alone; each scout alone (1:2) is left out.
    assert offered(decision) == {"attack 0202 with B1 B2 B3", "attack 0202 with B1 B2", "attack 0202 with B1 B3",
                                 "attack 0202 with B2 B3", "attack 0202 with B3",
                                 "pass B1", "pass B2", "pass B3", "done"}


def touching(cell: str) -> set[str]:
    """The hexes next to ``cell`` on the 4 × 3 map, by the rule of its columns (even ones half a hex
    lower), worked out here and not by the board."""
    col, row = int(cell[:2]), int(cell[2:])
    rows = (row, row + 1) if col % 2 == 0 else (row - 1, row)
    found = {(col, row - 1), (col, row + 1), *((c, r) for c in (col - 1, col + 1) for r in rows)}
    return {f"{c:02d}{r:02d}" for c, r in found if 1 <= c <= 4 and 1 <= r <= 3}


def test_perft_every_placement_offers_the_groups_that_reach_the_odds(scenario):
    from itertools import combinations, permutations

    cells = [f"{c:02d}{r:02d}" for c in range(1, 5) for r in range(1, 4) if (c, r) != (2, 2)]
    attack = {"B1": 1, "B2": 1, "B3": 2}
    counted = 0
    for places in permutations(cells, 3):
        units = [Unit(uid, t, "blue", at) for (uid, t), at in zip((("B1", "scouts"), ("B2", "scouts"),
                                                                    ("B3", "rifles")), places)]
        near = sorted(u.id for u in units if u.location in touching("0202"))
        if not near:
            continue
        ctx = make(scenario, GUARDS, *units)
        # Blue moves first; its options: every group of the units next to the guards with 2 or more
        # attack (1:1 against defence 2), a pass for each of them, and done.
        groups = [g for n in range(1, len(near) + 1) for g in combinations(near, n)
                  if sum(attack[i] for i in g) >= 2]
        expected = {f"attack 0202 with {' '.join(g)}" for g in groups} | {f"pass {i}" for i in near} | {"done"}
        assert offered(first_decision(ctx, "assault")) == expected, places
        counted += len(expected)
    # By hand, over the 990 placements (6 of the 11 hexes touch the guards): a scout alone there,
    # 6·5·4 placements of 2 options each (pass, done), twice; the rifles alone, 120 of 3; both
    # scouts, 6·5·5 of 4; a scout and the rifles, 150 of 5, twice; all three, 120 of 9.
    assert counted == 2 * 240 + 360 + 600 + 2 * 750 + 1080 == 4020


def test_an_attack_below_the_minimum_is_refused_with_the_reason(scenario):
    from warbook.interpreter.actions import Action

    decision = first_decision(make(scenario, GUARDS, SCOUT1, SCOUT2, RIFLES), "assault")
    assert decision.why_not(Action.parse("attack 0202 with B1")) == \
        "the odds are below 1:1, the least an attack may be made at"


def test_without_the_lines_one_unit_or_all_at_any_odds(scenario):
    ctx = make(scenario, GUARDS, SCOUT1, SCOUT2, RIFLES)
    melee = ctx.rules.combats["melee"]
    plain = evolve(melee, model=evolve(melee.model, minimum_odds=None, from_zones=False, on_adjacent=False))
    leaders = [SCOUT1, SCOUT2, RIFLES]
    found, must = attack_options(ctx, plain, "blue", leaders, {u.id: ["0202"] for u in leaders})
    # All three together and each alone (a scout's 1:2 too); done; a pass each.  Listed in the
    # order ``choose`` sorts options in (a shorter group before a longer one it begins), so that
    # ``choose`` need not sort them again.
    assert [str(o) for o in found] == ["attack 0202 with B1", "attack 0202 with B1 B2 B3", "attack 0202 with B2",
                                       "attack 0202 with B3", "done", "pass B1", "pass B2", "pass B3"]
    assert tuple(found) == options_in_order(found)
    assert must == []


def test_a_defender_is_attacked_once_a_phase(scenario, monkeypatch):
    fixed_roll(monkeypatch, 3)  # 1:1, a 3: no effect
    ctx = make(scenario, GUARDS, SCOUT1, SCOUT2, RIFLES)
    flow = PROCEDURES["fight"](ctx, do_call(ctx.rules, "fight", "assault"))
    decisions = drive(flow, ["attack 0202 with B1 B2", "done"])
    # B3 may not attack the guards again: blue has nothing left to attack, and red is asked next:
    # the guards (2) may attack B1 or B2 (defence 1: 2:1) or B3 (2: 1:1), or pass.
    assert [d.side for d in decisions] == ["blue", "red"]
    assert offered(decisions[1]) == {"attack 0102 with R1", "attack 0201 with R1", "attack 0302 with R1",
                                     "pass R1", "done"}
    assert "defended" in ctx.state.unit("R1").spent and "attacked" not in ctx.state.unit("B3").spent


# --- mandatory attacks -----------------------------------------------------------------------------------


def test_units_in_an_enemy_zone_must_attack(scenario, monkeypatch):
    fixed_roll(monkeypatch, 3)  # no effect at 1:2 and 1:1
    ctx = make(scenario, GUARDS, SCOUT1, RIFLES, Unit("B2", "scouts", "blue", "0101"))
    flow = PROCEDURES["fight"](ctx, do_call(ctx.rules, "fight", "melee"))
    decisions = drive(flow, ["attack 0202 with B3", "attack 0202 with B1", "attack 0201 with R1"])
    # B1 and B3 stand in the guards' zone: no pass and no done.  Together (3:2), or each alone:
    # B1 1:2 (the minimum), B3 1:1.  B2 at 0101 touches no enemy and is not asked.
    assert offered(decisions[0]) == {"attack 0202 with B1 B3", "attack 0202 with B1", "attack 0202 with B3"}
    assert "B1, B3, 0202 must still attack or be attacked" in decisions[0].prompt
    # B3 has attacked; B1 is still in the zone and must attack too.
    assert offered(decisions[1]) == {"attack 0202 with B1"}
    # Then red: the guards are in the zones of B1 and B3 and must attack one of them.
    assert decisions[2].side == "red" and offered(decisions[2]) == {"attack 0201 with R1", "attack 0302 with R1"}


def test_every_adjacent_enemy_must_be_attacked(scenario):
    ctx = make(scenario, GUARDS, SCOUT1, RIFLES)
    melee = ctx.rules.combats["melee"]
    adjacent_only = evolve(melee, model=evolve(melee.model, from_zones=False))
    mine = {"B1": ["0202"], "B3": ["0202"]}
    found, must = attack_options(ctx, adjacent_only, "blue", [SCOUT1, RIFLES], mine)
    # The guards must be attacked: no done, and no pass for a unit that could attack them.
    assert must == ["0202"] and [str(o) for o in found] == ["attack 0202 with B1", "attack 0202 with B1 B3",
                                                           "attack 0202 with B3"]
    from warbook.interpreter.state import replace

    ctx.state = ctx.state.with_units([replace(ctx.state.unit("R1"), spent=frozenset({"defended"}))])
    found, must = attack_options(ctx, adjacent_only, "blue", [SCOUT1, RIFLES], mine)
    # Once attacked, the obligation is met: each may pass, and the side may stop.
    assert must == [] and [str(o) for o in found][-3:] == ["done", "pass B1", "pass B3"]


def test_an_attack_below_the_minimum_is_no_obligation(scenario):
    ctx = make(scenario, GUARDS, SCOUT1)
    melee = ctx.rules.combats["melee"]
    strict = evolve(melee, model=evolve(melee.model, minimum_odds=evolve(melee.model.minimum_odds, attack=1,
                                                                         defence=1, text="1:1")))
    found, must = attack_options(ctx, strict, "blue", [SCOUT1], {"B1": ["0202"]})
    # The scout alone makes 1:2, below 1:1: it has no attack, so it is bound to none and may pass.
    assert must == [] and [str(o) for o in found] == ["done", "pass B1"]


def test_attacks_are_declared_before_any_is_resolved(scenario, monkeypatch):
    fixed_roll(monkeypatch, 1)  # the first attack resolved eliminates the guards (1:1, a 1: DE)
    ctx = make(scenario, GUARDS, SCOUT1, RIFLES)
    flow = PROCEDURES["fight"](ctx, do_call(ctx.rules, "fight", "melee"))
    decisions = drive(flow, ["attack 0202 with B3", "attack 0202 with B1", "attack 0302 with R1"])
    said = [e["text"] for e in ctx.events if e["type"] == "event" and e.get("kind") in ("combat", "attack")]
    # Blue declares both attacks, red its own (the guards stand in the zones of B1 and B3), and only
    # then are they resolved, in player order: B3's eliminates the guards, so B1's is not made and
    # neither is the guards' own.
    assert [d.side for d in decisions] == ["blue", "blue", "red"]
    assert said[:3] == ["B3 Rifles will attack 0202", "B1 Scouts will attack 0202", "R1 Guards will attack 0302"]
    assert "B3 Rifles attack 0202" in said and "B1 Scouts attack 0202" not in said
    assert "the attack on 0202 is not made: no defender is left in place" in said
    assert "the attack on 0302 is not made: no attacker is left in place" in said
    assert ctx.state.unit("R1").location == ctx.rules.eliminated_box


# --- locking zones ---------------------------------------------------------------------------------------


def test_a_unit_in_a_locking_zone_does_not_move(scenario):
    ctx = make(scenario, GUARDS, SCOUT1, Unit("B2", "scouts", "blue", "0101"))
    ctx.state = evolve(ctx.state, phase="movement")
    flow = PROCEDURES["move"](ctx, do_call(ctx.rules, "move"))
    decisions = drive(flow, ["stay B2"])
    # B1 stands next to the guards and R1 next to B1: each in a zone that locks it, neither is asked.
    # B2 at 0101 is free: 0201 holds B1 (one unit a hex), and 0102, in the guards' zone, stops it.
    assert [d.prompt for d in decisions] == ["move B2 Scouts at 0101 (2 movement points)"]
    assert offered(decisions[0]) == {"move B2 0102", "stay B2"}


# --- whole games -----------------------------------------------------------------------------------------


def test_random_games_play_to_the_end_and_replay_alike():
    random_games_replay_alike(SCENARIO)


def test_greedy_games_play_to_the_end():
    for seed in (1, 2):
        assert greedy_game(SCENARIO, seed).is_over()


def test_play_narrates_the_attacks(capsys):
    code, out, _ = run_cli(capsys, "play", str(SCENARIO), "--seed", "1")
    # Turn 2's melee: blue declares two attacks on the guards at 0302, then resolves them; the
    # first eliminates the guards, so the second is not made.
    assert code == 0 and "  B3 Rifles will attack 0302\n  B1 Scouts will attack 0302\n" \
        "  Melee: blue has declared every attack; its 2 declared attacks are resolved\n  B3 Rifles attack 0302\n" in out
    assert "The attack on 0302 is not made: no defender is left in place" in out and "Result:" in out
