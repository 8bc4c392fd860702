"""The rulebook compiled for play: quick, typed answers to the questions the engine asks often.

``Rules`` reads a ``dsl.model.Rulebook`` once and answers: what a unit type's
factors and tags are, whether a selector names a unit or a cell, what a
terrain costs a unit to enter and how it multiplies defence.  Nothing here
knows a game; every answer comes from declarations.

Selector matching (docs/reference.md, "Selectors"): a name matches a unit when
it is the unit's type, side, nationality, movement class, size or one of its
tags (tags include their ``within`` parents); a name matches a cell when it is
the cell's terrain, one of the terrain's tags or one of the cell's own tags.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Iterable

from attrs import frozen

from ..dsl.conditions import Names
from ..dsl.effects import Effect, compile_effects
from ..dsl.model import Declaration, Property, Rulebook

EFFECT_KINDS = ("result", "event", "unit", "marker", "option")
"""The kinds of declaration that carry ``effect`` lines."""

ELIMINATED = "eliminated"
"""Where eliminated units go when no box ``holds eliminated``: out of play, a location no procedure
takes units from."""


def as_names(value: Iterable[Any] | None) -> tuple[str, ...]:
    """A rule line's list of names (``who``, ``where`` …) as strings; empty when the line leaves it out.

    >>> as_names(None), as_names(["road", "clear"])
    ((), ('road', 'clear'))
    """
    return tuple(str(v) for v in value or ())


@frozen
class UnitType:
    """A unit or marker type with everything play needs, resolved."""

    name: str
    label: str
    kind: str
    """``unit`` or ``marker``."""
    side: str | None
    movement: str | None
    tags: frozenset[str]
    nationality: str | None
    size: str | None
    factors: tuple[tuple[str, Any], ...]
    """Factor name to value: a ``Fraction``, ``"all"``, or ``None`` when written as ``none``."""
    carries: int
    dummy: bool

    @property
    def selectors(self) -> frozenset[str]:
        """Every name a selector may use for this type."""
        names = {self.name, *self.tags}
        names.update(n for n in (self.side, self.movement, self.nationality, self.size) if n)
        return frozenset(names)

    def factor(self, name: str, default: Any = None) -> Any:
        for key, value in self.factors:
            if key == name:
                return value
        return default


class Rules:
    """Compiled view of a rulebook for the interpreter (built once per game)."""

    def __init__(self, rulebook: Rulebook):
        self.rulebook = rulebook
        self._parents = {t.name: tuple(str(r) for p in t.all("within") for r in p.get("parents") or ())
                         for t in rulebook.of_kind("tag")}
        self.unit_types: dict[str, UnitType] = {}
        for decl in (*rulebook.of_kind("unit"), *rulebook.of_kind("marker")):
            self.unit_types[decl.name] = self._compile_unit(decl)
        self.sides: tuple[str, ...] = tuple(d.name for d in rulebook.of_kind("side"))
        self._terrain_tags = {t.name: self.tag_closure(str(r) for p in t.all("tags") for r in p.get("tags") or ())
                              for t in rulebook.of_kind("terrain")}
        self.eliminated_box: str = next((d.name for d in rulebook.of_kind("box") if d.has("holds")), ELIMINATED)
        """Where eliminated units go: the box that ``holds eliminated``, else out of play."""
        self.names = Names(rulebook)
        """What each declared name is, for reading conditions (``dsl.conditions``)."""
        self._effects: dict[tuple[str, str], tuple[Effect, ...]] = {
            (d.kind, d.name): compile_effects(d, self.names)
            for kind in EFFECT_KINDS for d in rulebook.of_kind(kind)}
        self._meeting: dict[tuple[str, str | None], frozenset[str]] = {}
        for (kind, name), effects in self._effects.items():
            if kind in ("unit", "marker"):
                for effect in effects:
                    moment = effect.condition.moment if effect.condition is not None else None
                    if moment is not None:
                        for key in ((moment.kind, None), (moment.kind, moment.phase)):
                            self._meeting[key] = self._meeting.get(key, frozenset()) | {name}
        self.derived: dict[Any, Any] = {}
        """Answers the interpreter derives from this rulebook and keeps (``caches.rules_cache``):
        they live and die with this object, and nothing invalidates them, as a rulebook never changes."""

    # --- tags and selectors ---------------------------------------------------------

    def tag_closure(self, tags: Iterable[str]) -> frozenset[str]:
        out: set[str] = set()
        stack = list(tags)
        while stack:
            tag = stack.pop()
            if tag not in out:
                out.add(tag)
                stack.extend(self._parents.get(tag, ()))
        return frozenset(out)

    def _compile_unit(self, decl: Declaration) -> UnitType:
        def ref(prop: str, key: str) -> str | None:
            p = decl.first(prop)
            value = p.get(key) if p else None
            return str(value) if value is not None else None

        tags = self.tag_closure(str(r) for p in decl.all("tags") for r in p.get("tags") or ())
        factors = []
        for prop in decl.properties:
            if prop.name.startswith("factor:"):
                factors.append((prop.name.split(":", 1)[1], prop.get("value")))
        for factor in self.rulebook.of_kind("factor"):
            default = factor.first("default")
            if default is not None and factor.name not in dict(factors):
                factors.append((factor.name, default.get("value")))
        carries = decl.first("carries")
        side = ref("side", "side")
        nationality = ref("nationality", "nationality")
        if side is None and nationality is not None:
            # A unit's side may come from its nationality (nationality blue_army { side blue }).
            nation = self.rulebook.get("nationality", nationality)
            fights_for = nation.first("side") if nation else None
            side = str(fights_for.get("side")) if fights_for else None
        return UnitType(
            name=decl.name, label=decl.display, kind=decl.kind, side=side,
            movement=ref("movement", "class"), tags=tags, nationality=nationality,
            size=ref("size", "size"), factors=tuple(factors), carries=carries.get("count") if carries else 0,
            dummy=decl.has("dummy"),
        )

    def effects(self, decl: Declaration) -> tuple[Effect, ...]:
        """A declaration's effect lines, compiled (``dsl.effects``), in order."""
        return self._effects.get((decl.kind, decl.name), ())

    def effects_of(self, unit_type: UnitType) -> tuple[Effect, ...]:
        """A unit or marker type's effect lines, compiled."""
        return self._effects.get((unit_type.kind, unit_type.name), ())

    def meeting(self, moment: str, phase: str | None = None) -> frozenset[str]:
        """The unit and marker types with an effect that waits for ``moment`` (``revealed``,
        ``round ends`` …; for ``phase ends``, of ``phase`` when given)."""
        return self._meeting.get((moment, phase), frozenset())

    def unit_type(self, name: str) -> UnitType:
        return self.unit_types[name]

    @staticmethod
    def unit_matches(unit_type: UnitType, names: Iterable[Any]) -> bool:
        """Whether any selector in ``names`` names this unit type."""
        selectors = unit_type.selectors
        return any(str(n) in selectors for n in names)

    def cell_selectors(self, terrain: str, cell_tags: Iterable[str] = ()) -> frozenset[str]:
        return frozenset({terrain, *self._terrain_tags.get(terrain, ()), *self.tag_closure(cell_tags)})

    # --- terrain ------------------------------------------------------------------------

    @staticmethod
    def line_for(lines: Iterable[Property], unit_type: UnitType) -> Property | None:
        """The line that applies to a unit: the first whose ``for`` names it, else the first general one.

        The one rule for every repeatable property with ``[for SELECTOR]`` (costs, defence,
        stacking limits, zone ranges, award points): a ``for`` line overrides the general line.
        """
        general = None
        for prop in lines:
            who = prop.get("who")
            if who:
                if Rules.unit_matches(unit_type, who):
                    return prop
            elif general is None:
                general = prop
        return general

    def terrain_cost(self, terrain: str, unit_type: UnitType) -> Fraction | None:
        """Movement points to enter ``terrain``; ``None`` for no entry."""
        decl = self.rulebook.get("terrain", terrain)
        line = self.line_for(decl.all("cost"), unit_type) if decl else None
        if line is None:
            return Fraction(1)
        return None if line.has("no") else line.get("amount")

    def terrain_defence(self, terrain: str, unit_type: UnitType) -> Fraction:
        """The defence multiplier a terrain gives a defending unit (x1 when none is declared)."""
        decl = self.rulebook.get("terrain", terrain)
        line = self.line_for(decl.all("defence"), unit_type) if decl else None
        if line is None or line.get("multiplier") is None:
            return Fraction(1)
        return line.get("multiplier")

    def spot_range(self, terrain: str):
        """The roll that spots a hidden unit in this terrain: ``"auto"``, a ``Range``, or ``None``."""
        decl = self.rulebook.get("terrain", terrain)
        line = decl.first("spot") if decl else None
        if line is None:
            return None
        return "auto" if line.has("auto") else line.get("roll")
