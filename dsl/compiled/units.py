"""Unit and marker types compiled: side, movement class, tags, factors and the selectors that name them.

Selector matching (docs/reference.md, "Selectors"): a name matches a unit when it is the unit's
type, side, nationality, movement class, size or one of its tags (tags include their ``within``
parents).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Iterable, Mapping

from attrs import evolve, field, frozen

from ..model import Declaration, Property, Rulebook
from ..values import read_number
from .lines import as_names


def tag_parents(rulebook: Rulebook) -> dict[str, tuple[str, ...]]:
    """Each tag's ``within`` parents."""
    return {t.name: tuple(str(r) for p in t.all("within") for r in p.get("parents") or ())
            for t in rulebook.of_kind("tag")}


def tag_closure(parents: Mapping[str, tuple[str, ...]], tags: Iterable[str]) -> frozenset[str]:
    """The tags and every tag they are ``within``, transitively.

    >>> sorted(tag_closure({"jeep": ("vehicle",), "vehicle": ("unit",)}, ["jeep"]))
    ['jeep', 'unit', 'vehicle']
    """
    out: set[str] = set()
    stack = list(tags)
    while stack:
        tag = stack.pop()
        if tag not in out:
            out.add(tag)
            stack.extend(parents.get(tag, ()))
    return frozenset(out)


def step_pairs(line: Property) -> tuple[list[tuple[str, Fraction | None, int]], bool]:
    """A ``step N FACTOR VALUE …`` line's (factor, value, word index) pairs, in order, and whether
    its words pair up at all; a value that is not a number reads ``None`` (lint E138 says so)."""
    words = line.words[2:]
    pairs = [(words[i].text, read_number(words[i + 1].text), i + 2) for i in range(0, len(words) - 1, 2)]
    return pairs, len(words) % 2 == 0 and bool(words)


def compile_steps(decl: Declaration, full: Iterable[tuple[str, Any]]) -> tuple[tuple[tuple[str, Any], ...], ...]:
    """The factor tables of a type's reduced steps (2, 3 …), each whole: a factor its ``step``
    line does not name keeps the step before's value.  Lines are taken in the order written (lint
    E138 refuses any other numbering), and a pair that does not read as a number is left out."""
    out: list[tuple[tuple[str, Any], ...]] = []
    current = dict(full)
    for line in decl.all("step"):
        pairs, _ = step_pairs(line)
        current = {**current, **{name: value for name, value, _ in pairs if value is not None and name in current}}
        out.append(tuple(current.items()))
    return tuple(out)


def _selectors(unit_type: "UnitType") -> frozenset[str]:
    names = {unit_type.name, *unit_type.tags}
    names.update(n for n in (unit_type.side, unit_type.movement, unit_type.nationality, unit_type.size) if n)
    return frozenset(names)


@frozen
class Entry:
    """A type's own ``never enters WHERE…`` or ``may enter WHERE… [on turn N]`` line."""

    where: tuple[str, ...]
    turn: int | None
    source: Property = field(repr=False)


@frozen
class SupportLine:
    """A support marker's ``support …`` line: ``from BOX``, ``only into WHERE… [within N]``, or a ban."""

    box: str | None
    where: tuple[str, ...]
    distance: int
    never_with_friendly: bool
    never_alone: bool
    never_against_markers_alone: bool
    source: Property = field(repr=False)


