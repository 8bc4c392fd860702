"""Mechanics gallery: fire at range, played in a neutral game (range_fire.rules).

Every expected value is worked out by hand from range_fire.rules and map.toml.  Infantry (blue)
attack 1, defence 2; guns (blue) attack 3, defence 1, range 4; rifles (red) defence 2.  Hexes:
flat-topped, even columns half a hex lower, so in a unit of one hex's width the centre of
column c, row r is at (1.5 c, √3 (r + ½ if c is even))).  Woods stand at 0202, a wall on the
hexside between 0401 and 0402.  ``barrage`` (``do bombard``) fires from 2 to 4 hexes away,
blocked by woods and the wall, any group of the guns in range together; ``assault`` lets guns in range, not adjacent, join an infantry
assault along a clear line, at 1:1 or better; ``skirmish`` the same with any combination and no
line of fire or minimum range.
"""

from pathlib import Path

from attrs import evolve

from driving import do_call, drive, run_cli
from gallery import at_position, fixed_roll, greedy_game, offered, random_games_replay_alike, scenario_fixture
from warbook.dsl.compiled.combat import RangeFire
from warbook.interpreter.board import board_from_text
from warbook.interpreter.line_of_fire import line_blocked, lines_between
from warbook.interpreter.procedures import PROCEDURES
from warbook.interpreter.state import Unit

HERE = Path(__file__).parent
SCENARIO = HERE / "range_fire.toml"
scenario = scenario_fixture(SCENARIO)
BLOCKING = ("woods", "wall")


# --- the line between two centres ---------------------------------------------------------------------


def test_a_hex_line_drawn_both_ways_parts_only_along_a_hexside(scenario):
    board = scenario.board
    # 0102 (1.5, 2√3) to 0302 (4.5, 2√3): half way, (3, 2√3) is the hexside between 0201 and 0202
    # (centres 1.5√3 and 2.5√3): one drawing passes 0201, the other 0202.
    assert lines_between(board, "0102", "0302") == (["0102", "0201", "0302"], ["0102", "0202", "0302"])
    # 0103 (1.5, 3√3) to 0302 (4.5, 2√3): half way, (3, 2.5√3), is the centre of 0202.
    assert lines_between(board, "0103", "0302") == (["0103", "0202", "0302"],) * 2
    # 0102 to 0502 runs along two hexsides: 0201|0202 and 0401|0402.
    assert lines_between(board, "0102", "0502") == (["0102", "0201", "0302", "0401", "0502"],
                                                    ["0102", "0202", "0302", "0402", "0502"])


def test_terrain_and_hexsides_block_the_line(scenario):
    rules, board = scenario.rules, scenario.board
    # Along the 0201|0202 hexside with woods on one side only: clear (0201 is).
    assert line_blocked(rules, board, BLOCKING, "0102", "0302") is None
    # Through the centre of the woods: blocked.
    assert line_blocked(rules, board, BLOCKING, "0103", "0302") == "0202 holds woods"
    # Along the walled hexside: blocked whichever hex the line is nudged into.
    assert line_blocked(rules, board, BLOCKING, "0102", "0502") == "the side between 0401 and 0402 holds wall"
    assert line_blocked(rules, board, ("woods",), "0102", "0502") is None
    # The firer's and the target's own hexes never block, and nothing blocks without the line.
    assert line_blocked(rules, board, BLOCKING, "0102", "0202") is None
    assert line_blocked(rules, board, (), "0103", "0302") is None


SQUARE = """
[map]
name = "Square"
grid = "square"
width = 3
height = 3
rows = ["...", "...", "..."]
[map.legend]
"." = "clear"
"w" = "woods"
"""


def square(rows: list[str]):
    text = SQUARE.replace('["...", "...", "..."]', str(rows).replace("'", '"'))
    return board_from_text(text, "square.toml", ["clear", "woods"])


