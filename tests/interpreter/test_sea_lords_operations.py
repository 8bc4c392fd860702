"""Sea Lords operations: designating a force, paying for it and moving it (``designate force``,
``move force``), on the reconstructed delta map.

Expected costs come from the CP Table (27.0) and 7.3/7.4; where a force may go from 8.3-8.9.
The position (fixtures/sea_lords_ops/ops.toml): at My Tho (2416) a US base, two PBRs, a US
infantry battalion and a CCB; at Can Tho (1820) a helicopter detachment, an ARVN ranger
battalion, an ARVN base, an ARVN HQ and a RAG; at Vung Tau (3217) a WPB and a PBR; Communist
main force battalions at 2217 and at Ben Tre (2418) with an HQ, and an Ambush marker at 2117.
"""

from fractions import Fraction
from pathlib import Path

import pytest
from attrs import evolve

from driving import do_call, drive, options
from gallery import set_up
from warbook.interpreter.procedures import PROCEDURES, load_procedures
from warbook.interpreter.costs import cost_table
from warbook.interpreter.operation import Operation
from warbook.interpreter.forces import Force, operation_cost
from warbook.interpreter.scenario import load_scenario

FIXTURE = Path(__file__).parent / "fixtures" / "sea_lords_ops" / "ops.toml"


@pytest.fixture(scope="module")
def scenario():
    load_procedures()
    return load_scenario(FIXTURE)


@pytest.fixture
def ctx(scenario):
    return set_up(scenario, seed=1)


def ids(ctx, type_name, cell=None):
    return sorted(u.id for u in ctx.state.units if u.type == type_name and (cell is None or u.location == cell))


def do_line(ctx, procedure):
    return do_call(ctx.rules, procedure)


def run(ctx, procedure, side, answers):
    """Run a procedure for ``side``, answering its decisions in order; returns the decisions."""
    ctx.acting = side
    return drive(PROCEDURES[procedure](ctx, do_line(ctx, procedure)), answers)


shown = options


def cp(ctx, side):
    return ctx.state.resource(side, "cp")


def actions(ctx, side):
    names = list(do_line(ctx, "designate force").actions)
    return [ctx.rules.actions[n] for n in names if ctx.rules.actions[n].side == side]


def units(ctx, *unit_ids):
    return [ctx.state.unit(i) for i in unit_ids]


# --- what a force costs (7.3, 7.4, CP Table) -------------------------------------------------------


def test_a_force_led_by_a_ccb_costs_the_us_headquarters_price(ctx):
    """7.3: a CCB leads like an HQ; the CP Table: "2 if US headquarters" for the whole force."""
    force = units(ctx, *ids(ctx, "ccb"), *ids(ctx, "pbr", "2416"), *ids(ctx, "us_infantry_bn"))
    assert operation_cost(ctx, actions(ctx, "free_world"), force) == ("cp", Fraction(2), "fw_operation_hq")


def test_an_arvn_headquarters_costs_three(ctx):
    """CP Table: "3 if an ARVN headquarters"."""
    force = units(ctx, *ids(ctx, "arvn_hq"), *ids(ctx, "rag"))
    assert operation_cost(ctx, actions(ctx, "free_world"), force) == ("cp", Fraction(3), "fw_operation_hq")


def test_without_a_headquarters_each_unit_pays_by_nationality(ctx):
    """7.4 and the CP Table: "2 per US/Ally unit; 3 per ARVN unit"."""
    us_pbrs = units(ctx, *ids(ctx, "pbr", "2416"))
    assert operation_cost(ctx, actions(ctx, "free_world"), us_pbrs) == ("cp", Fraction(4), "fw_operation_no_hq")
    mixed = units(ctx, *ids(ctx, "rag"), *ids(ctx, "helicopter_det"))
    assert operation_cost(ctx, actions(ctx, "free_world"), mixed)[1] == 5


