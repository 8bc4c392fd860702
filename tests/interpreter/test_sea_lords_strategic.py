"""Sea Lords income, reinforcements, refits, reclaiming markers and supply, checked by hand.

Source text quoted in each test.  The map (fixtures/sea_lords_strategic/map.toml) is 6 x 4:

        col 1   2   3   4   5   6
    row 1:  ~   X   +   :   .   ~     ~ high seas, X communist base on a river in Cambodia,
    row 2:  ~   x   :   B   =   ~     + minor river (Cambodia), : land (Cambodia), . land,
    row 3:  c   =   -   t   %   c     x communist base on the coast in Cambodia, B communist base
    row 4:  ~   ~   c   c   ~   ~     on a river, = major river, c coastal, - minor river,
                                      t town (no waterway), % swamp crossed by a canal.

States are built by hand; the scenario's income and year are given by a thin wrapper so the
tests do not depend on how scenario files spell them.
"""

from fractions import Fraction
from pathlib import Path

from driving import do_call, drive
from warbook.interpreter.context import Context
from warbook.interpreter.procedures import PROCEDURES, load_procedures
from warbook.interpreter.flags import COMMITTED
from warbook.interpreter.procedures.reinforcements import draw_reinforcement
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.rules import ELIMINATED
from warbook.interpreter.state import GameState, Unit

SCENARIO = load_scenario(Path(__file__).parent / "fixtures" / "sea_lords_strategic" / "strategic.toml")
load_procedures()

FW, COM = "free_world", "communist"


class _Scenario:
    """The test scenario with income and year, whatever the scenario loader calls them."""

    def __init__(self, base, **extra):
        self._base = base
        self.__dict__.update(extra)

    def __getattr__(self, name):
        return getattr(self._base, name)


def game(*units: Unit, turn: int = 1, cp: dict | None = None, acting: str = FW, year: int | None = 1966,
         income=(), modifiers=()) -> Context:
    ctx = Context(_Scenario(SCENARIO, income=tuple(income), year=year), seed=0)
    resources = tuple(sorted((side, "cp", Fraction(v)) for side, v in (cp or {}).items()))
    ctx.state = GameState(turn=turn, phase="test", units=tuple(sorted(units)), resources=resources,
                          turn_modifiers=tuple(modifiers))
    ctx.acting = acting
    return ctx


def do_line(procedure: str, *words: str):
    """The first ``do`` line of the Sea Lords sequence running ``procedure`` whose words include ``words``."""
    return do_call(SCENARIO.rules, procedure, *words)


def run(ctx: Context, prop, choices=()) -> list:
    """Run a procedure, answering its decisions with ``choices`` in order; returns the decisions."""
    return drive(PROCEDURES[prop.procedure](ctx, prop), choices)


def cp(ctx: Context, side: str = FW) -> Fraction:
    return ctx.state.resource(side, "cp")


def fw(uid, type_, at):
    return Unit(uid, type_, FW, at)


def com(uid, type_, at, hidden=True):
    return Unit(uid, type_, COM, at, hidden=hidden)


def places(decision) -> list[str]:
    return [a.args[1] for a in decision.options]


# FW logistical bases: a major river square, a coastal square, a town with no waterway, and a
# minor river square that also holds a Communist unit.
FW_BASES = (fw("F10", "us_log_base", "0203"), fw("F11", "arvn_log_base", "0103"),
            fw("F12", "us_log_base", "0403"), fw("F13", "us_log_base", "0303"),
            com("C90", "main_force_bn", "0303"))

INCOME = ((FW, "cp", 10), (COM, "cp", 10))


# --- income (5.2, 5.4, 6.4, 27.0 Weather) ----------------------------------------------------


def test_income_is_the_scenario_amount_for_the_acting_side():
    """5.4: "both sides receive additional CP at the start of each friendly Reinforcement Phase";
    24.3: "10 more per game turn".  Only the acting side gains."""
    ctx = game(cp={FW: 25, COM: 25}, income=INCOME, acting=FW)
    run(ctx, do_line("gain income"))
    assert cp(ctx, FW) == 35 and cp(ctx, COM) == 25


