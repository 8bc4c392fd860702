"""Combat: totals to a column, shifts, the roll, and the result's effects carried out.

Everything a fight needs is read from the rulebook's ``combat`` and ``table``
declarations and the ``result`` codes' ``effect`` lines; nothing here names a
game.  Procedures (``interpreter.procedures.combat``, watch fire during
movement, booby traps) call ``resolve``; agents call ``expected_worth``.

Readings of the rules language (each a choice where the language leaves one):

- **Odds and rounding.**  ``odds_column`` compares attack to defence as an exact
  ratio.  ``rounding for defender`` (and ``down``) takes the highest column whose
  odds do not exceed the ratio (7 to 3 is 2.33:1 → 2:1; 3 to 7 is 1:2.33 → 1:3),
  ``for attacker`` (and ``up``) the lowest column at or above it, ``nearest`` the
  closest (ties for the defender).  Odds beyond the table use its first or last
  column; a table that does not say (``above last column use last`` …) is read the
  same way, the only reading that keeps every attack resolvable.
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
  terrain or tags), unless the attack ignores terrain.  ``when`` conditions other than
  ``[WHO] defending`` are not evaluated yet, so such a line does not apply (likewise for
  combat ``roll modifier … when``).
- **Columns are clamped** into the table after all shifts; a modified roll beyond
  the printed rows uses the nearest row.
- **Losses.**  ``eliminate half`` rounds up: the losing side loses the odd counter,
  so a lone counter is lost on a ½ result (a rulebook that leaves halving odd
  stacks open should say so with a ``gap`` on the result).  Which counters are lost
  when not all are is chosen by their owner unless the combat says ``losses chosen
  by opponent|random``.
- **Retreat.**  Each retreating unit's owner picks, per hex of retreat, an adjacent
  hex one step further from where it started that movement would let it end in
  (``interpreter.costs``: terrain, its class's ``enters only``/``never enters``,
  its side's ``never enters``; ``interpreter.stacking``), that holds no enemy counter, and that is
  not in an enemy zone which ``blocks retreat`` (a face-down dummy exerts one, as it
  does for movement: the side cannot tell).  A unit with no such hex, or that
  never moves, is eliminated instead.
- **Hidden counters and dummies.**  Combat is fought face up: every counter in an
  attack is revealed.  A dummy attacked is revealed and removed; it has no factors
  and is no loss (no award).  If only dummies defend, nothing is rolled.
- **Roles.**  ``attackers``/``firers`` are the attacking units, ``defenders``/``targets``
  the defending ones, ``both`` each in turn.  A booby trap-like marker attacks with
  no attacking units, so results against attackers fall on nobody.
- **Refits.**  ``refit N ROLE [of WHAT] to BOX`` puts N of the role's counters in BOX (the
  side's own, for a box ``per side``), chosen like eliminations, and scores ``award … on
  refitted``.  In a battle round (``Battle``) the side's ``first_refit`` unit goes first when it
  may be taken, and once the side has refitted a unit the rule is spent for the round.
  Without ``to BOX`` the line is narrated and nothing moves.
- **Which counters may be lost** (``loss_candidates``): a marker's ``losses never`` keeps it out,
  ``losses only on CODE…`` lets only those result codes take it, ``losses last`` only when no
  unit (non-marker) of its side may be taken.
- **Break off.**  When the combat has ``break off …`` lines, ``break off ROLE`` moves every
  counter of the role out of the cell (``break_off``): each owner picks, unit by unit, one of
  the places those lines allow (an adjacent cell its class may step to and enter, a cell with
  a friendly counter the line names, the side's box; never a cell holding an enemy counter;
  with ``with carried units`` carried units may follow a carrier that went to a cell, within
  its ``carried with`` capacity); ``never`` counters stay; a unit with nowhere to go stays.
  Without such lines the role's units get the ``broke off`` turn flag (what that stops is the
  calling procedure's business).
- **Battles.**  ``resolve(… battle=Battle(…))`` is one side's fire in a round of a battle where
  both sides fire (``interpreter.procedures.battle``): ``attacker_side`` is the firing side,
  results fall only on counters still in the battle's cell, and terrain ``defence`` shifts apply
  only to fire at ``Battle.defending_side`` (``when SIDE defending`` compares with it too).  A
  combat ``shift … when [WHO] defending`` line applies when that side is the defending one (own:
  the firing side); any other ``when`` still keeps a shift line from applying.
- **Other effects.**  ``stand`` keeps units where they are; ``roll DICE on TABLE`` rolls on a
  nested table and carries out its cell against the same roles (fire against aircraft's hit →
  effect table); ``gain``/``lose``, ``when`` conditions and the effects no result can carry out
  (E220, E221: a positioned ``RulesError``) are ``interpreter.combat_effects``'s.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from fractions import Fraction

from attrs import define, evolve, field, frozen

from ..dsl.model import Declaration, Property
from ..dsl.tables import TableView, result_parts
from ..dsl.values import Dice, Odds, read_dice
from . import combat_effects
from .actions import Action
from .caches import rules_cache
from .citations import cite
from .context import Context, Flow
from .costs import cost_table, movement_class, never_moves
from .rules import Rules
from .stacking import stacking_problem
from .state import Unit
from .victory import award_for_loss
from .zones import enemy_zones, is_counter

ATTACKER_ROLES = ("attackers", "firers")
DEFENDER_ROLES = ("defenders", "targets")


# --- columns -------------------------------------------------------------------------------


def table_view(ctx: Context, name: str) -> TableView:
    """The typed view of a declared table (``KeyError`` when there is none)."""
    # Built once per compiled Rules and table name: a TableView is frozen and the rulebook is fixed.
    cache = rules_cache(ctx.rules).setdefault("table_views", {})
    view = cache.get(name)
    if view is None:
        decl = ctx.rulebook.get("table", name)
        if decl is None:
            raise KeyError(f"no table {name!r}")
        view = cache[name] = TableView.from_declaration(decl)
    return view


def table_rounding(view: TableView) -> str:
    """The table's ``rounding`` line as words (``"for defender"``), or ``"down"`` when it has none."""
    prop = view.decl.first("rounding")
    return " ".join(w.text for w in prop.words[1:]) if prop else "down"


