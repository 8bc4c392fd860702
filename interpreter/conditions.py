"""Evaluating conditions: whether a ``when …`` clause holds in the game as it stands.

``dsl.conditions`` reads the words into a ``Condition`` (grammar in its docstring); this module
answers it against the state.  What ``own``, "this cell" and the engagement's roles are depends
on where the condition is written, so callers pass a ``Scope``:

- an event: the side whose event it is (the side rolling), no cell;
- a marker: the marker's side, its cell and the marker itself;
- a combat line: the firing side, the contested cell and the roles (``firers``, ``targets`` …).

A condition's **moment** (``revealed``, ``red force enters`` …) is matched against the
``Happening`` the caller is carrying out: a condition with a moment holds only while that moment
is happening, and one without a moment holds at any time its clauses do.

Readings:

- ``RESOURCE lead``: the side's total less the largest total of any other side; for ``opponent``
  with several opponents, the largest of their leads (likewise totals).
- Counters are on the map and not dummies (a dummy "only hides real units"); face-down counters
  count: the engine knows what they are, and no player is told why a condition held.
- ``adjacent to SELECTOR``: in a cell next to (sides and corners, as the grid connects them) a
  cell whose terrain, tags or place name the selector names.
- ``defending``: the side defends the engagement the condition is read in (``Scope.defending``:
  in a combat result, the side fired at, or the battle's defending side); elsewhere, a battle is
  on (``ctx.operation`` has a contested cell) and the side is not the one conducting the operation.
- ``ROLE FACTOR``: a printed factor summed over the role's units; factors that are not numbers
  count 0.
- ``all|any ROLE across FEATURE…``: a unit of the role is across when its cell and the condition's
  cell (the cell fought over) are joined by a side or corner with one of the features or tags; a
  unit in that cell or not next to it is not.  ``all`` needs at least one unit of the role (dummies
  do not count), every one across; with none, neither holds.
- ``WHO STATE`` / ``WHO not STATE``: whether a side WHO names has entered the lasting ``state``
  (``GameState.side_states``; for ``opponent`` with several opponents, any of them).
- ``in TRACE`` / ``out of TRACE``: whether the own side can trace the named ``trace`` from the cell
  in question (``Scope.cell``, else the counter's own cell; ``interpreter.tracing``).
- ``turn``: the game turn (0 during set-up); ``weather is NAME``: the state's weather is NAME (none
  before a turn record or an effect sets one, when no ``weather is`` holds).

Raises (from ``line_condition`` and ``effect_condition``):
    RulesError: (E805) for a condition the grammar could not read (the linter reports it as W508).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from attrs import field, frozen

from ..dsl.conditions import (
    Across,
    Compare,
    Condition,
    Defending,
    Group,
    InState,
    Moment,
    OneSide,
    Place,
    Presence,
    Quantity,
    Traced,
    Weather,
    Who,
)
from .caches import map_memos
from .condition_lines import OPERATORS
from .context import Context
from .rules import Rules
from .state import Unit
from .tracing import traces



@frozen
class Happening:
    """What is being carried out now, for matching a condition's moment.

    ``kind`` is a moment kind of ``dsl.conditions.Moment`` (``revealed``, ``enters``, ``fires``,
    ``round ends``, ``phase ends``); ``side`` the side entering or firing; ``first`` whether it is
    the first round; ``phase`` the phase or step that ends.
    """

    kind: str
    side: str | None = None
    first: bool = False
    phase: str | None = None


@frozen
class Scope:
    """Where a condition is read: whose it is, which cell, which units, what is happening."""

    side: str
    """The side ``own`` means."""
    cell: str | None = None
    """The cell ``in cell`` means."""
    unit: Unit | None = None
    """The counter the condition belongs to (a marker), if any."""
    units: tuple[str, ...] = ()
    """Units the happening concerns (the force that entered)."""
    roles: dict[str, Any] = field(factory=dict, hash=False)
    """An engagement's roles, for ``ROLE FACTOR`` totals: role name to units."""
    happening: Happening | None = None
    defending: str | None = None
    """The side defending the engagement the condition is read in (a combat result), if any."""


def holds(ctx: Context, condition: Condition | None, scope: Scope) -> bool:
    """Whether the condition holds now: its moment is happening and every clause is true.

    ``None`` (no condition) always holds.
    """
    if condition is None:
        return True
    if condition.moment is not None and not moment_matches(ctx, condition.moment, scope):
        return False
    return all(_clause(ctx, clause, scope) for clause in condition.clauses)


def moment_matches(ctx: Context, moment: Moment, scope: Scope) -> bool:
    """Whether ``moment`` is what ``scope.happening`` is."""
    now = scope.happening
    if now is None or now.kind != moment.kind:
        return False
    if moment.who is not None and now.side not in sides_of(ctx, moment.who, scope.side):
        return False
    if moment.first and not now.first:
        return False
    return moment.phase is None or moment.phase == now.phase


