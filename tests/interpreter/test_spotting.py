"""``do spot with spotting`` under the shipped Several Klicks rules, checked by hand against the seed.

Seed text (SPOTTING): "To spot a hidden unit a spotter must have a friendly unit adjacent to
them. (Unless in patrol mode which has a range of 2 hexes)."  PATROL MODE: "(3 for special
forces)".  The terrain table's To Spot column: Clear, Road, Landing Zone "Auto"; Elephant Grass,
Village "1-3"; Jungle "1-2"; Bunker, Mountain "1".  UNITS: "The VC/NVA player can have up to the
same number of dummy markers as actual units."

The map (fixtures/spotting/klicks_map.toml) is three columns of eight hexes: column 1 clear,
column 2 one To Spot terrain a row (0201 clear, 0202 road, 0203 elephant grass, 0204 landing
zone, 0205 jungle, 0206 bunker, 0207 village, 0208 mountain), column 3 jungle.  Down a column
the distance is the row difference; hex 01rr touches 02rr (and 02(r-1)).
"""

from pathlib import Path

import pytest
from attrs import evolve

from driving import do_call
from warbook.dsl.ast import Span
from warbook.dsl.compiled.calls import Spot
from warbook.dsl.diagnostics import RulesError
from warbook.dsl.model import Property
from warbook.interpreter.context import Context
from warbook.interpreter.procedures import PROCEDURES, load_procedures
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.rules import ELIMINATED
from warbook.interpreter.state import GameState, Unit

FIXTURES = Path(__file__).parent / "fixtures" / "spotting"
KLICKS = load_scenario(FIXTURES / "klicks.toml")
load_procedures()


def do_line(scenario, procedure: str):
    return do_call(scenario.rules, procedure)


def game_with(*units: Unit, scenario=KLICKS) -> Context:
    ctx = Context(scenario, seed=0)
    ctx.state = GameState(turn=1, phase="combat_phase", units=tuple(sorted(units)))
    return ctx


def run(ctx: Context, procedure: str = "spot", scenario=KLICKS) -> list:
    """Run one procedure to the end (spotting asks no decisions)."""
    flow = PROCEDURES[procedure](ctx, do_line(scenario, procedure))
    decisions = list(flow)
    assert decisions == []
    return [e["text"] for e in ctx.events if e["type"] == "event"]


def vc(uid: str, at: str, type_: str = "vc_local", **kw) -> Unit:
    return Unit(uid, type_, "vc_nva", at, hidden=True, **kw)


def allied(uid: str, at: str, type_: str = "us_infantry", mode: str | None = None) -> Unit:
    return Unit(uid, type_, "allies", at, mode=mode)


# --- range (SPOTTING, PATROL MODE) -----------------------------------------------------------


def test_an_adjacent_friendly_unit_spots_a_counter_in_clear(dice):
    ctx = game_with(vc("V1", "0101"), allied("A1", "0102"))
    run(ctx)
    assert not ctx.state.unit("V1").hidden


def test_two_hexes_away_is_out_of_range_without_patrol(dice):
    ctx = game_with(vc("V1", "0101"), allied("A1", "0103"))
    run(ctx)
    assert ctx.state.unit("V1").hidden


def test_patrol_spots_two_hexes_away_but_not_three(dice):
    ctx = game_with(vc("V1", "0101"), allied("A1", "0103", mode="patrol"))
    run(ctx)
    assert not ctx.state.unit("V1").hidden
    ctx = game_with(vc("V1", "0101"), allied("A1", "0104", mode="patrol"))
    run(ctx)
    assert ctx.state.unit("V1").hidden


def test_special_forces_on_patrol_spot_three_hexes_away(dice):
    ctx = game_with(vc("V1", "0101"), allied("A1", "0104", "special_forces", mode="patrol"))
    run(ctx)
    assert not ctx.state.unit("V1").hidden
    # Out of patrol the special forces have the plain range of 1 (SPOTTING: "adjacent").
    ctx = game_with(vc("V1", "0101"), allied("A1", "0103", "special_forces"))
    run(ctx)
    assert ctx.state.unit("V1").hidden
    ctx = game_with(vc("V1", "0101"), allied("A1", "0105", "special_forces", mode="patrol"))
    run(ctx)
    assert ctx.state.unit("V1").hidden


