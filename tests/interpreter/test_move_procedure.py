"""The ``move`` procedure: order, decisions, transport, booby traps and WATCH fire.

Driven by hand on small maps with the shipped rulebook (rulebooks/several_klicks.rules);
expected values are worked out from the seed text, whose headings are cited.
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest
from attrs import evolve

from driving import do_call

from warbook.dsl import load_rulebook
from warbook.interpreter import movement as mv
from warbook.interpreter import zones
from warbook.interpreter.actions import Action
from warbook.interpreter.board import board_from_text
from warbook.interpreter.context import Context
from warbook.interpreter.procedures.move import move
from warbook.interpreter.rules import ELIMINATED
from warbook.interpreter.state import GameState, Unit

ROOT = Path(__file__).resolve().parents[2]
KLICKS = ROOT / "rulebooks" / "several_klicks.rules"
LEGEND = {".": "clear", "=": "road", "j": "jungle", "r": "river"}


@pytest.fixture(scope="module")
def klicks():
    return load_rulebook(KLICKS)


def make_ctx(rulebook, rows: list[str], units: list[Unit]) -> Context:
    used = {c for row in rows for c in row}
    text = "\n".join(["[map]", 'grid = "hex"', f"width = {len(rows[0])}", f"height = {len(rows)}",
                      "rows = [" + ", ".join(f'"{r}"' for r in rows) + "]", "[map.legend]",
                      *[f'"{c}" = "{t}"' for c, t in LEGEND.items() if c in used]]) + "\n"
    board = board_from_text(text, "test-map.toml")
    ctx = Context(SimpleNamespace(rulebook=rulebook, board=board, player_order=("allies", "vc_nva")), 0)
    ctx.state = GameState(units=tuple(sorted(units)))
    return ctx


def unit(uid: str, side: str, type_name: str, cell: str, **kw) -> Unit:
    return Unit(uid, type_name, side, cell, dummy=type_name == "dummy", **kw)


class Driver:
    """Runs ``do move`` and answers its decisions from a script; keeps every decision seen."""

    def __init__(self, ctx: Context, rulebook):
        self.ctx = ctx
        ctx.running = ["move_phase"]  # as the flow runs it: the phase's do line, inside its phase
        self.flow = move(ctx, do_call(ctx.rules, "move", step="move_phase"))
        self.decisions = []
        self.pending = next(self.flow, None)

    def answer(self, text: str):
        action = Action.parse(text)
        decision = self.pending
        assert decision is not None, f"no decision pending for {text!r}"
        assert action in decision.options, (text, decision.why_not(action) if decision.why_not else None,
                                            [str(o) for o in decision.options])
        self.decisions.append(decision)
        try:
            self.pending = self.flow.send(action)
        except StopIteration:
            self.pending = None
        return self.pending

    def run(self, respond) -> list:
        """Answer every decision with ``respond(decision) -> text`` until the phase ends."""
        while self.pending is not None:
            self.answer(respond(self.pending))
        return self.decisions


def first_arg(decision) -> str:
    return decision.options[0].args[0]


def stay_all(decision) -> str:
    who = first_arg(decision)
    return f"stay {who}" if decision.kind == "move" else f"hold {who}"


# --- order ----------------------------------------------------------------------------------------


def test_units_move_by_motivation_ascending_then_player_order_then_id(klicks):
    # MOVEMENT "Units with a motivation of 1 move first. Once all units with a motivation of 1 have
    # moved then units with a motivation of 2 move etc."  UNITS: ARVN 1, VC (Local) 1, US Infantry 2,
    # VC (Mainforce) 2, NVA 3; the Huey prints no motivation (last); Artillery Move 0 never moves;
    # WATCH MODE "Troops in watch mode may not move".
    ctx = make_ctx(klicks, ["......"] * 3, [
        unit("A1", "allies", "arvn", "0101"), unit("A2", "allies", "us_infantry", "0102"),
        unit("A3", "allies", "huey", "0103"), unit("A4", "allies", "artillery", "0201"),
        unit("A5", "allies", "us_marines", "0202", mode="watch"),
        unit("V1", "vc_nva", "vc_local", "0601"), unit("V2", "vc_nva", "nva", "0602"),
        unit("V3", "vc_nva", "vc_mainforce", "0603")])
    asked = [first_arg(d) for d in Driver(ctx, klicks).run(stay_all)]
    assert asked == ["A1", "V1", "A2", "V3", "V2", "A3"]
    assert all("moved" in ctx.state.unit(u).spent for u in asked)


def test_dummy_may_wait_for_a_later_batch(klicks):
    # UNITS: dummies print no motivation; reading: offered with the first movers, they may wait.
    ctx = make_ctx(klicks, ["......"] * 2, [
        unit("D1", "vc_nva", "dummy", "0601", hidden=True), unit("V1", "vc_nva", "vc_local", "0602", hidden=True),
        unit("V2", "vc_nva", "vc_mainforce", "0502", hidden=True)])
    driver = Driver(ctx, klicks)
    assert driver.pending.options[0].args[0] == "D1" and Action("wait", ("D1",)) in driver.pending.options
    driver.answer("wait D1")
    assert first_arg(driver.pending) == "V1"
    driver.answer("stay V1")
    # Batch of motivation 2: D1 (waiting) then V2; the last batch offers no wait.
    assert first_arg(driver.pending) == "D1" and Action("wait", ("D1",)) not in driver.pending.options
    driver.answer("move D1 0101")
    driver.answer("stay V2")
    assert driver.pending is None and ctx.state.unit("D1").location == "0101"


# --- moving ------------------------------------------------------------------------------------------


def test_move_decision_and_why_not(klicks):
    # TERRAIN TABLE "River | No entry"; US Infantry Move 6.
    ctx = make_ctx(klicks, ["..r...", "......"], [unit("A1", "allies", "us_infantry", "0101"),
                                                   unit("A2", "allies", "us_infantry", "0102")])
    driver = Driver(ctx, klicks)
    decision = driver.pending
    assert decision.side == "allies" and decision.kind == "move"
    assert Action("move", ("A1", "0301")) not in decision.options
    assert decision.why_not(Action("move", ("A1", "0301"))) == \
        "0301 is river: no entry (terrain 'river', §TERRAIN TABLE)"
    assert decision.why_not(Action("move", ("A2", "0202"))).startswith("A1 moves now")
    driver.answer("move A1 0401")
    a1 = ctx.state.unit("A1")
    assert a1.location == "0401" and "moved" in a1.spent
    event = next(e for e in ctx.events if e.get("kind") == "move")
    # 0101 → 0401 round the river at 0301: 0201, 0302, 0401, three clear hexes.
    assert event["start"] == "0101" and event["cell"] == "0401" and "(3 movement points)" in event["text"]


def test_hidden_booby_trap_holds_its_hex_like_any_face_down_counter(klicks):
    # UNITS "The VC and NVA counters are placed face down, so the allied player does not know which
    # unit is which"; MOVEMENT "No unit my enter an enemy occupied hex": a face-down trap is, to the
    # allies, a face-down counter like a dummy or a unit (issue 17 item 2): its hex is barred and its
    # zone (into the clear 0201) stops A1, whatever it really is.
    for kind in ("booby_trap", "dummy", "vc_local"):
        ctx = make_ctx(klicks, ["....."], [unit("A1", "allies", "us_infantry", "0101"),
                                           unit("T1", "vc_nva", kind, "0301", hidden=True)])
        driver = Driver(ctx, klicks)
        if first_arg(driver.pending) == "T1":  # a unit or a dummy (motivation 1, or none) moves first
            driver.answer("stay T1")
        assert [str(o) for o in driver.pending.options] == ["move A1 0201", "stay A1"], kind


def test_a_booby_trap_the_allies_see_stops_the_move_and_marks_the_unit(klicks):
    # BOOBY TRAPS "As soon as unit enters a trap hex it MUST stop": a trap turned face up (spotted or
    # attacked) is no counter holding its hex; A1 may enter it, and stops there with "trap" for the
    # trigger procedure.
    ctx = make_ctx(klicks, ["....."], [unit("A1", "allies", "us_infantry", "0101"),
                                       unit("T1", "vc_nva", "booby_trap", "0301")])
    driver = Driver(ctx, klicks)
    assert {str(o) for o in driver.pending.options} == {"move A1 0201", "move A1 0301", "stay A1"}
    driver.answer("move A1 0301")
    a1 = ctx.state.unit("A1")
    assert a1.location == "0301" and {"moved", "trap"} <= a1.spent
    assert any(e.get("kind") == "trap" and e["cell"] == "0301" for e in ctx.events)


# --- WATCH --------------------------------------------------------------------------------------------

# A jungle row beside a watching unit: jungle is not in a zone of control ("adjacent clear or road
# hexes"), so the VC may walk past.  VC (Local) Move 9: 0201, 0301, 0401 cost 3 each; each of them
# touches 0302.
WATCH_MAP = [".jjj.", "jjjjj"]


def watch_ctx(klicks, *extra: Unit) -> Context:
    return make_ctx(klicks, WATCH_MAP, [unit("V1", "vc_nva", "vc_local", "0101", hidden=True),
                                        unit("A1", "allies", "us_infantry", "0302", mode="watch"), *extra])


class StubCombat:
    """A stand-in for ``interpreter.results.resolve``: records each call; removes the defenders if ``hits``."""

    def __init__(self):
        self.calls: list[dict] = []
        self.hits = True

    def resolve(self, ctx, combat_name, attackers, defenders, *, reason, attacker_side, roll_modifier=0, **kw):
        self.calls.append({"combat": combat_name, "attackers": [u.id for u in attackers],
                           "defenders": [(u.id, u.location) for u in defenders], "roll_modifier": roll_modifier,
                           "attacker_side": attacker_side})
        if self.hits:
            for d in defenders:
                ctx.update_unit(evolve(ctx.state.unit(d.id), location=ELIMINATED))
        return None
        yield  # a generator, like the real one


@pytest.fixture
def stub_combat(monkeypatch):
    from warbook.interpreter import results

    stub = StubCombat()
    monkeypatch.setattr(results, "resolve", stub.resolve)
    return stub


def test_watch_fire_is_offered_at_each_adjacent_hex_of_the_path(klicks, stub_combat):
    # WATCH MODE "may fire at any point in the opponents movement phase. They get –1 to the dice roll."
    ctx = watch_ctx(klicks)
    driver = Driver(ctx, klicks)
    assert first_arg(driver.pending) == "V1"  # A1 on WATCH never moves
    driver.answer("move V1 0401")
    watch = driver.pending
    assert watch.side == "allies" and watch.kind == "watch" and "entering 0201" in watch.prompt
    assert set(watch.options) == {Action("hold", ("A1",)), Action("watch-fire", ("A1", "V1"))}
    driver.answer("hold A1")
    assert "entering 0301" in driver.pending.prompt
    driver.answer("watch-fire A1 V1")
    assert driver.pending is None
    assert stub_combat.calls == [{"combat": "assault", "attackers": ["A1"], "defenders": [("V1", "0301")],
                            "roll_modifier": -1, "attacker_side": "allies"}]
    # Eliminated by the fire, V1 stops: it never reaches 0401.
    assert ctx.state.unit("V1").location == ELIMINATED
    assert "watch_fired" in ctx.state.unit("A1").spent


def test_watch_fires_once_per_phase(klicks, stub_combat):
    stub_combat.hits = False
    ctx = watch_ctx(klicks, unit("V2", "vc_nva", "vc_local", "0102", hidden=True))
    driver = Driver(ctx, klicks)
    driver.answer("move V1 0401")
    driver.answer("watch-fire A1 V1")
    assert ctx.state.unit("V1").location == "0401"  # not hit: it goes on to its destination
    # V2 enters 0201, beside A1 too, but A1 has fired.
    assert first_arg(driver.pending) == "V2"
    driver.answer("move V2 0201")
    assert driver.pending is None and len(stub_combat.calls) == 1


def test_no_watch_fire_at_aircraft(klicks, stub_combat):
    # UNITS: air units print no Defend ("hit only by FIRE AGAINST AIRCRAFT"): WATCH has nothing to fire at.
    ctx = make_ctx(klicks, ["....."], [unit("H1", "allies", "huey", "0101"),
                                       unit("V1", "vc_nva", "nva", "0501", mode="watch")])
    driver = Driver(ctx, klicks)
    driver.answer("move H1 0401")  # 0401 is beside V1 (and in its zone: the Huey stops there)
    assert driver.pending is None and stub_combat.calls == []
    assert ctx.state.unit("H1").location == "0401"


def test_watch_fire_with_the_real_combat(klicks):
    combat = pytest.importorskip("warbook.interpreter.combat")
    if not hasattr(combat, "resolve"):
        pytest.skip("warbook.interpreter.combat has no resolve yet")
    # COMBAT PHASE by hand: US Infantry attack 2 against VC (Local) defend 1 in jungle x3 = 3, 2:3,
    # "round in the defenders favour" → 1:2; motivation 2 against 1 shifts one column for the attacker
    # (the rulebook's errata reading) → 1:1.  WATCH: roll -1; row 0 uses row 1 (gap "rolls outside use
    # nearest row").  The 1:1 column as printed, rows 1-6:
    column_1_1 = {1: "½D", 2: "½D½A", 3: "½D½A", 4: "½D½A", 5: "½D½A", 6: "½A"}
    for seed in range(6):
        ctx = watch_ctx(klicks)
        ctx.seed = seed
        driver = Driver(ctx, klicks)
        driver.answer("move V1 0401")
        driver.answer("watch-fire A1 V1")
        rolls = [e for e in ctx.events if e["type"] == "roll"]
        assert len(rolls) == 1 and "1:1" in rolls[0]["reason"]
        result = next(e for e in ctx.events if e.get("result"))
        assert result["modified"] == rolls[0]["value"] - 1
        assert result["result"] == column_1_1[max(1, rolls[0]["value"] - 1)]
        # Every result of that column with -1 removes half the defenders, rounded against them: V1 is lost
        # at 0201 and never reaches 0401.
        assert ctx.state.unit("V1").location == ELIMINATED
        assert driver.pending is None


# --- transport ----------------------------------------------------------------------------------------


def test_huey_carries_two_units(klicks):
    # UNITS: Huey "Carries 2"; MOVEMENT: the ground unit "moves to rendezvous with the chopper and
    # spends 1 movement point to board".
    ctx = make_ctx(klicks, ["......"], [unit("H1", "allies", "huey", "0101"), unit("A1", "allies", "us_infantry", "0101"),
                                        unit("A2", "allies", "us_infantry", "0201"),
                                        unit("A3", "allies", "us_infantry", "0101")])
    driver = Driver(ctx, klicks)
    for uid in ("A1", "A2", "A3"):
        assert first_arg(driver.pending) == uid
        driver.answer(f"stay {uid}")
    carries = {str(o) for o in driver.pending.options if o.kind == "carry"}
    assert carries == {"carry H1 A1", "carry H1 A2", "carry H1 A3"}
    driver.answer("carry H1 A1")
    driver.answer("carry H1 A2")  # A2 walks 0201 → 0101 (1) and boards (1)
    assert not [o for o in driver.pending.options if o.kind == "carry"]  # two aboard: no room
    assert "no room" in driver.pending.why_not(Action("carry", ("H1", "A3")))
    driver.answer("move H1 0601")
    for uid in ("A1", "A2"):
        assert ctx.state.unit(uid).location == "0601"
    assert ctx.state.unit("A3").location == "0101"
    assert ctx.state.unit("H1").turn_flags == {"boarded", "unboarded", "carried:A1", "carried:A2"}
    assert not [o for o in driver.pending.options if o.kind == "carry"]
    driver.answer("stay H1")
    assert driver.pending is None


def test_boarding_needs_a_movement_point(klicks):
    # MOVEMENT "spends 1 movement point to board": A2 walks 6 hexes (all of Move 6), A3 walks 5.
    ctx = make_ctx(klicks, ["......."], [unit("H1", "allies", "huey", "0101"), unit("A2", "allies", "us_infantry", "0701"),
                                         unit("A3", "allies", "us_infantry", "0601")])
    driver = Driver(ctx, klicks)
    driver.answer("move A2 0101")
    driver.answer("move A3 0101")
    carries = [str(o) for o in driver.pending.options if o.kind == "carry"]
    assert carries == ["carry H1 A3"]
    assert "boarding costs 1 movement point and A2 has 0 movement points left" in \
        driver.pending.why_not(Action("carry", ("H1", "A2")))


def test_set_down_respects_stacking_and_enemy_hexes(klicks):
    # MOVEMENT: "Units may move in a stack of up to 4 units"; "Choppers cannot land troops on a hex that
    # is occupied by enemy troops".
    ground = [unit(f"A{i}", "allies", "us_infantry", "0401") for i in range(2, 6)]
    ctx = make_ctx(klicks, ["....", "jjjj"], [unit("H1", "allies", "huey", "0101"),
                                              unit("A1", "allies", "us_infantry", "0101"), *ground])
    driver = Driver(ctx, klicks)
    for uid in ("A1", "A2", "A3", "A4", "A5"):
        driver.answer(f"stay {uid}")
    assert Action("move", ("H1", "0401")) in driver.pending.options  # empty, the Huey may join 4 ground units
    driver.answer("carry H1 A1")
    assert Action("move", ("H1", "0401")) not in driver.pending.options
    assert "stacking limit 4" in driver.pending.why_not(Action("move", ("H1", "0401")))
    enemy = make_ctx(klicks, ["jjjj"], [unit("H1", "allies", "huey", "0101"), unit("A1", "allies", "us_infantry", "0101"),
                                        unit("V1", "vc_nva", "vc_local", "0301")])
    text = mv.explain(enemy, enemy.state.unit("H1"), "0301", cargo=[enemy.state.unit("A1")])
    assert text == "0301 holds enemy counters: carried units may not be set down there"


def test_empty_leg_must_be_followed_by_a_pickup(klicks):
    # MOVEMENT: "make two runs carrying two separate units from one location to another" — the chopper
    # flies to the pick-up hex, the ground unit comes to it, then they fly on.
    ctx = make_ctx(klicks, ["......"], [unit("H1", "allies", "huey", "0101"), unit("A1", "allies", "us_infantry", "0401")])
    driver = Driver(ctx, klicks)
    driver.answer("stay A1")
    driver.answer("move H1 0301")
    options = {str(o) for o in driver.pending.options}
    assert options == {"carry H1 A1", "stay H1"}
    assert "flown a leg empty" in driver.pending.why_not(Action("move", ("H1", "0501")))
    driver.answer("carry H1 A1")  # A1 walks 0401 → 0301
    driver.answer("move H1 0601")
    assert ctx.state.unit("A1").location == "0601" and ctx.state.unit("H1").location == "0601"


def test_patrolling_units_are_not_transported(klicks):
    # PATROL MODE "They cannot move, attack or be transported".
    ctx = make_ctx(klicks, ["...."], [unit("H1", "allies", "huey", "0101"),
                                      unit("A1", "allies", "us_infantry", "0101", mode="patrol")])
    driver = Driver(ctx, klicks)
    assert first_arg(driver.pending) == "H1"
    assert not [o for o in driver.pending.options if o.kind == "carry"]
    assert "PATROL orders, which forbid move" in driver.pending.why_not(Action("carry", ("H1", "A1")))


# --- whole games ----------------------------------------------------------------------------------------

SCENARIOS = sorted((ROOT / "scenarios").glob("klicks_*.toml"))


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_random_games_never_share_a_hex_between_sides(scenario):
    # MOVEMENT "No unit my enter an enemy occupied hex": after every choice, no hex holds counters of
    # both sides (markers such as booby traps are not counters).
    from warbook.interpreter.game import Game

    for seed in (1, 2):
        game = Game.new(scenario, seed=seed)
        rules = game.ctx.rules
        pick = random.Random(seed)
        while not game.is_over():
            game.apply(pick.choice(game.legal_actions()))
            sides: dict[str, set[str]] = {}
            for u in game.state.units:
                if u.on_map and zones.is_counter(rules.unit_type(u.type)):
                    sides.setdefault(u.location, set()).add(u.side)
            assert all(len(s) == 1 for s in sides.values()), game.state.phase
        assert any(e.get("kind") == "move" for e in game.log)


def test_points_left_after_a_move(klicks):
    # Road ½ for vehicles (TERRAIN TABLE "½ (1 infantry)"): three road hexes cost 1½, leaving 6½
    # of US Mech's Move 8; a mortar team on foot pays 1 a hex, so two leave none of its Move 2.
    ctx = make_ctx(klicks, ["====="], [unit("M1", "allies", "us_mech", "0101"), unit("M2", "allies", "mortars", "0101")])
    assert mv.reach(ctx, ctx.state.unit("M1")).points_left("0401") == Fraction(13, 2)
    assert mv.reach(ctx, ctx.state.unit("M2")).points_left("0301") == Fraction(0)


# --- Booby traps and the stacking limit (issue 17 item 5a) ---------------------------------------------

def full_stack(side: str, type_name: str, cell: str, prefix: str) -> list[Unit]:
    return [unit(f"{prefix}{n}", side, type_name, cell) for n in range(1, 5)]


def assert_halted_short(ctx, rulebook, mover: str, side: str, target: str) -> None:
    """``mover`` is moved to ``target`` (every other unit stays): it halts at 0201, before the full
    stack and the trap at 0301, which is turned face up, and the stack stays at four."""
    Driver(ctx, rulebook).run(lambda d: f"move {mover} {target}" if f"move {mover} {target}" in {str(o) for o in d.options}
                              else next(str(o) for o in d.options if o.kind == "stay"))
    moved = ctx.state.unit(mover)
    assert moved.location == "0201" and "trap" not in moved.spent
    assert sum(u.location == "0301" and u.side == side for u in ctx.state.units) == 4
    assert not ctx.state.unit("T1").hidden
    assert any(e.get("kind") == "trap" and e.get("found") == "0301" and e["cell"] == "0201" for e in ctx.events)


STEP_THROUGH = """extends "several_klicks"

