"""Sea Lords battles: recon and the bounce, break-off, support markers, fire and every combat result.

Expected values are worked out by hand from the source (sections cited per test) and the
rulebook's printed tables: the Terrain Effects Chart, the CRT's printed cells (row 1: Z in every
column but 27+, which is R+Z; row 2: A in <1*, 1 and 2, K+B+A in 27+), the VP Table and the CP
Table.  Counter values are the rulebook's provisional ones (2.4 prints none): pbr firepower 1 /
recon 2, US infantry battalion 3 / 2, US mechanised battalion 4 / 2, Main Force battalion 4 / 2,
Communist HQ 1 / 2, airstrike 3, surveillance aircraft 0 / 3.

The test map (fixtures/sea_lords_battle/map.toml)::

             col 1  2  3  4  5  6
    row 1        H  c  c  c  c  c      H high seas, c coastal
    row 2        H  c  M  M  C  s      M major river, C city, s swamp
    row 3        .  .  M  .  t  s      t town, . other land
    row 4        .  .  m  .  .  .      m minor river

with water links along the coast, 0201-0202-0302-0402-0502 and 0301-0302-0303-0304.
"""

from fractions import Fraction
from pathlib import Path

import pytest
from attrs import evolve

from warbook.interpreter import combat, results
from driving import do_call, drive, options
from warbook.interpreter.context import Context
from warbook.interpreter.procedures import PROCEDURES, load_procedures
from warbook.interpreter.operation import Operation
from warbook.interpreter.options import with_options
from warbook.interpreter.procedures import battle, recon, support
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.rules import ELIMINATED
from warbook.interpreter.state import GameState, Unit

FIXTURE = Path(__file__).parent / "fixtures" / "sea_lords_battle" / "battle.toml"
FW, COM = "free_world", "communist"


@pytest.fixture(scope="module")
def scenario():
    load_procedures()
    return load_scenario(FIXTURE)


def do_line(scenario, procedure: str, step: str | None = None):
    """The sequence's ``do`` line that runs ``procedure`` (in ``step``, when given)."""
    return do_call(scenario.rules, procedure, step=step)


def air_support(scenario):
    """The air sub-phase's ``commit support`` line (airstrikes, naval gunfire, 17.2)."""
    return do_line(scenario, "commit support", "air_support")


def make(scenario, attacker: str, cell: str, force: list[str], *units: Unit, cp: int = 0,
         modifiers: tuple = ()) -> Context:
    ctx = Context(scenario, seed=0)
    resources = tuple(sorted((s, r, Fraction(v)) for s in (FW, COM) for r, v in (("cp", cp), ("vp", 0))))
    ctx.state = GameState(turn=1, phase="operation", units=tuple(sorted(units)), resources=resources,
                          turn_modifiers=modifiers)
    ctx.operation = Operation(attacker, force=list(force), cell=cell)
    ctx.acting = attacker
    return ctx


def run(flow, *answers: str) -> list:
    return drive(flow, answers)


def vp(ctx, side: str) -> Fraction:
    return ctx.state.resource(side, "vp")


def where(ctx, unit_id: str) -> str:
    return ctx.state.unit(unit_id).location


def column(ctx, firers, targets, *, firing: str, defending: str) -> str:
    decl = ctx.rules.combats["fire_combat"]
    return combat.find_column(ctx, decl, firers, targets, attacker_side=firing, defending_side=defending).label


# --- recon and the bounce (7.6 step 3, 10.1-10.2) ---------------------------------------------------


def test_tie_gives_the_defender_the_bounce(scenario, dice):
    """10.2: 'In the case of a tie, the defender has the bounce.'  Major river: recon attacker +1 (27.0).
    FW rolls 3 + pbr recon 2 + 1 = 6; the Communist rolls 4 + Main Force recon 2 = 6."""
    ctx = make(scenario, FW, "0302", ["F1"], Unit("F1", "pbr", FW, "0302"), Unit("C1", "main_force_bn", COM, "0302"))
    dice += [(6, 3), (6, 4)]
    decisions = run(recon.recon(ctx, do_line(scenario, "recon")), "fire first")
    op = ctx.operation
    assert [d.kind for d in decisions] == ["bounce"] and decisions[0].side == COM
    assert options(decisions[0]) == ["fire first", "break off"]
    assert (op.round, op.bounce, op.first_fire) == (1, COM, COM)
    assert op.recon_units == {FW: "F1", COM: "C1"}


def test_swamp_ambush_and_turn_modifier_add_to_the_communist_roll(scenario, dice):
    """Swamp: recon defender +1 (27.0); Ambush: +1 to the Communist recon roll (19.3, 10.2); the Tet turn-1
    +1 (25.10) as a turn modifier.  FW: 4 + 2 = 6.  Communist: 1 + 2 + 1 + 1 + 1 = 6, a tie: the defender's.
    Without the three modifiers the Communist would have 3 and FW the bounce.  The face-down
    Ambush is turned face up (10.1)."""
    ctx = make(scenario, FW, "0602", ["F1"], Unit("F1", "pbr", FW, "0602"),
               Unit("C1", "main_force_bn", COM, "0602", hidden=True), Unit("C2", "ambush", COM, "0602", hidden=True),
               modifiers=((COM, "roll:recon", 1),))
    dice += [(6, 4), (6, 1)]
    run(recon.recon(ctx, do_line(scenario, "recon")), "fire first")
    assert ctx.operation.bounce == COM
    assert not ctx.state.unit("C1").hidden and not ctx.state.unit("C2").hidden


def test_each_side_picks_its_recon_unit_and_a_surveillance_aircraft_may_be_picked(scenario, dice):
    """10.2: each player picks one unit of his force in the square; 17.6: a surveillance aircraft's recon value
    may be used when it is part of a larger force.  A marker without a printed recon value (Bunkers) is no pick.
    FW picks the aircraft: 2 + 3 + 1 (major river) = 6; the Communist picks C2: 2 + 2 = 4.  FW has the bounce."""
    ctx = make(scenario, FW, "0302", ["F1", "F2", "F3"], Unit("F1", "pbr", FW, "0302"),
               Unit("F2", "us_infantry_bn", FW, "0302"), Unit("F3", "surveillance_aircraft", FW, "0302"),
               Unit("C1", "com_hq", COM, "0302"), Unit("C2", "main_force_bn", COM, "0302"),
               Unit("C3", "bunkers", COM, "0302"))
    dice += [(6, 2), (6, 2)]
    decisions = run(recon.recon(ctx, do_line(scenario, "recon")), "recon F3", "recon C2", "fire first")
    assert [(d.side, d.kind) for d in decisions] == [(FW, "recon"), (COM, "recon"), (FW, "bounce")]
    assert options(decisions[0]) == ["recon F1", "recon F2", "recon F3"]
    assert options(decisions[1]) == ["recon C1", "recon C2"]
    assert ctx.operation.bounce == FW and ctx.operation.recon_units == {FW: "F3", COM: "C2"}


