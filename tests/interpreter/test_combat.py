"""Combat resolution against the Several Klicks text: odds, terrain, shifts, every CRT result, retreats.

Every expected value is worked out by hand from the seed's COMBAT PHASE (text and
CRT), TERRAIN TABLE, UNITS table and ZONE OF CONTROL; the comments show the sums.
The test map (fixtures/combat/map.toml), even columns half a hex lower::

    row 1  . . . . . =      0202 jungle, 0302 river, 0601 road, 0605 village
    row 2  . j ~ . . .
    row 3  . . . . . .      0303's neighbours: 0302 0304 0202 0203 0402 0403
    row 4  . . . . . .      0304's neighbours: 0303 0305 0203 0204 0403 0404
    row 5  . . . . . v
"""

from fractions import Fraction
from pathlib import Path

import pytest

from warbook.dsl.values import read_odds
from warbook.interpreter import columns, combat, results, retreats, rng
from warbook.interpreter.context import Context
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.rules import ELIMINATED
from warbook.interpreter.state import GameState, Unit

FIXTURE = Path(__file__).parent / "fixtures" / "combat" / "combat.toml"


@pytest.fixture(scope="module")
def scenario():
    return load_scenario(FIXTURE)


def make(scenario, *units: Unit) -> Context:
    ctx = Context(scenario, seed=0)
    ctx.state = GameState(turn=1, phase="combat_phase", units=tuple(sorted(units)))
    return ctx


def script_dice(monkeypatch, *values: int) -> list[int]:
    """Make the next rolls come out as ``values``; the list empties as they are used."""
    left = list(values)
    monkeypatch.setattr(rng, "roll", lambda seed, n, faces, count=1: left.pop(0))
    return left


def drive(flow, choose=None):
    """Run a procedure, answering each decision with ``choose`` (default: the first option)."""
    decisions = []
    try:
        decision = next(flow)
        while True:
            decisions.append(decision)
            decision = flow.send(choose(decision) if choose else decision.options[0])
    except StopIteration as stop:
        return stop.value, decisions


def units(ctx, *ids):
    return [ctx.state.unit(i) for i in ids]


def column_label(ctx, attackers, defenders, **kw) -> str:
    decl = ctx.rules.combats["assault"]
    side = attackers[0].side
    return combat.find_column(ctx, decl, attackers, defenders, attacker_side=side, **kw).label


# --- odds and rounding (COMBAT PHASE: "round in the defenders favour") -------------------------


@pytest.mark.parametrize("attack, defence, label", [
    (7, 3, "2:1"),   # 2.33:1 rounds down to 2:1
    (3, 7, "1:3"),   # 1:2.33 is worse than 1:2, so the defender's favour gives 1:3
    (9, 2, "4:1"),   # 4.5:1 is above the last column: 4:1
    (1, 5, "1:4"),   # 1:5 is below the first column: 1:4
    (6, 3, "2:1"),   # exact
    (4, 4, "1:1"),
    (5, 2, "2:1"),   # 2.5:1
    (2, 5, "1:3"),   # 1:2.5
    (12, 1, "4:1"),
])
def test_odds_round_in_the_defenders_favour_and_clamp(scenario, attack, defence, label):
    view = combat.table_view(make(scenario), "crt")
    assert columns.table_rounding(view) == "for defender"
    index = columns.odds_column(view, Fraction(attack), Fraction(defence), "for defender")
    assert view.columns[index].label == label


def test_other_roundings_are_generic(scenario):
    view = combat.table_view(make(scenario), "crt")
    assert view.columns[columns.odds_column(view, Fraction(7), Fraction(3), "for attacker")].label == "3:1"
    assert view.columns[columns.odds_column(view, Fraction(7), Fraction(3), "nearest")].label == "2:1"
    assert view.columns[columns.odds_column(view, Fraction(3), Fraction(7), "nearest")].label == "1:2"


def _column_by_min_and_max(view, attack: Fraction, defence: Fraction, rounding: str) -> int:
    """What ``odds_column`` gives, read the long way: min and max over every odds column."""
    cols = [(Fraction(c.odds.attack, c.odds.defence), i) for i, c in enumerate(view.columns)
            if c.odds is not None and not c.shifted_only]
    if defence <= 0:
        return max(cols)[1]
    ratio = attack / defence
    below, above = [c for c in cols if c[0] <= ratio], [c for c in cols if c[0] >= ratio]
    if rounding in ("for attacker", "up"):
        return min(above)[1] if above else max(cols)[1]
    if rounding == "nearest" and below and above:
        low, high = max(below), min(above)
        return high[1] if high[0] - ratio < ratio - low[0] else low[1]
    return max(below)[1] if below else min(cols)[1]


