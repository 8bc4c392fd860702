"""The game state: a frozen value; every change makes a new one (attrs ``evolve``, or ``replace``).

Every unit and marker is in exactly one place: a map cell id, or the name of a
holding area (``eliminated``, a rulebook ``box``, ``offmap``).  Nothing here
points into the board graph except cell ids, so one static map serves every
playout.

A state indexes its units by id and by cell on first use (``unit``,
``units_at``).  ``with_unit``/``with_units`` replace units in place in a copy of
the tuple and hand the new state the indexes the old one had built, updated for
the units that changed, so a procedure changing one unit after another never
rebuilds them from scratch.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any, Iterator, TypeVar

import attrs
from attrs import evolve, frozen

T = TypeVar("T")

ELIMINATED = "eliminated"
OFFMAP = "offmap"


@frozen
class Unit:
    """One counter in play.  Units order as the tuples of their fields (ids first)."""

    id: str
    """Stable id from the scenario set-up, e.g. ``A3`` (the side's short letter and a number)."""
    type: str
    side: str
    location: str
    hidden: bool = False
    """Face down: the enemy sees only that a counter is there."""
    dummy: bool = False
    mode: str | None = None
    """An order such as watch or patrol, cleared at the end of the turn."""
    spent: frozenset[str] = frozenset()
    """What the unit has done this phase (``moved``, ``attacked``); cleared at the end of each phase."""
    turn_flags: frozenset[str] = frozenset()
    """What the unit has done this turn (``bombarded``, ``boarded``); cleared at the end of each turn."""

    @property
    def on_map(self) -> bool:
        return self.location[:1].isdigit()

    # The order attrs' ``order=True`` gives (field tuples compared), decided by the ids alone
    # whenever they differ, as they do between any two units of a game, without building tuples.

    def __lt__(self, other: object) -> bool:
        if other.__class__ is not Unit:
            return NotImplemented
        if self.id != other.id:
            return self.id < other.id
        return _fields(self) < _fields(other)

    def __le__(self, other: object) -> bool:
        if other.__class__ is not Unit:
            return NotImplemented
        if self.id != other.id:
            return self.id < other.id
        return _fields(self) <= _fields(other)

    def __gt__(self, other: object) -> bool:
        if other.__class__ is not Unit:
            return NotImplemented
        if self.id != other.id:
            return self.id > other.id
        return _fields(self) > _fields(other)

    def __ge__(self, other: object) -> bool:
        if other.__class__ is not Unit:
            return NotImplemented
        if self.id != other.id:
            return self.id > other.id
        return _fields(self) >= _fields(other)


_fields = operator.attrgetter(*(a.name for a in attrs.fields(Unit)))
"""A unit's fields as a tuple, in declaration order (what attrs' ordering compares)."""


@frozen
class GameState:
    """Everything that changes during a game, and nothing else."""

    turn: int = 0
    phase: str = "setup"
    units: tuple[Unit, ...] = ()
    resources: tuple[tuple[str, str, Fraction], ...] = ()
    """(side, resource, value), sorted."""
    turn_modifiers: tuple[tuple[str, str, int], ...] = ()
    """(side, what, amount) that last until the end of the turn, sorted: ``("free_world",
    "income:cp", -3)`` lowers this turn's CP income by 3, ``("free_world", "gains:vp", 2)``
    doubles the VP the side gains this turn.  Events set them; the turn's end clears them."""
    rolls: int = 0
    """How many dice rolls have been drawn: the RNG counter."""
    over: bool = False

    @functools.cached_property
    def _index(self) -> "_Index":
        """The indexes of ``units``, each built on first use (or handed on by ``with_units``)."""
        return _Index()

    def unit(self, unit_id: str) -> Unit:
        """The unit with this id (an index built once per state, on first use)."""
        by_id = self._index.by_id
        if by_id is None:
            by_id = self._index.by_id = {u.id: u for u in self.units}
        return by_id[unit_id]

    def units_at(self, cell: str) -> tuple[Unit, ...]:
        """The counters in a cell or holding area, in id order (indexed once per state)."""
        return self.units_by_cell().get(cell, ())

    def units_by_cell(self) -> Mapping[str, tuple[Unit, ...]]:
        """Every occupied cell or holding area with its counters, as ``units_at`` gives them.

        The state's own index, for loops asking about many cells: read it, never change it."""
        found = self._index.by_cell
        if found is None:
            out: dict[str, list[Unit]] = {}
            for unit in self.units:
                out.setdefault(unit.location, []).append(unit)
            found = self._index.by_cell = {cell: tuple(units) for cell, units in out.items()}
        return found

    def units_of(self, side: str, on_map: bool = True) -> Iterator[Unit]:
        """The side's units (on the map only, unless ``on_map`` is false), in ``units`` order."""
        if not on_map:
            return (u for u in self.units if u.side == side)
        return iter(self.units_on_map().get(side, ()))

    def units_on_map(self) -> Mapping[str, tuple[Unit, ...]]:
        """Every side with units on the map, with those units in ``units`` order (indexed once per
        state; read it, never change it)."""
        found = self._index.on_map_by_side
        if found is None:
            out: dict[str, list[Unit]] = {}
            for unit in self.units:
                if unit.on_map:
                    out.setdefault(unit.side, []).append(unit)
            found = self._index.on_map_by_side = {s: tuple(units) for s, units in out.items()}
        return found

    def occupied_by(self, cell: str) -> frozenset[str]:
        """Sides with a unit (real or dummy) in a cell."""
        return frozenset(u.side for u in self.units_at(cell))

    def with_unit(self, unit: Unit) -> "GameState":
        """This state with ``unit`` in place of the unit with its id (unchanged when there is none)."""
        index = self._index
        positions = index.positions
        if positions is None:
            positions = index.positions = {u.id: i for i, u in enumerate(self.units)}
        at = positions.get(unit.id)
        if at is None:
            return self.with_units(())
        units = list(self.units)
        before = units[at]
        units[at] = unit
        new = _with_units_tuple(self, tuple(units))
        object.__setattr__(new, "_index", index.handed_on(((before, unit),)))
        return new

    def with_units(self, changed: Iterable[Unit]) -> "GameState":
        """This state with each of ``changed`` in place of the unit with its id, in one new state.

        The order of ``units`` is kept, so the new state indexes them the same way: the indexes
        this state has built are handed on, updated for the changed units only.
        """
        index = self._index
        positions = index.positions
        if positions is None:
            positions = index.positions = {u.id: i for i, u in enumerate(self.units)}
        units = list(self.units)
        swaps: list[tuple[Unit, Unit]] = []
        for unit in changed:
            at = positions.get(unit.id)
            if at is not None:
                swaps.append((units[at], unit))
                units[at] = unit
        new = _with_units_tuple(self, tuple(units))
        object.__setattr__(new, "_index", index.handed_on(swaps))
        return new

    def resource(self, side: str, name: str) -> Fraction:
        for s, r, v in self.resources:
            if s == side and r == name:
                return v
        return Fraction(0)

    def with_resource(self, side: str, name: str, value: Fraction) -> "GameState":
        rest = [(s, r, v) for s, r, v in self.resources if (s, r) != (side, name)]
        return replace(self, resources=tuple(sorted([*rest, (side, name, Fraction(value))])))


class _Index:
    """A state's indexes of its units, each ``None`` until built.  Private to the state (which
    is frozen; its indexes are derived data, like a ``cached_property``)."""

    __slots__ = ("by_cell", "by_id", "on_map_by_side", "positions")

    def __init__(self, positions: dict[str, int] | None = None, by_id: dict[str, Unit] | None = None,
                 by_cell: dict[str, tuple[Unit, ...]] | None = None,
                 on_map_by_side: dict[str, tuple[Unit, ...]] | None = None):
        self.positions = positions
        """Each unit id's place in ``units``: the same in every state ``with_units`` derives."""
        self.by_id = by_id
        self.by_cell = by_cell
        self.on_map_by_side = on_map_by_side

    def handed_on(self, swaps: Iterable[tuple[Unit, Unit]]) -> "_Index":
        """The indexes of the state with the ``(before, after)`` units swapped in place."""
        positions = self.positions
        by_id = self.by_id
        if by_id is not None:
            by_id = dict(by_id)
            for _, after in swaps:
                by_id[after.id] = after
        by_cell = self.by_cell
        if by_cell is not None:
            by_cell = dict(by_cell)
            for before, after in swaps:
                cell = after.location
                if before.location == cell:
                    by_cell[cell] = tuple([after if u is before else u for u in by_cell[cell]])
                    continue
                left = by_cell[before.location]
                if len(left) == 1:
                    del by_cell[before.location]
                else:
                    by_cell[before.location] = tuple([u for u in left if u is not before])
                here = by_cell.get(cell)
                if not here:
                    by_cell[cell] = (after,)
                    continue
                at, cut = positions[after.id], 0
                for unit in here:
                    if positions[unit.id] > at:
                        break
                    cut += 1
                by_cell[cell] = (*here[:cut], after, *here[cut:])
        by_side = self.on_map_by_side
        if by_side is not None:
            by_side = dict(by_side)
            for before, after in swaps:
                on_map = after.on_map
                if before.side != after.side or before.on_map != on_map:
                    by_side = None  # a unit changed sides or left the map: built afresh if asked
                    break
                if on_map:
                    by_side[after.side] = tuple([after if u is before else u for u in by_side[after.side]])
        return _Index(positions, by_id, by_cell, by_side)


def _replacer(cls: type[T]) -> Callable[..., T]:
    """``attrs.evolve`` for one frozen class, faster: every field read by one ``attrgetter`` and
    passed to the constructor by position (``evolve`` looks the fields up and passes them by name)."""
    fields = attrs.fields(cls)
    if any(not a.init or a.kw_only or a.alias != a.name for a in fields):
        return lambda instance, **changes: evolve(instance, **changes)
    read = operator.attrgetter(*(a.name for a in fields))
    position = {a.name: i for i, a in enumerate(fields)}

    def replace_fields(instance: T, **changes: Any) -> T:
        values = list(read(instance))
        for name, value in changes.items():
            values[position[name]] = value
        return cls(*values)

    return replace_fields


_REPLACERS: dict[type, Callable[..., Any]] = {Unit: _replacer(Unit), GameState: _replacer(GameState)}


def _field_setter(cls: type[T], name: str) -> Callable[[T, Any], T]:
    """``lambda instance, value: evolve(instance, name=value)``, for one field asked often."""
    fields = attrs.fields(cls)
    if any(not a.init or a.kw_only or a.alias != a.name for a in fields):
        return lambda instance, value: evolve(instance, **{name: value})
    read = operator.attrgetter(*(a.name for a in fields))
    at = [a.name for a in fields].index(name)

    def set_field(instance: T, value: Any) -> T:
        values = list(read(instance))
        values[at] = value
        return cls(*values)

    return set_field


_with_units_tuple = _field_setter(GameState, "units")


def replace(value: T, **changes: Any) -> T:
    """``attrs.evolve(value, **changes)`` for a ``Unit`` or a ``GameState``, at half the cost.

    A state whose ``units`` are not changed shares the indexes of its units with the old one.

    >>> replace(Unit("A1", "infantry", "allies", "0101"), location="0102").location
    '0102'
    """
    new = _REPLACERS[type(value)](value, **changes)
    if type(value) is GameState and "units" not in changes:
        object.__setattr__(new, "_index", value._index)
    return new
