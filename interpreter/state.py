"""The game state: a frozen value; every change makes a new one (attrs ``evolve``, or ``replace``).

Every unit and marker is in exactly one place: a map cell id, or the name of a
holding area (``eliminated``, a rulebook ``box``, ``offmap``).  Nothing here
points into the board graph except cell ids, so one static map serves every
playout.

A state indexes its units by id and by cell on first use (``unit``,
``units_at``).  ``with_unit``/``with_units`` replace units in place in a copy of
the tuple and hand the new state the indexes the old one had built, updated for
the units that changed, so a procedure changing one unit after another never
rebuilds them from scratch.  The indexes move to the new state and are updated in
place, not copied (a copy costs a step per unit at every change, which made a
playout's cost grow faster than its units); the old state builds its own again if
it is asked after that (states are used one after another, so it rarely is).
"""

from __future__ import annotations

import operator
import types
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any, Iterator, TypeVar

import attrs
from attrs import evolve, frozen

T = TypeVar("T")

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
    step: int = 1
    """The step the counter shows: 1 is its full side, each step lost one more (``UnitType.steps``)."""
    status: frozenset[str] = frozenset()
    """The statuses a combat result gave it (``status`` declarations: disrupted …), until it recovers."""

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


class _Indexed:
    """The slot a state keeps its indexes in (``GameState._indexes``), outside attrs' fields: not
    compared, hashed, shown nor pickled.  (A ``cached_property`` on the frozen class did this, but
    attrs then gives the class a ``__getattr__``, and CPython reads no attribute of a class with
    one by its fast path: every ``state.units`` in a playout paid for it.)"""

    __slots__ = ("_index",)


_set_index = _Indexed.__dict__["_index"].__set__
"""Sets a new state's indexes through the slot's descriptor (``object.__setattr__`` finds it by name)."""


