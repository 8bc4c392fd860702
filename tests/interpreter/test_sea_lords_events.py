"""Sea Lords random events (6.3, 20.1, 27.0 with the Mapsheet Errata), the condition grammar,
sensors (18.3) and the Guerrilla markers' reveal-time effects (19.3), under the shipped rules.

Every expected value is worked out by hand from the source text (seed 000_1665db6584a31974):

- 6.3: "Roll a die and cross-index that result on your own side's Random Events Table …
  Immediately apply the result."  Table (27.0): 1 Emergency Reinforcements / Bombing in Cambodia,
  2 Intelligence Breakthrough / Dau Tranh, 3 OER Time / Dispute in Politburo, 4 Media Circus /
  In-Country Fighting, 5 Weather / Rocket Attack, 6 No Event / No Event.
- 5.2: CP never go below what a player has (the resource's minimum 0); 4.3: VP stop at 100.
- 18.3: "On a 1-3, the Communist force is flipped face-up … On a 4-5, there's no effect. On a 6,
  the sensor marker is removed from play."
- 19.3: the Guerrilla marker paragraphs, quoted at each test.

The map (fixtures/sea_lords_events/map.toml) is a 5 x 3 strip of land with Saigon at 0302 (tag
saigon_vung_tau) and a minor river at 0502; squares touch across sides and corners (8.14).
Units are placed by hand.  Dice are scripted with the ``dice`` fixture: ``(6, n)`` per d6.
"""

from fractions import Fraction
from pathlib import Path

import pytest
from attrs import evolve
from hypothesis import given, settings
from hypothesis import strategies as st

from warbook.dsl.conditions import ConditionError, Names, parse_condition
from warbook.dsl.effects import compile_effect
from warbook.dsl.model import Property
from driving import do_call, drive
from warbook.interpreter.condition_lines import effect_condition
from warbook.interpreter.conditions import Happening, Scope, holds, lead
from warbook.interpreter.context import Context
from warbook.interpreter.flow import _end_of_turn
from warbook.interpreter.procedures import PROCEDURES, load_procedures
from warbook.interpreter.operation import Operation
from warbook.interpreter import event_effects as events
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.rules import ELIMINATED
from warbook.interpreter.state import GameState, Unit
from warbook.interpreter.victory import gain

FIXTURE = Path(__file__).parent / "fixtures" / "sea_lords_events" / "events.toml"
SCENARIO = load_scenario(FIXTURE)
RULEBOOK = SCENARIO.rulebook
load_procedures()

FW, COM = "free_world", "communist"


def game(*units: Unit, cp=(0, 0), vp=(0, 0), acting: str | None = None) -> Context:
    """A position: ``cp``/``vp`` are (Free World, Communist) totals."""
    ctx = Context(SCENARIO, seed=0)
    resources = sorted([(FW, "cp", Fraction(cp[0])), (COM, "cp", Fraction(cp[1])),
                        (FW, "vp", Fraction(vp[0])), (COM, "vp", Fraction(vp[1]))])
    ctx.state = GameState(turn=1, phase="first_random_events", units=tuple(sorted(units)),
                          resources=tuple(resources))
    ctx.acting = acting
    return ctx


def fw(uid: str, type_: str, at: str) -> Unit:
    return Unit(uid, type_, FW, at)


def com(uid: str, type_: str, at: str, hidden: bool = True) -> Unit:
    return Unit(uid, type_, COM, at, hidden=hidden)


def event(ctx: Context, name: str, side: str, answers=()) -> list:
    return drive(events.run_event(ctx, name, Scope(side)), answers)


def cp(ctx, side):
    return ctx.state.resource(side, "cp")


def vp(ctx, side):
    return ctx.state.resource(side, "vp")


def texts(ctx) -> list[str]:
    return [e["text"] for e in ctx.events if e["type"] == "event"]


def do_line(procedure: str, *words: str):
    return do_call(SCENARIO.rules, procedure, *words)


# --- roll events (6.3, 20.1) -------------------------------------------------------------------


