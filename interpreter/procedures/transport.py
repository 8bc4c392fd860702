"""Transport in ``do move``: a carrier's move is a series of legs, with pickups before them and
set-downs at their ends.

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
  carrier tell the air-defence procedure it was exposed, and a ``landed:CELL`` turn flag on a
  unit set down names the cell it boarded in (an ``abandon mission`` result carries it back).

Limits: a carried unit cannot be carried twice in a phase; a carrier does not
fly through the cell of a hidden marker it stops on without stopping (the move
is cut short there, cargo and all).
"""

from __future__ import annotations

from fractions import Fraction

from ..flags import BOARDED, CARRIED, LANDED, TRAP, UNBOARDED, with_arg
from .. import movement as mv
from ..actions import Action
from ..citations import because
from ..context import Flow
from ..modes import forbidding_mode
from ..stacking import stacking_problem
from ..state import Unit, replace
from ..zones import is_counter


class Transport:
    """The carrying of one ``do move`` (``phase``, a ``MovePhase``): who has been carried, and each
    carrier's legs.  The phase keeps the points each unit has left and walks units cell by cell."""

    def __init__(self, phase):
        self.phase = phase
        self.ctx = phase.ctx
        self.carried: set[str] = set()

    def _capacity_left(self, carrier: Unit) -> int:
        capacity = self.ctx.rules.unit_type(carrier.type).carries
        return capacity - sum(1 for flag in carrier.turn_flags if flag.startswith(f"{CARRIED}:"))

    def _board_cost(self, unit: Unit) -> Fraction:
        mclass = self.ctx.rules.movement_of(self.ctx.rules.unit_type(unit.type))
        return mclass.board_cost if mclass is not None else Fraction(0)

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
        if TRAP in unit.spent:  # a marker's `stop` holds it until the marker's attack ends the phase
            return f"{unit_id} was stopped by a marker in {unit.location} this phase: it moves off next turn"
        unit_type = rules.unit_type(unit.type)
        mclass = rules.movement_of(unit_type)
        if mclass is None or carrier_type.movement not in mclass.transported_by:
            return because(f"movement '{unit_type.movement}' is not transported by '{carrier_type.movement}'",
                           mclass.decl if mclass else None)
        for what in ("move", "transport"):
            mode = forbidding_mode(ctx, unit, what)
            if mode is not None:
                return because(f"{unit_id} is on {mode.label} orders, which forbid {what}", mode.decl)
        have = self.phase.points_in_hand(unit)
        cost = self._board_cost(unit)
        board_line = mclass.board_source
        if have is not None and have < cost:
            return because(f"boarding costs {mv.show_points(cost)} and {unit_id} has "
                           f"{mv.show_points(have)} left", mclass.decl, board_line)
        if unit.location != carrier.location:
            found = mv.search(ctx, unit, None if have is None else have - cost)
            if carrier.location not in found.dist:
                return because(f"{unit_id} cannot reach {carrier.location} and still pay "
                               f"{mv.show_points(cost)} to board", mclass.decl, board_line)
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
        have = self.phase.points_in_hand(unit)
        cost = self._board_cost(unit)
        rest = None if have is None else have - cost
        self.carried.add(unit_id)
        self.phase.use_up(unit_id)
        self.phase.finish(unit_id)
        if unit.location != carrier.location:
            found = mv.search(ctx, unit, rest)
            final, cut = yield from self.phase.walk(unit, found.path(carrier.location))
            self.phase.say_moved(unit, found, final)
            if cut or final != carrier.location:
                return
        unit = ctx.state.unit(unit_id)
        carrier = ctx.state.unit(carrier.id)
        cargo.append(unit_id)
        ctx.update_unit(replace(carrier, turn_flags=carrier.turn_flags | {BOARDED, with_arg(CARRIED, unit_id)}))
        ctx.say(f"{ctx.label(unit)} boards {ctx.label(carrier)} at {carrier.location}", kind="board",
                unit=unit_id, carrier=carrier.id, cell=carrier.location)

    def _set_down(self, carrier_id: str, cargo: list[str], cell: str) -> None:
        ctx = self.ctx
        if not cargo:
            return
        for unit_id in cargo:
            unit = ctx.state.unit(unit_id)
            if unit.on_map:
                flags = unit.turn_flags | {with_arg(LANDED, unit.location)} if cell != unit.location else None
                ctx.update_unit(replace(unit, location=cell, turn_flags=flags or unit.turn_flags))
                ctx.say(f"{ctx.label(unit)} is set down at {cell}", kind="unboard", unit=unit_id,
                        carrier=carrier_id, cell=cell)
        carrier = ctx.state.unit(carrier_id)
        ctx.update_unit(replace(carrier, turn_flags=carrier.turn_flags | {UNBOARDED}))
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
            points = self.phase.points_left(cid)
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
                other = self.phase.not_your_turn(action, cid)
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
            final, cut = yield from self.phase.walk(carrier, reach.path(dest))
            self.phase.say_moved(carrier, reach, final)
            now = ctx.state.unit(cid)
            last_loaded = bool(cargo)
            self._set_down(cid, cargo, final if now.on_map else last_cell)
            self.phase.walked(cid, reach, dest, cut)
            legs += 1
            if cut or dest in reach.stops or not now.on_map:
                break
        carrier = ctx.state.unit(cid)
        self._set_down(cid, cargo, carrier.location if carrier.on_map else last_cell)
        self.phase.finish(cid)
