"""The game API: ``Game.new(scenario, seed)``, ``legal_actions()``, ``apply()``, ``observe()``, save and load.

The game is a generator (``interpreter.flow.play``) paused at a ``Decision``.
``apply`` checks the action is legal (python-chess's ``push`` after
``is_legal``), sends it in, and runs to the next decision.  The log records the
scenario, the rulebook hash, the seed and every decision and roll; loading a
save replays the choices and checks every line of the log comes out the same, so
load = replay (event sourcing).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from itertools import repeat
from operator import is_
from typing import Any

from ..dsl.ast import Span
from ..dsl.diagnostics import Diagnostic, RulesError, Severity, diagnostic, did_you_mean
from ..dsl.lint import lint_rulebook
from ..dsl.model import Rulebook
from . import savefile
from .actions import Action, Batch, Decision, IllegalActionError, illegal, parse_choice
from .checkpoint import START, Checkpoint, checkpoint, filed, restored
from .context import Context
from .flow import play
from .procedures import missing_procedures
from .scenario import Scenario, load_scenario, with_rulebook

TERMINAL = "terminal"
CHECKPOINTS_KEPT = 32
"""A game keeps every checkpoint of its last this many choices (an undo steps back to the one
before the decision it takes back) and, before them, one per this many choices: each holds a state
that would otherwise be freed, and the garbage collector's work grows with every state kept."""

