"""Exact odds: the distribution of results of one attack, and of a whole table, as fractions.

``attack_odds(rules, combat, attack, defence, …)`` answers a designer's first question about a
fight (TripleA's battle calculator, but exact): which column it lands on after rounding, terrain
and shifts, and the chance of each result over every roll of the table's dice after the roll
modifiers.  ``table_odds`` does the same for every column of a combat's table.

Both read the compiled rules (``interpreter.rules.Rules``) with the functions play uses
(``interpreter.columns``: ``base_column``, ``shifted_column``, ``row_lookup``,
``roll_distribution``), so the odds and a fight can never disagree.

What is applied, and what is only named:

- The combat's ``shift`` and ``roll modifier`` lines with neither ``for`` nor ``when`` always
  apply, so they are always counted.  Lines that depend on the units or the situation (``for
  WHO``, ``when …``, ``column shift by F difference``, ``strength … when``, a mode's or a
  counter's own modifiers) are not guessed: ``AttackOdds.conditional`` names them, and the caller
  passes what holds as ``shifts`` and ``roll_modifier``.
- ``terrain``: under ``terrain multiplies defence`` the defence is multiplied by the terrain's
  multiplier (for ``defender``'s type when given, else the terrain's general line); under
  ``terrain shifts columns`` the terrain's ``defence`` shift applies (its line for ``defender``
  when given, else its general line).  Several terrains (a cell of one terrain with others, the
  first named first) combine as the rulebook's ``terrains`` declaration says, with play's own
  ``terrain_mix``.
- ``minimum odds``: an attack below them is refused (``OddsError``): play never offers it.
- The newer forms of ``do fight`` are totals the caller adds up as play does: units supporting
  from range add their attack factor to ``attack``; for one attack on several hexes ``defence``
  is every defender's, each multiplied by its own hex's terrain (so no ``terrain`` under
  ``terrain multiplies defence``), and ``terrain`` is the hex best for the defender under
  ``terrain shifts columns``; a counter at a reduced step shows that step's factors.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from attrs import frozen

from ..dsl.compiled.combat import CombatRule
from ..dsl.tables import TableView, cell_worth
from ..dsl.values import Odds, read_dice
from .columns import base_column, better_direction, roll_distribution, row_lookup, shifted_column
from .rules import Rules


class OddsError(ValueError):
    """A question the rules cannot answer: no such combat, terrain or unit type, or a table without dice."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint


@frozen
class RollLine:
    """One total of the dice and what it reads."""

    roll: int
    chance: Fraction
    modified: int
    row: str
    """The key of the row read (the nearest row for a modified roll past the printed ones)."""
    result: str
    past: bool
    """Whether the modified roll is past the printed rows."""


@frozen
class ColumnOdds:
    """The results of one column of a table, over every roll."""

    column: str
    rolls: tuple[RollLine, ...]
    roll_modifier: int

    @property
    def results(self) -> tuple[tuple[str, Fraction], ...]:
        """(result, chance) for each result the column can give, in the order the rolls reach them."""
        chances: dict[str, Fraction] = {}
        for line in self.rolls:
            chances[line.result] = chances.get(line.result, Fraction(0)) + line.chance
        return tuple(chances.items())


@frozen
class AttackOdds:
    """Where one attack lands and the chance of each result."""

    combat: str
    table: str
    dice: str
    attack: Fraction
    defence: Fraction
    """The defence after any terrain multiplier."""
    base: str
    """The column before shifts."""
    shifts: tuple[tuple[int, str], ...]
    """(columns, why): positive moves right."""
    edge: str | None
    """``above``/``below`` when the odds or the shifts went past the table's last or first column."""
    outcome: ColumnOdds
    conditional: tuple[str, ...]
    """The combat's lines that apply only in some situations, not counted (pass them if they hold)."""
    worth: Fraction | None
    """The expected ``worth`` of the attack for the roller; ``None`` when a result has no worth."""
    by_odds: bool = True
    """Whether the column came from odds (attack to defence), else from the attack total alone."""
    totals: tuple[str, ...] = ()
    """What the combat's ``do fight`` lines ask the caller to count into the totals (``total_notes``)."""

    @property
    def column(self) -> str:
        return self.outcome.column


