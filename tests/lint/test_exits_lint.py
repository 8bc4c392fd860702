"""E157 reads the whole sequence of play, so its silent cases are rulebooks with a phase that offers
exits: E156's fixture (a `do move` phase and two exits) and the forces gallery (an exit, and only
`do move force` to offer it)."""

from pathlib import Path

from warbook.dsl.lint import lint_path

FIXTURES = Path(__file__).parent / "fixtures"
FORCES = Path(__file__).parents[1] / "gallery" / "forces" / "forces.rules"


def test_an_exit_with_a_move_phase_is_offered():
    codes = [d.code for d in lint_path(FIXTURES / "E156_exit_without_box.rules")]
    assert "E157" not in codes and codes.count("E156") == 1


def test_an_exit_with_only_a_move_force_phase_is_offered():
    text = FORCES.read_text()
    assert "exit east" in text and "do move force" in text and "do move\n" not in text
    assert [d.code for d in lint_path(FORCES)] == []
