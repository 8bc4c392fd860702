"""The order of a face-down side's set-up says nothing of its counters' types (issue 17, item 1).

The scenario is public: had counters been placed (and narrated) in the order of its entries, the
i-th face-down counter set up would have the type of the i-th counter the scenario lists, ids
shuffled or not.  So a face-down side places its counters in the order of its shuffled ids
(fixed cells first, then zones); a face-up side in the order written.
"""

from pathlib import Path

import pytest

from warbook.interpreter.game import Game
from warbook.interpreter.narrate import narrate, redactions

ROOT = Path(__file__).resolve().parents[2]
FIREBASE = ROOT / "scenarios" / "klicks_firebase_night.toml"
SHIPPED = sorted((ROOT / "scenarios").glob("*.toml"))
SEEDS = range(6)


def set_up(game: Game, side: str) -> list[str]:
    """The ids of ``side``'s counters in the order their set-up was logged."""
    return [e["unit"] for e in game.log if e.get("type") == "event" and e.get("kind") == "setup"
            and e.get("side") == side and e.get("unit") and not e.get("turn")]


def finish_set_up(game: Game) -> Game:
    """Answer every set-up decision with its first option (set-up is the same for every seed)."""
    while not game.is_over() and game.state.phase == "setup":
        game.apply(game.legal_actions()[0])
    return game


@pytest.mark.parametrize("seed", SEEDS)
def test_face_down_counters_are_set_up_in_the_order_of_their_ids(seed):
    game = finish_set_up(Game.new(FIREBASE, seed=seed))
    hidden = set_up(game, "vc_nva")
    assert len(hidden) == 27 and hidden == sorted(hidden)
    decisions = [e["choice"].split()[1] for e in game.log if e.get("type") == "decision" and e["side"] == "vc_nva"]
    assert decisions == sorted(decisions)
    # The face-up allies keep the order of the scenario's entries.
    assert set_up(game, "allies") == [f"A{n:02d}" for n in range(1, 16)]


def test_the_order_of_set_up_does_not_follow_the_scenario_entries():
    """What the issue found: in narration order, the types of the face-down counters were the
    scenario's entries, counter by counter, in every game."""
    entry_order = [p.unit for p in Game.new(FIREBASE, seed=0).scenario.setup if p.side == "vc_nva"
                   for _ in range(p.count)]
    for seed in SEEDS:
        game = finish_set_up(Game.new(FIREBASE, seed=seed))
        narrated = [game.state.unit(uid).type for uid in set_up(game, "vc_nva")]
        assert sorted(narrated) == sorted(entry_order)
        assert narrated != entry_order, f"seed {seed}: set-up order gives every type away"


@pytest.mark.parametrize("scenario", SHIPPED, ids=lambda p: p.stem)
def test_every_face_down_side_sets_up_fixed_cells_then_zones_each_by_id(scenario):
    """Each shipped face-down side: its set-up lines come in id order, fixed cells and boxes first
    (at most one fall in the order, where its zones begin); the same seed gives the same lines."""
    game = finish_set_up(Game.new(scenario, seed=3))
    again = finish_set_up(Game.new(scenario, seed=3))
    assert game.log == again.log
    for side in game.ctx.rules.sides:
        if not any(u.side == side and u.hidden for u in game.state.units):
            continue
        ids = set_up(game, side)
        falls = sum(1 for a, b in zip(ids, ids[1:]) if b < a)
        assert falls <= 1, (side, ids)
        viewer = next(s for s in game.ctx.rules.sides if s != side)
        lines = narrate(game.log, redactions(game, viewer))
        for uid in (u for u in ids if game.state.unit(u).hidden):
            assert all(line.startswith(f"  {uid} (hidden)") for line in lines if line.startswith(f"  {uid} "))
