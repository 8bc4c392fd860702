"""The grammar is the contract: it must build with no LALR conflicts and no terminal collisions."""

import logging

import pytest
from lark import Lark


def test_grammar_has_no_conflicts_in_strict_mode():
    pytest.importorskip("interegular")
    # strict=True raises on any shift/reduce conflict and on regex terminals that can collide.
    Lark.open_from_package("warbook.dsl", "grammar.lark", parser="lalr", strict=True)


def test_grammar_build_logs_no_conflicts(caplog):
    # lark/utils.py sets the "lark" logger to CRITICAL at import; conflicts are logged at DEBUG.
    caplog.set_level(logging.DEBUG, logger="lark")
    Lark.open_from_package("warbook.dsl", "grammar.lark", parser="lalr", debug=True)
    assert "Shift/Reduce conflict" not in caplog.text
    assert "Reduce/Reduce collision" not in caplog.text


def test_a_conflicting_grammar_is_caught_by_the_same_check():
    """Guard the guard: an ambiguous grammar must fail the strict build."""
    pytest.importorskip("interegular")
    from lark.exceptions import GrammarError

    with pytest.raises(GrammarError):
        Lark("start: a | b\na: X\nb: X\nX: \"x\"", parser="lalr", strict=True)