def test_deception_units_go_to_the_refit_box_when_revealed_and_score_nothing(scenario, dice):
    """10.6: deception units are removed to their side's Refit Box when revealed; never any VP.  With a
    Main Force battalion beside it the battle goes on: FW 6 + 2 + 1 = 9 against 1 + 2 = 3."""
    ctx = make(scenario, FW, "0302", ["F1"], Unit("F1", "pbr", FW, "0302"),
               Unit("C1", "deception_l", COM, "0302", hidden=True), Unit("C2", "main_force_bn", COM, "0302", hidden=True))
    dice += [(6, 6), (6, 1)]
    run(recon.recon(ctx, do_line(scenario, "recon")), "fire first")
    assert where(ctx, "C1") == "refit_box" and where(ctx, "C2") == "0302"
    assert vp(ctx, FW) == 0 and ctx.operation.recon_units[COM] == "C2"


def test_a_battle_against_deception_alone_ends_in_recon(scenario):
    """10.6 and 7.6: once the deception unit is gone only one side remains, so nothing is rolled."""
    ctx = make(scenario, FW, "0302", ["F1"], Unit("F1", "pbr", FW, "0302"),
               Unit("C1", "deception_r", COM, "0302", hidden=True))
    run(recon.recon(ctx, do_line(scenario, "recon")))
    assert where(ctx, "C1") == "refit_box" and ctx.operation.ended and vp(ctx, FW) == 0


# --- break off (10.3-10.5, 11.5 B) -------------------------------------------------------------------


def test_the_bounce_side_breaks_off_some_units_and_the_other_side_fires_first(scenario, dice):
    """10.3: R units break off one square by water into a square with no enemy units or markers; 10.4: some may
    stay; 10.5: any unit may go to the Refit Box instead.  The pbr's water neighbours of 0302 are 0202, 0301,
    0303 and 0402 (0402 holds a Communist marker).  FW: 6 + 2 + 1 = 9 against 1 + 2 = 3.  Reading (gap on
    fire_combat): the bounce spent on breaking off, the Communist fires first at the pbr that stayed."""
    ctx = make(scenario, FW, "0302", ["F1", "F2"], Unit("F1", "pbr", FW, "0302"), Unit("F2", "pbr", FW, "0302"),
               Unit("C1", "main_force_bn", COM, "0302"), Unit("C2", "bunkers", COM, "0402", hidden=True))
    dice += [(6, 6), (6, 1)]
    decisions = run(recon.recon(ctx, do_line(scenario, "recon")), "recon F1", "break off", "break-off F1 0301",
                    "done")
    first = decisions[2]
    assert first.kind == "break off" and "done" not in options(first)
    assert [o for o in options(first) if o.startswith("break-off F1")] == [
        "break-off F1 0202", "break-off F1 0301", "break-off F1 0303", "break-off F1 refit_box"]
    assert where(ctx, "F1") == "0301" and "broke off" in ctx.state.unit("F1").turn_flags
    op = ctx.operation
    assert op.force == ["F2"] and not op.ended and op.first_fire == COM


def test_when_the_whole_force_breaks_off_the_operation_ends(scenario, dice):
    """10.4: units that broke off from the attacking force end their operation."""
    ctx = make(scenario, FW, "0302", ["F1"], Unit("F1", "pbr", FW, "0302"), Unit("C1", "main_force_bn", COM, "0302"))
    dice += [(6, 6), (6, 1)]
    run(recon.recon(ctx, do_line(scenario, "recon")), "break off", "break-off F1 0303")
    assert where(ctx, "F1") == "0303" and ctx.operation.ended


def test_airmobile_units_break_off_to_a_logistical_base_lifting_land_units(scenario, dice):
    """10.3: A units break off to any friendly logistical base and may lift L units within their transport
    capacity.  The helicopter battalion (transport 3) may go only to 0503 (the US base) or the Refit Box; the
    infantry battalion (cost 2) may then follow it, the mechanised battalion (cost 4) only to the Refit Box."""
    ctx = make(scenario, FW, "0302", ["F1", "F2", "F3"], Unit("F1", "helicopter_bn", FW, "0302"),
               Unit("F2", "us_infantry_bn", FW, "0302"), Unit("F3", "us_mech_bn", FW, "0302"),
               Unit("F4", "us_log_base", FW, "0503"), Unit("F5", "pbr", FW, "0402"),
               Unit("C1", "main_force_bn", COM, "0302"))
    dice += [(6, 6), (6, 1)]
    decisions = run(recon.recon(ctx, do_line(scenario, "recon")), "recon F1", "break off", "break-off F1 0503",
                    "break-off F2 0503", "done")
    assert options(decisions[2]) == ["break-off F1 0503", "break-off F1 refit_box", "break-off F2 refit_box",
                                     "break-off F3 refit_box"]
    assert options(decisions[3]) == ["break-off F2 0503", "break-off F2 refit_box", "break-off F3 refit_box", "done"]
    assert (where(ctx, "F1"), where(ctx, "F2"), where(ctx, "F3")) == ("0503", "0503", "0302")
    assert ctx.operation.force == ["F3"] and not ctx.operation.ended


def test_a_b_result_breaks_off_every_target_but_markers(scenario):
    """11.5 B: all targeted units break off (10.3-10.5): the R unit by water, the L unit (no carrier) and the
    static base only to the Refit Box (10.5); Guerrilla markers never break off (10.4).  No VP (not a refit
    result)."""
    ctx = make(scenario, FW, "0302", ["F1"], Unit("F1", "pbr", FW, "0302"),
               Unit("C1", "main_force_bn", COM, "0302"), Unit("C2", "com_riverine", COM, "0302"),
               Unit("C3", "bunkers", COM, "0302"), Unit("C4", "com_log_base", COM, "0302"))
    decl = ctx.rules.combats["fire_combat"]
    here = [ctx.state.unit(i) for i in ("C1", "C2", "C3", "C4")]
    engagement = combat.Engagement(ctx, decl, [ctx.state.unit("F1")], here, FW, "test",
                                   combat.Battle("0302", COM))
    decisions = run(results.apply_result(ctx, "B", engagement), "break-off C2 0402", "break-off C1 refit_box",
                    "break-off C4 refit_box")
    assert options(decisions[0]) == [
        "break-off C1 refit_box", "break-off C2 0202", "break-off C2 0301", "break-off C2 0303", "break-off C2 0402",
        "break-off C2 refit_box", "break-off C4 refit_box"]
    assert all("done" not in options(d) for d in decisions)
    assert [where(ctx, u) for u in ("C1", "C2", "C3", "C4")] == ["refit_box", "0402", "0302", "refit_box"]
    assert vp(ctx, FW) == 0 and sorted(engagement.broke_off) == ["C1", "C2", "C4"]


