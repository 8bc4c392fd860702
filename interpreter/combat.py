"""Combat: totals to a column, shifts, the roll; who is in the fight and the counters it takes.

Everything a fight needs is read from the rulebook's ``combat`` and ``table``
declarations and the ``result`` codes' ``effect`` lines; nothing here names a
game.  ``interpreter.results.resolve`` fights a combat with these answers and carries out its
result; agents call ``expected_worth``.

Readings of the rules language (each a choice where the language leaves one):

- **Odds and rounding** (``interpreter.columns``, which ``warbook odds`` reads too).  ``odds_column`` compares attack to defence as an exact
  ratio.  ``rounding for defender`` (and ``down``) takes the highest column whose
  odds do not exceed the ratio (7 to 3 is 2.33:1 → 2:1; 3 to 7 is 1:2.33 → 1:3),
  ``for attacker`` (and ``up``) the lowest column at or above it, ``nearest`` the
  closest (ties for the defender).  Odds beyond the table (``odds_edge``: rounded as the
  table says to whole odds N:1 or 1:N, past its first or last column) use its first or last
  column.
- **Totals.**  ``lookup by value``/``lookup by FACTOR`` finds the column whose printed
  range holds the total (rounded down unless the table says ``rounding up``/
  ``nearest``); columns marked ``shifted only`` are skipped by the lookup and
  reached only by a shift.
- **Terrain.**  ``terrain multiplies defence``: each defending unit's factor is
  multiplied by the multiplier its own type gets in the cell (``defence x1 for
  mech``), then summed; so a mixed stack in jungle adds 3× its infantry and 1× its
  mech.  ``terrain shifts columns``: the terrain's ``defence 1L`` line shifts.
- **Motivation-style shifts.**  ``column shift by F difference toward higher``
  compares the highest F among the attacking units with the highest among the
  defending units (a stack fights as well as its best unit, matching the
  "highest motivated unit attacks first" ordering) and shifts one column per
  point toward the side with the higher value; ``toward lower`` the other way.
  Units without F take no part in the comparison; if a side has none, no shift.
- **``shift`` lines.**  A line without ``for`` always applies.  One with ``for`` applies when
  a selector names a unit with the side it helps (a shift toward the roller's better results:
  among the attackers or their counters in the combat cell; away from them: among the
  defenders), or names the cell of the units fired at (``combat_effects.names_cell``: its
  terrain or tags), unless the attack ignores terrain.  A ``when`` condition (on a ``shift``
  or a ``roll modifier`` line) is read in the combat (``combat_scope``): the line applies only
  while it holds.  A counter's own ``effect shift …`` lines are ``counter_shifts``'.
- **Off the table.**  A lookup past the table's columns uses its first or last lookup column,
  shifts past them its first or last column; a modified roll past the printed rows uses the
  nearest row.  That is what ``above last column use last``, ``below first column use first``
  and ``rolls outside use nearest row`` say; a table that does not say is read the same way
  (the only reading that keeps every fight resolvable), and the log says the reading is the
  engine's, not the table's (``CombatColumn.edge``, ``row_lookup``; lint W509, W510).
- **Hidden counters and dummies.**  Combat is fought face up: every counter in an
  attack is revealed.  A dummy attacked is revealed and removed; it has no factors
  and is no loss (no award).  If only dummies defend, nothing is rolled.
- **Roles.**  ``attackers``/``firers`` are the attacking units, ``defenders``/``targets``
  the defending ones, ``both`` each in turn.  A booby trap-like marker attacks with
  no attacking units, so results against attackers fall on nobody.
- **Battles.**  ``resolve(… battle=Battle(…))`` is one side's fire in a round of a battle where
  both sides fire (``interpreter.procedures.battle``): ``attacker_side`` is the firing side,
  results fall only on counters still in the battle's cell, and terrain ``defence`` shifts apply
  only to fire at ``Battle.defending_side`` (``when [WHO] defending`` compares with it too; own:
  the firing side).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from attrs import define, evolve, field, frozen

from ..dsl.effects import Shift, Where
from ..dsl.compiled.combat import CombatRule
from ..dsl.tables import TableView
from ..dsl.values import Odds, read_dice
from . import combat_effects
from .columns import (
    base_column,
    better_direction,
    roll_distribution,
    row_for,
    row_lookup,
    shifted_column,
)
from .condition_lines import effect_condition, line_condition
from .conditions import Scope, holds
from .context import Context
from .effects import Target, reads, sides_for
from .rules import Rules
from .state import Unit
from .strengths import strength_multipliers
from .victory import award_for_loss

ATTACKER_ROLES = ("attackers", "firers")
DEFENDER_ROLES = ("defenders", "targets")


# --- columns -------------------------------------------------------------------------------


def table_view(ctx: Context, name: str) -> TableView:
    """The typed view of a declared table (``KeyError`` when there is none)."""
    view = ctx.rules.tables.get(name)
    if view is None:
        raise KeyError(f"no table {name!r}")
    return view


# --- strengths and shifts ----------------------------------------------------------------------


def factor_name(combat: CombatRule, which: str) -> str | None:
    """The factor a combat's ``attack``/``defence``/``range`` line names (``attack factor firepower``)."""
    return {"attack": combat.attack_factor, "defence": combat.defence_factor, "range": combat.range_factor}[which]