def test_a_communist_force_with_an_hq_costs_two_and_without_two_per_unit(ctx):
    """CP Table, Communist: "2" using a headquarters, "2 per unit" without."""
    com = actions(ctx, "communist")
    with_hq = units(ctx, *ids(ctx, "com_hq"), *ids(ctx, "main_force_bn", "2418"))
    assert operation_cost(ctx, com, with_hq) == ("cp", Fraction(2), "com_operation_hq")
    without = units(ctx, *ids(ctx, "main_force_bn"))
    assert operation_cost(ctx, com, without) == ("cp", Fraction(4), "com_operation_no_hq")


def test_designating_pays_once_for_the_whole_led_force(ctx):
    """7.3/16.1: one expenditure activates the CCB and every unit it leads (20 CP → 18)."""
    ctx.operation = Operation("free_world")
    force = [*ids(ctx, "ccb"), *ids(ctx, "us_infantry_bn"), *ids(ctx, "pbr", "2416")]
    run(ctx, "designate force", "free_world", ["operate 2416", *(f"add {i}" for i in force), "go"])
    assert cp(ctx, "free_world") == 18
    assert sorted(ctx.operation.force) == sorted(force)


def test_passing_ends_the_sides_operations(ctx):
    ctx.operation = Operation("communist")
    decisions = run(ctx, "designate force", "communist", ["pass"])
    assert ctx.operation.passed
    # 8.7: Communist L units cannot move by themselves and the Communist side has no carriers here.
    assert shown(decisions[0]) == ["pass"]


# --- who may move together (7.5, 8.7-8.9) -----------------------------------------------------------


def test_land_units_need_enough_transport(ctx):
    """8.7/8.8: an L unit moves only when carried; the carriers' transport points must cover its cost."""
    inf = ctx.state.unit(ids(ctx, "us_infantry_bn")[0])
    pbr = ctx.state.unit(ids(ctx, "pbr", "2416")[0])
    need = ctx.rules.unit_type("us_infantry_bn").factor("transport_cost")
    per_pbr = ctx.rules.unit_type("pbr").factor("transport")
    assert Force(ctx, [inf]).problem() == "carried units need a carrier in the force"
    alone = Force(ctx, [inf, pbr]).problem()
    assert (alone is None) == (per_pbr >= need)
    both = units(ctx, *ids(ctx, "pbr", "2416"))
    assert (Force(ctx, [inf, *both]).problem() is None) == (2 * per_pbr >= need)


def test_naval_and_riverine_units_move_together_only_in_coastal_squares(ctx):
    """7.5 exception 1: R and N class units may form one force only for a move in coastal squares."""
    force = Force(ctx, units(ctx, *ids(ctx, "wpb"), *ids(ctx, "pbr", "3217")))
    assert force.problem() is None
    ends = force.destinations()
    assert ends
    assert all("coastal" in ctx.rules.cell_selectors(ctx.board.terrain(c), ctx.board.tags(c)) for c in ends)


# --- where a force may go (8.3-8.6) ----------------------------------------------------------------


def test_a_mixed_force_may_move_as_far_as_its_common_paths_reach(ctx):
    """``can_move`` (asked at each unit added) stops the common paths' search at the first cell the
    force may end in; it answers as the whole ``destinations`` would."""
    from warbook.interpreter.situation import situation

    force = Force(ctx, units(ctx, *ids(ctx, "wpb"), *ids(ctx, "pbr", "3217")))
    ends = force.destinations()
    assert force.can_move() and ends
    full = force._common_paths(situation(ctx, "free_world"))
    far = max(ends, key=lambda c: len(force.path(c)))
    early = force._common_paths(situation(ctx, "free_world"), goal={far})
    assert far in early and early.items() <= full.items()
    assert len(early) <= len(full)
    assert force._common_paths(situation(ctx, "free_world"), goal={"no such cell"}) == {}
    assert not Force(ctx, units(ctx, *ids(ctx, "us_infantry_bn", "2416"))).can_move()  # cargo alone: no carrier


