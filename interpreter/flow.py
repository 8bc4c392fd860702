"""The sequence of play, run: set-up, then each turn's phases in the rulebook's order.

Each ``do …`` line of a phase names a procedure; ``PROCEDURES`` maps the
procedure names of ``dsl.vocabulary`` to the generator functions that carry
them out.  A phase's ``do`` lines and nested steps run in the order they are
written.  ``for each side`` runs the phase once per side in player order,
``side first|second|NAME`` once for that side, ``mutual`` once with no acting
side (its procedures decide who acts; a ``mutual`` step too, inside a phase run
for one side).  A run for one side binds every procedure in it, nested steps and
alternations included: ``ctx.acting`` is that side.  An ``optional`` run asks its
side first whether to play it.  How many turns there are is the scenario's
(``Scenario.turns``: its own ``turns``, else the rulebook's ``turns N``).
"""

from __future__ import annotations

from itertools import compress
from operator import attrgetter, is_not

from ..dsl.diagnostics import RulesError, diagnostic
from ..dsl.compiled.sequence import Alternate, Repeat
from ..dsl.model import Declaration
from ..dsl.vocabulary import REPEAT_CONDITION
from .actions import Action
from .checkpoint import FlowPosition, RunAt, mark
from .citations import because, cite
from .context import Context, Flow
from .control import start as start_control
from .event_effects import phase_ended
from .status_effects import recover
from .procedures import PROCEDURES, load_procedures
from .state import Unit, state_in_phase, unit_with_orders_cleared, unit_with_spent, replace

def play(ctx: Context, at: FlowPosition | None = None) -> Flow:
    """The whole game: set-up, every turn, then the result; or the rest of it from ``at``, the
    start of a procedure call or a placement decision a checkpoint recorded (``interpreter.checkpoint``)."""
    load_procedures()
    from .victory import GameEnds, final_result

    try:
        if at is None or at.setup is not None:
            yield from setup(ctx, at.setup if at is not None else None)
            start_control(ctx)
            at = None
        yield from _turns(ctx, at)
    except GameEnds:
        ctx.operation = None  # the game ended inside a procedure (sudden death): nothing more runs
    final_result(ctx)
    ctx.state = replace(ctx.state, over=True)


def _turns(ctx: Context, at: FlowPosition | None) -> Flow:
    """Every turn: each phase of the sequence of play, then the end of the turn."""
    from .resources import forfeit_unspent
    from .turns import start_turn
    from .victory import check_sudden_death
    from .side_states import enter_states
    from .victory_forms import check_control

    phases = ctx.rules.phases  # those in force (``requires option``)
    for turn in range(1 if at is None else at.turn, ctx.scenario.turns + 1):
        first, runs = 0, None
        if at is not None:  # resumed inside this turn: it has started already
            first, runs, at = at.phase, at.runs, None
        else:
            start_turn(ctx, turn)  # its number, its weather and name on the turn record (interpreter.turns)
            apply_turn_modifiers(ctx)
        for index in range(first, len(phases)):
            ctx.turn_at = (turn, index)
            yield from run_phase(ctx, phases[index], runs)
            runs = None
            if ctx.rules.states:
                enter_states(ctx)
            if check_sudden_death(ctx) or check_control(ctx, "once"):
                break
        if ctx.state.over:
            break
        _end_of_turn(ctx)
        forfeit_unspent(ctx)
        if check_control(ctx, "turn"):
            break


def run_phase(ctx: Context, decl: Declaration, at: tuple[RunAt, ...] | None = None) -> Flow:
    """Run a phase or step: its ``do`` lines and nested steps in the order written, once per side.

    ``alternate STEP until …`` runs that step for the sides in turn instead (``_alternate``);
    ``repeat until …`` runs the whole body again while the condition does not hold.  An
    ``optional`` one asks the side of each run first whether to play it (``_skips``); a skipped
    run's body does not run, but the phase still ends (stacking, ``when PHASE phase ends``).
    Returns whether the last run was skipped (an alternated step's one run: its side passed).
    ``at``: resume this run and those nested in it where a checkpoint recorded them.
    """
    ctx.running.append(decl.name)
    frame = _Run(())
    ctx.runs.append(frame)
    try:
        return (yield from _run_phase(ctx, decl, frame, at))
    finally:
        ctx.runs.pop()
        ctx.running.pop()


