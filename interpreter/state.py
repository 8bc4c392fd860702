"""The game state: a frozen value; every change makes a new one (attrs ``evolve``).

Every unit and marker is in exactly one place: a map cell id, or the name of a
holding area (``eliminated``, a rulebook ``box``, ``offmap``).  Nothing here
points into the board graph except cell ids, so one static map serves every
playout.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Iterator

from attrs import evolve, frozen

ELIMINATED = "eliminated"
OFFMAP = "offmap"


@frozen(order=True)
class Unit:
    """One counter in play."""

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
    def _by_id(self) -> dict[str, Unit]:
        return {u.id: u for u in self.units}

    @functools.cached_property
    def _by_location(self) -> dict[str, tuple[Unit, ...]]:
        out: dict[str, list[Unit]] = {}
        for unit in self.units:
            out.setdefault(unit.location, []).append(unit)
        return {cell: tuple(units) for cell, units in out.items()}

    def unit(self, unit_id: str) -> Unit:
        """The unit with this id (an index built once per state, on first use)."""
        return self._by_id[unit_id]

    def units_at(self, cell: str) -> tuple[Unit, ...]:
        """The counters in a cell or holding area, in id order (indexed once per state)."""
        return self._by_location.get(cell, ())

    def units_of(self, side: str, on_map: bool = True) -> Iterator[Unit]:
        return (u for u in self.units if u.side == side and (u.on_map or not on_map))

    def occupied_by(self, cell: str) -> frozenset[str]:
        """Sides with a unit (real or dummy) in a cell."""
        return frozenset(u.side for u in self.units if u.location == cell)

    def with_unit(self, unit: Unit) -> "GameState":
        return evolve(self, units=tuple(unit if u.id == unit.id else u for u in self.units))

    def resource(self, side: str, name: str) -> Fraction:
        for s, r, v in self.resources:
            if s == side and r == name:
                return v
        return Fraction(0)

    def with_resource(self, side: str, name: str, value: Fraction) -> "GameState":
        rest = [(s, r, v) for s, r, v in self.resources if (s, r) != (side, name)]
        return evolve(self, resources=tuple(sorted([*rest, (side, name, Fraction(value))])))