def test_riverine_moves_cross_only_water_links_and_stop_at_the_enemy(ctx):
    """8.4: R units move only across sides/corners with a water symbol, into river, coastal, city,
    town or base squares (8.3), and stop on entering a square with enemy units."""
    force = Force(ctx, units(ctx, *ids(ctx, "pbr", "2416")))
    ends = force.destinations()
    allowed = {"major_river", "minor_river", "coastal", "city", "town", "communist_base"}
    enemy = {u.location for u in ctx.state.units if u.side == "communist" and u.type != "ambush"}
    assert "2217" in ends  # the main force battalion's square: entered, and the move stops there
    for cell in ends:
        path = force.path(cell)
        selectors = ctx.rules.cell_selectors(ctx.board.terrain(cell), ctx.board.tags(cell))
        assert selectors & (allowed | {"river"}), cell
        for a, b in zip(path, path[1:]):
            assert "water_link" in ctx.board.edge(a, b)["features"], (cell, a, b)
        assert not enemy & set(path[1:-1]), (cell, path)


def test_airmobile_moves_end_only_where_8_3_allows_and_never_in_cambodia(ctx):
    """8.3 point 5 / 8.6: A units go anywhere but must end on a river, coastal, city, town or base
    square; Free World units may not enter Cambodia (21.1); high seas are N only (8.3 point 4)."""
    heli = Force(ctx, units(ctx, *ids(ctx, "helicopter_det")))
    ends = heli.destinations()
    assert "2217" in ends  # into the enemy's square: A units are not stopped on the way (8.6)
    for cell in ends:
        selectors = ctx.rules.cell_selectors(ctx.board.terrain(cell), ctx.board.tags(cell))
        assert selectors & {"river", "coastal", "city", "town", "base"}, cell
        assert "cambodia" not in selectors and ctx.board.terrain(cell) != "high_seas", cell


def test_moving_into_the_enemy_starts_a_battle_there(ctx):
    ctx.operation = Operation("free_world")
    run(ctx, "designate force", "free_world", ["operate 2416", *(f"add {i}" for i in ids(ctx, "pbr", "2416")), "go"])
    run(ctx, "move force", "free_world", ["move 2217"])
    assert ctx.operation.cell == "2217"
    assert {ctx.state.unit(i).location for i in ids(ctx, "pbr")} >= {"2217"}


def test_a_hidden_guerrilla_marker_stops_a_free_world_riverine_force(ctx):
    """8.4 (2): "if it's a moving Free World force, it must stop on first entering a square with one
    or more Communist Guerrilla markers" — even face down, so the move the player chose stops early,
    at the marker, which is revealed there and acts (19.3: "Ambush: … If there are no Communist
    combat units in the square when revealed, remove the marker without it having any effect")."""
    ctx.operation = Operation("free_world")
    pbrs = ids(ctx, "pbr", "2416")
    ambush = ids(ctx, "ambush")
    run(ctx, "designate force", "free_world", ["operate 2416", *(f"add {i}" for i in pbrs), "go"])
    decisions = run(ctx, "move force", "free_world", ["move 2117", "stop"])  # up the Mekong, towards Vinh Long
    assert "move 2117" in shown(decisions[0])
    assert decisions[1].prompt.startswith("the force at 2117")
    assert [ctx.state.unit(i).location for i in pbrs] == ["2117", "2117"]
    assert not ctx.state.unit(ambush[0]).on_map
    assert ctx.operation.cell is None  # only the marker was there: no battle


def test_past_guerrilla_markers_alone_the_force_may_go_on(ctx):
    """19.4: "If a square contains only Guerrilla markers, the Free World player may continue
    moving through it" — after 8.4's stop: the force stops at 2117, the ambush is revealed and
    removed (19.3), and the force goes on to Vinh Long, where it ends its move."""
    ctx.operation = Operation("free_world")
    pbrs = ids(ctx, "pbr", "2416")
    run(ctx, "designate force", "free_world", ["operate 2416", *(f"add {i}" for i in pbrs), "go"])
    decisions = run(ctx, "move force", "free_world", ["move 2117", "move 2018", "stop"])
    assert "stop" in shown(decisions[1]) and "move 2018" in shown(decisions[1])
    assert [ctx.state.unit(i).location for i in pbrs] == ["2018", "2018"]
    assert ctx.operation.path[0] == "2416" and "2117" in ctx.operation.path and ctx.operation.path[-1] == "2018"
    assert ctx.operation.cell is None