def test_odds_columns_found_by_bisection_are_those_min_and_max_find(scenario):
    view = combat.table_view(make(scenario), "crt")
    for attack in range(0, 14):
        for defence in range(0, 9):
            for rounding in ("for defender", "for attacker", "up", "nearest", "down"):
                odds = Fraction(attack, 2), Fraction(defence)
                assert columns.odds_column(view, *odds, rounding) == _column_by_min_and_max(view, *odds, rounding)


# --- strength: factors and terrain (TERRAIN TABLE "Defence Value") --------------------------------


def test_terrain_multiplies_each_defender_by_its_own_multiplier(scenario):
    ctx = make(scenario,
               Unit("V1", "nva", "vc_nva", "0304"), Unit("V2", "nva_sappers", "vc_nva", "0304"),
               Unit("A1", "us_infantry", "allies", "0202"), Unit("A2", "us_mech", "allies", "0202"),
               Unit("A3", "us_mech", "allies", "0303"), Unit("A4", "nva", "vc_nva", "0303"))
    assault = ctx.rules.combats["assault"]
    nva, sappers, inf, mech, mech_clear, nva_clear = units(ctx, "V1", "V2", "A1", "A2", "A3", "A4")
    # Attack: NVA 3 + NVA Sappers 4 = 7.  Jungle "3 (1 mech)": infantry 4 x 3 = 12.
    assert combat.combat_strength(ctx, assault, [nva, sappers], [inf], "0202") == (7, 12)
    # US Mech in jungle: 4 x 1 = 4; the mixed stack adds 12 + 4 = 16.
    assert combat.combat_strength(ctx, assault, [nva], [mech], "0202") == (3, 4)
    assert combat.combat_strength(ctx, assault, [nva], [inf, mech], "0202") == (3, 16)
    # Clear "1 (2 mech)": mech 4 x 2 = 8, NVA 4 x 1 = 4.
    assert combat.combat_strength(ctx, assault, [nva], [mech_clear], "0303") == (3, 8)
    assert combat.combat_strength(ctx, assault, [nva], [nva_clear], "0303") == (3, 4)
    # Ignoring terrain (BOOBY TRAPS): plain 4 + 4.
    assert combat.combat_strength(ctx, assault, [nva], [inf, mech], "0202", ignore_terrain=True) == (3, 8)


def test_dummies_have_no_factors(scenario):
    ctx = make(scenario, Unit("V1", "dummy", "vc_nva", "0303", dummy=True), Unit("A1", "cidg", "allies", "0304"))
    assault = ctx.rules.combats["assault"]
    assert combat.combat_strength(ctx, assault, units(ctx, "V1"), units(ctx, "A1"), "0304") == (0, 2)


# --- motivation shifts (COMBAT PHASE, with the rulebook's errata: toward the higher side) -----------


def test_higher_attacker_motivation_shifts_right_and_clamps_at_the_last_column(scenario):
    # Special Forces (attack 4, motivation 4) on VC Mainforce (defend 3, motivation 2) in clear:
    # 4:3 → 1:1, two columns right → 3:1.
    ctx = make(scenario, Unit("A1", "special_forces", "allies", "0304"), Unit("V1", "vc_mainforce", "vc_nva", "0303"))
    assert column_label(ctx, units(ctx, "A1"), units(ctx, "V1")) == "3:1"
    # US Marines (3, motivation 3) on VC Local (1, motivation 1): 3:1, two right → past 4:1 → 4:1.
    ctx = make(scenario, Unit("A1", "us_marines", "allies", "0304"), Unit("V1", "vc_local", "vc_nva", "0303"))
    assert column_label(ctx, units(ctx, "A1"), units(ctx, "V1")) == "4:1"


