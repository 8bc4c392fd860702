"""The sequence of play compiled: for each phase and step, what it runs, in what order, for whom.

Each ``phase`` or ``step`` becomes a ``PhasePlan``: its ``do`` lines and nested steps in the order
written, its ``alternate`` and ``repeat`` lines, who it runs for and whether that side may skip it.
The ``sequence`` itself becomes a ``SequencePlan``: how many turns a game lasts.  The flow
(``interpreter.flow``) and the scenario reader read plans, not the declarations' words.

Limits: a plan keeps its ``do``, ``alternate`` and ``repeat`` lines as written; the procedures read
their arguments from them (typed procedure calls are the next step of the compile stage).
"""

from __future__ import annotations

from typing import Union

from attrs import field, frozen

from ..model import Declaration, Property

Sides = Union[None, int, tuple]
"""Who a phase runs for: ``None`` each side in player order (``for each side``), 0 or 1 the first
or second player, ``(SIDE,)`` the named side, ``()`` the acting side (a step without a side),
``(None,)`` no side (a mutual phase, or a step that says ``mutual``)."""


@frozen
class PhasePlan:
    """What one phase or step runs."""

    decl: Declaration = field(repr=False)
    alternate: Property | None = field(repr=False)
    runs: tuple[tuple[Declaration | Property, bool, str | None], ...] = field(repr=False)
    """``(item, is a step, procedure name)`` for each ``do`` line and nested step, in the order written."""
    repeat: Property | None = field(repr=False)
    sides: Sides
    optional: bool = False
    """``optional``: the side each run is for is asked first whether to play it or skip it."""


@frozen
class SequencePlan:
    """The ``sequence`` declaration's own lines."""

    turns: int | None
    """``turns N``: a game lasts N turns unless its scenario gives its own ``turns``; ``None``
    (``turns per scenario``, or no ``turns`` line): the scenario must give them."""


def compile_sequence(decl: Declaration | None) -> SequencePlan:
    """The ``sequence`` declaration (``None`` when the rulebook has none) as a ``SequencePlan``."""
    turns = decl.first("turns") if decl is not None else None
    count = turns.get("count") if turns is not None else None
    return SequencePlan(int(count) if count is not None else None)


def compile_phase(decl: Declaration) -> PhasePlan:
    """One ``phase`` or ``step`` declaration as a ``PhasePlan``."""
    alternate = decl.first("alternate")
    alternated = str(alternate.get("step")) if alternate else None
    items = sorted([*decl.all("do"), *(c for c in decl.children if c.name != alternated)],
                   key=lambda item: (item.span.line, item.span.column))
    runs = tuple((item, True, None) if isinstance(item, Declaration) else (item, False, item.get("procedure"))
                 for item in items)
    side = decl.first("side")
    if decl.has("for"):
        sides: Sides = None  # the player order
    elif side is not None:
        sides = 0 if side.has("first") else 1 if side.has("second") else (str(side.get("side")),)
    elif decl.kind == "step" and not decl.has("mutual"):
        sides = ()  # the acting side
    else:
        sides = (None,)  # no side: a mutual phase or step (a phase with no side line is mutual)
    return PhasePlan(decl, alternate, runs, decl.first("repeat"), sides, decl.has("optional"))