class _Run:
    """Where one phase or step run stands, updated as it goes (``checkpoint.RunAt`` is its record)."""

    __slots__ = ("sides", "side", "round", "item", "turn", "done", "asked")

    def __init__(self, sides: tuple):
        self.sides, self.side, self.round, self.item = sides, 0, 1, 0
        self.turn, self.done, self.asked = 0, None, False

    def at(self) -> RunAt:
        alternation = None if self.done is None else (self.turn, frozenset(self.done), self.asked)
        return RunAt(self.sides, self.side, self.round, self.item, alternation)


def _run_phase(ctx: Context, decl: Declaration, frame: _Run, at: tuple[RunAt, ...] | None) -> Flow:
    plan = ctx.rules.phase_plan(decl)  # dsl.compiled.sequence
    alternate, items, repeat, sides = plan.alternate, plan.runs, plan.repeat, plan.sides
    here = at[0] if at else None
    if here is not None:
        sides = here.sides
    elif sides is None:
        sides = ctx.player_order
    elif type(sides) is int:
        sides = (ctx.player_order[sides],)
    elif not sides:
        sides = (ctx.acting,)
    frame.sides = sides
    skipped = False
    for index in range(here.side if here else 0, len(sides)):
        side = sides[index]
        frame.side = index
        first_round = first_item = 0
        if here is not None:  # resumed: this run started before the checkpoint (the acting side restored)
            first_round, first_item = here.round, here.item
        else:
            if repeat is not None and _repeat_done(ctx, repeat):
                continue
            ctx.acting = side
            if ctx.state.phase != decl.name:  # (a phase run again for the next side: the same state)
                ctx.state = state_in_phase(ctx.state, decl.name)
            ctx.say(f"{decl.display} ({side})" if side else decl.display, kind="phase", phase_name=decl.name,
                    side=side)
            skipped = plan.optional and side is not None and (yield from _skips(ctx, decl, side))
        for round_ in range(first_round or 1, MAX_REPEATS + 1):
            frame.round = round_
            if skipped:
                break
            for position in range(first_item, len(items)):
                item = items[position]
                frame.item = position
                deeper = at[1:] if here is not None else None
                here = None
                if isinstance(item, Declaration):  # a nested step
                    yield from run_phase(ctx, item, deeper)
                    ctx.acting = side
                else:
                    ctx.mark = mark(ctx)
                    yield from PROCEDURES[item.procedure](ctx, item)
                    ctx.mark = None  # (asked nothing: its position is gone, decisions the flow asks next have none)
                if ctx.state.over:
                    return
            frame.item = len(items)
            if alternate is not None:
                deeper = at[1:] if here is not None else None  # resumed inside an operation
                yield from _alternate(ctx, alternate, side, frame, here.alternation if here else None, deeper)
                here = None
                ctx.acting = side
            first_item = 0
            if repeat is None or _repeat_done(ctx, repeat) or ctx.state.over:
                break
        else:
            ctx.say(f"{decl.display}: stopped after {MAX_REPEATS} repeats ({repeat.source.text} never held)",
                    kind="phase")
        yield from _check_stacking(ctx)
        yield from phase_ended(ctx, decl.name)
        recover(ctx, decl.name, side)
        _clear_spent(ctx)
    return skipped


def _skips(ctx: Context, decl: Declaration, side: str) -> Flow:
    """``optional``: ask ``side`` whether it plays this run of the phase or step; whether it skips it."""
    action = yield from ctx.choose(side, "optional", f"{decl.display} is optional: play it or skip it",
                                   [Action("play"), Action("skip")])
    if action.kind != "skip":
        return False
    ctx.say(because(f"{ctx.shown('side', side)} skips {decl.display}", decl, decl.first("optional")),
            kind="skip", side=side, phase_name=decl.name)
    return True


MAX_REPEATS = 100
"""A ``repeat until`` runs its body at most this often (a safety net against a condition that
no roll can ever bring about; reaching it is logged)."""