@frozen
class TableOdds:
    """Every column of a combat's table, as result probabilities."""

    combat: str
    table: str
    dice: str
    columns: tuple[ColumnOdds, ...]

    @property
    def results(self) -> tuple[str, ...]:
        """Every result the table gives, in the order the columns and rolls first reach them."""
        seen: dict[str, None] = {}
        for column in self.columns:
            for result, _ in column.results:
                seen.setdefault(result, None)
        return tuple(seen)


def combat_rule(rules: Rules, name: str) -> CombatRule:
    """The compiled ``combat NAME``, or ``OddsError`` naming the combats there are."""
    combat = rules.combats.get(name)
    if combat is None:
        names = sorted(rules.combats)
        raise OddsError(f"no combat {name!r} in the rulebook",
                        f"combats: {', '.join(names)}" if names else "the rulebook declares no combat")
    if combat.table is None or combat.table not in rules.tables:
        raise OddsError(f"combat {name!r} names no table to roll on")
    return combat


def column_odds(view: TableView, index: int, roll_modifier: int = 0) -> ColumnOdds:
    """The results of one column over every roll of the table's dice, modified by ``roll_modifier``."""
    dice = read_dice(str(view.dice)) if view.dice else None
    if dice is None:
        raise OddsError(f"table {view.name!r} names no dice to roll")
    lines = []
    for roll, chance in roll_distribution(dice).items():
        modified = roll + roll_modifier
        row_index, past = row_lookup(view, modified)
        row = view.rows[row_index]
        lines.append(RollLine(roll, chance, modified, row.key, row.cells[index].text, past))
    return ColumnOdds(view.columns[index].label, tuple(lines), roll_modifier)


def attack_odds(rules: Rules, combat_name: str, attack: Fraction, defence: Fraction = Fraction(0), *,
                terrain: str | Sequence[str] | None = None, defender: str | None = None,
                shifts: Iterable[tuple[int, str]] = (), roll_modifier: int = 0,
                fixed_odds: Odds | None = None) -> AttackOdds:
    """The exact results of ``attack`` against ``defence`` (a total, for a table looked up by value).
    ``terrain``: the defenders' cell's terrain, or its terrains, the first first.

    >>> from warbook.interpreter.scenario import load_scenario
    >>> rules = load_scenario("tests/interpreter/fixtures/combat/combat.toml").rules
    >>> odds = attack_odds(rules, "assault", Fraction(7), Fraction(3))
    >>> odds.column, sum(chance for _, chance in odds.outcome.results)
    ('2:1', Fraction(1, 1))

    Raises:
        OddsError: for a combat, terrain or unit type the rulebook does not declare, or an attack
        below the combat's ``minimum odds``.
    """
    combat = combat_rule(rules, combat_name)
    view = rules.tables[combat.table]
    selectors = _defender_selectors(rules, defender)
    places = _terrains(rules, [terrain] if isinstance(terrain, str) else list(terrain or ()))
    applied = [(columns, why) for columns, why in shifts]
    if places and combat.terrain == "multiplies":
        defence = Fraction(defence) * rules.terrain_mix.combine_multipliers(
            [place.multiplier_for(selectors) for place in places])
    elif places and combat.terrain == "shifts":
        applied += rules.terrain_mix.combine_shifts(
            [place.shift_for(None, lambda who: not selectors.isdisjoint(who)) for place in places],
            better_direction(view))
    by_odds = fixed_odds is None and combat.fixed_odds is None and view.lookup == "odds"
    minimum = combat.model.minimum_odds
    if by_odds and minimum is not None and defence and attack * minimum.defence < defence * minimum.attack:
        raise OddsError(f"attack {attack} against defence {defence} is below the combat's minimum odds "
                        f"{minimum.text}: `do fight` offers no such attack",
                        f"an attack needs at least {minimum.text}, the defence counted after terrain and before shifts")
    applied += [(line.shift.columns, f"shift {line.shift.text}") for line in combat.shifts
                if not line.who and line.condition is None and line.condition_error is None]
    modifier = roll_modifier + sum(line.modifier for line in combat.roll_modifiers
                                   if line.condition is None and line.condition_error is None)
    base, edge = base_column(view, Fraction(attack), Fraction(defence), fixed_odds or combat.fixed_odds)
    index, edge = shifted_column(view, base, edge, sum(columns for columns, _ in applied))
    outcome = column_odds(view, index, modifier)
    return AttackOdds(combat.name, view.name, str(view.dice), Fraction(attack), Fraction(defence),
                      view.columns[base].label, tuple(applied), edge, outcome, conditional_lines(combat),
                      expected_worth(rules, outcome), by_odds, total_notes(combat))


