"""``do fire at aircraft with aa_hit when firers attack exceeds targets attack`` under the shipped
Several Klicks rules, checked by hand against the seed.

Seed text (FIRE AGAINST AIRCRAFT): "Aircraft may only be fired upon when dropping their payload or
boarding/unboarding troops.  Total up the attack factors of all units, if it exceeds the combined
air units attack factor the ground troops may open up. … To hit the aircraft roll D10: 1-2 = hit.
Roll again 1-2 = 1 unit KO, 3-7 = air units abandon mission (the LZ is too hot!) 8-10 = No effect."
MOVEMENT: "Transport choppers may have gunship escorts. … This will help protect them from ground
fire."  Attack factors (UNITS): Huey 1, Gunship 5, Obs Chopper 2; VC (Local) 1, VC (Mainforce) 2,
NVA 3.  Dummy markers have none.

Map: fixtures/spotting/klicks_map.toml.  The landing zone 0204 touches 0104, 0105, 0203, 0205,
0304 and 0305; 0207 is three hexes down the column from it.
"""

from pathlib import Path

import pytest
from attrs import evolve

from driving import do_call

from warbook.dsl.compiled.calls import compile_call
from warbook.dsl.conditions import parse_condition
from warbook.interpreter.actions import Action
from warbook.interpreter.conditions import Scope, holds
from warbook.interpreter.context import Context
from warbook.interpreter.procedures import PROCEDURES, load_procedures
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.rules import ELIMINATED
from warbook.interpreter.state import GameState, Unit

FIXTURES = Path(__file__).parent / "fixtures" / "spotting"
KLICKS = load_scenario(FIXTURES / "klicks.toml")
load_procedures()
FIRE = do_call(KLICKS.rules, "fire at aircraft")


def game_with(*units: Unit) -> Context:
    ctx = Context(KLICKS, seed=0)
    ctx.state = GameState(turn=1, phase="air_defence_phase", units=tuple(sorted(units)))
    return ctx


def run(ctx: Context, choices: tuple[str, ...] = ()) -> list:
    """Run the procedure, answering its decisions with ``choices``; returns the decisions asked."""
    flow = PROCEDURES["fire at aircraft"](ctx, FIRE)
    asked, answers = [], list(choices)
    try:
        decision = next(flow)
        while True:
            asked.append(decision)
            decision = flow.send(Action.parse(answers.pop(0)))
    except StopIteration:
        pass
    assert answers == []
    return asked


def texts(ctx: Context) -> list[str]:
    return [e["text"] for e in ctx.events if e["type"] == "event"]


def results(ctx: Context) -> list[str]:
    """The table results read, in order (the to-hit roll, then the effect roll after a hit)."""
    return [e["result"] for e in ctx.events if e["type"] == "event" and "result" in e]


def air(uid: str, at: str, type_: str = "huey", *flags: str) -> Unit:
    return Unit(uid, type_, "allies", at, turn_flags=frozenset(flags))


def vc(uid: str, at: str, type_: str = "vc_local") -> Unit:
    return Unit(uid, type_, "vc_nva", at, hidden=True, dummy=type_ == "dummy")


# --- who is fired on ---------------------------------------------------------------------------


def test_aircraft_that_did_not_drop_or_board_are_not_fired_on(dice):
    ctx = game_with(air("A1", "0204"), air("A2", "0304", "gunship"), vc("V1", "0205", "nva"))
    run(ctx)
    assert texts(ctx) == []


@pytest.mark.parametrize("flag", ["unboarded", "boarded", "bombarded"])
def test_aircraft_that_dropped_their_payload_or_boarded_are_fired_on(dice, flag):
    dice.append((10, 5))  # aa_hit 3-10: miss
    ctx = game_with(air("A1", "0204", "huey", flag), vc("V1", "0205", "nva"))
    run(ctx)
    assert results(ctx) == ["miss"]
    assert "fire at aircraft in 0204: rolled 5 on Fire against aircraft: to hit: Miss" in texts(ctx)
    assert ctx.state.unit("A1").location == "0204"


def test_a_bombarding_air_unit_is_fired_on_over_the_hex_it_bombarded(dice):
    # Bombardment does not move the air unit; its turn flag bombarded:0208 names the hex.
    dice.append((10, 4))
    ctx = game_with(air("A1", "0101", "gunship", "bombarded", "bombarded:0208"),
                    vc("V1", "0208", "nva"), vc("V2", "0308", "nva"), vc("V3", "0102", "nva"))
    run(ctx)  # V1 in the hex and V2 next to it: 6 exceeds 5; V3 is next to the gunship, not the hex
    assert "ground fire at A1 Gunship in 0208 from V1 (hidden), V2 (hidden)" in texts(ctx)


