"""Mechanics gallery: a force in an operation leaves the map by an exit (``do move force`` with an
``exit``), played in a neutral game (force_exits.rules).

Every expected value is worked out by hand from force_exits.rules, force_exits.toml and map.toml:
five clear squares in a row, 0101 to 0501, each costing 1 point to enter; the east edge is 0501.
Blue's scouts (3 points), rifles (4 points) and gun (4 points) stand at 0301; the exit ``east``
takes Blue's ``light`` units (scouts and rifles, not the gun) off from 0501 into ``exited`` at a
cost of 1 point beyond reaching 0501, and each unit that exits scores Blue 1 VP.  Red has no counter
on the map (the gallery resolves no battle).  A force may exit when every one of its units may and
each mover keeps the exit's cost at the exit cell.
"""

from pathlib import Path

import pytest
from attrs import evolve

from driving import do_call, drive, options, run_cli
from gallery import greedy_game, random_games_replay_alike, scenario_fixture, set_up
from warbook.interpreter.operation import Operation
from warbook.interpreter.procedures import PROCEDURES

HERE = Path(__file__).parent
SCENARIO = HERE / "force_exits.toml"

scenario = scenario_fixture(SCENARIO)


@pytest.fixture
def ctx(scenario):
    return set_up(scenario)


def of(ctx, type_name):
    (found,) = [u.id for u in ctx.state.units if u.type == type_name]
    return found


def run(ctx, procedure, answers):
    ctx.acting = "blue"
    return drive(PROCEDURES[procedure](ctx, do_call(ctx.rules, procedure)), answers)


def designate(ctx, cell, *unit_ids):
    ctx.operation = Operation("blue")
    run(ctx, "designate force", [f"operate {cell}", *(f"add {i}" for i in unit_ids), "go"])


def put(ctx, cell, *unit_ids):
    for i in unit_ids:
        ctx.update_unit(evolve(ctx.state.unit(i), location=cell))


def test_a_force_of_light_units_with_points_to_spare_steps_off_the_east_edge(ctx):
    scout, rifles = of(ctx, "scout"), of(ctx, "rifles")
    designate(ctx, "0301", scout, rifles)
    (decision,) = run(ctx, "move force", ["exit east"])
    # From 0301: 0201 and 0401 cost 1, 0501 costs 2 (the scouts keep 1, the rifles 2: both at least
    # the exit's 1); 0101 costs 2.
    assert options(decision) == ["exit east", "move 0101", "move 0201", "move 0401", "move 0501"]
    assert [ctx.state.unit(i).location for i in (scout, rifles)] == ["exited", "exited"]
    assert ctx.state.resource("blue", "vp") == 2  # one point each
    assert ctx.operation.path == ("0301", "0401", "0501") and ctx.operation.cell is None
    assert ctx.operation.force == []
    assert [e["cell"] for e in ctx.events if e.get("kind") == "exit"] == ["0501", "0501"]


def test_the_poorest_mover_decides_whether_the_force_may_exit(ctx):
    scout, rifles = of(ctx, "scout"), of(ctx, "rifles")
    put(ctx, "0201", scout, rifles)
    # From 0201, 0501 costs 3: the scouts would keep 0 of their 3, short of the exit's 1.
    designate(ctx, "0201", scout, rifles)
    (decision,) = run(ctx, "move force", ["move 0401"])
    assert "exit east" not in options(decision)
    assert ctx.state.resource("blue", "vp") == 0


def test_the_rifles_alone_keep_the_point_the_exit_costs(ctx):
    rifles = of(ctx, "rifles")
    put(ctx, "0201", rifles)
    designate(ctx, "0201", rifles)  # 0501 costs 3 of the rifles' 4: 1 left, the exit's cost
    (decision,) = run(ctx, "move force", ["exit east"])
    assert "exit east" in options(decision)
    assert ctx.state.unit(rifles).location == "exited" and ctx.state.resource("blue", "vp") == 1


def test_a_force_standing_on_the_edge_steps_off_without_moving(ctx):
    scout = of(ctx, "scout")
    put(ctx, "0501", scout)
    designate(ctx, "0501", scout)  # it stands in the exit cell with all 3 points
    run(ctx, "move force", ["exit east"])
    assert ctx.state.unit(scout).location == "exited" and ctx.state.resource("blue", "vp") == 1
    assert ctx.operation.path == ()


def test_a_unit_the_exit_does_not_name_keeps_the_whole_force_on_the_map(ctx):
    scout, gun = of(ctx, "scout"), of(ctx, "gun")
    designate(ctx, "0301", scout, gun)  # the gun is not light
    (decision,) = run(ctx, "move force", ["move 0501"])
    assert options(decision) == ["move 0101", "move 0201", "move 0401", "move 0501"]
    assert [ctx.state.unit(i).location for i in (scout, gun)] == ["0501", "0501"]


def test_random_games_play_to_the_end_and_replay_alike():
    random_games_replay_alike(SCENARIO)


def test_greedy_games_play_to_the_end():
    assert greedy_game(SCENARIO, 2).is_over()


def test_play_narrates_the_force_leaving_the_map(capsys):
    code, out, _ = run_cli(capsys, "play", str(SCENARIO), "--seed", "2")
    # Seed 2: the rifles alone go to 0401, then on to 0501 and off the map: Blue's first point.
    assert code == 0
    assert "  B2 Rifles exits the map at 0501 (East edge)\n  Blue: +1 vp, now 1 (Units exited: B2 Rifles)\n" in out