def test_each_side_reads_its_own_column(dice):
    # 6.3 "your own side's Random Events Table": a 2 is Intelligence Breakthrough for the Free
    # World but Dau Tranh for the Communist ("Roll a die and add that result to your CP total").
    ctx = game(cp=(10, 10), acting=COM)
    dice += [(6, 2), (6, 4)]
    drive(PROCEDURES["roll events"](ctx, do_line("roll events")))
    assert cp(ctx, COM) == 14 and cp(ctx, FW) == 10
    assert any("Dau Tranh" in t and "Roll a die and add that result to your CP total." in t for t in texts(ctx))


def test_a_six_is_no_event_for_either_side(dice):
    ctx = game(cp=(10, 10), vp=(5, 5), acting=FW)
    dice += [(6, 6)]
    drive(PROCEDURES["roll events"](ctx, do_line("roll events")))
    assert (cp(ctx, FW), cp(ctx, COM), vp(ctx, FW), vp(ctx, COM)) == (10, 10, 5, 5)
    assert any("No Event" in t for t in texts(ctx))


def test_the_free_world_rolls_intelligence_breakthrough_on_a_two(dice):
    ctx = game(com("C1", "main_force_bn", "0101"), acting=FW)
    dice += [(6, 2)]
    decisions = drive(PROCEDURES["roll events"](ctx, do_line("roll events")), ["reveal 0101"])
    assert decisions[0].side == FW and not ctx.state.unit("C1").hidden


# --- Free World events ---------------------------------------------------------------------------


@pytest.mark.parametrize("fw_vp, com_vp, roll, expected", [
    (25, 0, 3, 7),     # "at least 25 more VP than the Communist": exactly 25 → lose 3 CP
    (24, 0, None, 10),  # a lead of 24 is not enough: nothing rolled, nothing changes
    (0, 25, 3, 13),    # "If the Communist currently has at least 25 more VP than you … gain"
    (0, 24, None, 10),
    (30, 5, 6, 4),     # leads are differences: 30 - 5 = 25
])
def test_emergency_reinforcements(dice, fw_vp, com_vp, roll, expected):
    ctx = game(cp=(10, 10), vp=(fw_vp, com_vp))
    if roll is not None:
        dice.append((6, roll))
    event(ctx, "emergency_reinforcements", FW)
    assert cp(ctx, FW) == expected and cp(ctx, COM) == 10


@pytest.mark.parametrize("fw_vp, com_vp, roll, expected", [
    (25, 0, 3, 13),    # "at least 25 more VP … roll a die and receive that number of CP"
    (24, 0, None, 10),
    (0, 25, 3, 7),     # "If the Communist currently has at least 25 more VP than you … lose"
    (0, 24, None, 10),
])
def test_oer_time(dice, fw_vp, com_vp, roll, expected):
    ctx = game(cp=(10, 10), vp=(fw_vp, com_vp))
    if roll is not None:
        dice.append((6, roll))
    event(ctx, "oer_time", FW)
    assert cp(ctx, FW) == expected


def test_losing_cp_stops_at_zero(dice):
    # 5.2: a player may not have fewer CP than none (resource cp: minimum 0).
    ctx = game(cp=(2, 0), vp=(25, 0))
    dice.append((6, 5))
    event(ctx, "emergency_reinforcements", FW)
    assert cp(ctx, FW) == 0


def test_intelligence_breakthrough_reveals_the_units_of_one_square():
    # "You may flip face up all Communist units in any one square on the map."  Units, not markers.
    # Every square with face-down counters is offered (0103 holds only a marker, which the Free
    # World player cannot know), and only units are flipped.
    ctx = game(com("C1", "main_force_bn", "0101"), com("C2", "lf_bn", "0101"), com("G1", "ambush", "0101"),
               com("C3", "sapper_co", "0503"), com("G2", "bunkers", "0103"), fw("F1", "us_infantry_bn", "0201"))
    decisions = event(ctx, "intelligence_breakthrough", FW, ["reveal 0101"])
    assert decisions[0].side == FW
    assert [o.args[0] for o in decisions[0].options] == ["0101", "0103", "0503"]
    assert not ctx.state.unit("C1").hidden and not ctx.state.unit("C2").hidden
    assert ctx.state.unit("G1").hidden and ctx.state.unit("C3").hidden


