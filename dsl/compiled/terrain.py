"""Terrain types and map features compiled: what a cell of each terrain costs, how it defends, how
it hides and supplies; where each feature is drawn.

Each ``terrain NAME { … }`` becomes one ``Terrain``, each ``feature NAME { … }`` one ``Feature``.  Selector matching for cells
(docs/reference.md, "Selectors"): a name matches a cell when it is the cell's terrain, one of the
terrain's tags (with their ``within`` parents) or one of the cell's own tags.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from attrs import field, frozen

from ..conditions import Condition, ConditionError, Names, read_condition
from ..model import Declaration, Property
from ..values import Range, Shift
from .lines import ForLine, as_names, for_lines, line_for
from .units import tag_closure


@frozen
class Defence:
    """``defence (xN | SHIFT | no effect) [for WHO…] [when SIDE defending]``."""

    multiplier: Fraction | None
    shift: Shift | None
    defending: str | None
    """The side that must be defending for the line to hold (``None``: either)."""


@frozen
class Recon:
    """``recon ROLE MOD``: a modifier to the recon roll of that role."""

    role: str
    modifier: int


@frozen
class ConditionalCost:
    """``cost (no entry | N) [for WHO…] when CONDITION``: a cost in force while the condition holds."""

    line: ForLine[Fraction | None]
    condition: Condition | None
    condition_error: ConditionError | None = field(eq=False)

    @property
    def source(self) -> Property | None:
        return self.line.source


@frozen
class Terrain:
    """One terrain type, every line of it read."""

    name: str
    label: str
    decl: Declaration = field(repr=False)
    tags: frozenset[str]
    """Its tags with their parents."""
    costs: tuple[ForLine[Fraction | None], ...]
    """Movement points to enter (``None``: no entry), per ``for`` line."""
    defence: tuple[ForLine[Defence], ...]
    recon: Recon | None
    spot: Range | str | None
    """The roll that spots a hidden unit here: a ``Range``, ``"auto"``, or ``None`` (never spotted)."""
    spot_dice: str | None
    spot_source: Property | None = field(repr=False)
    supplies: frozenset[str]
    """Sides whose units in such a cell are in supply."""
    defers: bool
    """``effects from other terrain``: in a cell, the cell's other terrain gives the cost, defence,
    recon and spot lines (``interpreter.rules.Rules.cell_terrain``); its tags and ``supplies`` are
    still its own."""
    entered_across: frozenset[str] | None = None
    """``entered only across FEATURE…``: the features (or their tags) a step into such a cell must
    cross (``None``: any step)."""
    conditional_costs: tuple[ConditionalCost, ...] = ()
    """The ``cost … when …`` lines (not in ``costs``), in order: while one holds it overrides ``costs``."""

    @property
    def selectors(self) -> frozenset[str]:
        return self.tags | {self.name}

    def cost_for(self, selectors: frozenset[str]) -> ForLine[Fraction | None] | None:
        """The cost line that applies to a unit with these selectors, or ``None`` (cost 1)."""
        return line_for(self.costs, selectors)

    def multiplier_for(self, selectors: frozenset[str]) -> Fraction:
        """The defence multiplier for a defending unit (x1 when none is declared)."""
        line = line_for(self.defence, selectors)
        if line is None or line.value.multiplier is None:
            return Fraction(1)
        return line.value.multiplier

    def shift_for(self, defending: str | None, names_defenders) -> tuple[int, str] | None:
        """The column shift it gives the fire at defenders when ``defending`` defends: its first
        ``defence SHIFT`` line whose ``when SIDE defending`` holds and whose ``for WHO`` the
        defenders match (``names_defenders(who)``), as ``(columns, why)``; ``None``: no shift."""
        for line in self.defence:
            shift = line.value.shift
            if shift is None or (line.value.defending is not None and line.value.defending != defending):
                continue
            if line.who and not names_defenders(line.who):
                continue
            return shift.columns, f"{self.label} {shift.text}"
        return None



def _defence(p: Property) -> Defence:
    side = p.get("side")
    return Defence(p.get("multiplier"), p.get("shift"), str(side) if side is not None else None)


def compile_terrain(decl: Declaration, parents: Mapping[str, tuple[str, ...]], names: Names | None = None) -> Terrain:
    """One ``terrain`` declaration as a ``Terrain`` (``names``: to read ``cost … when`` conditions)."""
    costs = [p for p in decl.all("cost") if not p.get("condition")]
    conditional = [p for p in decl.all("cost") if p.get("condition")]
    recon = decl.first("recon")
    spot = decl.first("spot")
    dice = spot.get("dice") if spot is not None else None
    return Terrain(
        name=decl.name, label=decl.display, decl=decl,
        tags=tag_closure(parents, (t for p in decl.all("tags") for t in as_names(p.get("tags")))),
        costs=for_lines(costs, _cost),
        defence=for_lines(decl.all("defence"), _defence),
        recon=(Recon(str(recon.get("role")), recon.get("modifier"))
               if recon is not None and recon.get("modifier") is not None else None),
        spot=None if spot is None else ("auto" if spot.has("auto") else spot.get("roll")),
        spot_dice=str(dice) if dice is not None else None, spot_source=spot,
        supplies=frozenset(n for p in decl.all("supplies") for n in as_names(p.get("sides"))),
        defers=decl.has("effects"),
        entered_across=frozenset(as_names(decl.first("entered").get("features"))) if decl.first("entered") else None,
        conditional_costs=tuple(ConditionalCost(line, *read_condition(p.get("condition"), names))
                                for line, p in zip(for_lines(conditional, _cost), conditional))
        if names is not None else (),
    )


def _cost(p: Property) -> Fraction | None:
    return None if p.has("no") else p.get("amount")


PRIMARY = "primary"
"""A family whose effects in a cell of several terrains are its first terrain's alone (the default)."""