def test_ground_troops_in_the_bombarded_hex_fire(dice):
    dice.append((10, 9))
    ctx = game_with(air("A1", "0205", "gunship", "bombarded"), vc("V1", "0205", "nva"), vc("V2", "0205", "nva"))
    run(ctx)  # NVA 3 + NVA 3 = 6 exceeds the gunship's 5
    assert "ground fire at A1 Gunship in 0205 from V1 (hidden), V2 (hidden)" in texts(ctx)


def test_a_booby_trap_is_no_ground_troops(dice):
    # "Total up the attack factors of all units": a face-down booby trap next to the landing zone is
    # a marker, not troops, so it is not among the firers (before, it was named as one, which told
    # the allies it was no dummy).
    dice.append((10, 9))
    ctx = game_with(air("A1", "0205", "gunship", "bombarded"), vc("V1", "0205", "nva"), vc("V2", "0205", "nva"),
                    vc("T1", "0205", "booby_trap"))
    run(ctx)
    assert "ground fire at A1 Gunship in 0205 from V1 (hidden), V2 (hidden)" in texts(ctx)


def test_ground_troops_further_than_adjacent_do_not_fire(dice):
    ctx = game_with(air("A1", "0204", "huey", "unboarded"), vc("V1", "0207", "nva"))
    run(ctx)
    assert texts(ctx) == ["no ground fire at A1 Huey in 0204"]


# --- the attack totals (when firers attack exceeds targets attack) -----------------------------


def test_equal_totals_do_not_exceed_so_no_fire(dice):
    ctx = game_with(air("A1", "0204", "huey", "unboarded"), vc("V1", "0205"))
    run(ctx)  # VC (Local) 1 does not exceed Huey 1
    assert texts(ctx) == ["no ground fire at A1 Huey in 0204"]


def test_a_larger_total_opens_up(dice):
    dice.append((10, 10))
    ctx = game_with(air("A1", "0204", "huey", "unboarded"), vc("V1", "0205"), vc("V2", "0104", "vc_mainforce"))
    run(ctx)  # 1 + 2 = 3 exceeds 1
    assert "ground fire at A1 Huey in 0204 from V1 (hidden), V2 (hidden)" in texts(ctx)


def test_dummies_add_nothing_to_the_ground_total(dice):
    ctx = game_with(air("A1", "0204", "huey", "unboarded"), vc("V1", "0205"), vc("V2", "0203", "dummy"))
    run(ctx)  # 1 + 0 does not exceed 1
    assert texts(ctx) == ["no ground fire at A1 Huey in 0204"]


def test_a_gunship_escort_adds_its_attack_to_the_air_total(dice):
    ground = (vc("V1", "0205", "nva"), vc("V2", "0203", "vc_mainforce"))  # 3 + 2 = 5
    ctx = game_with(air("A1", "0204", "huey", "unboarded"), air("A2", "0204", "gunship"), *ground)
    run(ctx)  # 5 does not exceed Huey 1 + Gunship 5 = 6
    assert texts(ctx) == ["no ground fire at A1 Huey, A2 Gunship in 0204"]
    dice.append((10, 6))
    ctx = game_with(air("A1", "0204", "huey", "unboarded"), *ground)
    run(ctx)  # without the escort 5 exceeds 1
    assert "ground fire at A1 Huey in 0204 from V1 (hidden), V2 (hidden)" in texts(ctx)


def test_an_escort_in_another_hex_does_not_help(dice):
    dice.append((10, 6))
    ctx = game_with(air("A1", "0204", "huey", "unboarded"), air("A2", "0104", "gunship"),
                    vc("V1", "0205", "nva"), vc("V2", "0203", "vc_mainforce"))
    run(ctx)
    assert "ground fire at A1 Huey in 0204 from V1 (hidden), V2 (hidden)" in texts(ctx)


def test_each_hex_is_its_own_engagement(dice):
    dice.extend([(10, 4), (10, 7)])  # two misses, one roll per hex
    ctx = game_with(air("A1", "0204", "huey", "unboarded"), air("A2", "0208", "gunship", "bombarded"),
                    vc("V1", "0205", "nva"), vc("V2", "0208", "nva"), vc("V3", "0308", "nva"))
    run(ctx)
    assert [e["reason"] for e in ctx.events if e["type"] == "roll"] == [
        "Fire against aircraft: to hit (fire at aircraft in 0204)",
        "Fire against aircraft: to hit (fire at aircraft in 0208)"]