def test_intelligence_breakthrough_with_nothing_face_down():
    ctx = game(com("C1", "main_force_bn", "0101", hidden=False))
    assert event(ctx, "intelligence_breakthrough", FW) == []


def test_weather_lowers_this_turns_income(dice):
    # "Reduce the number of CP you receive as reinforcement this turn by one die roll (to a
    # minimum of 0)": a turn modifier the income procedure applies, never below 0.
    ctx = game(cp=(10, 10))
    dice.append((6, 4))
    event(ctx, "weather", FW)
    assert ctx.state.turn_modifiers == ((FW, "income:cp", -4),)
    assert cp(ctx, FW) == 10  # the CP already held are untouched
    _end_of_turn(ctx)
    assert ctx.state.turn_modifiers == ()


@pytest.mark.parametrize("side, name, roll, received", [
    (FW, "weather", 4, 6),                # income 10 (the fixture's 5.4 income) - 4
    (COM, "bombing_in_cambodia", 3, 2),   # income 5 - 3
    (COM, "bombing_in_cambodia", 6, 0),   # 5 - 6: nobody receives fewer than no CP
])
def test_the_income_procedure_receives_the_reduced_income(dice, side, name, roll, received):
    # 6.2: the Random Events Phases come before the Reinforcement Phases, so "this turn" is the
    # income about to be received (6.4 "increasing your CP total by the amount listed").
    ctx = game(cp=(20, 20))
    dice.append((6, roll))
    event(ctx, name, side)
    ctx.acting = side
    drive(PROCEDURES["gain income"](ctx, do_line("gain income")))
    assert cp(ctx, side) == 20 + received


def test_media_circus_doubles_vp_both_sides_receive_this_turn_only():
    # "For this coming turn, double the number of VP both players receive for all game actions."
    ctx = game(vp=(10, 10))
    event(ctx, "media_circus", FW)
    assert ctx.state.turn_modifiers == ((COM, "gains:vp", 2), (FW, "gains:vp", 2))
    gain(ctx, COM, "vp", Fraction(3), "a test award")
    gain(ctx, FW, "vp", Fraction(2), "a test award")
    gain(ctx, FW, "cp", Fraction(2), "CP are not VP")
    assert (vp(ctx, COM), vp(ctx, FW), cp(ctx, FW)) == (16, 14, 2)
    _end_of_turn(ctx)  # the next turn: no longer doubled
    gain(ctx, COM, "vp", Fraction(3), "a test award")
    assert vp(ctx, COM) == 19


def test_media_circus_doubling_stops_at_the_cap():
    ctx = game(vp=(97, 30))  # a lead short of sudden death (4.4: 75), before and after
    event(ctx, "media_circus", FW)
    gain(ctx, FW, "vp", Fraction(2), "a test award")  # 4.3: 97 + 4 stops at 100
    assert vp(ctx, FW) == 100


# --- Communist events ------------------------------------------------------------------------------


def test_dau_tranh_adds_a_roll(dice):
    ctx = game(cp=(0, 10))
    dice.append((6, 6))
    event(ctx, "dau_tranh", COM)
    assert cp(ctx, COM) == 16


def test_dispute_in_politburo_subtracts_a_roll_never_below_zero(dice):
    # "Roll a die and subtract that result from your CP total"; 5.2 no fewer than 0.
    ctx = game(cp=(0, 10))
    dice.append((6, 4))
    event(ctx, "dispute_in_politburo", COM)
    assert cp(ctx, COM) == 6
    ctx = game(cp=(0, 3))
    dice.append((6, 5))
    event(ctx, "dispute_in_politburo", COM)
    assert cp(ctx, COM) == 0


def test_bombing_in_cambodia_lowers_this_turns_income(dice):
    # "Reduce the number of CP you receive this turn by a die roll."
    ctx = game(cp=(0, 10))
    dice.append((6, 6))
    event(ctx, "bombing_in_cambodia", COM)
    assert ctx.state.turn_modifiers == ((COM, "income:cp", -6),)
    assert cp(ctx, COM) == 10