# The printed stacking without "enemy cells forbidden": a move may pass through enemy-held hexes.
remove stacking stacks
stacking stacks "Stacking" {
    limit 4
    limit 4 for helicopter
    exempt aircraft
    checked always
}
"""


def test_a_trap_met_under_a_full_stack_halts_the_move_short_through_enemy_hexes(tmp_path):
    # Where a move may pass through enemy-held hexes, a VC (Local) (Move 9, jungle 3 a hex) walking
    # 0101 → 0401 meets a face-down trap at 0301, where four VC units already stand: stopping there
    # would make five, over the limit ``checked always``, so it halts at 0201, the last hex of its
    # path where it may stand, and the trap, found, is turned face up.
    path = tmp_path / "step_through.rules"
    path.write_text(STEP_THROUGH)
    rulebook = load_rulebook(path)
    ctx = make_ctx(rulebook, ["jjjjj"], [unit("V9", "vc_nva", "vc_local", "0101", hidden=True),
                                         *(evolve(u, hidden=True) for u in full_stack("vc_nva", "vc_local", "0301", "V")),
                                         unit("T1", "allies", "booby_trap", "0301", hidden=True)])
    assert_halted_short(ctx, rulebook, "V9", "vc_nva", "0401")


def test_a_booby_trap_stops_ground_units_only(klicks):
    # MOVEMENT "Helicopters and aircraft ... may only be attacked by ground troops on their
    # bombardment hex or when boarding/unboarding": a Huey flies over a trap to 0501 (the
    # rulebook's gap: traps stop and attack ground units only), where infantry would stop at 0301.
    ctx = make_ctx(klicks, ["....."], [unit("H1", "allies", "huey", "0101"),
                                       unit("T1", "vc_nva", "booby_trap", "0301")])
    driver = Driver(ctx, klicks)
    driver.answer("move H1 0501")
    h1 = ctx.state.unit("H1")
    assert h1.location == "0501" and "trap" not in h1.spent
    assert not any(e.get("kind") == "trap" for e in ctx.events)


def test_a_hidden_trap_met_on_the_way_springs_where_enemy_hexes_may_be_passed(tmp_path):
    # Where a move may pass through enemy-held hexes (STEP_THROUGH), the face-down trap's hex is
    # offered like any face-down counter's, and the move is resolved against what is really there:
    # CIDG (Move 9, jungle 3 a hex) walking 0101 → 0401 finds the trap at 0301 and must stop there
    # (BOOBY TRAPS "As soon as unit enters a trap hex it MUST stop").
    path = tmp_path / "step_through.rules"
    path.write_text(STEP_THROUGH)
    rulebook = load_rulebook(path)
    ctx = make_ctx(rulebook, ["jjjjj"], [unit("A1", "allies", "cidg", "0101"),
                                         unit("T1", "vc_nva", "booby_trap", "0301", hidden=True)])
    driver = Driver(ctx, rulebook)
    assert "move A1 0401" in {str(o) for o in driver.pending.options}
    driver.answer("move A1 0401")
    a1 = ctx.state.unit("A1")
    assert a1.location == "0301" and {"moved", "trap"} <= a1.spent
    assert any(e.get("kind") == "trap" and e["cell"] == "0301" for e in ctx.events)


def test_a_unit_a_trap_stopped_is_not_flown_out_in_the_same_phase(klicks):
    # BOOBY TRAPS "As soon as unit enters a trap hex it MUST stop. ... surviving units move off next
    # turn": A1 (motivation 2) walks into the trap (face up) at 0301 as its destination; the Huey (which moves
    # later) may not pick it up there, so the trap's attack at the end of the phase finds it.
    ctx = make_ctx(klicks, ["....."], [unit("A1", "allies", "us_infantry", "0101"),
                                       unit("H1", "allies", "huey", "0501"),
                                       unit("T1", "vc_nva", "booby_trap", "0301")])
    driver = Driver(ctx, klicks)
    assert first_arg(driver.pending) == "A1"
    driver.answer("move A1 0301")
    assert {"trap", "moved"} <= ctx.state.unit("A1").spent
    assert first_arg(driver.pending) == "H1"
    carry = Action("carry", ("H1", "A1"))
    assert carry not in driver.pending.options
    assert "moves off next turn" in driver.pending.why_not(carry)
