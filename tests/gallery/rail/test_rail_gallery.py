"""Mechanics gallery: phase-scoped movement, played in a neutral game (rail.rules).

Every expected value is worked out by hand from rail.rules and map.toml: a railway runs along
row 2 from 0102 to the town at 0602, through the wood at 0302; the ``train`` class has 4 points,
every cell costs it 1 (``cell cost 1``: the wood too), it steps only along the railway
(``crosses only rail``) and never starts in, enters or passes a cell holding or next to an enemy
counter (``avoids cells next to enemy``).  Hexes: even columns sit half a hex lower, so 0503
touches 0502, 0504, 0402, 0403, 0602 and 0603; 0101 touches 0102 and 0201.
"""

from pathlib import Path


from driving import do_call, drive, options, run_cli
from gallery import at_position, greedy_game, random_games_replay_alike, scenario_fixture
from warbook.interpreter import movement as mv
from warbook.interpreter.context import Context
from warbook.interpreter.procedures import PROCEDURES
from warbook.interpreter.procedures.move import MovePhase
from warbook.interpreter.state import Unit

HERE = Path(__file__).parent
SCENARIO = HERE / "rail.toml"


scenario = scenario_fixture(SCENARIO)


def make(scenario, *units: Unit) -> Context:
    return at_position(scenario, "rail", *units)


RIFLES = Unit("B1", "rifles", "blue", "0102")
TANKS = Unit("B2", "tanks", "blue", "0101")
MILITIA = Unit("R1", "militia", "red", "0503")
DECOY = Unit("R2", "decoy", "red", "0404")
TRUCKS = Unit("R3", "trucks", "red", "0604")
FAR = [Unit("R1", "militia", "red", "0104"), Unit("R3", "trucks", "red", "0204")]
"""Red counters nowhere near the railway (0104 and 0204 touch no cell of row 2)."""


def rail_reach(ctx, unit: Unit) -> dict[str, int]:
    return {cell: int(points) for cell, points in mv.reach(ctx, unit, using="train").ends.items()}


def test_a_rail_move_runs_along_the_railway_each_cell_costing_one(scenario):
    ctx = make(scenario, RIFLES, *FAR)
    # 0202, the wood 0302 (1, not the wood's 2), 0402, 0502; the town 0602 is a fifth cell.
    assert rail_reach(ctx, RIFLES) == {"0202": 1, "0302": 2, "0402": 3, "0502": 4}


def test_a_rail_move_never_enters_a_cell_next_to_an_enemy(scenario):
    ctx = make(scenario, RIFLES, MILITIA, DECOY, TRUCKS)
    # The militia at 0503 is next to 0402: the railway is closed beyond the wood.
    assert rail_reach(ctx, RIFLES) == {"0202": 1, "0302": 2}
    why = mv.explain(ctx, RIFLES, "0402", using="train")
    assert why.startswith("0402: a cell movement 'train' avoids (avoids cells next to enemy")


def test_a_unit_next_to_an_enemy_may_not_start_a_rail_move(scenario):
    rifles = Unit("B1", "rifles", "blue", "0402")
    ctx = make(scenario, rifles, MILITIA)
    assert rail_reach(ctx, rifles) == {}
    assert mv.explain(ctx, rifles, "0302", using="train").startswith(
        "B1 starts at 0402: a cell movement 'train' avoids")


def test_the_class_used_replaces_the_units_own_costs(scenario):
    tanks = Unit("B2", "tanks", "blue", "0202")
    ctx = make(scenario, tanks, *FAR)
    # By rail the wood costs 1; moving as wheeled it costs 3 (`cost 3 for wheeled`).
    assert rail_reach(ctx, tanks) == {"0102": 1, "0302": 1, "0402": 2, "0502": 3, "0602": 4}
    assert mv.reachable(ctx, tanks)["0302"] == 3
    moved = ctx.rules.unit_type(ctx.rules.moving_as["tanks", "train"])
    assert moved.matches(["tanks"]) and moved.matches(["mech"]) and moved.matches(["train"])
    assert not moved.matches(["wheeled"])