def test_a_minefield_met_on_the_way_attacks_and_the_force_may_go_on(ctx):
    """19.3: "Minefield: when revealed, immediately attack … Note that a minefield may attack by
    itself"; 19.4: the square holds only Guerrilla markers, so the force may then continue.  The
    minefield stays (it leaves only when a first combat round ends), face down again once the force
    has gone (8.13)."""
    from attrs import evolve

    mine = next(u for u in ctx.state.units if u.type == "ambush")
    ctx.state = ctx.state.with_unit(evolve(mine, type="minefield"))
    ctx.operation = Operation("free_world")
    pbrs = ids(ctx, "pbr", "2416")
    run(ctx, "designate force", "free_world", ["operate 2416", *(f"add {i}" for i in pbrs), "go"])
    attacked = []
    flow = PROCEDURES["move force"](ctx, do_line(ctx, "move force"))
    ctx.acting = "free_world"
    decision = next(flow)
    decision = flow.send(next(o for o in decision.options if str(o) == "move 2117"))
    while decision.kind != "move":  # the minefield's attack: rolls and losses
        attacked.append(decision.kind)
        decision = flow.send(decision.options[0])
    assert decision.prompt.startswith("the force at 2117")
    survivors = [i for i in pbrs if ctx.state.unit(i).on_map]
    assert "move 2018" in shown(decision) and ctx.state.unit(mine.id).on_map
    assert any(e.get("kind") == "attack" and e.get("marker") == mine.id for e in ctx.events)
    assert len(survivors) == 1  # seed 1: the minefield's fire (strength 3) sinks one PBR
    with pytest.raises(StopIteration):  # one unit left: nothing to drop off at Vinh Long, so no decision there
        flow.send(next(o for o in decision.options if str(o) == "move 2018"))
    assert [ctx.state.unit(i).location for i in survivors] == ["2018"]
    assert ctx.state.unit(mine.id).location == "2117" and ctx.state.unit(mine.id).hidden


def test_a_force_drops_a_unit_off_and_goes_on_but_never_its_ccb(ctx):
    """7.2: "A force consisting of more than one unit may drop off units as it moves"; 7.3: "Units
    other than the HQ/CCB may still be dropped off along the way, but the HQ/CCB itself may not be
    dropped off"; 8.8: "A transported unit may be disembarked at any point in a move".  The CCB's
    force (two PBRs carrying an infantry battalion) sets the battalion down at Vinh Long (2018)
    and goes on with the PBRs to 2019, up the river."""
    ctx.operation = Operation("free_world")
    here = [u.id for u in ctx.state.units_at("2416") if u.type in ("pbr", "us_infantry_bn", "ccb")]
    ccb, infantry = ids(ctx, "ccb", "2416")[0], ids(ctx, "us_infantry_bn", "2416")[0]
    pbrs = ids(ctx, "pbr", "2416")
    ambush = ids(ctx, "ambush")[0]
    ctx.state = ctx.state.with_unit(evolve_location(ctx.state.unit(ambush), "eliminated"))
    run(ctx, "designate force", "free_world", ["operate 2416", *(f"add {i}" for i in sorted(here)), "go"])
    assert cp(ctx, "free_world") == 18  # one CP expenditure for the led force (7.3)
    decisions = run(ctx, "move force", "free_world", ["move 2018", f"drop {infantry}", "move 2019", "stop"])
    after = shown(decisions[1])
    assert f"drop {ccb}" not in after and f"drop {infantry}" in after
    assert not any(o.startswith("move") for o in after)  # nothing dropped yet: nothing to go on for
    assert "move 2019" in shown(decisions[2])
    assert ctx.state.unit(infantry).location == "2018"
    assert {ctx.state.unit(i).location for i in (ccb, *pbrs)} == {"2019"}
    assert infantry not in ctx.operation.force


