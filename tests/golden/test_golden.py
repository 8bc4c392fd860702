"""Golden logs replay identically (Ludii's TestTrialsIntegrity): same option counts, rolls and result.

``Game.load`` replays every recorded choice, checking at each step that the number
of legal actions is the recorded one, then that every roll comes out the same;
this test adds the final result and the whole log, entry by entry.
"""

import json
from pathlib import Path

import pytest

from warbook.interpreter.game import Game

HERE = Path(__file__).resolve().parent
GOLDENS = sorted(HERE.glob("*.jsonl"))


@pytest.mark.parametrize("golden", GOLDENS, ids=lambda p: p.stem)
def test_golden_log_replays_identically(golden):
    recorded = [json.loads(line) for line in golden.read_text(encoding="utf-8").splitlines()]
    game = Game.load(golden)
    replayed = [json.loads(json.dumps(entry, sort_keys=True, default=str)) for entry in game.log]
    for step, (want, got) in enumerate(zip(recorded[1:], replayed), start=2):
        assert want == got, f"{golden.name} line {step} differs on replay:\n  recorded {want}\n  replayed {got}"
    assert len(replayed) == len(recorded) - 1, f"{golden.name}: the replay has a different number of entries"
    final = [e for e in recorded if e.get("kind") == "result"]
    assert final and final[-1]["result"] == game.result()


def test_there_is_a_golden_per_shipped_scenario():
    shipped = {p.stem for p in (HERE.parents[1] / "scenarios").glob("*.toml")}
    covered = {g.stem.rsplit("_seed", 1)[0] for g in GOLDENS}
    assert shipped <= covered
