"""Set-up: the scenario's forces put where the game starts, before turn 1.

``setup(ctx)`` runs, in order:

1. **Starting resources** (``[scenario.resources]``; every other resource starts at 0).
2. **Options decided before play** (``[scenario.choose]``): the deciding side chooses
   ``option NAME on`` or ``off``; an option switched on has its ``effect`` lines carried out
   (``gain``/``lose``, ``to owner`` being the side that chose it), and the game goes on with
   the rulebook in which it is on (``Scenario.rules_for``).  An option the players agreed
   before play (``Scenario.agree``) is not asked; its effects are carried out all the same,
   for the side the scenario gives the choice to.
3. **Random draws** (``[[draw]]``): counters picked one at a time from the mix, each pick a
   logged roll of one die with as many faces as counters are left (``ctx.roll``), so a replay
   picks the same ones.
4. **Placement**, side by side in ``setup_order``: first the fixed cells, named places and
   holding areas (``box``) of all its entries, at once; then its zones by the owner's choice,
   counter by counter, among the cells ``zone_cells`` and ``_may_stand`` allow.  A face-up side
   places its counters in the order its entries are written; a face-down side in the order of its
   shuffled ids (below), since the scenario is public and the order of entries would say
   which type each face-down counter is (fixed cells are the scenario author's to get right:
   they are not checked).  When no cell of its zone has room for a counter, its owner chooses
   which counter starts in the scenario's ``unplaced`` area (default ``offmap``): this one, or
   one it set up in the zone earlier, whose cell this one then takes (``_make_room``).

Hidden sides' counter ids are numbered in an order shuffled by the seed, so an id never tells
the enemy which type a face-down counter is.

Limits: set-up does not look ahead.  A side that fills the cells a later entry needs leaves
that entry's counters unplaced (they go to ``unplaced``); order the entries so that the most
constrained come first (a face-down side's zone counters come in a shuffled order, so give
its constrained entries room to spare).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import lt
from fractions import Fraction

from attrs import define, evolve, frozen

from ..dsl.effects import Where
from ..dsl.values import Dice
from .actions import Action, Batch
from .caches import map_memos, share
from .context import Context, Flow, arg_key
from .effects import Target, carry_out
from .options import option_on
from .scenario import Zone
from .stacking import within_every_rule
from .state import Unit, new_unit, replace


@define
class _Slot:
    """One counter to set up."""

    side: str
    unit: str
    at: str | None = None
    box: str | None = None
    zone: Zone | None = None
    per_cell: int | None = None
    group: str = ""
    group_per_cell: int | None = None
    may_hold: str | None = None


def _short(ctx: Context, side: str) -> str:
    rule = ctx.rules.side_rules.get(side)
    return rule.short if rule is not None else side[:1].upper()



@frozen
class SetupPlan:
    """What set-up works out before the first counter is placed: a slot per counter, its id,
    its place in its side's placing order, and how many ids each side's set-up gives (arrivals
    are numbered after).  Fixed once made, so a checkpoint shares it (``SetupAt``)."""

    slots: tuple[_Slot, ...]
    ids: dict[int, str]
    rank: dict[int, int]
    numbered: dict[str, int]


@frozen
class SetupAt:
    """Where placement stands at a decision to place a counter in its zone: the plan, the index
    of the side in ``setup_order``, the index of the counter in that side's placing order, and
    the groups and zone choices made so far (copies).  ``setup(ctx, at)`` starts there."""

    plan: SetupPlan
    side: int
    slot: int
    groups: dict
    chosen: frozenset


def setup(ctx: Context, at: SetupAt | None = None) -> Flow:
    """Place every counter of the scenario (see the module docstring for the order); or the rest
    of them from ``at``, a checkpoint's record of a placement decision (``interpreter.checkpoint``)."""
    if at is None:
        ctx.state = replace(ctx.state, phase="setup",
                            resources=tuple(sorted((s, r, v) for s, r, v in _start_resources(ctx))))
        yield from _choose_options(ctx)
        made = _planned(ctx)
        groups: dict[str, str] = {}
        chosen: set[str] = set()  # counters the owner set up in a zone (``_make_room`` may move them)
    else:
        made, groups, chosen = at.plan, dict(at.groups), set(at.chosen)
    plan, ids, rank, numbered = made.slots, made.ids, made.rank, made.numbered
    standing: dict = {}  # ``_may_stand``'s answers, by cell, type, side and per-cell limit
    order = ctx.scenario.setup_order
    for side_index in range(at.side if at else 0, len(order)):
        side = order[side_index]
        if at is None:
            ctx.acting = side
        # Fixed squares and holding areas first (no decision), then the zones.  A face-up side's
        # go in the order written; a face-down side's in the order of its shuffled ids, so the
        # order of its set-up lines and decisions says nothing of which entry a counter is.
        mine = sorted((i for i, slot in enumerate(plan) if slot.side == side),
                      key=lambda i: (plan[i].zone is not None, rank[i]))
        for position in range(at.slot if at else 0, len(mine)):
            at = None
            index = mine[position]
            slot = plan[index]
            unit_type = ctx.rules.unit_type(slot.unit)
            unit = new_unit(ids[index], slot.unit, side, slot.at or slot.box or "offmap", _hides(ctx, side),
                            unit_type.dummy)
            if slot.zone is not None:
                # A cell no counter stands in takes the counter (its zone cells are the type's): only
                # the occupied ones are asked about.
                options = _place_options(ctx, unit, slot, unit_type, groups, standing)
                if slot.may_hold:
                    options = [*options, Action("place", (unit.id, slot.may_hold))]
                if not options:
                    cell = yield from _make_room(ctx, unit, slot, groups, chosen)
                    if cell is None:
                        continue
                    unit = evolve(unit, location=cell)
                else:
                    # Resumable: nothing is logged or changed before the question, and what set-up
                    # has done so far is in the state and in ``SetupAt`` (kept on ``ctx.setup_at``).
                    ctx.setup_at = (made, side_index, position, groups, chosen)
                    # Without ``may hold`` the options are the zone's cells in ``arg_key`` order: sorted already.
                    action = yield from ctx.choose(side, "setup", f"place {unit.id} {unit_type.label}", options,
                                                   in_order=not slot.may_hold, resume=True)
                    ctx.setup_at = None
                    unit = evolve(unit, location=action.args[1])
                chosen.add(unit.id)
            groups[unit.id] = slot.group
            ctx.state = ctx.state.with_added_unit(unit)
            if unit.on_map:
                ctx.say(f"{ctx.label(unit, side)} set up at {unit.location}", kind="setup", unit=unit.id,
                        cell=unit.location, side=side)
            else:
                ctx.say(f"{ctx.label(unit, side)} starts in the {unit.location}", kind="setup", unit=unit.id,
                        cell=unit.location, side=side)
    if ctx.scenario.arrivals:  # counters that enter play later wait on the turn track
        from .procedures.arrivals import schedule_arrivals

        schedule_arrivals(ctx, numbered, {s: _short(ctx, s) for s in ctx.rules.sides},
                          {s: _hides(ctx, s) for s in ctx.rules.sides})
    ids = [u.id for u in ctx.state.units]
    if not all(map(lt, ids, ids[1:])):  # (units order by id first: in order already, the state keeps its indexes)
        ctx.state = replace(ctx.state, units=tuple(sorted(ctx.state.units)))


