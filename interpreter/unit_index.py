"""A state's indexes of its units (by id, by cell, on the map by side, each unit's place), and
how one state hands them on to the next, updated for the units that changed rather than rebuilt
(``GameState.with_unit`` and its kin): a move changes one unit of hundreds, and the next state
is asked about cells and sides at once.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from typing import Protocol


class Unit(Protocol):
    """What the indexes read of a unit (``state.Unit``; named here so this module needs not import
    the state, which imports it)."""

    id: str
    location: str
    side: str
    on_map: bool


def _placed(here: tuple[Unit, ...] | None, unit: Unit, positions: dict[str, int]) -> tuple[Unit, ...]:
    """A cell's units (in ``units`` order, by ``positions``) with ``unit`` put in its place."""
    if not here:
        return (unit,)
    place = positions[unit.id]
    if len(here) <= _SHORT:
        cut = 0
        for other in here:
            if positions[other.id] > place:
                break
            cut += 1
        return (*here[:cut], unit, *here[cut:])
    cut = bisect_right(here, place, key=lambda u: positions[u.id])
    return (*here[:cut], unit, *here[cut:])


def _side_changed(by_side: dict[str, tuple[Unit, ...]], before: Unit, after: Unit, was_on_map: bool,
                  on_map: bool, positions: dict[str, int]) -> dict[str, tuple[Unit, ...]] | None:
    """``on_map_by_side`` updated in place for a unit that came onto the map, left it or changed
    sides: out of its old side's tuple, into its new side's at its place in ``units``.  ``None``
    (built afresh if asked) when a side's entry would come or go, so that the sides keep the order
    a fresh index gives them."""
    if was_on_map:
        mine = by_side.get(before.side, ())
        if len(mine) <= 1:
            return None
        by_side[before.side] = tuple([u for u in mine if u is not before])
    if on_map:
        theirs = by_side.get(after.side)
        if theirs is None:
            return None
        by_side[after.side] = _placed(theirs, after, positions)
    return by_side



def _swapped_in_place(mine: tuple[Unit, ...], swaps: list[tuple[Unit, Unit]],
                      positions: dict[str, int] | None) -> tuple[Unit, ...] | None:
    """A side's units (in ``units`` order) with a few of them swapped, each found by bisection on
    its place in ``units``: a fight flags two or three attackers of a side of hundreds, and a pass
    over them all at each flag made a fight units × decisions.  ``None`` (rebuild it in one pass)
    when many change or a unit is not where its place says."""
    if not positions or len(swaps) * 8 >= len(mine):
        return None
    out = list(mine)
    for before, after in swaps:
        at = bisect_left(out, positions[before.id], key=lambda u: positions[u.id])
        if at >= len(out) or out[at] is not before:
            return None
        out[at] = after
    return tuple(out)


_KEEP = object()
"""An argument not given (``UnitIndex.handed_on_one``'s ``positions``)."""


_SHORT = 16
"""Tuples of a cell's or side's units up to this long are searched by a plain pass (no key function
made and called for a bisection)."""


def _swapped(here: tuple[Unit, ...], before: Unit, after: Unit) -> tuple[Unit, ...]:
    """``here`` with ``after`` in the place of ``before`` (the same object), in one pass without a
    function made for it."""
    if len(here) == 1:
        return (after,)
    at = 0
    for unit in here:
        if unit is before:
            return (*here[:at], after, *here[at + 1:])
        at += 1
    return here


def _without(here: tuple[Unit, ...], gone: Unit) -> tuple[Unit, ...]:
    """``here`` less ``gone`` (the same object)."""
    at = 0
    for unit in here:
        if unit is gone:
            return (*here[:at], *here[at + 1:])
        at += 1
    return here