def unit_factor(ctx: Context, unit: Unit, factor: str | None) -> Fraction | None:
    """A unit's printed factor as a number; ``None`` for dummies, absent, ``none`` or ``all``."""
    if factor is None or unit.dummy:
        return None
    value = ctx.rules.factor(unit, factor)
    return value if isinstance(value, Fraction) else None


def combat_strength(ctx: Context, combat_decl: CombatRule, attackers: Iterable[Unit], defenders: Iterable[Unit],
                    cell: str | None, ignore_terrain: bool = False) -> tuple[Fraction, Fraction]:
    """(attack, defence): summed factors, each defender's multiplied by its own terrain multiplier, and
    each unit's by the combat's ``strength`` lines that hold (``strength_multipliers``).

    Dummies count nothing.  With ``ignore_terrain`` or no ``terrain multiplies
    defence`` line, defence is the plain sum.
    """
    attackers, defenders = tuple(attackers), tuple(defenders)
    multiplied = {} if not combat_decl.strengths else strength_multipliers(
        ctx, combat_decl, attackers, defenders, strength_scope(attackers, defenders, cell))
    # (A Fraction's arithmetic runs in Python: a sum starts at its first value, and a multiplier
    # is applied only where a ``strength`` line gave one.)
    attack: Fraction | None = None
    for unit in attackers:
        value = unit_factor(ctx, unit, combat_decl.attack_factor)
        if value is not None:
            times = multiplied.get(("attack", unit.id)) if multiplied else None
            if times is not None:
                value *= times
            attack = value if attack is None else attack + value
    defence_factor = combat_decl.defence_factor
    multiplies = (not ignore_terrain and combat_decl.terrain == "multiplies" and cell is not None
                  and cell in ctx.board.graph)
    own = multiplies and len(defended_cells(ctx, defenders)) > 1  # one attack on several hexes: each its own
    defence: Fraction | None = None
    for unit in defenders:
        value = unit_factor(ctx, unit, defence_factor)
        if value is None:
            continue
        times = multiplied.get(("defence", unit.id)) if multiplied else None
        if times is not None:
            value *= times
        if multiplies:
            where = unit.location if own and unit.location in ctx.board.graph else cell
            value *= ctx.rules.terrain_defence(ctx.board.terrain(where), ctx.rules.unit_type(unit.type),
                                               ctx.board.tags(where))
        defence = value if defence is None else defence + value
    return (attack if attack is not None else _ZERO), (defence if defence is not None else _ZERO)


_ZERO = Fraction(0)


def defended_cells(ctx: Context, defenders: Iterable[Unit]) -> list[str]:
    """The map cells the defenders stand in, in id order (several: ``one attack on several hexes``)."""
    return sorted({u.location for u in defenders if u.location in ctx.board.graph})