def sides_of(ctx: Context, who: Who | None, own: str) -> tuple[str, ...]:
    """The sides a ``Who`` names, seen from ``own``."""
    if who is None or who.relative == "own":
        return (own,)
    if who.side is not None:
        return (who.side,)
    return tuple(s for s in ctx.rules.sides if s != own)


# --- clauses --------------------------------------------------------------------------------------


def _clause(ctx: Context, clause, scope: Scope) -> bool:
    if isinstance(clause, Compare):
        return OPERATORS[clause.op](quantity(ctx, clause.left, scope), quantity(ctx, clause.right, scope))
    if isinstance(clause, Presence):
        found = any(True for _ in counters_at(ctx, clause.groups, clause.place, scope))
        return not found if clause.negated else found
    if isinstance(clause, Defending):
        if scope.defending is not None:
            return scope.defending in sides_of(ctx, clause.who, scope.side)
        operation = ctx.operation
        if operation is None or operation.cell is None:
            return False
        return any(side != operation.side for side in sides_of(ctx, clause.who, scope.side))
    if isinstance(clause, InState):
        entered = ctx.state.side_states
        found = any((side, clause.state) in entered for side in sides_of(ctx, clause.who, scope.side))
        return not found if clause.negated else found
    if isinstance(clause, Traced):
        cell = scope.cell if scope.cell is not None else scope.unit.location if scope.unit is not None else None
        found = traces(ctx, ctx.rules.traces[clause.trace], scope.side, cell)
        return not found if clause.negated else found
    if isinstance(clause, Weather):
        return ctx.state.weather in clause.names
    if isinstance(clause, OneSide):
        cells = _place_cells(ctx, clause.place, scope)
        return len({u.side for u in ctx.state.units if u.location in cells and not u.dummy}) <= 1
    if isinstance(clause, Across):
        return across(ctx, clause, scope)
    raise TypeError(f"unknown clause {clause!r}")  # pragma: no cover - the parser makes only these


def across(ctx: Context, clause: Across, scope: Scope) -> bool:
    """Whether ``all``/``any`` of the role's units fight across such a feature (module docstring)."""
    units = [u for u in scope.roles.get(clause.role, ()) if not u.dummy]
    cell, graph, wanted = scope.cell, ctx.board.graph, frozenset(clause.features)
    if not units or cell is None:
        return False
    found = (u.location != cell and graph.has_edge(u.location, cell)
             and not wanted.isdisjoint(graph.edges[u.location, cell].get("features", ())) for u in units)
    return all(found) if clause.every else any(found)


def quantity(ctx: Context, q: Quantity, scope: Scope) -> Fraction:
    """The value of a ``Quantity``."""
    if q.kind == "number":
        return Fraction(q.value)
    if q.kind == "turn":
        return Fraction(ctx.state.turn)
    if q.kind == "total":
        total = Fraction(0)
        for unit in scope.roles.get(q.role, ()):
            value = ctx.rules.factor(unit, q.name)
            if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
                total += value
        return total
    sides = sides_of(ctx, q.who, scope.side)
    if q.kind == "resource":
        return max(ctx.state.resource(s, q.name) for s in sides)
    return max(lead(ctx, s, q.name) for s in sides)


def lead(ctx: Context, side: str, resource: str) -> Fraction:
    """A side's total less the largest other side's (negative when behind)."""
    others = [ctx.state.resource(s, resource) for s in ctx.rules.sides if s != side]
    return ctx.state.resource(side, resource) - (max(others) if others else Fraction(0))


def counters_at(ctx: Context, groups: Iterable[Group], place: Place, scope: Scope) -> Iterable[Unit]:
    """The counters at a place that match any of the groups (id order)."""
    cells = _place_cells(ctx, place, scope)
    groups = tuple(groups)
    for unit in sorted(ctx.state.units, key=lambda u: u.id):
        if unit.location in cells and not unit.dummy and any(_matches(ctx, unit, g, scope) for g in groups):
            yield unit


def _matches(ctx: Context, unit: Unit, group: Group, scope: Scope) -> bool:
    if group.who is not None and unit.side not in sides_of(ctx, group.who, scope.side):
        return False
    unit_type = ctx.rules.unit_type(unit.type)
    if group.noun is not None and group.noun != "counter" and unit_type.kind != group.noun:
        return False
    return all(Rules.unit_matches(unit_type, (name,)) for name in group.selectors)


def _place_cells(ctx: Context, place: Place, scope: Scope) -> frozenset[str]:
    if place.kind == "cell":
        return frozenset({scope.cell}) if scope.cell is not None else frozenset()
    cache = map_memos(ctx.rules, ctx.board).condition_cells
    key = (place.kind, place.selectors)
    if key not in cache:
        wanted = frozenset(place.selectors)
        named = frozenset(c for c in ctx.board.cells
                          if wanted & ctx.rules.cell_selectors(ctx.board.terrain(c), ctx.board.tags(c))
                          or ctx.board.graph.nodes[c].get("place") in wanted)
        if place.kind == "adjacent":
            named = frozenset(n for c in named for n in ctx.board.neighbours(c))
        cache[key] = named
    return cache[key]