def test_in_country_fighting_3_to_6_sends_a_free_world_battalion_to_the_pool(dice):
    # "On a 3-6, he must remove any one battalion from the map and place it in his reinforcement
    # pool" (Mapsheet Errata: "reinforcement pool").  The Free World player picks the battalion.
    ctx = game(fw("F1", "us_infantry_bn", "0101"), fw("F2", "pbr", "0102"), fw("F3", "ranger_bn", "0103"),
               fw("F4", "sf_company", "0201"), fw("F5", "us_infantry_bn", "reinforcement_pool"))
    dice += [(6, 3)]
    decisions = event(ctx, "in_country_fighting", COM, ["return F3"])
    assert decisions[0].side == FW
    assert [o.args[0] for o in decisions[0].options] == ["F1", "F3"]  # on-map battalions only
    assert ctx.state.unit("F3").location == "reinforcement_pool"
    assert ctx.state.unit("F1").location == "0101"


def test_in_country_fighting_with_no_free_world_battalion_on_the_map(dice):
    ctx = game(fw("F2", "pbr", "0102"))
    dice += [(6, 6)]
    assert event(ctx, "in_country_fighting", COM) == []
    assert ctx.state.unit("F2").location == "0102"


def test_in_country_fighting_1_to_2_gives_the_free_world_a_free_reinforcement(dice):
    # "On a 1-2, the Free World player picks a reinforcement and places it at no CP cost."  The pick
    # is a blind draw from the pool (12.2, box reinforcement_pool: draw at random): one counter in
    # it, so the draw is a roll of a one-faced die.  Its CP are untouched.
    ctx = game(fw("F1", "us_infantry_bn", "reinforcement_pool"), fw("B1", "us_log_base", "0302"),
               fw("B2", "us_log_base", "0502"), com("C1", "main_force_bn", "reinforcement_pool"), cp=(5, 5))
    dice += [(6, 2), (1, 1)]
    decisions = drive(events.run_event(ctx, "in_country_fighting", Scope(COM)), ["place F1 0502"])
    assert decisions and all(d.side == FW for d in decisions)
    assert ctx.state.unit("F1").location == "0502"
    assert ctx.state.unit("C1").location == "reinforcement_pool"
    assert (cp(ctx, FW), cp(ctx, COM)) == (5, 5)


@pytest.mark.parametrize("where, kind, expected", [
    ("0201", "main_force_bn", 2),   # a unit next to Saigon (corner of 0302)
    ("0403", "ambush", 2),          # "or guerrilla marker"
    ("0102", "main_force_bn", 0),   # two squares away
    ("0502", "main_force_bn", 0),
])
def test_rocket_attack(where, kind, expected):
    # "If you have at least one unit or guerrilla marker adjacent to Saigon or Vung Tau, you receive 2 VP."
    ctx = game(com("C1", kind, where), fw("F1", "us_infantry_bn", "0202"))
    event(ctx, "rocket_attack", COM)
    assert vp(ctx, COM) == expected and vp(ctx, FW) == 0


def test_rocket_attack_is_not_earned_by_free_world_units():
    ctx = game(fw("F1", "us_infantry_bn", "0201"))
    event(ctx, "rocket_attack", COM)
    assert vp(ctx, COM) == 0


# --- the condition grammar ----------------------------------------------------------------------------


RULEBOOK_CONDITIONS = sorted({tuple(str(w) for w in p.get("condition"))
                              for d in RULEBOOK.walk() for p in d.properties if p.get("condition")})


def test_every_rulebook_condition_parses():
    names = Names(RULEBOOK)
    for words in RULEBOOK_CONDITIONS:
        parse_condition(words, names)
    assert ("vp", "lead", ">=", "25") in RULEBOOK_CONDITIONS


@pytest.mark.parametrize("words, at", [
    ("we are winning", 0), ("vp lead >=", 3), ("enemy minesweeper in cell", 1), ("enemy ms", 2),
    ("bogus phase ends", 0), ("revealed or", 1), ("", 0),
])
def test_conditions_the_grammar_rejects(words, at):
    with pytest.raises(ConditionError) as caught:
        parse_condition(words.split(), RULEBOOK)
    assert caught.value.index == at


def scope_of(side, cell=None, happening=None, unit=None):
    return Scope(side, cell, unit, happening=happening)


def cond(text):
    return parse_condition(text.split(), RULEBOOK)