# --- the two d10 tables --------------------------------------------------------------------------


@pytest.mark.parametrize("to_hit", [3, 10])
def test_three_to_ten_misses_and_there_is_no_second_roll(dice, to_hit):
    dice.append((10, to_hit))
    ctx = game_with(air("A1", "0204", "huey", "unboarded"), vc("V1", "0205", "nva"))
    run(ctx)
    assert results(ctx) == ["miss"]  # no second roll: the dice fixture would fail on an unscripted one
    assert ctx.state.unit("A1").location == "0204"


@pytest.mark.parametrize("to_hit, effect", [(1, 1), (2, 2)])
def test_a_hit_then_one_or_two_knocks_out_the_only_aircraft(dice, to_hit, effect):
    dice.extend([(10, to_hit), (10, effect)])
    ctx = game_with(air("A1", "0204", "huey", "unboarded"), vc("V1", "0205", "nva"))
    assert run(ctx) == []  # one aircraft: nothing to choose
    assert ctx.state.unit("A1").location == ELIMINATED
    assert results(ctx) == ["hit", "KO"]


def test_the_owner_chooses_which_aircraft_is_knocked_out(dice):
    dice.extend([(10, 1), (10, 2)])
    ctx = game_with(air("A1", "0204", "huey", "unboarded"), air("A2", "0204", "gunship"),
                    vc("V1", "0205", "nva"), vc("V2", "0104", "nva"), vc("V3", "0203", "nva"))
    asked = run(ctx, ("lose A2",))  # 9 exceeds 6; the escort shares the transport's fate
    assert [(d.side, d.kind, [str(o) for o in d.options]) for d in asked] == [
        ("allies", "losses", ["lose A1", "lose A2"])]
    assert ctx.state.unit("A2").location == ELIMINATED and ctx.state.unit("A1").location == "0204"


@pytest.mark.parametrize("effect", [3, 7])
def test_three_to_seven_the_air_units_abandon_the_mission(dice, effect):
    dice.extend([(10, 2), (10, effect)])
    ctx = game_with(air("A1", "0204", "huey", "unboarded"), air("A2", "0204", "gunship"),
                    vc("V1", "0205", "nva"), vc("V2", "0104", "nva"), vc("V3", "0203", "nva"))
    run(ctx)
    assert results(ctx) == ["hit", "abort"]
    for uid in ("A1", "A2"):  # both abandon the mission: no longer exposed, nothing to carry back
        assert ctx.state.unit(uid).location == "0204" and not ctx.state.unit(uid).turn_flags
        assert f"{uid} {'Huey' if uid == 'A1' else 'Gunship'} abandons its mission (fire at aircraft in 0204)" \
            in texts(ctx)
    # The ground troops stay where they are, face down.
    assert all(ctx.state.unit(v).hidden and ctx.state.unit(v).on_map for v in ("V1", "V2", "V3"))


def drive_phase(ctx: Context, procedure: str, answers: list[str], *words: str) -> None:
    """Run the rulebook's first ``do PROCEDURE`` line (with ``words``), answering its decisions in order."""
    ctx.state = evolve(ctx.state, phase=next(d.name for d in KLICKS.rulebook.walk() if d.kind == "phase" and any(
        line.get("procedure") == procedure for line in d.all("do"))))
    flow = PROCEDURES[procedure](ctx, do_call(ctx.rules, procedure, *words))
    left = list(answers)
    try:
        decision = next(flow)
        while True:
            answer = Action.parse(left.pop(0))
            assert answer in decision.options, (str(answer), [str(o) for o in decision.options])
            decision = flow.send(answer)
    except StopIteration:
        pass
    assert left == []


@pytest.mark.parametrize("effect, landed", [(5, False), (9, True)])
def test_an_abandoned_mission_carries_the_landed_troops_back(dice, effect, landed):
    # FIRE AGAINST AIRCRAFT "3-7 = air units abandon mission (the LZ is too hot!)": the Huey sets US
    # Infantry down on the landing zone 0204 in the Move Phase; NVA (3) next to it outgun the Huey (1)
    # in the Air Defence Phase, hit, and turn it back: the troops are carried back to 0207, where they
    # boarded, and the Huey with them (the rulebook's gap on result abort).  8-10: they stay.
    ctx = game_with(air("A1", "0207"), Unit("A3", "us_infantry", "allies", "0207"), vc("V1", "0205", "nva"))
    drive_phase(ctx, "move", ["stay A3", "stay V1", "carry A1 A3", "move A1 0204", "stay A1"])
    assert ctx.state.unit("A3").location == ctx.state.unit("A1").location == "0204"
    dice.extend([(10, 1), (10, effect)])
    drive_phase(ctx, "fire at aircraft", [])
    assert results(ctx) == ["hit", "no_effect" if landed else "abort"]
    where = "0204" if landed else "0207"
    assert ctx.state.unit("A3").location == ctx.state.unit("A1").location == where
    if not landed:
        assert "A3 US Infantry* is carried back to 0207" in texts(ctx)
        assert "A1 Huey flies back to 0207" in texts(ctx)


