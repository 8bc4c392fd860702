"""Actions, decisions and the errors of choosing (the codes of play, E801-E805, are in the table of
``dsl.codes``, so a module raising one need not import the game).

An ``Action`` is what a player does, written as words (``move A3 0512``) so logs,
tests and human players read the same text: ``Action.parse(str(a)) == a``.  A
``Decision`` is the question the game is waiting on: whose it is, what kind,
and every legal answer, sorted (OpenSpiel's ``legal_actions``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from itertools import repeat
from typing import Callable, overload

from attrs import field, frozen

from ..dsl.ast import Span
from ..dsl.diagnostics import Diagnostic, WarbookError, diagnostic
from .drafts import draft_of


@frozen(order=True, weakref_slot=False)
class Action:
    """A choice, as words: a verb and its arguments (unit ids, cells, names).  (No ``__weakref__``
    slot: nothing refers to an action weakly, and a game keeps thousands of them as options.)"""

    kind: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join((self.kind, *self.args))

    @classmethod
    def parse(cls, text: str) -> "Action":
        words = text.split()
        return cls(words[0], tuple(words[1:])) if words else cls("")

    @classmethod
    def batch(cls, kind: str, first: str, seconds: Sequence[str]) -> list["Action"]:
        """``Action(kind, (first, second))`` for each of ``seconds``, in order, made by C loops rather
        than one ``__init__`` call each (set-up offers a counter every cell of its zone: hundreds
        of options a counter).  Equal to those ``Action`` makes, field for field."""
        count = len(seconds)
        made = list(map(_new_action, repeat(cls, count)))
        deque(map(_set_kind, made, repeat(kind, count)), 0)
        deque(map(_set_args, made, zip(repeat(first, count), seconds)), 0)
        return made


_new_action = Action.__new__
_set_kind = Action.kind.__set__  # the slots' own descriptors: what attrs' ``__init__`` sets too
_set_args = Action.args.__set__
_ActionDraft = draft_of(Action)


def action(kind: str, args: tuple[str, ...]) -> Action:
    """``Action(kind, args)``, made from a draft (``interpreter.drafts``): a move decision makes
    its ``stay`` option every time."""
    made = _new_action(_ActionDraft)
    made.kind = kind
    made.args = args
    made.__class__ = Action
    return made


class Batch(Sequence[Action]):
    """Options made only when read: ``before``, then ``KIND FIRST SECOND`` for each of ``seconds``,
    then ``after`` (python-chess's ``LegalMoveGenerator`` idea).

    A unit is offered every cell it may reach, and a random or scripted player reads one of
    them: made as ``Action``s each time, they were most of a move decision's work, and kept
    for the next time, most of a played game's memory.  A ``Batch`` answers ``len``, indexing
    and ``in`` from its fields and makes an ``Action`` only for the option read; iterating it
    makes them all.  It equals a tuple (or ``Batch``) of the same actions in the same order, and
    hashes like one.  Never changed after it is made.
    """

    __slots__ = ("before", "kind", "first", "seconds", "after", "_length")

    def __init__(self, kind: str, first: str, seconds: tuple[str, ...], before: tuple[Action, ...] = (),
                 after: tuple[Action, ...] = ()) -> None:
        self.kind, self.first, self.seconds = kind, first, seconds
        self.before, self.after = before, after
        self._length = len(before) + len(seconds) + len(after)

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Action, ...]: ...

    def __getitem__(self, index):
        if index.__class__ is not int:
            if isinstance(index, slice):
                return tuple(self)[index]
            index = index.__index__()
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("option index out of range")
        before = self.before
        if index < len(before):
            return before[index]
        index -= len(before)
        seconds = self.seconds
        if index < len(seconds):
            return action(self.kind, (self.first, seconds[index]))
        return self.after[index - len(seconds)]

    def __iter__(self) -> Iterator[Action]:
        yield from self.before
        yield from Action.batch(self.kind, self.first, self.seconds)
        yield from self.after

    def __contains__(self, action: object) -> bool:
        if isinstance(action, Action):
            args = action.args
            if action.kind == self.kind and len(args) == 2 and args[0] == self.first and args[1] in self.seconds:
                return True
        return action in self.before or action in self.after

    def __eq__(self, other: object) -> bool:
        if other.__class__ is Batch:
            if (self.kind, self.first, self.seconds, self.before, self.after) == \
                    (other.kind, other.first, other.seconds, other.before, other.after):
                return True
            return self._length == other._length and tuple(self) == tuple(other)
        if isinstance(other, tuple):
            return self._length == len(other) and tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))

    def __reduce__(self):
        return Batch, (self.kind, self.first, self.seconds, self.before, self.after)


@frozen(weakref_slot=False)
class Decision:
    """What the game waits for: ``side`` must choose one of ``options``.  (No ``__weakref__`` slot,
    so that ``decision`` can make one from a draft.)"""

    side: str
    kind: str
    prompt: str
    options: Sequence[Action]
    """The legal answers, in order: a tuple, or a ``Batch`` that makes each when it is read."""
    why_not: Callable[[Action], str | None] | None = field(default=None, eq=False, repr=False)
    """Explains why an action is not among the options (the rule and its section), when it can."""


_new_decision = object.__new__
_DecisionDraft = draft_of(Decision)


def decision(side: str, kind: str, prompt: str, options: Sequence[Action],
             why_not: Callable[[Action], str | None] | None = None) -> Decision:
    """``Decision(side, kind, prompt, options, why_not)``, made from a draft (``interpreter.drafts``)."""
    made = _new_decision(_DecisionDraft)
    made.side = side
    made.kind = kind
    made.prompt = prompt
    made.options = options
    made.why_not = why_not
    made.__class__ = Decision
    return made


class IllegalActionError(WarbookError, ValueError):
    """An action that is not legal now; ``diagnostic`` names the rule that forbids it."""

    def __init__(self, diag: Diagnostic):
        self.diagnostic = diag
        super().__init__(diag.message)


class AmbiguousActionError(IllegalActionError):
    """An abbreviated action that matches more than one legal option."""


def illegal(action: Action | str, decision: Decision, where: Span) -> IllegalActionError:
    reason = decision.why_not(action) if decision.why_not and isinstance(action, Action) else None
    hint = f"legal now: {', '.join(map(str, decision.options[:8]))}" + (" …" if len(decision.options) > 8 else "")
    message = f"illegal action {str(action)!r} for {decision.side} ({decision.kind})"
    if reason:
        message += f": {reason}"
    return IllegalActionError(diagnostic("E801", where, message, hint))


def parse_choice(text: str, decision: Decision, where: Span | None = None) -> Action:
    """The option ``text`` names: its number (1-based), its full words, or a unique prefix.

    The same rules as ``Game.parse_action``, for agents that see only the decision.

    Raises:
        IllegalActionError / AmbiguousActionError: when ``text`` names no option, or more than one.
    """
    where = where or Span.point("<input>")
    options = decision.options
    text = " ".join(text.split())
    if text.isdigit() and 1 <= int(text) <= len(options):
        return options[int(text) - 1]
    exact = Action.parse(text)
    if exact in options:
        return exact
    matches = [o for o in options if str(o).startswith(text)] if text else []
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise AmbiguousActionError(diagnostic("E802", where, f"{text!r} matches {len(matches)} actions",
                                              "; ".join(map(str, matches[:6]))))
    raise illegal(exact, decision, where)
