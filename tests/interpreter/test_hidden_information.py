"""Hidden information, as a property of random playouts: what a side observes of face-down enemy counters.

UNITS (Several Klicks): "The VC and NVA counters are placed face down, so the allied player does
not know which unit is which.  The VC/NVA player can have up to the same number of dummy
markers as actual units."  SPOTTING: "If the unit is spotted the counter is revealed".

The game is fixtures/spotting/hidden.toml: blue (face up) sets up in columns 1-3 and may patrol
(spot range 2, 3 for its ranger); red (face down) sets up guerrillas and lure dummies in columns
3-6; every turn ends with ``do spot with sight``.  At every step of every playout, for every
red counter:

- face down: blue sees that a counter is there (if it is on the map) and nothing else: no type,
  no dummy status; and no word of blue's observation names a red type no revealed red counter has;
- spotted: blue sees its type, and a spotted dummy is off the map;
- once spotted, a counter stays face up (this spotting has no ``hide again``).

The structural part of the check also runs on the shipped scenarios (``scenarios/*.toml``), for
every side viewing every other, over a few seeded random playouts.
"""

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warbook.dsl.diagnostics import RulesError
from warbook.interpreter.game import Game
from warbook.interpreter.rules import ELIMINATED

HIDDEN = Path(__file__).parent / "fixtures" / "spotting" / "hidden.toml"
SHIPPED = sorted((Path(__file__).parents[2] / "scenarios").glob("*.toml"))
RED_TYPES = ("guerrilla", "lure", "Guerrilla", "Lure")


def check_blue_view(game: Game) -> None:
    seen = game.observe("blue")
    shown = {u["id"]: u for u in seen["units"]}
    revealed_types = set()
    for unit in game.state.units:
        if unit.side != "red":
            continue
        entry = shown.get(unit.id)
        if unit.hidden:
            if unit.on_map:
                assert entry == {"id": unit.id, "side": "red", "type": None, "location": unit.location,
                                 "mode": None, "dummy": None}
            else:
                assert entry is None
        else:
            assert entry is not None and entry["type"] == unit.type
            revealed_types.add(unit.type)
            if unit.dummy:
                assert unit.location == ELIMINATED
    text = json.dumps(seen, default=repr)
    label = {"guerrilla": "Guerrilla", "lure": "Lure"}
    for type_ in ("guerrilla", "lure"):
        if type_ not in revealed_types:
            assert type_ not in text and label[type_] not in text


@settings(deadline=None)  # playouts vary in length; no wall-clock limits in tests
@given(seed=st.integers(0, 2**32 - 1), agent_seed=st.integers(0, 2**32 - 1))
def test_observe_never_shows_an_unspotted_enemy_counter(seed, agent_seed):
    game = Game.new(HIDDEN, seed=seed)
    pick = random.Random(agent_seed)
    revealed: set[str] = set()
    while True:
        check_blue_view(game)
        now = {u.id for u in game.state.units if u.side == "red" and not u.hidden}
        assert revealed <= now, "a spotted counter went face down again"
        revealed = now
        if game.is_over():
            break
        game.apply(pick.choice(game.legal_actions()))


def test_a_playout_spots_something_and_keeps_something_hidden():
    """The property above is not vacuous: over a few seeds counters are both spotted and missed."""
    spotted = missed = dummies = 0
    for seed in range(8):
        game = Game.new(HIDDEN, seed=seed)
        pick = random.Random(seed)
        while not game.is_over():
            game.apply(pick.choice(game.legal_actions()))
        reds = [u for u in game.state.units if u.side == "red"]
        spotted += sum(not u.hidden for u in reds)
        missed += sum(u.hidden for u in reds)
        dummies += sum(u.dummy and u.location == ELIMINATED for u in reds)
    assert spotted and missed and dummies


def check_every_view(game: Game) -> None:
    """For every side: enemy counters face down show only where they are; face-up ones show their type."""
    for viewer in game.ctx.rules.sides:
        shown = {u["id"]: u for u in game.observe(viewer)["units"]}
        for unit in game.state.units:
            if unit.side == viewer:
                continue
            entry = shown.get(unit.id)
            if unit.hidden:
                assert entry is None if not unit.on_map else entry == {
                    "id": unit.id, "side": unit.side, "type": None, "location": unit.location, "mode": None,
                    "dummy": None}, (viewer, unit)
            else:
                assert entry is not None and entry["type"] == unit.type, (viewer, unit)


@pytest.mark.parametrize("scenario", SHIPPED, ids=lambda p: p.stem)
def test_shipped_scenarios_keep_face_down_counters_anonymous(scenario):
    """The same check on the shipped scenarios, over a few seeded random playouts."""
    for seed in range(3):
        try:
            game = Game.new(scenario, seed=seed)
        except RulesError as exc:  # a procedure this scenario needs is not written yet
            if all(d.code == "E805" for d in exc.diagnostics):
                pytest.skip(str(exc))
            raise
        pick = random.Random(seed)
        while True:
            check_every_view(game)
            if game.is_over():
                break
            game.apply(pick.choice(game.legal_actions()))