class UnitIndex:
    """A state's indexes of its units, each ``None`` until built.  Held by the state alone (which
    is frozen; its indexes are derived data) and read through its methods: another module never
    keeps one across a change of state."""

    __slots__ = ("by_cell", "by_id", "on_map_by_side", "positions")

    def __init__(self, positions: dict[str, int] | None = None, by_id: dict[str, Unit] | None = None,
                 by_cell: dict[str, tuple[Unit, ...]] | None = None,
                 on_map_by_side: dict[str, tuple[Unit, ...]] | None = None):
        self.positions = positions
        """Each unit id's place in ``units``: the same in every state ``with_units`` derives."""
        self.by_id = by_id
        self.by_cell = by_cell
        self.on_map_by_side = on_map_by_side

    def handed_on_one(self, before: Unit, after: Unit, positions: dict[str, int] | None = _KEEP) -> "UnitIndex":
        """``handed_on(((before, after),))``: one unit swapped, the commonest change (a move, a flag).
        ``positions``: this index's own, when the caller has them at hand."""
        if positions is _KEEP:
            positions = self.positions
        by_id, by_cell, by_side = self.by_id, self.by_cell, self.on_map_by_side  # (``_given_up``, inline)
        self.by_id = self.by_cell = self.on_map_by_side = None
        if by_id is not None:
            by_id[after.id] = after
        cell, was = after.location, before.location
        if by_cell is not None:
            if was == cell:
                by_cell[cell] = _swapped(by_cell[cell], before, after)
            else:
                left = by_cell[was]
                if len(left) == 1:
                    del by_cell[was]
                else:
                    by_cell[was] = _without(left, before)
                by_cell[cell] = _placed(by_cell.get(cell), after, positions)
        if by_side is not None:
            on_map, was_on_map = cell[:1].isdigit(), was[:1].isdigit()
            if before.side != after.side or was_on_map != on_map:
                by_side = _side_changed(by_side, before, after, was_on_map, on_map, positions)
            elif on_map:
                side = after.side
                mine = by_side[side]
                if len(mine) <= _SHORT or not positions:
                    by_side[side] = _swapped(mine, before, after)
                else:  # found by its place in ``units`` and sliced in C: a side may have hundreds of units
                    at = bisect_left(mine, positions[before.id], key=lambda u: positions[u.id])
                    if at < len(mine) and mine[at] is before:
                        by_side[side] = (*mine[:at], after, *mine[at + 1:])
                    else:
                        by_side[side] = _swapped(mine, before, after)
        new = UnitIndex.__new__(UnitIndex)
        new.positions, new.by_id, new.by_cell, new.on_map_by_side = positions, by_id, by_cell, by_side
        return new

    def handed_on(self, swaps: Iterable[tuple[Unit, Unit]]) -> "UnitIndex":
        """The indexes of the state with the ``(before, after)`` units swapped in place.

        Each cell's and each side's tuple is rebuilt once, however many of its units changed (a
        phase's flags cleared change most units at once)."""
        swaps = list(swaps)
        if len(swaps) == 1:
            return self.handed_on_one(*swaps[0])
        if self.on_map_by_side is not None and any(
                before.side != after.side or before.location[:1].isdigit() != after.location[:1].isdigit()
                for before, after in swaps):
            return self._handed_on_each(swaps)  # units came, left or changed sides: their sides' tuples too
        positions = self.positions
        after_of = {after.id: after for _, after in swaps}
        if len(after_of) != len(swaps):
            return self._handed_on_each(swaps)  # a unit changed twice: one swap after the other
        by_id, by_cell, by_side = self._given_up()
        if by_id is not None:
            by_id.update(after_of)
        if by_cell is not None:
            staying: dict[str, Unit] = {}
            for before, after in swaps:
                if before.location == after.location:
                    staying[after.id] = after
                    continue
                cell = after.location
                left = by_cell[before.location]
                if len(left) == 1:
                    del by_cell[before.location]
                else:
                    by_cell[before.location] = tuple([u for u in left if u is not before])
                by_cell[cell] = _placed(by_cell.get(cell), after, positions)
            if staying:
                get = staying.get
                for cell in {u.location for u in staying.values()}:
                    by_cell[cell] = tuple([get(u.id, u) for u in by_cell[cell]])
        if by_side is not None:
            sides = set()
            for before, after in swaps:  # (none changed sides nor came or left: see above)
                if after.location[:1].isdigit():
                    sides.add(after.side)
            if by_side is not None and sides:
                get = after_of.get
                for side in sides:
                    mine = by_side[side]
                    swapped = _swapped_in_place(mine, [pair for pair in swaps if pair[1].side == side
                                                       and pair[1].location[:1].isdigit()], positions)
                    by_side[side] = swapped if swapped is not None else tuple([get(u.id, u) for u in mine])
        return UnitIndex(positions, by_id, by_cell, by_side)

    def handed_on_in_place(self, swaps: list[tuple[Unit, Unit]], after_of: dict[str, Unit]) -> "UnitIndex":
        """The indexes of the state with the ``(before, after)`` units swapped, each in the same cell
        and side (``GameState.with_units_in_place``); ``after_of``: the new units by id."""
        by_id, by_cell, by_side = self._given_up()
        if not after_of:
            return UnitIndex(self.positions, by_id, by_cell, by_side)
        if by_id is not None:
            by_id.update(after_of)
        get = after_of.get
        if by_cell is not None:
            for cell in {u.location for u in after_of.values()}:
                by_cell[cell] = tuple([get(u.id, u) for u in by_cell[cell]])
        if by_side is not None:
            for side in {u.side for u in after_of.values() if u.location[:1].isdigit()}:
                mine = by_side[side]
                swapped = None if len(swaps) * 8 >= len(mine) else _swapped_in_place(  # (a few of many)
                    mine, [pair for pair in swaps if pair[1].side == side and pair[1].location[:1].isdigit()],
                    self.positions)
                by_side[side] = swapped if swapped is not None else tuple([get(u.id, u) for u in mine])
        return UnitIndex(self.positions, by_id, by_cell, by_side)

    def handed_on_added(self, unit: Unit, position: int) -> "UnitIndex":
        """The indexes of the state with ``unit`` added at ``position``, the end of ``units`` (so it
        comes last in its cell's and its side's tuples, as a rebuild would put it).  A unit whose id
        is already there (which a game never adds) leaves every index to be built afresh."""
        if unit.id in (self.positions or self.by_id or ()):
            return UnitIndex()
        positions = self.positions
        if positions is not None:  # (shared by every state derived by swaps, so copied here)
            positions = {**positions, unit.id: position}
        by_id, by_cell, by_side = self._given_up()
        if by_id is not None:
            by_id[unit.id] = unit
        if by_cell is not None:
            by_cell[unit.location] = (*by_cell.get(unit.location, ()), unit)
        if by_side is not None and unit.on_map:
            by_side[unit.side] = (*by_side.get(unit.side, ()), unit)
        return UnitIndex(positions, by_id, by_cell, by_side)

    def _given_up(self) -> tuple[dict | None, dict | None, dict | None]:
        """This index's ``by_id``, ``by_cell`` and ``on_map_by_side``, handed over to be updated in
        place for the next state (copying them would cost a step per unit at every change): this
        index forgets them, so a state still holding it builds its own again if it is ever asked."""
        given = self.by_id, self.by_cell, self.on_map_by_side
        self.by_id = self.by_cell = self.on_map_by_side = None
        return given

    def _handed_on_each(self, swaps: list[tuple[Unit, Unit]]) -> "UnitIndex":
        """``handed_on`` one swap after the other (for swaps that change a unit more than once)."""
        index = self
        for before, after in swaps:
            index = index.handed_on_one(before, after)
        return index
