"""Boxes and placements compiled: holding areas off the map, and where counters entering play may go.

``box NAME { … }`` becomes a ``Box``, ``placement NAME { … }`` a ``Placement``; every line of those
kinds is read here, once.
"""

from __future__ import annotations

from attrs import field, frozen

from ..model import Declaration
from .lines import as_names
from .units import UnitType

EDGES = ("north", "south", "east", "west")


@frozen
class Box:
    """One box, every line of it read."""

    name: str
    label: str
    decl: Declaration = field(repr=False)
    per_side: bool
    draw_at_random: bool
    draws_shown_for: frozenset[str]
    """The sides whose draws from it the opponent sees."""
    returns_via: str | None
    never_placed_with_enemy: bool
    unplaced_to: str | None
    holds_eliminated: bool

    def shows_draws_of(self, side: str) -> bool:
        """Whether a counter ``side`` takes from here is shown to the opponent (every counter taken,
        unless the box is drawn from at random)."""
        return not self.draw_at_random or side in self.draws_shown_for


def compile_box(decl: Declaration) -> Box:
    """One ``box`` declaration as a ``Box``."""
    draws, returns, unplaced = decl.first("draws"), decl.first("returns"), decl.first("unplaced")
    return Box(
        name=decl.name, label=decl.display, decl=decl, per_side=decl.has("per"),
        draw_at_random=decl.has("draw"),
        draws_shown_for=frozenset(as_names(draws.get("sides"))) if draws is not None else frozenset(),
        returns_via=str(returns.get("box")) if returns is not None else None,
        never_placed_with_enemy=any(p.has("placed") for p in decl.all("never")),
        unplaced_to=str(unplaced.get("box")) if unplaced is not None else None,
        holds_eliminated=decl.has("holds"),
    )


@frozen
class Holding:
    """``with WHO… [of OF…]``: cells holding a friendly counter these name (and, with ``of``, those too)."""

    who: tuple[str, ...]
    of: tuple[str, ...]


@frozen
class Placement:
    """One placement, every line of it read."""

    name: str
    decl: Declaration = field(repr=False)
    side: str | None
    units: tuple[str, ...]
    units_except: tuple[str, ...]
    on: tuple[tuple[str, ...], ...]
    """Each ``on`` line's names: a cell must match every line."""
    holding: tuple[Holding, ...]
    edges: frozenset[str] | None
    """``at map edge …`` (``None``: no such line)."""
    anywhere: bool
    to: str | None
    traced: tuple[str, ...] = ()
    """Each ``in TRACE`` line's trace: a cell must be one the placing side can trace each from."""

    @property
    def box_only(self) -> bool:
        """Places in its ``to`` box alone: it names no cells."""
        return self.to is not None and not (self.on or self.holding or self.edges is not None or self.anywhere
                                            or self.traced)

    def places(self, unit_type: UnitType, side: str) -> bool:
        """Whether it places a counter of this type and side."""
        if self.side is not None and self.side != side:
            return False
        return bool(self.units) and unit_type.matches(self.units) and not unit_type.matches(self.units_except)


def compile_placement(decl: Declaration) -> Placement:
    """One ``placement`` declaration as a ``Placement``."""
    side, units, edge, to = decl.first("side"), decl.first("units"), decl.first("at"), decl.first("to")
    return Placement(
        name=decl.name, decl=decl,
        side=str(side.get("side")) if side is not None else None,
        units=as_names(units.get("who")) if units is not None else (),
        units_except=as_names(units.get("except")) if units is not None else (),
        on=tuple(as_names(p.get("where")) for p in decl.all("on")),
        holding=tuple(Holding(as_names(p.get("who")), as_names(p.get("of"))) for p in decl.all("with")),
        edges=frozenset(e for e in EDGES if edge.has(e)) if edge is not None else None,
        anywhere=decl.has("anywhere"),
        to=str(to.get("box")) if to is not None else None,
        traced=tuple(str(p.get("trace")) for p in decl.all("in")),
    )