def _make_room(ctx: Context, unit: Unit, slot: _Slot, groups: dict[str, str], chosen: set[str]) -> Flow:
    """No cell of its zone has room for ``unit``: its owner picks the counter that goes to the
    scenario's ``unplaced`` area instead, this one or one it set up in the zone earlier whose
    cell would then take this one (that counter's cell is returned); ``None`` when this one goes.

    Counters set up at fixed cells or in boxes are the scenario's, never offered; with no other
    candidate the counter goes without a question."""
    side, where = unit.side, ctx.scenario.unplaced
    unit_type = ctx.rules.unit_type(unit.type)
    room: dict[str, str] = {}  # a candidate's id -> its cell, which takes ``unit`` once it leaves
    for cell in _holding_cells(ctx, side, zone_cells(ctx, slot.zone, unit_type), slot.zone.holding):
        here = ctx.state.units_at(cell)
        for other in here:
            rest = [u for u in here if u.id != other.id]
            if other.id in chosen and other.side == side and _fits(ctx, unit, rest, slot.per_cell) and \
                    _group_room(rest, slot, groups):
                room.setdefault(other.id, cell)
    leaving = unit
    if room:
        options = [Action("excess", (unit.id,)), *(Action("excess", (i,)) for i in sorted(room))]
        action = yield from ctx.choose(side, "setup", f"no cell of its zone has room for {unit.id} "
                                       f"{unit_type.label}: choose the counter that starts in the {where}", options)
        if action.args[0] != unit.id:
            leaving = ctx.state.unit(action.args[0])
            ctx.update_unit(evolve(leaving, location=where))
            chosen.discard(leaving.id)
    ctx.say(f"{ctx.label(leaving, side)} starts in the {where}: no cell of its zone has room", kind="setup",
            unit=leaving.id, cell=where, side=side)
    if leaving is unit:
        ctx.state = ctx.state.with_added_unit(evolve(unit, location=where))
        return None
    return room[leaving.id]


