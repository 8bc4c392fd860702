"""Caches of derived data: per compiled rules, per rules and map, and per map.

The interpreter asks the same questions of a rulebook and a map many times a decision (what a cell
costs a unit type, which zones are in force, which names select a cell …).  The answers are pure
functions of the rules and the map, so they are kept here, in plain dictionaries that live and die
with the objects they derive from:

- ``rules_cache(rules)``: one dictionary per compiled ``Rules`` (its ``derived`` attribute);
- ``rules_cache(rules, board)``: one per ``Rules`` and map (keyed weakly by the map's graph);
- ``board_cache(board)``: one per map, whatever the rules (keyed weakly by its graph).

Guarantees: nothing is ever invalidated, because a rulebook and a map never change once loaded;
dropping the ``Rules`` or the map drops its answers.  Limits: the keys inside each dictionary are
chosen by its callers (a string per question, by convention), and nothing stops two modules using
the same key for different answers; grep for the key before adding one.  Callers must only read
what they get back, or add to it: the dictionaries are shared by every game on the same rules.
"""

from __future__ import annotations

import weakref
from typing import Any

from .board import Board
from .rules import Rules

_BOARD_CACHES: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()


def board_cache(board: Board) -> dict[str, Any]:
    """Derived data of one map alone, whatever the rules: it lives and dies with the map's graph."""
    cache = _BOARD_CACHES.get(board.graph)
    if cache is None:
        cache = _BOARD_CACHES[board.graph] = {}
    return cache


def rules_cache(rules: Rules, board: Board | None = None) -> dict[Any, Any]:
    """Derived data of one compiled ``Rules`` (``Rules.derived``), and of one map: it lives and dies with them.

    Procedures ask for it many times a decision, so the last map's cache is remembered beside a
    weak reference to that map's graph (a ``WeakKeyDictionary`` lookup costs more than the rest).
    """
    per_rules = rules.derived
    if "boards" not in per_rules:
        per_rules.update(boards=weakref.WeakKeyDictionary(), last_board=None)
    if board is None:
        return per_rules
    graph = board.graph
    last = per_rules["last_board"]
    if last is not None and last[0]() is graph:
        return last[1]
    per_board = per_rules["boards"].get(graph)
    if per_board is None:
        per_board = per_rules["boards"][graph] = {}
    per_rules["last_board"] = (weakref.ref(graph), per_board)
    return per_board