def test_vp_lead_is_own_total_less_the_other():
    ctx = game(vp=(30, 5))
    assert lead(ctx, FW, "vp") == 25 and lead(ctx, COM, "vp") == -25
    assert holds(ctx, cond("vp lead >= 25"), scope_of(FW))
    assert not holds(ctx, cond("opponent vp lead >= 25"), scope_of(FW))
    assert holds(ctx, cond("opponent vp lead >= 25"), scope_of(COM))
    assert holds(ctx, cond("opponent cp at most 0 and vp > 29"), scope_of(FW))
    assert not holds(ctx, cond("vp lead exceeds 25"), scope_of(FW))


def test_counters_in_the_cell():
    ctx = game(com("C1", "main_force_bn", "0502"), com("G1", "minefield", "0502"), fw("F1", "ms", "0502"),
               fw("F2", "airstrike", "0101"))
    here = scope_of(COM, "0502")
    assert holds(ctx, cond("enemy ms in cell"), here)
    assert not holds(ctx, cond("enemy ms in cell"), scope_of(COM, "0101"))
    assert not holds(ctx, cond("without communist units"), here)
    assert holds(ctx, cond("no own markers in cell"), scope_of(COM, "0101"))
    # "a Free World combat unit (not just markers)": an airstrike is a marker
    assert not holds(ctx, cond("free_world units in cell"), scope_of(COM, "0101"))
    assert holds(ctx, cond("free_world counters in cell"), scope_of(COM, "0101"))


def test_moments_match_only_what_is_happening():
    ctx = game()
    condition = cond("communist force enters")
    assert holds(ctx, condition, scope_of(FW, happening=Happening("enters", side=COM)))
    assert not holds(ctx, condition, scope_of(FW, happening=Happening("enters", side=FW)))
    assert not holds(ctx, condition, scope_of(FW))
    assert not holds(ctx, condition, scope_of(FW, happening=Happening("revealed")))
    assert holds(ctx, cond("combat round ends"), scope_of(FW, happening=Happening("round ends", first=True)))
    assert not holds(ctx, cond("first combat round ends"), scope_of(FW, happening=Happening("round ends")))


def test_defending_and_one_side():
    ctx = game(com("C1", "main_force_bn", "0101"), fw("F1", "pbr", "0101"))
    ctx.operation = Operation(FW, cell="0101")
    assert holds(ctx, cond("defending"), scope_of(COM, "0101"))
    assert not holds(ctx, cond("defending"), scope_of(FW, "0101"))
    assert not holds(ctx, cond("only one side remains in the contested square"), scope_of(FW, "0101"))
    ctx.operation = None
    assert not holds(ctx, cond("communist defending"), scope_of(COM))


def test_role_totals():
    ctx = game()
    units = {"firers": [fw("F1", "pbr", "0101"), fw("F2", "us_infantry_bn", "0101")],
             "targets": [com("C1", "main_force_bn", "0101")]}
    total = sum(ctx.rules.unit_type(u.type).factor("firepower") for u in units["firers"])
    assert holds(ctx, cond(f"firers firepower = {total}"), Scope(FW, roles=units))
    assert not holds(ctx, cond(f"firers firepower below {total}"), Scope(FW, roles=units))


def test_an_unreadable_condition_at_play_is_a_diagnostic():
    from warbook.dsl.ast import Span, Word
    from warbook.dsl.diagnostics import RulesError

    span = Span("x.rules", 1, 1, 1, 2)
    prop = Property("effect", span, tuple(Word(span, w) for w in ["effect", "no", "effect", "when", "soon"]),
                    (("effect", "no"), ("condition", ("soon",))))
    effect = compile_effect(prop, SCENARIO.rules.names)  # compiled with its line: the error is kept
    assert effect.condition is None and effect.condition_error is not None
    with pytest.raises(RulesError) as caught:
        effect_condition(effect)
    assert caught.value.diagnostics[0].code == "E805" and caught.value.diagnostics[0].span == span


CELLS = SCENARIO.board.cells
TYPES = sorted(ctx_type for ctx_type in SCENARIO.rules.unit_types if ctx_type != "dummy")


