"""E157 reads the whole sequence of play, so its silent case is a rulebook with a `do move` phase:
E156's fixture, whose two exits E157 must not report."""

from pathlib import Path

from warbook.dsl.lint import lint_path

FIXTURES = Path(__file__).parent / "fixtures"


def test_an_exit_with_a_move_phase_is_offered():
    codes = [d.code for d in lint_path(FIXTURES / "E156_exit_without_box.rules")]
    assert "E157" not in codes and codes.count("E156") == 1