# --- columns (11.2, 11.4, 27.0) --------------------------------------------------------------------


def test_fire_columns_by_total_and_shifts(scenario):
    """11.2: the column is the firing side's total firepower; 11.4: shifts summed; 27.0: city 2L, town 1L,
    swamp 1L only with the Communists defending, all for the defender's terrain; bunkers 1L when the
    Communists defend; 1R for the firer's HQ, CCB or Cadre in the square; <1* only when shifted into."""
    inf, pbr = Unit("F1", "us_infantry_bn", FW, "0502"), Unit("F2", "pbr", FW, "0502")
    main = Unit("C1", "main_force_bn", COM, "0502")
    ctx = make(scenario, FW, "0502", ["F1", "F2"], inf, pbr, main)
    # City, FW attacking: 3 + 1 = 4 is 4-5, 2L gives 2; the defender's return fire gets no shift.
    assert column(ctx, [inf, pbr], [main], firing=FW, defending=COM) == "2"
    assert column(ctx, [main], [inf, pbr], firing=COM, defending=COM) == "4-5"
    # Swamp: 1L when the Communists defend; nothing when the Free World defends.
    inf, main = Unit("F1", "us_infantry_bn", FW, "0602"), Unit("C1", "main_force_bn", COM, "0602")
    ctx = make(scenario, FW, "0602", ["F1"], inf, main)
    assert column(ctx, [inf], [main], firing=FW, defending=COM) == "2"
    assert column(ctx, [main], [inf], firing=COM, defending=FW) == "4-5"
    assert column(ctx, [inf], [main], firing=FW, defending=FW) == "3"
    # Major river (no combat effect): bunkers 1L only against fire at defending Communists; an HQ 1R.
    inf, main = Unit("F1", "us_infantry_bn", FW, "0302"), Unit("C1", "main_force_bn", COM, "0302")
    ctx = make(scenario, FW, "0302", ["F1"], inf, main, Unit("C2", "bunkers", COM, "0302"),
               Unit("C3", "com_hq", COM, "0302"))
    assert column(ctx, [inf], [main], firing=FW, defending=COM) == "2"
    assert column(ctx, [inf], [main], firing=FW, defending=FW) == "3"
    assert column(ctx, [main], [inf], firing=COM, defending=COM) == "6-7"
    # A CCB helps the Free World fire.
    ctx = make(scenario, FW, "0302", ["F1"], inf, main, Unit("F3", "ccb", FW, "0302"))
    assert column(ctx, [inf], [main], firing=FW, defending=COM) == "4-5"
    # Firepower 1 is column 1; a town's 1L moves it into <1*.
    pbr, main = Unit("F2", "pbr", FW, "0503"), Unit("C1", "main_force_bn", COM, "0503")
    ctx = make(scenario, FW, "0503", ["F2"], pbr, main)
    assert column(ctx, [pbr], [main], firing=FW, defending=FW) == "1"
    assert column(ctx, [pbr], [main], firing=FW, defending=COM) == "<1*"


# --- fire: first fire, survivors, the recon unit first into the Refit Box (11.3, 11.7) --------------


def test_first_fire_then_the_other_side_fires_with_its_survivors(scenario, dice):
    """11.3: the side with first fire fires and losses are taken before the other side fires.  FW: seven
    mechanised battalions, 28 firepower, column 27+; roll 1: R+Z (27.0).  R: the Communist recon unit C1 is the
    first into the Refit Box (11.7); Z: FW's recon unit F1 likewise.  The Communist survivor C2 fires alone:
    4 is column 4-5; roll 1: Z, C2 to the Refit Box, and the battle is over.
    VP (27.0): FW +1 per Main Force battalion refitted (2); Communist +2 for the US unit refitted."""
    mechs = [Unit(f"F{n}", "us_mech_bn", FW, "0302") for n in range(1, 8)]
    ctx = make(scenario, FW, "0302", [u.id for u in mechs], *mechs,
               Unit("C1", "main_force_bn", COM, "0302"), Unit("C2", "main_force_bn", COM, "0302"))
    ctx.operation.recon_units = {FW: "F1", COM: "C1"}
    ctx.operation.first_fire = FW
    dice += [(6, 1), (6, 1)]
    run(battle.resolve_fire(ctx, do_line(scenario, "resolve fire")))
    assert where(ctx, "C1") == "refit_box" and where(ctx, "F1") == "refit_box" and where(ctx, "C2") == "refit_box"
    columns = [e["column"] for e in ctx.events if e.get("kind") == "combat" and "column" in e]
    assert columns == ["27+", "4-5"]
    assert (vp(ctx, FW), vp(ctx, COM)) == (2, 2)
    assert ctx.operation.ended


def test_the_recon_unit_is_the_first_into_the_refit_box_unless_it_was_a_surveillance_aircraft(scenario, dice):
    """11.7: the first unit placed in the Refit Box must be the recon unit, except a Free World surveillance
    aircraft.  FW fires 1 + 3 = 4 (4-5); roll 1: Z, one firing unit to the Refit Box: the owner chooses,
    since the aircraft rolled recon.  The Communist's return fire: 4 + 4 = 8 (8-9), roll 1, Z: C1, its recon
    unit, without a choice."""
    ctx = make(scenario, FW, "0302", ["F1", "F2", "F3"], Unit("F1", "pbr", FW, "0302"),
               Unit("F2", "us_infantry_bn", FW, "0302"), Unit("F3", "surveillance_aircraft", FW, "0302"),
               Unit("C1", "main_force_bn", COM, "0302"), Unit("C2", "main_force_bn", COM, "0302"))
    ctx.operation.recon_units = {FW: "F3", COM: "C1"}
    ctx.operation.first_fire = FW
    dice += [(6, 1), (6, 1)]
    decisions = run(battle.resolve_fire(ctx, do_line(scenario, "resolve fire")), "lose F2")
    assert [(d.side, d.kind) for d in decisions] == [(FW, "losses")]
    assert options(decisions[0]) == ["lose F1", "lose F2", "lose F3"]
    assert where(ctx, "F2") == "refit_box" and where(ctx, "C1") == "refit_box" and where(ctx, "C2") == "0302"
    assert (vp(ctx, FW), vp(ctx, COM)) == (1, 2)
    assert not ctx.operation.ended


# --- each result (11.5, 11.6) and its VP (27.0) --------------------------------------------------------