def test_higher_defender_motivation_shifts_left_and_clamps_at_the_first_column(scenario):
    # Two US Infantry (2 + 2, motivation 2) on NVA (4, motivation 3) in clear: 1:1, one left → 1:2.
    ctx = make(scenario, Unit("A1", "us_infantry", "allies", "0304"), Unit("A2", "us_infantry", "allies", "0304"),
               Unit("V1", "nva", "vc_nva", "0303"))
    assert column_label(ctx, units(ctx, "A1", "A2"), units(ctx, "V1")) == "1:2"
    # ARVN (2, motivation 1) on NVA Sappers (4, motivation 4): 1:2, three left → past 1:4 → 1:4.
    ctx = make(scenario, Unit("A1", "arvn", "allies", "0304"), Unit("V1", "nva_sappers", "vc_nva", "0303"))
    assert column_label(ctx, units(ctx, "A1"), units(ctx, "V1")) == "1:4"


def test_motivation_compares_the_best_unit_of_each_side(scenario):
    # ARVN (2, motivation 1) + US Marines (3, motivation 3) on VC Mainforce (3, motivation 2)
    # and VC Local (1, motivation 1): 5:4 → 1:1; best 3 against best 2 → one right → 2:1.
    ctx = make(scenario, Unit("A1", "arvn", "allies", "0304"), Unit("A2", "us_marines", "allies", "0304"),
               Unit("V1", "vc_mainforce", "vc_nva", "0303"), Unit("V2", "vc_local", "vc_nva", "0303"))
    assert column_label(ctx, units(ctx, "A1", "A2"), units(ctx, "V1", "V2")) == "2:1"


def test_bombardment_has_no_motivation_shift(scenario):
    # Mortars (5, motivation 3) on NVA Sappers (4, motivation 4): 5:4 → 1:1.  The assault would
    # shift one column left; BOMBARDMENT PHASE states no shift.
    ctx = make(scenario, Unit("A1", "mortars", "allies", "0103"), Unit("V1", "nva_sappers", "vc_nva", "0303"))
    decl = ctx.rules.combats["bombardment"]
    column = combat.find_column(ctx, decl, units(ctx, "A1"), units(ctx, "V1"), attacker_side="allies")
    assert column.label == "1:1" and column.shifts == ()


def test_shift_lines_apply_for_the_side_they_help(scenario):
    # shifts.rules adds "shift 1R for special_forces" and "shift 1L for nva_sappers" (invented).
    shifted = load_scenario(FIXTURE.with_name("shifts.toml"))
    # Special Forces (4, mot 4) on VC Mainforce (3, mot 2): 4:3 → 1:1, +2 motivation, +1 → 4:1.
    ctx = make(shifted, Unit("A1", "special_forces", "allies", "0304"), Unit("V1", "vc_mainforce", "vc_nva", "0303"))
    assert column_label(ctx, units(ctx, "A1"), units(ctx, "V1")) == "4:1"
    # Two US Infantry (4, mot 2) on NVA Sappers (4, mot 4): 1:1, -2 motivation, -1 → 1:4.
    ctx = make(shifted, Unit("A1", "us_infantry", "allies", "0304"), Unit("A2", "us_infantry", "allies", "0304"),
               Unit("V1", "nva_sappers", "vc_nva", "0303"))
    assert column_label(ctx, units(ctx, "A1", "A2"), units(ctx, "V1")) == "1:4"
    # Two NVA (6, mot 3) on Special Forces (4, mot 4): 1.5 → 1:1, -1 motivation → 1:2; the 1R
    # helps the roller, and the Special Forces are not among the attackers, so it does not apply.
    ctx = make(shifted, Unit("V1", "nva", "vc_nva", "0304"), Unit("V2", "nva", "vc_nva", "0304"),
               Unit("A1", "special_forces", "allies", "0303"))
    assert column_label(ctx, units(ctx, "V1", "V2"), units(ctx, "A1")) == "1:2"


def test_totals_find_printed_ranges_and_skip_shifted_only_columns():
    # Sea Lords CRT (27.0): "<1* 1 2 3 4-5 6-7 8-9 10-12 13-15 16-18 19-22 23-26 27+", "* Use
    # this column only if shifted into it."
    from warbook.dsl import load_rulebook
    from warbook.dsl.rulebook_paths import find_rulebook
    from warbook.dsl.tables import TableView

    view = TableView.from_declaration(load_rulebook(find_rulebook("sea_lords")).get("table", "crt"))
    labels = {total: view.columns[columns.value_column(view, Fraction(total))].label
              for total in (0, 1, 5, 6, 11, 26, 27, 40)}
    assert labels == {0: "1", 1: "1", 5: "4-5", 6: "6-7", 11: "10-12", 26: "23-26", 27: "27+", 40: "27+"}
    assert columns.value_column(view, Fraction(9, 2)) == columns.value_column(view, Fraction(4))  # 4½ → 4-5