def test_weather_lowers_this_turns_income():
    """Weather: "Reduce the number of CP you receive as reinforcement this turn by one die roll";
    a roll of 3 on income 10 gives 7."""
    ctx = game(cp={FW: 25}, income=INCOME, modifiers=[(FW, "income:cp", -3)])
    run(ctx, do_line("gain income"))
    assert cp(ctx) == 32


def test_income_lowered_below_zero_gives_nothing_and_takes_nothing():
    """Weather: "(to a minimum of 0)": income 10 less 12 is 0, not a loss of 2."""
    ctx = game(cp={FW: 25}, income=INCOME, modifiers=[(FW, "income:cp", -12)])
    run(ctx, do_line("gain income"))
    assert cp(ctx) == 25


def test_income_stops_at_100():
    """5.2: "If a player's CP total reaches 100, it can go no higher": 95 + 10 is 100."""
    ctx = game(cp={FW: 95}, income=INCOME)
    run(ctx, do_line("gain income"))
    assert cp(ctx) == 100


# --- reinforcements (12.1-12.5) ----------------------------------------------------------------


def test_free_world_draws_cost_2_and_place_by_movement_type(dice):
    """12.2: pay, "pick a unit at random from the pool", place it; 27.0: 2 CP a pick.
    12.3: "R" units on a FW logistical base on a river or coastal square (0203 major river, 0103
    coastal; not the town 0403, nor 0303 which holds a Communist unit, 12.5); "N" units on a
    base on a coastal square (0103 only, so no choice is asked); "L" units on any FW logistical
    base (0103, 0203, 0403)."""
    pool = (fw("F1", "pbr", "reinforcement_pool"), fw("F2", "wpb", "reinforcement_pool"),
            fw("F3", "us_infantry_bn", "reinforcement_pool"))
    ctx = game(*FW_BASES, *pool, cp={FW: 10})
    dice.extend([(3, 1), (2, 1), (1, 1)])  # F1 of three, then F2 of two, then F3 alone
    decisions = run(ctx, do_line("reinforce", "fw_pick_reinforcement"),
                    ["draw", "place F1 0203", "draw", "draw", "place F3 0403"])
    assert [str(a) for a in decisions[0].options] == ["done", "draw"]
    assert places(decisions[1]) == ["0103", "0203"]
    assert places(decisions[4]) == ["0103", "0203", "0403"]
    state = ctx.state
    assert (state.unit("F1").location, state.unit("F2").location, state.unit("F3").location) == \
        ("0203", "0103", "0403")
    assert cp(ctx) == 10 - 3 * 2
    draws = [e for e in ctx.events if e.get("kind") == "draw"]
    assert [(e["shown"], e.get("unit_type")) for e in draws] == [(True, "pbr"), (True, "wpb"), (True, "us_infantry_bn")]


def test_no_draw_is_offered_without_the_cp():
    """12.1: "there's no deficit spending of CP allowed": 1 CP cannot buy a 2 CP pick."""
    ctx = game(*FW_BASES, fw("F1", "pbr", "reinforcement_pool"), cp={FW: 1})
    assert run(ctx, do_line("reinforce", "fw_pick_reinforcement")) == []
    assert cp(ctx) == 1


def test_the_other_sides_action_does_not_run():
    """The Communist pick line runs only in the Communist player's phase."""
    ctx = game(com("C1", "main_force_bn", "reinforcement_pool"), cp={COM: 10}, acting=FW)
    assert run(ctx, do_line("reinforce", "com_pick_reinforcement")) == []
    assert ctx.state.unit("C1").location == "reinforcement_pool"


def test_communist_pick_costs_3_from_1968_and_is_placed_face_down_unseen(dice):
    """27.0: "2 in 1965-67; 3 in 1968 and later".  12.4: "Supply and Troop Infiltration Junks: in
    any Communist base squares in Cambodia": 0201 and 0202, not the South Vietnamese base 0402.
    12.2: "The Communist player doesn't show his opponent which unit he's picked."  8.13: placed
    face down."""
    ctx = game(com("C1", "supply_junk", "reinforcement_pool"), cp={COM: 10}, acting=COM, year=1968)
    dice.append((1, 1))
    decisions = run(ctx, do_line("reinforce", "com_pick_reinforcement"), ["draw", "place C1 0202"])
    assert places(decisions[1]) == ["0201", "0202"]
    assert cp(ctx, COM) == 7
    unit = ctx.state.unit("C1")
    assert unit.location == "0202" and unit.hidden
    draw = next(e for e in ctx.events if e.get("kind") == "draw")
    assert draw["shown"] is False and "unit" not in draw and "unit_type" not in draw
    placed = next(e for e in ctx.events if e.get("kind") == "place")
    assert "unit_type" not in placed and "junk" not in placed["text"].lower()


