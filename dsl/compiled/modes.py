"""Modes (orders a unit may be given) and spotting rules compiled.

A ``mode NAME { … }`` becomes a ``Mode``; a ``spotting NAME { … }`` a ``Spotting``.  Both are read
for every unit many times a decision (may it move, how far it spots), so every line is read here,
once.
"""

from __future__ import annotations

from attrs import field, frozen

from ..model import Declaration, Property
from .lines import ForLine, as_names, for_lines, line_for


@frozen
class RollModifier:
    """``roll modifier MOD [on TABLE] [during PHASE…]``."""

    modifier: int
    table: str | None
    during: tuple[str, ...] = ()
    """The phases and steps it holds in (any of them running); empty: always."""


@frozen
class Mode:
    """One mode, every line of it read."""

    name: str
    label: str
    decl: Declaration = field(repr=False)
    side: str | None
    """Only this side may give it (``None``: either)."""
    who: tuple[str, ...]
    """Only units these name may take it (empty: any unit)."""
    forbids: frozenset[str]
    """``move``, ``attack``, ``transport``: what a unit in this mode may not do."""
    zone_range: tuple[ForLine[int], ...]
    spot_range: tuple[ForLine[int], ...]
    fires_during_enemy_movement: bool
    roll_modifiers: tuple[RollModifier, ...]

    def zone_extra(self, selectors: frozenset[str]) -> int:
        """The ``zone range +N`` for a unit with these selectors (0 when no line applies)."""
        line = line_for(self.zone_range, selectors)
        return int(line.value) if line is not None else 0

    def roll_modifier_on(self, table: str | None, running: frozenset[str] = frozenset()) -> int:
        """The sum of the ``roll modifier`` lines that hold on ``table`` (or on every table) while
        the phases and steps ``running`` run (a line ``during`` none of them does not hold)."""
        return sum(m.modifier for m in self.roll_modifiers if (m.table is None or m.table == table)
                   and (not m.during or not running.isdisjoint(m.during)))


def compile_mode(decl: Declaration) -> Mode:
    """One ``mode`` declaration as a ``Mode``."""
    side = decl.first("side")
    who = decl.first("for")
    return Mode(
        name=decl.name, label=decl.display, decl=decl,
        side=str(side.get("side")) if side is not None else None,
        who=as_names(who.get("who")) if who is not None else (),
        forbids=frozenset(w for p in decl.all("forbids") for w in ("move", "attack", "transport") if p.has(w)),
        zone_range=for_lines(decl.all("zone"), lambda p: int(p.get("modifier"))),
        spot_range=for_lines(decl.all("spot"), lambda p: int(p.get("range"))),
        fires_during_enemy_movement=decl.has("fires"),
        roll_modifiers=tuple(RollModifier(int(p.get("modifier") or 0),
                                          str(p.get("table")) if p.get("table") is not None else None,
                                          as_names(p.get("phases")))
                             for p in decl.all("roll")),
    )


@frozen
class SpotRange:
    """``range N [in MODE] [for WHO…]`` of a spotting rule, or a mode's ``spot range N [for WHO…]``."""

    distance: int
    mode: str | None
    who: tuple[str, ...]


@frozen
class Spotting:
    """One spotting rule, every line of it read."""

    name: str
    decl: Declaration = field(repr=False)
    ranges: tuple[SpotRange, ...]
    dice: str | None
    """``roll DICE against terrain`` (``None``: the terrain's own ``spot … on DICE``)."""
    roll_source: Property | None = field(repr=False)
    unspotted_may_be_attacked: bool
    reveal_on_entering: bool
    hide_again: bool

    def range_of(self, selectors: frozenset[str], mode: Mode | None) -> int | None:
        """How far a unit with these selectors, in ``mode``, spots; ``None`` when no line applies.

        The most specific line wins: one for its mode over one for any mode, then one ``for`` it
        over a general one, then the longest range.
        """
        lines = list(self.ranges)
        if mode is not None:
            lines += [SpotRange(line.value, mode.name, line.who) for line in mode.spot_range]
        best: tuple[int, int] | None = None
        for line in lines:
            if line.mode is not None and (mode is None or line.mode != mode.name):
                continue
            if line.who and selectors.isdisjoint(line.who):
                continue
            key = (2 * (line.mode is not None) + bool(line.who), line.distance)
            if best is None or key > best:
                best = key
        return best[1] if best else None


def compile_spotting(decl: Declaration) -> Spotting:
    """One ``spotting`` declaration as a ``Spotting``."""
    roll = decl.first("roll")
    return Spotting(
        name=decl.name, decl=decl,
        ranges=tuple(SpotRange(int(p.get("range")), str(p.get("mode")) if p.get("mode") is not None else None,
                               as_names(p.get("who"))) for p in decl.all("range")),
        dice=str(roll.get("dice")) if roll is not None and roll.get("dice") is not None else None,
        roll_source=roll,
        unspotted_may_be_attacked=decl.has("unspotted"),
        reveal_on_entering=decl.has("reveal"),
        hide_again=decl.has("hide"),
    )