def test_the_carriers_keep_the_capacity_for_what_they_still_carry(ctx):
    """8.8: the transporting unit needs "sufficient transport points to move it": a PBR whose
    capacity the battalion needs is never offered as a drop, and the battalion cannot go on alone."""
    ctx.operation = Operation("free_world")
    infantry = ids(ctx, "us_infantry_bn", "2416")[0]
    pbrs = ids(ctx, "pbr", "2416")
    ambush = ids(ctx, "ambush")[0]
    ctx.state = ctx.state.with_unit(evolve_location(ctx.state.unit(ambush), "eliminated"))
    run(ctx, "designate force", "free_world", ["operate 2416", *(f"add {i}" for i in (*pbrs, infantry)), "go"])
    decisions = run(ctx, "move force", "free_world", ["move 2018", "stop"])
    assert shown(decisions[1]) == [f"drop {infantry}", "stop"]


def evolve_location(unit, where):
    from attrs import evolve

    return evolve(unit, location=where)


def test_a_face_down_marker_square_is_offered_as_an_enemy_square(ctx):
    """8.4 (2): a moving Free World force must stop on first entering a square with Guerrilla
    markers.  Face down, the Ambush at 2117 is a Communist counter the Free World player cannot
    tell from a unit (issue 17, item 2), so 2117 is offered as a square with enemy counters would
    be: a force entering it stops there (where the marker, revealed, turns out to be alone, 19.4 then
    lets it go on), and one going on to Vinh Long (2018) goes round it."""
    ctx.operation = Operation("free_world")
    pbrs = ids(ctx, "pbr", "2416")
    run(ctx, "designate force", "free_world", ["operate 2416", *(f"add {i}" for i in pbrs), "go"])
    decisions = run(ctx, "move force", "free_world", ["move 2117", "stop"])
    assert {"move 2117", "move 2018"} <= set(shown(decisions[0]))
    assert [ctx.state.unit(i).location for i in pbrs] == ["2117", "2117"]
    assert decisions[1].prompt.startswith("the force at 2117") and "stop" in shown(decisions[1])


def test_a_face_down_guerrilla_marker_offers_what_a_face_down_unit_would(scenario):
    """The Free World's move options are the same whether the face-down counter at 2117 is the
    Ambush marker or a main force battalion (issue 17, item 2)."""
    offered = []
    for kind in ("ambush", "main_force_bn"):
        ctx = set_up(scenario, seed=1)
        marker = next(u for u in ctx.state.units if u.type == "ambush")
        ctx.state = ctx.state.with_units([evolve(marker, type=kind, hidden=True)])
        ctx.operation = Operation("free_world")
        pbrs = ids(ctx, "pbr", "2416")
        run(ctx, "designate force", "free_world", ["operate 2416", *(f"add {i}" for i in pbrs), "go"])
        flow = PROCEDURES["move force"](ctx, do_line(ctx, "move force"))
        offered.append(shown(next(flow)))
    assert offered[0] == offered[1] and "move 2117" in offered[0]


def test_strategic_redeployment_costs_a_multiple_of_the_transport_cost(ctx):
    """8.11 and the CP Table: a US unit pays twice its transport cost to move from a base to
    another friendly base; no path is traced."""
    ctx.operation = Operation("free_world")
    inf = ids(ctx, "us_infantry_bn")[0]
    need = ctx.rules.unit_type("us_infantry_bn").factor("transport_cost")
    decisions = run(ctx, "designate force", "free_world", ["operate 2416", f"add {inf}", "redeploy"])
    assert "redeploy" in shown(decisions[-1])
    assert cp(ctx, "free_world") == 20 - 2 * need
    decisions = run(ctx, "move force", "free_world", [f"redeploy {inf} 1820"])
    assert shown(decisions[0]) == [f"redeploy {inf} 1820"]  # Can Tho has the only other friendly base
    assert ctx.state.unit(inf).location == "1820"


def test_an_l_unit_never_enters_where_its_class_may_not_be(ctx):
    """8.3 point 3: L units only in river, coastal, city, town or base squares."""
    costs = cost_table(ctx.rules, ctx.board, "us_infantry_bn").cost
    assert all(ctx.board.terrain(c) not in {"land", "swamp", "high_seas"} or "river" in ctx.board.tags(c)
               for c in costs)


# --- infiltration (15.1, 22.2) -------------------------------------------------------------------


