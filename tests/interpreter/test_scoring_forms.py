"""When an award scores: ``scored as they occur`` or ``scored during PHASE…``, by play of its trigger.

The game is the mini fixture (fixtures/mini) with two loss awards and two phases added in a
temporary copy: ``fight`` (with a step ``melee`` inside it) and ``muster``.  Red's guerrillas are
eliminated (``combat.eliminate``, as a combat result does) while one phase or another runs.

Reference (award): "`as they occur`, or no line: whenever what it scores happens … `during
PHASE…`: only while one of these phases (or a step inside one) runs; what happens at other
times scores nothing."
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from warbook.interpreter.combat import eliminate
from warbook.interpreter.context import Context
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.state import GameState, Unit

MINI = Path(__file__).parent / "fixtures" / "mini"
AWARDS = '''
award kill_in_fight "Guerrilla eliminated in a fight" {
    to blue
    on eliminated
    of guerrilla
    points 2
    scored during fight
}
award kill_any_time "Guerrilla eliminated" {
    to blue
    on eliminated
    of guerrilla
    points 1
    scored as they occur
}
'''
PHASES = ('''    phase scoring "Scoring" {''', '''    phase fight "Fight" {
        for each side
        step melee "Melee" {
            do declare watch
        }
    }
    phase muster "Muster" {
        mutual
        do declare watch
    }
    phase scoring "Scoring" {''')


@pytest.fixture
def scenario(tmp_path) -> Path:
    shutil.copytree(MINI, tmp_path, dirs_exist_ok=True)
    text = (MINI / "mini.rules").read_text()
    assert PHASES[0] in text
    (tmp_path / "mini.rules").write_text(text.replace(*PHASES) + AWARDS)
    return tmp_path / "mini.toml"


def blue_vp_after_a_kill_in(scenario: Path, running: list[str]) -> int:
    """Blue's VP after a red counter is eliminated while these phases and steps run (outermost first)."""
    ctx = Context(load_scenario(scenario), seed=0)
    ctx.state = GameState(turn=1, phase=running[-1], units=(Unit("R1", "guerrilla", "red", "0303"),))
    ctx.running = list(running)
    eliminate(ctx, ctx.state.unit("R1"), "a test")
    return int(ctx.state.resource("blue", "vp"))


@pytest.mark.parametrize("running, vp", [
    (["fight"], 2 + 1),            # its phase: both awards
    (["fight", "melee"], 2 + 1),   # a step inside it: both
    (["muster"], 1),               # another phase: only the award scored as they occur
    (["scoring"], 1),
])
def test_an_award_scored_during_phases_scores_only_while_they_run(scenario, running, vp):
    assert blue_vp_after_a_kill_in(scenario, running) == vp


def test_a_kill_outside_the_phases_says_why_it_scores_nothing(scenario):
    ctx = Context(load_scenario(scenario), seed=0)
    ctx.state = GameState(turn=1, phase="muster", units=(Unit("R1", "guerrilla", "red", "0303"),))
    ctx.running = ["muster"]
    eliminate(ctx, ctx.state.unit("R1"), "a test")
    said = [e["text"] for e in ctx.events if e.get("award") == "kill_in_fight"]
    assert said and "scored during fight" in said[0]
