"""The move phase: ``do move [only WHO…] [using CLASS] [order by FACTOR ascending|descending]``.

Every counter on the map that may move does so once, one at a time: ordered by
the factor (``order by motivation ascending``: motivation 1 first, MOVEMENT),
then by player order, then by unit id.  Its owner chooses ``move UNIT CELL``
among the cells ``interpreter.movement`` allows, or ``stay UNIT``.  The unit
then walks the canonical path cell by cell, and on the way:

- a marker that stops it (a booby trap's ``effect stop opponent``), seen or not,
  ends the move in its cell and adds ``trap`` to the unit's ``spent`` flags, for
  the ``trigger`` procedure that follows; where the side's stack in that cell is
  already full (a limit checked on moves), the unit halts instead in the last cell
  of its path before it where it may stand, and the marker is turned face up;
- enemy units on WATCH orders adjacent to the cell just entered may fire at it
  (``interpreter.procedures.watch_fire``).  A unit eliminated or retreated by the
  fire stops.

A carrier's move (a type that ``carries N units``) is a series of legs with pickups and
set-downs (``interpreter.procedures.transport``).

Readings (each a choice the rules leave open):

- **Who moves.**  Units and dummies on the map, except a type that ``never
  moves``/``needs transport`` or has no points, and a unit whose mode or status ``forbids
  move``, or that stands in an enemy zone that ``locks units in it`` as the phase
  begins.  Other markers never move here.  A unit whose only choice would be
  ``stay`` is not asked.  In a phase for one side (``side …``, ``for each side``:
  ``ctx.acting``) only its counters move; in a ``mutual`` one every side's do.
- **Units without the factor** (air units print no motivation) move after all
  the others.  **Dummies** move like units, as any unit type of their side could
  (``movement.proxies``), so they keep hiding the real counters; as they print
  no factor, a dummy is offered in the first batch and its owner may ``wait UNIT``
  to move it in a later batch instead, so the order of moves never tells a dummy
  from a unit either.
- **Phase-scoped movement.**  ``only WHO…`` moves only the counters it names (a dummy moves
  when it names a unit type of the dummy's side, and as those types only, so it still passes for
  one).  ``using CLASS`` moves each counter as that movement class instead of its own, for this
  phase: the class's points, ``cell cost``, ``crosses only``, ``avoids`` … and the terrain's
  ``cost … for CLASS`` lines (``Rules.moving_as``); a carrier then moves alone, carrying nothing,
  and a type whose own class ``never moves`` does not move.
- **Points left.**  A unit's unused points stay with it for the phase (``stay``
  keeps them all); stopping in a zone or on a marker, a zone-to-zone step, and
  being carried leave none.
- **Arrivals.**  ``bringing in arrivals``: once the counters on the map have moved, the side's
  scheduled arrivals due now enter and move on (``interpreter.procedures.entering``).
- **Infiltration.**  The counters a turn to move left elsewhere (a carrier and its
  cargo too) score an ``award … on infiltrated`` (``interpreter.infiltration``).
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial
from typing import NamedTuple

from ...dsl.compiled.calls import Move
from ..flags import TRAP
from .. import movement as mv
from ..actions import Action, Batch, action as option
from ..caches import board_cache, rules_cache
from ..citations import cite
from ..context import Context, Flow, arg_key
from ..control import passed
from ..costs import allowance, cost_table
from ..exits import exit_cell, exits_for, step_off
from . import procedure
from ..infiltration import infiltrate_moved, infiltration_awards, standing
from ..modes import mode_forbids
from ..status_effects import status_forbids
from ..situation import stop_markers
from ..stacking import stacking_problem
from ..state import Unit, replace, unit_moved_to, unit_with_spent
from ..zones import is_counter, locking_zone, zone_rules
from .entering import bring_in
from .transport import Transport
from .watch_fire import WatchFire

FULL = "full"
"""Points left of a unit that has not spent any this phase (``movement.search`` reads it)."""
ZERO = Fraction(0)
MOVED = "moved"
_JUST_MOVED = frozenset({MOVED})
"""The spent flags of a unit that has done nothing else this phase but move: one set for them all."""


def _with_moved(spent: frozenset[str]) -> frozenset[str]:
    """``spent`` with ``moved`` in it."""
    if not spent:
        return _JUST_MOVED
    return spent if MOVED in spent else spent | _JUST_MOVED


@procedure("move")
def move(ctx: Context, call: Move) -> Flow:
    """Carry out ``do move …``: every counter that may move, in order."""
    yield from MovePhase(ctx, call).run()


class MoveProgress(NamedTuple):
    """Where a ``do move`` stands at a unit's move decision, beside the state: what a checkpoint
    keeps so that the phase, started again, asks that unit at once (``interpreter.checkpoint``)."""

    batches: tuple[tuple[str, ...], ...]
    floating: frozenset[str]
    batch: int
    """The index of the batch moving."""
    order: tuple[str, ...]
    """That batch's counters (and those waiting from earlier ones) in the order they move."""
    index: int
    """The index in ``order`` of the counter asked."""
    waiting: tuple[str, ...]
    left: tuple[tuple[str, Fraction | None | str], ...]
    done: frozenset[str]
    locked: frozenset[str]
    fired: frozenset[str]
    carried: frozenset[str]


