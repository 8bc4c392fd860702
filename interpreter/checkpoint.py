"""Checkpoints: where a game stands, as data, so that a copy starts there instead of replaying.

The sequence of play is a paused generator, which Python cannot copy.  But outside the
procedures its position is plain data: the turn, the phase, and for each phase or step being
run its sides, which side, which repeat round, which ``do`` line and, in an alternation, whose
turn it is and who is done (``FlowPosition``).  ``interpreter.flow`` keeps that position on the
context as it goes and can *start* at one (``flow.play(ctx, at=…)``).

A ``Checkpoint`` is that position with every mutable piece of the context beside it: the
state (frozen, so shared, never copied), the acting side, the operation in progress (copied),
the options chosen at set-up.  Two kinds are taken:

- a **mark** at the start of every procedure call: starting the procedure again on the
  marked state replays nothing before it, only the choices made since it started.  The start
  keeps only what the procedure may change (``mark``); the position, which stays as it was until
  the procedure returns, is read when its first decision files the mark (``filed``), and a
  procedure that asks nothing leaves no mark;
- an **exact** checkpoint at a decision a procedure declares resumable (``ctx.choose(…,
  resume=True)``): starting that procedure again on the state at the decision asks the same
  question at once, so a copy replays no choice at all.  It is taken only when a copy, a pickle
  or ``Game.checkpoints`` asks for it at that decision (``Game._exact``): a playout never does.
  A procedure that keeps more than the state holds (``do move``: the points each unit has left,
  who has moved) hands the checkpoint that too, as data (``progress``), and takes it back when it
  starts again.

``interpreter.game`` keeps them and builds copies, undos and pickles from the latest that fits.
"""

from __future__ import annotations

from typing import NamedTuple

from .actions import Decision
from .context import Context
from .operation import Operation
from .setup import SetupAt
from .state import GameState


class RunAt(NamedTuple):
    """Where one phase or step run stands (``flow._run_phase``)."""

    sides: tuple
    """The sides the phase runs for, as the run worked them out."""
    side: int
    """The index in ``sides`` of the side whose run this is."""
    round: int
    """The ``repeat until`` round (1 without a repeat)."""
    item: int
    """The index of the ``do`` line or nested step running; past the last while alternating."""
    alternation: tuple | None
    """In an ``alternate`` step: (turns taken, the sides done, whether the side at its turn was
    asked anything yet); ``None`` otherwise."""


class FlowPosition(NamedTuple):
    """The position in the sequence of play at the start of a procedure call: turn, phase index
    in the phases in force, and each phase or step run from the outermost in; or, before turn 1,
    at a placement decision of set-up (``setup``)."""

    turn: int
    phase: int
    runs: tuple[RunAt, ...]
    setup: SetupAt | None = None


class Checkpoint(NamedTuple):
    """A game at one point, as data: start ``flow.play`` at ``position`` on a context rebuilt
    from the rest, then feed the choices made from ``choices`` on.  (A named tuple: one is made
    at every procedure start, and a tuple is the cheapest record to make.)"""

    choices: int
    """How many choices had been made when it was taken."""
    log: int
    """How many entries the game's log had when it was taken."""
    position: FlowPosition | None
    """``None``: the start of the game (set-up included)."""
    state: GameState | None = None
    """Shared, not copied: a state is frozen."""
    acting: str | None = None
    operation: Operation | None = None
    decided: dict | None = None
    settings: tuple = ()
    """The options chosen at set-up (``Scenario.rules_for``): the rules in force after it."""
    stacking_checked: tuple | None = None
    exact: bool = False
    """Taken at a resumable decision: restarting the procedure asks it again without a choice fed."""
    asked: tuple | None = None
    """The question an exact checkpoint was taken at: (side, kind, options) of its ``Decision``
    (not the decision itself, whose explanations hold on to the game that asked)."""
    progress: object = None
    """At an exact checkpoint, what the procedure keeps beside the state (``Context.choose``'s
    ``progress``): handed back to it when it starts again (``Context.take_progress``)."""


START = Checkpoint(0, 0, None)
"""The start of every game: nothing to restore, every choice to replay."""


def position(ctx: Context) -> FlowPosition:
    """Where the flow stands now (``ctx.turn_at``, ``ctx.runs``; ``ctx.setup_at`` in set-up), as data."""
    if ctx.setup_at is not None:
        plan, side, slot, groups, chosen = ctx.setup_at
        return FlowPosition(0, 0, (), SetupAt(plan, side, slot, dict(groups), frozenset(chosen)))
    turn, phase = ctx.turn_at
    return FlowPosition(turn, phase, tuple([run.at() for run in ctx.runs]))


def mark(ctx: Context) -> tuple:
    """What a mark keeps at the start of a procedure call: the log's length, the state, the
    acting side, a copy of the operation, the result decided, the units stacking last checked.
    (A plain tuple, made at every procedure start: ``filed`` makes the ``Checkpoint``.)"""
    operation = ctx.operation
    return (len(ctx.events), ctx.state, ctx.acting, operation.copy() if operation is not None else None,
            ctx.decided, ctx.stacking_checked)


def filed(ctx: Context, kept: tuple, choices: int, log: int) -> Checkpoint:
    """The mark ``kept`` at the start of the procedure call now asking its first decision, with
    ``choices`` made and ``log`` entries written before that call: its position read now (the
    flow has not moved while the procedure runs)."""
    logged, state, acting, operation, decided, stacking_checked = kept
    return Checkpoint(choices, log + logged, position(ctx), state, acting, operation, decided, ctx.settings,
                      stacking_checked)


def checkpoint(ctx: Context, choices: int, log: int, decision: Decision | None = None) -> Checkpoint:
    """The context now, at ``decision`` (an exact checkpoint), or between decisions."""
    operation = ctx.operation
    asked = progress = None
    if decision is not None:
        asked = (decision.side, decision.kind, decision.options)
        progress = ctx.progress() if ctx.progress is not None else None
    return Checkpoint(choices, log, position(ctx), ctx.state, ctx.acting,
                      operation.copy() if operation is not None else None, ctx.decided, ctx.settings,
                      ctx.stacking_checked, decision is not None, asked, progress)


def restored(scenario, seed: int, at: Checkpoint) -> Context:
    """A fresh context holding what ``at`` recorded (its own copy of anything mutable)."""
    ctx = Context(scenario, seed)
    if at.settings:
        ctx.rulebook, ctx.rules = scenario.rules_for(dict(at.settings))
        ctx.settings = at.settings
    ctx.state = at.state
    ctx.acting = at.acting
    ctx.operation = at.operation.copy() if at.operation is not None else None
    ctx.decided = dict(at.decided) if at.decided is not None else None
    ctx.stacking_checked = at.stacking_checked
    ctx.resuming = at.progress
    return ctx
