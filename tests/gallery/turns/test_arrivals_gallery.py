"""Mechanics gallery: scheduled arrivals and withdrawals, played in turns.toml.

By hand from turns.toml and turns.rules: Blue sets up B1, B2 and Red R1, R2, so the arrivals are
numbered after them in the order written: R3 and R4 (rifles, turn 2, at 0501 or 0503), B3
(infantry, turn 2, on the west edge: 0101, 0102, 0103) and B4 (infantry, turn 3, into Blue's pool).
One rifles is withdrawn on turn 4, Blue gaining 2 vp if Red has none on the map.  Stacking is 2
units a cell, checked always.
"""

import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from driving import do_call, drive, options, played
from warbook.dsl.diagnostics import RulesError
from warbook.interpreter.context import Context
from warbook.interpreter.game import Game
from warbook.interpreter.procedures import PROCEDURES, load_procedures
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.state import OFFMAP, GameState, Unit, replace

HERE = Path(__file__).parent
SCENARIO = HERE / "turns.toml"


@pytest.fixture(scope="module")
def scenario():
    load_procedures()
    return load_scenario(SCENARIO)


def waiting(side: str, n: int, unit: str, turn: int) -> Unit:
    return Unit(f"{side[0].upper()}{n}", unit, side, f"turn_track:{turn}")


R3, R4 = waiting("red", 3, "rifles", 2), waiting("red", 4, "rifles", 2)
B3, B4 = waiting("blue", 3, "infantry", 2), waiting("blue", 4, "infantry", 3)


def make(scenario, *units: Unit, turn: int = 2, acting: str | None = "red") -> Context:
    ctx = Context(scenario, seed=0)
    ctx.state = GameState(turn=turn, phase="reinforcements", units=tuple(sorted(units)), weather="clear")
    ctx.acting = acting
    return ctx


def run(ctx, procedure: str, answers=()):
    return drive(PROCEDURES[procedure](ctx, do_call(ctx.rules, procedure)), answers)


def where(ctx, *ids: str) -> list[str]:
    return [ctx.state.unit(i).location for i in ids]


def texts(ctx) -> list[str]:
    return [e["text"] for e in ctx.events if e["type"] == "event"]


# --- the schedule -------------------------------------------------------------------------------------


def test_set_up_puts_the_arrivals_on_the_turn_track_numbered_after_the_set_up():
    game = Game.new(SCENARIO, 1)
    setup = [e for e in game.log if e.get("kind") == "setup"]
    assert [e["text"] for e in setup][4:] == ["R3 Rifles arrives on turn 2", "R4 Rifles arrives on turn 2",
                                            "B3 Infantry arrives on turn 2", "B4 Infantry arrives on turn 3"]
    assert [game.state.unit(i).location for i in ("R3", "R4", "B3", "B4")] == [
        "turn_track:2", "turn_track:2", "turn_track:2", "turn_track:3"]


# --- arrivals -----------------------------------------------------------------------------------------


def test_arrivals_wait_for_their_turn(scenario):
    ctx = make(scenario, R3, R4, turn=1)
    assert run(ctx, "arrivals") == [] and where(ctx, "R3", "R4") == ["turn_track:2", "turn_track:2"]


def test_the_owner_chooses_among_the_free_entry_cells(scenario):
    ctx = make(scenario, R3, R4)
    first, second = run(ctx, "arrivals", ["arrive R3 0503", "arrive R4 0503"])
    assert (first.side, first.kind, options(first)) == ("red", "arrive", ["arrive R3 0501", "arrive R3 0503"])
    assert options(second) == ["arrive R4 0501", "arrive R4 0503"]  # 0503 holds one: room for a second
    assert where(ctx, "R3", "R4") == ["0503", "0503"]
    assert "R3 Rifles arrives at 0503 (scenario arrival)" in texts(ctx)