class Game:
    """One game in progress."""

    def __init__(self, scenario: Scenario, seed: int):
        shared = scenario.rules.derived  # the rulebook's answer, kept with its compiled rules
        if "lint errors" not in shared:
            shared["lint errors"] = lint_errors(scenario.rulebook)
        if shared["lint errors"]:
            raise RulesError(list(shared["lint errors"]))
        if "missing procedures" not in shared:
            shared["missing procedures"] = missing_procedures(scenario.rules)
        missing = shared["missing procedures"]
        if missing:
            raise RulesError([diagnostic("E805", call.source.span, f"procedure {call.procedure!r} is not supported yet")
                              for call in missing])
        self._start(scenario, seed, Context(scenario, seed), START, [], [START], [])

    def _start(self, scenario: Scenario, seed: int, ctx: Context, at: Checkpoint, log: list[dict],
               checkpoints: list[Checkpoint], choices: list[str]) -> None:
        """Run the sequence of play from ``at`` (on ``ctx``, rebuilt from it, after ``choices``) to
        the next decision."""
        self.scenario = scenario
        self.seed = seed
        self.ctx = ctx
        self.choices: list[str] = choices
        self.log: list[dict] = log
        self.replayed = 0
        """How many choices building this game replayed (a copy, undo or unpickle; ``checkpoint``)."""
        self._checkpoints: list[Checkpoint] = checkpoints
        self._thinned = len(choices)
        self._flow = play(ctx, at.position)
        self._pending: Decision | None = None
        self._resumable = False
        """Whether the pending decision is one its procedure declared resumable and its exact
        checkpoint is not taken yet (``_exact``)."""
        self._advance(None)

    @classmethod
    def new(cls, *args: Any, seed: int | None = None, options: Mapping[str, bool] | None = None) -> "Game":
        """Start a game: ``Game.new(scenario, seed)`` or ``Game.new(rulebook, scenario, seed)``.

        ``scenario`` is a loaded ``Scenario`` or a path to one.  A ``rulebook`` (a loaded
        ``Rulebook`` or a path) replaces the scenario's own rules: a house rule played on a
        shipped scenario.  It must declare what the scenario needs (its terrain, unit types and,
        for a result, its victory conditions).  ``options`` switches optional rules on (``True``)
        or off, as the players agree before play, on top of the scenario's own; a save records
        them (``Scenario.agree``).

        >>> Game.new("tests/interpreter/fixtures/mini/mini.toml", 1).current_player()
        'red'

        Raises:
            RulesError: when the scenario, its rulebook or map is bad, uses unsupported procedures,
                or ``options`` names an option the rulebook does not declare (E804).
            TypeError: for a call with neither form, or an option set to something other than a bool.
        """
        rulebook = None
        if len(args) == 3 or (len(args) == 2 and not isinstance(args[1], int)):
            rulebook, scenario, *rest = args
        elif len(args) in (1, 2):
            scenario, *rest = args
        else:
            raise TypeError("Game.new(scenario, seed) or Game.new(rulebook, scenario, seed)")
        if rest:
            seed = rest[0]
        if not isinstance(scenario, Scenario):
            scenario = load_scenario(scenario)
        if rulebook is not None:
            scenario = with_rulebook(scenario, rulebook)
        if options:
            _check_options(scenario, options)
            scenario = scenario.agree(options)
        return cls(scenario, 0 if seed is None else int(seed))

    # --- stepping ----------------------------------------------------------------------

    def _flush(self) -> None:
        events = self.ctx.events
        if events:
            self.log.extend(events)
            events.clear()

    def _advance(self, action: Action | None) -> None:
        try:
            self._pending = self._flow.send(action) if action is not None else next(self._flow)
        except StopIteration:
            self._pending = None
        ctx = self.ctx
        mark = ctx.mark
        if mark is not None:  # the procedure asking started since the last decision (``checkpoint``)
            ctx.mark = None
            if self._pending is not None:  # (a game that ended inside the procedure has left its position)
                self._checkpoints.append(filed(ctx, mark, len(self.choices), len(self.log)))
        self._flush()
        self._resumable = ctx.resume and self._pending is not None
        if len(self.choices) - self._thinned >= CHECKPOINTS_KEPT:
            self._thin()

    def _exact(self) -> None:
        """Take the exact checkpoint of the pending decision, if it is resumable and not taken yet.

        Taken only when a copy, a pickle or ``checkpoints`` asks, while the game stands at the
        decision: nothing changes the context between two decisions, so it is the checkpoint
        ``_advance`` would have taken.  A decision played on without one asked for keeps none (it
        cost a copy of the procedure's progress at every decision, for an undo that replays from
        the procedure's start instead)."""
        if self._resumable:
            self._resumable = False
            self._checkpoints.append(checkpoint(self.ctx, len(self.choices), len(self.log), self._pending))

    def _thin(self) -> None:
        """Keep every checkpoint of the last ``CHECKPOINTS_KEPT`` choices, and of the older ones
        the first of each ``CHECKPOINTS_KEPT`` choices."""
        made = self._thinned = len(self.choices)
        kept: list[Checkpoint] = []
        block = -1
        for at in self._checkpoints:
            if at.choices >= made - CHECKPOINTS_KEPT or at.choices // CHECKPOINTS_KEPT != block:
                kept.append(at)
                block = at.choices // CHECKPOINTS_KEPT
        self._checkpoints = kept

    @property
    def state(self):
        return self.ctx.state

    @property
    def decision(self) -> Decision | None:
        """The pending decision, or ``None`` when the game is over."""
        return self._pending

    def current_player(self) -> str:
        return self._pending.side if self._pending else TERMINAL

    def legal_actions(self) -> Sequence[Action]:
        """The pending decision's options, in order (OpenSpiel's ``legal_actions``): a tuple, or an
        ``actions.Batch`` that makes each action as it is read; ``()`` once the game is over."""
        return self._pending.options if self._pending else ()

    def is_over(self) -> bool:
        return self._pending is None

    def result(self) -> dict | None:
        return self.ctx.result

    def parse_action(self, text: str) -> Action:
        """An action from text: its full words, its number in the option list (1-based), or a unique prefix.

        Raises:
            IllegalActionError / AmbiguousActionError: when it is not one legal option.
        """
        if self._pending is None:
            raise IllegalActionError(diagnostic("E801", Span.point("<action>"), "the game is over", None))
        return parse_choice(text, self._pending, Span.point("<action>"))

    def apply(self, action: Action | str) -> None:
        """Play a legal action.

        Raises:
            IllegalActionError: when the action is not among ``legal_actions()``; the game is unchanged.
        """
        if isinstance(action, str):
            action = self.parse_action(action)
        decision = self._pending
        if decision is None or not _offered(action, decision.options):
            raise illegal(action, decision, Span.point("<action>")) if decision else \
                IllegalActionError(diagnostic("E801", Span.point("<action>"), "the game is over"))
        text = str(action)
        self.log.append({"type": "decision", "side": decision.side, "kind": decision.kind,
                         "options": len(decision.options), "choice": text})
        self.choices.append(text)
        self._advance(action)

    # --- what a side may see ------------------------------------------------------------

    def observe(self, side: str) -> dict[str, Any]:
        """What ``side`` may know: its own units in full, enemy counters face down only as ``hidden``
        (a side that ``inspects enemy stacks`` sees those on the map as if face up), the ``step`` of
        a counter it identifies that has lost steps (never of one it does not); its own
        resources, and the other sides' only for a resource declared ``open``; when the rulebook
        declares ``control``, who holds each cell (``control``: cell to side; public); the
        weather, once the game has one; and, in an operation, the ids of its own ``force``."""
        units = []
        for unit in self.state.units:
            if self.ctx.identifies(side, unit):
                units.append({"id": unit.id, "side": unit.side, "type": unit.type, "location": unit.location,
                              "mode": unit.mode, "dummy": unit.dummy if unit.side == side else None})
                if unit.step > 1:
                    units[-1]["step"] = unit.step
                if unit.status:
                    units[-1]["status"] = sorted(unit.status)
            elif unit.on_map:
                units.append({"id": unit.id, "side": unit.side, "type": None, "location": unit.location,
                              "mode": None, "dummy": None})
        resources = {f"{s}.{r}": str(v) for s, r, v in self.state.resources if s == side or self._open(r)}
        seen = {"side": side, "turn": self.state.turn, "phase": self.state.phase, "units": units,
                "resources": resources, "decision": self._pending if self._pending and self._pending.side == side
                else None}
        if self.ctx.rules.control is not None:
            seen["control"] = dict(self.state.control)  # public: who holds each cell (``interpreter.control``)
        if self.ctx.rules.states:
            seen["states"] = [list(entry) for entry in self.state.side_states]  # public: (side, state) entered
        if self.state.weather is not None:  # the weather is open to every side (interpreter.turns)
            seen["weather"] = self.state.weather
        operation = self.ctx.operation
        if operation is not None and operation.side == side and operation.force:
            seen["force"] = list(operation.force)  # its own force in an operation (``exit NAME`` moves it)
        return seen

    def _open(self, resource: str) -> bool:
        track = self.ctx.rules.resources.get(resource)
        return track is not None and track.open

    # --- save and load (interpreter.savefile) -------------------------------------------------

    def header(self) -> dict[str, Any]:
        """What a save of this game records before its entries (``interpreter.savefile``)."""
        return savefile.header(self)

    def save(self, path: str | os.PathLike, compact: bool = False) -> None:
        """Write the log as JSON lines, atomically: a save that replays wherever it is taken.  A
        compact save keeps only the decisions and the full log's digest (``interpreter.savefile``)."""
        savefile.save(self, path, compact)

    # --- copies, undo, pickle ---------------------------------------------------------------

    def copy(self) -> "Game":
        """An independent game at the same point: the same scenario (its compiled rules and board
        shared, not copied), seed, options, log and choices.

        What either game does next leaves the other as it was; given the same actions, both write
        the same log.  The copy starts from the game's latest checkpoint (``interpreter.checkpoint``):
        the state there is shared (it is frozen), the position in the sequence of play restored as
        data, and only the choices made since it are replayed (``replayed`` counts them): none at a
        decision its procedure declares resumable, elsewhere those since the procedure started or
        since the last resumable decision a copy or pickle was taken at, whichever came later.
        """
        self._exact()
        return self._at(len(self.choices))

    def undo(self) -> None:
        """Take back the last decision: this game becomes the game as it was when that decision
        was asked (from the checkpoint before it, as ``copy``: the choices made since the
        procedure asking it started are replayed, none if a copy was taken at that decision).

        Raises:
            IllegalActionError: when no decision has been made yet.
        """
        if not self.choices:
            raise IllegalActionError(diagnostic("E801", Span.point("<action>"), "there is no decision to undo"))
        self.__dict__.update(self._at(len(self.choices) - 1).__dict__)

    @property
    def checkpoints(self) -> tuple[Checkpoint, ...]:
        """The checkpoints taken so far, oldest first (the start of the game the first): a copy
        starts at the last, an undo at the last before the last decision (``interpreter.checkpoint``)."""
        self._exact()
        return tuple(self._checkpoints)

    def _at(self, choices: int) -> "Game":
        """A new game where this one stood after ``choices`` choices: from the latest checkpoint
        taken by then; an exact one that does not ask the same question again at once (a
        procedure wrongly declared resumable) gives way to the mark before it."""
        for index in range(len(self._checkpoints) - 1, -1, -1):
            at = self._checkpoints[index]
            if at.choices <= choices:
                break
        else:
            index, at = -1, START
        game = _started(self.scenario, self.seed, at, self.log, self.choices[:choices], self._checkpoints[: index + 1])
        if game is None:
            while index >= 0 and (self._checkpoints[index].exact or self._checkpoints[index].choices > choices):
                index -= 1
            at = self._checkpoints[index] if index >= 0 else START
            game = resumed(self.scenario, self.seed, at, self.log, self.choices[:choices],
                           self._checkpoints[: index + 1])
        return game

    def _landed(self, at: Checkpoint) -> bool:
        """Whether this game, just started at the exact checkpoint ``at``, stands where it was taken."""
        pending = self._pending
        if len(self.log) != at.log or pending is None or not (self.ctx.state is at.state or self.ctx.state == at.state):
            return False
        return at.asked is None or (pending.side, pending.kind, pending.options) == at.asked

    def __reduce__(self):
        """A pickled game is its scenario, seed, log and choices and its latest checkpoint;
        unpickling starts there and replays the choices made since (``copy``)."""
        self._exact()
        at = self._checkpoints[-1]
        return resumed, (self.scenario, self.seed, at, self.log[: at.log], tuple(self.choices), [START, at])

    @classmethod
    def load(cls, path: str | os.PathLike) -> "Game":
        """Replay a saved log and check every line of it against the replay: same rulebook, scenario,
        options, decisions, rolls and events (``interpreter.log_check``).  A log that stops at a
        decision (a game stopped, or killed while ``savefile.LogWriter`` kept it) loads unfinished.

        Raises:
            RulesError: with an E803 diagnostic at the first line that differs, saying what differs,
                or what changed.
        """
        return savefile.load(cls, path)