def table_odds(rules: Rules, combat_name: str, *, roll_modifier: int = 0) -> TableOdds:
    """Every column of the combat's table, as result probabilities (``shifted only`` columns too)."""
    combat = combat_rule(rules, combat_name)
    view = rules.tables[combat.table]
    modifier = roll_modifier + sum(line.modifier for line in combat.roll_modifiers
                                   if line.condition is None and line.condition_error is None)
    return TableOdds(combat.name, view.name, str(view.dice),
                     tuple(column_odds(view, index, modifier) for index in range(len(view.columns))))


def expected_worth(rules: Rules, outcome: ColumnOdds) -> Fraction | None:
    """The expected ``worth`` of a column's results for the roller (``None``: some result has none)."""
    total = Fraction(0)
    for result, chance in outcome.results:
        worth = cell_worth(rules.rulebook, result)
        if worth is None:
            return None
        total += chance * Fraction(worth)
    return total


def total_notes(combat: CombatRule) -> tuple[str, ...]:
    """How the totals asked about count the combat's supporting fire and attacks on several hexes,
    as play counts them (the odds cannot see the units: the caller adds them up)."""
    notes = []
    if combat.model.supporting_fire:
        notes.append("supporting fire from range: the supporting units' attack factors are part of the attack")
    if combat.model.several_hexes:
        notes.append("one attack on several hexes: the defence is every defender's"
                     + (", each multiplied by its own hex's terrain (then no terrain)"
                        if combat.terrain == "multiplies" else "")
                     + (", the terrain that of the hex best for the defender" if combat.terrain == "shifts" else ""))
    return tuple(notes)


def conditional_lines(combat: CombatRule) -> tuple[str, ...]:
    """The combat's lines that hold only in some situations, as written, for the caller to weigh."""
    lines = [f"shift {line.shift.text}" + (f" for {' '.join(map(str, line.who))}" if line.who else "")
             + (" when …" if line.condition is not None or line.condition_error is not None else "")
             for line in combat.shifts if line.who or line.condition is not None or line.condition_error is not None]
    lines += [f"roll modifier {line.modifier:+d} when …" for line in combat.roll_modifiers
              if line.condition is not None or line.condition_error is not None]
    if combat.difference_shift is not None:
        toward = "higher" if combat.difference_shift.toward_higher else "lower"
        lines.append(f"column shift by {combat.difference_shift.factor} difference toward {toward}")
    lines += [f"strength {line.role} x{line.multiplier}" + (f" for {' '.join(map(str, line.who))}" if line.who else "")
              + " when …" for line in combat.strengths]
    return tuple(lines)


def _terrains(rules: Rules, names: list[str]) -> tuple:
    """The terrains whose effects hold in a cell of ``names[0]`` with the others (as play reads a
    map cell: ``Rules.cell_terrains``)."""
    for name in names:
        if name not in rules.terrains:
            known = sorted(rules.terrains)
            raise OddsError(f"no terrain {name!r} in the rulebook", f"terrain: {', '.join(known)}")
    return rules.cell_terrains(names[0], names[1:]) if names else ()


def _defender_selectors(rules: Rules, defender: str | None) -> frozenset[str]:
    if defender is None:
        return frozenset()
    if defender not in rules.unit_types:
        raise OddsError(f"no unit type {defender!r} in the rulebook",
                        f"unit types: {', '.join(sorted(rules.unit_types))}")
    return rules.unit_type(defender).selectors
