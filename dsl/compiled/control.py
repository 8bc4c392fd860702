"""Control and tracing compiled: who holds each cell, and the paths a ``trace`` follows.

``control { … }`` becomes a ``ControlRule``, each ``trace NAME { … }`` a ``TraceRule`` and each
``state NAME { … }`` a ``StateRule``; every line of those kinds is read here, once
(``interpreter.control``, ``interpreter.tracing`` and ``interpreter.side_states`` carry them out).
"""

from __future__ import annotations

from attrs import field, frozen

from ..conditions import Condition, ConditionError, Names, read_condition
from ..model import Declaration, Property
from .lines import as_names


@frozen
class ControlRule:
    """The rulebook's ``control`` declaration, read."""

    decl: Declaration = field(repr=False)
    presence: bool
    """``by presence``: a cell is a side's only while its units alone stand there; else ``by last
    occupant``: it stays the side's after they leave, until an enemy unit enters."""
    cells: tuple[str, ...] | None
    """The selectors of the controlled cells (``None``: every cell)."""
    from_setup: bool
    """``initially by set-up``: the cells a side's units alone stand in when set-up ends are its own."""


def compile_control(decl: Declaration) -> ControlRule:
    """The ``control`` declaration as a ``ControlRule``."""
    by, cells, initially = decl.first("by"), decl.first("cells"), decl.first("initially")
    return ControlRule(
        decl,
        presence=by is not None and by.has("presence"),
        cells=as_names(cells.get("where")) if cells is not None and cells.get("where") else None,
        from_setup=initially is not None and initially.has("set-up"),
    )


@frozen
class TraceSource:
    """One ``to …`` line: where a path may end (``kind`` is ``edge``, ``cells``, ``units`` or
    ``controlled``), for one side only (``side``) or for every side."""

    kind: str
    names: tuple[str, ...] = ()
    """The edges (``north`` …), or the selectors of the cells or units."""
    side: str | None = None


@frozen
class TraceRule:
    """A ``trace NAME { … }`` declaration, read."""

    decl: Declaration = field(repr=False)
    length: int | None
    """At most this many hexes, or movement points (``points_as``); ``None``: any length."""
    points_as: str | None
    """``length N points as UNIT``: the unit type whose costs count (``None``: hexes)."""
    sources: tuple[TraceSource, ...]
    never_through: tuple[str, ...]
    enemy_units: bool
    enemy_zones: bool
    zones_lifted: bool
    """``zones lifted by friendly units``: an enemy zone does not block a cell holding a friendly unit."""

    @property
    def name(self) -> str:
        return self.decl.name

    def sources_for(self, side: str) -> tuple[TraceSource, ...]:
        return tuple(s for s in self.sources if s.side is None or s.side == side)


_EDGES = ("north", "south", "east", "west")


def compile_trace(decl: Declaration) -> TraceRule:
    """One ``trace`` declaration as a ``TraceRule``."""
    length, blocked = decl.first("length"), decl.first("blocked")
    sources = []
    for line in decl.all("to"):
        side = str(line.get("side")) if line.get("side") is not None else None
        if line.get("where"):
            sources.append(TraceSource("cells", as_names(line.get("where")), side))
        elif line.get("who"):
            sources.append(TraceSource("units", as_names(line.get("who")), side))
        elif line.has("controlled"):
            sources.append(TraceSource("controlled", (), side))
        else:
            sources.append(TraceSource("edge", tuple(e for e in _EDGES if line.has(e)), side))
    return TraceRule(
        decl,
        length=length.get("count") if length is not None else None,
        points_as=str(length.get("unit")) if length is not None and length.get("unit") is not None else None,
        sources=tuple(sources),
        never_through=tuple(n for line in decl.all("never") for n in as_names(line.get("where"))),
        enemy_units=blocked is not None and blocked.has("units"),
        enemy_zones=blocked is not None and blocked.has("zones"),
        zones_lifted=decl.has("zones"),
    )


@frozen
class StateRule:
    """A ``state NAME { … }`` declaration, read: a lasting state a side enters (demoralised)."""

    decl: Declaration = field(repr=False)
    sides: tuple[str, ...] | None
    """The sides that may enter it (``None``: every side)."""
    condition: Condition | None
    condition_error: ConditionError | None = field(eq=False)
    source: Property | None = field(repr=False, eq=False)
    """The ``when`` line (for citations and errors)."""
    forbids_attack: bool

    @property
    def name(self) -> str:
        return self.decl.name


def compile_state(decl: Declaration, names: Names) -> StateRule:
    """One ``state`` declaration as a ``StateRule``."""
    sides, when = decl.first("sides"), decl.first("when")
    condition, error = read_condition(when.get("condition") if when is not None else None, names)
    return StateRule(decl, as_names(sides.get("sides")) if sides is not None else None, condition, error, when,
                     forbids_attack=decl.has("forbids"))