def _planned(ctx: Context) -> SetupPlan:
    """The slots (``_plan``, draws rolled), each counter's id and its place in its side's order."""
    from .rng import choice_rng

    plan = _plan(ctx)
    ids: dict[int, str] = {}
    rank: dict[int, int] = {}  # each slot's place in its side's placing order
    numbered: dict[str, int] = {}  # how many ids each side's set-up gives (arrivals are numbered after)
    for side in ctx.rules.sides:
        mine = [i for i, slot in enumerate(plan) if slot.side == side]
        if _hides(ctx, side):
            choice_rng(ctx.seed, f"ids:{side}").shuffle(mine)
        width = len(str(len(mine)))
        numbered[side] = len(mine)
        for n, index in enumerate(mine, start=1):
            ids[index] = f"{_short(ctx, side)}{n:0{width}d}"
            rank[index] = n if _hides(ctx, side) else index
    return SetupPlan(tuple(plan), ids, rank, numbered)


# --- options decided before play -----------------------------------------------------------


def _choose_options(ctx: Context) -> Flow:
    settings: dict[str, bool] = {}
    agreed = dict(ctx.scenario.agreed)
    for name, side in ctx.scenario.choices:
        decl = ctx.rulebook.get("option", name)
        ctx.acting = side
        if name in agreed:  # the players settled it before play: the side is not asked
            on = agreed[name]
            ctx.say(f"{decl.display} is {'in force' if on else 'not used'}, as the players agreed (option {name})",
                    kind="option", option=name, on=on, side=side, agreed=True)
        else:
            action = yield from ctx.choose(side, "option", f"before play: {decl.display}?",
                                           [Action("option", (name, "on")), Action("option", (name, "off"))])
            on = action.args[1] == "on"
            settings[name] = on
            ctx.say(f"{ctx.shown('side', side)} {'chooses' if on else 'declines'} {decl.display} (option {name})",
                    kind="option", option=name, on=on, side=side)
        if on:
            target = Target(Where.OPTION, decl, side, decl.display)
            for effect in ctx.rules.effects(decl):
                yield from carry_out(ctx, effect, target)
    if settings:
        ctx.rulebook, ctx.rules = ctx.scenario.rules_for(settings)
        ctx.settings = tuple(sorted(settings.items()))


# --- the plan: one slot per counter ---------------------------------------------------------


