"""Stacking rules compiled: each limit line, and which line every unit type counts against.

A unit counts against the first ``limit … for WHO`` line naming it, else (unless ``exempt``) against
the general ``limit``; a marker counts only with ``counts for stacking yes``, a dummy unless it says
``no`` (docs/reference.md, "stacking").  That is decided here, once per rulebook and type.
"""

from __future__ import annotations

import math
from typing import Iterable, Mapping

from attrs import field, frozen

from ..model import Declaration, Property
from .lines import ForLine, as_names, for_lines, line_for
from .units import UnitType


@frozen
class OnePerCell:
    """``one per cell WHO…``: at most one counter each of these names per cell."""

    name: str
    source: Property = field(repr=False)


@frozen
class Stacking:
    """One ``stacking`` declaration, every line of it read."""

    name: str
    decl: Declaration = field(repr=False)
    limits: tuple[ForLine[int], ...]
    one_per_cell: tuple[OnePerCell, ...]
    checked: str | None
    """``always``, ``end`` (at end of phases), ``during`` (during movement), or ``None`` (unsaid)."""
    checked_source: Property | None = field(repr=False)
    excess_box: str | None
    enemy_cells_forbidden: Property | None = field(repr=False)
    """The ``enemy cells forbidden`` line, if the rule has one."""
    line_of: Mapping[str, int | None] = field(repr=False)
    """Each unit type's ``limit`` line (its index), or ``None`` when it counts against none."""
    one_names: Mapping[str, frozenset[str]] = field(repr=False)
    """Each unit type's names among the ``one per cell`` lines."""
    counts: tuple[int, ...] = field(init=False, repr=False)
    """Each ``limit`` line's count."""
    safe_size: float = field(init=False, repr=False)
    """So many counters or fewer together break no line of this rule (no limit below it)."""

    def __attrs_post_init__(self) -> None:
        # Asked for every stack a search considers: worked out once.
        counts = tuple(line.value for line in self.limits)
        object.__setattr__(self, "counts", counts)
        object.__setattr__(self, "safe_size", min([*counts, *((1,) if self.one_per_cell else ())], default=math.inf))

    @property
    def on_moves(self) -> bool:
        """Checked where a move ends: ``checked always``, ``during movement``, or when unsaid."""
        return self.checked in (None, "always", "during")


def _line_of(limits: tuple[ForLine[int], ...], exempt: tuple[str, ...], unit_type: UnitType) -> int | None:
    if unit_type.kind != "unit":
        if not (unit_type.counts_for_stacking or (unit_type.dummy and unit_type.counts_for_stacking is not False)):
            return None
    elif unit_type.counts_for_stacking is False:
        return None
    line = line_for(limits, unit_type.selectors)
    if line is not None and line.who:
        return limits.index(line)
    if unit_type.matches(exempt):
        return None
    return None if line is None else limits.index(line)


def _checked(line: Property | None) -> str | None:
    if line is None:
        return None
    return next(word for word in ("always", "end", "during") if line.has(word))


def compile_stacking(decl: Declaration, unit_types: Iterable[UnitType]) -> Stacking:
    """One ``stacking`` declaration as a ``Stacking``, with the line each of ``unit_types`` counts against."""
    limits = for_lines(decl.all("limit"), lambda p: int(p.get("count")))
    exempt = tuple(n for p in decl.all("exempt") for n in as_names(p.get("who")))
    ones = tuple(OnePerCell(name, p) for p in decl.all("one") for name in as_names(p.get("who")))
    checked, excess = decl.first("checked"), decl.first("excess")
    types = tuple(unit_types)
    return Stacking(
        name=decl.name, decl=decl, limits=limits, one_per_cell=ones,
        checked=_checked(checked), checked_source=checked,
        excess_box=str(excess.get("box")) if excess is not None else None,
        enemy_cells_forbidden=next((p for p in decl.all("enemy") if p.has("forbidden")), None),
        line_of={t.name: _line_of(limits, exempt, t) for t in types},
        one_names={t.name: frozenset(o.name for o in ones if t.matches([o.name])) for t in types},
    )
