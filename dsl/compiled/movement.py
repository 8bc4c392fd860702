"""Movement classes compiled: how far a class moves, where it may go, when it stops, how it is carried.

Each ``movement NAME { … }`` becomes one ``MovementClass``; every property of the kind
(``dsl.schema``) is a field here, so the interpreter never reads a class's words at play.
"""

from __future__ import annotations

from fractions import Fraction

from attrs import field, frozen

from ..conditions import Condition, ConditionError, Names, read_condition
from ..model import Declaration, Property
from .lines import as_names


@frozen
class Confinement:
    """``enters only WHERE… [within N]``: the cells named, and those within ``distance`` of them."""

    where: tuple[str, ...]
    distance: int | None
    source: Property = field(repr=False)


@frozen
class Barrier:
    """``never enters WHERE… [unless EXCEPTIONS…]``: a type named by an exception is not barred."""

    where: tuple[str, ...]
    exceptions: tuple[str, ...]
    source: Property = field(repr=False)


@frozen
class Combination:
    """``combines with CLASSES… [only in WHERE…]``: may form one force with these classes (where)."""

    classes: tuple[str, ...]
    where: tuple[str, ...]
    source: Property = field(repr=False)


@frozen
class CarriedWith:
    """``carried with CAPACITY against COST``: the carriers' capacity factor must cover the cost factor."""

    capacity: str
    cost: str
    source: Property = field(repr=False)


@frozen
class AllowanceLine:
    """``allowance (at most N | MULT) [for WHO…] when CONDITION``: the allowance capped or multiplied."""

    cap: int | None
    multiplier: Fraction | None
    who: tuple[str, ...]
    condition: Condition | None
    condition_error: ConditionError | None = field(eq=False)
    source: Property = field(repr=False)


@frozen
class MovementClass:
    """One movement class, every line of it read."""

    name: str
    decl: Declaration = field(repr=False)
    """The declaration, for citations."""
    points: int | str | None
    """``points`` as written: a count, ``"unlimited"``, ``"none"``, ``"factor NAME"``; ``None`` when absent."""
    unlimited_distance: bool
    confinements: tuple[Confinement, ...]
    barriers: tuple[Barrier, ...]
    must_end_on: tuple[str, ...]
    must_end_source: Property | None = field(repr=False)
    crosses_only: frozenset[str] | None
    """Features a step must cross (``None``: any step)."""
    no_diagonals: bool
    stops_on_enemy: bool
    stops_on_enemy_zone: bool
    stops_on_markers: frozenset[str]
    ignores_enemy: bool
    needs_transport: bool
    never_moves: bool
    transported_by: tuple[str, ...]
    board_cost: Fraction
    board_source: Property | None = field(repr=False)
    combinations: tuple[Combination, ...]
    joins_any_force: bool
    carried_with: CarriedWith | None
    reacts_with: tuple[str, ...]
    """``reacts from or to cells with WHO…`` (empty: the class never reacts)."""
    cell_cost: Fraction | None = None
    """``cell cost N``: what entering any cell costs, whatever its terrain (``None``: the terrain's cost)."""
    avoids_enemy: bool = False
    """``avoids cells next to enemy``: never starts in, enters or passes a cell holding or next to an enemy."""
    avoids_zones: bool = False
    """``avoids enemy zones``: never starts in, enters or passes a cell in an enemy zone of control."""
    avoid_sources: tuple[Property, ...] = field(default=(), repr=False)
    allowances: tuple[AllowanceLine, ...] = ()
    """The ``allowance … when …`` lines, in order (``interpreter.costs`` applies those that hold)."""
    goes_on_past_markers: Property | None = field(default=None, repr=False)
    """``may go on past markers``: a force stopped by ``stops on entering MARKER`` markers alone may
    move on once they are revealed (``interpreter.procedures.move_force``); ``None``: it may not."""

    def combination_with(self, other: str) -> Combination | None:
        """The ``combines with`` line naming class ``other``, if any."""
        return next((c for c in self.combinations if other in c.classes), None)

    @property
    def reacts(self) -> bool:
        return bool(self.reacts_with)


