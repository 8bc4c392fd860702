"""Caches of derived data: per compiled rules, per rules and map, and per map.

The interpreter asks the same questions of a rulebook and a map many times a decision (what a cell
costs a unit type, which zones are in force, which names select a cell …).  The answers are pure
functions of the rules and the map, so they are kept here and live and die with the objects they
derive from:

- ``map_memos(rules, board)``: one ``MapMemos`` per ``Rules`` and map (keyed weakly by the map's
  graph): a typed record with one field per question, so that every answer the interpreter keeps
  for a map is listed, with the function that fills it, in one place;
- ``rules_cache(rules)``: one dictionary per compiled ``Rules`` (its ``derived`` attribute), for
  memos of the rulebook alone (a string key per question, by convention; grep before adding one);
- ``board_cache(board)``: one per map, whatever the rules (keyed weakly by its graph).

Guarantees: nothing is ever invalidated, because a rulebook and a map never change once loaded;
dropping the ``Rules`` or the map drops its answers.  Callers must only read what they get back,
or add to it: the memos are shared by every game on the same rules and map.
"""

from __future__ import annotations

import weakref
from typing import Any

from attrs import Factory, define

from .board import Board
from .rules import Rules

_BOARD_CACHES: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()


def board_cache(board: Board) -> dict[str, Any]:
    """Derived data of one map alone, whatever the rules: it lives and dies with the map's graph."""
    cache = _BOARD_CACHES.get(board.graph)
    if cache is None:
        cache = _BOARD_CACHES[board.graph] = {}
    return cache


@define(slots=True, eq=False)
class MapMemos:
    """What the interpreter keeps of one compiled ``Rules`` on one map: each field one question's
    answers, filled by the function named beside it (each documents its keys)."""

    selectors: dict | None = None
    """``cells.cell_selectors``: every name that selects each cell (filled at once)."""
    costs: dict = Factory(dict)
    """``costs.cost_table``: each unit type's cost table on this map."""
    plans: dict = Factory(dict)
    """``movement``: search plans (steps and stops) by ``costs.table_key``, and by type (``_plan``)."""
    zone_of: dict = Factory(dict)
    """``zones.zone_of``: the cells a counter's zone covers."""
    enemy_zones: dict = Factory(dict)
    """``zones.enemy_zones``: a side's view of the enemy's zones while the enemy's units are unchanged."""
    situation: dict = Factory(dict)
    """``situation``: a side's situation while the units are unchanged."""
    enemy_reading: dict = Factory(dict)
    """``situation``: what a side reads of the enemy's counters."""
    force_fits: dict = Factory(dict)
    """``forces.Force.fits``: whether unit types may move together."""
    combined_cells: dict = Factory(dict)
    """``forces.Force.combined_cells``: where movers of several classes may move together, by their classes."""
    common_cells: dict = Factory(dict)
    """``forces.Force``: the cells every member of a mixed force may enter, by their cost tables and classes."""
    condition_cells: dict = Factory(dict)
    """``conditions``: the cells a condition's place names."""
    support_cells: dict = Factory(dict)
    """``procedures.support``: the cells ``support only into WHERE within N`` allows."""
    placement_cells: dict = Factory(dict)
    """``procedures.placement``: the cells a placement allows."""
    award_cells: dict = Factory(dict)
    """``victory``: the cells an award's ``cells`` names."""
    control_cells: frozenset | None = None
    """``control.controlled_cells``: the cells the ``control`` declaration controls."""
    trace_cells: dict = Factory(dict)
    """``tracing``: each trace's source cells named by terrain, tag or place (by trace name)."""
    exit_cells: dict = Factory(dict)
    """``exits``: the cells each exit lets a unit step off the map from (by exit name)."""
    distances: dict = Factory(dict)
    """``cells.distances_from``: each cell's distance from the cells some names select (by names)."""
    could_operate: dict = Factory(dict)
    """``procedures.operations``: what the one-unit forces a side could designate in a cell cost, by side and cell."""
    setup_cells: dict = Factory(dict)
    """``setup.zone_cells``: the cells of a set-up zone a unit type may stand in (by zone and type)."""
    shared: dict = Factory(dict)
    """``share``: one copy of each equal answer above (cell sets, cost maps) by type and hash (a
    list of them where hashes collide)."""
    step_tuples: dict = Factory(dict)
    """``pathfinding``: one copy of each tuple of cells the map's cost tables step to from a cell
    (``CostTable.known_neighbours``), whatever the table: most cells step to the same neighbours
    for most unit types."""
    step_pairs: dict = Factory(dict)
    """``costs.CostTable.step_to``: one copy of each step ``(cell, cost)`` the map's cost tables hold."""
    point_values: dict = Factory(dict)
    """``costs.CostTable.points``: the points of each scaled cost, by the tables' ``scale``."""


def map_memos(rules: Rules, board: Board) -> MapMemos:
    """The ``MapMemos`` of one compiled ``Rules`` on one map: it lives and dies with them.

    Procedures ask for it many times a decision, so the last map's memos are remembered beside a
    weak reference to that map's graph (a ``WeakKeyDictionary`` lookup costs more than the rest).
    """
    per_rules = rules.derived
    graph = board.graph
    last = per_rules.get("last_board")
    if last is not None and last[0]() is graph:
        return last[1]
    if "boards" not in per_rules:
        per_rules["boards"] = weakref.WeakKeyDictionary()
    memos = per_rules["boards"].get(graph)
    if memos is None:
        memos = per_rules["boards"][graph] = MapMemos()
    per_rules["last_board"] = (weakref.ref(graph), memos)
    return memos


def share(rules: Rules, board: Board, value: Any) -> Any:
    """``value``, or an equal one already kept for these rules and this map: many unit types, zones
    and placements come to the same cells or costs, and each distinct answer is then held once.

    ``value`` is a frozenset, a tuple or a dict (equal only with the same items in the same order,
    so that iterating the shared copy gives what iterating ``value`` gave).  Callers only read it.
    """
    probe = tuple(value.items()) if isinstance(value, dict) else value
    shared = map_memos(rules, board).shared
    key = (type(value), hash(probe))
    kept = shared.get(key)
    if kept is None:  # the value alone, not in a list: values whose hashes collide are few
        shared[key] = value
        return value
    alike = kept if type(kept) is list else [kept]
    for known in alike:
        if (tuple(known.items()) if isinstance(known, dict) else known) == probe:
            return known
    shared[key] = [*alike, value]
    return value


def rules_cache(rules: Rules) -> dict[Any, Any]:
    """Derived data of one compiled ``Rules`` alone (``Rules.derived``): it lives and dies with it."""
    return rules.derived