def test_an_arrival_with_every_entry_cell_blocked_is_delayed_to_the_next_turn(scenario):
    # Blue holds 0501 and 0503: both rifles wait.  On turn 3 0503 is free again: both enter there
    # (the only free cell, no choice), late.
    blockers = [Unit("B1", "infantry", "blue", "0501"), Unit("B2", "infantry", "blue", "0503")]
    ctx = make(scenario, R3, R4, *blockers)
    assert run(ctx, "arrivals") == []
    assert where(ctx, "R3", "R4") == ["turn_track:2", "turn_track:2"]
    assert "R3 Rifles is delayed: no entry cell is free (0501, 0503)" in texts(ctx)
    ctx.update_unit(Unit("B2", "infantry", "blue", "0402"))
    ctx.state = replace(ctx.state, turn=3)
    assert run(ctx, "arrivals") == []
    assert where(ctx, "R3", "R4") == ["0503", "0503"]
    assert "R4 Rifles arrives at 0503 (scenario arrival, due on turn 2)" in texts(ctx)


def test_an_overstacked_entry_cell_blocks_as_an_enemy_one_does(scenario):
    # 0501 holds two rifles (the limit), 0503 a Blue infantry: R3 and R4 are delayed.
    stack = [Unit("R1", "rifles", "red", "0501"), Unit("R2", "rifles", "red", "0501"),
             Unit("B1", "infantry", "blue", "0503")]
    ctx = make(scenario, R3, R4, *stack)
    assert run(ctx, "arrivals") == [] and where(ctx, "R3", "R4") == ["turn_track:2", "turn_track:2"]


def test_an_edge_arrival_may_enter_any_cell_of_the_edge(scenario):
    ctx = make(scenario, B3, Unit("R1", "rifles", "red", "0102"), acting="blue")
    (decision,) = run(ctx, "arrivals", ["arrive B3 0103"])
    assert options(decision) == ["arrive B3 0101", "arrive B3 0103"]  # 0102 holds a rifles
    assert where(ctx, "B3") == ["0103"]


def test_a_counter_available_from_a_turn_goes_to_its_box(scenario):
    ctx = make(scenario, B4, turn=3, acting="blue")
    assert run(ctx, "arrivals") == [] and where(ctx, "B4") == ["pool"]
    assert "B4 Infantry is available in the pool (scenario arrival)" in texts(ctx)


def test_a_mutual_phase_brings_in_every_sides_arrivals(scenario):
    ctx = make(scenario, R3, B3, acting=None)
    decisions = run(ctx, "arrivals", ["arrive B3 0101", "arrive R3 0501"])
    assert [d.side for d in decisions] == ["blue", "red"]  # player order


# --- withdrawals --------------------------------------------------------------------------------------


def test_the_owner_chooses_the_counter_withdrawn(scenario):
    rifles = [Unit("R1", "rifles", "red", "0501"), Unit("R2", "rifles", "red", "0402")]
    ctx = make(scenario, *rifles, turn=4)
    (decision,) = run(ctx, "withdrawals", ["withdraw R2"])
    assert (decision.kind, options(decision)) == ("withdraw", ["withdraw R1", "withdraw R2"])
    assert where(ctx, "R1", "R2") == ["0501", OFFMAP]
    assert ctx.state.resource("blue", "vp") == 0
    assert "R2 Rifles is withdrawn from 0402 (scenario withdrawal)" in texts(ctx)


def test_withdrawals_happen_on_their_turn_only(scenario):
    ctx = make(scenario, Unit("R1", "rifles", "red", "0501"), turn=3)
    assert run(ctx, "withdrawals") == [] and where(ctx, "R1") == ["0501"]


def test_a_side_that_cannot_withdraw_pays_the_penalty(scenario):
    ctx = make(scenario, Unit("B1", "infantry", "blue", "0101"), R3, turn=4)  # R3 is not on the map
    assert run(ctx, "withdrawals") == []
    assert ctx.state.resource("blue", "vp") == Fraction(2)
    assert "Red cannot withdraw 1 rifles (scenario withdrawal)" in texts(ctx)


# --- scenario diagnostics -----------------------------------------------------------------------------


def _scenario(tmp_path, entries: str, rules_text: str | None = None) -> Path:
    shutil.copy(HERE / "map.toml", tmp_path / "map.toml")
    (tmp_path / "turns.rules").write_text(rules_text or (HERE / "turns.rules").read_text(encoding="utf-8"),
                                          encoding="utf-8")
    head = (HERE / "turns.toml").read_text(encoding="utf-8").split("[[arrival]]")[0]
    path = tmp_path / "s.toml"
    path.write_text(head + entries, encoding="utf-8")
    return path


