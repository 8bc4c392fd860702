"""movement.search's two ways of searching agree: cost buckets (canonical parents read afterwards)
and the heap (parents kept as it goes), on every unit of random games of the shipped scenarios."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from warbook.interpreter import costs
from warbook.interpreter import movement as mv
from warbook.interpreter.game import Game

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = [ROOT / "scenarios" / "klicks_village_sweep.toml", ROOT / "scenarios" / "klicks_firebase_night.toml",
             ROOT / "benchmarks" / "games" / "skirmish.toml"]


def answers(ctx, unit) -> tuple:
    found = mv.search(ctx, unit, omniscient=unit.hidden)
    return found.dist, found.parent, found.stops, found.ends, {c: found.path(c) for c in found.dist}


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.stem)
def test_buckets_and_heap_give_the_same_search(scenario, monkeypatch):
    game = Game.new(scenario, 3)
    rng = random.Random(3)
    checked = 0
    for _ in range(120):
        if game.is_over():
            break
        ctx = game.ctx
        for unit in ctx.state.units:
            if not unit.on_map or mv.proxies(ctx.rules, unit) != (unit.type,):
                continue
            buckets = answers(ctx, unit)
            with monkeypatch.context() as patch:
                patch.setattr(costs, "BUCKETS", -1)  # every search takes the heap
                heap = answers(ctx, unit)
            assert buckets == heap, f"{unit.id} at {unit.location}"
            checked += 1
        game.apply(rng.choice(game.legal_actions()))
    assert checked > 100
