"""Committing support: ``do commit support [of MARKER…] [paying ACTION] [by each side]``, a
battle's second step (``interpreter.procedures.combatants`` says who is in the battle).

``commit support [of MARKER…] [paying ACTION] [by each side]`` (committing support).  The acting
side (the step's ``side``, else the ACTION's), or with ``by each side`` every side in the battle,
the attacker first, may commit markers that say ``support from BOX`` and lie in its BOX, not
committed yet this turn, into the contested cell, one at a time (decision ``support``: ``commit
ID`` or ``done``), paying ACTION's cost for each (its ``cost`` line for the marker; nothing
without ``paying``).  ``of MARKER…`` limits the types offered.  ``support only into WHERE
[within N]``, ``support never with friendly units``, ``support never alone`` (only where a unit of
its side fights) and ``support never against markers alone`` limit the cells.  Only the lowest id
of each marker type is offered: they are alike.  A committed marker gets the turn flag
``committed`` (so it is used once a turn) and fights with its side; when the battle ends it goes
back to its box, unless it leaves when a combat round ends (``remove self to BOX when combat round
ends``): then it goes to that BOX, also when the battle ends inside a round (a break-off).
"""

from __future__ import annotations

from fractions import Fraction

from attrs import evolve

from ...dsl.compiled.actions import ActionRule
from ...dsl.compiled.calls import CommitSupport
from ..actions import Action
from ..caches import map_memos, rules_cache
from ..cells import within
from ..citations import cite
from ..context import Context, Flow, SideAt, sides_in_turn
from ..flags import COMMITTED
from ..forces import action_price
from . import procedure
from ..state import Unit
from ..victory import gain
from .combatants import battle_on, defenders_of, is_unit, side_in_battle, side_in_battle_units


def support_problem(ctx: Context, marker: Unit, cell: str, units_fight=None) -> str | None:
    """Why ``marker`` may not be committed into ``cell`` now, or ``None``.

    ``units_fight(side)``: whether a unit of that side fights in the battle (by default, as the
    battle stands; a strike being designated passes its own answer).
    """
    found = _support_block(ctx, marker, cell, units_fight)
    return found() if found is not None else None


def may_support(ctx: Context, marker: Unit, cell: str, units_fight=None) -> bool:
    """``support_problem(…) is None``, without wording the reason (asked for every cell and marker)."""
    return _support_block(ctx, marker, cell, units_fight) is None


def _support_block(ctx: Context, marker: Unit, cell: str, units_fight=None):
    """``support_problem``'s reason as a function that words it, or ``None``."""
    units_fight = units_fight or (lambda s: side_in_battle_units(ctx, s))
    marker_type = ctx.rules.unit_type(marker.type)
    decl, label = marker_type.decl, marker_type.label
    box = marker_type.support_box
    if box is None:
        return lambda: f"{marker.id} is no support marker"
    if marker.location != box:
        return lambda: f"{marker.id} is not in the {box}"
    if COMMITTED in marker.turn_flags:
        return lambda: f"{marker.id} has been used this turn ({cite(decl, marker_type.support[0].source)})"
    for line in marker_type.support:
        if line.where:
            wanted = tuple(sorted(line.where))
            if cell not in _support_cells(ctx, wanted, line.distance):
                return lambda: f"{label} only goes into {' '.join(wanted)} ({cite(decl, line.source)})"
        friendly = any(u.side == marker.side and is_unit(ctx, u) for u in ctx.state.units_at(cell))
        if line.never_with_friendly and friendly:
            return lambda: f"{label} never goes into a cell with friendly units ({cite(decl, line.source)})"
        if line.never_against_markers_alone:
            if not any(units_fight(s) for s in ctx.player_order if s != marker.side):
                return lambda: f"{label} is never played against markers alone ({cite(decl, line.source)})"
        elif line.never_alone and not units_fight(marker.side):
            return lambda: f"{label} never goes alone into a battle ({cite(decl, line.source)})"
    return None


def _support_cells(ctx: Context, wanted: tuple[str, ...], distance: int) -> frozenset[str]:
    """Cells ``support only into WANTED within DISTANCE`` allows, found once per rules and map."""
    cache = map_memos(ctx.rules, ctx.board).support_cells
    key = (wanted, distance)
    if key not in cache:
        spots = [c for c in ctx.board.cells
                 if set(wanted) & ctx.rules.cell_selectors(ctx.board.terrain(c), ctx.board.tags(c))]
        cache[key] = frozenset(within(ctx.board, spots, distance))
    return cache[key]


