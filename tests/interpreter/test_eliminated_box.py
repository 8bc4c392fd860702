"""Where eliminated units go: the box the rulebook says ``holds eliminated``, else out of play.

Reference (box): "Eliminated units, and counters removed from play with no box named, go to
this box (at most one box says so); without one they leave play for good (the built-in
``eliminated`` location)."
"""

import shutil
from pathlib import Path

import pytest

from warbook.interpreter.combat import eliminate
from warbook.interpreter.context import Context
from warbook.interpreter.rules import ELIMINATED
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.state import GameState, Unit

MINI = Path(__file__).parent / "fixtures" / "mini"
GRAVEYARD = '''
box graveyard "Graveyard" {
    holds eliminated
}
'''


def eliminated_to(folder: Path) -> str:
    ctx = Context(load_scenario(folder / "mini.toml"), seed=0)
    ctx.state = GameState(turn=1, phase="orders", units=(Unit("B1", "trooper", "blue", "0202"),))
    eliminate(ctx, ctx.state.unit("B1"), "a test")
    assert not ctx.state.unit("B1").on_map
    return ctx.state.unit("B1").location


@pytest.fixture
def with_graveyard(tmp_path) -> Path:
    shutil.copytree(MINI, tmp_path, dirs_exist_ok=True)
    (tmp_path / "mini.rules").write_text((MINI / "mini.rules").read_text() + GRAVEYARD)
    return tmp_path


def test_eliminated_units_go_to_the_box_that_holds_them(with_graveyard):
    assert eliminated_to(with_graveyard) == "graveyard"


def test_without_such_a_box_they_leave_play():
    assert eliminated_to(MINI) == ELIMINATED == "eliminated"