def _repeat_done(ctx: Context, repeat: Repeat) -> bool:
    """Whether a ``repeat until CONDITION`` holds.

    ``only one side remains in the contested square``: no battle is on (``ctx.operation`` has no
    contested cell, or the attacking force broke off) or one side's units alone are left there.
    Markers do not hold a square: in the games this serves they leave a battle after a round or
    at the end of the phase, or never fight at all.  The one exception is a strike (support markers
    alone, ``interpreter.procedures.battle``): its markers hold the square for the one round it lasts.
    """
    if repeat.condition != REPEAT_CONDITION:  # lint refuses it (E319), and no game starts then
        raise RulesError([diagnostic("E805", repeat.source.span, f"repeat condition {repeat.condition!r} is not supported",
                                     f"write: repeat until {REPEAT_CONDITION}")])
    operation = ctx.operation
    if operation is None or not operation.fighting():
        return True
    sides = {u.side for u in ctx.state.units_at(operation.cell)
             if not u.dummy and ctx.rules.unit_type(u.type).kind == "unit"}
    if operation.mode == "strike" and any(ctx.state.unit(i).location == operation.cell for i in operation.support):
        sides.add(operation.side)
    return len(sides) < 2


def _alternate(ctx: Context, alternate: Alternate, acting: str | None, frame: _Run,
               resumed: tuple | None = None, at: tuple[RunAt, ...] | None = None) -> Flow:
    """``alternate STEP until all pass [or out of RESOURCE]``: the sides take turns at the step.

    The sides are those of the phase's run: every side in player order in a mutual phase, the one
    side it runs for otherwise (``acting``; ``side …`` binds the alternation too).  Each turn at
    the step is an operation (``ctx.operation``).  A side that passes is done for the phase, and
    so is a side with none of the resource left, and one whose turn asked it nothing (it has
    nothing it can do: no action to pay for, say; it could never pass); the others go on until
    every side is done: once one player is finished, the other may go on uninterrupted.  So every
    turn either asks the side something or ends its part in the phase: the loop cannot spin.
    ``resumed``: (turns taken, sides done, asked yet) of an operation a checkpoint recorded, whose
    step run ``at`` continues (its operation restored with the context).
    """
    from .operation import Operation
    from .victory import check_sudden_death

    step, resource = alternate.step, alternate.resource
    sides = ctx.player_order if acting is None else (acting,)
    done: set[str] = set()
    turn = 0
    asked_before = False
    if resumed is not None:
        turn, resumed_done, asked_before = resumed
        done.update(resumed_done)
    frame.done = done
    try:
        while len(done) < len(sides):
            if resumed is not None:  # the operation under way at the checkpoint
                side = sides[(turn - 1) % len(sides)]
                resumed = None
            else:
                side = sides[turn % len(sides)]
                turn += 1
                if side in done:
                    continue
                if resource is not None and ctx.state.resource(side, resource) <= 0:
                    done.add(side)
                    ctx.say(f"{ctx.shown('side', side)} has no {resource} left and is done for the phase",
                            kind="phase", side=side)
                    continue
                ctx.operation = Operation(side)
                ctx.acting = side
                asked_before, at = False, None
            frame.turn, frame.asked = turn, asked_before
            try:
                asked, skipped = yield from _asking(run_phase(ctx, step, at), side, frame)
                if ctx.operation.passed or skipped:  # skipping an optional alternated step is passing
                    done.add(side)
                elif not asked and not ctx.state.over:
                    done.add(side)
                    ctx.say(f"{ctx.shown('side', side)} has nothing to do and is done for the phase", kind="phase",
                            side=side)
            finally:
                ctx.operation = None
            _after_operation(ctx)
            if ctx.state.over or check_sudden_death(ctx):
                return
    finally:
        frame.done = None


def _asking(flow: Flow, side: str, frame: _Run) -> Flow:
    """Run ``flow`` as ``yield from`` would; returns whether it asked ``side`` anything (kept on
    ``frame`` as it goes, so that a checkpoint knows), and what ``flow`` returned."""
    action = None
    try:
        while True:
            try:
                decision = flow.send(action)
            except StopIteration as stop:
                return frame.asked, stop.value
            if decision.side == side:
                frame.asked = True
            action = yield decision
    finally:
        flow.close()


def _after_operation(ctx: Context) -> None:
    """Units that are ``eliminated after operation in WHERE`` and stand there now are eliminated,
    scored as eliminations by combat (a raid into cells the unit may not stay in)."""
    from .combat import eliminate

    for name, unit_type in ctx.rules.unit_types.items():
        raid = unit_type.eliminated_after_operation_in
        if raid is None:
            continue
        where, decl, line = frozenset(raid.where), unit_type.decl, raid.source
        for unit in [u for u in ctx.state.units if u.type == name and u.on_map]:
            cell = unit.location
            if where & ctx.rules.cell_selectors(ctx.board.terrain(cell), ctx.board.tags(cell)) or \
                    ctx.board.graph.nodes[cell].get("place") in where:
                eliminate(ctx, unit, f"the operation is over and it stands in {cell} "
                                     f"({cite(decl, line) or decl.name})")