def test_a_square_line_through_a_corner_is_blocked_only_when_both_squares_beside_it_are(scenario):
    rules = scenario.rules
    board = square(["...", "...", "..."])
    # 0101 to 0303 passes the corners of 0201|0102 and 0302|0203 and the centre of 0202.
    assert lines_between(board, "0101", "0303") == (["0101", "0201", "0202", "0302", "0303"],
                                                    ["0101", "0102", "0202", "0203", "0303"])
    # 0101 to 0302 (slope ½) crosses the column boundaries at x = 1.5 and 2.5 (y = 1.25 and 1.75)
    # and the row boundary at y = 1.5 (x = 2), no corner: 0101, 0201, 0202, 0302.
    assert lines_between(board, "0101", "0302") == (["0101", "0201", "0202", "0302"],) * 2
    one_side = square([".w.", "...", "..."])  # woods at 0201 (row 1, column 2)
    assert line_blocked(rules, one_side, ("woods",), "0101", "0303") is None
    both_sides = square([".w.", "w..", "..."])  # woods at 0201 and 0102
    assert line_blocked(rules, both_sides, ("woods",), "0101", "0303") == "0201 holds woods and 0102 holds woods"
    centre = square(["...", ".w.", "..."])
    assert line_blocked(rules, centre, ("woods",), "0101", "0303") == "0202 holds woods"
    assert line_blocked(rules, centre, ("woods",), "0101", "0302") == "0202 holds woods"


# --- do bombard: a minimum and a maximum range, along a clear line ---------------------------------------


GUNS = Unit("B1", "guns", "blue", "0102")
REDS = [Unit(f"R{n}", "rifles", "red", cell) for n, cell in enumerate(["0103", "0104", "0302", "0402", "0502"], 1)]


def test_bombard_reaches_from_the_minimum_to_the_range_along_a_clear_line(scenario):
    ctx = at_position(scenario, "barrage", GUNS, *REDS)
    decision = next(PROCEDURES["bombard"](ctx, do_call(ctx.rules, "bombard", "barrage")))
    # From 0102: 0103 is 1 hex away (below 2); 0104 and 0302 are 2, clear; 0402 is 3, through the
    # woods; 0502 is 4, along the walled hexside.
    assert offered(decision) == {"bombard 0104 with B1", "bombard 0302 with B1", "done"}


def test_perft_every_place_the_guns_may_bombard_a_hex_from(scenario):
    cells = [f"{c:02d}{r:02d}" for c in range(1, 7) for r in range(1, 5) if (c, r) != (3, 2)]
    firing = []
    for cell in cells:
        ctx = at_position(scenario, "barrage", Unit("B1", "guns", "blue", cell), Unit("R1", "rifles", "red", "0302"))
        decision = next(PROCEDURES["bombard"](ctx, do_call(ctx.rules, "bombard", "barrage")), None)
        if decision is not None and "bombard 0302 with B1" in offered(decision):
            firing.append(cell)
    # By hand, of the 23 hexes: the 6 next to 0302 are below the minimum range; every other is at
    # most 4 away (0604: 4).  Of those 17, three have no clear line: 0103 (through the centre of
    # the woods), 0104 (its line holds 0203, then 0202: the point ⅔ of the way, (3.5, 2.67√3), is
    # nearest 0202's centre) and 0502 (along the walled hexside 0401|0402).  0102 and 0203 run
    # along a hexside of the woods with a clear hex on the other side; 0403 along 0303|0402.
    assert firing == ["0101", "0102", "0203", "0204", "0304", "0403", "0404", "0501", "0503", "0504",
                      "0601", "0602", "0603", "0604"]


def test_without_the_lines_every_cell_up_to_the_range(scenario):
    ctx = at_position(scenario, "barrage", GUNS, *REDS)
    barrage = ctx.rules.combats["barrage"]
    ctx.rules.combats["barrage"] = evolve(barrage, range_fire=RangeFire())
    try:
        decision = next(PROCEDURES["bombard"](ctx, do_call(ctx.rules, "bombard", "barrage")))
    finally:
        ctx.rules.combats["barrage"] = barrage
    assert offered(decision) == {f"bombard {u.location} with B1" for u in REDS} | {"done"}


def bombard(ctx, answers=()):
    return drive(PROCEDURES["bombard"](ctx, do_call(ctx.rules, "bombard", "barrage")), answers)


# Three guns with a clear line to 0302, each 2 hexes away (the perft above): 0101, 0203 and 0304.
BATTERY = [Unit("G1", "guns", "blue", "0101"), Unit("G2", "guns", "blue", "0203"), Unit("G3", "guns", "blue", "0304")]


def test_with_any_combination_every_group_of_the_guns_in_range_may_bombard(scenario):
    ctx = at_position(scenario, "barrage", *BATTERY, Unit("R1", "rifles", "red", "0302"))
    decision = next(PROCEDURES["bombard"](ctx, do_call(ctx.rules, "bombard", "barrage")))
    # Without the line: all three, or each alone (4 options); with it, every group: 7, and done.
    assert offered(decision) == {"bombard 0302 with G1 G2 G3", "bombard 0302 with G1 G2", "bombard 0302 with G1 G3",
                                 "bombard 0302 with G2 G3", "bombard 0302 with G1", "bombard 0302 with G2",
                                 "bombard 0302 with G3", "done"}