@pytest.mark.parametrize("to_hit, effect, bombarded", [(2, 4, False), (5, None, True)])
def test_an_air_bombardment_is_made_after_the_fire_unless_the_mission_is_abandoned(dice, to_hit, effect, bombarded):
    # FIRE AGAINST AIRCRAFT "Aircraft may only be fired upon when dropping their payload": the gunship
    # flies to 0201 in the Bombardment Phase and drops its payload in the Air Defence Phase, after the
    # ground fire (NVA 3 + 3 exceed its 5).  Turned back (3-7), it bombards nothing; missed, it
    # bombards: 5 against NVA defend 4 in clear, 1:1; rolled 1, ½D: the one NVA is lost.
    ctx = game_with(air("A2", "0105", "gunship"), vc("V1", "0201", "nva"), vc("V2", "0202", "nva"))
    drive_phase(ctx, "bombard", ["bombard 0201 with A2"])
    assert ctx.state.rolls == 0 and "bombarded:0201" in ctx.state.unit("A2").turn_flags
    dice.append((10, to_hit))
    if effect is not None:
        dice.append((10, effect))
    if bombarded:
        dice.append((6, 1))
    drive_phase(ctx, "fire at aircraft", [])
    v1 = ctx.state.unit("V1")
    if bombarded:
        assert results(ctx)[:2] == ["miss", "½D"] and v1.location == ELIMINATED
    else:
        assert results(ctx) == ["hit", "abort"] and v1.location == "0201" and v1.hidden
        assert "A2 Gunship does not bombard 0201" in texts(ctx)
    assert not any(f.startswith("held") for f in ctx.state.unit("A2").turn_flags)


@pytest.mark.parametrize("effect", [8, 10])
def test_eight_to_ten_no_effect(dice, effect):
    dice.extend([(10, 1), (10, effect)])
    ctx = game_with(air("A1", "0204", "huey", "unboarded"), vc("V1", "0205", "nva"))
    run(ctx)
    assert ctx.state.unit("A1") == air("A1", "0204", "huey", "unboarded")
    assert results(ctx) == ["hit", "no_effect"]


# --- the condition, generically ------------------------------------------------------------------


def test_conditions_compare_factor_totals_of_the_roles():
    ctx = game_with()
    roles = {"firers": [vc("V1", "0205"), vc("V2", "0203", "dummy")], "targets": [air("A1", "0204")]}

    def fires(words: str) -> bool:
        condition = parse_condition(words.split(), ctx.rules.names)
        return holds(ctx, condition, Scope("vc", "0204", roles=roles))

    assert not fires("firers attack exceeds targets attack")  # 1 + 0 vs 1
    assert fires("firers attack at least targets attack")
    assert fires("firers attack equals targets attack")
    # The Huey's printed 'defend none' counts 0; VC (Local) defends 1.
    assert fires("targets defend below firers defend")
    assert fires("firers defend at most targets attack")


def test_an_unreadable_condition_stops_the_game_where_it_is_written():
    """The linter reports it (W508); a game that reaches the line stops with E805 at its place."""
    from warbook.dsl.diagnostics import RulesError

    line = evolve(FIRE.source, values=(*((k, v) for k, v in FIRE.source.values if k != "condition"),
                                       ("condition", ("firers", "outnumber", "targets"))))
    call = compile_call(line, KLICKS.rules.names)
    assert call.condition is None and call.condition_error is not None
    ctx = game_with(air("A1", "0204", "huey", "unboarded"), vc("V1", "0205", "nva"))
    with pytest.raises(RulesError) as info:
        list(PROCEDURES["fire at aircraft"](ctx, call))
    assert info.value.diagnostics[0].code == "E805"
    assert info.value.diagnostics[0].span == FIRE.source.span


def test_only_the_acting_side_fires_in_a_phase_that_has_one(dice):
    ctx = game_with(air("A1", "0204", "huey", "unboarded"), vc("V1", "0205", "nva"))
    ctx.acting = "allies"  # the allies' own phase: no VC fire, and allied aircraft are not the VC's to expose
    run(ctx)
    assert texts(ctx) == []