def test_a_unit_off_the_railway_has_no_rail_move(scenario):
    ctx = make(scenario, TANKS, *FAR)
    assert rail_reach(ctx, TANKS) == {}


def test_the_rail_phase_asks_only_the_counters_with_a_rail_move(scenario):
    ctx = make(scenario, RIFLES, TANKS, MILITIA, DECOY, TRUCKS)
    ctx.acting = "blue"
    (decision,) = drive(PROCEDURES["move"](ctx, do_call(ctx.rules, "move", "using")), ["move B1 0302"])
    assert options(decision) == ["move B1 0202", "move B1 0302", "stay B1"]
    assert ctx.state.unit("B1").location == "0302" and ctx.state.unit("B2").location == "0101"


def test_only_the_named_counters_move_in_a_phase_for_them(scenario):
    ctx = make(scenario, RIFLES, TANKS, MILITIA, DECOY, TRUCKS)
    ctx.acting = "blue"
    call = do_call(ctx.rules, "move", "only")
    (decision,) = drive(PROCEDURES["move"](ctx, call), ["stay B2"])
    assert decision.prompt.startswith("move B2 Tanks at 0101")
    # Red: the motorised unit moves, the militia does not; the decoy passes for a mechanised unit.
    ctx.acting = "red"
    asked = drive(PROCEDURES["move"](ctx, call), ["stay R2", "stay R3"])
    assert [d.prompt.split(" at ")[0] for d in asked] == ["move R2 Decoy", "move R3 Motorised"]
    assert mv.proxies(ctx.rules, DECOY, None, ("mech",)) == ("trucks",)
    assert mv.proxies(ctx.rules, DECOY) == ("militia", "trucks")


def test_a_unit_steps_off_the_map_from_the_exit_cell_it_reaches_with_most_points(scenario):
    tanks = Unit("B2", "tanks", "blue", "0502")
    ctx = make(scenario, tanks, *FAR)
    ctx.acting = "blue"
    call = do_call(ctx.rules, "move", step="movement")
    # From 0502 the east edge (column 6) is one hex away: 0601 and 0602 each cost 1, leaving 2 of
    # the tanks' 3 (the exit costs 1); the lower id, 0601, is where it steps off.
    (decision,) = drive(PROCEDURES["move"](ctx, call), ["exit B2 east"])
    assert "exit B2 east" in options(decision)
    assert ctx.state.unit("B2").location == "exited"
    assert ctx.state.resource("blue", "vp") == 2
    assert any(e.get("kind") == "exit" and e["cell"] == "0601" for e in ctx.events)


def test_no_exit_without_the_points_to_step_off(scenario):
    # On the edge with no points left there is no exit; red may never exit (the exit is blue's).
    tanks, trucks = Unit("B2", "tanks", "blue", "0601"), Unit("R3", "trucks", "red", "0604")
    ctx = make(scenario, tanks, trucks, *FAR)
    ctx.acting = "blue"
    moving = MovePhase(ctx, do_call(ctx.rules, "move", step="movement"))
    moving.left["B2"] = 0
    assert moving.ways_off(tanks, mv.reach(ctx, tanks, 0)) == {}
    assert set(moving.ways_off(tanks, mv.reach(ctx, tanks))) == {"east"}
    assert moving.ways_off(trucks, mv.reach(ctx, trucks)) == {}


# --- whole games -----------------------------------------------------------------------------------------


def test_random_games_play_to_the_end_and_replay_alike():
    random_games_replay_alike(SCENARIO)


def test_greedy_games_play_to_the_end():
    assert greedy_game(SCENARIO, 2).is_over()


def test_play_narrates_the_rail_move_and_the_exit(capsys):
    code, out, _ = run_cli(capsys, "play", str(SCENARIO), "--seed", "1")
    assert code == 0
    assert "Turn 1 — Rail movement (blue)\n  B1 Rifles moves 0102 → 0202 (1 movement point)" in out
    code, out, _ = run_cli(capsys, "play", str(SCENARIO), "--seed", "2")
    assert "  B2 Tanks exits the map at 0601 (East edge)\n  Blue: +2 vp, now 2 (Units exited: B2 Tanks)" in out