def _points(line: Property | None) -> int | str | None:
    if line is None:
        return None
    if line.has("none"):
        return "none"
    if line.has("unlimited"):
        return "unlimited"
    if line.get("factor") is not None:
        return f"factor {line.get('factor')}"
    return int(line.get("count") or 0)


def compile_movement(decl: Declaration, names: Names | None = None) -> MovementClass:
    """One ``movement`` declaration as a ``MovementClass`` (``names``: to read ``allowance`` conditions)."""
    stops = decl.all("stops")
    never = decl.all("never")
    must = decl.first("must")
    crosses = decl.first("crosses")
    board = decl.first("board")
    carried = decl.first("carried")
    reacts = decl.first("reacts")
    cell = decl.first("cell")
    avoids = decl.all("avoids")
    return MovementClass(
        name=decl.name, decl=decl, points=_points(decl.first("points")),
        unlimited_distance=decl.has("unlimited"),
        confinements=tuple(Confinement(as_names(p.get("where")), p.get("distance"), p) for p in decl.all("enters")),
        barriers=tuple(Barrier(as_names(p.get("where")), as_names(p.get("exceptions")), p)
                       for p in never if not p.has("moves")),
        must_end_on=as_names(must.get("where")) if must else (), must_end_source=must,
        crosses_only=frozenset(as_names(crosses.get("features"))) if crosses else None,
        no_diagonals=any(p.has("no") for p in decl.all("diagonals")),
        stops_on_enemy=any(p.has("enemy") and not p.has("zone") for p in stops),
        stops_on_enemy_zone=any(p.has("enemy") and p.has("zone") for p in stops),
        stops_on_markers=frozenset(n for p in stops for n in as_names(p.get("markers"))),
        ignores_enemy=decl.has("ignores"), needs_transport=decl.has("needs"),
        never_moves=any(p.has("moves") for p in never),
        transported_by=tuple(n for p in decl.all("transported") for n in as_names(p.get("classes"))),
        board_cost=Fraction(board.get("points")) if board is not None else Fraction(0), board_source=board,
        combinations=tuple(Combination(as_names(p.get("classes")), as_names(p.get("where")), p)
                           for p in decl.all("combines")),
        joins_any_force=decl.has("joins"),
        carried_with=CarriedWith(str(carried.get("capacity")), str(carried.get("cost")), carried) if carried else None,
        reacts_with=as_names(reacts.get("who")) if reacts else (),
        cell_cost=Fraction(cell.get("points")) if cell is not None else None,
        avoids_enemy=any(p.has("next") for p in avoids), avoids_zones=any(p.has("zones") for p in avoids),
        avoid_sources=tuple(avoids), goes_on_past_markers=decl.first("may"),
        allowances=tuple(AllowanceLine(p.get("count"), p.get("multiplier"), as_names(p.get("who")),
                                       *read_condition(p.get("condition"), names), p)
                         for p in decl.all("allowance")) if names is not None else (),
    )


@frozen
class ExitRule:
    """``exit NAME { … }``: who may step off the map, from where, at what cost, into which box."""

    name: str
    label: str
    decl: Declaration = field(repr=False)
    side: str | None
    """Whose units may exit (``None``: any side's)."""
    who: tuple[str, ...]
    """Which units (empty: any of the side)."""
    edges: frozenset[str]
    """``from map edge …``: the map edges (``north`` … ``west``) exit cells lie on."""
    where: tuple[str, ...]
    """``from cells …``: the selectors exit cells are named by."""
    cost: Fraction
    box: str | None
    """The box exited units go to (``None`` only in a rulebook lint refuses, E156)."""


def compile_exit(decl: Declaration) -> ExitRule:
    """One ``exit`` declaration as an ``ExitRule``."""
    side, units, cost, box = decl.first("side"), decl.first("units"), decl.first("cost"), decl.first("to")
    edges = frozenset(w.text for p in decl.all("from") if p.has("edge") for w in p.words[3:] if not w.quoted)
    return ExitRule(decl.name, decl.display, decl, str(side.get("side")) if side else None,
                    as_names(units.get("who")) if units else (), edges,
                    tuple(n for p in decl.all("from") for n in as_names(p.get("where"))),
                    Fraction(cost.get("points")) if cost else Fraction(0),
                    str(box.get("box")) if box else None)
