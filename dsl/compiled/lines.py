"""Lines that may say ``for SELECTOR…``: the one rule for which of them applies to a unit."""

from __future__ import annotations

from typing import Any, Generic, Iterable, TypeVar

from attrs import field, frozen

from ..model import Declaration, Property

V = TypeVar("V")


def as_names(value: Iterable[Any] | None) -> tuple[str, ...]:
    """A rule line's list of names (``who``, ``where`` …) as strings; empty when the line leaves it out.

    >>> as_names(None), as_names(["road", "clear"])
    ((), ('road', 'clear'))
    """
    return tuple(str(v) for v in value or ())


@frozen
class ForLine(Generic[V]):
    """A line's value and the selectors of its ``for`` (none: the general line)."""

    who: tuple[str, ...]
    value: V
    source: Property | None = field(default=None, repr=False)
    """The line as written, for its citation."""


def line_for(lines: Iterable[ForLine[V]], selectors: frozenset[str]) -> ForLine[V] | None:
    """The line that applies to a unit with these selectors: the first whose ``for`` names it,
    else the first general one.

    The one rule for every repeatable property with ``[for SELECTOR]`` (costs, defence, stacking
    limits, zone ranges, spotting ranges, award points): a ``for`` line overrides the general line.

    >>> lines = [ForLine((), 1), ForLine(("jeep",), 2)]
    >>> line_for(lines, frozenset({"jeep"})).value, line_for(lines, frozenset({"tank"})).value
    (2, 1)
    """
    general = None
    for line in lines:
        if line.who:
            if not selectors.isdisjoint(line.who):
                return line
        elif general is None:
            general = line
    return general


def for_lines(props: Iterable[Property], value) -> tuple[ForLine, ...]:
    """Each property as a ``ForLine`` of ``value(prop)``, its ``who`` read from the line."""
    return tuple(ForLine(as_names(p.get("who")), value(p), p) for p in props)


OPTIONAL_KINDS: dict[str, str] = {
    "action": "it is not offered, and nothing may pay for it",
    "award": "it scores nothing",
    "combat": "it is never fought",
    "event": "a table may still give it, but it does nothing",
    "phase": "it is skipped",
    "step": "it is skipped (a phase alternating it alternates nothing)",
    "placement": "it places nothing",
    "spotting": "it finds nothing",
    "stacking": "its limits are not checked",
    "zone": "it is not exerted",
}
"""The kinds that honour ``requires option NAME``, and what a declaration of each is while the
option is off (not in force).  On any other kind the line is an error (lint E135): a terrain, unit
type, side or table that maps, scenarios and other rules name cannot sensibly vanish."""


def required_option(decl: Declaration) -> str | None:
    """The option a declaration's ``requires option`` names, or ``None`` when it has none."""
    line = decl.first("requires")
    return None if line is None else str(line.get("option"))