def _support(p: Property) -> SupportLine:
    box = p.get("box")
    return SupportLine(str(box) if box is not None else None, as_names(p.get("where")), p.get("distance") or 0,
                       p.has("friendly"), p.has("alone") and not p.has("against"), p.has("against"), p)


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
    never_moves: bool = False
    """``never moves`` on the type itself (a marker that stays where placed)."""
    never_enters: tuple[Entry, ...] = ()
    may_enter: tuple[Entry, ...] = ()
    """Cells it may enter although its side's ``never enters`` forbids them (on turn ``turn`` only)."""
    may_enter_turns: frozenset[int] = frozenset()
    """The turns its ``may enter … on turn N`` lines name."""
    support: tuple[SupportLine, ...] = ()
    """A marker's ``support`` lines, in order."""
    printed: frozenset[str] = frozenset()
    """The factors its own declaration prints (``factors`` also holds the factors' defaults)."""
    losses: str | None = None
    """A marker's ``losses never|last|only on …`` (``None``: taken like any counter)."""
    losses_only_on: frozenset[str] = frozenset()
    """The result codes of ``losses only on CODE…``."""
    eliminated_after_operation_in: Entry | None = None
    """``eliminated after operation in WHERE…``: a raid into cells the unit may not stay in."""
    counts_for_stacking: bool | None = None
    """A marker's ``counts for stacking yes|no`` (``None``: unsaid)."""
    one_per_cell: bool = False
    """A marker's ``one per cell``."""
    steps: tuple[tuple[tuple[str, Any], ...], ...] = ()
    """The factors of each reduced step, 2 onwards (``step N …`` lines); empty for a one-step type."""
    carried_as: str | None = None
    """``carried as CLASS by …``: the class it is carried as in a force (``None``: never carried so,
    unless its own class ``needs transport``)."""
    carried_by: tuple[str, ...] = ()
    """``carried as … by CLASSES…``: the only classes that carry it so."""
    decl: Declaration | None = field(default=None, repr=False, eq=False)
    selectors: frozenset[str] = field(init=False, eq=False, repr=False)
    """Every name a selector may use for this type."""

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "selectors", _selectors(self))

    def factor(self, name: str, default: Any = None, step: int = 1) -> Any:
        """The factor as the counter shows it at ``step`` (1, the full side, unless it has lost steps).

        >>> from fractions import Fraction as F
        >>> t = UnitType("b", "B", "unit", "blue", None, frozenset(), None, None, (("attack", F(6)),), 0, False,
        ...              steps=(((("attack", F(3)),)),))
        >>> t.factor("attack"), t.factor("attack", step=2), t.step_count
        (Fraction(6, 1), Fraction(3, 1), 2)
        """
        factors = self.factors if step <= 1 or not self.steps else self.steps[min(step, len(self.steps) + 1) - 2]
        for key, value in factors:
            if key == name:
                return value
        return default

    @property
    def step_count(self) -> int:
        """How many steps the counter has: 1 plus its ``step`` lines."""
        return 1 + len(self.steps)

    @property
    def support_box(self) -> str | None:
        """The box a ``support from BOX`` marker is committed from and goes back to."""
        return next((line.box for line in self.support if line.box is not None), None)

    def matches(self, names: Iterable[str]) -> bool:
        """Whether any of ``names`` (selectors, as strings) names this type."""
        return not self.selectors.isdisjoint(names)

    def moving_as(self, movement: str, static: bool = False) -> "UnitType":
        """This type as it moves under movement class ``movement`` (``do move … using CLASS``): named
        ``"TYPE as CLASS"``, named by the selectors that name this type, its own class replaced by
        ``movement``, so terrain ``cost … for CLASS`` lines and the class's lines apply to it.
        ``static``: its own class ``never moves``, and then neither does it as any other."""
        moved = evolve(self, name=f"{self.name} as {movement}", movement=movement,
                       never_moves=self.never_moves or static)
        own = {self.movement} - {self.name, *self.tags, self.side, self.nationality, self.size}
        object.__setattr__(moved, "selectors", (self.selectors - own) | {movement})
        return moved


def compile_unit(rulebook: Rulebook, parents: Mapping[str, tuple[str, ...]], decl: Declaration) -> UnitType:
    """One ``unit`` or ``marker`` declaration as a ``UnitType``."""
    def ref(prop: str, key: str) -> str | None:
        p = decl.first(prop)
        value = p.get(key) if p else None
        return str(value) if value is not None else None

    tags = tag_closure(parents, (str(r) for p in decl.all("tags") for r in as_names(p.get("tags"))))
    factors = [(prop.name.split(":", 1)[1], prop.get("value"))
               for prop in decl.properties if prop.name.startswith("factor:")]
    for factor in rulebook.of_kind("factor"):
        default = factor.first("default")
        if default is not None and factor.name not in dict(factors):
            factors.append((factor.name, default.get("value")))
    carries = decl.first("carries")
    carried = decl.first("carried")
    counts = decl.first("counts")
    losses = decl.first("losses")
    raid = decl.first("eliminated")
    side = ref("side", "side")
    nationality = ref("nationality", "nationality")
    if side is None and nationality is not None:
        # A unit's side may come from its nationality (nationality blue_army { side blue }).
        nation = rulebook.get("nationality", nationality)
        fights_for = nation.first("side") if nation else None
        side = str(fights_for.get("side")) if fights_for else None
    return UnitType(
        name=decl.name, label=decl.display, kind=decl.kind, side=side,
        movement=ref("movement", "class"), tags=tags, nationality=nationality,
        size=ref("size", "size"), factors=tuple(factors), carries=carries.get("count") if carries else 0,
        dummy=decl.has("dummy"), never_moves=any(p.has("moves") for p in decl.all("never")),
        never_enters=tuple(Entry(as_names(p.get("where")), None, p) for p in decl.all("never") if not p.has("moves")),
        may_enter=tuple(Entry(as_names(p.get("where")), p.get("turn"), p) for p in decl.all("may")),
        may_enter_turns=frozenset(p.get("turn") for p in decl.all("may") if p.get("turn") is not None),
        support=tuple(_support(p) for p in decl.all("support")),
        printed=frozenset(prop.name.split(":", 1)[1] for prop in decl.properties if prop.name.startswith("factor:")),
        losses=(next(w for w in ("never", "last", "only") if losses.has(w)) if losses is not None else None),
        losses_only_on=frozenset(as_names(losses.get("results"))) if losses is not None else frozenset(),
        eliminated_after_operation_in=(Entry(as_names(raid.get("where")), None, raid) if raid is not None else None),
        counts_for_stacking=None if counts is None else counts.has("yes"),
        one_per_cell=decl.has("one"), steps=compile_steps(decl, factors),
        carried_as=str(carried.get("as")) if carried is not None else None,
        carried_by=as_names(carried.get("classes")) if carried is not None else (), decl=decl,
    )
