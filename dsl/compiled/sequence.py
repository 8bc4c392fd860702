"""The sequence of play compiled: for each phase and step, what it runs, in what order, for whom.

Each ``phase`` or ``step`` becomes a ``PhasePlan``: its ``do`` lines and nested steps in the order
written, its ``alternate`` and ``repeat`` lines, who it runs for and whether that side may skip it.
Each ``do`` line is a typed call (``dsl.compiled.calls``).  The ``sequence`` itself becomes a
``SequencePlan``: how many turns a game lasts.  The flow (``interpreter.flow``) and the scenario
reader read plans, not the declarations' words.
"""

from __future__ import annotations

from typing import Union

from attrs import field, frozen

from ..conditions import Names
from ..model import Declaration, Property
from .calls import Call, compile_call

Sides = Union[None, int, tuple]
"""Who a phase runs for: ``None`` each side in player order (``for each side``), 0 or 1 the first
or second player, ``(SIDE,)`` the named side, ``()`` the acting side (a step without a side),
``(None,)`` no side (a mutual phase, or a step that says ``mutual``)."""


@frozen
class Alternate:
    """``alternate STEP until all pass [or out of RESOURCE]``."""

    step: Declaration = field(repr=False)
    """The nested step the sides take turns at."""
    resource: str | None
    """A side with none of it left is done for the phase (``None``: only passing ends a side's part)."""
    source: Property = field(repr=False, eq=False)


@frozen
class Repeat:
    """``repeat until CONDITION``: the condition's words (lint E319 names the one the flow knows)."""

    condition: str
    source: Property = field(repr=False, eq=False)


@frozen
class PhasePlan:
    """What one phase or step runs."""

    decl: Declaration = field(repr=False)
    alternate: Alternate | None = field(repr=False)
    runs: tuple[Declaration | Call, ...] = field(repr=False)
    """Each ``do`` line (a ``Call``) and nested step (its ``Declaration``), in the order written."""
    repeat: Repeat | None = field(repr=False)
    sides: Sides
    optional: bool = False
    """``optional``: the side each run is for is asked first whether to play it or skip it."""


@frozen
class TurnRecord:
    """``turn N "LABEL" [weather NAME] [note "TEXT"]``: one row of the turn record."""

    turn: int
    label: str
    weather: str | None
    """The turn's fixed weather, set when the turn starts; ``None``: the weather the game has holds."""
    note: str | None
    source: Property = field(repr=False, eq=False)

    def heading(self, weather: str | None) -> str:
        """``Turn 3: 14 June, Mud — rain``: how narration and ``show`` name the turn (``weather``: its
        label as the turn starts, if any)."""
        return (f"Turn {self.turn}: {self.label}" + (f", {weather}" if weather else "")
                + (f" — {self.note}" if self.note else ""))


@frozen
class SequencePlan:
    """The ``sequence`` declaration's own lines."""

    turns: int | None
    """``turns N``: a game lasts N turns unless its scenario gives its own ``turns``; ``None``
    (``turns per scenario``, or no ``turns`` line): the scenario must give them."""
    record: tuple[TurnRecord, ...] = ()
    """The ``turn`` lines (the turn record), in the order written (lint E325 keeps them 1, 2 …)."""


def compile_sequence(decl: Declaration | None) -> SequencePlan:
    """The ``sequence`` declaration (``None`` when the rulebook has none) as a ``SequencePlan``."""
    turns = decl.first("turns") if decl is not None else None
    count = turns.get("count") if turns is not None else None
    record = tuple(TurnRecord(int(line.get("turn")), str(line.get("label")),
                              None if line.get("weather") is None else str(line.get("weather")),
                              None if line.get("note") is None else str(line.get("note")), line)
                   for line in (decl.all("turn") if decl is not None else ()))
    return SequencePlan(int(count) if count is not None else None, record)


def compile_phase(decl: Declaration, names: Names) -> PhasePlan:
    """One ``phase`` or ``step`` declaration as a ``PhasePlan`` (``names``: to read conditions)."""
    alternate = None
    line = decl.first("alternate")
    if line is not None:
        step = next((c for c in decl.children if c.name == str(line.get("step"))), None)
        resource = line.get("resource")
        if step is not None:  # lint E306 refuses one naming no step of its own (no game starts then)
            alternate = Alternate(step, None if resource is None else str(resource), line)
    items = sorted([*decl.all("do"), *(c for c in decl.children if alternate is None or c is not alternate.step)],
                   key=lambda item: (item.span.line, item.span.column))
    runs = tuple(item if isinstance(item, Declaration) else compile_call(item, names) for item in items)
    repeat = decl.first("repeat")
    if repeat is not None:
        repeat = Repeat(" ".join(str(w) for w in repeat.get("condition") or ()), repeat)
    side = decl.first("side")
    if decl.has("for"):
        sides: Sides = None  # the player order
    elif side is not None:
        sides = 0 if side.has("first") else 1 if side.has("second") else (str(side.get("side")),)
    elif decl.kind == "step" and not decl.has("mutual"):
        sides = ()  # the acting side
    else:
        sides = (None,)  # no side: a mutual phase or step (a phase with no side line is mutual)
    return PhasePlan(decl, alternate, runs, repeat, sides, decl.has("optional"))