def replayed(scenario: Scenario, seed: int, choices: Iterable[str]) -> Game:
    """A new game of ``scenario`` and ``seed`` with ``choices`` (as ``Game.choices`` holds them) played."""
    game = Game(scenario, seed)
    for choice in choices:
        game.apply(Action.parse(choice))
    return game


def resumed(scenario: Scenario, seed: int, at: Checkpoint, log: list[dict], choices: Iterable[str],
            checkpoints: list[Checkpoint]) -> Game:
    """The game of ``scenario`` and ``seed`` that made ``choices``, started at the checkpoint ``at``
    (taken in it, with ``log`` its log then or since): the choices made after it are replayed; from
    the start if ``at`` is exact and does not land (``Game._at``)."""
    game = _started(scenario, seed, at, log, choices, checkpoints)
    return game if game is not None else _started(scenario, seed, START, log, choices, [START])


def _started(scenario: Scenario, seed: int, at: Checkpoint, log: list[dict], choices: Iterable[str],
             checkpoints: list[Checkpoint]) -> Game | None:
    """``resumed``, or ``None`` when ``at`` is exact and the game started there does not stand
    where it was taken (checked before any choice is replayed)."""
    choices = list(choices)
    if at.position is None:
        game = replayed(scenario, seed, choices)  # its checkpoints taken again on the way
        game.replayed = len(choices)
        return game
    game = Game.__new__(Game)
    game._start(scenario, seed, restored(scenario, seed, at), at, log[: at.log], list(checkpoints), choices[: at.choices])
    if at.exact and not game._landed(at):
        return None
    for choice in choices[at.choices:]:
        game.apply(Action.parse(choice))
    game.replayed = len(choices) - at.choices
    return game