# --- the die: WATCH's -1 and the nearest row --------------------------------------------------------


def test_watch_minus_one_reads_row_one_for_a_roll_of_one(scenario, monkeypatch):
    # NVA (3, motivation 3) + VC Local (1, motivation 1) on US Marines (4, motivation 3) in clear:
    # 4:4 → 1:1, best motivations 3 and 3, no shift.  A 1 with WATCH's -1 is 0: row 1 of 1:1 is ½D.
    ctx = make(scenario, Unit("V1", "nva", "vc_nva", "0304", mode="watch"),
               Unit("V2", "vc_local", "vc_nva", "0304", mode="watch"),
               Unit("A1", "us_marines", "allies", "0303"))
    attackers = units(ctx, "V1", "V2")
    ctx.running = ["move_phase"]  # "may fire at any point in the opponents movement phase. They get -1"
    assert combat.mode_roll_modifier(ctx, attackers, "crt") == -1
    script_dice(monkeypatch, 1)
    outcome, _ = drive(results.resolve(ctx, "assault", attackers, units(ctx, "A1"), reason="watch fire",
                                      attacker_side="vc_nva", roll_modifier=-1))
    assert (outcome.column, outcome.roll, outcome.modified_roll, outcome.result) == ("1:1", 1, 0, "½D")


def test_modifier_applies_only_when_every_attacker_is_on_watch(scenario):
    ctx = make(scenario, Unit("V1", "nva", "vc_nva", "0304", mode="watch"), Unit("V2", "nva", "vc_nva", "0304"))
    ctx.running = ["move_phase"]
    assert combat.mode_roll_modifier(ctx, units(ctx, "V1", "V2"), "crt") == 0
    assert combat.mode_roll_modifier(ctx, units(ctx, "V1"), "aa_hit") == 0  # "-1 on crt" only


def test_watch_minus_one_holds_in_the_movement_phase_only(scenario):
    """WATCH MODE: units "may fire at any point in the opponents movement phase. They get -1 to the
    dice roll" (and MOVEMENT: "may fire in the movement phase at any point and get a -1"): a
    watching unit attacking in the Combat Phase rolls without it."""
    ctx = make(scenario, Unit("V1", "nva", "vc_nva", "0304", mode="watch"))
    ctx.running = ["move_phase"]
    assert combat.mode_roll_modifier(ctx, units(ctx, "V1"), "crt") == -1
    ctx.running = ["combat_phase"]
    assert combat.mode_roll_modifier(ctx, units(ctx, "V1"), "crt") == 0


# --- every result code (the CRT and "The results are as follows") ---------------------------------
# Three NVA (motivation 3) at 0304 attack three US Marines (motivation 3) at 0303: equal motivation,
# so fixed odds pick the column.  Losses of half of three are two (rounded up).  Retreats: the
# attackers may go to 0204, 0305 or 0404 (0303 is enemy-held; 0203 and 0403 are clear hexes next
# to the Marines, in their ZOC); the defenders to 0202 (jungle: the ZOC reaches clear and road
# only) or 0402 (0302 is river, 0304 enemy-held, 0203 and 0403 in the NVA's ZOC).

ATTACKERS = ("V1", "V2", "V3")
DEFENDERS = ("A1", "A2", "A3")


def battle(scenario, monkeypatch, odds: str, roll: int):
    ctx = make(scenario, *(Unit(i, "nva", "vc_nva", "0304") for i in ATTACKERS),
               *(Unit(i, "us_marines", "allies", "0303") for i in DEFENDERS))
    script_dice(monkeypatch, roll)
    outcome, decisions = drive(results.resolve(ctx, "assault", units(ctx, *ATTACKERS), units(ctx, *DEFENDERS),
                                              reason="test", attacker_side="vc_nva", fixed_odds=read_odds(odds)))
    where = {u.id: u.location for u in ctx.state.units}
    return ctx, outcome, decisions, where


def lost(where, ids):
    return sum(1 for i in ids if where[i] == ELIMINATED)


