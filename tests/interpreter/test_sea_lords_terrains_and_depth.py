"""Sea Lords on the reconstructed delta map: squares of two terrain types (27.0, 11.4) and
infiltration VP growing with a base's depth inside South Vietnam (15.1).

Both are readings the rulebook lists as gaps: the chart gives no effects for a square of two
types (a coastal town: both rows apply, shifts and recon modifiers totalled), and the VP Table as
transcribed gives no infiltration values (provisional 1, 2 or 3 by the base's distance in squares
from Cambodia).  Counter values are the rulebook's provisional ones: pbr recon 2, Main Force
battalion recon 2.  The position is fixtures/sea_lords_ops/ops.toml.
"""

from pathlib import Path

import pytest
from attrs import evolve

from driving import do_call, drive, options
from warbook.interpreter import combat
from warbook.interpreter.context import Context
from warbook.interpreter.flow import setup
from warbook.interpreter.operation import Operation
from warbook.interpreter.procedures import PROCEDURES, load_procedures, recon
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.state import GameState, Unit

FIXTURE = Path(__file__).parent / "fixtures" / "sea_lords_ops" / "ops.toml"
FW, COM = "free_world", "communist"
RACH_GIA = "1020"  # a town on the coast (and a canal): map legend "P" = town, river, coastal


@pytest.fixture(scope="module")
def scenario():
    load_procedures()
    return load_scenario(FIXTURE)


def battle(scenario, cell: str, *units: Unit) -> Context:
    ctx = Context(scenario, seed=0)
    ctx.state = GameState(turn=2, phase="operation", units=tuple(sorted(units)))
    ctx.operation = Operation(FW, force=[u.id for u in units if u.side == FW], cell=cell)
    ctx.acting = FW
    return ctx


def test_a_coastal_town_gives_the_attackers_recon_roll_the_coastal_plus_one(scenario, dice):
    """27.0: "Coastal | Attacker + 1", "Town | No Effect"; a coastal town is both.  FW rolls 4: 4 + 2
    (pbr) + 1 (Coastal) = 7; the Communist rolls 4: 4 + 2 = 6.  FW has the bounce, which without the
    coastal +1 (a 6-6 tie) would be the defender's (10.2)."""
    ctx = battle(scenario, RACH_GIA, Unit("F1", "pbr", FW, RACH_GIA), Unit("C1", "main_force_bn", COM, RACH_GIA))
    dice += [(6, 4), (6, 4)]
    drive(recon.recon(ctx, do_call(scenario.rules, "recon")), ["fire first"])
    assert ctx.operation.bounce == FW
    said = [e["text"] for e in ctx.events if e.get("kind") == "recon" and "rolled" in e["text"]]
    assert said[0].endswith(", +1 Coastal = 7") and said[1].endswith(" = 6") and "Coastal" not in said[1]


def test_a_coastal_town_shifts_the_attackers_fire_by_the_towns_1L_alone(scenario):
    """27.0: "Town | 1L", "Coastal | No Effect"; totalled (11.4) the attacker's fire shifts 1L."""
    pbr, main_force = Unit("F1", "pbr", FW, RACH_GIA), Unit("C1", "main_force_bn", COM, RACH_GIA)
    ctx = battle(scenario, RACH_GIA, pbr, main_force)
    fire = scenario.rules.combats["fire_combat"]
    shifts = combat.column_shifts(ctx, fire, combat.table_view(ctx, fire.table), [pbr], [main_force], RACH_GIA, FW)
    assert shifts == [(-1, "Town 1L")]


def with_junk(ctx, cell):
    ctx.state = evolve(ctx.state, units=tuple(sorted((*ctx.state.units, Unit("J1", "troop_junk", COM, cell,
                                                                              hidden=True)))))
    return ctx


@pytest.mark.parametrize("base,squares,points", [
    ("2015", 4, 1),    # Base Area 470 (Plain of Reeds), near the border
    ("1025", 10, 2),   # U Minh forest
    ("0934", 19, 3),   # Nam Can, at the southern tip
])
def test_a_junk_reaching_a_base_deeper_inside_south_vietnam_scores_more(scenario, base, squares, points):
    """15.1: "the Communist player receives more VP for conducting supply and troop infiltration to
    bases deeper inside South Vietnam" (provisional: 1 up to 4 squares from Cambodia, 2 from 5 to 12,
    3 from 13)."""
    from warbook.interpreter.cells import distances_from

    ctx = Context(scenario, seed=1)
    for _ in setup(ctx):
        raise AssertionError("the fixture places every unit at a fixed cell")
    assert distances_from(ctx.rules, ctx.board, ["cambodia"])[base] == squares
    with_junk(ctx, "1615")  # Cao Lanh, on the Mekong
    ctx.operation = Operation(COM)
    ctx.acting = COM
    drive(PROCEDURES["designate force"](ctx, do_call(ctx.rules, "designate force")), ["operate 1615", "add J1", "go"])
    decisions = drive(PROCEDURES["move force"](ctx, do_call(ctx.rules, "move force")), [f"move {base}"])
    assert f"move {base}" in options(decisions[0])
    assert ctx.state.unit("J1").location == "reinforcement_pool"
    assert ctx.state.resource(COM, "vp") == points