def _best(ctx: Context, units: Iterable[Unit], factor: str) -> Fraction | None:
    values = [v for v in (unit_factor(ctx, u, factor) for u in units) if v is not None]
    return max(values) if values else None


def _matches_any(ctx: Context, units: Iterable[Unit], who) -> bool:
    return any(Rules.unit_matches(ctx.rules.unit_type(u.type), who) for u in units if not u.dummy)


def column_shifts(ctx: Context, combat: CombatRule, view: TableView, attackers: Sequence[Unit],
                  defenders: Sequence[Unit], cell: str | None, attacker_side: str | None,
                  ignore_terrain: bool = False, defending_side: str | None = None) -> list[tuple[int, str]]:
    """Every column shift that applies, as (columns, why); positive moves right.

    ``defending_side``: in a battle where both sides fire (``interpreter.procedures.battle``),
    the side defending it, which may be the side firing; terrain then shifts only fire at it.
    """
    target_side = defenders[0].side if defenders else None
    defending = defending_side if defending_side is not None else target_side
    shifts: list[tuple[int, str]] = []
    better = better_direction(view)
    prop = combat.difference_shift
    if prop is not None:
        factor = prop.factor
        ours, theirs = _best(ctx, attackers, factor), _best(ctx, defenders, factor)
        if ours is not None and theirs is not None and ours != theirs:
            toward_higher = prop.toward_higher
            difference = int(ours - theirs)
            columns = difference * better if toward_higher else -difference * better
            shifts.append((columns, f"{factor} {ours} against {theirs}"))
    here = list(ctx.state.units_at(cell)) if cell is not None else []
    with_attacker = [*attackers, *(u for u in here if u.side == attacker_side)]
    with_defender = [*defenders, *(u for u in here if u.side != attacker_side and u not in attackers)]
    scope = combat_scope(attackers, defenders, cell, attacker_side, defending)
    for line in combat.shifts:
        if not holds(ctx, line_condition(line), scope):
            continue
        columns = line.shift.columns
        who = line.who
        helps_roller = columns * better > 0
        if who and not (_matches_any(ctx, with_attacker if helps_roller else with_defender, who)
                        or combat_effects.names_cell(ctx, who, None if ignore_terrain else cell)):
            continue
        shifts.append((columns, f"shift {line.shift.text}"))
    shifts += counter_shifts(ctx, [*attackers, *defenders, *here], cell, attacker_side, defending)
    if (combat.terrain == "shifts" and not ignore_terrain and cell is not None and defenders
            and target_side == defending):
        terrains = ctx.rules.cell_terrains(ctx.board.terrain(cell), ctx.board.tags(cell))
        shifts += ctx.rules.terrain_mix.combine_shifts(
            [t.shift_for(defending, lambda who: _matches_any(ctx, defenders, who)) for t in terrains], better)
    return shifts


@reads(Shift)
def counter_shifts(ctx: Context, counters: Iterable[Unit], cell: str | None, firing: str | None,
                   defending: str | None) -> list[tuple[int, str]]:
    """The column shifts of the counters in a combat (``effect shift N[L|R] [for ROLE] [when …]``):
    each applies to the fire of the sides its role names (its own side's by default) when its
    condition holds, read with the counter's side as ``own`` and ``defending`` the side defending."""
    out: list[tuple[int, str]] = []
    seen: set[str] = set()
    for counter in counters:
        if counter.id in seen or counter.dummy:
            continue
        seen.add(counter.id)
        unit_type = ctx.rules.unit_type(counter.type)
        for effect in ctx.rules.effects_of(unit_type):
            if not isinstance(effect, Shift):
                continue
            decl = ctx.rulebook.get(unit_type.kind, unit_type.name)
            if firing not in sides_for(ctx, effect.role, Target(Where.STANDING, decl, counter.side, decl.display)):
                continue
            if not holds(ctx, effect_condition(effect), Scope(counter.side, cell, counter, defending=defending)):
                continue
            out.append((effect.shift.columns, f"{decl.display} shift {effect.shift.text}"))
    return out