_LINTED: dict[str, tuple[Diagnostic, ...]] = {}
"""Lint errors by rulebook hash (its source texts): each rulebook is linted once per process."""


def lint_errors(rulebook: Rulebook) -> tuple[Diagnostic, ...]:
    """The errors ``warbook lint`` reports for the rulebook: a game never starts under rules the
    linter rejects (one contract: what lint accepts is played, what it rejects is not)."""
    key = rulebook.hash if rulebook.sources else None  # a rulebook built in memory has no texts to key
    found = _LINTED.get(key) if key else None
    if found is None:
        found = tuple(d for d in lint_rulebook(rulebook).diagnostics if d.severity is Severity.ERROR)
        if key:
            _LINTED[key] = found
    return found


def _check_options(scenario: Scenario, options: Mapping[str, bool]) -> None:
    """Refuse options the rulebook does not declare (listing those it does), so a misspelt name
    is never silently ignored."""
    for name, on in options.items():
        if type(on) is not bool:
            raise TypeError(f"option {name!r} must be True or False, not {on!r}")
    declared = [d.name for d in scenario.rulebook.of_kind("option")]
    known = f"the rulebook's options: {', '.join(declared)}" if declared else "the rulebook declares no option"
    unknown = [diagnostic("E804", Span.point("<option>"), f"unknown option {name!r}; {known}",
                          did_you_mean(name, declared))
               for name in options if name not in declared]
    if unknown:
        raise RulesError(unknown)


def _offered(action: Action, options: Sequence[Action]) -> bool:
    """Whether ``action`` is one of ``options``: by identity first (agents hand back an option
    itself), then by value (an action parsed from text); a ``Batch`` knows without making its
    actions."""
    if options.__class__ is Batch:
        return action in options
    return any(map(is_, options, repeat(action))) or action in options  # (the first pass in C)
