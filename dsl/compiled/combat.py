"""Combat procedures compiled: how totals become a column, what shifts and modifies it, who fires first,
who picks losses, where units may break off.

``combat NAME { … }`` becomes a ``CombatRule``; every line of the kind is read here, once, and
its ``when`` conditions are parsed here (a condition the grammar cannot read is kept as its
error, which the linter reports as W508 and play as E805 when the line is reached).
"""

from __future__ import annotations

from fractions import Fraction

from attrs import field, frozen

from ..conditions import Condition, ConditionError, Names, read_condition
from ..model import Declaration, Property
from ..values import Odds, Shift
from .lines import as_names


def _condition(line: Property, names: Names) -> tuple[Condition | None, ConditionError | None]:
    return read_condition(line.get("condition"), names)


@frozen
class ColumnShift:
    """``shift SHIFT [for WHO…] [when CONDITION]``."""

    shift: Shift
    who: tuple[str, ...]
    condition: Condition | None
    condition_error: ConditionError | None = field(eq=False)
    source: Property = field(repr=False)


@frozen
class RollModifierLine:
    """``roll modifier MOD [when CONDITION]``."""

    modifier: int
    condition: Condition | None
    condition_error: ConditionError | None = field(eq=False)
    source: Property = field(repr=False)


@frozen
class StrengthLine:
    """``strength (attack | defence) MULT [for WHO…] when CONDITION``: a factor multiplied while it holds."""

    role: str
    """``attack`` (each attacker's attack factor) or ``defence`` (each defender's)."""
    multiplier: Fraction
    who: tuple[str, ...]
    condition: Condition | None
    condition_error: ConditionError | None = field(eq=False)
    source: Property = field(repr=False)


@frozen
class DifferenceShift:
    """``column shift by FACTOR difference (toward higher | toward lower)``."""

    factor: str
    toward_higher: bool


@frozen
class BreakOff:
    """``break off (to adjacent | to cells with WHERE… | to BOX | with carried units | never) [for …]``."""

    to: str
    """``adjacent``, ``cells``, ``box``, ``carried`` or ``never``."""
    where: tuple[str, ...]
    box: str | None
    markers: bool
    """``for markers``: the line is for markers (and only them)."""
    who: tuple[str, ...]
    source: Property = field(repr=False)


def _break_off(p: Property) -> BreakOff:
    box = p.get("box")
    to = ("never" if p.has("never") else "carried" if p.has("carried") else "box" if box is not None
          else "adjacent" if p.has("adjacent") else "cells")
    return BreakOff(to, as_names(p.get("where")), str(box) if box is not None else None,
                    p.has("markers") and p.get("who") is None, as_names(p.get("who")), p)


@frozen
class Advance:
    """``advance after combat [by WHO…] [up to N hexes] [ignoring zones]``: who may follow up an attack
    that leaves the hex attacked empty of enemy counters, and how far (``interpreter.advance``)."""

    who: tuple[str, ...]
    """Only attacking units these select (empty: every attacking unit)."""
    hexes: int
    """Hexes in all: 1, the hex attacked; more, on along a path a defender retreated by."""
    ignoring_zones: bool
    source: Property = field(repr=False)


def _advance(p: Property | None) -> Advance | None:
    if p is None:
        return None
    hexes = p.get("hexes")
    return Advance(as_names(p.get("who")), int(hexes) if hexes is not None else 1, p.has("ignoring"), p)


@frozen
class RetreatRule:
    """The combat's ``retreat …`` lines: who picks the hexes of a ``retreat`` result, whether hexes
    holding friendly units may be entered, and how far past its length a retreat goes to end
    without overstacking (``interpreter.retreats``).  The defaults are the retreat without the lines."""

    chosen_by: str = "owner"
    """``owner``, ``attacker`` or ``victor``."""
    through_friendly: bool = True
    extension: int = 0
    """Hexes a retreat may go past its length when the hex it would end in is overstacked (0: none,
    and every hex entered must have room)."""
    chosen_by_source: Property | None = field(default=None, repr=False)


def _retreat_rule(lines: tuple[Property, ...]) -> RetreatRule:
    chosen = next((p for p in lines if p.has("chosen")), None)
    extended = next((p for p in lines if p.has("extended")), None)
    return RetreatRule(chosen.words[-1].text if chosen is not None else "owner",
                       not any(p.has("not") for p in lines),
                       int(extended.get("hexes")) if extended is not None else 0, chosen)


@frozen
class AttackModel:
    """What ``do fight`` offers, as the combat's model lines say (``interpreter.procedures.attack_choice``);
    the defaults are the fight without them: one unit or all, any defender again, no obligation."""

    defenders_once: bool = False
    minimum_odds: Odds | None = None
    any_combination: bool = False
    from_zones: bool = False
    """``mandatory attack by units in enemy zones``."""
    on_adjacent: bool = False
    """``mandatory attack on adjacent enemies``."""
    declared: bool = False
    """``attacks declared before any is resolved`` (without it each attack is resolved as chosen)."""
    supporting_fire: bool = False
    """``supporting fire from range``: units in range, not adjacent, may add their attack factor to an
    attack and are unharmed by its results."""
    several_hexes: bool = False
    """``one attack on several hexes``: one combat against several adjacent hexes, every attacker
    adjacent to each of them."""


def _attack_model(decl: Declaration) -> AttackModel:
    minimum = decl.first("minimum")
    mandatory = decl.all("mandatory")
    return AttackModel(decl.has("each"), minimum.get("odds") if minimum is not None else None, decl.has("any"),
                       any(p.has("zones") for p in mandatory), any(p.has("adjacent") for p in mandatory),
                       decl.has("attacks"), decl.has("supporting"), decl.has("one"))