def _plan(ctx: Context) -> list[_Slot]:
    plan: list[_Slot] = []
    for p in ctx.scenario.setup:
        if p.requires_option and not option_on(ctx, p.requires_option):
            continue
        common = {"side": p.side, "unit": p.unit, "per_cell": p.per_cell, "group": p.group,
                  "group_per_cell": p.group_per_cell, "may_hold": p.may_hold}
        if p.cells:
            plan.extend(_Slot(at=cell, **common) for cell in p.cells)
        else:
            plan.extend(_Slot(at=p.at, box=p.box, zone=p.zone, **common) for _ in range(p.count))
    for draw in ctx.scenario.draws:
        picked, rest = _draw(ctx, draw)
        plan.extend(_Slot(draw.side, unit, zone=draw.zone_for(unit), per_cell=draw.per_cell,
                          group=f"draw {draw.line}") for unit in picked)
        if draw.rest is not None:
            plan.extend(_Slot(draw.side, unit, box=draw.rest) for unit in rest)
    return plan


def _draw(ctx: Context, draw) -> tuple[list[str], list[str]]:
    """Pick ``count`` counters (then ``rest_count`` more, for the box) at random from the mix."""
    pool = [unit for unit, number in draw.mix for _ in range(number)]
    wanted = draw.count + (len(pool) - draw.count if draw.rest_count is None else draw.rest_count)
    picked: list[str] = []
    for n in range(1, wanted + 1):
        if len(pool) == 1:
            picked.append(pool.pop())
            continue
        what = "to place" if n <= draw.count else f"for the {draw.rest}"
        face = ctx.roll(Dice(1, len(pool)), f"set-up draw for {draw.side}: counter {n} of {wanted} ({what}), "
                                           f"from {len(pool)} left")
        picked.append(pool.pop(face - 1))
    on_map, rest = picked[: draw.count], picked[draw.count:]
    # The text names no type: a face-down side's draw is its secret (the data keeps it for replays).
    ctx.say(f"{ctx.shown('side', draw.side)} draws {draw.count} of {len(on_map) + len(rest) + len(pool)} counters "
            "at random", kind="setup", side=draw.side, drawn=on_map)
    return on_map, rest


# --- where a counter may go ------------------------------------------------------------------


def _start_resources(ctx: Context):
    declared = {(s, r): v for s, r, v in ctx.scenario.resources}
    for side in ctx.rules.sides:
        for resource in ctx.rules.resources:
            yield side, resource, Fraction(declared.get((side, resource), 0))


def _hides(ctx: Context, side: str) -> bool:
    rule = ctx.rules.side_rules.get(side)
    return rule is not None and rule.face_down


def _place_options(ctx: Context, unit: Unit, slot: _Slot, unit_type, groups: dict[str, str],
                   standing: dict) -> Sequence[Action]:
    """``place UNIT CELL`` for each cell of the slot's zone (in order) the counter may be placed
    in (a ``Batch`` when the zone is open: made only when read): a cell no counter stands in when
    its group may stand anywhere at all, an occupied one by ``_group_room`` and ``_may_stand``.  A
    zone has many more cells than there are counters, so when the whole zone is open only the
    occupied cells are asked about."""
    zone = zone_cells(ctx, slot.zone, unit_type)
    occupied = ctx.state.units_by_cell()
    room = slot.group_per_cell is None or slot.group_per_cell > 0
    if room and not slot.zone.holding and len(occupied) < len(zone):
        # Only the occupied cells of the zone are asked about (the zone's static cells, found when the
        # scenario was read: a cell the type may not enter is not in ``zone`` whatever the answer).
        allowed = slot.zone.allowed
        inside = occupied.keys() & allowed if allowed is not None else \
            [c for c in occupied if slot.zone.contains(ctx.board, c)]
        barred = {c for c in inside if not (
            _group_room(occupied[c], slot, groups) and _may_stand(ctx, unit, c, slot.per_cell, standing))}
        return Batch("place", unit.id, tuple([c for c in zone if c not in barred] if barred else zone))
    zone = _holding_cells(ctx, unit.side, zone, slot.zone.holding)
    return [Action("place", (unit.id, c)) for c in zone
            if (room if c not in occupied else _group_room(ctx.state.units_at(c), slot, groups)
                and _may_stand(ctx, unit, c, slot.per_cell, standing))]