def with_junk(ctx, cell):
    from attrs import evolve

    from warbook.interpreter.state import Unit

    ctx.state = evolve(ctx.state, units=tuple(sorted((*ctx.state.units, Unit("J1", "troop_junk", "communist", cell,
                                                                              hidden=True)))))
    return ctx


def test_a_junk_reaching_a_printed_base_in_south_vietnam_scores_and_returns_to_the_pool(ctx):
    """15.1: an infiltration unit that reaches a printed base in South Vietnam is flipped face up,
    scores the VP Table's value (provisional 1 at a base this near Cambodia: the table lists none;
    deeper bases: tests/interpreter/test_sea_lords_terrains_and_depth.py) and goes to the pool."""
    with_junk(ctx, "1615")  # Cao Lanh, on the Mekong
    base = "2015"           # Base Area 470 (Plain of Reeds): a printed Communist base in South Vietnam
    assert "cambodia" not in ctx.board.tags(base)
    ctx.operation = Operation("communist")
    before = ctx.state.resource("communist", "vp")
    run(ctx, "designate force", "communist", ["operate 1615", "add J1", "go"])
    decisions = run(ctx, "move force", "communist", [f"move {base}"])
    assert f"move {base}" in shown(decisions[0])
    junk = ctx.state.unit("J1")
    assert junk.location == "reinforcement_pool" and not junk.hidden
    assert ctx.state.resource("communist", "vp") == before + 1


def test_a_junk_in_a_cambodian_base_scores_nothing(ctx):
    """15.1 counts bases in South Vietnam only; the Cambodian base areas are where junks start (12.4)."""
    with_junk(ctx, "1212")  # Tan Chau, on the Mekong by the border
    base = "1209"           # Base Area 704, Cambodia
    ctx.operation = Operation("communist")
    run(ctx, "designate force", "communist", ["operate 1212", "add J1", "go"])
    decisions = run(ctx, "move force", "communist", [f"move {base}"])
    assert f"move {base}" in shown(decisions[0])
    assert ctx.state.unit("J1").location == base
    assert ctx.state.resource("communist", "vp") == 0


# --- territorial VP (6.7, 16.2, VP Table) ------------------------------------------------------


def add(ctx, *units):
    from attrs import evolve

    ctx.state = evolve(ctx.state, units=tuple(sorted((*ctx.state.units, *units))))


def score_towns(ctx):
    ctx.acting = "communist"
    run(ctx, "score", "communist", [])
    return ctx.state.resource("communist", "vp")


def test_a_town_held_by_the_communist_side_scores_one_and_a_cambodian_town_none(ctx):
    """VP Table: "Each town square solely occupied by Communist units: 1 … Cambodian towns count
    as 0." Ben Tre (2418) is held; Prey Veng (1304) is a town in Cambodia."""
    from warbook.interpreter.state import Unit

    add(ctx, Unit("X1", "main_force_bn", "communist", "1304"))
    assert score_towns(ctx) == 1


def test_a_cadre_doubles_the_towns_vp(ctx):
    """16.2: a cadre in a city or town square during the territorial VP phase doubles its VP."""
    from warbook.interpreter.state import Unit

    add(ctx, Unit("X1", "cadre", "communist", "2418"))
    assert score_towns(ctx) == 2


# --- Tet, turn 1: the sappers' raid (25.10) ------------------------------------------------------


@pytest.fixture
def tet(scenario):
    """The operations position, played with the Tet overlay's rules (sappers may raid on turn 1)."""
    from attrs import evolve

    from warbook.interpreter.scenario import with_rulebook
    from warbook.interpreter.state import Unit

    raid = with_rulebook(scenario, Path(__file__).parents[2] / "scenarios" / "sea_lords_tet.rules")
    ctx = set_up(raid, seed=1)
    # A sapper company and a riverine unit to carry it, at 2712 on the Saigon LoC beside Saigon (2812).
    ctx.state = evolve(ctx.state, turn=1, units=tuple(sorted((
        *ctx.state.units, Unit("S1", "sapper_co", "communist", "2712", hidden=True),
        Unit("S2", "com_riverine", "communist", "2712", hidden=True)))))
    ctx.operation = Operation("communist")
    return ctx