@st.composite
def positions(draw):
    units = []
    for n in range(draw(st.integers(0, 8))):
        type_ = draw(st.sampled_from(TYPES))
        side = SCENARIO.rules.unit_type(type_).side or draw(st.sampled_from([FW, COM]))
        where = draw(st.sampled_from([*CELLS, "eliminated", "refit_box", "reinforcement_pool"]))
        units.append(Unit(f"U{n}", type_, side, where, hidden=draw(st.booleans())))
    return units, draw(st.integers(0, 100)), draw(st.integers(0, 100))


@settings(max_examples=60, deadline=None)
@given(positions(), st.sampled_from([FW, COM]), st.sampled_from([None, *CELLS]),
       st.sampled_from([None, Happening("revealed"), Happening("enters", side=COM), Happening("fires", side=FW),
                        Happening("round ends", first=True), Happening("phase ends", phase="operations")]),
       st.booleans())
def test_evaluating_any_rulebook_condition_never_raises(position, side, cell, happening, battle):
    units, fw_vp, com_vp = position
    ctx = game(*units, vp=(fw_vp, com_vp))
    if battle and cell is not None:
        ctx.operation = Operation(FW, cell=cell)
    roles = {"firers": units[:2], "targets": units[2:]}
    for words in RULEBOOK_CONDITIONS:
        result = holds(ctx, parse_condition(words, RULEBOOK), Scope(side, cell, None, roles=roles,
                                                                    happening=happening))
        assert result in (True, False)


# --- sensors (18.3) ----------------------------------------------------------------------------------


def sensor_position():
    return game(fw("S1", "sensor", "0402"), com("C1", "main_force_bn", "0402"), com("C2", "sapper_co", "0402"),
                com("C3", "lf_bn", "0402"), acting=COM)


def run_sensor_trigger(ctx, path=("0502", "0402"), force=("C1", "C2")):
    ctx.operation = Operation(COM, force=list(force), origin=path[0])
    ctx.operation.path = tuple(path)
    return drive(PROCEDURES["trigger"](ctx, do_line("trigger", "sensor")))


@pytest.mark.parametrize("roll", [1, 2, 3])
def test_a_sensor_reveals_the_force_on_1_to_3(dice, roll):
    # "On a 1-3, the Communist force is flipped face-up": the force, not other units in the square.
    ctx = sensor_position()
    dice.append((6, roll))
    run_sensor_trigger(ctx)
    assert not ctx.state.unit("C1").hidden and not ctx.state.unit("C2").hidden
    assert ctx.state.unit("C3").hidden
    assert ctx.state.unit("S1").location == "0402"


@pytest.mark.parametrize("roll", [4, 5])
def test_a_sensor_does_nothing_on_4_or_5(dice, roll):
    ctx = sensor_position()
    dice.append((6, roll))
    run_sensor_trigger(ctx)
    assert all(ctx.state.unit(u).hidden for u in ("C1", "C2", "C3"))
    assert ctx.state.unit("S1").location == "0402"


def test_a_sensor_is_removed_from_play_on_6(dice):
    ctx = sensor_position()
    dice.append((6, 6))
    run_sensor_trigger(ctx)
    assert ctx.state.unit("S1").location == ELIMINATED
    assert ctx.state.unit("C1").hidden


def test_a_sensor_rolls_for_a_square_passed_through_and_not_for_the_start(dice):
    # "Each time a Communist force enters a square with a sensor marker": the starting square is
    # not entered, a square passed through is.
    ctx = game(fw("S1", "sensor", "0402"), fw("S2", "sensor", "0502"), com("C1", "main_force_bn", "0303"))
    dice.append((6, 5))  # one roll: for S1 at 0402 only
    run_sensor_trigger(ctx, path=("0502", "0402", "0303"), force=("C1",))
    assert "sensor" in " ".join(texts(ctx)).lower()


def test_a_sensor_ignores_free_world_forces(dice):
    ctx = game(fw("S1", "sensor", "0402"), fw("F1", "pbr", "0402"), acting=FW)
    ctx.operation = Operation(FW, force=["F1"], origin="0502")
    ctx.operation.path = ("0502", "0402")
    drive(PROCEDURES["trigger"](ctx, do_line("trigger", "sensor")))
    assert ctx.state.unit("S1").location == "0402"


