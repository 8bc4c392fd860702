"""Mechanics gallery: after combat, played in a neutral game (after_combat.rules).

Every expected value is worked out by hand from after_combat.rules and map.toml: five columns by
three rows of hexes (even columns set half a hex lower), a lake at 0501 and 0502, one unit a hex
(``limit 1``), zones of control into every clear neighbour that stop movement and block retreats.
A defender at 0302 attacked from 0202 (and 0301) is two hexes of retreat from safety: its
neighbours 0201 and 0303 lie in the attacker's zone, 0202 (and 0301) hold the attacker, 0301
leads only off the map's north edge and 0401 only into the lake (0501, 0502), so its one complete
retreat runs by 0402 to 0403 or 0503.  A DD result disrupts the defenders: a disrupted unit may not
move or attack, defends at half its defence, and recovers when its own side's movement phase ends.
"""

from pathlib import Path


from driving import drive, options, played, run_cli
from gallery import at_position, scenario_fixture, greedy_game
from warbook.interpreter.advance import advance_after_combat, retreat_paths
from warbook.interpreter.combat import Engagement
from warbook.interpreter.context import Context
from warbook.interpreter.game import Game
from warbook.interpreter.results import apply_result
from warbook.interpreter.retreats import DEFAULT_RETREAT, RetreatPaths
from warbook.interpreter.state import Unit

HERE = Path(__file__).parent
SCENARIO = HERE / "after_combat.toml"


scenario = scenario_fixture(SCENARIO)


def make(scenario, *units: Unit) -> Context:
    return at_position(scenario, "battle", *units)


TANK = Unit("B1", "tank", "blue", "0202")
RIFLES = Unit("B2", "rifles", "blue", "0301")


def red(n: int, at: str) -> Unit:
    return Unit(f"R{n}", "infantry", "red", at)


def result(ctx, combat: str, code: str, attackers, defenders, answers=()):
    """Carry out result ``code`` of ``combat`` (blue attacking); the decisions asked."""
    engagement = Engagement(ctx, ctx.rules.combats[combat], attackers, defenders, "blue", "test attack")
    decisions = drive(apply_result(ctx, code, engagement), answers)
    return decisions, engagement


def where(ctx, *ids: str) -> list[str]:
    return [ctx.state.unit(i).location for i in ids]


def texts(ctx) -> list[str]:
    return [e["text"] for e in ctx.events if e["type"] == "event"]


# --- retreats: look-ahead ----------------------------------------------------------------------------


def test_look_ahead_offers_no_first_hex_that_leads_only_to_a_dead_end(scenario):
    ctx = make(scenario, TANK, red(1, "0302"))
    rule = ctx.rules.combats["assault"].retreat
    paths = RetreatPaths(ctx, ctx.state.unit("R1"), 2, rule)
    # Every hex a first step may enter: 0301 and 0401 among them, though neither leads on.
    assert paths.steps_from("0302", 1) == ["0301", "0401", "0402"]
    assert paths.steps_from("0301", 2) == [] and paths.steps_from("0401", 2) == []
    assert paths.options("0302", 1) == ["0402"]
    assert paths.options("0402", 2) == ["0403", "0503"]
    assert paths.count() == 2  # perft: 0402-0403, 0402-0503


def test_perft_counts_complete_retreats_of_one_to_three_hexes(scenario):
    # Retreats of 1: the three first hexes (dead ends do not matter for one hex).  Of 3: from
    # 0403 and 0503 no hex lies three hexes from 0302 on a five-by-three map, so none completes.
    ctx = make(scenario, TANK, red(1, "0302"))
    unit = ctx.state.unit("R1")
    assert [RetreatPaths(ctx, unit, n, DEFAULT_RETREAT).count() for n in (1, 2, 3)] == [3, 2, 0]


def _brute_force_retreats(paths: RetreatPaths, cell: str, step: int) -> int:
    """Complete retreats from ``cell`` found by walking every hex that may be entered, no look-ahead."""
    if step and paths.ends_in(cell, step):
        return 1
    if step >= paths.distance + paths.rule.extension:
        return 0
    return sum(_brute_force_retreats(paths, c, step + 1) for c in paths.steps_from(cell, step + 1))