def test_communist_pick_costs_2_up_to_1967(dice):
    ctx = game(com("C1", "supply_junk", "reinforcement_pool"), cp={COM: 10}, acting=COM, year=1967)
    dice.append((1, 1))
    run(ctx, do_line("reinforce", "com_pick_reinforcement"), ["draw", "place C1 0201"])
    assert cp(ctx, COM) == 8


def test_trawlers_enter_on_east_or_west_high_seas_without_free_world_units(dice):
    """12.4: "Trawlers: in any highs seas squares on the east and/or west map edges not containing
    a Free World "N" class unit": column 1 rows 1, 2, 4 and column 6 rows 1, 2, 4, less 0602 where
    a WPB is; 0204 and 0504 are high seas on the south edge only."""
    ctx = game(com("C1", "trawler", "reinforcement_pool"), fw("F2", "wpb", "0602"), cp={COM: 10}, acting=COM)
    dice.append((1, 1))
    decisions = run(ctx, do_line("reinforce", "com_pick_reinforcement"), ["draw", "place C1 0601"])
    assert places(decisions[1]) == ["0101", "0102", "0104", "0601", "0604"]


def test_a_unit_with_no_eligible_square_goes_back_and_its_cp_are_forfeit(dice):
    """12.3: "Special Forces Camp: any square then containing any kind of Special Forces company";
    12.5: "If there are no eligible placement squares ... the unit is not received. Put it back
    into the pool. The CP expenditure made for it is forfeit." """
    ctx = game(*FW_BASES, fw("F4", "sf_camp", "reinforcement_pool"), cp={FW: 10})
    dice.append((1, 1))
    run(ctx, do_line("reinforce", "fw_pick_reinforcement"), ["draw", "done"])
    assert ctx.state.unit("F4").location == "reinforcement_pool"
    assert cp(ctx) == 8


def test_a_special_forces_camp_goes_where_a_company_is_and_it_could_stand(dice):
    """12.3 as above; 3.0 (only in squares a unit could enter): a camp is static, and static units
    stand only on river, coastal, city, town or base squares (8.3), so not with the company on
    the open land at 0501.  One square is left: no choice is asked."""
    ctx = game(*FW_BASES, fw("F4", "sf_camp", "reinforcement_pool"), fw("F20", "sf_company", "0403"),
               fw("F21", "sf_company", "0501"), cp={FW: 10})
    dice.append((1, 1))
    run(ctx, do_line("reinforce", "fw_pick_reinforcement"), ["draw"])
    assert ctx.state.unit("F4").location == "0403"


def test_guerrilla_markers_join_communist_units_one_of_a_kind_and_never_with_the_enemy(dice):
    """12.4: "Guerrilla Markers: in any squares containing one or more Communist units or Guerrilla
    Markers"; 19.2: one of each type in a square (0402 has an Ambush already); 12.5: not 0303,
    which holds a Free World base.  Left: 0501 and 0503."""
    units = (*FW_BASES, com("C1", "ambush", "reinforcement_pool"), com("C2", "cadre", "0402"),
             com("C3", "ambush", "0402"), com("C4", "lf_bn", "0501"), com("C5", "sapper_co", "0503"))
    ctx = game(*units, cp={COM: 10}, acting=COM)
    dice.append((1, 1))
    decisions = run(ctx, do_line("reinforce", "com_pick_reinforcement"), ["draw", "place C1 0503"])
    assert places(decisions[1]) == ["0501", "0503"]
    assert ctx.state.unit("C1").hidden


def test_airstrikes_drawn_go_off_to_the_side(dice):
    """12.3: "Airstrike and naval gunfire markers: off to the side of the mapsheet." """
    ctx = game(fw("F5", "airstrike", "reinforcement_pool"), cp={FW: 2})
    dice.append((1, 1))
    run(ctx, do_line("reinforce", "fw_pick_reinforcement"), ["draw"])
    assert ctx.state.unit("F5").location == "set_aside" and cp(ctx) == 0