def strength_scope(attackers: Sequence[Unit], defenders: Sequence[Unit], cell: str | None) -> Scope:
    """Where ``strength … when`` lines are read: ``own`` is the attacking side (``combat_scope``)."""
    return combat_scope(attackers, defenders, cell, attackers[0].side if attackers else None,
                        defenders[0].side if defenders else None)


def combat_scope(attackers: Sequence[Unit], defenders: Sequence[Unit], cell: str | None,
                 firing: str | None, defending: str | None) -> Scope:
    """Where a combat's ``shift … when`` and ``roll modifier … when`` conditions are read: ``own``
    is the firing side, "in cell" the cell fought over, ``ROLE FACTOR`` totals the firers
    (``attackers``/``firers``) or the units fired at (``defenders``/``targets``), and ``[WHO]
    defending`` compares with the side defending (in a battle, the battle's defending side)."""
    roles = {"attackers": tuple(attackers), "firers": tuple(attackers), "defenders": tuple(defenders),
             "targets": tuple(defenders)}
    return Scope(firing or "", cell=cell, roles=roles, defending=defending)


@frozen
class CombatColumn:
    """Where an attack lands on its table, and why."""

    view: TableView = field(repr=False)
    index: int
    attack: Fraction
    defence: Fraction
    base: int
    shifts: tuple[tuple[int, str], ...]
    edge: str | None = None
    """``above`` or ``below`` when the odds, the total or the shifts went past the table's last or
    first column (the column used is then its last or first, ``TableView.says_off_table``)."""

    @property
    def label(self) -> str:
        return self.view.columns[self.index].label


def find_column(ctx: Context, combat: CombatRule, attackers: Sequence[Unit], defenders: Sequence[Unit],
                *, attacker_side: str | None, fixed_odds: Odds | None = None, ignore_terrain: bool = False,
                strength: Fraction | None = None, defending_side: str | None = None) -> CombatColumn:
    """The column an attack uses: base column from odds, fixed odds or a total, then every shift, clamped."""
    view = table_view(ctx, combat.table)
    cell = defenders[0].location if defenders else None
    attack, defence = combat_strength(ctx, combat, attackers, defenders, cell, ignore_terrain)
    if strength is not None:
        attack = Fraction(strength)
    if fixed_odds is None and combat.fixed_odds is not None:
        fixed_odds = combat.fixed_odds
    base, edge = base_column(view, attack, defence, fixed_odds)
    cells = defended_cells(ctx, defenders)
    if len(cells) > 1:  # one attack on several hexes: each hex's shifts, the set best for the defender
        better = better_direction(view)
        shifts = min((tuple(column_shifts(ctx, combat, view, attackers, defenders, c, attacker_side, ignore_terrain,
                                          defending_side)) for c in cells),
                     key=lambda found: sum(n for n, _ in found) * better)
    else:
        shifts = tuple(column_shifts(ctx, combat, view, attackers, defenders, cell, attacker_side, ignore_terrain,
                                     defending_side))
    index, edge = shifted_column(view, base, edge, sum(s for s, _ in shifts))
    return CombatColumn(view, index, attack, defence, base, shifts, edge)


# --- rolls -----------------------------------------------------------------------------------


def off_table_note(view: TableView, edge: str, used: str) -> str | None:
    """What the log says when a fight goes past the table's ``edge`` (``above``, ``below``, ``rows``)
    and the table does not say what that reads (``None`` when it does: the table's own rule)."""
    if view.says_off_table(edge) is not None:
        return None
    past = {"above": "above its last column", "below": "below its first column",
            "rows": "for a roll past its rows"}[edge]
    return f"table {view.name!r} does not say what is read {past}; {used} is used (the engine's reading)"


def combat_roll_modifier(ctx: Context, combat: CombatRule, scope: Scope) -> int:
    """The sum of the combat's ``roll modifier`` lines whose condition holds (``combat_scope``)."""
    return sum(p.modifier for p in combat.roll_modifiers if holds(ctx, line_condition(p), scope))


