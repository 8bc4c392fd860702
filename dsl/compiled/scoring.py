"""Resources, awards and victory compiled: what a side keeps, what scores, and how the game is won.

``resource NAME { … }`` becomes a ``Resource``, ``award NAME { … }`` an ``Award`` and the
rulebook's ``victory { … }`` a ``Victory``; every line of those kinds is read here, once.
"""

from __future__ import annotations

from fractions import Fraction

from attrs import field, frozen

from ..model import Declaration, Property
from ..values import Range
from .lines import ForLine, as_names, for_lines, line_for


@frozen
class Resource:
    """One resource track, every line of it read."""

    name: str
    label: str
    decl: Declaration = field(repr=False)
    minimum: Fraction | None
    cap: Fraction | None
    carries_over: bool
    """``carry over no`` makes it ``False``: unspent points lapse at the end of each turn."""
    carry_source: Property | None = field(repr=False)
    never_lost: bool
    open: bool
    """Both players always know both totals."""

    @property
    def floor(self) -> Fraction:
        """What may never be spent below: the ``minimum``, else 0."""
        return self.minimum if self.minimum is not None else Fraction(0)


def compile_resource(decl: Declaration) -> Resource:
    """One ``resource`` declaration as a ``Resource``."""
    minimum, cap, carry = decl.first("minimum"), decl.first("cap"), decl.first("carry")
    return Resource(
        name=decl.name, label=decl.display, decl=decl,
        minimum=Fraction(minimum.get("value")) if minimum is not None else None,
        cap=Fraction(cap.get("value")) if cap is not None else None,
        carries_over=not (carry is not None and carry.has("no")), carry_source=carry,
        never_lost=decl.has("never"), open=decl.has("open"),
    )


ON = ("eliminated", "refitted", "revealed", "infiltrated", "held", "controlled", "exited")
"""What an award may score ``on`` besides a trigger of the designer's own naming."""


@frozen
class Award:
    """One award, every line of it read."""

    name: str
    label: str
    decl: Declaration = field(repr=False)
    to: str | None
    """The side that scores (``None``: the counter's enemy, for awards scored on a counter)."""
    resource: str | None
    """What is scored (``None``: the rulebook's victory resource)."""
    on: str | None
    """``eliminated``, ``refitted``, ``revealed``, ``infiltrated``, ``held`` or a trigger's name."""
    by_combat: bool
    of: tuple[str, ...]
    """Whose counters it counts (empty: any)."""
    cells: tuple[str, ...] | None
    """For ``held`` and ``infiltrated``: the cells that count (``None``: no ``cells`` line)."""
    cells_except: tuple[str, ...]
    then_to: str | None
    points: tuple[ForLine[int | str], ...]
    """Per ``for`` line: a number of points, or the name of the factor the counter's points are."""
    doubled_with: tuple[str, ...]
    scored_during: tuple[str, ...] | None
    """``scored during PHASE…``: the phases (and steps) it scores in; ``None`` for ``scored as they
    occur`` or no ``scored`` line: whenever it scores (its counter leaves play, a ``do score`` runs …)."""
    distance_points: tuple[DistancePoints, ...] = ()
    """The ``points … at distance RANGE from WHERE…`` lines, in order (not in ``points``)."""

    def scores_in(self, running: frozenset[str]) -> bool:
        """Whether it scores while these phases and steps run (the running one and those around it)."""
        return self.scored_during is None or not running.isdisjoint(self.scored_during)

    def points_for(self, selectors: frozenset[str], distance=None) -> int | str:
        """The points for a counter (or a cell) these selectors name: the first ``at distance`` line
        whose ``for`` (if any) names it and whose range holds ``distance(WHERE…)`` (the cells from the
        scored cell to the nearest cell WHERE names; ``None``: off the map, or none named), else its
        ``for`` line, else the general one; a factor's name for ``points factor F`` (the counter's value
        of F: ``interpreter.victory``)."""
        if distance is not None:
            for line in self.distance_points:
                if line.who and selectors.isdisjoint(line.who):
                    continue
                if line.distance is not None and distance(line.origin) in line.distance:
                    return line.value
        line = line_for(self.points, selectors)
        return line.value if line is not None else 0

    def counts(self, selectors: frozenset[str]) -> bool:
        """Whether its ``of`` names a counter with these selectors (an award without ``of`` counts any)."""
        return not self.of or not selectors.isdisjoint(self.of)

    def holds_cell(self, selectors: frozenset[str]) -> bool:
        """Whether its ``cells`` (less ``except``) name a cell with these selectors."""
        return (self.cells is None
                or bool(selectors.intersection(self.cells)) and not selectors.intersection(self.cells_except))


@frozen
class DistancePoints:
    """``points N [for WHO…] at distance RANGE from WHERE…``: points where the cell scored lies
    that many cells from the nearest cell ``origin`` names."""

    who: tuple[str, ...]
    value: int | str
    distance: Range | None
    origin: tuple[str, ...]
    source: Property | None = field(default=None, repr=False)


def _points_value(p: Property) -> int | str:
    return str(p.get("factor")) if p.get("factor") is not None else int(p.get("value"))


