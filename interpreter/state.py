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
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any, Iterator, TypeVar

import attrs
from attrs import evolve, frozen

from .drafts import draft_of
from .unit_index import UnitIndex

T = TypeVar("T")

OFFMAP = "offmap"


@frozen(weakref_slot=False)
class Unit:
    """One counter in play.  Units order as the tuples of their fields (ids first).  (No
    ``__weakref__`` slot: nothing refers to a unit weakly, and without one ``replace`` can make
    a unit by its draft class, ``interpreter.drafts``.)"""

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


@frozen(weakref_slot=False)
class GameState(_Indexed):
    """Everything that changes during a game, and nothing else.  (No ``__weakref__`` slot, as
    ``Unit``.)"""

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

    def _indexes(self) -> "UnitIndex":
        """The indexes of ``units``, each built on first use (or handed on by ``with_units``)."""
        try:
            return self._index
        except AttributeError:
            index = UnitIndex()
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

    def _positioned(self) -> tuple["UnitIndex", dict[str, int]]:
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
        handed = index.handed_on_one(before, unit, positions)
        return _with_units_tuple(self, (*units[:at], unit, *units[at + 1:]), handed)

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
        return _with_units_tuple(self, tuple(units), index.handed_on(swaps))

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
        return _with_units_tuple(self, tuple(units), index.handed_on_in_place(swaps, after_of))

    def with_added_unit(self, unit: Unit) -> "GameState":
        """This state with ``unit`` added after the others (a counter set up or brought into play),
        its indexes handed on with the one unit added rather than rebuilt."""
        index = self._indexes()
        return _with_units_tuple(self, (*self.units, unit), index.handed_on_added(unit, len(self.units)))

    def resource(self, side: str, name: str) -> Fraction:
        for s, r, v in self.resources:
            if s == side and r == name:
                return v
        return Fraction(0)

    def with_resource(self, side: str, name: str, value: Fraction) -> "GameState":
        rest = [(s, r, v) for s, r, v in self.resources if (s, r) != (side, name)]
        return replace(self, resources=tuple(sorted([*rest, (side, name, Fraction(value))])))


_KEEP = object()
"""A field ``replace`` is not asked to change."""


def _written_for(cls: type) -> list[str] | None:
    """The field names of a frozen slotted attrs class whose ``__init__`` only sets each field
    (no converter, validator, factory default or post-init), in order; ``None`` for any other
    class.  For those, ``_replacer`` and ``_field_setter`` make an instance the way that
    ``__init__`` does, field by field, but without attrs' frozen ``__init__``, which calls
    ``object.__setattr__`` for each field (and looks the slot up by name every time)."""
    fields = attrs.fields(cls)
    if hasattr(cls, "__attrs_post_init__") or any(
            not a.init or a.kw_only or a.alias != a.name or not a.name.isidentifier() or a.converter is not None
            or a.validator is not None or isinstance(a.default, attrs.Factory) or a.on_setattr not in (None, attrs.NOTHING)
            or not isinstance(cls.__dict__.get(a.name), types.MemberDescriptorType) for a in fields):
        return None
    return [a.name for a in fields]


def _made(cls: type, names: list[str], value_of: Callable[[str], str],
          index: str | None = None) -> tuple[str, dict[str, Any]]:
    """Source lines making ``_new``, an instance of ``cls`` with each field set to the expression
    ``value_of(name)``, and the names they use: a draft filled and given the class
    (``interpreter.drafts``), else set through the slots' own descriptors (as ``Action.batch``).
    ``index``: a statement setting the ``GameState``'s indexes, written with ``_SET_INDEX(…)`` for
    the call that sets them, run before the draft takes the class (a store then, not a call)."""
    try:
        draft = draft_of(cls)
    except TypeError:
        draft = None
    if draft is not None:
        body = "    _new = _make(_draft)\n" + "".join(f"    _new.{n} = {value_of(n)}\n" for n in names)
        if index is not None:
            body += index.replace("_SET_INDEX(", "_new._index = (") + "\n"
        return body + "    _new.__class__ = _cls\n", {"_cls": cls, "_draft": draft, "_make": object.__new__}
    body = "    _new = _make(_cls)\n" + "".join(f"    _set_{n}(_new, {value_of(n)})\n" for n in names)
    if index is not None:
        body += index.replace("_SET_INDEX(", "_set_index(_new, ") + "\n"
    return body, {"_cls": cls, "_make": object.__new__, "_set_index": _set_index,
                  **{f"_set_{n}": cls.__dict__[n].__set__ for n in names}}