def test_look_ahead_offers_exactly_the_first_hexes_of_complete_retreats(scenario):
    # R1 in 0302 attacked by a tank from each of its neighbours, R2 in every other hex, retreats of 1
    # to 3 hexes with and without the extension: every hex offered starts a complete retreat, every
    # hex that starts one is offered, and the perft count equals the brute-force walk's.
    board = scenario.board
    for tank_at in sorted(board.neighbours("0302")):
        for other in sorted(c for c in board.cells if c not in ("0302", tank_at)):
            for distance in (1, 2, 3):
                for combat in ("assault", "raid"):
                    ctx = make(scenario, Unit("B1", "tank", "blue", tank_at), red(1, "0302"), red(2, other))
                    paths = RetreatPaths(ctx, ctx.state.unit("R1"), distance, ctx.rules.combats[combat].retreat)
                    starts = [c for c in paths.steps_from("0302", 1) if _brute_force_retreats(paths, c, 1)]
                    assert paths.options("0302", 1) == starts, (tank_at, other, distance, combat)
                    assert paths.count() == _brute_force_retreats(paths, "0302", 0)


def test_the_victor_chooses_and_the_retreat_runs_by_the_only_complete_path(scenario):
    ctx = make(scenario, TANK, red(1, "0302"))
    decisions, engagement = result(ctx, "assault", "DR", [TANK], [ctx.state.unit("R1")],
                                   ["retreat R1 0402", "retreat R1 0503"])
    first, second = decisions
    assert (first.side, first.kind, options(first)) == ("blue", "retreat", ["retreat R1 0402"])
    assert options(second) == ["retreat R1 0403", "retreat R1 0503"]
    assert where(ctx, "R1") == ["0503"]
    assert engagement.retreated == [("R1", "0302", "0402"), ("R1", "0402", "0503")]


def test_an_overstacked_end_hex_is_left_for_one_more_hex_or_not_offered(scenario):
    # R2 holds 0403: a retreat may pass it but not end there (limit 1), and one hex further from
    # 0302 (three hexes) there is no hex at all, so 0403 is no way on; 0503 is the one end.
    ctx = make(scenario, TANK, red(1, "0302"), red(2, "0403"))
    paths = RetreatPaths(ctx, ctx.state.unit("R1"), 2, ctx.rules.combats["assault"].retreat)
    assert paths.steps_from("0402", 2) == ["0403", "0503"]
    assert paths.options("0402", 2) == ["0503"] and paths.count() == 1


def test_extension_carries_a_retreat_past_an_overstacked_hex(scenario):
    # A retreat of one hex with R2 in 0402: without the extension 0402 is never entered (limit 1),
    # so 0301 and 0401 are the retreats; with it R1 may pass 0402 and go one hex on, to 0403 or
    # 0503 (two hexes from 0302): four complete retreats.
    ctx = make(scenario, TANK, red(1, "0302"), red(2, "0402"))
    unit = ctx.state.unit("R1")
    plain = RetreatPaths(ctx, unit, 1, DEFAULT_RETREAT)
    extended = RetreatPaths(ctx, unit, 1, ctx.rules.combats["assault"].retreat)
    assert plain.options("0302", 1) == ["0301", "0401"] and plain.count() == 2
    assert extended.options("0302", 1) == ["0301", "0401", "0402"] and extended.count() == 4
    engagement = Engagement(ctx, ctx.rules.combats["assault"], [TANK], [unit], "blue", "test attack")
    from warbook.interpreter.retreats import retreat
    first, second = drive(retreat(ctx, unit, 1, engagement), ["retreat R1 0402", "retreat R1 0403"])
    assert options(second) == ["retreat R1 0403", "retreat R1 0503"]
    assert where(ctx, "R1", "R2") == ["0403", "0402"]


def test_a_retreat_not_through_friendly_units_with_no_complete_path_eliminates_at_once(scenario):
    # The raid's retreats may not enter R2's hex 0402, the one way on: R1 is eliminated where it
    # stands, and nobody is asked.
    ctx = make(scenario, TANK, red(1, "0302"), red(2, "0402"))
    decisions, engagement = result(ctx, "raid", "DR", [TANK], [ctx.state.unit("R1")])
    assert decisions == [] and engagement.eliminated == ["R1"]
    assert where(ctx, "R1") == [ctx.rules.eliminated_box]
    assert "R1 Infantry is eliminated (test attack: no retreat of 2 hexes it could complete)" in texts(ctx)


def test_the_attacker_chooses_a_raids_retreat_around_friendly_units(scenario):
    # R2 in 0503: of 0402's ways on only 0403 is free of friendly units.
    ctx = make(scenario, TANK, red(1, "0302"), red(2, "0503"))
    decisions, _ = result(ctx, "raid", "DR", [TANK], [ctx.state.unit("R1")], ["retreat R1 0402", "retreat R1 0403"])
    assert [(d.side, options(d)) for d in decisions] == [("blue", ["retreat R1 0402"]), ("blue", ["retreat R1 0403"])]