def _on(line: Property | None) -> str | None:
    if line is None:
        return None
    if line.get("trigger") is not None:
        return str(line.get("trigger"))
    return next((word for word in ON if line.has(word)), None)


def compile_award(decl: Declaration) -> Award:
    """One ``award`` declaration as an ``Award``."""
    to, resource, on = decl.first("to"), decl.first("resource"), decl.first("on")
    of, cells, then, doubled = decl.first("of"), decl.first("cells"), decl.first("then"), decl.first("doubled")
    return Award(
        name=decl.name, label=decl.display, decl=decl,
        to=str(to.get("side")) if to is not None else None,
        resource=str(resource.get("resource")) if resource is not None else None,
        on=_on(on), by_combat=bool(on is not None and on.has("combat")),
        of=as_names(of.get("who")) if of is not None else (),
        cells=as_names(cells.get("where")) if cells is not None else None,
        cells_except=as_names(cells.get("except")) if cells is not None else (),
        then_to=str(then.get("box")) if then is not None else None,
        points=for_lines([p for p in decl.all("points") if p.get("from") is None], _points_value),
        distance_points=tuple(DistancePoints(as_names(p.get("who")), _points_value(p), p.get("distance"),
                                             as_names(p.get("from")), p)
                              for p in decl.all("points") if p.get("from") is not None),
        doubled_with=as_names(doubled.get("who")) if doubled is not None else (),
        scored_during=_during(decl.first("scored")),
    )


def _during(line: Property | None) -> tuple[str, ...] | None:
    if line is None or not line.get("phases"):
        return None
    return as_names(line.get("phases"))


@frozen
class Level:
    """``level NAME RANGE [LABEL]``."""

    name: str
    range: Range
    label: str | None

    @property
    def shown(self) -> str:
        return self.label or self.name


@frozen
class Victory:
    """The rulebook's ``victory`` declaration, every line of it read."""

    decl: Declaration = field(repr=False)
    resource: str | None
    by_total: bool
    """``by R total`` (the leader's own total decides the level), else ``by R margin``."""
    levels: tuple[Level, ...]
    sudden_death_lead: int | None
    sudden_death_level: str | None
    draws_won_by: str | None = None
    """``draws won by SIDE``: a result that would be drawn is that side's win; ``None`` (``draws
    possible``, or no ``draws`` line): a draw stands."""
    by_control: tuple["ControlWin", ...] = ()
    """``control … of WHERE (at end | after turn N | at once) [wins LEVEL]`` lines, in order."""
    thresholds: tuple["Threshold", ...] = ()
    """``first to N RESOURCE [wins LEVEL]`` lines, in order."""
    scored_at_end: tuple[str, ...] = ()
    """``score AWARD… at end``: awards scored once when the game ends, before the result."""

    def level(self, name: str) -> Level | None:
        return next((level for level in self.levels if level.name == name), None)


@frozen
class ControlWin:
    """``control (all | N) of WHERE… (at end | after turn N | at once) [wins LEVEL]``."""

    where: tuple[str, ...]
    count: int | None
    """At least this many of the cells (``None``: all of them)."""
    when: str
    """``end``, ``turn`` (``after turn``) or ``once``."""
    turn: int | None
    level: str | None
    source: Property = field(repr=False, eq=False)


@frozen
class Threshold:
    """``first to N RESOURCE [wins LEVEL]``."""

    value: int
    resource: str
    level: str | None
    source: Property = field(repr=False, eq=False)


def _control_win(line: Property) -> ControlWin:
    when = "end" if line.has("end") else "turn" if line.get("turn") is not None else "once"
    level = line.get("level")
    return ControlWin(as_names(line.get("where")), line.get("count"), when, line.get("turn"),
                      str(level) if level is not None else None, line)


def _threshold(line: Property) -> Threshold:
    level = line.get("level")
    return Threshold(int(line.get("value")), str(line.get("resource")), str(level) if level is not None else None,
                     line)


def compile_victory(decl: Declaration) -> Victory:
    """The ``victory`` declaration as a ``Victory``."""
    by, sudden = decl.first("by"), decl.first("sudden")
    return Victory(
        decl=decl,
        resource=str(by.get("resource")) if by is not None else None,
        by_total=bool(by is not None and by.has("total")),
        levels=tuple(Level(str(p.get("level")), p.get("range"), str(p.get("label")) if p.get("label") else None)
                     for p in decl.all("level")),
        sudden_death_lead=sudden.get("lead") if sudden is not None else None,
        sudden_death_level=str(sudden.get("level")) if sudden is not None and sudden.get("level") else None,
        draws_won_by=_draws_won_by(decl.first("draws")),
        by_control=tuple(_control_win(p) for p in decl.all("control")),
        thresholds=tuple(_threshold(p) for p in decl.all("first")),
        scored_at_end=tuple(as_names(decl.first("score").get("awards"))) if decl.first("score") else (),
    )


def _draws_won_by(line: Property | None) -> str | None:
    side = line.get("side") if line is not None else None
    return str(side) if side is not None else None