def test_a_combat_with_fixed_odds_is_fought_at_them_whatever_the_factors(scenario, monkeypatch):
    # `fixed odds 1:4` (fixtures/combat/combat.rules, combat ambush): three NVA (attack 3 each)
    # against three US Marines would be far above 1:4; the ambush reads the 1:4 column, row 2: A.
    ctx = make(scenario, *(Unit(i, "nva", "vc_nva", "0304") for i in ATTACKERS),
               *(Unit(i, "us_marines", "allies", "0303") for i in DEFENDERS))
    script_dice(monkeypatch, 2)
    outcome, _ = drive(results.resolve(ctx, "ambush", units(ctx, *ATTACKERS), units(ctx, *DEFENDERS),
                                       reason="test", attacker_side="vc_nva"))
    assert outcome.result == "A"
    assert any(e.get("kind") == "combat" and "column 1:4" in e["text"] for e in ctx.events)


def test_A_removes_all_attackers(scenario, monkeypatch):
    ctx, outcome, decisions, where = battle(scenario, monkeypatch, "1:4", 2)   # 1:4 row 2: A
    assert outcome.result == "A" and decisions == []
    assert lost(where, ATTACKERS) == 3 and lost(where, DEFENDERS) == 0
    assert ctx.state.resource("allies", "vp") == 3 and ctx.state.resource("vc_nva", "vp") == 0


def test_D_removes_all_defenders(scenario, monkeypatch):
    ctx, outcome, decisions, where = battle(scenario, monkeypatch, "4:1", 1)   # 4:1 row 1: D
    assert outcome.result == "D" and decisions == []
    assert lost(where, DEFENDERS) == 3 and lost(where, ATTACKERS) == 0
    assert ctx.state.resource("vc_nva", "vp") == 3


def test_half_A_removes_half_the_attackers_and_the_rest_retreat(scenario, monkeypatch):
    _, outcome, decisions, where = battle(scenario, monkeypatch, "1:4", 1)   # 1:4 row 1: ½A
    assert outcome.result == "½A"
    assert [d.kind for d in decisions] == ["losses", "losses", "retreat"]
    assert all(d.side == "vc_nva" for d in decisions)  # the owner chooses its losses and its retreat
    assert lost(where, ATTACKERS) == 2 and lost(where, DEFENDERS) == 0
    assert [str(a) for a in decisions[2].options] == ["retreat V3 0204", "retreat V3 0305", "retreat V3 0404"]
    assert where["V3"] == "0204"


def test_half_D_removes_half_the_defenders_and_the_rest_retreat(scenario, monkeypatch):
    _, outcome, decisions, where = battle(scenario, monkeypatch, "1:3", 1)   # 1:3 row 1: ½D
    assert outcome.result == "½D"
    assert [(d.kind, d.side) for d in decisions] == [("losses", "allies"), ("losses", "allies"),
                                                     ("retreat", "allies")]
    assert [str(a) for a in decisions[2].options] == ["retreat A3 0202", "retreat A3 0402"]
    assert lost(where, DEFENDERS) == 2 and where["A3"] == "0202" and lost(where, ATTACKERS) == 0


def test_half_D_half_A_both_lose_half_and_stand(scenario, monkeypatch):
    _, outcome, decisions, where = battle(scenario, monkeypatch, "1:2", 2)   # 1:2 row 2: ½D½A
    assert outcome.result == "½D½A"
    assert [d.kind for d in decisions] == ["losses"] * 4
    assert lost(where, DEFENDERS) == 2 and lost(where, ATTACKERS) == 2
    assert where["A3"] == "0303" and where["V3"] == "0304"  # both stand


def test_D_half_A_removes_the_defenders_and_half_the_attackers(scenario, monkeypatch):
    _, outcome, decisions, where = battle(scenario, monkeypatch, "2:1", 3)   # 2:1 row 3: D½A
    assert outcome.result == "D½A"
    assert [(d.kind, d.side) for d in decisions] == [("losses", "vc_nva")] * 2  # all defenders: no choice
    assert lost(where, DEFENDERS) == 3 and lost(where, ATTACKERS) == 2 and where["V3"] == "0304"


def test_half_D_A_removes_half_the_defenders_and_all_attackers(scenario, monkeypatch):
    _, outcome, decisions, where = battle(scenario, monkeypatch, "1:3", 2)   # 1:3 row 2: ½DA
    assert outcome.result == "½DA"
    assert [(d.kind, d.side) for d in decisions] == [("losses", "allies")] * 2  # all attackers: no choice
    assert lost(where, DEFENDERS) == 2 and where["A3"] == "0303" and lost(where, ATTACKERS) == 3