def test_a_peoples_hero_drawn_is_set_aside_unseen(dice):
    """16.4: "If you pick one of those markers, you may set it off to the side"; 12.2: the Communist
    pick is not shown, so the log names neither the counter nor its type."""
    ctx = game(com("C1", "peoples_hero", "reinforcement_pool"), cp={COM: 2}, acting=COM)
    dice.append((1, 1))
    run(ctx, do_line("reinforce", "com_pick_reinforcement"), ["draw"])
    assert ctx.state.unit("C1").location == "set_aside"
    placed = next(e for e in ctx.events if e.get("kind") == "place")
    assert "unit" not in placed and "unit_type" not in placed and "C1" not in placed["text"]


def test_a_free_pick_costs_nothing(dice):
    """In-Country Fighting: "the Free World player picks a reinforcement and places it at no CP
    cost"."""
    ctx = game(*FW_BASES, fw("F2", "wpb", "reinforcement_pool"), cp={FW: 0}, acting=COM)
    dice.append((1, 1))
    flow = draw_reinforcement(ctx, FW, free=True)
    assert list(flow) == []
    assert ctx.state.unit("F2").location == "0103" and cp(ctx) == 0


def test_sensors_held_off_map_cost_1_each_and_go_anywhere_but_beside_a_sensor():
    """18.1: "Sensor markers may be placed on any squares on the map. It costs one CP to deploy any
    one sensor marker"; 18.2: never more than one sensor per square.  Of the 24 squares, 0101
    holds a sensor: 23 are offered, Cambodia (0201) and a Communist square (0402) among them.
    The airstrike waiting off to the side is not a sensor: it is not offered."""
    units = (fw("F40", "sensor", "set_aside"), fw("F41", "sensor", "set_aside"),
             fw("F42", "airstrike", "set_aside"), fw("F43", "sensor", "0101"), com("C1", "cadre", "0402"))
    ctx = game(*units, cp={FW: 2})
    decisions = run(ctx, do_line("reinforce", "fw_place_sensor"), ["take F40", "place F40 0402", "done"])
    assert [str(a) for a in decisions[0].options] == ["done", "take F40"]
    assert len(decisions[1].options) == 23 and "0101" not in places(decisions[1])
    assert {"0201", "0402"} <= set(places(decisions[1]))
    assert ctx.state.unit("F40").location == "0402" and cp(ctx) == 1


# --- refits (13.2-13.5) -----------------------------------------------------------------------------


def test_refit_pays_by_nationality_and_waits_the_rolled_turns(dice):
    """27.0: "Initiate refit: 1 if a US/Allied unit; 2 if an ARVN unit".  13.2: "roll a die for each
    one, and place each unit on the Turn Record Track that number of turns later" (turn 2, roll 3:
    turn 5). "If the die roll causes a unit to be returned after the scenario ends, that unit is
    never received and the CP expenditure is forfeit" (turn 2, roll 6: turn 8 of 6)."""
    units = (fw("F30", "us_infantry_bn", "refit_box"), fw("F31", "marine_bn", "refit_box"))
    ctx = game(*units, turn=2, cp={FW: 5})
    dice.extend([(6, 3), (6, 6)])
    decisions = run(ctx, do_line("refit", "fw_initiate_refit"), ["refit F31", "refit F30"])
    assert [str(a) for a in decisions[0].options] == ["done", "refit F30", "refit F31"]
    assert ctx.state.unit("F31").location == "turn_track:5"
    assert ctx.state.unit("F30").location == "turn_track:8"
    assert cp(ctx) == 5 - 2 - 1
    never = next(e for e in ctx.events if e.get("kind") == "refit" and e["unit"] == "F30")
    assert never["received"] is False


def test_refit_is_not_offered_beyond_the_cp():
    """5.2: a player may not expend more CP than he has: with 1 CP an ARVN unit (2) is not offered."""
    units = (fw("F30", "us_infantry_bn", "refit_box"), fw("F31", "marine_bn", "refit_box"))
    ctx = game(*units, cp={FW: 1})
    decisions = run(ctx, do_line("refit", "fw_initiate_refit"), ["done"])
    assert [str(a) for a in decisions[0].options] == ["done", "refit F30"]