def support_price(ctx: Context, action: ActionRule, marker: Unit) -> tuple[str, Fraction] | None:
    """``(resource, amount)``: the action's price for the marker's type, or ``None`` when none applies."""
    return action_price(ctx, action, ctx.rules.unit_type(marker.type).selectors)


@procedure("commit support")
def commit_support(ctx: Context, call: CommitSupport) -> Flow:
    """Commit support markers to the battle, paying for each (module docstring)."""
    operation = ctx.operation
    if operation is None or not operation.fighting():
        return
    action = ctx.rules.actions[call.action] if call.action is not None else None
    if call.each:
        sides = [operation.side, *defenders_of(ctx)]
    else:
        sides = [ctx.acting or (action.side if action is not None else None)]
    kinds = frozenset(call.markers)
    for at, side in sides_in_turn(ctx, "commit support", sides):
        if side is None or not battle_on(ctx) or not side_in_battle(ctx, side):
            continue
        # A strike's one price covers every marker committed to it.
        paying = None if operation.mode == "strike" and side == operation.side else action
        yield from commit_markers(ctx, side, operation.cell, paying, kinds, progress=at)


def commit_markers(ctx: Context, side: str, cell: str, action: ActionRule | None,
                   kinds: frozenset[str] = frozenset(), *, units_fight=None, must: bool = False,
                   progress: SideAt | None = None) -> Flow:
    """Offer ``side``'s support markers (of ``kinds``, or any) for ``cell`` one at a time until it is
    ``done``, paying ``action``'s price for each (nothing when ``None``); ``must``: at least one.
    Each question reads only the state and the operation: with the side's ``progress`` (and no
    ``must``) it is resumable."""
    operation = ctx.operation
    ask = (f"{action.label}: commit support to the battle in {cell}?" if action is not None
           else f"commit support to the battle in {cell} (at no cost)?")
    while True:
        ready: dict[str, Unit] = {}
        for marker in _in_support_boxes(ctx):
            if (marker.side != side or marker.type in ready or (kinds and marker.type not in kinds)
                    or not may_support(ctx, marker, cell, units_fight)):
                continue
            price = support_price(ctx, action, marker) if action is not None else None
            if price is not None and ctx.state.resource(side, price[0]) < price[1]:
                continue
            ready[marker.type] = marker
        if not ready:
            return
        options = [Action("commit", (m.id,)) for m in ready.values()]
        if not must:
            options.insert(0, Action("done"))
        choice = yield from ctx.choose(side, "support", ask, options,
                                       lambda a: _why_not_commit(ctx, a, cell, units_fight),
                                       resume=progress is not None and not must, progress=progress)
        if choice.kind == "done":
            return
        must = False
        marker = ctx.state.unit(choice.args[0])
        price = support_price(ctx, action, marker) if action is not None else None
        if price is not None and price[1]:
            gain(ctx, side, price[0], -price[1], f"{action.label}: {marker.id}")
        ctx.update_unit(evolve(marker, location=cell, hidden=False, turn_flags=marker.turn_flags | {COMMITTED}))
        operation.support.append(marker.id)
        ctx.say(f"{ctx.label(marker)} is committed to the battle in {cell}", kind="support", unit=marker.id,
                cell=cell, side=side)


def _in_support_boxes(ctx: Context) -> list[Unit]:
    """The counters lying in a box some marker type is ``support from``, in id order: the only ones
    ``support_problem`` can let be committed (a marker goes from its own box)."""
    boxes = rules_cache(ctx.rules).get("support boxes")
    if boxes is None:
        boxes = rules_cache(ctx.rules)["support boxes"] = sorted(
            {t.support_box for t in ctx.rules.unit_types.values() if t.support_box is not None})
    return sorted((u for box in boxes for u in ctx.state.units_at(box)), key=lambda u: u.id)


def _why_not_commit(ctx: Context, action: Action, cell: str, units_fight=None) -> str | None:
    if action.kind != "commit" or not action.args:
        return None
    try:
        marker = ctx.state.unit(action.args[0])
    except KeyError:
        return f"there is no counter {action.args[0]!r}"
    return support_problem(ctx, marker, cell, units_fight)