def engage(ctx, firers, targets, firing, defending, first_refit=None):
    decl = ctx.rules.combats["fire_combat"]
    units = lambda ids: [ctx.state.unit(i) for i in ids]
    return combat.Engagement(ctx, decl, units(firers), units(targets), firing, "test",
                             combat.Battle(ctx.operation.cell, defending, dict(first_refit or {})))


def test_r_refits_one_target_chosen_by_its_owner(scenario):
    """R: one targeted unit to the Refit Box (11.5), the owner's choice (11.7).  FW VP: 2 for a Communist HQ."""
    ctx = make(scenario, FW, "0302", ["F1"], Unit("F1", "pbr", FW, "0302"), Unit("C1", "com_hq", COM, "0302"),
               Unit("C2", "main_force_bn", COM, "0302"))
    decisions = run(results.apply_result(ctx, "R", engage(ctx, ["F1"], ["C1", "C2"], FW, COM)), "lose C1")
    assert decisions[0].side == COM and where(ctx, "C1") == "refit_box" and where(ctx, "C2") == "0302"
    assert vp(ctx, FW) == 2


def test_k_eliminates_one_target(scenario):
    """K: one targeted unit eliminated (11.5), out of play (13.3).  Communist VP: 6 for an ARVN division."""
    ctx = make(scenario, COM, "0503", ["C1"], Unit("C1", "main_force_bn", COM, "0503"),
               Unit("A1", "arvn_infantry_div", FW, "0503"), Unit("A2", "ranger_bn", FW, "0503"))
    run(results.apply_result(ctx, "K", engage(ctx, ["C1"], ["A1", "A2"], COM, FW)), "lose A1")
    assert where(ctx, "A1") == ELIMINATED and vp(ctx, COM) == 6


def test_k_plus_r_eliminates_one_and_refits_another(scenario):
    """K + R: eliminate one targeted unit, one *other* to the Refit Box.  Communist VP: 4 for the US unit
    eliminated, 2 for the US unit refitted."""
    ctx = make(scenario, COM, "0302", ["C1"], Unit("C1", "main_force_bn", COM, "0302"),
               Unit("F1", "us_infantry_bn", FW, "0302"), Unit("F2", "pbr", FW, "0302"))
    decisions = run(results.apply_result(ctx, "K+R", engage(ctx, ["C1"], ["F1", "F2"], COM, FW)), "lose F1")
    assert len(decisions) == 1  # the one left is the other unit
    assert where(ctx, "F1") == ELIMINATED and where(ctx, "F2") == "refit_box" and vp(ctx, COM) == 6


def test_2k_eliminates_two_and_deception_scores_nothing(scenario):
    """2K: two targeted units eliminated.  FW VP: 2 for the Main Force battalion, 0 for a deception unit."""
    ctx = make(scenario, FW, "0302", ["F1"], Unit("F1", "pbr", FW, "0302"), Unit("C1", "deception_l", COM, "0302"),
               Unit("C2", "main_force_bn", COM, "0302"))
    run(results.apply_result(ctx, "2K", engage(ctx, ["F1"], ["C1", "C2"], FW, COM)))
    assert where(ctx, "C1") == ELIMINATED and where(ctx, "C2") == ELIMINATED and vp(ctx, FW) == 2


def test_a_refits_the_firers_airstrike_and_z_a_firing_unit(scenario):
    """A: one airstrike or surveillance marker to the Refit Box (the firer's: gap on result A); Communist VP 1
    per airstrike.  Z: one firing unit to the Refit Box; Communist VP 2 for a US unit."""
    ctx = make(scenario, FW, "0302", ["F1"], Unit("F1", "pbr", FW, "0302"), Unit("F2", "airstrike", FW, "0302"),
               Unit("C1", "main_force_bn", COM, "0302"))
    run(results.apply_result(ctx, "A", engage(ctx, ["F1", "F2"], ["C1"], FW, COM)))
    assert where(ctx, "F2") == "refit_box" and where(ctx, "F1") == "0302" and vp(ctx, COM) == 1
    run(results.apply_result(ctx, "A", engage(ctx, ["F1"], ["C1"], FW, COM)))
    assert where(ctx, "F1") == "0302"
    run(results.apply_result(ctx, "Z", engage(ctx, ["F1"], ["C1"], FW, COM)))
    assert where(ctx, "F1") == "refit_box" and vp(ctx, COM) == 3


def test_a_compound_result_applies_its_parts_in_order(scenario):
    """11.6: K+B+A (27+, roll 2): K eliminates one target, B breaks off the rest, A refits an airstrike."""
    ctx = make(scenario, FW, "0302", ["F1"], Unit("F1", "pbr", FW, "0302"), Unit("F2", "airstrike", FW, "0302"),
               Unit("C1", "main_force_bn", COM, "0302"), Unit("C2", "com_riverine", COM, "0302"))
    run(results.apply_result(ctx, "K+B+A", engage(ctx, ["F1", "F2"], ["C1", "C2"], FW, COM)), "lose C1",
        "break-off C2 0303")
    assert (where(ctx, "C1"), where(ctx, "C2"), where(ctx, "F2")) == (ELIMINATED, "0303", "refit_box")
    assert (vp(ctx, FW), vp(ctx, COM)) == (2, 1)


def test_markers_taken_as_losses_only_as_the_rules_allow(scenario):
    """11.9: Guerrilla markers are no loss while non-marker units are available; naval gunfire never; airstrikes
    only on A or Z.  17.5: Arc-Lights never.  18.4: sensors never."""
    ctx = make(scenario, FW, "0302", [], Unit("C1", "main_force_bn", COM, "0302"), Unit("C2", "bunkers", COM, "0302"),
               Unit("F1", "airstrike", FW, "0302"), Unit("F2", "naval_gunfire", FW, "0302"),
               Unit("F3", "arc_light", FW, "0302"), Unit("F4", "sensor", FW, "0302"), Unit("F5", "pbr", FW, "0302"))
    ids = lambda units: [u.id for u in units]
    unit = ctx.state.unit
    assert ids(results.loss_candidates(ctx, [unit("C1"), unit("C2")], "K")) == ["C1"]
    assert ids(results.loss_candidates(ctx, [unit("C2")], "K")) == ["C2"]
    fw = [unit(i) for i in ("F1", "F2", "F3", "F4", "F5")]
    assert ids(results.loss_candidates(ctx, fw, "K")) == ["F5"]
    assert ids(results.loss_candidates(ctx, fw, "Z")) == ["F1", "F5"]
    assert ids(results.loss_candidates(ctx, fw, "A")) == ["F1", "F5"]


# --- Guerrilla markers in a battle (11.9, 19.3) -----------------------------------------------------------


