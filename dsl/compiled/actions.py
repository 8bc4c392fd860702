"""Actions compiled: who may take each, what it costs (by unit and by year), and what kind it is.

``action NAME { … }`` becomes an ``ActionRule``.  Its prices follow one rule everywhere
(docs/reference.md, "action"): of the ``cost RESOURCE AMOUNT`` lines in force in the scenario's
year (``from YEAR`` from that year on, ``until YEAR`` up to it; with no year known, the undated
lines, else all of them), a unit pays the first whose ``for`` names it, else the first general
one; a pick whose unit is not known yet (a blind draw) pays the first general one.
"""

from __future__ import annotations

from fractions import Fraction

from attrs import field, frozen

from ..model import Declaration, Property
from .lines import as_names


@frozen
class Cost:
    """One ``cost`` line: an amount of a resource, or ``times N transport``."""

    resource: str
    amount: Fraction | None
    """``None`` for a ``times N transport`` line."""
    multiple: int | None
    """The N of ``times N transport``."""
    per_unit: bool
    who: tuple[str, ...]
    since: int | None
    """``from YEAR``."""
    until: int | None
    """``until YEAR``."""
    source: Property = field(repr=False)

    def in_year(self, year: int) -> bool:
        return (self.since is None or year >= self.since) and (self.until is None or year <= self.until)

    @property
    def dated(self) -> bool:
        return self.since is not None or self.until is not None


def _first_for(lines, selectors: frozenset[str] | None):
    """The first line whose ``who`` names one of ``selectors``, else the first without ``who``
    (with ``selectors`` ``None``: a unit not known yet, the first without ``who``)."""
    general = None
    for line in lines:
        if line.who:
            if selectors is not None and not selectors.isdisjoint(line.who):
                return line
        elif general is None:
            general = line
    return general


@frozen
class ActionRule:
    """One action, every line of it read."""

    name: str
    label: str
    decl: Declaration = field(repr=False)
    side: str | None
    """Only this side may take it (``None``: either)."""
    costs: tuple[Cost, ...]
    led_by: tuple[str, ...]
    between: tuple[str, ...] | None
    """``between cells with WHO…`` (``None``: not a redeployment)."""
    strike_with: tuple[str, ...]
    strike_source: Property | None = field(repr=False)
    during: tuple[str, ...]
    once_per_turn: bool
    _priced: dict = field(factory=dict, init=False, eq=False, repr=False)
    """``priced`` by year, worked out once each."""

    def taken_by(self, side: str) -> bool:
        return self.side is None or self.side == side

    def priced(self, year: int | None) -> tuple[Cost, ...]:
        """The ``cost RESOURCE AMOUNT`` lines in force in ``year`` (the module docstring's rule)."""
        found = self._priced.get(year)
        if found is None:
            lines = tuple(c for c in self.costs if c.amount is not None)
            if year is None:
                found = tuple(c for c in lines if not c.dated) or lines
            else:
                found = tuple(c for c in lines if c.in_year(year))
            self._priced[year] = found
        return found

    def price(self, selectors: frozenset[str] | None, year: int | None = None,
              per_unit: bool | None = None) -> Cost | None:
        """The line a unit with these selectors pays (``None`` selectors: a blind pick), or ``None``.

        ``per_unit`` keeps only the ``per unit`` lines (``True``) or only the others (``False``).
        """
        lines = self.priced(year)
        if per_unit is not None:
            lines = tuple(c for c in lines if c.per_unit == per_unit)
        return _first_for(lines, selectors)

    def transport_multiple(self, selectors: frozenset[str]) -> Cost | None:
        """The ``cost R times N transport`` line for a unit with these selectors, or ``None``."""
        return _first_for([c for c in self.costs if c.multiple is not None], selectors)


def _cost(p: Property) -> Cost:
    year = p.get("year")
    amount = p.get("amount")
    return Cost(
        resource=str(p.get("resource")), amount=Fraction(amount) if amount is not None else None,
        multiple=p.get("multiple"), per_unit=p.has("per"), who=as_names(p.get("who")),
        since=year if year is not None and p.has("from") else None,
        until=year if year is not None and p.has("until") else None, source=p,
    )


def compile_action(decl: Declaration) -> ActionRule:
    """One ``action`` declaration as an ``ActionRule``."""
    side, led, between, strike = decl.first("side"), decl.first("led"), decl.first("between"), decl.first("strike")
    return ActionRule(
        name=decl.name, label=decl.display, decl=decl,
        side=str(side.get("side")) if side is not None else None,
        costs=tuple(_cost(p) for p in decl.all("cost")),
        led_by=as_names(led.get("who")) if led is not None else (),
        between=as_names(between.get("who")) if between is not None else None,
        strike_with=as_names(strike.get("markers")) if strike is not None else (), strike_source=strike,
        during=tuple(n for p in decl.all("during") for n in as_names(p.get("phases"))),
        once_per_turn=decl.has("once"),
    )