def test_half_of_one_counter_is_that_counter(scenario, monkeypatch):
    # One NVA (3, mot 3) on one Marine (4, mot 3): 3:4 → 1:2; row 2 is ½D½A: each loses its only counter.
    ctx = make(scenario, Unit("V1", "nva", "vc_nva", "0304"), Unit("A1", "us_marines", "allies", "0303"))
    script_dice(monkeypatch, 2)
    outcome, decisions = drive(results.resolve(ctx, "assault", units(ctx, "V1"), units(ctx, "A1"), reason="t",
                                              attacker_side="vc_nva"))
    assert outcome.column == "1:2" and outcome.result == "½D½A" and decisions == []
    assert set(outcome.eliminated) == {"V1", "A1"}


# --- retreat (ZONE OF CONTROL: "Units may not retreat through an enemy ZOC") ----------------------


def test_retreat_avoids_river_enemies_and_enemy_zones(scenario):
    # A VC Local at 0303, attacked from 0304; a second allied unit at 0502 puts 0402 (clear,
    # adjacent to 0502) in an allied ZOC.  0302 river, 0304 enemy, 0203/0403 clear next to 0304:
    # only the jungle 0202 remains.
    ctx = make(scenario, Unit("V1", "vc_local", "vc_nva", "0303"), Unit("A1", "us_infantry", "allies", "0304"),
               Unit("A2", "us_infantry", "allies", "0502"))
    assert retreats.retreat_cells(ctx, ctx.state.unit("V1")) == ["0202"]
    assert retreats.in_enemy_zone(ctx, "0402", "vc_nva") and not retreats.in_enemy_zone(ctx, "0202", "vc_nva")


def test_a_face_down_dummy_blocks_retreat_like_a_unit(scenario):
    # The retreating side cannot tell a face-down dummy from a unit, so its zone counts; once
    # revealed it has none.  US Infantry at 0303 attacked from 0304, a VC/NVA counter at 0502.
    for hidden, cells in ((True, ["0202"]), (False, ["0202", "0402"])):
        ctx = make(scenario, Unit("A1", "us_infantry", "allies", "0303"), Unit("V1", "nva", "vc_nva", "0304"),
                   Unit("V2", "dummy", "vc_nva", "0502", hidden=hidden, dummy=True))
        assert retreats.retreat_cells(ctx, ctx.state.unit("A1")) == cells


def test_patrol_reaches_non_clear_hexes(scenario):
    # PATROL MODE: "2 in road and clear hexes, 1 in non-clear": a patrolling unit at 0102 reaches
    # the jungle 0202 next to it, and clear 0303 two hexes away (0102 → 0202 → 0303).
    ctx = make(scenario, Unit("A1", "us_infantry", "allies", "0102", mode="patrol"))
    assert retreats.in_enemy_zone(ctx, "0202", "vc_nva") and retreats.in_enemy_zone(ctx, "0303", "vc_nva")
    ctx = make(scenario, Unit("A1", "us_infantry", "allies", "0102"))
    assert not retreats.in_enemy_zone(ctx, "0202", "vc_nva") and not retreats.in_enemy_zone(ctx, "0303", "vc_nva")


def test_a_unit_that_cannot_retreat_is_eliminated(scenario, monkeypatch):
    # As above, with an allied unit in the jungle 0202 too: nowhere to go.  US Infantry
    # (motivation 2) at fixed 1:3 odds on three VC Local (motivation 1): one column right → 1:2;
    # row 1 of 1:2 is ½D: two of three lost, and the third cannot retreat.
    ctx = make(scenario, Unit("V1", "vc_local", "vc_nva", "0303"), Unit("V2", "vc_local", "vc_nva", "0303"),
               Unit("V3", "vc_local", "vc_nva", "0303"),
               Unit("A1", "us_infantry", "allies", "0304"), Unit("A2", "us_infantry", "allies", "0502"),
               Unit("A3", "cidg", "allies", "0202"))
    script_dice(monkeypatch, 1)
    outcome, decisions = drive(results.resolve(ctx, "assault", units(ctx, "A1"), units(ctx, "V1", "V2", "V3"),
                                              reason="t", attacker_side="allies", fixed_odds=read_odds("1:3")))
    assert outcome.column == "1:2" and outcome.result == "½D"
    assert [d.kind for d in decisions] == ["losses", "losses"]  # two chosen, the third cannot retreat
    assert set(outcome.eliminated) == {"V1", "V2", "V3"}