def test_sappers_may_enter_saigon_on_turn_1_only(tet):
    """25.10: "On Game Turn 1, Communist Sapper units may enter Saigon and Vung Tau"; 8.3 keeps
    Communist units out of them otherwise."""
    from attrs import evolve

    force = Force(tet, units(tet, "S1", "S2"))
    assert "2812" in force.destinations()
    tet.state = evolve(tet.state, turn=2)
    assert "2812" not in Force(tet, units(tet, "S1", "S2")).destinations()
    assert "2812" not in Force(tet, units(tet, "S2")).destinations()  # the carrier alone, never


def test_a_raiding_sapper_is_eliminated_when_the_operation_ends_and_scores_for_the_free_world(tet):
    """25.10: "Any such units are automatically eliminated at the end of that Communist player turn,
    and they count for Free World VP" — read as the end of the operation; the VP Table scores a
    Communist unit eliminated 2 ("all others")."""
    from warbook.interpreter.flow import _after_operation

    run(tet, "designate force", "communist", ["operate 2712", "add S1", "add S2", "go"])
    run(tet, "move force", "communist", ["move 2812"])
    assert tet.state.unit("S1").location == "2812"
    carrier = tet.state.unit("S2").location  # it sets the sapper down from next door and stays out (8.3)
    assert carrier != "2812" and carrier in set(tet.board.neighbours("2812"))
    _after_operation(tet)
    assert tet.state.unit("S1").location == "eliminated"
    assert tet.state.resource("free_world", "vp") == 2


# --- sudden death (4.4) ------------------------------------------------------------------------


def test_a_lead_of_75_ends_the_game_at_once_with_a_decisive_victory(scenario):
    """4.4: "If, at any time, one player has 75 or more VP than the other, the game immediately
    comes to an end and the player with that VP superiority wins a decisive victory" — although
    the table of 4.2 puts a margin of 75 in Tactical Victory.  The check runs after every
    operation: here the Communist player's first operation is a pass, and the game ends."""
    from warbook.interpreter.game import Game

    game = Game.new(scenario, seed=1)
    game.ctx.state = game.ctx.state.with_resource("free_world", "vp", 75)
    assert game.decision.kind == "operation" and game.decision.side == "communist"
    game.apply("pass")
    assert game.is_over()
    assert game.result()["winner"] == "free_world"
    assert game.result()["level"] == "Decisive Victory"
    assert any(e.get("kind") == "victory" and "sudden death" in e["text"] for e in game.log)


# --- PBR airmobile transport (8.10) -------------------------------------------------------------


def with_helicopter_battalion(ctx):
    """The helicopter detachment at Can Tho (1820), made a battalion: 3 transport points (the
    rulebook's provisional value), enough for a PBR's 3 (Transport Costs Table, 8.10)."""
    from attrs import evolve

    det = next(u for u in ctx.state.units if u.type == "helicopter_det")
    ctx.state = ctx.state.with_unit(evolve(det, type="helicopter_bn"))
    return det.id


def test_helicopters_lift_a_pbr_which_then_carries_nothing(ctx):
    """8.10: "PBR units may also be transported; however, a transported PBR unit may not itself be
    transporting any other unit when it's moved in this way, and PBR units may be transported only
    by airmobile units."  8.9: the airmobile unit "doesn't have to start the operation in the same
    square"."""
    heli = with_helicopter_battalion(ctx)
    pbr = ids(ctx, "pbr", "2416")[0]
    ctx.operation = Operation("free_world")
    decisions = run(ctx, "designate force", "free_world", ["operate 2416", f"add {pbr}", f"add {heli}", "go"])
    assert f"add {heli}" in shown(decisions[2])  # the helicopters at Can Tho may come to lift it
    force = Force(ctx, units(ctx, pbr, heli))
    assert force.lifted == units(ctx, pbr) and force.cargo == units(ctx, pbr) and not force.movers
    assert force.capacities(["transport"]) == {"transport": 3} and force.needs() == {"transport": 3}
    by_river = set(Force(ctx, units(ctx, pbr)).destinations())
    by_air = set(force.destinations())
    elsewhere = sorted(by_air - by_river)
    assert elsewhere  # squares a PBR reaches only when flown (no water link, or past the enemy)
    run(ctx, "move force", "free_world", [f"move {elsewhere[0]}", "stop"])
    assert [ctx.state.unit(i).location for i in (pbr, heli)] == [elsewhere[0]] * 2