def _check_stacking(ctx: Context) -> Flow:
    """Stacking ``checked at end of phases``: each side's excess in a cell goes to the ``excess to`` box.

    The owner picks which units go, one at a time, among those counting against the broken limit.
    Nothing is checked while the units are those the last check left (``ctx.stacking_checked``),
    and then only the cells whose counters changed since (``changed_cells``): the last check left
    every other cell within every limit.
    """
    if ctx.state.units is ctx.stacking_checked:
        return
    rules = [r for r in ctx.rules.stackings if r.checked == "end" and r.excess_box is not None]
    if not rules:  # (most games: nothing to look at, so no pass over the units either)
        ctx.stacking_checked = ctx.state.units
        return
    changed = changed_cells(ctx.stacking_checked, ctx.state.units)
    for rule in rules:
        box, line_of = rule.excess_box, rule.line_of
        crowded = []  # (side, cell) holding more of a side's units than the rule is sure to allow
        by_cell = ctx.state.units_by_cell()  # (afresh for each rule: an earlier one may have moved units)
        for cell, here in by_cell.items() if changed is None else [(c, by_cell[c]) for c in changed if c in by_cell]:
            if len(here) > rule.safe_size and here[0].on_map:
                sizes: dict[str, int] = {}
                for unit in here:
                    sizes[unit.side] = sizes.get(unit.side, 0) + 1
                crowded += [(side, cell) for side, size in sizes.items() if size > rule.safe_size]
        for side, cell in sorted(crowded):
            units = [u for u in ctx.state.units_at(cell) if u.side == side]
            for index, limit in enumerate(rule.counts):
                counted = [u for u in units if line_of.get(u.type) == index]
                while len(counted) > limit:
                    action = yield from ctx.choose(
                        side, "stacking", f"{cell} holds {len(counted)} units against a limit of {limit}: "
                        f"choose one for the {box}", [Action("excess", (u.id,)) for u in counted])
                    unit = ctx.state.unit(action.args[0])
                    counted = [u for u in counted if u.id != unit.id]
                    ctx.update_unit(replace(unit, location=box))
                    ctx.say(f"{ctx.label(unit)} goes to the {box}: over the stacking limit in {cell} "
                            f"({cite(rule.decl, rule.checked_source) or rule.name})", kind="stacking", unit=unit.id, cell=cell,
                            box=box)
    ctx.stacking_checked = ctx.state.units


def changed_cells(before: tuple[Unit, ...] | None, units: tuple[Unit, ...]) -> set[str] | None:
    """The cells a unit left or entered between ``before`` and ``units`` (``None``: every cell, with
    no ``before`` or fewer units now).  Units keep their places in the tuple (new ones come last),
    so a unit changed is one not the same object at its place: found by one pass in C."""
    if before is None or len(units) < len(before):
        return None
    cells = set()
    for old, new in compress(zip(before, units), map(is_not, before, units)):
        cells.add(old.location)
        cells.add(new.location)
    cells.update([u.location for u in units[len(before):]])
    return cells


def _clear_spent(ctx: Context) -> None:
    """Phase flags (``moved``, ``attacked`` …) last one phase."""
    spent = [unit_with_spent(u, _NONE) for u in filter(_SPENT, ctx.state.units)]  # (few are: found in C)
    if spent:
        ctx.state = ctx.state.with_units_in_place(spent)  # the state's indexes are updated, not rebuilt


_NONE: frozenset[str] = frozenset()
_SPENT = attrgetter("spent")


def _end_of_turn(ctx: Context) -> None:
    """Orders, turn flags and turn modifiers last one turn (orders are declared each turn, as in the
    WATCH/PATROL phases)."""
    if ctx.state.turn_modifiers:
        ctx.state = replace(ctx.state, turn_modifiers=())
    cleared = [unit_with_orders_cleared(u, None, _NONE) for u in ctx.state.units if u.mode or u.turn_flags]
    if cleared:
        ctx.state = ctx.state.with_units_in_place(cleared)


# --- set-up --------------------------------------------------------------------------------
# Set-up lives in interpreter.setup; ``setup`` is imported here for the callers that know it as
# ``interpreter.flow.setup``.

from .setup import apply_turn_modifiers, setup