def test_the_defender_chooses_the_attackers_retreat_when_the_victor_is_named(scenario):
    # Assault's retreats are chosen by the victor: red picks the retreating tank's hex, one of
    # 0202's neighbours outside R1's zone (0201 and 0303 are in it) and not R1's own 0302.
    ctx = make(scenario, TANK, red(1, "0302"))
    decisions, _ = result(ctx, "assault", "AR", [TANK], [ctx.state.unit("R1")], ["retreat B1 0102"])
    assert decisions[0].side == "red"
    assert options(decisions[0]) == ["retreat B1 0102", "retreat B1 0103", "retreat B1 0203"]


# --- advance after combat ----------------------------------------------------------------------------


def test_retreat_paths_are_read_from_the_hexes_retreated(scenario):
    moves = [("R1", "0302", "0402"), ("R2", "0101", "0201"), ("R1", "0402", "0503")]
    assert retreat_paths("0302", moves) == [["0302", "0402", "0503"]]


def test_attackers_advance_into_the_vacated_hex_and_on_along_the_retreat(scenario):
    # R1 retreated 0302 → 0402 → 0503.  Tank and rifles both attacked; one may enter 0302 (limit 1),
    # the one that did may go on to 0402, the next hex of the retreat, the second of two; 0402 lies
    # in R1's zone, which stops the assault's advance, and is its last hex anyway.
    ctx = make(scenario, TANK, RIFLES, red(1, "0503"))
    moves = [("R1", "0302", "0402"), ("R1", "0402", "0503")]
    flow = advance_after_combat(ctx, ctx.rules.combats["assault"], "blue", {"B1": "0202", "B2": "0301"}, "0302",
                                moves)
    decisions = drive(flow, ["advance B1 0302", "advance B1 0402", "done"])
    assert [(d.side, d.kind) for d in decisions] == [("blue", "advance")] * 3
    assert [options(d) for d in decisions] == [["advance B1 0302", "advance B2 0302", "done"],
                                               ["advance B1 0402", "done"],
                                               ["advance B2 0302", "done"]]
    assert where(ctx, "B1", "B2") == ["0402", "0301"]
    assert "B1 Tank advances after combat from 0202 to 0302" in texts(ctx)


def test_a_zone_stops_the_advance_unless_it_is_ignored(scenario):
    # R2 in 0401 exerts a zone into 0301, 0302 and 0402.  The assault's advance stops in the first
    # hex in an enemy zone, the hex attacked itself; the raid's, ignoring zones, goes on to 0402.
    ctx = make(scenario, TANK, red(1, "0503"), red(2, "0401"))
    moves = [("R1", "0302", "0402"), ("R1", "0402", "0503")]
    assault = drive(advance_after_combat(ctx, ctx.rules.combats["assault"], "blue", {"B1": "0202"}, "0302", moves),
                    ["advance B1 0302"])
    assert [options(d) for d in assault] == [["advance B1 0302", "done"]]  # 0302 is in R2's zone: no further
    ctx = make(scenario, TANK, red(1, "0503"), red(2, "0401"))
    raid = drive(advance_after_combat(ctx, ctx.rules.combats["raid"], "blue", {"B1": "0202"}, "0302", moves),
                 ["advance B1 0302", "advance B1 0402"])
    assert [options(d) for d in raid] == [["advance B1 0302", "done"], ["advance B1 0402", "done"]]
    assert where(ctx, "B1") == ["0402"]


def test_only_the_units_the_line_selects_advance(scenario):
    # The raid's advance is by armour: the rifles stay.
    ctx = make(scenario, TANK, RIFLES)
    decisions = drive(advance_after_combat(ctx, ctx.rules.combats["raid"], "blue", {"B1": "0202", "B2": "0301"},
                                           "0302", []), ["done"])
    assert [options(d) for d in decisions] == [["advance B1 0302", "done"]]


def test_no_advance_while_the_hex_is_held_or_by_a_unit_that_left_its_hex(scenario):
    ctx = make(scenario, TANK, red(1, "0302"))
    assert drive(advance_after_combat(ctx, ctx.rules.combats["assault"], "blue", {"B1": "0202"}, "0302", [])) == []
    ctx = make(scenario, Unit("B1", "tank", "blue", "0101"))  # it attacked from 0202 and retreated
    assert drive(advance_after_combat(ctx, ctx.rules.combats["assault"], "blue", {"B1": "0202"}, "0302", [])) == []


