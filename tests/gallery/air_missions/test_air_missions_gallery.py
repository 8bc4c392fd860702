"""Mechanics gallery: air missions turned back, and face-down counters told apart by nothing, played
in a neutral game (air_missions.rules).

Every expected value is worked out by hand from air_missions.rules and map.toml.  Troops attack 2,
defence 2; the lifter (attack 1) carries one unit; the striker (attack 4) bombards any hex, held
for the fire against aircraft; gunners (red) attack 3, defence 2.  Red's counters are face down.
The flak fires when the ground troops' attack exceeds the air units'; a 1 turns them back
(``abandon mission``), 2-6 miss.  The CRT: 1:1 and 2:1 columns, a 1 at 2:1 eliminates the
defender.  Even columns sit half a hex lower: 0402 and 0403 touch, as do 0302 and 0402.
"""

from pathlib import Path

import pytest

from driving import do_call
from gallery import at_position, greedy_game, random_games_replay_alike, scenario_fixture
from warbook.interpreter import movement as mv
from warbook.interpreter.actions import Action
from warbook.interpreter.procedures import PROCEDURES
from warbook.interpreter.rules import ELIMINATED
from warbook.interpreter.state import Unit

HERE = Path(__file__).parent
SCENARIO = HERE / "air_missions.toml"
scenario = scenario_fixture(SCENARIO)


def red(uid: str, kind: str, cell: str) -> Unit:
    return Unit(uid, kind, "red", cell, hidden=True, dummy=kind == "decoy")


def run(ctx, procedure: str, phase: str, choose=None) -> list:
    """Run the sequence's ``do PROCEDURE`` in ``phase``; ``choose`` answers each decision (an option's
    text), else the first option.  Returns the decisions asked."""
    flow = PROCEDURES[procedure](ctx, do_call(ctx.rules, procedure, step=phase))
    asked = []
    try:
        decision = next(flow)
        while True:
            asked.append(decision)
            texts = [str(o) for o in decision.options]
            pick = choose(texts) if choose else texts[0]
            decision = flow.send(Action.parse(pick))
    except StopIteration:
        pass
    return asked


@pytest.fixture
def dice(monkeypatch):
    """Scripted dice: append values; every one must be used."""
    from warbook.interpreter import rng

    script: list[int] = []
    monkeypatch.setattr(rng, "roll", lambda seed, n, faces, count=1: script.pop(0))
    yield script
    assert script == []


def texts(ctx) -> list[str]:
    return [e["text"] for e in ctx.events if e["type"] == "event"]


# --- face-down counters: a minefield, a decoy and a unit look alike ------------------------------


def test_a_face_down_counter_offers_the_same_moves_and_attacks_whatever_it_is(scenario):
    # Troops at 0202 next to a face-down red counter at 0302: its hex is barred ("enemy cells
    # forbidden"), its zone stops them in the hexes next to it (0201, 0202's neighbours in it are
    # not passed through), and they may attack it; the same for a minefield, a decoy or gunners.
    seen = {}
    for kind in ("mines", "decoy", "gunners"):
        ctx = at_position(scenario, "movement", Unit("B1", "troops", "blue", "0202"), red("R1", kind, "0302"))
        reach = mv.reachable(ctx, ctx.state.unit("B1"), "full")
        ctx = at_position(scenario, "combat", Unit("B1", "troops", "blue", "0202"), red("R1", kind, "0302"))
        first = next(PROCEDURES["fight"](ctx, do_call(ctx.rules, "fight", step="combat")))
        seen[kind] = (reach, [str(o) for o in first.options])
    reach, attacks = seen["gunners"]
    assert seen["mines"] == seen["decoy"] == seen["gunners"]
    assert "0302" not in reach and "0402" not in reach and reach["0201"] == 1
    assert set(attacks) == {"attack 0302 with B1", "pass B1", "done"}


