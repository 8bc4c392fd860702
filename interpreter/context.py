"""What a procedure works with: the rules, the board, the state, the dice and the log.

A procedure is a generator: it ``yield``s a ``Decision`` whenever a player must
choose and receives the chosen ``Action`` back (``action = yield from
ctx.choose(...)``).  It changes the game only through ``ctx.state = …`` and
records what happened with ``ctx.say`` and ``ctx.roll``, so the log is the
whole story and a replay of the same choices reproduces it exactly.
"""

from __future__ import annotations

import operator
from typing import Any, Callable, Generator, Iterable, NamedTuple

from ..dsl.values import Dice, read_dice
from . import rng
from .control import unit_moved
from .actions import Action, Batch, Decision, decision
from .rules import Rules
from .state import GameState, Unit, state_with_rolls

Flow = Generator[Decision, Action, Any]
"""A procedure's type: yields decisions, receives actions."""


class Context:
    """The mutable shell around one game's frozen state."""

    def __init__(self, scenario, seed: int):
        self.scenario = scenario
        self.rulebook = scenario.rulebook
        # A loaded scenario shares one compiled Rules (and movement's cost tables) across games.
        shared = getattr(scenario, "rules", None)
        self.rules = shared if isinstance(shared, Rules) else Rules(scenario.rulebook)
        self.board = scenario.board
        self.seed = seed
        self.state = GameState()
        self.events: list[dict] = []
        self.acting: str | None = None
        """The side whose phase this is, or ``None`` in a mutual phase."""
        self.player_order: tuple[str, ...] = scenario.player_order
        self.result: dict | None = None
        """The final result, set by ``interpreter.victory.final_result`` when the game ends."""
        self.decided: dict | None = None
        """A result decided before the end (``interpreter.victory_forms``): control, a threshold."""
        self.operation = None
        """The ``interpreter.operation.Operation`` in progress, in games of alternating operations."""
        self.running: list[str] = []
        """The phases and steps running now, outermost first (``flow.run_phase``)."""
        self.stacking_checked: tuple | None = None
        """The units as the last end-of-phase stacking check left them (``flow``): while they are
        the same tuple (no counter moved, came or went), a check would find nothing."""
        self.settings: tuple = ()
        """The options chosen at set-up, as sorted (name, on) pairs (``setup``; ``Scenario.rules_for``)."""
        self.turn_at: tuple[int, int] = (0, 0)
        """The turn and the index of the phase running, kept by ``flow`` for checkpoints."""
        self.runs: list = []
        """The phase and step runs in progress, outermost first, kept by ``flow`` (``interpreter.checkpoint``)."""
        self.setup_at: tuple | None = None
        """Set-up's progress at a placement decision (``setup.SetupAt``'s fields, live), for checkpoints."""
        self.mark: tuple | None = None
        """What the procedure running kept at its start for a checkpoint (``checkpoint.mark``),
        until ``Game`` files it at its first decision."""
        self.resume: bool = False
        """Whether the pending decision is one its procedure declared resumable (``choose``)."""
        self.progress: Callable[[], Any] | None = None
        """How the procedure asking a resumable decision reads its progress as data (``choose``)."""
        self.resuming: Any = None
        """The progress a checkpoint recorded, for the procedure a restored context starts at to take
        (``take_progress``)."""
        self._labels: tuple[Rules, dict[tuple[str, str], str]] = (
            self.rules, self.rules.derived.setdefault("labels", {}))
        """``label``'s memo with the rules it was read for (set-up's options may change them): a pure
        function of id and type, kept with the rules, read from here (every move, order and fight
        is narrated)."""

    # --- the log -------------------------------------------------------------------------

    def say(self, text: str, **data: Any) -> None:
        """Record something that happened, in words for people and data for programs."""
        self.events.append({"type": "event", "turn": self.state.turn, "phase": self.state.phase, "text": text,
                            **data})

    def roll(self, dice: Dice | str, reason: str) -> int:
        """Roll with the game's one RNG and log the roll with why it was rolled."""
        if isinstance(dice, str):
            parsed = read_dice(dice)
            assert parsed is not None, dice
            dice = parsed
        value = rng.roll(self.seed, self.state.rolls, dice.faces, dice.count)
        self.events.append({"type": "roll", "n": self.state.rolls, "dice": str(dice), "value": value,
                            "reason": reason})
        self.state = state_with_rolls(self.state, self.state.rolls + 1)
        return value

    # --- choosing ----------------------------------------------------------------------

    def choose(self, side: str, kind: str, prompt: str, options: Iterable[Action],
               why_not: Callable[[Action], str | None] | None = None, *, in_order: bool = False,
               resume: bool = False, progress: Callable[[], Any] | None = None) -> Flow:
        """Ask ``side`` to choose; returns the chosen action.  Options are sorted for determinism.

        ``in_order``: the caller gives distinct options already in the order sorting would give
        (``_action_key``), so they are not sorted again.  ``resume``: the procedure the sequence
        of play called, started again on the state as it is now, would ask this same question
        before it logs or changes anything (its progress lives in the state), so a copy of the
        game taken here starts that procedure again instead of replaying (``interpreter.checkpoint``).
        ``progress``: for a procedure whose progress is not all in the state, a function returning
        the rest as immutable data; a checkpoint taken here keeps it, and the procedure started
        again takes it back (``take_progress``) before it asks.
        """
        self.resume = resume
        self.progress = progress
        ordered = (options if options.__class__ is Batch else tuple(options)) if in_order else options_in_order(options)
        action = yield decision(side, kind, prompt, ordered, why_not)
        return action

    def take_progress(self, kind: type) -> Any:
        """The progress of type ``kind`` a checkpoint handed this context for the procedure it
        starts at (``choose``'s ``progress``), once; ``None`` when there is none."""
        found = self.resuming
        if found is None or type(found) is not kind:
            return None
        self.resuming = None
        return found

    # --- helpers procedures share --------------------------------------------------------

    def shown(self, kind: str, name: str) -> str:
        """How narration names the rulebook's ``kind`` declaration ``name``: its label, else its name."""
        decl = self.rulebook.get(kind, name)
        return decl.display if decl is not None else name

    def enemies(self, side: str) -> tuple[str, ...]:
        return tuple(s for s in self.rules.sides if s != side)

    def identifies(self, viewer: str | None, unit: Unit) -> bool:
        """Whether ``viewer`` may know what ``unit`` is: its own, face up, or face down on the map
        before a side that ``inspects enemy stacks``.  No viewer (the narrative for all) knows
        no face-down counter."""
        if not unit.hidden or viewer == unit.side:
            return True
        known = self.rules.side_rules.get(viewer) if viewer is not None else None
        return known is not None and known.inspects_stacks and unit.on_map

    def label(self, unit: Unit, viewer: str | None = None) -> str:
        """How a unit is named in the narrative: face-down counters stay anonymous to the enemy
        (``identifies``)."""
        if unit.hidden and not self.identifies(viewer, unit):  # (a face-up counter: no call to ask)
            return f"{unit.id} (hidden)"
        rules, known = self._labels
        if rules is not self.rules:
            rules, known = self._labels = (self.rules, self.rules.derived.setdefault("labels", {}))
        key = (unit.id, unit.type)
        found = known.get(key)
        if found is None:
            found = known[key] = f"{unit.id} {rules.unit_type(unit.type).label}"
        return found

    def update_unit(self, unit: Unit) -> None:
        """Put ``unit`` in place of the unit with its id: the one place a counter changes, so a
        change of location settles the control of the cells it left and entered (``control``)."""
        if self.rules.control is None:
            self.state = self.state.with_unit(unit)
            return
        try:
            before: Unit | None = self.state.unit(unit.id)
        except KeyError:
            before = None
        self.state = self.state.with_unit(unit)
        if before is not None and before.location != unit.location:
            unit_moved(self, before, unit)