@frozen
class GameState(_Indexed):
    """Everything that changes during a game, and nothing else."""

    turn: int = 0
    phase: str = "setup"
    units: tuple[Unit, ...] = ()
    resources: tuple[tuple[str, str, Fraction], ...] = ()
    """(side, resource, value), sorted."""
    turn_modifiers: tuple[tuple[str, str, int], ...] = ()
    """(side, what, amount) that last until the end of the turn, sorted: ``("blue",
    "income:cp", -3)`` lowers this turn's CP income by 3, ``("blue", "gains:vp", 2)``
    doubles the VP the side gains this turn.  Events set them; the turn's end clears them."""
    rolls: int = 0
    """How many dice rolls have been drawn: the RNG counter."""
    over: bool = False
    control: tuple[tuple[str, str], ...] = ()
    """(cell, side) for each controlled cell held by a side, sorted by cell (``interpreter.control``):
    a cell not listed is held by no side.  Empty unless the rulebook declares ``control``."""
    side_states: tuple[tuple[str, str], ...] = ()
    """(side, state) for each lasting ``state`` a side has entered (``interpreter.side_states``), sorted."""

    def controller(self, cell: str) -> str | None:
        """The side holding a cell (``None``: no side), found by bisection in ``control``."""
        control = self.control
        at = bisect_left(control, (cell,))
        return control[at][1] if at < len(control) and control[at][0] == cell else None

    def with_controller(self, cell: str, side: str | None) -> "GameState":
        """This state with the cell held by ``side`` (``None``: by no side)."""
        control = self.control
        at = bisect_left(control, (cell,))
        held = at < len(control) and control[at][0] == cell
        entry = ((cell, side),) if side is not None else ()
        return replace(self, control=(*control[:at], *entry, *control[at + held:]))
    weather: str | None = None
    """The weather the game has now (a declared ``weather``): set when a turn of the turn record
    that gives one starts, or by a ``set weather`` effect; ``None`` until then."""

    def _indexes(self) -> "_Index":
        """The indexes of ``units``, each built on first use (or handed on by ``with_units``)."""
        try:
            return self._index
        except AttributeError:
            index = _Index()
            object.__setattr__(self, "_index", index)
            return index

    def unit(self, unit_id: str) -> Unit:
        """The unit with this id (an index built once per state, on first use)."""
        try:  # (read inline, not by ``_indexes``: the commonest question of a playout)
            index = self._index
        except AttributeError:
            index = self._indexes()
        by_id = index.by_id
        if by_id is None:
            by_id = index.by_id = {u.id: u for u in self.units}
        return by_id[unit_id]

    def units_at(self, cell: str) -> tuple[Unit, ...]:
        """The counters in a cell or holding area, in id order (indexed once per state)."""
        return self.units_by_cell().get(cell, ())

    def units_by_cell(self) -> Mapping[str, tuple[Unit, ...]]:
        """Every occupied cell or holding area with its counters, as ``units_at`` gives them.

        The state's own index, for loops asking about many cells: read it, never change it, and
        do not keep it across a change of state (the next state takes it over and updates it)."""
        try:
            index = self._index
        except AttributeError:
            index = self._indexes()
        found = index.by_cell
        if found is None:
            out: dict[str, list[Unit]] = {}
            for unit in self.units:
                out.setdefault(unit.location, []).append(unit)
            found = index.by_cell = {cell: tuple(units) for cell, units in out.items()}
        return found

    def units_of(self, side: str, on_map: bool = True) -> Iterator[Unit]:
        """The side's units (on the map only, unless ``on_map`` is false), in ``units`` order."""
        if not on_map:
            return (u for u in self.units if u.side == side)
        return iter(self.units_on_map().get(side, ()))

    def units_on_map(self) -> Mapping[str, tuple[Unit, ...]]:
        """Every side with units on the map, with those units in ``units`` order (indexed once per
        state; read it, never change it, nor keep it across a change of state: ``units_by_cell``)."""
        try:
            index = self._index
        except AttributeError:
            index = self._indexes()
        found = index.on_map_by_side
        if found is None:
            out: dict[str, list[Unit]] = {}
            for unit in self.units:
                if unit.on_map:
                    out.setdefault(unit.side, []).append(unit)
            found = index.on_map_by_side = {s: tuple(units) for s, units in out.items()}
        return found

    def occupied_by(self, cell: str) -> frozenset[str]:
        """Sides with a unit (real or dummy) in a cell."""
        return frozenset(u.side for u in self.units_at(cell))

    def _positioned(self) -> tuple["_Index", dict[str, int]]:
        """The state's indexes and each unit id's place in ``units`` (built on first use), for a change."""
        try:
            index = self._index
        except AttributeError:
            index = self._indexes()
        positions = index.positions
        if positions is None:
            positions = index.positions = {u.id: i for i, u in enumerate(self.units)}
        return index, positions

    def with_unit(self, unit: Unit) -> "GameState":
        """This state with ``unit`` in place of the unit with its id (unchanged when there is none)."""
        index, positions = self._positioned()
        at = positions.get(unit.id)
        if at is None:
            return self.with_units(())
        units = self.units
        before = units[at]
        new = _with_units_tuple(self, (*units[:at], unit, *units[at + 1:]))
        _set_index(new, index.handed_on_one(before, unit, positions))
        return new

    def with_units(self, changed: Iterable[Unit]) -> "GameState":
        """This state with each of ``changed`` in place of the unit with its id, in one new state.

        The order of ``units`` is kept, so the new state indexes them the same way: the indexes
        this state has built are handed on, updated for the changed units only.
        """
        index, positions = self._positioned()
        units = list(self.units)
        swaps: list[tuple[Unit, Unit]] = []
        for unit in changed:
            at = positions.get(unit.id)
            if at is not None:
                swaps.append((units[at], unit))
                units[at] = unit
        new = _with_units_tuple(self, tuple(units))
        _set_index(new, index.handed_on(swaps))
        return new

    def with_units_in_place(self, changed: Iterable[Unit]) -> "GameState":
        """``with_units`` for units that each keep their id, cell and side, changed once each (flags
        cleared at a phase's or a turn's end): every cell's and side's tuple keeps its shape, so
        the indexes handed on are only mapped to the new units, with no check of who moved."""
        index, positions = self._positioned()
        units = list(self.units)
        swaps, after_of = [], {}
        for unit in changed:
            at = positions[unit.id]
            swaps.append((units[at], unit))
            units[at] = after_of[unit.id] = unit
        new = _with_units_tuple(self, tuple(units))
        _set_index(new, index.handed_on_in_place(swaps, after_of))
        return new

    def with_added_unit(self, unit: Unit) -> "GameState":
        """This state with ``unit`` added after the others (a counter set up or brought into play),
        its indexes handed on with the one unit added rather than rebuilt."""
        index = self._indexes()
        new = _with_units_tuple(self, (*self.units, unit))
        _set_index(new, index.handed_on_added(unit, len(self.units)))
        return new

    def resource(self, side: str, name: str) -> Fraction:
        for s, r, v in self.resources:
            if s == side and r == name:
                return v
        return Fraction(0)

    def with_resource(self, side: str, name: str, value: Fraction) -> "GameState":
        rest = [(s, r, v) for s, r, v in self.resources if (s, r) != (side, name)]
        return replace(self, resources=tuple(sorted([*rest, (side, name, Fraction(value))])))


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
"""A field ``replace`` is not asked to change (and an argument not given)."""


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

    def handed_on_one(self, before: Unit, after: Unit, positions: dict[str, int] | None = _KEEP) -> "_Index":
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
        new = _Index.__new__(_Index)
        new.positions, new.by_id, new.by_cell, new.on_map_by_side = positions, by_id, by_cell, by_side
        return new

    def handed_on(self, swaps: Iterable[tuple[Unit, Unit]]) -> "_Index":
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
        return _Index(positions, by_id, by_cell, by_side)

    def handed_on_in_place(self, swaps: list[tuple[Unit, Unit]], after_of: dict[str, Unit]) -> "_Index":
        """The indexes of the state with the ``(before, after)`` units swapped, each in the same cell
        and side (``GameState.with_units_in_place``); ``after_of``: the new units by id."""
        by_id, by_cell, by_side = self._given_up()
        if not after_of:
            return _Index(self.positions, by_id, by_cell, by_side)
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
        return _Index(self.positions, by_id, by_cell, by_side)

    def handed_on_added(self, unit: Unit, position: int) -> "_Index":
        """The indexes of the state with ``unit`` added at ``position``, the end of ``units`` (so it
        comes last in its cell's and its side's tuples, as a rebuild would put it).  A unit whose id
        is already there (which a game never adds) leaves every index to be built afresh."""
        if unit.id in (self.positions or self.by_id or ()):
            return _Index()
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
        return _Index(positions, by_id, by_cell, by_side)

    def _given_up(self) -> tuple[dict | None, dict | None, dict | None]:
        """This index's ``by_id``, ``by_cell`` and ``on_map_by_side``, handed over to be updated in
        place for the next state (copying them would cost a step per unit at every change): this
        index forgets them, so a state still holding it builds its own again if it is ever asked."""
        given = self.by_id, self.by_cell, self.on_map_by_side
        self.by_id = self.by_cell = self.on_map_by_side = None
        return given

    def _handed_on_each(self, swaps: list[tuple[Unit, Unit]]) -> "_Index":
        """``handed_on`` one swap after the other (for swaps that change a unit more than once)."""
        index = self
        for before, after in swaps:
            index = index.handed_on_one(before, after)
        return index