def test_mech_retreats_only_where_it_may_move(scenario):
    # MOVEMENT: "Mechanised units may only enter clear hexes, road hexes or any hex within 1 hex
    # of the road."  A US Mech at 0303 attacked from 0304 may not retreat into the jungle 0202
    # (no road within 1); 0402 is clear.
    ctx = make(scenario, Unit("A1", "us_mech", "allies", "0303"), Unit("V1", "nva", "vc_nva", "0304"))
    assert retreats.retreat_cells(ctx, ctx.state.unit("A1")) == ["0402"]


def test_retreat_respects_the_stacking_limit(scenario):
    # MOVEMENT: "Units may move in a stack of up to 4 units."  With four VC in the jungle 0202,
    # a VC Local attacked at 0303 from 0304 may retreat only to 0402 (see the map notes above).
    ctx = make(scenario, Unit("V1", "vc_local", "vc_nva", "0303"), Unit("A1", "us_infantry", "allies", "0304"),
               *(Unit(f"V{n}", "vc_local", "vc_nva", "0202") for n in range(2, 6)))
    assert retreats.retreat_cells(ctx, ctx.state.unit("V1")) == ["0402"]
    ctx = make(scenario, Unit("V1", "vc_local", "vc_nva", "0303"), Unit("A1", "us_infantry", "allies", "0304"),
               *(Unit(f"V{n}", "vc_local", "vc_nva", "0202") for n in range(2, 5)))
    assert retreats.retreat_cells(ctx, ctx.state.unit("V1")) == ["0202", "0402"]


def test_artillery_cannot_retreat(scenario):
    ctx = make(scenario, Unit("A1", "artillery", "allies", "0101"))
    assert retreats.retreat_cells(ctx, ctx.state.unit("A1")) == []


# --- hidden counters and dummies (UNITS, SPOTTING) -------------------------------------------------


def test_attacking_a_hidden_stack_reveals_it_and_removes_dummies(scenario, monkeypatch):
    ctx = make(scenario, Unit("A1", "us_marines", "allies", "0304"),
               Unit("V1", "vc_local", "vc_nva", "0303", hidden=True),
               Unit("V2", "dummy", "vc_nva", "0303", hidden=True, dummy=True))
    script_dice(monkeypatch, 6)
    # Marines 3 on VC Local 1 (the dummy counts nothing): 3:1, motivation 3 against 1 → 4:1; row 6: D½A.
    outcome, _ = drive(results.resolve(ctx, "assault", units(ctx, "A1"), units(ctx, "V1", "V2"), reason="t",
                                      attacker_side="allies"))
    assert (outcome.column, outcome.result) == ("4:1", "D½A")
    assert not any(u.hidden for u in ctx.state.units)
    assert ctx.state.unit("V2").location == ELIMINATED
    assert ctx.state.unit("A1").location == ELIMINATED  # half of one attacker
    assert ctx.state.resource("allies", "vp") == 1  # the VC Local scores, the dummy does not


def test_only_dummies_defending_means_no_roll(scenario):
    ctx = make(scenario, Unit("A1", "us_marines", "allies", "0304"),
               Unit("V1", "dummy", "vc_nva", "0303", hidden=True, dummy=True))
    outcome, _ = drive(results.resolve(ctx, "assault", units(ctx, "A1"), units(ctx, "V1"), reason="t",
                                      attacker_side="allies"))
    assert outcome.roll is None and ctx.state.rolls == 0
    assert ctx.state.unit("V1").location == ELIMINATED and ctx.state.unit("A1").location == "0304"


def _fight_or_bombard(scenario, procedure: str, words: tuple[str, ...], attacker: Unit, hidden: Unit):
    """``do fight``/``do bombard`` with ``attacker`` and one face-down VC/NVA counter ``hidden`` at 0303:
    the allies' first decision, and the context."""
    from driving import do_call

    from warbook.interpreter.procedures import PROCEDURES, load_procedures

    load_procedures()
    ctx = make(scenario, attacker, hidden)
    flow = PROCEDURES[procedure](ctx, do_call(ctx.rules, procedure, *words))
    return ctx, flow, next(flow)