def test_refitted_units_return_on_their_turn_free_as_reinforcements():
    """13.2: "When the Game Turn marker reaches the turn-box containing a unit to be refit, that
    unit is received exactly as if it were a reinforcement. Note there's no additional CP cost".
    Turn 5: the Marine battalion due on turn 5 goes to the only Free World base (0203); the one
    due on turn 8 waits."""
    units = (fw("F10", "us_log_base", "0203"), fw("F31", "marine_bn", "turn_track:5"),
             fw("F30", "us_infantry_bn", "turn_track:8"))
    ctx = game(*units, turn=5, cp={FW: 3})
    assert run(ctx, do_line("return refitted units")) == []
    assert ctx.state.unit("F31").location == "0203"
    assert ctx.state.unit("F30").location == "turn_track:8"
    assert cp(ctx) == 3


def test_a_returning_communist_unit_is_placed_face_down_and_its_type_not_logged():
    """13.2 with 12.4 ("Main Force infantry units: in any Communist bases in Cambodia": 0201, 0202)
    and 8.13 (face down)."""
    ctx = game(com("C7", "main_force_bn", "turn_track:3", hidden=False), turn=3, acting=COM)
    decisions = run(ctx, do_line("return refitted units"), ["place C7 0201"])
    assert places(decisions[0]) == ["0201", "0202"]
    assert ctx.state.unit("C7").hidden
    placed = next(e for e in ctx.events if e.get("kind") == "place")
    assert "unit_type" not in placed and "Main Force" not in placed["text"]


def test_militia_garrisons_join_south_vietnamese_land_units_or_special_forces():
    """12.3: "Militia Garrisons: in any square containing at least one South Vietnamese "L" unit or
    US Special Forces or Counterinsurgency unit": 0203 (a Marine battalion, ARVN and L) and 0403
    (a Special Forces company), not 0103 (a US infantry battalion: L but not South Vietnamese)
    nor 0303 (an ARVN RAG: South Vietnamese but R)."""
    units = (fw("F1", "marine_bn", "0203"), fw("F2", "us_infantry_bn", "0103"), fw("F3", "sf_company", "0403"),
             fw("F4", "rag", "0303"), fw("F5", "militia_garrison", "turn_track:2"))
    ctx = game(*units, turn=2)
    decisions = run(ctx, do_line("return refitted units"), ["place F5 0403"])
    assert places(decisions[0]) == ["0203", "0403"]


def test_regional_forces_go_to_a_base_or_to_a_camp_or_counterinsurgency_team():
    """12.3: ""L" and "A" units: on any Free World logistical base" and "CIDG and Regional Force
    units: in any square containing a Special Forces camp and/or a Counterinsurgency unit".  An RF
    battalion is an "L" unit: the two lines are alternatives (a gap), so with no camp or team on
    the map it still goes to the base (0203), and with a team at 0403 it may go there too."""
    ctx = game(fw("F10", "us_log_base", "0203"), fw("F20", "rf_bn", "turn_track:2"), turn=2)
    assert run(ctx, do_line("return refitted units")) == []  # one square: no question
    assert ctx.state.unit("F20").location == "0203"
    ctx = game(fw("F10", "us_log_base", "0203"), fw("F3", "ci_team", "0403"), fw("F20", "rf_bn", "turn_track:2"),
               turn=2)
    decisions = run(ctx, do_line("return refitted units"), ["place F20 0403"])
    assert places(decisions[0]) == ["0203", "0403"]


def test_a_returning_unit_with_nowhere_to_go_goes_back_to_the_refit_box():
    """13.2 with 12.5: a refitted unit with no eligible square is not received (no base: nowhere)."""
    ctx = game(fw("F31", "marine_bn", "turn_track:5"), turn=5, cp={FW: 3})
    run(ctx, do_line("return refitted units"))
    assert ctx.state.unit("F31").location == "refit_box"


# --- reclaiming airstrikes (6.4, 17.2) ---------------------------------------------------------


