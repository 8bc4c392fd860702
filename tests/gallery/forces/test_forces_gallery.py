"""Mechanics gallery: a moving force drops units off and goes on past markers, played in a neutral
game (forces.rules).

Every expected value is worked out by hand from forces.rules, forces.toml and map.toml: eight
river squares in a row, 0101 to 0801, 0601 a shoal where boats may pass but not end a move
(``must end on water``).  Blue's flotilla at 0101 is the flagship (the leader: action ``led`` is
``led by leader``), two launches (lift 1 each) and a squad (bulk 1), so one launch is enough to
carry it; the flagship lifts nothing.  Red's snares at 0401 and 0601 are face down (``counters
face down``); a snare stops boats (``stops on entering snare``), and on being revealed scores Blue
1 VP and leaves (``remove self``).  Red's raft, put at 0801 by the one test that needs it, is an
enemy unit, where a move ends in a battle (the gallery resolves no battle, so its games have no
enemy unit for a force to meet).  ``move force dropping off launch squad``: launches and the squad may be left behind,
never the flagship; ``may go on past markers``: a force stopped by snares alone may move on.
Blue ``inspects enemy stacks``, so it knows a snare from a unit (the gallery is about drop-offs,
not hidden counters: a side that cannot tell them apart treats a face-down counter as an enemy
counter, ``zones.unidentified``, so its moves would end on entering a snare's square).  Row 2 is land.  Blue's gull (class ``air``: ``ignores enemy``, ``joins any force``, lift 1) is at
0202; Blue's skiff at 0101 is a boat (lift 1, bulk 1) that is ``carried as foot by air``.  The flotilla's boats
(flagship, launches; not the squad, the skiff or the gull) may leave the map from 0801, the east end of the river
(0802 is land, where boats never end), into ``gone`` (``exit east``, no cost), each unit that does
scoring Blue 1 VP.
"""

from pathlib import Path

import pytest

from driving import do_call, drive, options
from gallery import greedy_game, random_games_replay_alike, scenario_fixture, set_up
from warbook.interpreter.operation import Operation
from warbook.interpreter.procedures import PROCEDURES

HERE = Path(__file__).parent
SCENARIO = HERE / "forces.toml"

scenario = scenario_fixture(SCENARIO)


@pytest.fixture
def ctx(scenario):
    return set_up(scenario)


def of(ctx, type_name):
    return sorted(u.id for u in ctx.state.units if u.type == type_name)


def run(ctx, procedure, answers):
    ctx.acting = "blue"
    return drive(PROCEDURES[procedure](ctx, do_call(ctx.rules, procedure)), answers)


def designate(ctx, *unit_ids):
    ctx.operation = Operation("blue")
    run(ctx, "designate force", ["operate 0101", *(f"add {i}" for i in unit_ids), "go"])


def where(ctx, *unit_ids):
    return [ctx.state.unit(i).location for i in unit_ids]


def test_the_force_stops_at_the_snare_which_is_revealed_acts_and_lets_it_go_on(ctx):
    (flag,), launches, (squad,) = of(ctx, "flagship"), of(ctx, "launch"), of(ctx, "squad")
    designate(ctx, flag, *launches, squad)
    assert ctx.state.resource("blue", "orders") == 2  # led: one order for the whole force
    snare = next(u.id for u in ctx.state.units_at("0401"))
    assert ctx.state.unit(snare).hidden
    decisions = run(ctx, "move force", ["move 0701", "stop"])
    assert where(ctx, flag, *launches, squad) == ["0401"] * 4  # stopped on entering the snare's square
    assert not ctx.state.unit(snare).on_map and ctx.state.resource("blue", "vp") == 1  # revealed: it acted
    after = options(decisions[1])
    assert {"move 0201", "move 0301", "move 0501", "move 0701", "move 0801"} <= set(after)
    assert "move 0601" not in after and "move 0401" not in after  # the shoal; where it stands
    assert [o for o in after if o.startswith("drop")] == [f"drop {launches[0]}", f"drop {launches[1]}", f"drop {squad}"]
    assert ctx.operation.cell is None  # the snare was all there was: no battle


def test_past_both_snares_the_force_goes_on_where_it_was_going(ctx):
    (flag,), launches, (squad,) = of(ctx, "flagship"), of(ctx, "launch"), of(ctx, "squad")
    designate(ctx, flag, *launches, squad)
    decisions = run(ctx, "move force", ["move 0701", "move 0701", "move 0701", "stop"])
    assert [d.prompt.split(":")[0] for d in decisions[1:]] == ["the force at 0401", "the force at 0601",
                                                               "the force at 0701"]
    assert where(ctx, flag, *launches, squad) == ["0701"] * 4
    assert ctx.operation.path == ("0101", "0201", "0301", "0401", "0501", "0601", "0701")
    assert ctx.state.resource("blue", "vp") == 2
    # On the shoal the squad may be set down; a launch may not end its move there.
    assert [o for o in options(decisions[2]) if o.startswith("drop")] == [f"drop {squad}"]