class SideAt(NamedTuple):
    """The progress of a procedure that runs for its sides in turn and keeps nothing else beside
    the state: the sides as it worked them out, and the index of the side asked
    (``interpreter.checkpoint``'s ``progress``)."""

    procedure: str
    sides: tuple
    side: int

    def __call__(self) -> "SideAt":
        return self  # a value already: it is its own progress (``Context.choose``)


def sides_in_turn(ctx: Context, procedure: str, sides, saved: SideAt | None = None) -> list[tuple[SideAt, str]]:
    """``(SideAt, side)`` for each of ``sides`` in turn; started again at a checkpoint, the sides
    it recorded from the one that was asked there (its ``SideAt`` handed to ``Context.choose`` as
    ``progress``, or within a larger progress: ``saved``)."""
    if saved is None:
        saved = ctx.take_progress(SideAt)
    first = 0
    if saved is not None and saved.procedure == procedure:
        sides, first = saved.sides, saved.side
    sides = tuple(sides)
    return [(SideAt(procedure, sides, index), sides[index]) for index in range(first, len(sides))]


def options_in_order(options: Iterable[Action]) -> tuple[Action, ...]:
    """The distinct options sorted by ``_action_key``.  Procedures often list them in that order
    already: then their keys rise strictly (so they are distinct too) and no set or sort is needed."""
    options = tuple(options)
    try:  # every option's arguments met before: their keys read in one pass, without a call each
        known = _ARGS_KEYS
        keys = [(a.kind, known[a.args]) for a in options]
    except KeyError:
        keys = [_action_key(a) for a in options]
    if all(map(operator.lt, keys, keys[1:])):
        return options
    known = dict(zip(options, keys))  # each distinct option once, with its key
    return tuple(sorted(known, key=known.__getitem__))


