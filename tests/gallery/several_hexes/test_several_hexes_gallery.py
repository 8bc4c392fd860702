"""Mechanics gallery: one attack on several hexes, played in a neutral game (several_hexes.rules).

Every expected value is worked out by hand from several_hexes.rules and map.toml.  Infantry (blue)
attack 3; rifles (red) defence 1, doubled on the hill at 0302 (which also shifts one column left
where terrain shifts columns).  ``assault``: terrain multiplies defence, 1:1 or better, one unit
or all; ``skirmish``: terrain shifts columns, any combination.  Hexes: even columns sit half a
hex lower, so 0202 touches 0201, 0203, 0102, 0103, 0302 and 0303; 0301 touches 0302 (of the
red hexes) only.
"""

from pathlib import Path

from driving import do_call, drive, run_cli
from gallery import at_position, fixed_roll, greedy_game, offered, random_games_replay_alike, scenario_fixture
from warbook.interpreter.procedures import PROCEDURES
from warbook.interpreter.state import Unit

HERE = Path(__file__).parent
SCENARIO = HERE / "several_hexes.toml"
scenario = scenario_fixture(SCENARIO)

REDS = (Unit("R1", "rifles", "red", "0302"), Unit("R2", "rifles", "red", "0303"), Unit("R3", "rifles", "red", "0103"))
B1, B2 = Unit("B1", "infantry", "blue", "0202"), Unit("B2", "infantry", "blue", "0301")


def flow(ctx, combat: str):
    return PROCEDURES["fight"](ctx, do_call(ctx.rules, "fight", combat))


def test_attacks_on_every_set_of_hexes_each_attacker_touches(scenario):
    ctx = at_position(scenario, "assault", *REDS, B1, B2)
    # One hex: 0103 (3:1) by B1; 0302 (defence 2 on the hill) by both (6:2), or either alone (3:2);
    # 0303 (3:1) by B1.  Several: only B1 touches more than one; against 0103 and 0302 3:3, 0103 and
    # 0303 3:2, 0302 and 0303 3:3; all three 3:4, below 1:1.
    assert offered(next(flow(ctx, "assault"))) == {
        "attack 0103 with B1", "attack 0302 with B1 B2", "attack 0302 with B1", "attack 0302 with B2",
        "attack 0303 with B1", "attack 0103 0302 with B1", "attack 0103 0303 with B1", "attack 0302 0303 with B1",
        "pass B1", "pass B2", "done"}


def test_perft_every_placement_of_one_attacker(scenario):
    counted = asked = 0
    for cell in ("0101", "0102", "0201", "0202", "0203", "0301", "0401", "0402", "0403"):
        ctx = at_position(scenario, "assault", *REDS, Unit("B1", "infantry", "blue", cell))
        decision = next(flow(ctx, "assault"), None)
        if decision is not None:
            asked += 1
            counted += len(offered(decision))
    # By hand: 0101 touches no red hex (not asked); 0102, 0201, 0301, 0401 and 0403 touch one: an
    # attack, a pass, done; 0203 touches 0103 and 0303 (1 + 1 ≤ 3): 2 attacks on one, 1 on both;
    # 0402 touches 0302 and 0303 (2 + 1 ≤ 3): the same; 0202 touches three: 3 + 3 pairs (the
    # three together, 4 against 3, is below 1:1).
    assert asked == 8 and counted == 5 * 3 + 5 + 5 + 8 == 33


def test_the_result_applies_to_every_hex_attacked(scenario, monkeypatch):
    fixed_roll(monkeypatch, 1)  # 1:1, a 1: DE
    ctx = at_position(scenario, "assault", *REDS[:2], B1)
    decisions = drive(flow(ctx, "assault"), ["attack 0302 0303 with B1", "done", "advance B1 0303"])
    said = [e["text"] for e in ctx.events if e["type"] == "event"]
    assert "B1 Infantry attack 0302 and 0303" in said
    assert any("attack 3 against defence 3 at 1:1" in s for s in said)  # 1 × 2 on the hill + 1
    assert [ctx.state.unit(i).location for i in ("R1", "R2")] == [ctx.rules.eliminated_box] * 2
    # Advance after combat: into the first hex attacked; not taken, into the second.
    assert [offered(d) for d in decisions[1:]] == [{"advance B1 0302", "done"}, {"advance B1 0303", "done"}]
    assert ctx.state.unit("B1").location == "0303"


def test_the_shifts_are_those_of_the_hex_best_for_the_defender(scenario, monkeypatch):
    fixed_roll(monkeypatch, 3)
    ctx = at_position(scenario, "skirmish", *REDS[:2], B1)
    decisions = drive(flow(ctx, "skirmish"), ["attack 0302 0303 with B1", "done"])
    # Then red: both rifles touch B1's one hex, any combination of them (no hex of several).
    assert offered(decisions[1]) == {"attack 0202 with R1 R2", "attack 0202 with R1", "attack 0202 with R2",
                                     "pass R1", "pass R2", "done"}
    said = [e["text"] for e in ctx.events if e["type"] == "event"]
    # 3 against 1 + 1 (terrain does not multiply here) is 3:2, the 1:1 column; the hill's 1L is the
    # shift best for the defender (the clear hex shifts nothing): column 1:2, and a 3 there is NE.
    line = next(s for s in said if "against defence" in s)
    assert "attack 3 against defence 2 at 1:1" in line and line.endswith("column 1:2")
    assert [ctx.state.unit(i).location for i in ("R1", "R2", "B1")] == ["0302", "0303", "0202"]


# --- whole games -----------------------------------------------------------------------------------------


def test_random_games_play_to_the_end_and_replay_alike():
    random_games_replay_alike(SCENARIO)


def test_greedy_games_play_to_the_end():
    for seed in (1, 2):
        assert greedy_game(SCENARIO, seed).is_over()


def test_play_narrates_an_attack_on_two_hexes(capsys):
    code, out, _ = run_cli(capsys, "play", str(SCENARIO), "--seed", "1")
    # Two rifles, one in each hex (defence 1 + 1), against the infantry's 3: 3:2, the 1:1 column.
    assert code == 0 and "  B1 Infantry attack 0201 and 0202\n  Attack on 0201 and 0202: attack 3 against " \
        "defence 2 at 1:1: column 1:1\n" in out and "Result:" in out


def test_a_declared_attack_on_two_hexes_is_resolved_against_both(scenario, monkeypatch):
    from attrs import evolve

    fixed_roll(monkeypatch, 1)  # DE
    ctx = at_position(scenario, "assault", *REDS[:2], B1)
    assault = ctx.rules.combats["assault"]
    ctx.rules.combats["assault"] = evolve(assault, model=evolve(assault.model, declared=True))
    try:
        # Red's rifles both touch B1 but declare nothing; then B1 may advance into each hex in turn.
        drive(flow(ctx, "assault"), ["attack 0302 0303 with B1", "done", "done", "done"])
    finally:
        ctx.rules.combats["assault"] = assault
    said = [e["text"] for e in ctx.events if e["type"] == "event"]
    assert "B1 Infantry will attack 0302 and 0303" in said and "B1 Infantry attack 0302 and 0303" in said
    assert [ctx.state.unit(i).location for i in ("R1", "R2")] == [ctx.rules.eliminated_box] * 2