def test_a_dropped_unit_stays_and_the_rest_go_on(ctx):
    (flag,), launches, (squad,) = of(ctx, "flagship"), of(ctx, "launch"), of(ctx, "squad")
    designate(ctx, flag, *launches, squad)
    decisions = run(ctx, "move force", ["move 0301", f"drop {squad}", f"drop {launches[0]}", "move 0701", "stop"])
    assert options(decisions[1]) == [f"drop {launches[0]}", f"drop {launches[1]}", f"drop {squad}", "stop"]
    assert "move 0701" in options(decisions[2])  # after a drop the rest may go on
    assert where(ctx, squad, launches[0]) == ["0301", "0301"]
    assert where(ctx, flag, launches[1]) == ["0401", "0401"]  # the first snare stops the rest
    assert ctx.operation.force == [flag, launches[1]]


def test_a_launch_whose_lift_the_squad_needs_is_never_dropped(ctx):
    (flag,), launches, (squad,) = of(ctx, "flagship"), of(ctx, "launch"), of(ctx, "squad")
    designate(ctx, flag, launches[0], squad)
    decisions = run(ctx, "move force", ["move 0201", "stop"])
    assert options(decisions[1]) == [f"drop {squad}", "stop"]


def test_a_battle_ends_the_move_with_no_drop(ctx):
    from warbook.interpreter.state import Unit

    ctx.state = ctx.state.with_added_unit(Unit("R9", "raft", "red", "0801"))
    (flag,), launches, (squad,) = of(ctx, "flagship"), of(ctx, "launch"), of(ctx, "squad")
    designate(ctx, flag, *launches, squad)
    run(ctx, "move force", ["move 0801", "move 0801", "move 0801"])  # past both snares into the raft's square
    assert where(ctx, flag, *launches, squad) == ["0801"] * 4
    assert ctx.operation.cell == "0801"


def test_the_gull_flies_in_and_lifts_the_skiff_past_the_snares(ctx):
    """``carried as foot by air``: with only the gull beside it the skiff is cargo (bulk 1, lift 1),
    so the force moves as the gull does (``ignores enemy``; no snare stops an aircraft) and the
    gull, from 0202, comes to lift it (an airlifter from another cell)."""
    (skiff,), (gull,) = of(ctx, "skiff"), of(ctx, "gull")
    ctx.operation = Operation("blue")
    decisions = run(ctx, "designate force", ["operate 0101", f"add {skiff}", f"add {gull}", "go"])
    assert f"add {gull}" in options(decisions[2])
    assert ctx.state.resource("blue", "orders") == 1  # unled: one order a unit
    run(ctx, "move force", ["move 0701"])
    assert where(ctx, skiff, gull) == ["0701", "0701"]  # past both snares without a stop
    assert [ctx.state.unit(u).location for u in of(ctx, "snare")] == ["0401", "0601"]


def test_a_skiff_that_carries_is_never_lifted(ctx):
    """The lifted skiff carries nothing: with the squad too, the gull's lift 1 cannot take bulk 2,
    so the skiff moves as a boat (the gull joining), carrying the squad with its own lift."""
    from warbook.interpreter.forces import Force

    (skiff,), (gull,), (squad,) = of(ctx, "skiff"), of(ctx, "gull"), of(ctx, "squad")
    lifted = Force(ctx, [ctx.state.unit(skiff), ctx.state.unit(gull)])
    assert lifted.lifted == [ctx.state.unit(skiff)] and lifted.problem() is None
    boat = Force(ctx, [ctx.state.unit(i) for i in (skiff, gull, squad)])
    assert boat.lifted == [] and boat.movers == [ctx.state.unit(skiff)] and boat.problem() is None


def test_the_units_still_in_the_force_go_down_river_and_the_dropped_one_stays(ctx):
    """The squad may not exit, so the whole flotilla is offered no exit.  A leg to 0301 (no snare),
    the squad dropped off there, then ``exit east`` for the rest (the flagship and the launches): it
    walks to 0801, is stopped at each snare (0401, 0601: 1 VP each) and chooses the exit again from
    there, then its three units step off (1 VP each): 5 VP."""
    (flag,), launches, (squad,) = of(ctx, "flagship"), of(ctx, "launch"), of(ctx, "squad")
    designate(ctx, flag, *launches, squad)
    decisions = run(ctx, "move force", ["move 0301", f"drop {squad}", "exit east", "exit east", "exit east"])
    assert "exit east" not in options(decisions[0])  # the squad is in the force
    assert "exit east" not in options(decisions[1])  # no drop yet: drop or stop only
    assert "exit east" in options(decisions[2])  # the squad dropped: the rest may exit
    assert [d.prompt.split(":")[0] for d in decisions[3:]] == ["the force at 0401", "the force at 0601"]
    assert where(ctx, squad) == ["0301"]
    assert where(ctx, flag, *launches) == ["gone"] * 3
    assert ctx.state.resource("blue", "vp") == 5 and ctx.operation.force == []
    assert [e["unit"] for e in ctx.events if e.get("kind") == "exit"] == [flag, *launches]