def test_guerrilla_markers_fire_and_leave_after_the_first_round(scenario, dice):
    """11.2: Guerrilla markers add their firepower; 19.3 Arms Cache: +1 to the first Communist fire roll;
    11.9: Guerrilla markers go to the Refit Box after the first round (no VP: not a combat result).
    FW (first fire): its force's pbr 1 (the second pbr is not in the force, 11.1), bunkers 1L against defending
    Communists: <1*; roll 2: A, but FW fires with no airstrike, so nothing.  Communist: supply junk 0 + Arms
    Cache 1 + Bunkers 1 = 2 (column 2); roll 1 + 1 = 2: A, nothing again.  Then both markers leave and the
    battle goes on."""
    ctx = make(scenario, FW, "0302", ["F1"], Unit("F1", "pbr", FW, "0302"), Unit("F2", "pbr", FW, "0302"),
               Unit("C1", "supply_junk", COM, "0302"), Unit("C2", "arms_cache", COM, "0302"),
               Unit("C3", "bunkers", COM, "0302"))
    ctx.operation.recon_units = {FW: "F1", COM: "C1"}
    ctx.operation.first_fire = FW
    dice += [(6, 2), (6, 1)]
    run(battle.resolve_fire(ctx, do_line(scenario, "resolve fire")))
    fired = [e for e in ctx.events if e.get("kind") == "combat" and "column" in e]
    assert [e["column"] for e in fired] == ["<1*", "2"]
    assert [(e["roll"], e["modified"]) for e in ctx.events if "modified" in e] == [(2, 2), (1, 2)]
    assert where(ctx, "F1") == "0302" and where(ctx, "C1") == "0302"
    assert where(ctx, "C2") == "refit_box" and where(ctx, "C3") == "refit_box"
    assert (vp(ctx, FW), vp(ctx, COM)) == (0, 0) and not ctx.operation.ended
    assert "used:fire roll" in ctx.state.unit("C2").turn_flags


def test_civilians_score_when_the_free_world_fires_in_their_square(scenario, dice):
    """19.3 Civilians: if the Free World conducts any combat in the square, the Communist player receives two VP
    and the marker is removed.  FW: two pbrs, 2 (column 2), roll 1: Z, one pbr; the Communist fires 4 (4-5),
    roll 1: Z, the Main Force battalion (FW +1)."""
    ctx = make(scenario, FW, "0302", ["F1"], Unit("F1", "pbr", FW, "0302"), Unit("F2", "pbr", FW, "0302"),
               Unit("C1", "main_force_bn", COM, "0302"), Unit("C2", "civilians", COM, "0302"))
    ctx.operation.force = ["F1", "F2"]
    ctx.operation.first_fire = FW
    dice += [(6, 1), (6, 1)]
    run(battle.resolve_fire(ctx, do_line(scenario, "resolve fire")), "lose F1")
    assert where(ctx, "C2") == ELIMINATED and where(ctx, "C1") == "refit_box"
    assert vp(ctx, COM) == 2 + 2 and vp(ctx, FW) == 1  # the civilians and the US pbr refitted; the battalion


# --- support markers (7.6 step 4, 17.2-17.5) ------------------------------------------------------------


def test_committing_support_markers(scenario):
    """17.2: each airstrike or naval gunfire marker once per turn, 1 CP each (CP Table); 17.4: naval gunfire only
    into or beside coastal squares (0302 is beside 0301); 17.5: no Arc-Light into a square with friendly units.
    Only one marker per type is offered (they are alike); F9 was used this turn."""
    set_aside = [Unit("F5", "airstrike", FW, "set_aside"), Unit("F6", "airstrike", FW, "set_aside"),
                 Unit("F7", "naval_gunfire", FW, "set_aside"), Unit("F8", "arc_light", FW, "set_aside"),
                 Unit("F9", "airstrike", FW, "set_aside", turn_flags=frozenset({"committed"}))]
    ctx = make(scenario, FW, "0302", ["F1"], Unit("F1", "pbr", FW, "0302"), Unit("C1", "main_force_bn", COM, "0302"),
               *set_aside, cp=2)
    decisions = run(support.commit_support(ctx, air_support(scenario)), "commit F5", "commit F7")
    assert options(decisions[0]) == ["commit F5", "commit F7", "done"]
    assert options(decisions[1]) == ["commit F6", "commit F7", "done"]
    assert ctx.state.resource(FW, "cp") == 0  # then nothing is affordable: no third question
    assert where(ctx, "F5") == "0302" and where(ctx, "F7") == "0302" and ctx.operation.support == ["F5", "F7"]
    assert "committed" in ctx.state.unit("F5").turn_flags
    # Away from the coast (0503's neighbours hold no coastal square) naval gunfire is not offered.
    ctx = make(scenario, FW, "0503", ["F1"], Unit("F1", "pbr", FW, "0503"), Unit("C1", "main_force_bn", COM, "0503"),
               *set_aside, cp=5)
    decisions = run(support.commit_support(ctx, air_support(scenario)), "done")
    assert options(decisions[0]) == ["commit F5", "done"]


def test_a_committed_airstrike_fires_in_one_round_and_another_may_join_the_next(scenario, dice):
    """17.2: "An airstrike or naval gunfire marker may be used once per game turn … He could commit both
    airstrikes immediately to that combat, where they would be used in the first round of Free World fire.
    Or he could commit one to the first round of fire and hold off using the second until the second, or
    later, round of firing."  Read (a gap: 11.9 removes them at the end of the Operations Phase) as one
    round of fire per commitment.  Recon FW 3 + pbr 2 + major river 1 = 6 against 4 + 2 = 6: a tie, the
    Communist fires first: 4 (4-5), roll 3: NE; FW pbr 1 + airstrike 3 = 4 (4-5), roll 3: NE."""
    ctx = make(scenario, FW, "0302", ["F1"], Unit("F1", "pbr", FW, "0302"), Unit("F5", "airstrike", FW, "set_aside"),
               Unit("F6", "airstrike", FW, "set_aside"), Unit("C1", "main_force_bn", COM, "0302"), cp=2)
    run(support.commit_support(ctx, air_support(scenario)), "commit F5", "done")
    dice += [(6, 3), (6, 4), (6, 3), (6, 3)]
    run(recon.recon(ctx, do_line(scenario, "recon")), "fire first")
    run(battle.resolve_fire(ctx, do_line(scenario, "resolve fire")))
    assert [e["units"] for e in ctx.events if e.get("kind") == "attack"] == [["C1"], ["F1", "F5"]]
    # Its round fought, F5 is set aside, used for the turn; the second round may have the other one.
    assert where(ctx, "F5") == "set_aside" and "committed" in ctx.state.unit("F5").turn_flags
    decisions = run(support.commit_support(ctx, air_support(scenario)), "commit F6")
    assert options(decisions[0]) == ["commit F6", "done"]
    assert where(ctx, "F6") == "0302" and ctx.state.resource(FW, "cp") == 0