def test_two_guns_of_three_bombard_together_and_the_third_keeps_its_fire(scenario, monkeypatch):
    fixed_roll(monkeypatch, 3)  # 3 + 3 = 6 against 2 is 3:1, where a 3 is DE (1:1, one gun alone, is NE)
    ctx = at_position(scenario, "barrage", *BATTERY, Unit("R1", "rifles", "red", "0302"))
    bombard(ctx, ["bombard 0302 with G1 G3"])
    said = [e["text"] for e in ctx.events if e["type"] == "event"]
    assert any("attack 6 against defence 2 at 3:1" in s for s in said)
    assert ctx.state.unit("R1").location == ctx.rules.eliminated_box
    assert [("bombarded" in ctx.state.unit(i).spent) for i in ("G1", "G2", "G3")] == [True, False, True]


# --- do fight: guns add their range fire to an adjacent assault ------------------------------------------


RIFLES = Unit("R1", "rifles", "red", "0302")
INFANTRY = Unit("B1", "infantry", "blue", "0303")
G1, G2, G3 = (Unit("G1", "guns", "blue", "0101"), Unit("G2", "guns", "blue", "0203"),
              Unit("G3", "guns", "blue", "0103"))


def fight(ctx, combat: str, answers=()):
    return drive(PROCEDURES["fight"](ctx, do_call(ctx.rules, "fight", combat)), answers)


def test_guns_in_range_along_a_clear_line_support_the_assault(scenario):
    ctx = at_position(scenario, "assault", RIFLES, INFANTRY, G1, G2, G3)
    decision = next(PROCEDURES["fight"](ctx, do_call(ctx.rules, "fight", "assault")))
    # The infantry alone is 1 against 2 (1:2, below the minimum 1:1); G1 (0101, 2 hexes, the line
    # through 0201) and G2 (0203, 2 hexes, along the 0202|0303 hexside, 0303 clear) may support:
    # 1 + 3 + 3 = 7 against 2.  G3 (0103) fires through the centre of the woods.
    assert offered(decision) == {"attack 0302 with B1 G1 G2", "pass B1", "done"}


def test_with_any_combination_every_group_of_supporting_guns(scenario):
    ctx = at_position(scenario, "skirmish", RIFLES, INFANTRY, G1, G2, G3)
    decision = next(PROCEDURES["fight"](ctx, do_call(ctx.rules, "fight", "skirmish")))
    # No line of fire here: G1, G2 and G3 may all support; of the 8 groups of the infantry with
    # some of them, the 7 with a gun reach 1:1 (4 or more against 2).
    attacks = {o for o in offered(decision) if o.startswith("attack")}
    assert len(attacks) == 7 and "attack 0302 with B1" not in attacks
    assert offered(decision) - attacks == {"pass B1", "done"}


def fought(scenario, monkeypatch, roll: int, units, attack: str):
    """A context after ``attack`` in ``assault`` with every die showing ``roll``, and what it said."""
    fixed_roll(monkeypatch, roll)
    ctx = at_position(scenario, "assault", *units)
    fight(ctx, "assault", [attack])
    return ctx, [e["text"] for e in ctx.events if e["type"] == "event"]


def test_supporting_guns_are_unharmed_by_the_attackers_result(scenario, monkeypatch):
    # 7:2 rounds to 3:1; a 6 is AE
    ctx, said = fought(scenario, monkeypatch, 6, (RIFLES, INFANTRY, G1, G2), "attack 0302 with B1 G1 G2")
    assert "B1 Infantry attack 0302, supported by G1 Guns, G2 Guns" in said
    assert any("attack 7 against defence 2 at 3:1" in s for s in said)
    assert ctx.state.unit("B1").location == ctx.rules.eliminated_box
    assert [ctx.state.unit(i).location for i in ("G1", "G2", "R1")] == ["0101", "0203", "0302"]
    assert "attacked" in ctx.state.unit("G1").spent and "attacked" in ctx.state.unit("G2").spent