def better_direction(view: TableView) -> int:
    """+1 when results improve for the roller to the right (the default), -1 when to the left."""
    prop = view.decl.first("better")
    return -1 if prop is not None and prop.has("left") else 1


def odds_column(view: TableView, attack: Fraction, defence: Fraction, rounding: str) -> int:
    """The column index for ``attack`` against ``defence`` on a table looked up by odds.

    With columns ``1:4 1:3 1:2 1:1 2:1 3:1 4:1`` and ``for defender``: 7 against 3
    (2.33:1) is 2:1, 3 against 7 (1:2.33) is 1:3, 9 against 2 is 4:1 (above the
    last column) and 1 against 5 is 1:4 (below the first).
    """
    columns = [(c.odds.ratio, i) for i, c in enumerate(view.columns) if c.odds is not None and not c.shifted_only]
    if not columns:
        raise ValueError(f"table {view.name!r} has no odds columns")
    if defence <= 0:
        return max(columns)[1]
    ratio = Fraction(attack) / Fraction(defence)
    below = [c for c in columns if c[0] <= ratio]
    above = [c for c in columns if c[0] >= ratio]
    lowest, highest = min(columns)[1], max(columns)[1]
    if rounding in ("for attacker", "up"):
        return min(above)[1] if above else highest
    if rounding == "nearest" and below and above:
        low, high = max(below), min(above)
        return high[1] if high[0] - ratio < ratio - low[0] else low[1]
    return max(below)[1] if below else lowest


def value_column(view: TableView, total: Fraction, rounding: str = "down") -> int:
    """The column index whose printed range holds ``total`` (``lookup by value`` or by a factor).

    Columns marked ``shifted only`` are never found by a total; totals beyond the
    ranges use the first or last of the other columns.
    """
    total = Fraction(total)
    whole = math.ceil(total) if rounding in ("up", "for attacker") else \
        round(total) if rounding == "nearest" else math.floor(total)
    usable = [(i, c) for i, c in enumerate(view.columns) if c.range is not None and not c.shifted_only]
    if not usable:
        raise ValueError(f"table {view.name!r} has no value columns")
    for index, column in usable:
        if whole in column.range:
            return index
    first, last = usable[0], usable[-1]
    if last[1].range.high is not None and whole > last[1].range.high:
        return last[0]
    return first[0]


# --- strengths and shifts ----------------------------------------------------------------------


def _factor_name(combat: Declaration, which: str) -> str | None:
    prop = combat.first(which)
    return str(prop.get("factor")) if prop is not None and prop.get("factor") is not None else None


def unit_factor(ctx: Context, unit: Unit, factor: str | None) -> Fraction | None:
    """A unit's printed factor as a number; ``None`` for dummies, absent, ``none`` or ``all``."""
    if factor is None or unit.dummy:
        return None
    value = ctx.rules.unit_type(unit.type).factor(factor)
    return value if isinstance(value, Fraction) else None


def _terrain_rule(combat: Declaration) -> str:
    prop = combat.first("terrain")
    return prop.words[1].text if prop is not None else "ignored"


def combat_strength(ctx: Context, combat_decl: Declaration, attackers: Iterable[Unit], defenders: Iterable[Unit],
                    cell: str | None, ignore_terrain: bool = False) -> tuple[Fraction, Fraction]:
    """(attack, defence): summed factors, each defender's multiplied by its own terrain multiplier.

    Dummies count nothing.  With ``ignore_terrain`` or no ``terrain multiplies
    defence`` line, defence is the plain sum.
    """
    attack_factor = _factor_name(combat_decl, "attack")
    defence_factor = _factor_name(combat_decl, "defence")
    attack = sum((unit_factor(ctx, u, attack_factor) or Fraction(0) for u in attackers), Fraction(0))
    multiplies = (not ignore_terrain and _terrain_rule(combat_decl) == "multiplies" and cell is not None
                  and cell in ctx.board.graph)
    defence = Fraction(0)
    for unit in defenders:
        value = unit_factor(ctx, unit, defence_factor)
        if value is None:
            continue
        if multiplies:
            value *= ctx.rules.terrain_defence(ctx.board.terrain(cell), ctx.rules.unit_type(unit.type))
        defence += value
    return attack, defence


def _best(ctx: Context, units: Iterable[Unit], factor: str) -> Fraction | None:
    values = [v for v in (unit_factor(ctx, u, factor) for u in units) if v is not None]
    return max(values) if values else None


def _matches_any(ctx: Context, units: Iterable[Unit], who) -> bool:
    return any(Rules.unit_matches(ctx.rules.unit_type(u.type), who) for u in units if not u.dummy)