def _replacer(cls: type[T]) -> Callable[..., T]:
    """``attrs.evolve`` for one frozen class, faster: a function written for the class's fields
    (as attrs writes its ``__init__``), taking the changes as keywords and setting every field
    (``_written_for``; ``evolve`` looks the fields up and passes them by name).  A ``GameState``
    whose ``units`` are kept keeps the indexes of its units too."""
    names = _written_for(cls)
    if names is None:
        return lambda instance, **changes: evolve(instance, **changes)
    args = ", ".join(f"{n}=_KEEP" for n in names)
    index = "    if units is _KEEP:\n        _SET_INDEX(_i._indexes())" if cls is GameState else None
    body, namespace = _made(cls, names, lambda n: f"_i.{n} if {n} is _KEEP else {n}", index)
    source = f"def replace_fields(_i, *, {args}):\n{body}    return _new\n"
    namespace.update(_KEEP=_KEEP)
    exec(source, namespace)  # noqa: S102 (our own field names only)
    return namespace["replace_fields"]


_REPLACERS: dict[type, Callable[..., Any]] = {Unit: _replacer(Unit), GameState: _replacer(GameState)}


def _field_setter(cls: type[T], *changed: str) -> Callable[..., T]:
    """``lambda instance, *values: evolve(instance, **dict(zip(changed, values)))``, for fields asked
    often together (written for the class's fields, as ``_replacer``: no keywords to match).  A
    ``GameState`` whose ``units`` are kept keeps their indexes (``_replacer``); one given new
    ``units`` takes the indexes given after the values (``with_unit``: those of the old units,
    handed on)."""
    names = _written_for(cls)
    if names is None:
        return lambda instance, *values: evolve(instance, **dict(zip(changed, values)))
    values = [f"_value{k}" for k in range(len(changed))]
    index = None
    if cls is GameState and "units" in changed:
        values.append("_handed")
        index = "    _SET_INDEX(_handed)"
    elif cls is GameState:
        index = "    _SET_INDEX(_i._indexes())"
    body, namespace = _made(cls, names, lambda n: f"_value{changed.index(n)}" if n in changed else f"_i.{n}", index)
    exec(f"def set_field(_i, {', '.join(values)}):\n{body}    return _new\n", namespace)  # noqa: S102
    return namespace["set_field"]


def _maker(cls: type[T], *given: str) -> Callable[..., T]:
    """``cls(*values)`` for the fields ``given`` (in order), the others at their defaults, made as
    ``_replacer`` makes a copy (``_written_for``; attrs' frozen ``__init__`` otherwise)."""
    names = _written_for(cls)
    if names is None:
        return lambda *values: cls(**dict(zip(given, values)))
    body, namespace = _made(cls, names, lambda n: f"_value{given.index(n)}" if n in given else f"_default_{n}")
    namespace.update({f"_default_{a.name}": a.default for a in attrs.fields(cls) if a.name not in given})
    exec(f"def make(_{', _'.join(f'value{k}' for k in range(len(given)))}):\n{body}    return _new\n",
         namespace)  # noqa: S102
    return namespace["make"]


new_unit = _maker(Unit, "id", "type", "side", "location", "hidden", "dummy")
"""``Unit(id, type, side, location, hidden=…, dummy=…)``, for the counters set up (``setup``)."""
_with_units_tuple = _field_setter(GameState, "units")
"""``replace(state, units=…)`` with the indexes given (those of the old units, handed on)."""
state_in_phase = _field_setter(GameState, "phase")
"""``replace(state, phase=…)``, for each run of a phase (``flow``)."""
state_with_rolls = _field_setter(GameState, "rolls")
"""``replace(state, rolls=…)``, for each roll (``Context.roll``)."""
unit_with_spent = _field_setter(Unit, "spent")
"""``replace(unit, spent=…)``, for the flags cleared at the end of every phase."""
unit_with_mode = _field_setter(Unit, "mode")
"""``replace(unit, mode=…)``, for an order declared (``procedures.orders``)."""
unit_with_orders_cleared = _field_setter(Unit, "mode", "turn_flags")
"""``replace(unit, mode=…, turn_flags=…)``, for orders and turn flags cleared at every turn's end."""
unit_moved_to = _field_setter(Unit, "location", "spent")
"""``replace(unit, location=…, spent=…)``, for a unit arriving where it moved (``procedures.move``)."""


def replace(value: T, **changes: Any) -> T:
    """``attrs.evolve(value, **changes)`` for a ``Unit`` or a ``GameState``, at half the cost.

    A state whose ``units`` are not changed shares the indexes of its units with the old one.

    >>> replace(Unit("A1", "infantry", "allies", "0101"), location="0102").location
    '0102'
    """
    return _REPLACERS[type(value)](value, **changes)
