"""The move phase: ``do move [order by FACTOR ascending|descending]``.

Every counter on the map that may move does so once, one at a time: ordered by
the factor (``order by motivation ascending``: motivation 1 first, MOVEMENT),
then by player order, then by unit id.  Its owner chooses ``move UNIT CELL``
among the cells ``interpreter.movement`` allows, or ``stay UNIT``.  The unit
then walks the canonical path cell by cell, and on the way:

- a marker that stops it (a booby trap's ``effect stop opponent``), seen or not,
  ends the move in its cell and adds ``trap`` to the unit's ``spent`` flags, for
  the ``trigger`` procedure that follows;
- every enemy unit whose mode ``fires during enemy movement`` (WATCH) and that is
  adjacent to the cell just entered, and has not fired yet this phase, may fire
  at it: its owner chooses ``watch-fire WATCHER UNIT`` or ``hold WATCHER``; the
  fire is an ``interpreter.combat.resolve`` of the combat whose ``table`` is the
  one the mode's ``roll modifier … on TABLE`` names, with that modifier.  A
  target without the combat's defence factor (air units print no Defend) is not
  offered, unless it is face down to the watcher.  A unit eliminated or
  retreated by the fire stops.

Readings (each a choice the rules leave open):

- **Who moves.**  Units and dummies on the map, except a type that ``never
  moves``/``needs transport`` or has no points, and a unit whose mode ``forbids
  move``.  Other markers never move here.  A unit whose only choice would be
  ``stay`` is not asked.  In a phase for one side (``side …``, ``for each side``:
  ``ctx.acting``) only its counters move; in a ``mutual`` one every side's do.
- **Units without the factor** (air units print no motivation) move after all
  the others.  **Dummies** move like units, as any unit type of their side could
  (``movement.proxies``), so they keep hiding the real counters; as they print
  no factor, a dummy is offered in the first batch and its owner may ``wait UNIT``
  to move it in a later batch instead, so the order of moves never tells a dummy
  from a unit either.
- **Points left.**  A unit's unused points stay with it for the phase (``stay``
  keeps them all); stopping in a zone or on a marker, a zone-to-zone step, and
  being carried leave none.
- **Transport** (MOVEMENT: "The chopper moves to the designated hex, the ground
  unit then moves to rendezvous with the chopper and spends 1 movement point to
  board the chopper").  When a type that ``carries N units`` moves, its move is
  a series of legs.  Before a leg it may ``carry CARRIER UNIT``: a friendly unit
  whose movement class is ``transported by`` the carrier's class, whose mode
  forbids neither move nor transport, and that can reach the carrier's cell with
  its points left less the class's ``board cost``, walks there (WATCH and traps
  apply) and boards.  ``move CARRIER CELL`` flies a leg; the units aboard are set
  down at its end (never in a cell holding enemy counters; stacking counts them
  there).  A leg flown empty must be followed by a pickup, so a carrier makes at
  most two legs per unit carried ("make two runs carrying two separate units");
  a leg that ends where the carrier must stop ends its move.  ``carries N`` is
  read as N units per turn (the carrying example in MOVEMENT), counted by
  ``carried:UNIT`` turn flags; ``boarded`` and ``unboarded`` turn flags on the
  carrier tell the air-defence procedure it was exposed.
- **Infiltration.**  The counters a turn to move left elsewhere (a carrier and its
  cargo too) score an ``award … on infiltrated`` (``interpreter.infiltration``).
- **WATCH** fire is one watcher against the one entering unit, at most once per
  watcher per phase (``watch_fired`` in its ``spent`` flags).  When no combat
  module is importable no WATCH fire is offered.

Limits: a carried unit cannot be carried twice in a phase; a carrier does not
fly through the cell of a hidden marker it stops on without stopping (the move
is cut short there, cargo and all).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from ...dsl.model import Declaration, Property
from .. import movement as mv
from ..actions import Action
from ..caches import board_cache, rules_cache
from ..cells import adjacency
from ..citations import because, cite
from ..context import Context, Flow, arg_key
from ..costs import allowance, movement_class
from ..flow import procedure
from ..infiltration import infiltrate_moved, standing
from ..situation import stop_markers
from ..stacking import stacking_problem
from ..state import Unit, replace
from ..zones import is_counter

FULL = "full"
"""Points left of a unit that has not spent any this phase (``movement.search`` reads it)."""
ZERO = Fraction(0)
MOVED = "moved"


@procedure("move")
def move(ctx: Context, prop: Property) -> Flow:
    """Carry out ``do move …``: every counter that may move, in order."""
    yield from MovePhase(ctx, prop).run()


def _combat_resolver() -> Callable | None:
    try:
        from .. import combat
    except ImportError:
        return None
    return getattr(combat, "resolve", None)


class MovePhase:
    """One ``do move``: the order, the points each unit has left, who has fired and who was carried."""

    def __init__(self, ctx: Context, prop: Property):
        self.ctx = ctx
        self.prop = prop
        self.side = ctx.acting  # whose counters move: None in a mutual phase
        factor = prop.get("factor")
        self.factor = str(factor) if factor is not None else None
        self.descending = prop.has("descending")
        self.left: dict[str, Fraction | None | str] = {}
        self.done: set[str] = set()
        self.fired: set[str] = set()
        self.carried: set[str] = set()
        self.options = _move_options(ctx.board)
        self.rank = _cell_rank(ctx.board)
        self.types_moving: dict[tuple[str, str], bool] = rules_cache(ctx.rules).setdefault("may_move", {})
        self.walk_can_stop = _walk_can_stop(ctx.rules)

    # --- order ----------------------------------------------------------------------------------

    def _value(self, unit: Unit) -> Fraction | None:
        if self.factor is None:
            return ZERO
        value = self.ctx.rules.unit_type(unit.type).factor(self.factor)
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
        if not unit.on_map or (self.side is not None and unit.side != self.side) or \
                (unit.mode and _mode_forbids(self.ctx, unit, "move")):
            return False
        key = (unit.type, unit.side)  # what a type may do: the side matters for a dummy's proxies
        found = self.types_moving.get(key)
        if found is None:
            rules = self.ctx.rules
            found = self.types_moving[key] = is_counter(rules.unit_type(unit.type)) and any(
                allowance(rules, rules.unit_type(t)) != 0 for t in mv.proxies(rules, unit))
        return found

    # --- the phase --------------------------------------------------------------------------------

    def run(self) -> Flow:
        batches, floating = self._batches()
        waiting: list[str] = []
        for number, batch in enumerate(batches):
            later = number + 1 < len(batches)
            for uid in sorted({*batch, *waiting}, key=self._key):
                unit = self.ctx.state.unit(uid)
                if uid in self.done or not self.may_move(unit):
                    continue
                before = standing(self.ctx, unit.side)
                if self.ctx.rules.unit_type(unit.type).carries:
                    yield from self.fly(unit)
                else:
                    waits = yield from self.move_unit(unit, may_wait=later and uid in floating)
                    if waits:
                        waiting.append(uid)
                    elif uid in waiting:
                        waiting.remove(uid)
                if before is not None:
                    yield from infiltrate_moved(self.ctx, before)
            waiting = [uid for uid in waiting if uid not in self.done]

    def _finish(self, unit_id: str) -> None:
        self.done.add(unit_id)
        unit = self.ctx.state.unit(unit_id)
        if MOVED not in unit.spent:
            self.ctx.update_unit(replace(unit, spent=unit.spent | {MOVED}))

    def _order_text(self) -> str:
        if self.factor is None:
            return "one unit at a time"
        way = "descending" if self.descending else "ascending"
        return f"one unit at a time by {self.factor} {way}"

    def _not_your_turn(self, action: Action, unit_id: str) -> str | None:
        if action.args[:1] != (unit_id,):
            where = cite(None, self.prop)
            return f"{unit_id} moves now ({self._order_text()}{', ' + where if where else ''})"
        return None

    # --- one unit ------------------------------------------------------------------------------------

    def move_unit(self, unit: Unit, may_wait: bool = False) -> Flow:
        """Ask the owner where ``unit`` goes and walk it there.  Returns whether it waits instead."""
        ctx, uid = self.ctx, unit.id
        points = self.left.get(uid, FULL)
        reach = mv.reach(ctx, unit, points)
        # Already in ``choose``'s order: one unit's moves by cell, then stay, then wait.
        moves = self.options.get(uid)
        if moves is None:
            moves = self.options[uid] = {}
        cells = sorted(reach.ends) if self.rank is None else sorted(reach.ends, key=self.rank.__getitem__)
        get = moves.get
        options = [get(cell) or _move_option(moves, uid, cell) for cell in cells]
        options.append(get(None) or _move_option(moves, uid, None))
        if may_wait:
            options.append(Action("wait", (uid,)))
        if len(options) == 1:
            self._finish(uid)
            return False

        def why_not(action: Action) -> str | None:
            other = self._not_your_turn(action, uid)
            if other or action.kind not in ("move", "stay", "wait"):
                return other or f"{action.kind!r} is not a move: move {uid} CELL, or stay {uid}"
            if action.kind == "wait":
                return "only a dummy, which prints no order factor, may wait for a later batch" if not may_wait \
                    else None
            if action.kind == "move" and len(action.args) == 2:
                return mv.explain(ctx, ctx.state.unit(uid), action.args[1], points)
            return None

        action = yield from ctx.choose(unit.side, "move", f"move {ctx.label(unit, unit.side)} at {unit.location} "
                                       f"({mv.show_points(reach.points)})", options, why_not, in_order=True)
        if action.kind == "wait":
            return True
        if action.kind == "stay":
            self._finish(uid)
            return False
        dest = action.args[1]
        if not self.walk_can_stop:
            # It arrives already ``moved`` (what ``walk`` then ``_finish`` give), in one state change.
            self.left[uid] = reach.points_left(dest)
            self._say_moved(unit, reach, dest, self._arrive(uid, dest))
            self.done.add(uid)
            return False
        final, cut = yield from self.walk(unit, reach.path(dest))
        self.left[uid] = ZERO if cut else reach.points_left(dest)
        self._say_moved(unit, reach, final)
        self._finish(uid)
        return False

    def _say_moved(self, unit: Unit, reach: mv.Reach, final: str, now: Unit | None = None) -> None:
        ctx = self.ctx
        if now is None:
            now = ctx.state.unit(unit.id)
        if not now.on_map or final == unit.location:
            return
        cost = reach.ends.get(final)
        spent = f" ({mv.show_points(cost)})" if cost is not None and reach.points is not None else ""
        ctx.say(f"{ctx.label(now)} moves {unit.location} → {final}{spent}", kind="move", unit=unit.id,
                start=unit.location, cell=final, side=unit.side)

    def _arrive(self, unit_id: str, cell: str) -> Unit:
        """A move nothing can act on (``walk_can_stop`` is false) ends the unit's turn to move: it
        arrives, already ``moved``, in one state change (the state ``walk`` and ``_finish`` give).
        Returns the unit as it now is."""
        now = self.ctx.state.unit(unit_id)
        spent = now.spent if MOVED in now.spent else now.spent | {MOVED}
        now = replace(now, location=cell, spent=spent)
        self.ctx.update_unit(now)
        return now

    def walk(self, unit: Unit, path: tuple[str, ...]) -> Flow:
        """Move ``unit`` along ``path`` a cell at a time, springing markers and WATCH fire.

        Returns ``(where it is, whether the move was cut short)``.
        """
        ctx, uid = self.ctx, unit.id
        if len(path) > 1 and not self.walk_can_stop:
            # Nothing can act on the way: the unit arrives in one step (the same final state).
            ctx.update_unit(replace(ctx.state.unit(uid), location=path[-1]))
            return path[-1], False
        for cell in path[1:]:
            current = ctx.state.unit(uid)
            current = replace(current, location=cell)
            ctx.update_unit(current)
            markers = stop_markers(ctx, current, cell)
            if markers:
                ctx.update_unit(replace(current, spent=current.spent | {"trap"}))
                ctx.say(f"{ctx.label(current)} must stop at {cell}: {ctx.label(markers[0])}", kind="trap",
                        unit=uid, cell=cell, marker=markers[0].id)
            yield from self.watch(uid, cell)
            current = ctx.state.unit(uid)
            if current.location != cell:
                return current.location, True
            if markers:
                return cell, cell != path[-1]
        return path[-1], False

    # --- WATCH -------------------------------------------------------------------------------------------

    def _watch_combat(self, mode: Declaration) -> tuple[str, int] | None:
        """The combat a watching mode fires with (the one using the table its roll modifier names)."""
        modifier, table = 0, None
        for line in mode.all("roll"):
            modifier += line.get("modifier") or 0
            table = table or (str(line.get("table")) if line.get("table") is not None else None)
        combats = self.ctx.rulebook.of_kind("combat")
        if table is not None:
            combats = tuple(c for c in combats if c.first("table") and str(c.first("table").get("table")) == table)
        if not combats:
            return None
        chosen = next((c for c in combats if c.has("adjacent")), combats[0])
        return chosen.name, int(modifier)

    def watchers(self, mover: Unit, cell: str) -> list[Unit]:
        """Enemy units that may fire at ``mover`` for entering ``cell``, in player order then id."""
        ctx = self.ctx
        around = adjacency(ctx.board)[cell]
        out = []
        for unit in ctx.state.units:
            if unit.side == mover.side or not unit.on_map or unit.dummy or unit.id in self.fired:
                continue
            if unit.location not in around or not unit.mode:
                continue
            mode = ctx.rulebook.get("mode", unit.mode)
            if mode is None or not mode.has("fires") or _mode_forbids(ctx, unit, "attack"):
                continue
            out.append(unit)
        order = ctx.player_order
        return sorted(out, key=lambda u: (order.index(u.side) if u.side in order else len(order), u.id))

    def _may_be_fired_at(self, combat_name: str, target: Unit, watcher: Unit) -> bool:
        if target.hidden and target.side != watcher.side:
            return True  # the watcher sees a counter, not what it is
        combat = self.ctx.rulebook.get("combat", combat_name)
        line = combat.first("defence") if combat else None
        if line is None or line.get("factor") is None:
            return True
        return self.ctx.rules.unit_type(target.type).factor(str(line.get("factor"))) is not None

    def watch(self, mover_id: str, cell: str) -> Flow:
        """Offer WATCH fire at ``mover_id``, which has just entered ``cell``."""
        ctx = self.ctx
        mover = ctx.state.unit(mover_id)
        candidates = self.watchers(mover, cell)
        if not candidates:
            return
        resolve = _combat_resolver()
        if resolve is None:
            return
        for watcher in candidates:
            mover = ctx.state.unit(mover_id)
            watcher = ctx.state.unit(watcher.id)
            if mover.location != cell:
                return
            if not watcher.on_map or watcher.id in self.fired or not watcher.mode:
                continue
            mode = ctx.rulebook.get("mode", watcher.mode)
            found = self._watch_combat(mode)
            if found is None or not self._may_be_fired_at(found[0], mover, watcher):
                continue
            combat_name, modifier = found
            fire, hold = Action("watch-fire", (watcher.id, mover_id)), Action("hold", (watcher.id,))

            def why_not(action: Action, watcher_id=watcher.id, mode_decl=mode) -> str | None:
                if action.args[:1] != (watcher_id,):
                    return f"{watcher_id} is the unit that may fire now"
                if action.kind == "watch-fire" and action.args[1:] != (mover_id,):
                    return because(f"{watcher_id} may fire only at {mover_id}, which has just entered {cell}",
                                   mode_decl)
                return None

            action = yield from ctx.choose(
                watcher.side, "watch", f"{ctx.label(watcher, watcher.side)} ({mode.display}) may fire at "
                f"{ctx.label(mover, watcher.side)} entering {cell}", [fire, hold], why_not)
            if action.kind != "watch-fire":
                continue
            self.fired.add(watcher.id)
            ctx.update_unit(replace(watcher, spent=watcher.spent | {"watch_fired"}))
            reason = f"{mode.display} fire by {watcher.id} at {mover_id} entering {cell}"
            ctx.say(reason, kind="watch", unit=watcher.id, target=mover_id, cell=cell)
            yield from resolve(ctx, combat_name, [watcher], [mover], reason=reason, roll_modifier=modifier,
                               attacker_side=watcher.side)

    # --- transport ---------------------------------------------------------------------------------------

    def _capacity_left(self, carrier: Unit) -> int:
        capacity = self.ctx.rules.unit_type(carrier.type).carries
        return capacity - sum(1 for flag in carrier.turn_flags if flag.startswith("carried:"))

    def _board_cost(self, unit: Unit) -> Fraction:
        mclass = movement_class(self.ctx.rules, self.ctx.rules.unit_type(unit.type))
        line = mclass.first("board") if mclass is not None else None
        return Fraction(line.get("points")) if line is not None else Fraction(0)

    def why_not_carry(self, carrier: Unit, unit_id: str, cargo: list[str]) -> str | None:
        """Why ``carrier`` may not pick up ``unit_id`` now, or ``None`` when it may."""
        ctx, rules = self.ctx, self.ctx.rules
        try:
            unit = ctx.state.unit(unit_id)
        except KeyError:
            return f"there is no unit {unit_id!r}"
        carrier_type = rules.unit_type(carrier.type)
        if self._capacity_left(carrier) <= 0:
            decl = ctx.rulebook.get("unit", carrier.type)
            return because(f"{carrier.id} carries {carrier_type.carries} units a turn and has no room left", decl,
                           decl.first("carries") if decl else None)
        if unit.side != carrier.side or not unit.on_map or unit.id == carrier.id or unit.id in cargo:
            return f"{unit_id} is not a friendly unit on the map that {carrier.id} could pick up"
        if unit.id in self.carried:
            return f"{unit_id} has already been carried this phase"
        unit_type = rules.unit_type(unit.type)
        mclass = movement_class(rules, unit_type)
        by = {str(c) for p in (mclass.all("transported") if mclass else ()) for c in p.get("classes") or ()}
        if carrier_type.movement not in by:
            return because(f"movement '{unit_type.movement}' is not transported by '{carrier_type.movement}'",
                           mclass)
        for what in ("move", "transport"):
            if _mode_forbids(ctx, unit, what):
                mode = ctx.rulebook.get("mode", unit.mode)
                return because(f"{unit_id} is on {mode.display} orders, which forbid {what}", mode)
        left = self.left.get(unit.id, FULL)
        have = allowance(rules, unit_type) if left == FULL else left
        cost = self._board_cost(unit)
        board_line = mclass.first("board") if mclass else None
        if have is not None and have < cost:
            return because(f"boarding costs {mv.show_points(cost)} and {unit_id} has "
                           f"{mv.show_points(have)} left", mclass, board_line)
        if unit.location != carrier.location:
            found = mv.search(ctx, unit, None if have is None else have - cost)
            if carrier.location not in found.dist:
                return because(f"{unit_id} cannot reach {carrier.location} and still pay "
                               f"{mv.show_points(cost)} to board", mclass, board_line)
            # The walk to the rendezvous ends in the carrier's hex, so stacking applies there
            # (the carrier may yet stay and set the unit down where it boarded).
            crowded = stacking_problem(ctx, unit.side, carrier.location, [unit])
            if crowded is not None:
                return crowded
        return None

    def board(self, carrier: Unit, unit_id: str, cargo: list[str]) -> Flow:
        """``unit_id`` walks to the carrier and boards it (unless the walk is cut short)."""
        ctx = self.ctx
        unit = ctx.state.unit(unit_id)
        left = self.left.get(unit_id, FULL)
        have = allowance(ctx.rules, ctx.rules.unit_type(unit.type)) if left == FULL else left
        cost = self._board_cost(unit)
        rest = None if have is None else have - cost
        self.carried.add(unit_id)
        self.left[unit_id] = ZERO
        self._finish(unit_id)
        if unit.location != carrier.location:
            found = mv.search(ctx, unit, rest)
            final, cut = yield from self.walk(unit, found.path(carrier.location))
            self._say_moved(unit, found, final)
            if cut or final != carrier.location:
                return
        unit = ctx.state.unit(unit_id)
        carrier = ctx.state.unit(carrier.id)
        cargo.append(unit_id)
        ctx.update_unit(replace(carrier, turn_flags=carrier.turn_flags | {"boarded", f"carried:{unit_id}"}))
        ctx.say(f"{ctx.label(unit)} boards {ctx.label(carrier)} at {carrier.location}", kind="board",
                unit=unit_id, carrier=carrier.id, cell=carrier.location)

    def _set_down(self, carrier_id: str, cargo: list[str], cell: str) -> None:
        ctx = self.ctx
        if not cargo:
            return
        for unit_id in cargo:
            unit = ctx.state.unit(unit_id)
            if unit.on_map:
                ctx.update_unit(replace(unit, location=cell))
                ctx.say(f"{ctx.label(unit)} is set down at {cell}", kind="unboard", unit=unit_id,
                        carrier=carrier_id, cell=cell)
        carrier = ctx.state.unit(carrier_id)
        ctx.update_unit(replace(carrier, turn_flags=carrier.turn_flags | {"unboarded"}))
        cargo.clear()

    def fly(self, carrier: Unit) -> Flow:
        """A carrier's move: legs, pickups before them and set-downs at their ends."""
        ctx, cid = self.ctx, carrier.id
        cargo: list[str] = []
        legs, last_loaded = 0, False
        last_cell = carrier.location
        while True:
            carrier = ctx.state.unit(cid)
            if not carrier.on_map:
                break
            last_cell = carrier.location
            may_fly = bool(cargo) or legs == 0 or last_loaded
            options: list[Action] = []
            reach = None
            points = self.left.get(cid, FULL)
            if may_fly:
                reach = mv.reach(ctx, carrier, points, cargo=[ctx.state.unit(u) for u in cargo])
                options += [Action("move", (cid, cell)) for cell in reach.ends]
            if self._capacity_left(carrier) > 0:
                options += [Action("carry", (cid, u.id)) for u in ctx.state.units
                            if u.side == carrier.side and u.on_map and u.id != cid
                            and is_counter(ctx.rules.unit_type(u.type)) and not u.dummy
                            and self.why_not_carry(carrier, u.id, cargo) is None]
            options.append(Action("stay", (cid,)))
            if len(options) == 1:
                break

            def why_not(action: Action, carrier=carrier, points=points, may_fly=may_fly) -> str | None:
                other = self._not_your_turn(action, cid)
                if other or action.kind not in ("move", "stay", "carry"):
                    return other or f"{action.kind!r} is not a move: move {cid} CELL, carry {cid} UNIT, or stay {cid}"
                if action.kind == "carry" and len(action.args) == 2:
                    return self.why_not_carry(carrier, action.args[1], cargo)
                if action.kind == "move" and len(action.args) == 2:
                    if not may_fly:
                        return f"{cid} has flown a leg empty: it must pick a unit up before it flies again"
                    return mv.explain(ctx, carrier, action.args[1], points,
                                      cargo=[ctx.state.unit(u) for u in cargo])
                return None

            aboard = f", carrying {' '.join(cargo)}" if cargo else ""
            action = yield from ctx.choose(carrier.side, "move", f"move {ctx.label(carrier, carrier.side)} at "
                                           f"{carrier.location}{aboard}", options, why_not)
            if action.kind == "stay":
                break
            if action.kind == "carry":
                yield from self.board(carrier, action.args[1], cargo)
                continue
            dest = action.args[1]
            final, cut = yield from self.walk(carrier, reach.path(dest))
            self._say_moved(carrier, reach, final)
            now = ctx.state.unit(cid)
            last_loaded = bool(cargo)
            self._set_down(cid, cargo, final if now.on_map else last_cell)
            self.left[cid] = ZERO if cut else reach.points_left(dest)
            legs += 1
            if cut or dest in reach.stops or not now.on_map:
                break
        carrier = ctx.state.unit(cid)
        self._set_down(cid, cargo, carrier.location if carrier.on_map else last_cell)
        self._finish(cid)


