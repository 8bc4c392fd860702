"""A lint run's shared lookups (``dsl.lint.lookups.per_rulebook``: the index, the references) end with
the run: a game lints its rulebook as it starts and must not keep them all its life (issue 18 item 1)."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

from warbook.dsl import load_rulebook
from warbook.dsl.lint import lint_rulebook
from warbook.dsl.lint.names import index
from warbook.dsl.lint.unused import references

MINI = Path(__file__).resolve().parents[1] / "interpreter" / "fixtures" / "mini" / "mini.rules"


def test_a_lint_run_keeps_nothing_of_its_rulebook_once_done():
    rulebook = load_rulebook(MINI)
    report = lint_rulebook(rulebook)
    gone = weakref.ref(rulebook)
    del rulebook, report
    gc.collect()
    assert gone() is None


def test_lookups_asked_outside_a_run_are_kept_for_the_last_rulebook():
    rulebook = load_rulebook(MINI)
    found = index(rulebook)
    assert index(rulebook) is found and references(rulebook) is references(rulebook)
    lint_rulebook(rulebook)
    assert index(rulebook) is not found  # the run forgot it: built again, then kept
    assert index(rulebook) is index(rulebook)