def mode_roll_modifier(ctx: Context, units: Iterable[Unit], table: str) -> int:
    """A mode's ``roll modifier`` when every attacking unit is in that one mode (and, for a line
    ``during`` phases, while one of them runs)."""
    modes = {u.mode for u in units if not u.dummy}
    if len(modes) != 1 or None in modes:
        return 0
    mode = ctx.rules.mode(str(next(iter(modes))))
    return mode.roll_modifier_on(table, frozenset(ctx.running)) if mode is not None else 0


# --- who is in the fight -------------------------------------------------------------------


@define
class Battle:
    """What one round of a battle (both sides firing in one cell, round after round) tells its combats.

    ``interpreter.procedures.battle`` makes one per fire sub-phase and passes it to ``resolve``.
    """

    cell: str
    """The contested cell: units that leave it (break off, refit) take no further part."""
    defending_side: str
    """The side not conducting the operation; terrain shifts only fire at it."""
    first_refit: dict[str, str] = field(factory=dict)
    """Side → the unit that must be the first it puts in a box by a ``refit`` result this round
    (``recon unit refitted first``); an entry goes once the side has put a unit there."""


class Engagement:
    """The two sides of one combat while its result is carried out (ids; units re-read from the state)."""

    def __init__(self, ctx: Context, combat: CombatRule | None, attackers: Iterable[Unit], defenders: Iterable[Unit],
                 attacker_side: str | None, reason: str, battle: Battle | None = None):
        self.ctx = ctx
        self.combat = combat
        attackers, defenders = tuple(attackers), tuple(defenders)
        self.attackers = tuple(u.id for u in attackers)
        self.defenders = tuple(u.id for u in defenders)
        self.attacker_side = attacker_side
        self.reason = reason
        self.battle = battle
        self.cell = battle.cell if battle is not None else next((u.location for u in defenders if u.on_map), None)
        """The cell fought over: the battle's, else the defenders'."""
        self.result_code: str | None = None
        """The code of the result part being carried out (``A`` of ``K+B+A``), for ``losses only on``."""
        self._on_map = frozenset(u.id for u in (*attackers, *defenders) if u.on_map)
        self.eliminated: list[str] = []
        self.steps_lost: list[tuple[str, int]] = []
        """(unit, the step it showed) for each step lost short of elimination (``interpreter.steps``)."""
        self.refitted: list[str] = []
        self.retreated: list[tuple[str, str, str]] = []
        self.broke_off: list[str] = []

    def units(self, role: str, *, struck: bool = True) -> list[Unit]:
        """The units of a role still in play, in id order (``struck``: only those results may hit)."""
        # ``attackers unharmed``: fire from a distance, so results against the firers fall on nobody.
        attackers = () if struck and self.combat is not None and self.combat.attackers_unharmed else self.attackers
        if role in ATTACKER_ROLES:
            ids = attackers
        elif role in DEFENDER_ROLES:
            ids = self.defenders
        elif role == "both":
            ids = (*attackers, *self.defenders)
        else:
            ids = ()
        units = (self.ctx.state.unit(i) for i in ids)
        cell = self.battle.cell if self.battle is not None else None
        return sorted((u for u in units if u.location != self.ctx.rules.eliminated_box and (u.on_map or u.id not in self._on_map)
                       and (cell is None or u.location == cell)), key=lambda u: u.id)


@frozen
class CombatOutcome:
    """What one combat came to (the log has the same in words)."""

    column: str | None
    roll: int | None
    modified_roll: int | None
    result: str | None
    attack: Fraction
    defence: Fraction
    eliminated: tuple[str, ...] = ()
    retreated: tuple[tuple[str, str, str], ...] = ()
    """(unit, from, to)."""


def current_units(ctx: Context, units: Iterable[Unit]) -> list[Unit]:
    return [ctx.state.unit(u.id) for u in units]


def reveal_all(ctx: Context, units: Iterable[Unit]) -> None:
    for unit in units:
        current = ctx.state.unit(unit.id)
        if current.hidden:
            ctx.update_unit(evolve(current, hidden=False))
            ctx.say(f"{current.id} is revealed: {ctx.label(evolve(current, hidden=False))}", kind="reveal",
                    unit=current.id, unit_type=current.type)