def designate(ctx, side, *answers):
    """Run the operation's ``designate force`` for ``side`` (no battle yet), answering in order."""
    ctx.operation = Operation(side)
    ctx.acting = side
    return run(PROCEDURES["designate force"](ctx, do_line(ctx.scenario, "designate force", "force_designation")),
               *answers)


def test_a_strike_by_markers_alone_pays_once_and_commits_any_number(scenario):
    """17.4: airstrikes and naval gunfire may attack by themselves, as an operation costing the designated CP
    (the CP Table's 1), and any number of markers may then attack the square for that single expenditure.
    Naval gunfire only into or beside coastal squares: 0603 is not, 0602 is (beside 0601).  17.6: never a
    surveillance aircraft alone.  The first marker must be committed (a strike is of markers); F6 is then
    free.  Only cells holding enemy counters are offered; the pbr's own operation (2 CP) is unaffordable."""
    ctx = make(scenario, FW, "0603", [], Unit("F1", "pbr", FW, "0302"), Unit("F3", "surveillance_aircraft", FW,
               "set_aside"), Unit("F5", "airstrike", FW, "set_aside"), Unit("F6", "airstrike", FW, "set_aside"),
               Unit("F7", "naval_gunfire", FW, "set_aside"), Unit("C1", "main_force_bn", COM, "0602", hidden=True),
               Unit("C2", "main_force_bn", COM, "0603", hidden=True), cp=1)
    decisions = designate(ctx, FW, "strike 0603", "commit F5", "commit F6")
    assert options(decisions[0]) == ["pass", "strike 0602", "strike 0603"]
    assert options(decisions[1]) == ["commit F5"] and options(decisions[2]) == ["commit F6", "done"]
    op = ctx.operation
    assert (op.mode, op.cell, op.force, op.support) == ("strike", "0603", [], ["F5", "F6"])
    assert ctx.state.resource(FW, "cp") == 0 and where(ctx, "F6") == "0603"
    # Beside the coast naval gunfire may strike too; with no CP left no strike is offered at all.
    ctx = make(scenario, FW, "0602", [], Unit("F5", "airstrike", FW, "set_aside"),
               Unit("F7", "naval_gunfire", FW, "set_aside"), Unit("C1", "main_force_bn", COM, "0602"), cp=1)
    decisions = designate(ctx, FW, "strike 0602", "commit F7", "done")
    assert options(decisions[1]) == ["commit F5", "commit F7"]
    ctx = make(scenario, FW, "0602", [], Unit("F5", "airstrike", FW, "set_aside"),
               Unit("C1", "main_force_bn", COM, "0602"), cp=0)
    assert options(designate(ctx, FW, "pass")[0]) == ["pass"]


def test_arc_light_never_strikes_a_square_with_friendly_units(scenario):
    """17.5: Arc-Lights can't attack squares containing any friendly units.  A face-down Communist marker shares
    0302 with a Free World pbr: an airstrike may strike it, an Arc-Light may not."""
    ctx = make(scenario, FW, "0302", [], Unit("F1", "pbr", FW, "0302"), Unit("F8", "arc_light", FW, "set_aside"),
               Unit("C1", "ambush", COM, "0302", hidden=True), cp=1)
    assert options(designate(ctx, FW, "pass")[0]) == ["pass"]
    ctx = make(scenario, FW, "0302", [], Unit("F1", "pbr", FW, "0302"), Unit("F5", "airstrike", FW, "set_aside"),
               Unit("F8", "arc_light", FW, "set_aside"), Unit("C1", "ambush", COM, "0302", hidden=True), cp=1)
    decisions = designate(ctx, FW, "strike 0302", "commit F5")
    assert options(decisions[1]) == ["commit F5"]


def test_a_strike_rolls_no_recon_fires_one_round_and_the_markers_go_back(scenario, dice):
    """17.4: no recon (nothing is turned face up; FW fires first); losses are otherwise inflicted normally.
    Two airstrikes (3 + 3 = 6) into the swamp with the Communists defending: 1L, column 4-5.  Roll 1: Z, an
    airstrike (a firing unit; 11.9: airstrikes are lost only on A or Z) to the Refit Box, Communist +1 VP.  The
    hidden Main Force battalion fires back with 4 (4-5, no shift for the defender's fire), roll 3: NE.  One
    round, then the battle is over and the other airstrike is set aside, used for the turn.  No reaction
    move joins a strike ("no other units participating"), though an air cavalry battalion could afford one."""
    ctx = make(scenario, FW, "0603", [], Unit("F5", "airstrike", FW, "set_aside"),
               Unit("F6", "airstrike", FW, "set_aside"), Unit("F2", "air_cav_bn", FW, "0503"),
               Unit("F9", "us_log_base", FW, "0503"), Unit("C2", "main_force_bn", COM, "0603", hidden=True), cp=5)
    designate(ctx, FW, "strike 0603", "commit F5", "commit F6")
    assert run(recon.recon(ctx, do_line(scenario, "recon"))) == []
    op = ctx.operation
    assert (op.round, op.first_fire, op.recon_units) == (1, FW, {}) and ctx.state.unit("C2").hidden
    assert run(support.commit_support(ctx, air_support(scenario))) == []
    assert run(PROCEDURES["designate force"](ctx, do_line(scenario, "designate force", "air_support"))) == []
    dice += [(6, 1), (6, 3)]
    run(battle.resolve_fire(ctx, do_line(scenario, "resolve fire")), "lose F5")
    assert [e["column"] for e in ctx.events if e.get("kind") == "combat" and "column" in e] == ["4-5", "4-5"]
    assert (where(ctx, "F5"), where(ctx, "F6"), where(ctx, "C2")) == ("refit_box", "set_aside", "0603")
    assert vp(ctx, COM) == 1 and vp(ctx, FW) == 0 and ctx.state.resource(FW, "cp") == 4
    assert op.ended and op.support == [] and "committed" in ctx.state.unit("F6").turn_flags


def test_a_strike_reveals_what_it_eliminates(scenario, dice):
    """17.4: any eliminated/refit units must be revealed in order to confirm the VP.  An Arc-Light (6) into the
    swamp: 1L, 4-5; roll 5: K, the face-down Main Force battalion is eliminated and shown: FW +2 (VP Table).
    With no Communist unit left there is no return fire."""
    ctx = make(scenario, FW, "0603", [], Unit("F8", "arc_light", FW, "set_aside"),
               Unit("C2", "main_force_bn", COM, "0603", hidden=True), cp=1)
    designate(ctx, FW, "strike 0603", "commit F8")
    run(recon.recon(ctx, do_line(scenario, "recon")))
    dice += [(6, 5)]
    run(battle.resolve_fire(ctx, do_line(scenario, "resolve fire")))
    assert where(ctx, "C2") == ELIMINATED and vp(ctx, FW) == 2
    assert any("main_force_bn" in str(e.get("message", "")) or e.get("unit_type") == "main_force_bn"
               for e in ctx.events if e.get("unit") == "C2")
    assert where(ctx, "F8") == "set_aside" and ctx.operation.ended


