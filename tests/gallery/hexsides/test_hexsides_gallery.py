"""Mechanics gallery: hexside-aware terrain, played in a neutral game (hexsides.rules).

Every expected value is worked out by hand from hexsides.rules and map.toml.  A river lies on
every hexside between columns 2 and 3 (``cost +2``: crossing it adds 2 to the hex entered;
``no entry for wheeled``), a road along row 3 (``cost ½``: a step along it costs ½ whatever the
hex, and it bridges the river between 0203 and 0303); 0201 and 0202 are woods (2), 0403 deep
forest (``entered only across road``), the rest clear (1).  Hexes: even columns sit half a hex lower, so 0201 touches 0101, 0102, 0202, 0301
and 0302; 0103 touches 0102, 0202 and 0203.
"""

from fractions import Fraction as F
from pathlib import Path


from driving import run_cli
from gallery import at_position, greedy_game, random_games_replay_alike, scenario_fixture
from warbook.interpreter import movement as mv
from warbook.interpreter.context import Context
from warbook.interpreter.costs import cost_table
from warbook.interpreter.state import Unit

HERE = Path(__file__).parent
SCENARIO = HERE / "hexsides.toml"


scenario = scenario_fixture(SCENARIO)


def make(scenario, *units: Unit) -> Context:
    return at_position(scenario, "movement", *units)


RED = Unit("R1", "guards", "red", "0402")


def test_crossing_a_river_adds_to_the_hex_and_a_road_costs_its_own_rate(scenario):
    rifles = Unit("B1", "rifles", "blue", "0201")
    reach = mv.reach(make(scenario, rifles, RED), rifles)
    # 0301 and 0302: 1 for the clear hex and 2 for the river.  0203: 0102 (1), 0103 (2), then ½
    # along the road (not the 1 of its clear hex, nor 3 through the wood at 0202).  0303: ½ more
    # across the bridge, the river's 2 not paid.
    assert reach.ends == {"0101": 1, "0102": 1, "0202": 2, "0301": 3, "0302": 3, "0103": 2,
                          "0203": F(5, 2), "0303": 3}
    assert reach.path("0303") == ("0201", "0102", "0103", "0203", "0303")
    assert reach.points_left("0203") == F(1, 2)


def test_a_for_line_bars_the_crossing_to_those_units(scenario):
    tanks = Unit("B2", "tanks", "blue", "0201")
    ctx = make(scenario, tanks, RED)
    # Wheeled units may not cross the river, except by the bridge on the road.
    assert mv.reachable(ctx, tanks) == {"0101": 1, "0102": 1, "0202": 2, "0103": 2, "0203": F(5, 2), "0303": 3}
    table = cost_table(ctx.rules, ctx.board, "tanks")
    assert table.step_cost("0201", "0301") is None and table.step_cost("0203", "0303") == 1  # ½ in halves


def test_the_river_costs_both_ways(scenario):
    guards = Unit("R1", "guards", "red", "0302")
    table = cost_table(make(scenario, guards).rules, make(scenario, guards).board, "guards")
    # Into the wood at 0202 across the river: 2 + 2 (in halves, 8); into clear 0301: 1, no river.
    assert table.step_cost("0302", "0202") == 8 and table.step_cost("0302", "0301") == 2


def test_a_cell_entered_only_across_a_road_is_entered_by_the_road_alone(scenario):
    guards = Unit("R1", "guards", "red", "0402")
    ctx = make(scenario, guards, Unit("B1", "rifles", "blue", "0101"))
    # 0403 touches 0402, but only the road from 0303 enters it: 1 to 0303, then ½.  Along the road
    # west: 0203 (1½) and 0103 (2), then 0102 (3); 0301 by 0302 or 0401 (2).
    assert mv.reachable(ctx, guards) == {"0401": 1, "0302": 1, "0303": 1, "0403": F(3, 2), "0301": 2,
                                         "0203": F(3, 2), "0103": 2, "0102": 3}
    assert mv.reach(ctx, guards).path("0403") == ("0402", "0303", "0403")


def test_an_award_may_be_worth_the_counters_factor(scenario):
    from warbook.interpreter.combat import eliminate

    tanks, guards = Unit("B2", "tanks", "blue", "0201"), Unit("R1", "guards", "red", "0402")
    ctx = make(scenario, tanks, guards)
    eliminate(ctx, tanks, "test")
    eliminate(ctx, guards, "test")
    # `points factor defence`: red scores the tanks' defence 3, blue the guards' defence 2.
    assert ctx.state.resource("red", "vp") == 3 and ctx.state.resource("blue", "vp") == 2


def test_an_attack_wholly_across_the_river_shifts_one_column_left(scenario):
    from warbook.interpreter.combat import column_shifts, table_view

    guards = Unit("R1", "guards", "red", "0201")
    east = [Unit("B1", "rifles", "blue", "0301"), Unit("B3", "rifles", "blue", "0302")]
    west = Unit("B2", "rifles", "blue", "0101")
    ctx = make(scenario, guards, west, *east)
    combat = ctx.rules.combats["assault"]

    def shifts(attackers):
        return column_shifts(ctx, combat, table_view(ctx, "crt"), attackers, [guards], "0201", "blue")

    # 0301 and 0302 face the wood at 0201 across the river: every attacker is across.
    assert shifts(east) == [(-1, "shift 1L")]
    # With 0101 (no river between it and 0201) joining in, not all attackers are across.
    assert shifts([*east, west]) == []
    assert shifts([west]) == []


# --- whole games -----------------------------------------------------------------------------------------


def test_random_games_play_to_the_end_and_replay_alike():
    random_games_replay_alike(SCENARIO)


def test_greedy_games_play_to_the_end():
    assert greedy_game(SCENARIO, 2).is_over()


def test_play_narrates_the_cost_of_a_move_along_the_road(capsys):
    code, out, _ = run_cli(capsys, "play", str(SCENARIO), "--seed", "1")
    # The tanks cross the river by the bridge: 0102 (1), 0103 (2), 0203 (2½), 0303 (3).
    assert code == 0 and "B2 Tanks moves 0201 → 0303 (3 movement points)" in out
