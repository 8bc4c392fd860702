"""Zones of control compiled: where each extends, what it does to a move, and who exerts it.

``zone NAME { … }`` becomes a ``ZoneRule``; every line of the kind is read here, once.
"""

from __future__ import annotations

from attrs import field, frozen

from ..model import Declaration, Property
from .lines import as_names
from .units import UnitType


@frozen
class Interception:
    """``intercepts WHO… paying ACTION``."""

    who: tuple[str, ...]
    action: str
    source: Property = field(repr=False)


@frozen
class ZoneRule:
    """A ``zone`` declaration, read."""

    decl: Declaration = field(repr=False)
    into: frozenset[str] | None
    range: int
    stops: bool
    zone_to_zone: bool
    blocks_retreat: bool
    exerted_by: tuple[str, ...] | None
    ignored_by: tuple[str, ...] | None = None
    intercepts: Interception | None = None
    stops_source: Property | None = field(default=None, repr=False)
    locks: bool = False
    """``locks units in it``: an enemy unit that stands in it when a ``do move`` starts does not move."""

    @property
    def name(self) -> str:
        return self.decl.name

    def is_ignored_by(self, unit_type: UnitType) -> bool:
        """Whether the zone's ``ignored by`` names the moving unit's type."""
        return self.ignored_by is not None and unit_type.matches(self.ignored_by)


def compile_zone(decl: Declaration) -> ZoneRule:
    """One ``zone`` declaration as a ``ZoneRule``."""
    into, rng, exerted, ignored = decl.first("into"), decl.first("range"), decl.first("exerted"), decl.first("ignored")
    intercepts = decl.first("intercepts")
    return ZoneRule(
        decl, frozenset(as_names(into.get("where"))) if into else None,
        rng.get("range") if rng else 1, decl.has("stops"), decl.has("zone"),
        any(p.has("retreat") for p in decl.all("blocks")),
        as_names(exerted.get("who")) if exerted else None,
        as_names(ignored.get("who")) if ignored else None,
        Interception(as_names(intercepts.get("who")), str(intercepts.get("action")), intercepts) if intercepts else None,
        decl.first("stops"), decl.has("locks"),
    )