def test_committed_support_markers_are_reclaimed():
    """6.4: "reclaim any airstrike or naval gunfire markers that were set aside after being
    committed"; 17.2: "returned for possible reuse, at no CP cost".  One still on the map goes off
    to the side; one set aside loses its committed flag; one in the Refit Box (an "A" result,
    11.5) stays there."""
    units = (fw("F50", "airstrike", "0203"), Unit("F51", "naval_gunfire", FW, "set_aside",
                                                  turn_flags=frozenset({COMMITTED})),
             fw("F52", "airstrike", "refit_box"))
    ctx = game(*units, cp={FW: 0})
    run(ctx, do_line("reclaim markers"))
    assert ctx.state.unit("F50").location == "set_aside"
    assert ctx.state.unit("F51").turn_flags == frozenset()
    assert ctx.state.unit("F52").location == "refit_box"


# --- supply (14.1-14.4) -------------------------------------------------------------------------


def test_printed_base_supplies_communist_units_and_a_junk_is_used_up():
    """14.3: in supply "in the same square as a friendly logistical base unit or printed base";
    "It's a Communist unit in the same square as a Supply Cache marker or Supply Infiltration Junk.
    The Supply Cache marker or Supply Infiltration Junk is revealed and removed".  14.2: Local
    Force units never check.  No unit is out of supply: no decision, no CP spent."""
    units = (com("C1", "main_force_bn", "0402"), com("C2", "main_force_bn", "0501"),
             com("C3", "supply_junk", "0501"), com("C4", "lf_bn", "0503"))
    ctx = game(*units, cp={COM: 4}, acting=COM)
    assert run(ctx, do_line("check supply", "com_logistic_support")) == []
    junk = ctx.state.unit("C3")
    assert junk.location == ELIMINATED and not junk.hidden
    assert ctx.state.unit("C2").location == "0501" and cp(ctx, COM) == 4


def test_a_supply_cache_is_used_up_too():
    """19.3: "Supply Cache: provides supply to all the Communist units in its square for one
    Logistics Phase, and then the marker is removed from play." """
    ctx = game(com("C2", "sapper_co", "0501"), com("C3", "supply_cache", "0501"), cp={COM: 0}, acting=COM)
    assert run(ctx, do_line("check supply", "com_logistic_support")) == []
    assert ctx.state.unit("C3").location == ELIMINATED and ctx.state.unit("C2").location == "0501"


def test_a_lone_junk_does_not_supply_itself():
    """14.3 supplies units "in the same square as" a junk: a junk alone is out of supply; the
    Communist pays 1 CP (27.0) to keep it."""
    ctx = game(com("C6", "supply_junk", "0303"), cp={COM: 2}, acting=COM)
    decisions = run(ctx, do_line("check supply", "com_logistic_support"), ["pay C6"])
    assert [str(a) for a in decisions[0].options] == ["pay C6", "send C6 refit_box"]
    assert ctx.state.unit("C6").location == "0303" and cp(ctx, COM) == 1


def test_free_world_supply_lsc_base_and_the_choice_out_of_supply():
    """14.3: "in the same square as a friendly LSC or MRB unit" (0203) or logistical base (0103).
    A Communist printed base (0402) is no friendly base.  14.2: a Special Forces company never
    checks.  14.4: "You may expend CP for each unit you find to be out of supply ... If you decide
    not to expend CP, the unsupplied unit is removed from the map and placed in the Refit Box.
    When a unit is removed to the Refit Box in this way it doesn't generate VP." """
    units = (fw("F1", "us_infantry_bn", "0203"), fw("F2", "lsc", "0203"), fw("F3", "marine_bn", "0103"),
             fw("F4", "arvn_log_base", "0103"), fw("F5", "us_infantry_bn", "0402"),
             fw("F6", "us_infantry_bn", "0403"), fw("F7", "sf_company", "0501"))
    ctx = game(*units, cp={FW: 2, COM: 0})
    decisions = run(ctx, do_line("check supply", "fw_logistic_support"), ["pay F5", "send F6 refit_box"])
    assert [d.options[0].args[0] for d in decisions] == ["F5", "F6"]
    assert ctx.state.unit("F5").location == "0402" and cp(ctx) == 1
    assert ctx.state.unit("F6").location == "refit_box"
    assert ctx.state.resource(COM, "vp") == 0


def test_a_side_without_the_cp_loses_its_unsupplied_units_without_a_choice():
    ctx = game(fw("F6", "us_infantry_bn", "0403"), cp={FW: 0})
    assert run(ctx, do_line("check supply", "fw_logistic_support")) == []
    assert ctx.state.unit("F6").location == "refit_box"