def test_fight_offers_the_advance_after_a_result_empties_the_hex(scenario, monkeypatch):
    from warbook.interpreter import rng
    from warbook.interpreter.procedures import PROCEDURES
    from driving import do_call

    # Tank (4) against infantry (2): 2:1, a roll of 1 is DE: the hex is empty at once.
    monkeypatch.setattr(rng, "roll", lambda seed, n, faces, count=1: 1)
    ctx = make(scenario, TANK, red(1, "0302"))
    decisions = drive(PROCEDURES["fight"](ctx, do_call(ctx.rules, "fight", "assault")),
                      ["attack 0302 with B1", "advance B1 0302"])
    assert [d.kind for d in decisions] == ["attack", "advance"]  # no enemy left to attack
    assert where(ctx, "B1", "R1") == ["0302", ctx.rules.eliminated_box]


# --- statuses ----------------------------------------------------------------------------------------


def test_a_result_disrupts_the_defenders(scenario):
    ctx = make(scenario, TANK, red(1, "0302"))
    result(ctx, "assault", "DD", [TANK], [ctx.state.unit("R1")])
    assert ctx.state.unit("R1").status == frozenset({"disrupted"}) and ctx.state.unit("B1").status == frozenset()
    assert "R1 Infantry is disrupted (test attack)" in texts(ctx)
    result(ctx, "assault", "DD", [TANK], [ctx.state.unit("R1")])  # disrupted already: said once
    assert texts(ctx).count("R1 Infantry is disrupted (test attack)") == 1


def test_a_disrupted_unit_defends_at_half_and_may_not_attack(scenario):
    from warbook.interpreter.combat import combat_strength, find_column
    from warbook.interpreter.procedures.combat import attack_cells
    from warbook.interpreter.state import replace

    ctx = make(scenario, TANK, replace(red(1, "0302"), status=frozenset({"disrupted"})))
    assault = ctx.rules.combats["assault"]
    shaken = ctx.state.unit("R1")
    # Infantry prints defence 2, so 1 disrupted: the tank's 4 against 1 is 4:1, the last column 2:1.
    assert combat_strength(ctx, assault, [TANK], [shaken], "0302") == (4, 1)
    assert find_column(ctx, assault, [TANK], [shaken], attacker_side="blue").label == "2:1"
    assert attack_cells(ctx, assault, shaken) == [] and attack_cells(ctx, assault, TANK) == ["0302"]


def test_a_disrupted_unit_does_not_move(scenario):
    from driving import do_call
    from warbook.interpreter.procedures import PROCEDURES
    from warbook.interpreter.state import replace

    ctx = make(scenario, TANK, replace(red(1, "0503"), status=frozenset({"disrupted"})), red(2, "0101"))
    ctx.acting = "red"
    first = next(PROCEDURES["move"](ctx, do_call(ctx.rules, "move")))
    assert {a.args[0] for a in first.options if a.args} == {"R2"}


def test_units_recover_when_their_sides_movement_phase_ends(scenario):
    from warbook.interpreter.state import replace
    from warbook.interpreter.status_effects import recover

    disrupted = frozenset({"disrupted"})
    ctx = make(scenario, replace(TANK, status=disrupted), replace(red(1, "0302"), status=disrupted))
    recover(ctx, "battle", None)  # another phase: nobody recovers
    recover(ctx, "movement", "blue")
    assert [ctx.state.unit(i).status for i in ("B1", "R1")] == [frozenset(), disrupted]
    assert texts(ctx) == ["B1 Tank recovers (Disrupted)"]


def test_the_status_of_a_counter_is_seen(scenario):
    from warbook.interpreter.state import replace

    game = Game.new(SCENARIO, 1)
    game.ctx.state = replace(game.ctx.state, units=tuple(sorted([TANK, replace(red(1, "0302"),
                                                                               status=frozenset({"disrupted"}))])))
    seen = {u["id"]: u for u in game.observe("blue")["units"]}
    assert seen["R1"]["status"] == ["disrupted"] and "status" not in seen["B1"]


# --- whole games -------------------------------------------------------------------------------------


def test_random_games_play_to_the_end_and_replay_alike():
    logs = []
    for seed in range(6):
        game = played(SCENARIO, seed)
        assert game.is_over()
        assert played(SCENARIO, seed).log == game.log
        logs.append(game.log)
    assert any(e.get("kind") == "advance" for log in logs for e in log)
    assert any(e.get("kind") == "status" for log in logs for e in log)


def test_greedy_games_play_to_the_end():
    for seed in (1, 2):
        assert greedy_game(SCENARIO, seed).is_over()


def test_play_narrates_the_advance_and_the_status(capsys):
    code, out, _ = run_cli(capsys, "play", str(SCENARIO), "--seed", "17")
    assert code == 0
    assert "B2 Rifles advances after combat from 0301 to 0302" in out
    assert "B2 Rifles is disrupted (attack on 0302)" in out and "B2 Rifles recovers (Disrupted)" in out