def _action_key(action: Action) -> tuple:
    # Numbers sort as numbers so that "place 0910" follows "place 0109" column by column.
    args = action.args
    found = _ARGS_KEYS.get(args)
    if found is None:
        known = _ARG_KEYS
        try:  # every argument's key known already: the usual case, read without a call per argument
            found = tuple([known[arg] for arg in args])
        except KeyError:
            found = tuple(map(arg_key, args))
        if found == args:  # words alone: their own key
            found = args
        if len(args) <= 1:  # (several: mostly a product, unit × cell, each met once; they would crowd these out)
            if len(_ARGS_KEYS) >= ARGS_KEYS_KEPT:
                _ARGS_KEYS.clear()
            _ARGS_KEYS[args] = found
    return (action.kind, found)


_ARG_KEYS: dict[str, str] = {}
ARG_KEYS_KEPT = 4096
"""Argument keys ``arg_key`` keeps before it forgets them all and starts again."""
_ARGS_KEYS: dict[tuple[str, ...], tuple] = {}
ARGS_KEYS_KEPT = 4096
"""Keys of whole argument tuples (``_action_key``: the same cells and unit ids are offered at every
decision) kept before they are all forgotten; a pure function of the strings, like ``arg_key``.
Only tuples of one argument are kept: those of several are mostly a product met once (a game
with hundreds of counters set up on a large map offers some 9,000 to 18,000 distinct ``place UNIT
CELL``, most once; kept, they filled this and cleared it twice a game of the largest shipped scenario, and every move's
keys were worked out again after)."""


def arg_key(arg: str) -> str:
    """One argument's sort key: numbers first, as numbers ("0910" after "0109", "12" after "9"),
    then words as strings.  Memoised because the same cell and unit ids recur at every decision; a
    pure function of the string, so nothing in it depends on a game.

    The key is a string, so that a word is its own key (nothing kept but the memo's entry) and a
    number's is one short string: ``"\\0"``, its count of digits, its digits (no leading zeros).
    (A tuple ``(0, number, "")`` / ``(1, 0, word)`` each was a third of a played game's sort-key
    memos, 172 KiB of the largest shipped scenario's.)"""
    found = _ARG_KEYS.get(arg)
    if found is None:
        if len(_ARG_KEYS) >= ARG_KEYS_KEPT:
            _ARG_KEYS.clear()
        if arg.isdigit():
            digits = str(int(arg))
            found = f"\0{chr(len(digits))}{digits}"
        else:  # a word sorts after every number: only one starting below "\1" needs a prefix
            found = arg if arg >= "\2" else f"\1{arg}"
        _ARG_KEYS[arg] = found
    return found