def test_no_exit_for_a_force_with_a_unit_the_exit_does_not_name(ctx):
    (flag,), (skiff,) = of(ctx, "flagship"), of(ctx, "skiff")
    designate(ctx, flag, skiff)  # the skiff is not a boat of the flotilla
    (decision,) = run(ctx, "move force", ["move 0201"])
    assert not [o for o in options(decision) if o.startswith("exit")]


def test_random_games_replay_alike():
    games = random_games_replay_alike(SCENARIO, seeds=range(10))  # 6, 8, 9 drop; 2, 8 exit
    assert any(any(str(c).startswith("drop") for c in g.choices) for g in games)
    assert any(any(str(c).startswith("exit") for c in g.choices) for g in games)


def test_a_greedy_game_ends():
    assert greedy_game(SCENARIO, 1).is_over()


def test_the_gallery_lints_clean_of_the_forces_codes():
    """E331's and W421's silent case (their fixtures fire): every self-moving class is unlimited and
    a marker stops the class that may go on past markers."""
    from warbook.dsl.lint import lint_path

    assert [d.code for d in lint_path(HERE / "forces.rules") if d.code in ("E331", "W421")] == []


TWO_LOADS = '''
factor tonnage "Tonnage"
factor weight "Weight"
movement wheels "Wheels" {
    needs transport
    transported by boat
    carried with tonnage against weight
    enters only water shoal
}
unit cart "Cart" {
    side blue
    movement wheels
    weight 2
    bulk 5
}
unit barge "Barge" {
    side blue
    movement boat
    tonnage 2
}
'''


@pytest.fixture(scope="module")
def two_loads(tmp_path_factory):
    """The gallery with a second carried class (``wheels``: ``carried with tonnage against
    weight``): a cart (weight 2, and bulk 5, which its own line never reads) and a barge (a boat,
    tonnage 2, lift 0)."""
    import shutil

    from warbook.interpreter.scenario import load_scenario

    folder = tmp_path_factory.mktemp("two_loads")
    for name in ("forces.rules", "forces.toml", "map.toml"):
        shutil.copy(HERE / name, folder / name)
    with open(folder / "forces.rules", "a", encoding="utf-8") as rules:
        rules.write(TWO_LOADS)
    return load_scenario(folder / "forces.toml")


def test_carried_units_of_two_classes_each_draw_on_their_own_lines_capacity(two_loads):
    """Each carried unit is charged under its own class's ``carried with`` line: the squad's bulk 1
    against lift, the cart's weight 2 against tonnage.  A launch (lift 1) carries the squad but not
    the cart (no tonnage); with the barge (tonnage 2) too it carries both."""
    from gallery import at_position
    from warbook.interpreter.forces import Force
    from warbook.interpreter.state import Unit

    units = {uid: Unit(uid, kind, "blue", "0101") for uid, kind in
             (("L", "launch"), ("B", "barge"), ("S", "squad"), ("C", "cart"))}
    ctx = at_position(two_loads, "operations", *units.values())

    def force(*ids):
        return Force(ctx, [units[i] for i in ids])

    assert force("L", "S").needs() == {"lift": 1} and force("L", "S").problem() is None
    both = force("L", "S", "C")
    assert both.needs() == {"lift": 1, "tonnage": 2}  # not the cart's bulk 5, nor a weight for the squad
    assert both.capacities(["lift", "tonnage"]) == {"lift": 1, "tonnage": 0}
    assert both.overload() == ("tonnage", 2, 0)
    assert both.problem() == "the carried units need 2 transport and the carriers have 0 (Tonnage)"
    assert force("L", "B", "S", "C").problem() is None
    assert force("B", "S", "C").overload() == ("lift", 1, 0)  # the barge has no lift for the squad
    assert force("B", "C").problem() is None
    # A designation offers the cart only when the units at hand have the tonnage for it.
    from warbook.interpreter.carrying import may_carry
    assert may_carry(ctx, force("L", "S"), units["C"], [units["B"]])
    assert not may_carry(ctx, force("L", "S"), units["C"], [])
    assert may_carry(ctx, force("L"), units["S"], [])  # (the launch's lift, not the barge's tonnage)
    assert not may_carry(ctx, force("B"), units["S"], [])