def test_watch_mode_gives_no_extra_range(dice):
    ctx = game_with(vc("V1", "0101"), allied("A1", "0103", mode="watch"))
    run(ctx)
    assert ctx.state.unit("V1").hidden


# --- terrain: To Spot ---------------------------------------------------------------------------


@pytest.mark.parametrize("cell", ["0201", "0202", "0204"])  # clear, road, landing zone: "Auto"
def test_auto_terrain_reveals_without_a_roll(dice, cell):
    spotter = "0101" if cell == "0201" else f"01{cell[2:]}"
    ctx = game_with(vc("V1", cell), allied("A1", spotter))
    texts = run(ctx)
    assert not ctx.state.unit("V1").hidden
    assert any("(automatic)" in t for t in texts)


@pytest.mark.parametrize("cell, terrain, needs, roll, spotted", [
    ("0203", "Elephant Grass", "1-3", 3, True),
    ("0203", "Elephant Grass", "1-3", 4, False),
    ("0205", "Jungle", "1-2", 2, True),
    ("0205", "Jungle", "1-2", 3, False),
    ("0206", "Bunker", "1", 1, True),
    ("0206", "Bunker", "1", 2, False),
    ("0207", "Village", "1-3", 3, True),
    ("0208", "Mountain", "1", 2, False),
])
def test_the_terrain_number_is_rolled_on_a_d6(dice, cell, terrain, needs, roll, spotted):
    dice.append((6, roll))  # "roll d6 against terrain" (the rulebook's gap: the table names no die)
    ctx = game_with(vc("V1", cell), allied("A1", f"01{cell[2:]}"))
    texts = run(ctx)
    assert ctx.state.unit("V1").hidden is not spotted
    if spotted:
        assert f"V1 spotted in {terrain} {cell}: roll {roll} on d6, needs {needs}; it is a VC (Local)" in texts
    else:
        assert f"V1 not spotted in {terrain} {cell}: roll {roll} on d6, needs {needs}" in texts
        assert not any("VC (Local)" in t for t in texts)  # a failed attempt tells nothing of the counter


def test_one_attempt_per_counter_however_many_spotters(dice):
    dice.append((6, 5))  # jungle needs 1-2: missed, and no second roll for the second spotter
    ctx = game_with(vc("V1", "0205"), allied("A1", "0105"), allied("A2", "0206"), allied("A3", "0204"))
    run(ctx)
    assert ctx.state.unit("V1").hidden


def test_each_counter_of_a_stack_is_tried_in_id_order(dice):
    dice.extend([(6, 1), (6, 6)])  # V1 spotted, V2 not
    ctx = game_with(vc("V2", "0205", "nva"), vc("V1", "0205"), allied("A1", "0105"))
    run(ctx)
    assert not ctx.state.unit("V1").hidden and ctx.state.unit("V2").hidden


def test_a_spotted_dummy_is_removed_and_scores_nothing(dice):
    ctx = game_with(vc("V1", "0201", "dummy", dummy=True), allied("A1", "0101"))
    texts = run(ctx)
    dummy = ctx.state.unit("V1")
    assert dummy.location == ELIMINATED and not dummy.hidden
    assert ctx.state.resources == ()
    assert "V1 spotted in Clear 0201 (automatic); it is a Dummy marker, removed from the map" in texts


def test_an_unspotted_dummy_stays_face_down_on_the_map(dice):
    dice.append((6, 3))  # jungle needs 1-2
    ctx = game_with(vc("V1", "0205", "dummy", dummy=True), allied("A1", "0105"))
    run(ctx)
    assert ctx.state.unit("V1") == vc("V1", "0205", "dummy", dummy=True)