def _problems(path) -> list[tuple[str, int, str]]:
    with pytest.raises(RulesError) as info:
        load_scenario(path)
    return [(d.code, d.span.line, d.message) for d in info.value.diagnostics]


def test_an_arrival_must_say_where_it_arrives(tmp_path):
    path = _scenario(tmp_path, '[[arrival]]\nside = "red"\nunit = "rifles"\nturn = 2\n\n'
                     '[[arrival]]\nside = "red"\nunit = "rifles"\nturn = 3\nbox = "pool"\nedge = "east"\n')
    assert [(c, m) for c, _, m in _problems(path)] == [
        ("E711", "an arrival gives none of at, edge and box"),
        ("E711", "an arrival gives edge and box of at, edge and box")]


def test_an_arrival_on_cells_its_type_may_not_stand_in_is_refused(tmp_path):
    rules = (HERE / "turns.rules").read_text(encoding="utf-8").replace(
        "    cost 2\n    cost no entry when weather is snow", "    cost no entry")
    path = _scenario(tmp_path, '[[arrival]]\nside = "red"\nunit = "rifles"\nturn = 2\nat = ["0301", "0303"]\n',
                     rules)
    (problem,) = _problems(path)
    assert problem[0] == "E711" and problem[2].startswith("'rifles' may stand in none of its entry cells (0301, 0303)")


def test_a_schedule_after_the_last_turn_or_twice_on_one_turn_is_refused(tmp_path):
    entry = '[[arrival]]\nside = "red"\nunit = "rifles"\nturn = {turn}\nat = ["0501"]\n\n'
    path = _scenario(tmp_path, entry.format(turn=5) + entry.format(turn=2) + entry.format(turn=2)
                     + '[[withdrawal]]\nside = "red"\nunit = "rifles"\nturn = 9\n')
    first = path.read_text(encoding="utf-8").split("\n").index("[[arrival]]") + 1  # each entry is 6 lines
    assert _problems(path) == [
        ("E712", first, "arrival on turn 5, after the game's last turn (4)"),
        ("E711", first + 12, "a second arrival of red's 'rifles' on turn 2"),
        ("E712", first + 18, "withdrawal on turn 9, after the game's last turn (4)")]


def test_a_schedule_the_rulebook_never_carries_out_is_refused(tmp_path):
    rules = (HERE / "turns.rules").read_text(encoding="utf-8").replace("        do arrivals\n", "")
    path = _scenario(tmp_path, '[[arrival]]\nside = "red"\nunit = "rifles"\nturn = 2\nat = ["0501"]\n', rules)
    assert [(c, m) for c, _, m in _problems(path)] == [
        ("E713", "the scenario schedules arrivals of red, but no phase of the rulebook does arrivals for red")]


def test_a_schedule_for_a_side_no_phase_runs_it_for_is_refused(tmp_path):
    rules = (HERE / "turns.rules").read_text(encoding="utf-8").replace(
        "        for each side\n        do arrivals", "        side first\n        do arrivals")
    path = _scenario(tmp_path, '[[arrival]]\nside = "red"\nunit = "rifles"\nturn = 2\nat = ["0501"]\n\n'
                     '[[arrival]]\nside = "blue"\nunit = "infantry"\nturn = 2\nat = ["0101"]\n', rules)
    assert [(c, m) for c, _, m in _problems(path)] == [  # blue plays first: only its arrivals are carried out
        ("E713", "the scenario schedules arrivals of red, but no phase of the rulebook does arrivals for red")]


# --- whole games ----------------------------------------------------------------------------------------


def test_random_games_bring_in_and_withdraw_as_scheduled():
    for seed in range(4):
        game = played(SCENARIO, seed)
        assert game.is_over()
        kinds = [e.get("kind") for e in game.log]
        assert "arrival" in kinds and "withdrawal" in kinds
        assert game.state.unit("B4").location == "pool"  # a box never blocks
        for uid in ("R3", "R4", "B3"):  # on the map (or gone since), else delayed to the end, and said so
            if game.state.unit(uid).location == "turn_track:2":
                assert any(e.get("delayed") and e.get("unit") == uid for e in game.log)