@frozen
class RangeFire:
    """How far, and across what, a unit fires at range (``do bombard``, supporting fire): the
    combat's ``fires at least N hexes away`` and ``line of fire blocked by`` lines (``interpreter.line_of_fire``)."""

    minimum: int = 0
    """The nearest a target may be, in hexes (0 or 1: any cell in range)."""
    blocked_by: tuple[str, ...] = ()
    """Terrains and features that block a line of fire (empty: every line is clear)."""
    minimum_source: Property | None = field(default=None, repr=False)
    blocked_source: Property | None = field(default=None, repr=False)


def _range_fire(decl: Declaration) -> RangeFire:
    minimum = decl.first("fires")
    blocked = decl.first("line")
    return RangeFire(int(minimum.get("hexes")) if minimum is not None else 0,
                     as_names(blocked.get("where")) if blocked is not None else (), minimum, blocked)


@frozen
class CombatRule:
    """One combat procedure, every line of it read."""

    name: str
    label: str
    decl: Declaration = field(repr=False)
    table: str | None
    compare: str | None
    """``odds`` or ``total`` (``None``: unsaid)."""
    attack_factor: str | None
    defence_factor: str | None
    terrain: str
    """``multiplies`` (defence), ``shifts`` (columns) or ``ignored`` (also when unsaid)."""
    fixed_odds: Odds | None
    shifts: tuple[ColumnShift, ...]
    difference_shift: DifferenceShift | None
    roll_modifiers: tuple[RollModifierLine, ...]
    order_factor: str | None
    order_descending: bool
    first_fire_by: tuple[str, ...]
    """The words of ``first fire by …`` (empty: no such line)."""
    first_fire_source: Property | None = field(repr=False)
    fire_simultaneous: Property | None = field(repr=False)
    """The ``fire is simultaneous`` line, if the combat says so."""
    losses_chosen_by: str
    """``owner`` (also when unsaid), ``opponent`` or ``random``."""
    recycle: Property | None = field(repr=False)
    """The ``recycle until one side remains`` line: a fight goes on, round after round, until one
    side is left (``interpreter.procedures.combat.fight_rounds``; a battle of ``resolve fire``
    lasts more than its first round).  ``None``: every fight is one round."""
    adjacent: bool
    range_factor: str | None
    attackers_unharmed: bool
    break_offs: tuple[BreakOff, ...]
    recon_refitted_first: bool
    recon_refitted_unless: tuple[str, ...]
    advance: Advance | None = None
    """The ``advance after combat`` line, read (``None``: units never advance after combat)."""
    retreat: RetreatRule = RetreatRule()
    model: AttackModel = AttackModel()
    strengths: tuple[StrengthLine, ...] = ()
    """The ``strength attack|defence MULT … when …`` lines, in order."""
    range_fire: RangeFire = RangeFire()

    @property
    def ties_to_attacker(self) -> bool:
        """``first fire by … ties attacker``: the attacker fires first on a tie."""
        return "ties" in self.first_fire_by and "attacker" in self.first_fire_by

    @property
    def first_break_off(self) -> Property | None:
        """The first ``break off`` line, for citations."""
        return self.break_offs[0].source if self.break_offs else None


def _word_after(line: Property | None, default: str) -> str:
    return line.words[-1].text if line is not None else default


def compile_combat(decl: Declaration, names: Names) -> CombatRule:
    """One ``combat`` declaration as a ``CombatRule``."""
    first = decl.first

    def factor(which: str) -> str | None:
        line = first(which)
        return str(line.get("factor")) if line is not None and line.get("factor") is not None else None

    table, compare, fixed, column = first("table"), first("compare"), first("fixed"), first("column")
    order, first_fire, fire_is, recon = first("order"), first("first"), first("fire"), first("recon")
    terrain = first("terrain")
    return CombatRule(
        name=decl.name, label=decl.display, decl=decl,
        table=str(table.get("table")) if table is not None else None,
        compare=("total" if compare.has("total") else "odds") if compare is not None else None,
        attack_factor=factor("attack"), defence_factor=factor("defence"),
        terrain=terrain.words[1].text if terrain is not None else "ignored",
        fixed_odds=fixed.get("odds") if fixed is not None else None,
        shifts=tuple(ColumnShift(p.get("shift"), as_names(p.get("who")), *_condition(p, names), p)
                     for p in decl.all("shift")),
        difference_shift=(DifferenceShift(str(column.get("factor")), not column.has("lower"))
                          if column is not None else None),
        roll_modifiers=tuple(RollModifierLine(int(p.get("modifier")), *_condition(p, names), p)
                             for p in decl.all("roll")),
        order_factor=str(order.get("factor")) if order is not None else None,
        order_descending=bool(order is not None and order.has("descending")),
        first_fire_by=tuple(w.text for w in first_fire.words[3:]) if first_fire is not None else (),
        first_fire_source=first_fire,
        fire_simultaneous=fire_is if fire_is is not None and fire_is.has("simultaneous") else None,
        losses_chosen_by=_word_after(first("losses"), "owner"),
        recycle=first("recycle"), adjacent=decl.has("adjacent"), range_factor=factor("range"),
        attackers_unharmed=decl.has("attackers"),
        break_offs=tuple(_break_off(p) for p in decl.all("break")),
        recon_refitted_first=recon is not None,
        recon_refitted_unless=as_names(recon.get("who")) if recon is not None else (),
        advance=_advance(first("advance")), retreat=_retreat_rule(decl.all("retreat")),
        model=_attack_model(decl),
        strengths=tuple(StrengthLine("attack" if p.words[1].text == "attack" else "defence", p.get("multiplier"),
                                     as_names(p.get("who")), *_condition(p, names), p) for p in decl.all("strength")),
        range_fire=_range_fire(decl),
    )