@pytest.mark.parametrize("procedure, words, attacker", [
    ("fight", ("assault",), Unit("A1", "us_marines", "allies", "0304")),
    ("bombard", ("bombardment",), Unit("A1", "artillery", "allies", "0101")),
])
def test_a_face_down_trap_is_offered_as_a_target_like_a_dummy(scenario, procedure, words, attacker):
    # SPOTTING "if not spotted the allied player may attack the hidden counter (obviously he won't
    # know what it is until the attack is declared)": the allies are offered the same attack on a
    # face-down booby trap as on a face-down dummy (issue 17 item 2), and the trap, found, is turned
    # face up and stays: it is no unit to fight, nothing is rolled (as against a dummy alone).
    offered = {}
    for kind in ("booby_trap", "dummy"):
        hidden = Unit("V1", kind, "vc_nva", "0303", hidden=True, dummy=kind == "dummy")
        ctx, flow, decision = _fight_or_bombard(scenario, procedure, words, attacker, hidden)
        offered[kind] = [str(o) for o in decision.options]
        chosen = next(o for o in decision.options if o.kind == procedure.replace("fight", "attack"))
        assert chosen.args[0] == "0303"
        try:
            flow.send(chosen)
        except StopIteration:
            pass
        assert ctx.state.rolls == 0
        v1 = ctx.state.unit("V1")
        if kind == "booby_trap":
            assert not v1.hidden and v1.location == "0303"
            assert any("no unit to fight; nothing is rolled" in e.get("text", "") for e in ctx.events)
        else:
            assert v1.location == ELIMINATED
        assert ctx.state.unit("A1").location == attacker.location
    assert offered["booby_trap"] == offered["dummy"]


# --- expected worth (for agents) ---------------------------------------------------------------


def test_expected_worth_on_the_two_to_one_column(scenario):
    # Three NVA (9) on US Marines (4), motivation 3 both: 9:4 → 2:1.  Rows 1-6 of 2:1 are
    # D D D½A D½A ½D½A ½D½A, worth +2 +2 +1 +1 0 0: (2+2+1+1+0+0)/6 = 1.
    ctx = make(scenario, *(Unit(i, "nva", "vc_nva", "0304") for i in ATTACKERS),
               Unit("A1", "us_marines", "allies", "0303"))
    attackers, defenders = units(ctx, *ATTACKERS), units(ctx, "A1")
    assert combat.expected_worth(ctx, "assault", attackers, defenders) == 1
    # With WATCH's -1: rolls 1..6 read rows 1 1 2 3 4 5: D D D D½A D½A ½D½A → (2+2+2+1+1+0)/6 = 4/3.
    assert combat.expected_worth(ctx, "assault", attackers, defenders, roll_modifier=-1) == Fraction(4, 3)


def test_expected_worth_on_the_one_to_two_column(scenario):
    # One NVA (3) on one Marine (4): 1:2, rows ½D ½D½A ½D½A ½A ½A ½A: (1+0+0-1-1-1)/6 = -1/3.
    ctx = make(scenario, Unit("V1", "nva", "vc_nva", "0304"), Unit("A1", "us_marines", "allies", "0303"))
    assert combat.expected_worth(ctx, "assault", units(ctx, "V1"), units(ctx, "A1")) == Fraction(-1, 3)


def test_nested_roll_on_a_table_and_count_losses(scenario, monkeypatch):
    # FIRE AGAINST AIRCRAFT: "roll D10: 1-2 = hit. Roll again 1-2 = 1 unit KO".  A 2 then a 1:
    # one of the two targeted aircraft is lost, chosen by its owner.
    ctx = make(scenario, Unit("V1", "nva", "vc_nva", "0303"),
               Unit("A1", "gunship", "allies", "0304"), Unit("A2", "huey", "allies", "0304"))
    script_dice(monkeypatch, 2, 1)
    roll, text = combat.roll_on_table(ctx, "aa_hit", reason="ground fire")
    assert (roll, text) == (2, "hit")
    engagement = combat.Engagement(ctx, None, units(ctx, "V1"), units(ctx, "A1", "A2"), "vc_nva", "ground fire")
    _, decisions = drive(results.apply_result(ctx, text, engagement))
    assert [(d.kind, d.side) for d in decisions] == [("losses", "allies")]
    assert engagement.eliminated == ["A1"] and ctx.state.unit("A2").location == "0304"
