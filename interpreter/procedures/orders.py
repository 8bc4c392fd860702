"""Orders and scoring: ``do declare MODE`` and ``do score AWARD…``.

A ``mode`` (watch, patrol …) says which side and which units may take it
(``side``, ``for``); the acting side picks units one at a time and ends with
``done``.  Orders last until the end of the turn.
"""

from __future__ import annotations

from itertools import repeat
from operator import indexOf, is_

from ...dsl.compiled.calls import Declare, Score
from ..actions import Action
from ..caches import rules_cache
from ..context import Context, Flow, options_in_order
from . import procedure
from ..rules import Rules
from ..state import unit_with_mode
from ..victory import score_award_cells


def may_take(ctx: Context, mode, unit) -> bool:
    """Units (not markers, not dummies) on the map without orders, of the mode's side and kinds."""
    if unit.dummy or not unit.on_map or unit.mode:
        return False
    # What the mode says of a type and side, read once per compiled Rules (its rulebook is fixed).
    cache = rules_cache(ctx.rules).setdefault("may_take", {})
    key = (mode.name, unit.type, unit.side)
    found = cache.get(key)
    if found is None:
        found = cache[key] = _type_may_take(ctx.rules, mode, unit.type, unit.side)
    return found


def _type_may_take(rules: Rules, mode, type_name: str, unit_side: str) -> bool:
    unit_type = rules.unit_type(type_name)
    if unit_type.kind == "marker":
        return False
    if mode.side is not None and mode.side != unit_side:
        return False
    return not mode.who or unit_type.matches(mode.who)


DONE = Action("done")


@procedure("declare")
def declare(ctx: Context, call: Declare) -> Flow:
    mode = ctx.rules.mode(call.mode)
    sides = [ctx.acting] if ctx.acting else list(ctx.player_order)
    cache = rules_cache(ctx.rules)
    takes = cache.setdefault("may_take", {})  # may_take's memo, read directly in the loop
    # The options are values: made once per unit and mode, they serve every decision and game.
    made = cache.setdefault("declare options", {})
    sorts = cache.setdefault("declare orders", {})
    kind, prompt = f"declare {mode.name}", f"put units on {mode.label} orders"
    for side in sides:
        ordered: tuple[Action, ...] = ()
        kept = None  # the state ``ordered`` was read from (less the unit just put on orders)
        while True:
            if ctx.state is not kept:
                ordered = _in_order(_options(ctx, side, mode, takes, made), sorts)
            if len(ordered) <= 1:  # ``done`` alone: no unit may take the mode
                break
            # Resumable for the first side: a unit on orders has its mode in the state, so this
            # procedure started again offers the same units (a later side's would ask the first again).
            action = yield from ctx.choose(side, kind, prompt, ordered, in_order=True, resume=side == sides[0])
            if action.kind == "done":
                break
            unit = ctx.state.unit(action.args[0])
            ctx.update_unit(unit_with_mode(unit, mode.name))
            ctx.say(f"{ctx.label(unit)} goes on {mode.label}", kind="order", unit=unit.id, mode=mode.name)
            # The unit now has orders; nothing else changed: the same options less that one, in
            # order, without a pass over every unit (which made a long declaration units²).
            at = _place(ordered, action)
            ordered, kept = ordered[:at] + ordered[at + 1:], ctx.state


ORDERS_KEPT = 1024
"""Lists of options ``_in_order`` keeps sorted before it forgets them all and starts again."""


def _in_order(options: list[Action], sorts: dict) -> tuple[Action, ...]:
    """``options_in_order(options)``, kept by the options' identities: they are the kept ``declare``
    actions (``_options``), so a side offered the same units again (every turn, every game) is not
    sorted again (``declare UNIT MODE``, two arguments, has no kept sort key).  The sorted tuple
    holds every option keyed, so no id in a key is another object's while it is kept."""
    key = tuple(map(id, options))
    found = sorts.get(key)
    if found is None:
        if len(sorts) >= ORDERS_KEPT:
            sorts.clear()
        found = sorts[key] = options_in_order(options)
    return found


def _place(options: tuple[Action, ...], action: Action) -> int:
    """Where ``action`` is among ``options``: by identity, in C (an agent hands back an option itself;
    ``tuple.index`` would call ``Action.__eq__`` on every option before it), else by value."""
    try:
        return indexOf(map(is_, options, repeat(action)), True)
    except ValueError:
        return options.index(action)


def _options(ctx: Context, side: str, mode, takes: dict, made: dict) -> list[Action]:
    """The units of ``side`` that may go on ``mode`` orders now, as options, then ``done``."""
    options = []
    for unit in ctx.state.units_of(side):  # on the map: ``may_take`` without its first test
        if unit.dummy or unit.mode:
            continue
        ok = takes.get((mode.name, unit.type, unit.side))
        if ok is None:
            ok = may_take(ctx, mode, unit)
        if ok:
            option = made.get((unit.id, mode.name))
            if option is None:
                option = made[unit.id, mode.name] = Action("declare", (unit.id, mode.name))
            options.append(option)
    if options:
        options.append(DONE)
    return options


@procedure("score")
def score(ctx: Context, call: Score) -> Flow:
    """Score each listed ``on held`` or ``on controlled`` award (``victory.score_award_cells``).

    In a phase bound to one side (``ctx.acting``) only the awards that side receives are scored:
    those whose ``to`` names it.  An award without ``to`` is received by no side, so a bound phase
    skips it (``score_held`` scores nothing for it anywhere).  A ``mutual`` phase scores them all.
    An award ``scored during PHASE…`` is scored by the ``do score`` lines of those phases: E130
    refuses a line elsewhere, so the line's own phase says when it scores.
    """
    for ref in call.awards:
        award = ctx.rules.awards.get(str(ref))
        if award is None or award.on not in ("held", "controlled"):
            continue
        if ctx.acting is not None and award.to != ctx.acting:
            continue  # another side's award: it scores in that side's own phase
        score_award_cells(ctx, award)
    return
    yield  # a generator that needs no decision