class MovePhase:
    """One ``do move``: the order, the points each unit has left, and each unit's move and walk; who
    has fired is its ``watch_fire``'s, who was carried its ``transport``'s."""

    def __init__(self, ctx: Context, call: Move):
        self.ctx = ctx
        self.call = call
        self.side = ctx.acting  # whose counters move: None in a mutual phase
        self.factor, self.descending = call.factor, call.descending
        self.only, self.using = call.only, call.using
        self.left: dict[str, Fraction | None | str] = {}
        self.done: set[str] = set()
        self.watch_fire = WatchFire(ctx)
        self.transport = Transport(self)
        self.rank = _cell_rank(ctx.board)
        self.types_moving: dict[tuple, bool] = rules_cache(ctx.rules).setdefault("may_move", {})
        """Whether a type moves, by (type, side, ``only``, ``using``): shared by every move phase of the rules."""
        self.walk_can_stop = _walk_can_stop(ctx.rules)
        self.resumed = ctx.take_progress(MoveProgress)
        """The progress a checkpoint recorded when this phase starts again at a move decision."""
        if self.resumed is not None:
            self.left, self.done = dict(self.resumed.left), set(self.resumed.done)
            self.watch_fire.fired, self.transport.carried = set(self.resumed.fired), set(self.resumed.carried)
        self.locked = self.resumed.locked if self.resumed is not None else \
            frozenset(u.id for u in ctx.state.units if locking_zone(ctx, u) is not None) \
            if any(z.locks for z in zone_rules(ctx.rules)) else frozenset()
        """Counters in an enemy zone that ``locks units in it`` as the phase begins: they do not move."""
        self.at: tuple = ()
        """(batch, order, index, waiting) of the counter ``run`` asks now (``progress``)."""

    # --- order ----------------------------------------------------------------------------------

    def _value(self, unit: Unit) -> Fraction | None:
        if self.factor is None:
            return ZERO
        value = self.ctx.rules.factor(unit, self.factor)
        return Fraction(value) if isinstance(value, (int, Fraction)) else None

    def _key(self, unit_id: str) -> tuple:
        unit = self.ctx.state.unit(unit_id)
        order = self.ctx.player_order
        return (order.index(unit.side) if unit.side in order else len(order), unit.id)

    def _batches(self) -> tuple[list[list[str]], set[str]]:
        """Unit ids in batches of equal factor (the unordered last); and the dummies that may wait."""
        if self.factor is None:
            # No ``order by``: every counter that moves is in one batch (and none floats).
            movers = [unit.id for unit in self.ctx.state.units if self.may_move(unit)]
            return ([movers] if movers else []), set()
        values: dict[str, Fraction | None] = {}
        floating = set()
        for unit in self.ctx.state.units:
            if not self.may_move(unit):
                continue
            value = self._value(unit)
            unit_type = self.ctx.rules.unit_type(unit.type)
            if value is None and unit_type.dummy:
                floating.add(unit.id)
                continue
            values[unit.id] = value
        ordered = sorted({v for v in values.values() if v is not None}, reverse=self.descending)
        batches = [[uid for uid, v in values.items() if v == value] for value in ordered]
        last = [uid for uid, v in values.items() if v is None]
        if last:
            batches.append(last)
        if floating:
            if not batches:
                batches.append([])
            batches[0].extend(floating)
        return batches, floating

    def may_move(self, unit: Unit) -> bool:
        """Whether a counter moves in this phase at all (see the module docstring)."""
        if not unit.location[:1].isdigit() or (self.side is not None and unit.side != self.side) or \
                (unit.mode and mode_forbids(self.ctx, unit, "move")) or \
                (unit.status and status_forbids(self.ctx, unit, "move")) or \
                unit.id in self.locked:
            return False
        return self.type_moves(unit)

    def type_moves(self, unit: Unit) -> bool:
        """Whether a counter of ``unit``'s type and side moves in this phase (``only``, ``using``, points)."""
        # What a type may do: the side matters for a dummy's proxies, as do `only` and `using`.
        key = (unit.type, unit.side, self.only, self.using)
        found = self.types_moving.get(key)
        if found is None:
            rules = self.ctx.rules
            unit_type = rules.unit_type(unit.type)
            found = self.types_moving[key] = is_counter(unit_type) and self._named(unit_type, unit.side) and any(
                allowance(rules, rules.unit_type(t)) != 0 for t in mv.proxies(rules, unit, self.using, self.only))
        return found

    def _named(self, unit_type, side: str) -> bool:
        """Whether ``do move only WHO…`` lets a counter of this type move: ``WHO`` names it, or it is
        a dummy and names a unit type of its side (a dummy passes for any of them)."""
        if not self.only or unit_type.matches(self.only):
            return True
        return unit_type.dummy and any(t.kind == "unit" and t.side == side and t.matches(self.only)
                                       for t in self.ctx.rules.unit_types.values())

    def mover_type(self, unit: Unit) -> str:
        """The type ``unit`` moves as in this phase: its own, or as the ``using`` class."""
        return unit.type if self.using is None else self.ctx.rules.moving_as[unit.type, self.using]

    # --- the phase --------------------------------------------------------------------------------

    def run(self) -> Flow:
        saved = self.resumed
        if saved is None:
            found, floating = self._batches()
            batches = tuple(map(tuple, found))
            first, order, start, waiting = 0, None, 0, []
        else:  # started again at a checkpoint: the unit asked then is asked again first
            batches, floating, first = saved.batches, saved.floating, saved.batch
            order, start, waiting = saved.order, saved.index, list(saved.waiting)
        # (Whether a unit's move may score an infiltration is the rules', the same all phase.)
        infiltrating = bool(infiltration_awards(self.ctx))
        for number in range(first, len(batches)):
            later = number + 1 < len(batches)
            if order is None:
                order = tuple(sorted({*batches[number], *waiting}, key=self._key))
            for index in range(start, len(order)):
                uid = order[index]
                if uid in self.done:
                    continue
                unit = self.ctx.state.unit(uid)
                if not self.may_move(unit):
                    continue
                before = standing(self.ctx, unit.side) if infiltrating else None
                if self.ctx.rules.unit_type(unit.type).carries and self.using is None:
                    yield from self.transport.fly(unit)  # (under `using` a carrier moves alone)
                else:
                    self.at = (batches, floating, number, order, index, waiting)
                    waits = yield from self.move_unit(unit, may_wait=later and uid in floating, resume=True)
                    if waits:
                        waiting.append(uid)
                    elif uid in waiting:
                        waiting.remove(uid)
                if before is not None:
                    yield from infiltrate_moved(self.ctx, before)
            waiting = [uid for uid in waiting if uid not in self.done]
            order, start = None, 0
        if self.call.bringing:
            yield from bring_in(self)

    def progress(self) -> MoveProgress:
        """This phase's progress at the move decision ``run`` asks now, as data (``MoveProgress``)."""
        batches, floating, number, order, index, waiting = self.at
        return MoveProgress(batches, frozenset(floating), number, order, index, tuple(waiting),
                            tuple(self.left.items()), frozenset(self.done), self.locked,
                            frozenset(self.watch_fire.fired), frozenset(self.transport.carried))

    def finish(self, unit_id: str) -> None:
        """``unit_id`` has had its turn to move this phase (and is flagged ``moved``)."""
        self.done.add(unit_id)
        unit = self.ctx.state.unit(unit_id)
        if MOVED not in unit.spent:
            self.ctx.update_unit(unit_with_spent(unit, _with_moved(unit.spent)))

    def _order_text(self) -> str:
        if self.factor is None:
            return "one unit at a time"
        way = "descending" if self.descending else "ascending"
        return f"one unit at a time by {self.factor} {way}"

    def not_your_turn(self, action: Action, unit_id: str) -> str | None:
        """Why ``action`` is not a move of ``unit_id``, the counter whose turn it is (``None`` when it is)."""
        if action.args[:1] != (unit_id,):
            where = cite(None, self.call.source)
            return f"{unit_id} moves now ({self._order_text()}{', ' + where if where else ''})"
        return None

    # --- points left ------------------------------------------------------------------------------

    def points_left(self, unit_id: str) -> Fraction | None | str:
        """The points ``unit_id`` has left this phase, as ``movement.search`` takes them (``FULL``
        until it spends any, ``None``: unlimited)."""
        return self.left.get(unit_id, FULL)

    def points_in_hand(self, unit: Unit) -> Fraction | None:
        """The points ``unit`` has left as a number: its whole allowance (this turn's and weather's,
        ``allowance … when``) until it spends any."""
        left = self.left.get(unit.id, FULL)
        if left != FULL:
            return left
        ctx = self.ctx
        return cost_table(ctx.rules, ctx.board, self.mover_type(unit), ctx.state.turn, ctx.state.weather).allowance

    def walked(self, unit_id: str, reach: mv.Reach, dest: str, cut: bool) -> None:
        """Keep what a move to ``dest`` left ``unit_id``: nothing when its walk was cut short."""
        self.left[unit_id] = ZERO if cut else reach.points_left(dest)

    def use_up(self, unit_id: str) -> None:
        """``unit_id`` has no points left this phase (it boarded a carrier)."""
        self.left[unit_id] = ZERO

    # --- one unit ------------------------------------------------------------------------------------

    def move_unit(self, unit: Unit, may_wait: bool = False, resume: bool = False) -> Flow:
        """Ask the owner where ``unit`` goes and walk it there.  Returns whether it waits instead.
        ``resume``: ``run`` asks, and can start again at this decision (``progress``)."""
        ctx, uid = self.ctx, unit.id
        points = self.left.get(uid, FULL)
        reach = mv.reach(ctx, unit, points, using=self.using, only=self.only)
        # Already in ``choose``'s order: one unit's moves by cell, then stay, then wait.
        cells = sorted(reach.ends) if self.rank is None else sorted(reach.ends, key=self.rank.__getitem__)
        args = (uid,)
        after = (option("stay", args), option("wait", args)) if may_wait else (option("stay", args),)
        ways_off = self.ways_off(unit, reach) if ctx.rules.exits else {}
        exits = tuple([option("exit", (uid, name)) for name in ways_off]) if ways_off else ()
        if not cells and not exits and len(after) == 1:  # stay alone: nothing to ask
            self.finish(uid)
            return False
        options = Batch("move", uid, tuple(cells), exits, after)

        why_not = partial(self.why_not_move, uid, ways_off, may_wait, points)
        action = yield from ctx.choose(unit.side, "move", f"move {ctx.label(unit, unit.side)} at {unit.location} "
                                       f"({mv.show_points(reach.points)})", options, why_not, in_order=True,
                                       resume=resume, progress=self.progress if resume else None)
        if action.kind == "wait":
            return True
        if action.kind == "stay":
            self.finish(uid)
            return False
        if action.kind == "exit":
            yield from self.exit_map(unit, reach, *ways_off[action.args[1]])
            return False
        dest = action.args[1]
        if not self.walk_can_stop:
            # It arrives already ``moved`` (what ``walk`` then ``finish`` give), in one state change.
            self.left[uid] = reach.points_left(dest)
            if ctx.rules.control is not None:
                passed(ctx, unit, reach.path(dest)[1:-1])  # the cells on the way change hands (``control``)
            self.say_moved(unit, reach, dest, self._arrive(uid, dest))
            self.done.add(uid)
            return False
        final, cut = yield from self.walk(unit, reach.path(dest))
        self.walked(uid, reach, dest, cut)
        self.say_moved(unit, reach, final)
        self.finish(uid)
        return False

    def why_not_move(self, uid: str, ways_off: dict[str, tuple], may_wait: bool, points: Fraction | None | str,
                action: Action) -> str | None:
        """Why ``action`` is not one of the moves ``move_unit`` offers ``uid`` (``None``: it is);
        ``partial`` binds all but ``action`` (a closure made its cells at every move)."""
        ctx = self.ctx
        other = self.not_your_turn(action, uid)
        if action.kind == "exit" and not other:
            return None if action.args[1:] and action.args[1] in ways_off else \
                f"{uid} cannot exit the map that way now (it exits by {', '.join(ways_off) or 'none'})"
        if other or action.kind not in ("move", "stay", "wait"):
            return other or f"{action.kind!r} is not a move: move {uid} CELL, or stay {uid}"
        if action.kind == "wait":
            return "only a dummy, which prints no order factor, may wait for a later batch" if not may_wait \
                else None
        if action.kind == "move" and len(action.args) == 2:
            return mv.explain(ctx, ctx.state.unit(uid), action.args[1], points, using=self.using, only=self.only)
        return None

    def ways_off(self, unit: Unit, reach: mv.Reach) -> dict[str, tuple]:
        """The exits ``unit`` may take now (``interpreter.exits``), by name: each with its rule and the
        cell it steps off from."""
        out = {}
        for rule in exits_for(self.ctx.rules, unit):
            cell = exit_cell(self.ctx, rule, unit.location, reach.ends, self.points_in_hand(unit), reach.points_left)
            if cell is not None:
                out[rule.name] = (rule, cell)
        return out

    def exit_map(self, unit: Unit, reach: mv.Reach, rule, cell: str) -> Flow:
        """Walk ``unit`` to ``cell`` and, if nothing stops it there, step it off the map by ``rule``."""
        uid = unit.id
        if cell != unit.location:
            final, cut = yield from self.walk(unit, reach.path(cell))
            self.walked(uid, reach, cell, cut)
            self.say_moved(unit, reach, final)
            if cut or final != cell:
                self.finish(uid)
                return
        step_off(self.ctx, self.ctx.state.unit(uid), rule)
        self.done.add(uid)

    def say_moved(self, unit: Unit, reach: mv.Reach, final: str, now: Unit | None = None) -> None:
        """Log that ``unit`` moved from where it started to ``final`` (nothing when it did not)."""
        ctx = self.ctx
        if now is None:
            now = ctx.state.unit(unit.id)
        if final == unit.location or not now.location[:1].isdigit():  # (``on_map``, inline)
            return
        cost = reach.ends.get(final)
        spent = f" ({mv.show_points(cost)})" if cost is not None and reach.points is not None else ""
        ctx.say(f"{ctx.label(now)} moves {unit.location} → {final}{spent}", kind="move", unit=unit.id,
                start=unit.location, cell=final, side=unit.side)

    def _arrive(self, unit_id: str, cell: str) -> Unit:
        """A move nothing can act on (``walk_can_stop`` is false) ends the unit's turn to move: it
        arrives, already ``moved``, in one state change (the state ``walk`` and ``finish`` give).
        Returns the unit as it now is."""
        now = self.ctx.state.unit(unit_id)
        now = unit_moved_to(now, cell, _with_moved(now.spent))
        self.ctx.update_unit(now)
        return now

    def walk(self, unit: Unit, path: tuple[str, ...]) -> Flow:
        """Move ``unit`` along ``path`` a cell at a time, springing markers and WATCH fire.

        Returns ``(where it is, whether the move was cut short)``.
        """
        ctx, uid = self.ctx, unit.id
        if len(path) > 1 and not self.walk_can_stop:
            # Nothing can act on the way: the unit arrives in one step (the same final state).
            passed(ctx, unit, path[1:-1])  # the cells on the way change hands as if entered (``control``)
            ctx.update_unit(replace(ctx.state.unit(uid), location=path[-1]))
            return path[-1], False
        for step, cell in enumerate(path[1:], start=1):
            current = ctx.state.unit(uid)
            markers = stop_markers(ctx, replace(current, location=cell), cell)
            if markers and stacking_problem(ctx, unit.side, cell, [current]) is not None:
                return self._halt_short(current, path[:step], cell, markers[0]), True
            current = replace(current, location=cell)
            ctx.update_unit(current)
            if markers:
                ctx.update_unit(replace(current, spent=current.spent | {TRAP}))
                ctx.say(f"{ctx.label(current)} must stop at {cell}: {ctx.label(markers[0])}", kind="trap",
                        unit=uid, cell=cell, marker=markers[0].id)
            yield from self.watch_fire.watch(uid, cell)
            current = ctx.state.unit(uid)
            if current.location != cell:
                return current.location, True
            if markers:
                return cell, cell != path[-1]
        return path[-1], False

    def _halt_short(self, unit: Unit, before: tuple[str, ...], cell: str, marker: Unit) -> str:
        """A marker in ``cell`` would stop ``unit`` where its side's stack is already full: the
        stacking limit holds, so the unit halts in the last cell of its path before it where it
        may stand (its start at worst), and the marker, found, is turned face up (it stops no one
        there, and the unit is not in its cell to be attacked).  Returns where the unit is."""
        ctx = self.ctx
        where = next((c for c in reversed(before[1:]) if stacking_problem(ctx, unit.side, c, [unit]) is None),
                     before[0])
        ctx.update_unit(replace(unit, location=where))
        if marker.hidden:
            ctx.update_unit(replace(ctx.state.unit(marker.id), hidden=False))
        ctx.say(f"{ctx.label(unit)} finds {ctx.label(ctx.state.unit(marker.id))} at {cell}, where its side's "
                f"stack is full, and halts at {where}", kind="trap", unit=unit.id, cell=where,
                marker=marker.id, found=cell)
        return where


def _walk_can_stop(rules) -> bool:
    """Whether anything may act while a unit walks its path: a mode that ``fires`` (WATCH) or a
    marker type (one may stop the mover).  Read once per compiled ``Rules`` (a rulebook never
    changes while its ``Rules`` lives); without either, ``walk`` moves a unit in one step."""
    cache = rules_cache(rules)
    found = cache.get("walk_can_stop")
    if found is None:
        found = cache["walk_can_stop"] = (
            any(m.fires_during_enemy_movement for m in rules.modes.values())
            or any(t.kind == "marker" and not t.dummy for t in rules.unit_types.values()))
    return found


def _cell_rank(board) -> dict[str, int] | None:
    """Every cell's place in the order ``Context.choose`` sorts cell arguments in (``arg_key``),
    built once per map, so a unit's move options are produced in order without a sort key each;
    ``None`` when that is the order of the ids as strings (ids of equally many digits), which
    sorting compares fastest."""
    cache = board_cache(board)
    if "cell_rank" not in cache:
        ordered = sorted(board.graph.nodes, key=arg_key)
        cache["cell_rank"] = None if ordered == sorted(ordered) else {cell: i for i, cell in enumerate(ordered)}
    return cache["cell_rank"]