def test_the_entered_hook_and_the_trigger_roll_once(dice):
    ctx = sensor_position()
    ctx.operation = Operation(COM, force=["C1", "C2"], origin="0502")
    dice.append((6, 2))
    drive(events.entered(ctx, COM, "0402", ("C1", "C2")))
    ctx.operation.path = ("0502", "0402")
    drive(PROCEDURES["trigger"](ctx, do_line("trigger", "sensor")))  # no second roll
    assert not ctx.state.unit("C1").hidden


# --- Guerrilla markers when revealed (19.3) ---------------------------------------------------------------


GUERRILLA = ("ambush", "arms_cache", "bunkers", "civilians", "minefield", "supply_cache")


def battle(*units: Unit, cell: str = "0502", side: str = FW) -> Context:
    """A battle in ``cell`` after the recon step's spot: every counter there face up."""
    shown = [evolve(u, hidden=False) if u.location == cell else u for u in units]
    ctx = game(*shown, acting=side)
    ctx.operation = Operation(side, force=[u.id for u in shown if u.side == side], cell=cell)
    return ctx


def recon_trigger(ctx) -> list:
    return drive(PROCEDURES["trigger"](ctx, do_line("trigger", *GUERRILLA)))


@pytest.mark.parametrize("marker", ["ambush", "bunkers", "civilians"])
def test_markers_removed_without_effect_when_no_communist_unit_is_there(marker):
    # Ambush / Civilians "If there are no Communist combat units in the square when revealed,
    # remove the marker without it having any effect"; Bunkers "remove it immediately".
    ctx = battle(com("G1", marker, "0502"), fw("F1", "pbr", "0502"))
    recon_trigger(ctx)
    assert ctx.state.unit("G1").location == ELIMINATED
    assert (vp(ctx, FW), vp(ctx, COM)) == (0, 0)


@pytest.mark.parametrize("marker", ["ambush", "arms_cache", "bunkers", "civilians"])
def test_markers_stay_with_communist_units(marker):
    ctx = battle(com("G1", marker, "0502"), com("C1", "main_force_bn", "0502"), fw("F1", "pbr", "0502"))
    recon_trigger(ctx)
    assert ctx.state.unit("G1").location == "0502"
    assert (vp(ctx, FW), vp(ctx, COM)) == (0, 0)


def test_a_deception_unit_does_not_keep_a_marker(dice):
    # 10.6: deception units "are treated as real units until revealed, at which time they're removed
    # from the map and put into that side's Refit Box".  Revealed with the Ambush, they are gone
    # when 19.3 asks whether Communist combat units are in the square.
    ctx = battle(com("G1", "ambush", "0502"), com("D1", "deception_l", "0502"), fw("F1", "pbr", "0502"))
    recon_trigger(ctx)
    assert ctx.state.unit("D1").location == "refit_box"
    assert ctx.state.unit("G1").location == ELIMINATED
    assert vp(ctx, FW) == 0  # 10.6 "Their elimination or refitting never generates VP"


def test_an_arms_cache_alone_gives_the_free_world_a_vp():
    # "If revealed by Free World forces and there are no Communist combat units in that square,
    # remove it immediately and give the Free World player a VP."  VP Table: Arms Cache = 1.
    ctx = battle(com("G1", "arms_cache", "0502"), fw("F1", "pbr", "0502"))
    recon_trigger(ctx)
    assert ctx.state.unit("G1").location == ELIMINATED
    assert vp(ctx, FW) == 1


def test_a_supply_cache_is_removed_and_scores_with_a_free_world_combat_unit():
    # "If revealed by Free World forces, remove it immediately and, if there is a Free World combat
    # unit (not just markers) in the square, give the Free World one VP."
    ctx = battle(com("G1", "supply_cache", "0502"), com("C1", "main_force_bn", "0502"), fw("F1", "pbr", "0502"))
    recon_trigger(ctx)
    assert ctx.state.unit("G1").location == ELIMINATED and vp(ctx, FW) == 1


def test_a_supply_cache_found_by_markers_alone_scores_nothing():
    ctx = battle(com("G1", "supply_cache", "0502"), fw("A1", "airstrike", "0502"))
    recon_trigger(ctx)
    assert ctx.state.unit("G1").location == ELIMINATED and vp(ctx, FW) == 0