@frozen
class TerrainMix:
    """The rulebook's ``terrains { … }``: how the effects of a cell's several terrains combine, per
    family (``cost``, ``defence`` multipliers, terrain ``shifts``, ``recon`` modifiers).  Each is
    ``"primary"`` unless a line says otherwise, so a rulebook without the declaration plays as if
    only a cell's first terrain (``interpreter.rules.Rules.cell_terrain``) had effects."""

    cost: str = PRIMARY
    """``primary``, ``highest`` or ``sum``."""
    defence: str = PRIMARY
    """``primary``, ``multiply`` or ``best``."""
    shifts: str = PRIMARY
    """``primary``, ``sum`` or ``best``."""
    recon: str = PRIMARY
    """``primary``, ``sum`` or ``best``."""
    decl: Declaration | None = field(default=None, repr=False, eq=False)

    def combine_costs(self, costs: list[tuple[Fraction | None, bool]]) -> tuple[Fraction | None, int]:
        """The cell's cost from each terrain's ``(cost, has a line)``, first terrain first (``None``:
        no entry), and the index of the terrain that decides it (the one barring, or the dearest)."""
        if self.cost == PRIMARY or len(costs) == 1:
            return costs[0][0], 0
        barring = next((i for i, (cost, _) in enumerate(costs) if cost is None), None)
        if barring is not None:
            return None, barring
        if self.cost == "highest":
            top = max(range(len(costs)), key=lambda i: costs[i][0])
            return costs[top][0], top
        lined = [cost for cost, has in costs if has]
        return (sum(lined, Fraction(0)) if lined else Fraction(1)), 0

    def combine_multipliers(self, multipliers: list[Fraction]) -> Fraction:
        """The defence multiplier from each terrain's, first terrain first."""
        if self.defence == PRIMARY or len(multipliers) == 1:
            return multipliers[0]
        if self.defence == "best":
            return max(multipliers)
        product = Fraction(1)
        for value in multipliers:
            product *= value
        return product

    def combine_shifts(self, shifts: list[tuple[int, str] | None], better: int) -> list[tuple[int, str]]:
        """The terrain column shifts, as ``(columns, why)``, from each terrain's (``None``: it gives
        none), first terrain first; ``better`` is the direction that helps the firer (+1 right)."""
        if self.shifts == PRIMARY or len(shifts) == 1:
            return [shifts[0]] if shifts[0] is not None else []
        if self.shifts == "sum":
            return [s for s in shifts if s is not None]
        best = min((s if s is not None else (0, "") for s in shifts), key=lambda s: s[0] * better)
        return [best] if best[0] else []

    def combine_recon(self, lines: list[Recon | None], role: str) -> list[int]:
        """Which of each terrain's recon line (``None``: it has none), first terrain first, modify a
        roll by ``role`` (``attacker``, ``defender`` …): their indices."""
        if self.recon == PRIMARY or len(lines) == 1:
            chosen = [0]
        elif self.recon == "sum":
            chosen = list(range(len(lines)))
        else:
            chosen = [max(range(len(lines)), key=lambda i: _for_defender(lines[i]))]
        return [i for i in chosen if lines[i] is not None and lines[i].role == role]


def _for_defender(line: Recon | None) -> int:
    """How much a recon line helps the defender's side of the bounce (no line: 0)."""
    if line is None:
        return 0
    return line.modifier if line.role == "defender" else -line.modifier if line.role == "attacker" else 0


_MIX_WORDS = ("highest", "sum", "multiply", "best")


def compile_terrain_mix(decl: Declaration | None) -> TerrainMix:
    """The ``terrains`` declaration as a ``TerrainMix`` (``None``: every family ``primary``)."""
    if decl is None:
        return TerrainMix()

    def how(family: str) -> str:
        line = decl.first(family)
        return next((word for word in _MIX_WORDS if line is not None and line.has(word)), PRIMARY)

    return TerrainMix(how("cost"), how("defence"), how("shifts"), how("recon"), decl)


DRAWN_ON_EDGES = frozenset({"sides", "corners"})
"""Where a feature with no ``on`` line lies: on every edge its path steps across."""


@frozen
class Feature:
    """One map feature: where the map may draw it and the tags it gives what it is drawn on."""

    name: str
    label: str
    on: frozenset[str]
    """``sides``, ``corners`` and/or ``cells`` (``interpreter.board`` places it accordingly)."""
    tags: frozenset[str]
    """Its tags with their parents: selectors name what it lies on by these, as by its name."""
    crossing: tuple[ForLine[Crossing], ...] = ()
    """Its ``cost`` lines: what stepping across an edge it lies on costs, per ``for`` line."""


@frozen
class Crossing:
    """A feature's ``cost`` line: ``extra`` points added to the cell's cost, or the step's whole
    cost (``amount``), or neither (``no entry``: the crossing is barred)."""

    extra: int | None
    amount: Fraction | None

    @property
    def barred(self) -> bool:
        return self.extra is None and self.amount is None


def compile_feature(decl: Declaration, parents: Mapping[str, tuple[str, ...]]) -> Feature:
    """One ``feature`` declaration as a ``Feature``; with no ``on`` line it lies on sides and corners
    (the edges between the cells of its path)."""
    on = frozenset(w.text for p in decl.all("on") for w in p.words[1:] if not w.quoted) or DRAWN_ON_EDGES
    return Feature(decl.name, decl.display, on,
                   tag_closure(parents, (t for p in decl.all("tags") for t in as_names(p.get("tags")))),
                   for_lines(decl.all("cost"), lambda p: Crossing(p.get("extra"), p.get("amount"))))