def _written_for(cls: type) -> list[str] | None:
    """The field names of a frozen slotted attrs class whose ``__init__`` only sets each field
    (no converter, validator, factory default or post-init), in order; ``None`` for any other
    class.  For those, ``_replacer`` and ``_field_setter`` make an instance the way that
    ``__init__`` does, field by field, but through the slots' own descriptors (as
    ``Action.batch``): attrs' frozen ``__init__`` calls ``object.__setattr__`` for each field,
    which looks the slot up by name every time; a unit's eleven fields cost twice as much so."""
    fields = attrs.fields(cls)
    if hasattr(cls, "__attrs_post_init__") or any(
            not a.init or a.kw_only or a.alias != a.name or not a.name.isidentifier() or a.converter is not None
            or a.validator is not None or isinstance(a.default, attrs.Factory) or a.on_setattr not in (None, attrs.NOTHING)
            or not isinstance(cls.__dict__.get(a.name), types.MemberDescriptorType) for a in fields):
        return None
    return [a.name for a in fields]


def _made(cls: type, names: list[str], value_of: Callable[[str], str]) -> tuple[str, dict[str, Any]]:
    """Source lines making ``_new``, an instance of ``cls`` with each field set to the expression
    ``value_of(name)``, and the names they use."""
    body = "    _new = _make(_cls)\n" + "".join(f"    _set_{n}(_new, {value_of(n)})\n" for n in names)
    return body, {"_cls": cls, "_make": object.__new__, **{f"_set_{n}": cls.__dict__[n].__set__ for n in names}}


def _replacer(cls: type[T]) -> Callable[..., T]:
    """``attrs.evolve`` for one frozen class, faster: a function written for the class's fields
    (as attrs writes its ``__init__``), taking the changes as keywords and setting every field
    (``_written_for``; ``evolve`` looks the fields up and passes them by name).  A ``GameState``
    whose ``units`` are kept keeps the indexes of its units too."""
    names = _written_for(cls)
    if names is None:
        return lambda instance, **changes: evolve(instance, **changes)
    args = ", ".join(f"{n}=_KEEP" for n in names)
    body, namespace = _made(cls, names, lambda n: f"_i.{n} if {n} is _KEEP else {n}")
    if cls is GameState:
        body += "    if units is _KEEP:\n        _set(_new, '_index', _i._indexes())\n"
    source = f"def replace_fields(_i, *, {args}):\n{body}    return _new\n"
    namespace.update(_KEEP=_KEEP, _set=object.__setattr__)
    exec(source, namespace)  # noqa: S102 (our own field names only)
    return namespace["replace_fields"]


_REPLACERS: dict[type, Callable[..., Any]] = {Unit: _replacer(Unit), GameState: _replacer(GameState)}


def _field_setter(cls: type[T], name: str) -> Callable[[T, Any], T]:
    """``lambda instance, value: evolve(instance, name=value)``, for one field asked often (written
    for the class's fields, as ``_replacer``)."""
    names = _written_for(cls)
    if names is None:
        return lambda instance, value: evolve(instance, **{name: value})
    body, namespace = _made(cls, names, lambda n: "_value" if n == name else f"_i.{n}")
    exec(f"def set_field(_i, _value):\n{body}    return _new\n", namespace)  # noqa: S102
    return namespace["set_field"]


_with_units_tuple = _field_setter(GameState, "units")
unit_with_spent = _field_setter(Unit, "spent")
"""``replace(unit, spent=…)``, for the flags cleared at the end of every phase."""


def replace(value: T, **changes: Any) -> T:
    """``attrs.evolve(value, **changes)`` for a ``Unit`` or a ``GameState``, at half the cost.

    A state whose ``units`` are not changed shares the indexes of its units with the old one.

    >>> replace(Unit("A1", "infantry", "allies", "0101"), location="0102").location
    '0102'
    """
    return _REPLACERS[type(value)](value, **changes)
