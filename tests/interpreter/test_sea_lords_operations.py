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
from warbook.interpreter.context import Context
from warbook.interpreter.flow import setup
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
    ctx = Context(scenario, seed=1)
    for _ in setup(ctx):
        raise AssertionError("the fixture places every unit at a fixed cell")
    return ctx


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
    """8.4 (2): a moving Free World force must stop on first entering a square with Guerrilla
    markers.  Face down, the Ambush at 2117 is a Communist counter the Free World player cannot
    tell from a unit (issue 17, item 2), so 2117 is offered as a square with enemy counters would
    be: a force entering it stops there, and one going on to Vinh Long (2018) goes round it."""
    ctx.operation = Operation("free_world")
    pbrs = ids(ctx, "pbr", "2416")
    run(ctx, "designate force", "free_world", ["operate 2416", *(f"add {i}" for i in pbrs), "go"])
    decisions = run(ctx, "move force", "free_world", ["move 2117"])
    assert {"move 2117", "move 2018"} <= set(shown(decisions[0]))
    assert [ctx.state.unit(i).location for i in pbrs] == ["2117", "2117"]
    assert ctx.operation.cell == "2117"


def test_a_face_down_guerrilla_marker_offers_what_a_face_down_unit_would(scenario):
    """The Free World's move options are the same whether the face-down counter at 2117 is the
    Ambush marker or a main force battalion (issue 17, item 2)."""
    offered = []
    for kind in ("ambush", "main_force_bn"):
        ctx = Context(scenario, seed=1)
        for _ in setup(ctx):
            raise AssertionError("the fixture places every unit at a fixed cell")
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
    scores the VP Table's value (provisional 1: the table lists none) and goes to the pool."""
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
    ctx = Context(raid, seed=1)
    for _ in setup(ctx):
        raise AssertionError("fixed cells only")
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