def play_markers(scenario):
    """The recon step's ``commit support`` line: Ace and People's Hero, by each side (16.4)."""
    return do_line(scenario, "commit support", "recon")


def test_ace_and_peoples_hero_are_played_into_a_battle_for_one_round(scenario, dice):
    """16.4: a picked Ace or People's Hero is set off to the side and played during any battle: +1 to the recon
    roll and the CRT column one to the right when firing; after one combat round it returns to the pool.
    Each side is offered the play, the attacker first, at no CP.  Recon on the major river (attacker +1):
    FW 3 + pbr 2 + 1 + Ace 1 = 7, Communist 4 + 2 + People's Hero 1 = 7, a tie: the defender fires first.
    Communist 4 (4-5) + 1R = 6-7, roll 3: NE; FW pbr 1 (column 1) + 1R = 2, roll 3: NE."""
    ctx = make(scenario, FW, "0302", ["F1"], Unit("F1", "pbr", FW, "0302"), Unit("F4", "ace", FW, "set_aside"),
               Unit("C1", "main_force_bn", COM, "0302"), Unit("C9", "peoples_hero", COM, "set_aside"))
    decisions = run(support.commit_support(ctx, play_markers(scenario)), "commit F4", "commit C9")
    assert [(d.side, options(d)) for d in decisions] == [(FW, ["commit F4", "done"]), (COM, ["commit C9", "done"])]
    assert where(ctx, "F4") == "0302" and where(ctx, "C9") == "0302" and ctx.state.resource(FW, "cp") == 0
    dice += [(6, 3), (6, 4)]
    run(recon.recon(ctx, do_line(scenario, "recon")), "fire first")
    assert ctx.operation.bounce == COM
    dice += [(6, 3), (6, 3)]
    run(battle.resolve_fire(ctx, do_line(scenario, "resolve fire")))
    assert [e["column"] for e in ctx.events if e.get("kind") == "combat" and "column" in e] == ["6-7", "2"]
    assert where(ctx, "F4") == "reinforcement_pool" and where(ctx, "C9") == "reinforcement_pool"
    assert where(ctx, "F1") == "0302" and where(ctx, "C1") == "0302"


def test_an_ace_played_in_a_round_that_ends_in_a_break_off_still_returns_to_the_pool(scenario, dice):
    """16.4: after being used in one combat round the marker is returned to the reinforcement pool.  FW 3 + pbr 2
    + major river 1 + Ace 1 = 7 against 1 + 2 = 3: FW has the bounce and breaks off (10.2); the battle is over
    in the recon step, and the Ace, its +1 used, goes to the pool, not back to be played again."""
    ctx = make(scenario, FW, "0302", ["F1"], Unit("F1", "pbr", FW, "0302"), Unit("F4", "ace", FW, "set_aside"),
               Unit("C1", "main_force_bn", COM, "0302"))
    run(support.commit_support(ctx, play_markers(scenario)), "commit F4")
    dice += [(6, 3), (6, 1)]
    run(recon.recon(ctx, do_line(scenario, "recon")), "break off", "break-off F1 0301")
    assert ctx.operation.ended and where(ctx, "F1") == "0301"
    assert where(ctx, "F4") == "reinforcement_pool"


def test_an_ace_may_join_a_strike_but_a_peoples_hero_may_not_oppose_one(scenario):
    """17.4: an Ace marker may be played in conjunction with such attacks, but a People's Hero marker may not."""
    ctx = make(scenario, FW, "0603", [], Unit("F4", "ace", FW, "set_aside"), Unit("F5", "airstrike", FW, "set_aside"),
               Unit("C2", "main_force_bn", COM, "0603"), Unit("C9", "peoples_hero", COM, "set_aside"), cp=1)
    designate(ctx, FW, "strike 0603", "commit F5")
    decisions = run(support.commit_support(ctx, play_markers(scenario)), "commit F4")
    assert [(d.side, options(d)) for d in decisions] == [(FW, ["commit F4", "done"])]
    assert where(ctx, "C9") == "set_aside"


def test_the_air_sub_phase_does_not_offer_an_ace_at_an_airstrikes_price(scenario):
    """The CP Table prices airstrike and naval gunfire markers at 1 CP; 16.4 plays an Ace for nothing, in its own
    line, so the air sub-phase's line (which names its markers) leaves it alone."""
    ctx = make(scenario, FW, "0302", ["F1"], Unit("F1", "pbr", FW, "0302"), Unit("F4", "ace", FW, "set_aside"),
               Unit("C1", "main_force_bn", COM, "0302"), cp=3)
    assert run(support.commit_support(ctx, air_support(scenario))) == []


def test_procedures_do_nothing_outside_a_battle(scenario):
    """No operation, or one that has ended: recon, support and fire ask nothing and roll nothing."""
    ctx = make(scenario, FW, "0302", ["F1"], Unit("F1", "pbr", FW, "0302"), Unit("C1", "main_force_bn", COM, "0302"))
    ctx.operation.ended = True
    for name, function in (("recon", recon.recon), ("commit support", support.commit_support),
                           ("resolve fire", battle.resolve_fire)):
        assert run(function(ctx, do_line(scenario, name))) == []
    ctx.operation = None
    assert run(recon.recon(ctx, do_line(scenario, "recon"))) == []


def test_a_defending_free_world_commits_support_and_fires_with_it(scenario, dice):
    """7.6 step 4: the Air sub-phase occurs during Communist operations too; 17.3: the markers add their firepower
    to the friendly force in combat.  FW (first fire): pbr 1 + airstrike 3 = 4 (4-5; the Communist attacks, so no
    terrain shift helps it); roll 1: Z, FW picks the airstrike (airstrikes may be lost on Z, 11.9): Communist +1.
    The Communist fires 4 (4-5), roll 1: Z, its Main Force battalion: FW +1; its force gone, the battle ends."""
    ctx = make(scenario, COM, "0302", ["C1"], Unit("C1", "main_force_bn", COM, "0302"),
               Unit("F1", "pbr", FW, "0302"), Unit("F5", "airstrike", FW, "set_aside"), cp=1)
    ctx.acting = FW
    decisions = run(support.commit_support(ctx, air_support(scenario)), "commit F5")
    assert decisions[0].side == FW and ctx.operation.support == ["F5"]
    ctx.operation.first_fire = FW
    dice += [(6, 1), (6, 1)]
    decisions = run(battle.resolve_fire(ctx, do_line(scenario, "resolve fire")), "lose F5")
    assert options(decisions[0]) == ["lose F1", "lose F5"]
    assert [e["column"] for e in ctx.events if e.get("kind") == "combat" and "column" in e] == ["4-5", "4-5"]
    assert (where(ctx, "F5"), where(ctx, "C1"), where(ctx, "F1")) == ("refit_box", "refit_box", "0302")
    assert (vp(ctx, FW), vp(ctx, COM)) == (1, 1) and ctx.operation.ended