@pytest.mark.parametrize("kind", ["mines", "decoy", "gunners"])
def test_an_attack_on_a_face_down_counter_finds_what_it_is(scenario, kind, dice):
    # A minefield found stays, face up, and nothing is rolled; a decoy is removed, nothing rolled;
    # gunners are fought: 2 against 2, 1:1, and a 4 is AE.
    ctx = at_position(scenario, "combat", Unit("B1", "troops", "blue", "0202"), red("R1", kind, "0302"))
    if kind == "gunners":
        dice.append(4)
    run(ctx, "fight", "combat")
    r1 = ctx.state.unit("R1")
    assert not r1.hidden
    if kind == "mines":
        assert r1.location == "0302" and ctx.state.rolls == 0
        assert "attack on 0302: R1 Minefield is no unit to fight; nothing is rolled" in texts(ctx)
    elif kind == "decoy":
        assert r1.location == ELIMINATED and ctx.state.rolls == 0
    else:
        assert ctx.state.rolls == 1 and ctx.state.unit("B1").location == ELIMINATED


def test_a_minefield_found_is_a_minefield_seen(scenario):
    # Face up, the minefield holds no hex and exerts no zone: the troops may walk in, and stop there.
    ctx = at_position(scenario, "movement", Unit("B1", "troops", "blue", "0202"),
                      Unit("R1", "mines", "red", "0302"))
    found = mv.reach(ctx, ctx.state.unit("B1"))
    assert found.ends["0302"] == 1 and "0302" in found.stops
    assert all("0302" not in found.path(cell)[:-1] for cell in found.ends)  # never passed through


# --- abandon mission -------------------------------------------------------------------------------


@pytest.mark.parametrize("flak, back", [(1, True), (2, False)])
def test_troops_set_down_by_a_lifter_turned_back_are_carried_back(scenario, dice, flak, back):
    # The lifter picks the troops up at 0101 and sets them down at 0302, next to the gunners at 0402
    # (3 exceeds the lifter's 1): a 1 turns it back, and the troops go back to 0101 with it.
    ctx = at_position(scenario, "movement", Unit("B1", "troops", "blue", "0101"),
                      Unit("B2", "lifter", "blue", "0101"), red("R1", "gunners", "0402"))

    def choose(options: list[str]) -> str:
        for wanted in ("carry B2 B1", "move B2 0302"):
            if wanted in options:
                return wanted
        return next(o for o in options if o.startswith("stay"))

    run(ctx, "move", "movement", choose)
    assert ctx.state.unit("B1").location == ctx.state.unit("B2").location == "0302"
    dice.append(flak)
    run(ctx, "fire at aircraft", "air_defence")
    where = "0101" if back else "0302"
    assert ctx.state.unit("B1").location == ctx.state.unit("B2").location == where
    assert ("B1 Troops is carried back to 0101" in texts(ctx)) == back


@pytest.mark.parametrize("flak, made", [(1, False), (3, True)])
def test_a_held_bombardment_is_made_after_the_fire_unless_turned_back(scenario, dice, flak, made):
    # The striker (4) bombards 0402; gunners there and at 0403 (3 + 3 = 6) fire first.  Turned back,
    # it bombards nothing; missed, it bombards: 4 against 2, 2:1, and a 1 eliminates the gunners.
    ctx = at_position(scenario, "bombardment", Unit("B3", "striker", "blue", "0103"),
                      red("R1", "gunners", "0402"), red("R2", "gunners", "0403"))
    run(ctx, "bombard", "bombardment", lambda options: "bombard 0402 with B3")
    assert ctx.state.rolls == 0 and ctx.state.unit("R1").location == "0402"
    dice.append(flak)
    if made:
        dice.append(1)
    run(ctx, "fire at aircraft", "air_defence")
    assert (ctx.state.unit("R1").location == ELIMINATED) == made
    assert ("B3 Striker does not bombard 0402" in texts(ctx)) == (not made)


def test_random_games_replay_alike():
    random_games_replay_alike(SCENARIO)


def test_greedy_games_play_to_the_end():
    for seed in (1, 2):
        assert greedy_game(SCENARIO, seed).is_over()