def _holding_cells(ctx: Context, side: str, cells: tuple[str, ...], selectors: tuple[str, ...]) -> list[str]:
    """Those of ``cells`` (in their order) holding a counter of ``side`` that one of ``selectors``
    names; all of them when none are given.  Found from the side's counters on the map, not cell by
    cell: a zone has many more cells than the side has counters."""
    if not selectors:
        return list(cells)
    named = ctx.rules.types_matching(tuple(selectors))
    held = {u.location for u in ctx.state.units_of(side) if u.type in named}
    return [c for c in cells if c in held]


def _group_room(here, slot: _Slot, groups: dict[str, str]) -> bool:
    """Whether a counter of ``slot``'s group may join the counters ``here`` (``group_per_cell``)."""
    if slot.group_per_cell is None:
        return True
    return sum(1 for u in here if groups.get(u.id) == slot.group) < slot.group_per_cell


def zone_cells(ctx: Context, zone, unit_type) -> tuple[str, ...]:
    """The cells of a zone a unit type may stand in, in the order a decision lists them (``arg_key``,
    so its options need no sorting): what no placement changes, found once per rules, map, zone and
    type (``MapMemos.setup_cells``: the zone's cells and the type's terrain are the map's)."""
    memo = map_memos(ctx.rules, ctx.board).setup_cells
    key = (zone, unit_type.name)
    found = memo.get(key)
    if found is None:
        board = ctx.board
        cells = zone.allowed if zone.allowed is not None else [c for c in board.cells if zone.contains(board, c)]
        if unit_type.kind != "marker":  # a marker may stand anywhere; a unit where its cost table lets it
            from .costs import cost_table

            table = cost_table(ctx.rules, board, unit_type.name)
            cells = table.cost.keys() & cells
            if table.must_end is not None:
                cells &= table.must_end
        found = memo[key] = share(ctx.rules, board, tuple(sorted(cells, key=arg_key)))
    return found


def _may_stand(ctx: Context, unit: Unit, cell: str, per_cell: int | None, memo: dict | None = None) -> bool:
    """What set-up changes: no enemy counter, within stacking, one-per-cell and ``per_cell``.

    ``memo`` keeps answers by the cell's counters (the state's tuple for the cell, the same object
    while no counter comes or goes there), the unit's type and side and ``per_cell``: set-up asks
    of every cell of a zone for every counter, and only the cell last placed in has changed."""
    here = ctx.state.units_at(cell)
    if not here:
        return True
    if memo is not None:
        key = (cell, unit.type, unit.side, per_cell)
        known = memo.get(key)
        if known is not None and known[0] is here:
            return known[1]
        answer = _may_stand(ctx, unit, cell, per_cell)
        memo[key] = (here, answer)
        return answer
    return _fits(ctx, unit, here, per_cell)


def _fits(ctx: Context, unit: Unit, here, per_cell: int | None) -> bool:
    """Whether ``unit`` may stand with the counters ``here`` (``_may_stand``'s rules)."""
    if any(u.side != unit.side for u in here):
        return False
    if per_cell is not None and sum(1 for u in here if u.side == unit.side) >= per_cell:
        return False
    if ctx.rules.unit_type(unit.type).one_per_cell and any(u.type == unit.type for u in here):
        return False  # a marker declared 'one per cell'
    # Every stacking rule, whenever the rulebook checks it: set-up is within the limits, even
    # where play checks them only at the end of phases.  (No counter of another side is here.)
    return within_every_rule(ctx.rules, [*here, unit])


def apply_turn_modifiers(ctx: Context) -> None:
    """Add the scenario's ``[[turn_modifier]]`` entries for this turn to ``GameState.turn_modifiers``
    (called at the start of each turn; the turn's end clears them)."""
    turn = ctx.state.turn
    due = [(m.side, m.what, m.amount) for m in ctx.scenario.turn_modifiers if m.first <= turn <= m.last]
    if due:
        ctx.state = evolve(ctx.state, turn_modifiers=tuple(sorted((*ctx.state.turn_modifiers, *due))))
        for side, what, amount in due:
            ctx.say(f"turn {turn}: {ctx.shown('side', side)} {what} {amount:+d} (scenario)", kind="modifier",
                    side=side, what=what, amount=amount)