def test_a_surveillance_aircraft_is_never_committed_alone(scenario):
    """17.6: surveillance aircraft may not be deployed alone into an enemy occupied square; with a unit of the
    force in the square it may be committed (at an airstrike's price: gap on the marker)."""
    aircraft = [Unit("F3", "surveillance_aircraft", FW, "set_aside"), Unit("F5", "airstrike", FW, "set_aside")]
    ctx = make(scenario, FW, "0602", [], *aircraft, Unit("C1", "main_force_bn", COM, "0602"), cp=2)
    decisions = designate(ctx, FW, "strike 0602", "commit F5")
    assert options(decisions[1]) == ["commit F5"] and len(decisions) == 2  # then nothing is left to offer
    ctx = make(scenario, FW, "0602", ["F1"], Unit("F1", "pbr", FW, "0602"), *aircraft,
               Unit("C1", "main_force_bn", COM, "0602"), cp=2)
    decisions = run(support.commit_support(ctx, air_support(scenario)), "commit F3", "done")
    assert options(decisions[0]) == ["commit F3", "commit F5", "done"]
    assert ctx.state.resource(FW, "cp") == 1 and where(ctx, "F3") == "0602"


def test_naval_units_break_off_into_adjacent_sea_squares(scenario):
    """10.3: N units break off one square by naval movement, which enters only high seas and coastal squares
    (8.5): from the coastal 0301 that is 0201, 0202 or 0401 (not the rivers 0302 and 0402), or the Refit Box."""
    ctx = make(scenario, COM, "0301", ["C1"], Unit("C1", "com_riverine", COM, "0301"), Unit("F1", "wpb", FW, "0301"))
    decl = ctx.rules.combats["fire_combat"]
    engagement = combat.Engagement(ctx, decl, [ctx.state.unit("C1")], [ctx.state.unit("F1")], COM, "test",
                                   combat.Battle("0301", FW))
    decisions = run(results.apply_result(ctx, "B", engagement), "break-off F1 0202")
    assert options(decisions[0]) == ["break-off F1 0201", "break-off F1 0202", "break-off F1 0401",
                                     "break-off F1 refit_box"]
    assert where(ctx, "F1") == "0202"


# --- naval interception (23, optional) -----------------------------------------------------------------


def moving(scenario, *units: Unit, cp: int = 3, naval_zoc: bool = True):
    """A Communist force C1 designated at 0601, about to move; the naval zones of control rule on or off."""
    scenario = evolve(scenario, rulebook=with_options(scenario.rulebook, {"naval_zoc": naval_zoc}))
    ctx = make(scenario, COM, "0601", ["C1"], *units, cp=cp)
    ctx.operation = Operation(COM, force=["C1"], origin="0601")
    return ctx


def move_to(ctx, cell: str, *answers: str):
    return run(PROCEDURES["move force"](ctx, do_line(ctx.scenario, "move force")), f"move {cell}", *answers)


def test_a_force_entering_a_naval_zone_of_control_may_be_intercepted(scenario):
    """23.2: a WPB's NZOC extends three squares into high seas and coastal squares; 23.3: a Communist N or R unit
    entering it during movement may be intercepted, at 1 CP per Free World unit; its movement stops and the
    interceptors move into its square, the Communist attacking.  Along the coast 0601 → 0201 the trawler enters
    the zone of the WPB at 0101 in 0401 (0501 is four squares away); the DE at 0102 reaches 0401 too."""
    ctx = moving(scenario, Unit("C1", "trawler", COM, "0601"), Unit("F1", "wpb", FW, "0101"),
                 Unit("F2", "de", FW, "0102"), Unit("F3", "us_infantry_bn", FW, "0304"))
    decisions = move_to(ctx, "0201", "intercept F1", "intercept F2", "go")
    assert [d.kind for d in decisions] == ["move", "interception", "interception", "interception"]
    assert decisions[1].side == FW and "0401" in decisions[1].prompt
    assert options(decisions[1]) == ["decline", "intercept F1", "intercept F2"]
    assert options(decisions[2]) == ["go", "intercept F2"]
    assert (where(ctx, "C1"), where(ctx, "F1"), where(ctx, "F2")) == ("0401", "0401", "0401")
    assert ctx.state.resource(FW, "cp") == 1 and ctx.operation.cell == "0401" and ctx.operation.side == COM


def test_declined_interception_lets_the_force_move_on(scenario):
    """Moving on inside the same zone (0401 → 0301) is not entering it again (gap on the zone): one offer only."""
    ctx = moving(scenario, Unit("C1", "trawler", COM, "0601"), Unit("F1", "wpb", FW, "0101"))
    decisions = move_to(ctx, "0201", "decline")
    assert [d.kind for d in decisions] == ["move", "interception"]
    assert where(ctx, "C1") == "0201" and where(ctx, "F1") == "0101" and ctx.operation.cell is None
    assert ctx.state.resource(FW, "cp") == 3


def test_interception_needs_the_option_the_cp_and_an_n_or_r_mover(scenario):
    """23.1: the rule is optional (off, nothing is offered); 23.3 costs 1 CP per unit (none left, nothing is
    offered); a CG, DE or WPB exerts the zone (23.2), a PBR does not."""
    for units, cp, naval_zoc in (([Unit("F1", "wpb", FW, "0101")], 3, False),
                                 ([Unit("F1", "wpb", FW, "0101")], 0, True),
                                 ([Unit("F1", "pbr", FW, "0201")], 3, True)):
        ctx = moving(scenario, Unit("C1", "trawler", COM, "0601"), *units, cp=cp, naval_zoc=naval_zoc)
        assert [d.kind for d in move_to(ctx, "0201" if units[0].type == "wpb" else "0301")] == ["move"]


def test_no_interception_where_other_units_of_the_mover_stand(scenario):
    """Gap on the zone: the trawler enters the WPB's zone at 0401, where another Communist unit stands; the
    battle would be the moving force's alone and leave that unit beside the interceptors, so none is offered
    there, and moving on inside the zone (0301) is not entering it."""
    ctx = moving(scenario, Unit("C1", "trawler", COM, "0601"), Unit("C2", "com_naval", COM, "0401"),
                 Unit("F1", "wpb", FW, "0101"))
    assert [d.kind for d in move_to(ctx, "0201")] == ["move"]
    assert where(ctx, "C1") == "0201"