def test_a_pbr_is_lifted_only_by_airmobile_units_with_the_transport_points(ctx):
    """8.10: only airmobile units carry a PBR; 8.9 "Use the total transport value".  With a riverine
    unit in the force, or too few transport points, the PBR moves by river as an R unit, with
    its own 1 transport point (a transported PBR may not be transporting)."""
    heli = with_helicopter_battalion(ctx)
    pbrs = ids(ctx, "pbr", "2416")
    ranger = next(u for u in ctx.state.units if u.type == "ranger_bn")
    assert Force(ctx, units(ctx, pbrs[0], pbrs[1], heli)).lifted == []  # 6 points needed, 3 there
    assert Force(ctx, units(ctx, pbrs[0], heli)).lifted == units(ctx, pbrs[0])
    assert Force(ctx, units(ctx, pbrs[0], heli, ids(ctx, "ccb")[0])).lifted == []  # a CCB (R) moves it by river
    # With a ranger battalion (2 points) the helicopters cannot lift both (5 > 3): the PBR moves by
    # river and carries, and its 1 point cannot carry the battalion ("a player may not combine
    # more than one transport type", 8.9).
    mixed = Force(ctx, [*units(ctx, pbrs[0], heli), ranger])
    assert mixed.lifted == [] and mixed.movers == units(ctx, pbrs[0])
    assert mixed.problem() == "the carried units need 2 transport and the carriers have 1"


def test_a_force_the_minefield_sinks_starts_no_battle(ctx):
    """19.3 "a minefield may attack by itself": a lone PBR sunk by it on the way leaves no force to
    fight, so no battle follows in the minefield's square."""
    from attrs import evolve

    mine = next(u for u in ctx.state.units if u.type == "ambush")
    ctx.state = ctx.state.with_unit(evolve(mine, type="minefield"))
    ctx.operation = Operation("free_world")
    pbr = ids(ctx, "pbr", "2416")[0]
    run(ctx, "designate force", "free_world", ["operate 2416", f"add {pbr}", "go"])
    flow = PROCEDURES["move force"](ctx, do_line(ctx, "move force"))
    ctx.acting = "free_world"
    decision = flow.send(None)
    with pytest.raises(StopIteration):
        decision = flow.send(next(o for o in decision.options if str(o) == "move 2117"))
        while True:  # the minefield's attack: its rolls and the loss
            decision = flow.send(decision.options[0])
    assert not ctx.state.unit(pbr).on_map  # seed 1: the minefield's fire sinks it
    assert ctx.operation.cell is None and ctx.state.unit(mine.id).location == "2117"


def test_an_arms_cache_met_on_the_way_scores_and_the_force_goes_on(ctx):
    """19.3: "Arms Cache: … If revealed by Free World forces and there are no Communist combat units
    in that square, remove it immediately and give the Free World player a VP"; 19.4: the force
    then continues."""
    from attrs import evolve

    cache = next(u for u in ctx.state.units if u.type == "ambush")
    ctx.state = ctx.state.with_unit(evolve(cache, type="arms_cache"))
    ctx.operation = Operation("free_world")
    pbrs = ids(ctx, "pbr", "2416")
    before = ctx.state.resource("free_world", "vp")
    run(ctx, "designate force", "free_world", ["operate 2416", *(f"add {i}" for i in pbrs), "go"])
    run(ctx, "move force", "free_world", ["move 2117", "move 2018", "stop"])
    assert ctx.state.resource("free_world", "vp") == before + 1
    assert not ctx.state.unit(cache.id).on_map
    assert [ctx.state.unit(i).location for i in pbrs] == ["2018", "2018"]