def column_shifts(ctx: Context, combat: Declaration, view: TableView, attackers: Sequence[Unit],
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
    prop = combat.first("column")
    if prop is not None:
        factor = str(prop.get("factor"))
        ours, theirs = _best(ctx, attackers, factor), _best(ctx, defenders, factor)
        if ours is not None and theirs is not None and ours != theirs:
            toward_higher = not prop.has("lower")
            difference = int(ours - theirs)
            columns = difference * better if toward_higher else -difference * better
            shifts.append((columns, f"{factor} {ours} against {theirs}"))
    here = list(ctx.state.units_at(cell)) if cell is not None else []
    with_attacker = [*attackers, *(u for u in here if u.side == attacker_side)]
    with_defender = [*defenders, *(u for u in here if u.side != attacker_side and u not in attackers)]
    for line in combat.all("shift"):
        if line.get("condition") and not _defending_holds(ctx, line, attacker_side, target_side, defending):
            continue
        columns = line.get("shift").columns
        who = line.get("who")
        helps_roller = columns * better > 0
        if who and not (_matches_any(ctx, with_attacker if helps_roller else with_defender, who)
                        or combat_effects.names_cell(ctx, who, None if ignore_terrain else cell)):
            continue
        shifts.append((columns, f"shift {line.get('shift').text}"))
    if (_terrain_rule(combat) == "shifts" and not ignore_terrain and cell is not None and defenders
            and target_side == defending):
        terrain = ctx.board.terrain(cell)
        decl = ctx.rulebook.get("terrain", terrain)
        for line in decl.all("defence") if decl else ():
            shift = line.get("shift")
            side = line.get("side")
            if shift is None or (side is not None and str(side) != defending):
                continue
            who = line.get("who")
            if who and not _matches_any(ctx, defenders, who):
                continue
            shifts.append((shift.columns, f"{decl.display} {shift.text}"))
            break
    return shifts


def _defending_holds(ctx: Context, line: Property, firing: str | None, targets: str | None,
                     defending: str | None) -> bool:
    """Whether a ``shift … when [WHO] defending`` line's condition holds (``dsl.conditions``).

    Only ``defending`` clauses are read here: ``own`` is the firing side, ``opponent`` the targets'
    side, and a side name itself; the clause holds when that side is the defending one.  A line
    with any other condition does not apply (conditions are not evaluated in combat yet).
    """
    from ..dsl.conditions import ConditionError, Defending, Names, parse_condition

    names = rules_cache(ctx.rules).get("condition_names")
    if names is None:
        names = rules_cache(ctx.rules)["condition_names"] = Names(ctx.rulebook)
    try:
        condition = parse_condition([str(w) for w in line.get("condition")], names)
    except ConditionError:
        return False
    if condition.moment is not None or not condition.clauses:
        return False
    for clause in condition.clauses:
        if not isinstance(clause, Defending):
            return False
        who = clause.who
        side = who.side if who.side else firing if who.relative == "own" else targets
        if side is None or side != defending:
            return False
    return True


@frozen
class CombatColumn:
    """Where an attack lands on its table, and why."""

    view: TableView = field(repr=False)
    index: int
    attack: Fraction
    defence: Fraction
    base: int
    shifts: tuple[tuple[int, str], ...]

    @property
    def label(self) -> str:
        return self.view.columns[self.index].label


def find_column(ctx: Context, combat: Declaration, attackers: Sequence[Unit], defenders: Sequence[Unit],
                *, attacker_side: str | None, fixed_odds: Odds | None = None, ignore_terrain: bool = False,
                strength: Fraction | None = None, defending_side: str | None = None) -> CombatColumn:
    """The column an attack uses: base column from odds, fixed odds or a total, then every shift, clamped."""
    view = table_view(ctx, str(combat.first("table").get("table")))
    cell = defenders[0].location if defenders else None
    attack, defence = combat_strength(ctx, combat, attackers, defenders, cell, ignore_terrain)
    if strength is not None:
        attack = Fraction(strength)
    if fixed_odds is None and combat.first("fixed") is not None:
        fixed_odds = combat.first("fixed").get("odds")
    rounding = table_rounding(view)
    if fixed_odds is not None:
        base = odds_column(view, Fraction(fixed_odds.attack), Fraction(fixed_odds.defence), rounding)
    elif view.lookup == "odds":
        base = odds_column(view, attack, defence, rounding)
    else:
        base = value_column(view, attack, rounding)
    shifts = tuple(column_shifts(ctx, combat, view, attackers, defenders, cell, attacker_side, ignore_terrain,
                                 defending_side))
    index = min(max(base + sum(s for s, _ in shifts), 0), len(view.columns) - 1)
    return CombatColumn(view, index, attack, defence, base, shifts)


# --- rolls -----------------------------------------------------------------------------------


def row_for(view: TableView, roll: int) -> int:
    """The row a (modified) roll reads; beyond the printed rows, the nearest row."""
    rows = [(i, r.roll) for i, r in enumerate(view.rows) if r.roll is not None]
    for index, keys in rows:
        if roll in keys:
            return index

    def gap(item) -> float:
        keys = item[1]
        low = float("-inf") if keys.low is None else keys.low
        high = float("inf") if keys.high is None else keys.high
        return low - roll if roll < low else roll - high

    return min(rows, key=gap)[0]


def combat_roll_modifier(combat: Declaration) -> int:
    """The sum of the combat's unconditional ``roll modifier`` lines."""
    return sum(p.get("modifier") for p in combat.all("roll") if not p.get("condition"))


def mode_roll_modifier(ctx: Context, units: Iterable[Unit], table: str) -> int:
    """A mode's ``roll modifier`` (WATCH's -1) when every attacking unit is in that one mode."""
    modes = {u.mode for u in units if not u.dummy}
    if len(modes) != 1 or None in modes:
        return 0
    decl = ctx.rulebook.get("mode", str(next(iter(modes))))
    total = 0
    for prop in decl.all("roll") if decl else ():
        on = prop.get("table")
        if on is None or str(on) == table:
            total += prop.get("modifier")
    return total


def _distribution(dice: Dice) -> dict[int, Fraction]:
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, dice.faces + 1), repeat=dice.count):
        counts[sum(faces)] = counts.get(sum(faces), 0) + 1
    total = dice.faces ** dice.count
    return {value: Fraction(n, total) for value, n in sorted(counts.items())}


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

    def __init__(self, ctx: Context, combat: Declaration | None, attackers: Iterable[Unit], defenders: Iterable[Unit],
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
        self.refitted: list[str] = []
        self.retreated: list[tuple[str, str, str]] = []
        self.broke_off: list[str] = []

    def units(self, role: str, *, struck: bool = True) -> list[Unit]:
        """The units of a role still in play, in id order (``struck``: only those results may hit)."""
        # ``attackers unharmed``: fire from a distance, so results against the firers fall on nobody.
        attackers = () if struck and self.combat is not None and self.combat.has("attackers") else self.attackers
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


def _current(ctx: Context, units: Iterable[Unit]) -> list[Unit]:
    return [ctx.state.unit(u.id) for u in units]


def _reveal(ctx: Context, units: Iterable[Unit]) -> None:
    for unit in units:
        current = ctx.state.unit(unit.id)
        if current.hidden:
            ctx.update_unit(evolve(current, hidden=False))
            ctx.say(f"{current.id} is revealed: {ctx.label(evolve(current, hidden=False))}", kind="reveal",
                    unit=current.id, unit_type=current.type)


def eliminate(ctx: Context, unit: Unit, why: str) -> None:
    """Remove a unit from play, narrate it and score any award for its loss."""
    unit = ctx.state.unit(unit.id)
    ctx.update_unit(evolve(unit, location=ctx.rules.eliminated_box, mode=None))
    if unit.dummy:
        ctx.say(f"{unit.id} was a dummy and is removed ({why})", kind="combat", unit=unit.id, dummy=True)
        return
    ctx.say(f"{ctx.label(unit)} is eliminated ({why})", kind="combat", unit=unit.id, cell=unit.location)
    award_for_loss(ctx, unit, "eliminated")


# --- resolve ---------------------------------------------------------------------------------


def resolve(ctx: Context, combat_name: str, attackers: Sequence[Unit], defenders: Sequence[Unit], *, reason: str,
            attacker_side: str, roll_modifier: int = 0, fixed_odds: Odds | None = None,
            ignore_terrain: bool = False, strength: Fraction | None = None, battle: Battle | None = None) -> Flow:
    """Fight one combat: reveal, total, find the column, roll, and carry out the result.

    ``strength`` replaces the attackers' total (an ``attack … with N`` effect).  ``battle``: one
    side's fire in a round of a battle (``Battle``); ``attacker_side`` is then the firing side.
    Returns a ``CombatOutcome``.
    """
    combat = ctx.rulebook.get("combat", combat_name)
    if combat is None:
        raise KeyError(f"no combat {combat_name!r}")
    attackers, defenders = _current(ctx, attackers), _current(ctx, defenders)
    cell = defenders[0].location if defenders else None
    _reveal(ctx, [*attackers, *defenders])
    for dummy in (d for d in defenders if d.dummy):
        eliminate(ctx, dummy, f"{reason}: a dummy has no defence")
    defenders = [d for d in _current(ctx, defenders) if not d.dummy]
    attackers = _current(ctx, attackers)
    if not defenders:
        ctx.say(f"{reason}: no real unit defends {cell}; nothing is rolled", kind="combat", cell=cell)
        return CombatOutcome(None, None, None, None, Fraction(0), Fraction(0))
    column = find_column(ctx, combat, attackers, defenders, attacker_side=attacker_side, fixed_odds=fixed_odds,
                         ignore_terrain=ignore_terrain, strength=strength,
                         defending_side=battle.defending_side if battle is not None else None)
    view = column.view
    shifts = "".join(f", {'+' if s > 0 else ''}{s} ({why})" for s, why in column.shifts if s)
    compare = combat.first("compare")
    strengths = f"total {column.attack}" if compare is not None and compare.has("total") else \
        f"attack {column.attack} against defence {column.defence}"
    ctx.say(f"{reason}: {strengths} at {view.columns[column.base].label}{shifts}: column {column.label}",
            kind="combat", cell=cell,
            attack=str(column.attack), defence=str(column.defence), column=column.label)
    dice = view.dice
    roll = ctx.roll(dice, reason=f"{view.decl.display} {column.label} ({reason})")
    modified = roll + roll_modifier + combat_roll_modifier(combat)
    row = view.rows[row_for(view, modified)]
    text = row.cells[column.index].text
    note = f" modified to {modified}" if modified != roll else ""
    ctx.say(f"{reason}: rolled {roll}{note}, row {row.key}: {text}", kind="combat", cell=cell, result=text,
            roll=roll, modified=modified)
    engagement = Engagement(ctx, combat, attackers, defenders, attacker_side, reason, battle)
    yield from apply_result(ctx, text, engagement)
    return CombatOutcome(column.label, roll, modified, text, column.attack, column.defence,
                         tuple(engagement.eliminated), tuple(engagement.retreated))


def roll_on_table(ctx: Context, table: str, *, reason: str, column: int = 0, roll_modifier: int = 0,
                  dice: str | None = None) -> tuple[int, str]:
    """Roll on a table without a combat (``roll d10 on aa_effect``): (roll, cell text) of one column."""
    view = table_view(ctx, table)
    roll = ctx.roll(dice or view.dice, reason=f"{view.decl.display} ({reason})")
    row = view.rows[row_for(view, roll + roll_modifier)]
    return roll, row.cells[column].text


def expected_worth(ctx: Context, combat_name: str, attackers: Sequence[Unit], defenders: Sequence[Unit], *,
                   roll_modifier: int = 0) -> Fraction:
    """The exact expected ``worth`` of an attack for the attacker, over every roll of the table's dice.

    Uses the units as they are (a caller that must respect hidden information
    passes only what its side knows).  Dummies count nothing; an attack on
    dummies alone is worth 0.  A cell whose parts lack ``worth`` counts 0.
    """
    from ..dsl.tables import cell_worth

    combat = ctx.rulebook.get("combat", combat_name)
    attackers = _current(ctx, attackers)
    defenders = [d for d in _current(ctx, defenders) if not d.dummy]
    if not defenders:
        return Fraction(0)
    side = attackers[0].side if attackers else None
    column = find_column(ctx, combat, attackers, defenders, attacker_side=side)
    view = column.view
    dice = read_dice(str(view.dice))
    modifier = roll_modifier + combat_roll_modifier(combat)
    total = Fraction(0)
    for value, chance in _distribution(dice).items():
        text = view.rows[row_for(view, value + modifier)].cells[column.index].text
        total += chance * Fraction(cell_worth(ctx.rulebook, text) or 0)
    return total


# --- results -----------------------------------------------------------------------------------


_role = combat_effects.role  # the role word of an effect line (before its condition)


def apply_result(ctx: Context, text: str, engagement: Engagement) -> Flow:
    """Carry out a table cell: each part of a compound code, each ``effect`` line in order."""
    parts = result_parts(ctx.rulebook, text)
    if parts is None:
        event = ctx.rulebook.get("event", text)
        if event is None:
            raise KeyError(f"cell {text!r} names no result or event")
        parts = (event,)
    for part in parts:
        affected: set[str] = set()
        engagement.result_code = part.name
        for prop in part.all("effect"):
            yield from apply_effect(ctx, prop, engagement, affected, part)


def apply_effect(ctx: Context, prop: Property, engagement: Engagement, affected: set[str],
                 part: Declaration) -> Flow:
    """One ``effect`` line of a result (or event) ``part``, against the engagement's roles, if it applies."""
    verb = prop.get("effect")
    if not combat_effects.applies(ctx, part, prop, engagement):
        return
    role = _role(prop)
    if verb == "no":
        ctx.say(f"{engagement.reason}: no effect", kind="combat")
    elif verb == "eliminate":
        yield from _eliminate_some(ctx, prop, engagement, role, affected)
    elif verb == "retreat":
        for unit in engagement.units(role):
            if unit.id not in affected and unit.on_map:
                affected.add(unit.id)
                yield from retreat(ctx, unit, prop.get("distance"), engagement)
    elif verb == "stand":
        units = engagement.units(role)
        if units:
            ctx.say(f"{engagement.reason}: {', '.join(u.id for u in units)} stand", kind="combat")
    elif verb == "break" and engagement.combat is not None and engagement.combat.has("break"):
        units = engagement.units(role)
        for side in sorted({u.side for u in units}):
            gone = yield from break_off(ctx, engagement.combat, side, [u for u in units if u.side == side],
                                        forced=True, reason=engagement.reason)
            engagement.broke_off.extend(gone)
    elif verb == "break":
        for unit in engagement.units(role):
            ctx.update_unit(evolve(unit, turn_flags=unit.turn_flags | {"broke off"}))
            engagement.broke_off.append(unit.id)
            ctx.say(f"{ctx.label(unit)} breaks off ({engagement.reason})", kind="combat", unit=unit.id)
    elif verb == "roll":
        roll, text = roll_on_table(ctx, str(prop.get("table")), reason=engagement.reason, dice=str(prop.get("dice")))
        ctx.say(f"{engagement.reason}: rolled {roll} on {prop.get('table')}: {text}", kind="combat", result=text)
        yield from apply_result(ctx, text, engagement)
    elif verb == "refit" and prop.get("box") is not None:
        yield from _refit_some(ctx, prop, engagement, role, affected, str(prop.get("box")))
    elif verb == "refit":
        ctx.say(f"{engagement.reason}: '{prop.text}' names no box to refit to; nothing is moved", kind="combat")
    else:
        combat_effects.carry_out(ctx, part, prop, engagement)


def _loss_groups(ctx: Context, prop: Property, engagement: Engagement, role: str | None,
                 affected: set[str]) -> list[tuple[list[Unit], int]]:
    """Per side, in side order: the counters that may be lost to an ``eliminate``/``refit`` line and
    how many are (``all``, ``half`` rounded up, or the count, at most all of them)."""
    candidates = [u for u in engagement.units(role) if not (prop.has("other") and u.id in affected)]
    what = prop.get("what")
    if what:
        candidates = [u for u in candidates if Rules.unit_matches(ctx.rules.unit_type(u.type), what)]
    out = []
    for side in sorted({u.side for u in candidates}):
        group = loss_candidates(ctx, [u for u in candidates if u.side == side], engagement.result_code)
        if prop.has("all"):
            count = len(group)
        elif prop.has("half"):
            count = math.ceil(len(group) / 2)
        else:
            count = min(prop.get("count") or 0, len(group))
        out.append((group, count))
    return out


def loss_candidates(ctx: Context, group: Sequence[Unit], code: str | None) -> list[Unit]:
    """The counters of one side that a result may take, by their markers' ``losses`` lines.

    ``losses never``: never taken.  ``losses only on CODE…``: only by a result part of those codes.
    ``losses last``: only when no unit (a counter that is not a marker) of the group may be taken.
    """
    lines = {u.id: _losses_line(ctx, u) for u in group}
    kept = []
    for unit in group:
        line = lines[unit.id]
        if line is not None and line.has("never"):
            continue
        if line is not None and line.has("only") and code not in {str(r) for r in line.get("results") or ()}:
            continue
        kept.append(unit)
    if any(ctx.rules.unit_type(u.type).kind == "unit" for u in kept):
        kept = [u for u in kept if not (lines[u.id] is not None and lines[u.id].has("last"))]
    return kept


def _losses_line(ctx: Context, unit: Unit) -> Property | None:
    cache = rules_cache(ctx.rules).setdefault("losses_lines", {})
    if unit.type not in cache:
        unit_type = ctx.rules.unit_type(unit.type)
        decl = ctx.rulebook.get(unit_type.kind, unit.type)
        cache[unit.type] = decl.first("losses") if decl is not None else None
    return cache[unit.type]


def _eliminate_some(ctx: Context, prop: Property, engagement: Engagement, role: str | None,
                    affected: set[str]) -> Flow:
    chooser = _losses_chosen_by(engagement.combat)
    for group, count in _loss_groups(ctx, prop, engagement, role, affected):
        lost = yield from _pick_losses(ctx, group, count, chooser, engagement)
        for unit in lost:
            affected.add(unit.id)
            engagement.eliminated.append(unit.id)
            eliminate(ctx, unit, engagement.reason)


def _refit_some(ctx: Context, prop: Property, engagement: Engagement, role: str | None, affected: set[str],
                box: str) -> Flow:
    """``refit N ROLE … to BOX``: the owner (or whoever ``losses chosen by`` says) picks; the
    battle's ``first_refit`` unit goes first when it may be taken."""
    chooser = _losses_chosen_by(engagement.combat)
    battle = engagement.battle
    for group, count in _loss_groups(ctx, prop, engagement, role, affected):
        if not count:
            continue
        side = group[0].side
        lost: list[Unit] = []
        first = battle.first_refit.get(side) if battle is not None else None
        forced = next((u for u in group if u.id == first), None)
        if forced is not None:
            ctx.say(f"{ctx.label(forced)} made its side's recon roll, so it is the first to refit "
                    f"({_cite_prop(engagement.combat, 'recon')})", kind="combat", unit=forced.id)
            lost.append(forced)
        rest = [u for u in group if u not in lost]
        lost += yield from _pick_losses(ctx, rest, count - len(lost), chooser, engagement)
        for unit in lost:
            affected.add(unit.id)
            engagement.refitted.append(unit.id)
            refit(ctx, unit, box, engagement.reason)
        if battle is not None and any(ctx.rules.unit_type(u.type).kind == "unit" for u in lost):
            battle.first_refit.pop(side, None)


def _cite_prop(decl: Declaration | None, name: str) -> str:
    prop = decl.first(name) if decl is not None else None
    return cite(decl, prop) or (decl.name if decl is not None else "")


def refit(ctx: Context, unit: Unit, box: str, why: str, *, award: bool = True) -> None:
    """Put a unit in a box (its side's, for a box declared ``per side``), narrate it and, when
    ``award``, score any award for its refit (``award … on refitted``)."""
    unit = ctx.state.unit(unit.id)
    ctx.update_unit(evolve(unit, location=box, mode=None))
    ctx.say(f"{ctx.label(unit)} goes to the {box} ({why})", kind="combat", unit=unit.id, cell=unit.location, box=box)
    if award:
        award_for_loss(ctx, unit, "refitted")


def _losses_chosen_by(combat: Declaration | None) -> str:
    prop = combat.first("losses") if combat is not None else None
    return prop.words[-1].text if prop is not None else "owner"


def _pick_losses(ctx: Context, group: list[Unit], count: int, chooser: str, engagement: Engagement) -> Flow:
    if count >= len(group):
        return list(group)
    lost: list[Unit] = []
    left = list(group)
    while len(lost) < count:
        if chooser == "random":
            pick = ctx.roll(Dice(1, len(left)), reason=f"which counter is lost ({engagement.reason})") - 1
            unit = left[pick]
        else:
            owner = left[0].side
            side = owner if chooser == "owner" else next((s for s in ctx.rules.sides if s != owner), owner)
            options = [Action("lose", (u.id,)) for u in left]
            action = yield from ctx.choose(side, "losses", f"choose {count - len(lost)} more to lose "
                                           f"({engagement.reason})", options)
            unit = next(u for u in left if u.id == action.args[0])
        lost.append(unit)
        left.remove(unit)
    return lost


# --- retreat -----------------------------------------------------------------------------------
# Where a unit may go is movement's question; ``interpreter.costs``, ``.stacking`` and ``.zones`` answer
# it for retreats too, so moving and retreating read the terrain, class, stacking and zone rules the same way.


def in_enemy_zone(ctx: Context, cell: str, side: str) -> bool:
    """Whether ``cell`` lies in a zone that ``blocks retreat``, exerted by an enemy of ``side``.

    As for movement, a face-down dummy exerts a zone (the side cannot tell it from a unit).
    """
    return cell in enemy_zones(ctx, side, blocking_retreat=True)


def _enemy_occupied(ctx: Context, cell: str, side: str) -> bool:
    """Enemy units or dummies (which look like units) in the cell; markers such as traps do not occupy."""
    return any(u.side != side and is_counter(ctx.rules.unit_type(u.type)) for u in ctx.state.units_at(cell))


def retreat_problem(ctx: Context, unit: Unit, cell: str, origin: str | None = None, step: int = 1) -> str | None:
    """Why ``unit`` may not retreat into ``cell`` as its ``step``-th hex away from ``origin``, or ``None``."""
    origin = origin or unit.location
    if never_moves(ctx.rules, ctx.rules.unit_type(unit.type)):
        return f"{unit.id} never moves"
    if cell not in ctx.board.graph:
        return f"{cell!r} is not on the map"
    if cell not in set(ctx.board.neighbours(unit.location)):
        return f"{cell} is not adjacent to {unit.location}"
    if ctx.board.distance(origin, cell) != step:
        return f"{cell} is not {step} hex(es) from {origin}, where the retreat began"
    if _enemy_occupied(ctx, cell, unit.side):
        return f"{cell} holds enemy counters"
    costs = cost_table(ctx.rules, ctx.board, unit.type)
    if cell not in costs.cost:
        return costs.barred.get(cell, f"{unit.id} may not enter {cell}")
    stacking = stacking_problem(ctx, unit.side, cell, [unit])
    if stacking is not None:
        return stacking
    if in_enemy_zone(ctx, cell, unit.side):
        return f"{cell} is in an enemy zone of control, which blocks retreat"
    return None


def retreat_cells(ctx: Context, unit: Unit, origin: str | None = None, step: int = 1) -> list[str]:
    """Hexes ``unit`` may retreat into from where it is, as the ``step``-th hex away from ``origin``."""
    return [c for c in sorted(ctx.board.neighbours(unit.location))
            if retreat_problem(ctx, unit, c, origin, step) is None]


def retreat(ctx: Context, unit: Unit, distance: int, engagement: Engagement) -> Flow:
    """Retreat one unit ``distance`` hexes, its owner choosing each hex; eliminated if it cannot."""
    unit = ctx.state.unit(unit.id)
    origin = unit.location
    for step in range(1, distance + 1):
        cells = retreat_cells(ctx, unit, origin, step)
        if not cells:
            engagement.eliminated.append(unit.id)
            eliminate(ctx, unit, f"{engagement.reason}: no hex to retreat into")
            return
        action = yield from ctx.choose(
            unit.side, "retreat", f"retreat {unit.id} from {unit.location}",
            [Action("retreat", (unit.id, c)) for c in cells],
            lambda a, unit=unit, step=step: retreat_problem(ctx, unit, a.args[-1], origin, step)
            if a.kind == "retreat" and a.args else None)
        target = action.args[1]
        ctx.say(f"{ctx.label(unit)} retreats from {unit.location} to {target}", kind="combat", unit=unit.id,
                cell=target)
        engagement.retreated.append((unit.id, unit.location, target))
        unit = evolve(unit, location=target)
        ctx.update_unit(unit)


# --- break off ---------------------------------------------------------------------------------
# A combat's ``break off …`` lines say where units leaving a battle may go (breaking off).


def _break_lines(combat: Declaration) -> tuple[Property, ...]:
    return combat.all("break")


def _line_applies(ctx: Context, line: Property, unit: Unit) -> bool:
    unit_type = ctx.rules.unit_type(unit.type)
    if line.has("markers") and line.get("who") is None:
        return unit_type.kind == "marker"
    who = line.get("who")
    return not who or Rules.unit_matches(unit_type, who)


def never_breaks_off(ctx: Context, combat: Declaration, unit: Unit) -> bool:
    """Whether a ``break off never for …`` line keeps ``unit`` where it is."""
    return any(line.has("never") and _line_applies(ctx, line, unit) for line in _break_lines(combat))


def _enemy_counter_in(ctx: Context, cell: str, side: str) -> bool:
    """Any counter of another side, face down or not, unit or marker (10.3: 'no enemy units or markers')."""
    return any(u.side != side for u in ctx.state.units_at(cell))


def _carried_line(ctx: Context, unit: Unit) -> tuple[Property, tuple[str, ...]] | None:
    """(``carried with`` line, classes it is ``transported by``) of a carried unit's class, else ``None``."""
    mclass = movement_class(ctx.rules, ctx.rules.unit_type(unit.type))
    if mclass is None or not mclass.has("needs") or not mclass.has("carried"):
        return None
    by = tuple(str(c) for p in mclass.all("transported") for c in p.get("classes") or ())
    return mclass.first("carried"), by


def break_off_cells(ctx: Context, combat: Declaration, unit: Unit) -> list[str]:
    """Cells ``unit`` may break off into by itself (no box, no carrier), in id order.

    ``to adjacent``: a neighbour its class may step to and enter; ``to cells with WHO``: any cell
    holding a friendly counter WHO names that its class may enter.  Never a cell holding an enemy
    counter.
    """
    if never_breaks_off(ctx, combat, unit) or not unit.on_map:
        return []
    table = cost_table(ctx.rules, ctx.board, unit.type)
    if never_moves(ctx.rules, ctx.rules.unit_type(unit.type)):
        return []
    cells: set[str] = set()
    for line in _break_lines(combat):
        if line.has("never") or line.has("carried") or line.get("box") is not None:
            continue
        if not _line_applies(ctx, line, unit):
            continue
        if line.has("adjacent"):
            cells.update(c for c in table.adjacency.get(unit.location, ()) if c in table.cost)
        elif line.get("where"):
            where = line.get("where")
            cells.update(u.location for u in ctx.state.units_of(unit.side)
                         if u.location != unit.location and u.location in table.cost
                         and Rules.unit_matches(ctx.rules.unit_type(u.type), where))
    return sorted((c for c in cells if not _enemy_counter_in(ctx, c, unit.side)), key=lambda c: (len(c), c))


def break_off_boxes(ctx: Context, combat: Declaration, unit: Unit) -> list[str]:
    """Boxes ``unit`` may break off into (``break off to BOX``: any unit, statics too)."""
    if never_breaks_off(ctx, combat, unit):
        return []
    return sorted({str(line.get("box")) for line in _break_lines(combat)
                   if line.get("box") is not None and _line_applies(ctx, line, unit)})


def break_off(ctx: Context, combat: Declaration, side: str, units: Sequence[Unit], *, forced: bool,
              reason: str) -> Flow:
    """``side`` breaks off some of ``units`` (all of them when ``forced``, as for a B result).

    One decision per unit, kind ``break off``: ``break-off ID WHERE`` for each place it may go
    (``break_off_cells``, ``break_off_boxes``, and with ``break off with carried units`` a cell a
    carrier of its side went to this break-off with room left for it), and, unless ``forced``,
    ``done`` once one unit has gone.  A forced unit with nowhere to go stays.  A unit that breaks
    off leaves the force of the operation in progress (``ctx.operation``), which ends when no unit
    of its force is left in the contested cell.  Returns the ids that broke off.
    """
    carries = any(line.has("carried") for line in _break_lines(combat))
    cargo_room: dict[tuple[str, str], Fraction] = {}  # (cell, carrier class) -> capacity left
    left = [ctx.state.unit(u.id) for u in units]
    gone: list[str] = []
    cite = _cite_prop(combat, "break")
    while True:
        left = [ctx.state.unit(u.id) for u in left]
        left = [u for u in left if u.on_map and not never_breaks_off(ctx, combat, u)]
        options = []
        for unit in left:
            places = [*break_off_cells(ctx, combat, unit), *break_off_boxes(ctx, combat, unit)]
            if carries:
                places += [c for c in _cargo_cells(ctx, unit, cargo_room) if c not in places]
            options += [Action("break-off", (unit.id, place)) for place in places]
        if not forced and gone:
            options.append(Action("done"))
        if not options or options == [Action("done")]:
            break
        action = yield from ctx.choose(side, "break off", f"break off from {left[0].location if left else ''}"
                                       f" ({reason}): which unit, and where?", options, in_order=False)
        if action.kind == "done":
            break
        unit = ctx.state.unit(action.args[0])
        place = action.args[1]
        origin = unit.location
        if carries and place in ctx.board.graph:
            _use_cargo_room(ctx, unit, place, cargo_room)
        ctx.update_unit(evolve(unit, location=place, turn_flags=unit.turn_flags | {"broke off"}, mode=None))
        where = f"the {place}" if place not in ctx.board.graph else place
        ctx.say(f"{ctx.label(unit)} breaks off from {origin} to {where} ({reason}; {cite})", kind="combat",
                unit=unit.id, cell=place, side=side)
        gone.append(unit.id)
        left = [u for u in left if u.id != unit.id]
        _leave_operation(ctx, unit.id, origin)
    return gone


def _cargo_cells(ctx: Context, unit: Unit, room: dict[tuple[str, str], Fraction]) -> list[str]:
    """Cells a carried unit may go to with carriers that broke off there, room allowing."""
    carried = _carried_line(ctx, unit)
    if carried is None:
        return []
    line, by = carried
    cost = unit_factor(ctx, unit, str(line.get("cost"))) or Fraction(0)
    table = cost_table(ctx.rules, ctx.board, unit.type)
    return sorted({cell for (cell, mclass), free in room.items()
                   if mclass in by and free >= cost and cell in table.cost}, key=lambda c: (len(c), c))


def _use_cargo_room(ctx: Context, unit: Unit, cell: str, room: dict[tuple[str, str], Fraction]) -> None:
    """Book a carried unit into a carrier's room, or add a carrier's capacity to its cell."""
    carried = _carried_line(ctx, unit)
    if carried is not None:
        line, by = carried
        cost = unit_factor(ctx, unit, str(line.get("cost"))) or Fraction(0)
        for key in sorted(k for k in room if k[0] == cell and k[1] in by):
            if room[key] >= cost:
                room[key] -= cost
                return
        return
    unit_type = ctx.rules.unit_type(unit.type)
    for mclass in ctx.rulebook.of_kind("movement"):
        carried_line = mclass.first("carried")
        if carried_line is None:
            continue
        capacity = unit_factor(ctx, unit, str(carried_line.get("capacity")))
        if capacity and unit_type.movement:
            key = (cell, unit_type.movement)
            room[key] = room.get(key, Fraction(0)) + capacity
            return


def _leave_operation(ctx: Context, unit_id: str, origin: str) -> None:
    """A unit that broke off leaves the operation's force; the operation ends when none is left in its cell."""
    operation = ctx.operation
    if operation is None or operation.cell != origin or unit_id not in operation.force:
        return
    operation.force = [i for i in operation.force if i != unit_id]
    if not any(ctx.state.unit(i).location == operation.cell for i in operation.force):
        operation.ended = True
        ctx.say(f"the attacking force has left {operation.cell}: the operation ends", kind="combat",
                cell=operation.cell)
