"""Control of cells: which side holds each, and how it changes hands as units come and go.

The rulebook's ``control`` declaration (``dsl.compiled.control.ControlRule``) says which cells are
controlled and how.  ``GameState.control`` lists each held cell with its side; a cell not listed
is held by no side.  A cell's controller is settled again whenever a unit's location changes
(``Context.update_unit``, the one place a procedure moves a counter, calls ``unit_moved``): for the
cell it left and the cell it entered, and for every cell a move passes through (``passed``):

- real units (not markers, not dummies) of one side alone in the cell: it is that side's;
- no real unit there: under ``by presence`` it is no side's; under ``by last occupant`` it keeps
  its controller;
- units of several sides: it keeps its controller.

Set-up places counters without changing control; when it ends, ``start`` gives the cells of each
side's set-up (``initially by set-up``) and the scenario's ``[scenario.control]`` table their
controllers.  Every change is narrated ("0504 now Red").  Control is public: every side's
observation lists it (``Game.observe``).

Limits: a dummy never takes a cell, so a change that does not happen tells the enemy a counter
was a dummy (as its removal when spotted would).
"""

from __future__ import annotations

from collections.abc import Iterable

from .caches import map_memos
from .state import Unit


def controlled_cells(rules, board) -> frozenset[str]:
    """The cells the ``control`` declaration's ``cells`` line names (every cell without one), once
    per rules and map."""
    memos = map_memos(rules, board)
    if memos.control_cells is None:
        wanted = rules.control.cells if rules.control is not None else ()
        memos.control_cells = frozenset(board.cells) if wanted is None else named_cells(rules, board, wanted)
    return memos.control_cells


def named_cells(rules, board, names: Iterable[str]) -> frozenset[str]:
    """The cells whose terrain, terrain tags, cell tags or place name one of ``names`` names."""
    wanted = frozenset(names)
    nodes = board.graph.nodes
    return frozenset(c for c in board.cells
                     if wanted & rules.cell_selectors(board.terrain(c), board.tags(c)) or nodes[c].get("place") in wanted)


def _holders(ctx, cell: str, extra: Unit | None = None) -> set[str]:
    """The sides with a real unit in the cell (and ``extra``'s, a unit passing through)."""
    unit_type = ctx.rules.unit_type
    sides = {u.side for u in ctx.state.units_at(cell) if not u.dummy and unit_type(u.type).kind == "unit"}
    if extra is not None:
        sides.add(extra.side)
    return sides


def settle(ctx, cell: str, extra: Unit | None = None) -> None:
    """Give the cell to the side whose real units alone are there (module docstring), narrating a change."""
    rule = ctx.rules.control
    if rule is None or cell not in controlled_cells(ctx.rules, ctx.board):
        return
    sides = _holders(ctx, cell, extra)
    if len(sides) == 1:
        side = next(iter(sides))
    elif not sides and rule.presence:
        side = None
    else:
        return
    _set(ctx, cell, side)


def _set(ctx, cell: str, side: str | None, why: str = "") -> None:
    if ctx.state.controller(cell) == side:
        return
    ctx.state = ctx.state.with_controller(cell, side)
    shown = ctx.shown("side", side) if side is not None else "no side's"
    ctx.say(f"{cell} now {shown}{why}", kind="control", cell=cell, side=side)


def unit_moved(ctx, before: Unit, after: Unit) -> None:
    """A unit changed location (``Context.update_unit``): settle the cells it left and entered."""
    if before.location[:1].isdigit():
        settle(ctx, before.location)
    if after.location[:1].isdigit():
        settle(ctx, after.location)


def passed(ctx, unit: Unit, cells: Iterable[str]) -> None:
    """A move took ``unit`` through ``cells`` without stopping: each is settled as if it stood there."""
    if ctx.rules.control is None or unit.dummy or ctx.rules.unit_type(unit.type).kind != "unit":
        return
    for cell in cells:
        settle(ctx, cell, unit)


def start(ctx) -> None:
    """Control when set-up ends: each side's set-up cells (``initially by set-up``), then the
    scenario's ``[scenario.control]`` cells."""
    rule = ctx.rules.control
    if rule is None:
        return
    tracked = controlled_cells(ctx.rules, ctx.board)
    if rule.from_setup:
        for cell in sorted({u.location for u in ctx.state.units if u.on_map} & tracked):
            settle(ctx, cell)
    for side, cells in getattr(ctx.scenario, "control", ()):
        for cell in cells:
            if cell in tracked:
                _set(ctx, cell, side, " (the scenario)")


def held(state, side: str, cells: Iterable[str]) -> int:
    """How many of ``cells`` the side holds."""
    return sum(1 for cell in cells if state.controller(cell) == side)