def test_revealed_counters_stay_revealed(dice):
    # Klicks' spotting has no "hide again": a revealed counter with no allied unit near stays face up.
    ctx = game_with(evolve(vc("V1", "0308"), hidden=False), allied("A1", "0101"))
    run(ctx)
    assert not ctx.state.unit("V1").hidden


def test_only_the_acting_side_spots_in_a_phase_that_has_one(dice):
    ctx = game_with(vc("V1", "0101"), allied("A1", "0102"))
    ctx.acting = "vc_nva"
    run(ctx)
    assert ctx.state.unit("V1").hidden
    ctx.acting = "allies"
    run(ctx)
    assert not ctx.state.unit("V1").hidden


# --- the generic fixture (fixtures/spotting/hidden.rules): other spotting forms --------------

HIDDEN = load_scenario(FIXTURES / "hidden.toml")


def spot_with(ctx: Context, spotting: str) -> list[str]:
    """Run ``do spot with SPOTTING`` for a spotting the fixture's sequence does not use."""
    call = Spot(spotting, source=Property("do", Span.point("test"), (), (("procedure", "spot"), ("spotting", spotting))))
    assert list(PROCEDURES["spot"](ctx, call)) == []
    return [e["text"] for e in ctx.events if e["type"] == "event"]


def red(uid: str, at: str, type_: str = "guerrilla") -> Unit:
    return Unit(uid, type_, "red", at, hidden=True, dummy=type_ == "lure")


def test_a_dummy_does_not_spot(dice):
    # 0101 and 0102 touch, and 0101 is clear (spot auto): a real blue unit there would spot R1.
    ctx = game_with(red("R1", "0101"), Unit("B1", "decoy", "blue", "0102", dummy=True), scenario=HIDDEN)
    spot_with(ctx, "sight")
    assert ctx.state.unit("R1").hidden


def test_a_terrain_number_with_its_own_dice_needs_none_from_the_spotting(dice):
    dice.append((6, 1))  # forest: "spot 1 on d6"; spotting glimpse names no dice
    ctx = game_with(red("R1", "0501"), Unit("B1", "trooper", "blue", "0502"), scenario=HIDDEN)
    spot_with(ctx, "glimpse")
    assert not ctx.state.unit("R1").hidden


def test_a_terrain_roll_with_no_dice_named_is_a_diagnostic(dice):
    # marsh: "spot 1-4" names no dice, and neither does spotting glimpse.
    ctx = game_with(red("R1", "0601"), Unit("B1", "trooper", "blue", "0602"), scenario=HIDDEN)
    with pytest.raises(RulesError) as info:
        spot_with(ctx, "glimpse")
    assert info.value.diagnostics[0].code == "E805" and "no dice" in info.value.diagnostics[0].message


def test_sharing_a_cell_reveals_and_leaving_hides_again(dice):
    # spotting fog: "reveal on entering with enemy" and "hide again when enemy leaves", no range.
    ctx = game_with(red("R1", "0201"), red("R2", "0203"), red("R3", "0201", "lure"),
                    Unit("B1", "trooper", "blue", "0201"), Unit("B2", "trooper", "blue", "0202"), scenario=HIDDEN)
    texts = spot_with(ctx, "fog")
    assert not ctx.state.unit("R1").hidden  # blue shares its cell
    assert ctx.state.unit("R3").location == ELIMINATED  # a revealed dummy leaves the map
    assert ctx.state.unit("R2").hidden  # blue is only next to it, and fog has no range
    assert "R1 revealed: enemy in its cell 0201; it is a Guerrilla" in texts
    ctx.update_unit(evolve(ctx.state.unit("B1"), location="0101"))
    texts = spot_with(ctx, "fog")
    assert ctx.state.unit("R1").hidden
    assert "R1 is face down again: no enemy in 0201" in texts


def test_a_dummy_in_the_cell_does_not_reveal(dice):
    ctx = game_with(red("R1", "0201"), Unit("B1", "decoy", "blue", "0201", dummy=True), scenario=HIDDEN)
    spot_with(ctx, "fog")
    assert ctx.state.unit("R1").hidden