def test_civilians_give_two_vp_when_the_free_world_fires_and_go():
    # "if the Free World player conducts any combat in that square, the Communist player receives
    # two VP. The marker is then removed."
    ctx = battle(com("G1", "civilians", "0502"), com("C1", "main_force_bn", "0502"), fw("F1", "pbr", "0502"))
    recon_trigger(ctx)
    drive(events.fired(ctx, COM, "0502"))  # Communist fire is not Free World combat
    assert vp(ctx, COM) == 0 and ctx.state.unit("G1").location == "0502"
    drive(events.fired(ctx, FW, "0502"))
    assert vp(ctx, COM) == 2 and ctx.state.unit("G1").location == ELIMINATED


def test_reveal_effects_happen_once_per_battle():
    ctx = battle(com("G1", "arms_cache", "0502"), com("C1", "main_force_bn", "0502"), fw("F1", "pbr", "0502"))
    recon_trigger(ctx)
    ctx.state = ctx.state.with_unit(evolve(ctx.state.unit("C1"), location=ELIMINATED))
    recon_trigger(ctx)  # the second round's recon: the cache was revealed in the first
    assert ctx.state.unit("G1").location == "0502" and vp(ctx, FW) == 0


def test_a_minefield_with_a_minesweeper_is_removed_without_effect():
    # "If there's a Free World minesweeper unit in the square, the marker is removed without it
    # having any effect."  No die is rolled (the dice fixture is not even needed).
    ctx = battle(com("G1", "minefield", "0502"), fw("F1", "ms", "0502"), fw("F2", "pbr", "0502"))
    recon_trigger(ctx)
    assert ctx.state.unit("G1").location == ELIMINATED
    assert ctx.state.unit("F2").location == "0502"


def test_a_minefield_loss_falls_on_the_lowest_recon_unit(dice):
    # "attack … with a fire strength of three …  If a loss is inflicted by a minefield attack, it's
    # taken by the Free World "L," "R" or "N" unit with the lowest recon value."  Strength 3 reads
    # the CRT column "3"; a 6 there is K (provisional row 6): eliminate one targeted unit.  The RAG
    # (recon 1) is lower than the PBR and the infantry battalion (recon 2); the helicopter
    # detachment (class A) is not attacked although its recon is no higher.
    ctx = battle(com("G1", "minefield", "0502"), fw("F1", "pbr", "0502"), fw("F2", "rag", "0502"),
                 fw("F3", "us_infantry_bn", "0502"), fw("F4", "helicopter_det", "0502"))
    recon = {u: ctx.rules.unit_type(ctx.state.unit(u).type).factor("recon") for u in ("F1", "F2", "F3", "F4")}
    assert recon == {"F1": 2, "F2": 1, "F3": 2, "F4": 2}
    dice.append((6, 6))
    recon_trigger(ctx)
    assert ctx.state.unit("F2").location == ELIMINATED
    assert all(ctx.state.unit(u).location == "0502" for u in ("F1", "F3", "F4"))
    assert vp(ctx, COM) == 2  # VP Table: a South Vietnamese unit eliminated, 2 for all but divisions


def test_a_minefield_picks_among_tied_lowest_recon_at_random(dice):
    # "If more than one unit has the same lowest recon value, choose one at random."  RAG and ATC
    # both have recon 1: a d2 picks the second (in id order), then the CRT roll.
    ctx = battle(com("G1", "minefield", "0502"), fw("F1", "rag", "0502"), fw("F2", "atc", "0502"),
                 fw("F3", "pbr", "0502"))
    dice += [(2, 2), (6, 6)]
    recon_trigger(ctx)
    assert ctx.state.unit("F2").location == ELIMINATED
    assert ctx.state.unit("F1").location == "0502" and ctx.state.unit("F3").location == "0502"


def test_a_minefield_with_no_result_leaves_everyone(dice):
    # Column 3, roll 3: NE (provisional) — no loss.
    ctx = battle(com("G1", "minefield", "0502"), fw("F1", "pbr", "0502"))
    dice.append((6, 3))
    recon_trigger(ctx)
    assert ctx.state.unit("F1").location == "0502"