def _mode_forbids(ctx: Context, unit: Unit, what: str) -> bool:
    """Whether the unit's mode ``forbids`` ``what``; read once per ``Rules``, mode and ``what``."""
    if not unit.mode:
        return False
    cache = rules_cache(ctx.rules).setdefault("mode_forbids", {})
    key = (unit.mode, what)
    found = cache.get(key)
    if found is None:
        mode = ctx.rulebook.get("mode", unit.mode)
        found = cache[key] = mode is not None and any(p.has(what) for p in mode.all("forbids"))
    return found


def _walk_can_stop(rules) -> bool:
    """Whether anything may act while a unit walks its path: a mode that ``fires`` (WATCH) or a
    marker type (one may stop the mover).  Read once per compiled ``Rules`` (a rulebook never
    changes while its ``Rules`` lives); without either, ``walk`` moves a unit in one step."""
    cache = rules_cache(rules)
    found = cache.get("walk_can_stop")
    if found is None:
        found = cache["walk_can_stop"] = (
            any(m.has("fires") for m in rules.rulebook.of_kind("mode"))
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


def _move_option(moves: dict[str | None, Action], unit_id: str, cell: str | None) -> Action:
    """``move UNIT CELL`` (``stay UNIT`` for no cell), made once and kept in ``moves``."""
    action = moves[cell] = Action("move", (unit_id, cell)) if cell is not None else Action("stay", (unit_id,))
    return action


def _move_options(board) -> dict[str, dict[str | None, Action]]:
    """Each unit's move options made so far on this map, by unit id then cell (``None``: stay).

    Actions are values, so the same objects serve every phase and every game on the map."""
    return board_cache(board).setdefault("move_options", {})