def test_a_supported_assault_eliminates_the_defender(scenario, monkeypatch):
    fixed_roll(monkeypatch, 1)  # DE
    ctx = at_position(scenario, "assault", RIFLES, INFANTRY, G1)
    # 1 + 3 = 4 against 2: 2:1.
    fight(ctx, "assault", ["attack 0302 with B1 G1"])
    assert ctx.state.unit("R1").location == ctx.rules.eliminated_box


G5 = Unit("G5", "guns", "blue", "0102")
RIFLES_2 = Unit("R2", "rifles", "red", "0402")


def test_guns_in_range_of_every_hex_support_an_attack_on_two(scenario):
    ctx = at_position(scenario, "assault", RIFLES, RIFLES_2, INFANTRY, G1, G5)
    decision = next(PROCEDURES["fight"](ctx, do_call(ctx.rules, "fight", "assault")))
    # B1 (0303) touches 0302 and 0402.  G1 (0101) is 2 hexes from 0302 and 3 from 0402 along clear
    # lines; G5 (0102) is 2 from 0302 (the line along the 0201|0202 hexside, clear one way) but
    # its line to 0402, from (1.5, 2√3) to (6, 2.5√3), runs through the woods both ways: the point
    # a third of the way, (3, 2.17√3), lies in 0202.  So 0302 alone: 1 + 3 + 3 = 7 against 2;
    # 0402 alone: 1 + 3 = 4 against 2; both at once: 1 + 3 = 4 against 2 + 2 = 4, 1:1, the
    # minimum.  The infantry alone is 1 against 2 or 4, below it.
    assert offered(decision) == {"attack 0302 with B1 G1 G5", "attack 0402 with B1 G1",
                                 "attack 0302 0402 with B1 G1", "pass B1", "done"}


def test_a_supported_attack_on_two_hexes_leaves_the_guns_unharmed(scenario, monkeypatch):
    # 4:4 is 1:1; a 6 is AE
    ctx, said = fought(scenario, monkeypatch, 6, (RIFLES, RIFLES_2, INFANTRY, G1, G5), "attack 0302 0402 with B1 G1")
    assert "B1 Infantry attack 0302 and 0402, supported by G1 Guns" in said
    assert any("attack 4 against defence 4 at 1:1" in s for s in said)
    assert ctx.state.unit("B1").location == ctx.rules.eliminated_box
    assert [ctx.state.unit(i).location for i in ("G1", "R1", "R2")] == ["0101", "0302", "0402"]
    assert "attacked" in ctx.state.unit("G1").spent and "attacked" not in ctx.state.unit("G5").spent


def test_a_supported_attack_on_two_hexes_eliminates_both(scenario, monkeypatch):
    ctx, _ = fought(scenario, monkeypatch, 1, (RIFLES, RIFLES_2, INFANTRY, G1, G5), "attack 0302 0402 with B1 G1")  # DE
    assert [ctx.state.unit(i).location for i in ("R1", "R2")] == [ctx.rules.eliminated_box] * 2


# --- whole games -----------------------------------------------------------------------------------------


def test_random_games_play_to_the_end_and_replay_alike():
    random_games_replay_alike(SCENARIO)


def test_greedy_games_play_to_the_end():
    for seed in (1, 2):
        assert greedy_game(SCENARIO, seed).is_over()


def test_play_narrates_the_fire(capsys):
    code, out, _ = run_cli(capsys, "play", str(SCENARIO), "--seed", "1")
    # Turn 1: the guns at 0101 (B1) join the infantry's assault on 0102, supported by the other guns.
    assert code == 0 and "  B1 Guns, B3 Infantry attack 0102, supported by B2 Guns\n" in out and "Result:" in out


def test_a_declared_attack_keeps_its_support(scenario, monkeypatch):
    fixed_roll(monkeypatch, 1)  # DE
    ctx = at_position(scenario, "assault", RIFLES, INFANTRY, G1, G2)
    assault = ctx.rules.combats["assault"]
    ctx.rules.combats["assault"] = evolve(assault, model=evolve(assault.model, declared=True))
    try:
        fight(ctx, "assault", ["attack 0302 with B1 G1 G2", "done"])  # (then red declares none)
    finally:
        ctx.rules.combats["assault"] = assault
    said = [e["text"] for e in ctx.events if e["type"] == "event"]
    # Declared with its support, then resolved with it: 7 against 2.
    assert "B1 Infantry will attack 0302, supported by G1 Guns, G2 Guns" in said
    assert "B1 Infantry attack 0302, supported by G1 Guns, G2 Guns" in said
    assert any("attack 7 against defence 2 at 3:1" in s for s in said)
