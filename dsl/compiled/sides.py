"""Sides compiled: names, hidden counters, dummies, and where none of a side's units may go."""

from __future__ import annotations

from attrs import field, frozen

from ..model import Declaration, Property
from .lines import as_names


@frozen
class SideBarrier:
    """``never enters WHERE… [unless option OPTION]``: lifted while that optional rule is in force."""

    where: tuple[str, ...]
    unless_option: str | None
    source: Property = field(repr=False)


@frozen
class Side:
    """One side, every line of it read."""

    name: str
    label: str
    decl: Declaration = field(repr=False)
    short: str
    """The short name logs use (the first letter, upper case, when none is written)."""
    face_down: bool
    """``counters face down``: the side's counters are hidden from the other side."""
    dummies: int | str | None
    """``dummies N``, ``"none"``, ``"up to units"``; ``None`` when the side sets no limit."""
    dummies_source: Property | None = field(repr=False)
    inspects_stacks: bool
    """``inspects enemy stacks``: the side sees the other sides' face-down counters on the map as if
    they were face up (``Game.observe``); ``inspects enemy nothing``, or no line, only where they are."""
    barriers: tuple[SideBarrier, ...]


def _dummies(line: Property | None) -> int | str | None:
    if line is None:
        return None
    if line.has("none"):
        return "none"
    if line.has("up"):
        return "up to units"
    return int(line.get("count"))


def compile_side(decl: Declaration) -> Side:
    """One ``side`` declaration as a ``Side``."""
    short = decl.first("short")
    counters = decl.first("counters")
    dummies = decl.first("dummies")
    inspects = decl.first("inspects")
    return Side(
        name=decl.name, label=decl.display, decl=decl,
        short=str(short.get("name")) if short is not None else decl.name[:1].upper(),
        face_down=bool(counters is not None and counters.has("down")),
        dummies=_dummies(dummies), dummies_source=dummies,
        inspects_stacks=bool(inspects is not None and inspects.has("stacks")),
        barriers=tuple(SideBarrier(as_names(p.get("where")),
                                   str(p.get("option")) if p.get("option") is not None else None, p)
                       for p in decl.all("never")),
    )