def eliminate(ctx: Context, unit: Unit, why: str) -> None:
    """Remove a unit from play, narrate it and score any award for its loss."""
    unit = ctx.state.unit(unit.id)
    ctx.update_unit(evolve(unit, location=ctx.rules.eliminated_box, mode=None, status=frozenset()))
    if unit.dummy:
        ctx.say(f"{unit.id} was a dummy and is removed ({why})", kind="combat", unit=unit.id, dummy=True)
        return
    ctx.say(f"{ctx.label(unit)} is eliminated ({why})", kind="combat", unit=unit.id, cell=unit.location)
    award_for_loss(ctx, unit, "eliminated")


def refit(ctx: Context, unit: Unit, box: str, why: str, *, award: bool = True) -> None:
    """Put a unit in a box (its side's, for a box declared ``per side``), narrate it and, when
    ``award``, score any award for its refit (``award … on refitted``)."""
    unit = ctx.state.unit(unit.id)
    ctx.update_unit(evolve(unit, location=box, mode=None, status=frozenset()))
    ctx.say(f"{ctx.label(unit)} goes to the {box} ({why})", kind="combat", unit=unit.id, cell=unit.location, box=box)
    if award:
        award_for_loss(ctx, unit, "refitted")


def roll_on_table(ctx: Context, table: str, *, reason: str, column: int = 0, roll_modifier: int = 0,
                  dice: str | None = None) -> tuple[int, str]:
    """Roll on a table without a combat (``roll d10 on aa_effect``): (roll, cell text) of one column."""
    view = table_view(ctx, table)
    roll = ctx.roll(dice or view.dice, reason=f"{view.decl.display} ({reason})")
    index, past = row_lookup(view, roll + roll_modifier)
    row = view.rows[index]
    note = off_table_note(view, "rows", f"row {row.key}") if past else None
    if note:
        ctx.say(f"{reason}: {note}", kind="combat", table=view.name)
    return roll, row.cells[column].text


def expected_worth(ctx: Context, combat_name: str, attackers: Sequence[Unit], defenders: Sequence[Unit], *,
                   roll_modifier: int = 0, support: Sequence[Unit] = (),
                   rolls: Sequence[tuple[Fraction, str]] | None = None) -> Fraction:
    """The exact expected ``worth`` of an attack for the attacker, over every roll of the table's dice
    (``rolls``: the attack's ``roll_results``, when the caller has them already).

    Uses the units as they are (a caller that must respect hidden information
    passes only what its side knows).  Dummies count nothing; an attack on
    dummies alone is worth 0.  A cell whose parts lack ``worth`` counts 0.
    """
    from ..dsl.tables import cell_worth

    if rolls is None:
        rolls = roll_results(ctx, combat_name, attackers, defenders, roll_modifier=roll_modifier, support=support)
    return sum((chance * Fraction(cell_worth(ctx.rulebook, text) or 0) for chance, text in rolls), Fraction(0))


def roll_results(ctx: Context, combat_name: str, attackers: Sequence[Unit], defenders: Sequence[Unit], *,
                 roll_modifier: int = 0, support: Sequence[Unit] = ()) -> list[tuple[Fraction, str]]:
    """(chance, table cell) for every roll of an attack, as ``results.resolve`` finds them: the column
    from the attackers' and ``support``'s factors (fire from range), the roll modifiers from the
    situation of the attackers alone.  Empty when no real unit defends."""
    combat = ctx.rules.combats.get(combat_name)
    attackers, support = current_units(ctx, attackers), current_units(ctx, support)
    defenders = [d for d in current_units(ctx, defenders) if not d.dummy]
    if not defenders:
        return []
    side = (attackers or support)[0].side if (attackers or support) else None
    column = find_column(ctx, combat, [*attackers, *support], defenders, attacker_side=side)
    view = column.view
    dice = read_dice(str(view.dice))
    scope = combat_scope(attackers, defenders, defenders[0].location, side, defenders[0].side)
    modifier = roll_modifier + combat_roll_modifier(ctx, combat, scope)
    return [(chance, view.rows[row_for(view, value + modifier)].cells[column.index].text)
            for value, chance in roll_distribution(dice).items()]
