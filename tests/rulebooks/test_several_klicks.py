"""rulebooks/several_klicks.rules against the seed text of Several Klicks in the Nam.

The expected values are the source's own tables, pasted below verbatim (tabs
and all) from the seed, and read with a few lines of plain Python: nothing
here is copied from warbook's output.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from warbook.dsl import Severity, load_rulebook
from warbook.dsl.lint import lint_path
from warbook.dsl.tables import TableView
from warbook.dsl.values import read_range

RULEBOOK = Path(__file__).resolve().parents[2] / "rulebooks" / "several_klicks.rules"

# UNITS: the troop type table, verbatim.
SEED_UNITS = """\
Type	Move	Attack	Defend	Motivation	Range	Notes
CIDG	9	1	2	2
US Infantry*	6	2	4	2
US Mech	8	4	4	3
US Marines*	6	3	4	3
Armour	8	5	5	3
Special Forces	7	4	4	4
ARVN*	6	2	2	1
ARVN Mech	8	3	3	2
VC (Local)	9	1	1	1
VC (Mainforce)*	9	2	3	2
NVA*	9	3	4	3
NVA Sappers	9	4	4	4
Mortars	2	5	2	3	2
Artillery	0	6	2	3	8
Gunship	All	5
Huey	All	1				Carries 2
Obs Chopper	All	2
Attack planes	All	10
"""

# The untitled terrain table under ZONE OF CONTROL, verbatim.
SEED_TERRAIN = """\
Type	Movement Cost	Defence Value	To Spot
Clear	1	1 (2 mech)	Auto
Road	½ (1 infantry)	1 (2 mech)	Auto
Elephant Grass	2	2 (1 mech)	1-3
Landing Zone	2	2 (1 mech)	Auto
Jungle	3	3 (1 mech)	1-2
Village	1	2 (1 mech)	1-3
Town	1	4 (1 mech)	1-2
Firebase	1	4 (1 mech)	1-2
Bunker	2	4 (1 mech)	1
Paddy Fields	2	2 (1 mech)	1-3
Hill	2	2 (1 mech)	1-3
Mountain	4	4 (1 mech)	1
River	No entry
"""

# COMBAT PHASE: the Combat Resolution Table, verbatim.
SEED_CRT = """\
DIE ROLL	1:4	1:3	1:2	1:1	2:1	3:1	4:1
1	½A	½D	½D	½D	D	D	D
2	A	½DA	½D½A	½D½A	D	D	D
3	A	A	½D½A	½D½A	D½A	D	D
4	A	A	½A	½D½A	D½A	D	D
5	A	A	½A	½D½A	½D½A	½D½A	D
6	A	A	½A	½A	½D½A	½D½A	D½A
"""

# TURN SEQUENCE, verbatim.
SEED_TURN_SEQUENCE = """\
Declare units on WATCH orders.
Declare units on PATROL orders (Allies only).
Move Phase.
Bombardment Phase
Air Defence Phase
Combat Phase
"""

# Every heading of the source, in order (the terrain table and the movement
# rules after it are untitled, and declared under names of our own).
SEED_HEADINGS = [
    "INTRODUCTION", "UNITS", "TURN SEQUENCE", "ZONE OF CONTROL", "WATCH MODE", "PATROL MODE",
    "SPOTTING", "BOMBARDMENT PHASE", "COMBAT PHASE", "FIRE AGAINST AIRCRAFT", "BOOBY TRAPS",
]


def _table(text: str) -> list[list[str]]:
    return [line.split("\t") for line in text.splitlines()]


@pytest.fixture(scope="module")
def rulebook():
    return load_rulebook(RULEBOOK)


def _unit_by_label(rulebook, label: str):
    found = [d for d in rulebook.of_kind("unit") if d.label == label]
    assert len(found) == 1, f"no single unit labelled {label!r}"
    return found[0]


def _terrain_by_label(rulebook, label: str):
    found = [d for d in rulebook.of_kind("terrain") if d.label == label]
    assert len(found) == 1, f"no single terrain labelled {label!r}"
    return found[0]


def _factor(decl, name: str):
    prop = decl.first(f"factor:{name}")
    return None if prop is None else prop.get("value")


def _who(prop) -> tuple[str, ...]:
    return tuple(str(r) for r in prop.get("who") or ())


def _tags(decl) -> set[str]:
    return {str(t) for p in decl.all("tags") for t in p.get("tags")}


# --- Lint --------------------------------------------------------------------


def test_rulebook_lints_without_errors():
    errors = [d for d in lint_path(RULEBOOK) if d.severity is Severity.ERROR]
    assert errors == []


def test_header():
    rb = load_rulebook(RULEBOOK)
    header = rb.get("rulebook", "rulebook")
    assert header.label == "Several Klicks in the Nam"
    assert header.first("players").get("count") == 2
    assert header.first("grid").has("hex")
    aliases = {str(n) for p in header.all("alias") for n in p.get("names")}
    assert {"klicks", "several-klicks"} <= aliases
    # The source gives no scale: none may be invented.
    assert header.first("scale") is None


# --- CRT -----------------------------------------------------------------------


def test_crt_columns_and_rows_as_printed(rulebook):
    seed = _table(SEED_CRT)
    view = TableView.from_declaration(rulebook.get("table", "crt"))
    assert [c.label for c in view.columns] == seed[0][1:]
    assert [c.odds.ratio for c in view.columns] == [
        Fraction(1, 4), Fraction(1, 3), Fraction(1, 2), Fraction(1), Fraction(2), Fraction(3), Fraction(4)]
    assert view.decl.first("key").get("text").text == seed[0][0]
    assert view.dice == "d6"
    assert view.lookup == "odds"
    assert len(view.rows) == len(seed) - 1
    for printed, row in zip(seed[1:], view.rows):
        assert row.key == printed[0]
        assert row.roll == read_range(printed[0])
        assert [c.text for c in row.cells] == printed[1:], f"CRT row {printed[0]}"
        assert not any(c.provisional for c in row.cells)


def test_crt_rounds_for_defender_and_orders_results(rulebook):
    crt = rulebook.get("table", "crt")
    # "Compare the two figures … (round in the defenders favour)."
    assert crt.first("rounding").has("defender")
    assert crt.first("better").has("right")
    assert crt.first("higher").has("worse")


def test_crt_off_table_rules_are_marked_as_gaps(rulebook):
    crt = rulebook.get("table", "crt")
    for name in ("above", "below", "rolls"):
        prop = crt.first(name)
        assert prop is not None and prop.provenance.gaps, f"{name!r} is not in the source and must carry a gap"


def test_every_crt_cell_is_a_declared_result(rulebook):
    view = TableView.from_declaration(rulebook.get("table", "crt"))
    for row in view.rows:
        for cell in row.cells:
            assert rulebook.get("result", cell.text) is not None, cell.text


def test_crt_worth_follows_the_table_layout(rulebook):
    """Down a column results get worse for the attacker, along a row better (the layout the errata rely on)."""
    view = TableView.from_declaration(rulebook.get("table", "crt"))
    worth = [[rulebook.get("result", c.text).first("worth").get("value") for c in r.cells] for r in view.rows]
    for values in worth:
        assert values == sorted(values)
    for column in zip(*worth):
        assert list(column) == sorted(column, reverse=True)


# --- Results legend --------------------------------------------------------------


def _effects(decl) -> list[str]:
    return [p.text for p in decl.all("effect")]


def test_legend_a_and_d_are_read_against_the_printed_legend(rulebook):
    a, d = rulebook.get("result", "A"), rulebook.get("result", "D")
    assert _effects(a) == ["effect eliminate all attackers"]
    assert _effects(d) == ["effect eliminate all defenders"]
    # The printed legend is kept, verbatim, in an errata.
    assert any("A : All defenders counters removed" in e.text for e in a.provenance.errata)
    assert any("D : All attackers counters removed" in e.text for e in d.provenance.errata)


def test_half_results_as_printed(rulebook):
    half_d, half_a, both = (rulebook.get("result", n) for n in ("½D", "½A", "½D½A"))
    assert half_d.first("text").get("text").text == "½D: Half the defenders counters removed, they retreat 1 hex"
    assert half_a.first("text").get("text").text == "½A: Half the attackers counters removed, they retreat 1 hex"
    assert both.first("text").get("text").text == "½D½A: Both sides lose half their counters and both units stand."
    assert _effects(half_d) == ["effect eliminate half defenders", "effect retreat defenders 1"]
    assert _effects(half_a) == ["effect eliminate half attackers", "effect retreat attackers 1"]
    assert "effect stand both" in _effects(both)
    assert {"effect eliminate half defenders", "effect eliminate half attackers"} <= set(_effects(both))


def test_codes_missing_from_the_legend_are_annotated(rulebook):
    half_d_a = rulebook.get("result", "½DA")
    assert half_d_a.provenance.errata, "½DA is not in the legend: its reading must be an errata"
    d_half_a = rulebook.get("result", "D½A")
    assert d_half_a.provenance.gaps or d_half_a.provenance.errata


# --- Combat and the motivation shift ------------------------------------------------


def test_combat_procedure(rulebook):
    combat = rulebook.get("combat", "assault")
    assert str(combat.first("table").get("table")) == "crt"
    assert combat.first("compare").has("odds")
    assert combat.has("adjacent")
    assert str(combat.first("attack").get("factor")) == "attack"
    assert str(combat.first("defence").get("factor")) == "defend"
    assert combat.first("terrain").has("multiplies")
    # "The highest motivated unit attacks first … down to the lowest."
    order = combat.first("order")
    assert str(order.get("factor")) == "motivation" and order.has("descending")


def test_motivation_shift_is_an_errata(rulebook):
    shift = rulebook.get("combat", "assault").first("column")
    assert str(shift.get("factor")) == "motivation"
    assert shift.has("higher")
    assert any("Shift the column left by the difference in motivation levels" in e.text
               for e in shift.provenance.errata)


def test_bombardment_uses_range_and_the_crt(rulebook):
    bombard = rulebook.get("combat", "bombardment")
    assert str(bombard.first("range").get("factor")) == "range"
    assert str(bombard.first("table").get("table")) == "crt"
    assert str(bombard.first("attack").get("factor")) == "attack"


# --- Units -------------------------------------------------------------------------


SEED_FACTOR_COLUMNS = ("move", "attack", "defend", "motivation", "range")


@pytest.mark.parametrize("printed", _table(SEED_UNITS)[1:], ids=lambda r: r[0])
def test_unit_factors_as_printed(rulebook, printed):
    label, cells = printed[0], printed[1:]
    unit = _unit_by_label(rulebook, label)
    for factor, cell in zip(SEED_FACTOR_COLUMNS, cells + [""] * 5):
        value = _factor(unit, factor)
        if cell == "":
            assert value is None, f"{label}: blank {factor} must be absent, not {value!r}"
        elif cell == "All":
            assert value == "all"
        else:
            assert value == Fraction(int(cell)), f"{label} {factor}"


def test_every_unit_row_is_encoded(rulebook):
    printed = {row[0] for row in _table(SEED_UNITS)[1:]}
    assert {u.label for u in rulebook.of_kind("unit")} == printed


def test_huey_carries_2(rulebook):
    notes = {row[0]: row[6] for row in _table(SEED_UNITS)[1:] if len(row) > 6}
    assert notes == {"Huey": "Carries 2"}
    huey = _unit_by_label(rulebook, "Huey")
    assert huey.first("carries").get("count") == 2
    for unit in rulebook.of_kind("unit"):
        if unit is not huey:
            assert unit.first("carries") is None


def test_foot_units_are_infantry(rulebook):
    """TERRAIN TABLE "Road ½ (1 infantry)" and PATROL MODE "(only infantry units) … (2 for special
    forces)": infantry is every type that moves on foot, Special Forces among them, whether or not
    the UNITS table stars it; mech, armour, artillery and aircraft are not."""
    foot = {"CIDG", "US Infantry*", "US Marines*", "Special Forces", "ARVN*", "VC (Local)",
            "VC (Mainforce)*", "NVA*", "NVA Sappers", "Mortars"}
    for row in _table(SEED_UNITS)[1:]:
        unit = _unit_by_label(rulebook, row[0])
        assert ("infantry" in _tags(unit)) == (row[0] in foot), row[0]
        assert (str(unit.first("movement").get("class")) == "foot") == (row[0] in foot), row[0]
    assert rulebook.get("tag", "infantry").provenance.gaps, "the infantry reading must be marked as a gap"


def test_air_units_move_all_and_have_no_defence(rulebook):
    for row in _table(SEED_UNITS)[1:]:
        unit = _unit_by_label(rulebook, row[0])
        if row[1] == "All":
            assert str(unit.first("movement").get("class")) == "air"
            assert _factor(unit, "defend") is None
            defend = unit.first("factor:defend")
            assert defend is not None and defend.provenance.gaps, f"{row[0]}: the blank Defend must be a marked gap"
    assert rulebook.get("movement", "air").has("unlimited")


def test_sides(rulebook):
    allies, vc_nva = rulebook.get("side", "allies"), rulebook.get("side", "vc_nva")
    assert allies.first("counters").has("up")
    assert vc_nva.first("counters").has("down")
    assert vc_nva.first("dummies").has("units")
    for label in ("VC (Local)", "VC (Mainforce)*", "NVA*", "NVA Sappers"):
        assert str(_unit_by_label(rulebook, label).first("side").get("side")) == "vc_nva"
    for label in ("US Infantry*", "US Mech", "US Marines*", "ARVN*", "ARVN Mech"):
        assert str(_unit_by_label(rulebook, label).first("side").get("side")) == "allies"


# --- Terrain -------------------------------------------------------------------------


def _cost(decl, who: tuple[str, ...] = ()):
    for prop in decl.all("cost"):
        if _who(prop) == who:
            return "no entry" if prop.has("no") else prop.get("amount")
    return None


def _defence(decl, who: tuple[str, ...] = ()):
    for prop in decl.all("defence"):
        if _who(prop) == who:
            return prop.get("multiplier")
    return None


@pytest.mark.parametrize("printed", _table(SEED_TERRAIN)[1:], ids=lambda r: r[0])
def test_terrain_row_as_printed(rulebook, printed):
    label, cost = printed[0], printed[1]
    terrain = _terrain_by_label(rulebook, label)
    if cost == "No entry":
        assert _cost(terrain) == "no entry"
        assert len(printed) == 2
        assert not terrain.all("defence") and terrain.first("spot") is None
        return
    # Movement cost: "½ (1 infantry)" or a plain number.
    if "(" in cost:
        general, special = cost.rstrip(")").split(" (")
        amount, who = special.split(" ")
        assert _cost(terrain, (who,)) == Fraction(int(amount))
        assert _cost(terrain) == {"½": Fraction(1, 2)}.get(general, general)
    else:
        assert _cost(terrain) == Fraction(int(cost))
    # Defence value: "2 (1 mech)".
    general, special = printed[2].rstrip(")").split(" (")
    mech_value, mech = special.split(" ")
    assert _defence(terrain) == Fraction(int(general))
    assert _defence(terrain, (mech,)) == Fraction(int(mech_value))
    # To spot: "Auto" or a range of die results.
    spot = terrain.first("spot")
    if printed[3] == "Auto":
        assert spot.has("auto")
    else:
        assert spot.get("roll") == read_range(printed[3])


def test_every_terrain_row_is_encoded(rulebook):
    assert {t.label for t in rulebook.of_kind("terrain")} == {row[0] for row in _table(SEED_TERRAIN)[1:]}


def test_mechanised_movement_limits(rulebook):
    mech = rulebook.get("movement", "vehicle")
    lines = [([str(w) for w in p.get("where")], p.get("distance")) for p in mech.all("enters")]
    # "may only enter clear hexes, road hexes or any hex that is within 1 hex of the road"
    assert (["clear", "road"], None) in lines
    assert (["road"], 1) in lines
    for label in ("US Mech", "ARVN Mech", "Armour"):
        unit = _unit_by_label(rulebook, label)
        assert str(unit.first("movement").get("class")) == "vehicle"
        assert "mech" in _tags(unit)


def test_boarding_costs_1_movement_point(rulebook):
    foot = rulebook.get("movement", "foot")
    assert foot.first("board").get("points") == 1
    assert [str(c) for c in foot.first("transported").get("classes")] == ["air"]


def test_stacking(rulebook):
    stacks = rulebook.get("stacking", "stacks")
    limits = {_who(p): p.get("count") for p in stacks.all("limit")}
    assert limits == {(): 4, ("helicopter",): 4}
    assert stacks.first("enemy").has("forbidden")


# --- Zone of control, modes, spotting, booby traps --------------------------------------


def test_zone_of_control(rulebook):
    zoc = rulebook.get("zone", "zoc")
    assert [str(w) for w in zoc.first("into").get("where")] == ["clear", "road"]
    assert zoc.first("range").get("range") == 1
    for prop in ("stops", "zone", "blocks"):
        assert zoc.has(prop)


def test_watch_mode(rulebook):
    watch = rulebook.get("mode", "watch")
    assert watch.first("roll").get("modifier") == -1
    assert str(watch.first("roll").get("table")) == "crt"
    assert watch.first("forbids").has("move")
    assert watch.has("fires")


def test_patrol_mode(rulebook):
    patrol = rulebook.get("mode", "patrol")
    assert str(patrol.first("side").get("side")) == "allies"
    assert {str(w) for w in patrol.first("for").get("who")} == {"infantry"}  # Special Forces among them
    zone = {_who(p): p.get("modifier") for p in patrol.all("zone")}
    assert zone == {(): 1, ("special_forces",): 2}
    spot = {_who(p): p.get("range") for p in patrol.all("spot")}
    assert spot == {(): 2, ("special_forces",): 3}
    forbidden = {w.text for p in patrol.all("forbids") for w in p.words[1:]}
    assert forbidden == {"move", "attack", "transport"}


def test_spotting(rulebook):
    spotting = rulebook.get("spotting", "spotting")
    ranges = {(str(p.get("mode")) if p.get("mode") else None, tuple(str(w) for w in p.get("who") or ())):
              p.get("range") for p in spotting.all("range")}
    assert ranges[(None, ())] == 1
    assert ranges[("patrol", ())] == 2
    assert spotting.has("unspotted")
    assert spotting.first("roll").provenance.gaps, "the To Spot die is not printed"


def test_booby_traps(rulebook):
    trap = rulebook.get("marker", "booby_trap")
    assert trap.has("one") and trap.has("never")
    effects = _effects(trap)
    assert any(e.startswith("effect stop") for e in effects)
    assert "effect attack opponent of foot vehicle at 2:1 ignoring terrain" in effects


# --- Fire against aircraft --------------------------------------------------------------


def test_fire_against_aircraft_tables(rulebook):
    # "To hit the aircraft roll D10: 1-2 = hit. Roll again 1-2 = 1 unit KO,
    #  3-7 = air units abandon mission (the LZ is too hot!) 8-10 = No effect."
    to_hit = TableView.from_declaration(rulebook.get("table", "aa_hit"))
    assert to_hit.dice == "d10"
    assert [(r.key, r.cells[0].text, r.cells[0].provisional) for r in to_hit.rows] == [
        ("1-2", "hit", False), ("3-10", "miss", True)]
    effect = TableView.from_declaration(rulebook.get("table", "aa_effect"))
    assert effect.dice == "d10"
    labels = [(r.key, rulebook.get("result", r.cells[0].text).label) for r in effect.rows]
    assert labels == [("1-2", "1 unit KO"), ("3-7", "Air units abandon mission"), ("8-10", "No effect")]
    assert _effects(rulebook.get("result", "hit")) == ["effect roll d10 on aa_effect"]
    assert _effects(rulebook.get("result", "KO")) == ["effect eliminate 1 targets"]


# --- Turn sequence ------------------------------------------------------------------------


def test_turn_sequence_order(rulebook):
    sequence = rulebook.get("sequence", "turn")
    phases = [c for c in sequence.children if c.kind == "phase"]
    assert [p.label for p in phases] == SEED_TURN_SEQUENCE.splitlines()
    procedures = [[p.text for p in phase.all("do")] for phase in phases]
    assert procedures[0] == ["do declare watch"]
    assert procedures[1] == ["do declare patrol"]
    assert procedures[2][0] == "do move order by motivation ascending"
    assert procedures[3] == ["do bombard with bombardment held for fire at aircraft"]
    assert procedures[4][0].startswith("do fire at aircraft with aa_hit")
    assert procedures[5][-1] == "do fight assault"
    # "Declare units on PATROL orders (Allies only)."
    assert str(phases[1].first("side").get("side")) == "allies"


# --- Provenance -------------------------------------------------------------------------


def test_every_heading_is_a_section(rulebook):
    declared = {d.name for d in rulebook.of_kind("section")}
    assert set(SEED_HEADINGS) <= declared


def test_citations_name_declared_sections_and_every_rule_section_is_cited(rulebook):
    declared = {d.name: d for d in rulebook.of_kind("section")}
    cited = set()
    for decl in rulebook.walk():
        cites = [decl.provenance, *(p.provenance for p in decl.properties), *(r.provenance for r in decl.rows)]
        for provenance in cites:
            cited.update(provenance.section_names)
    assert cited <= set(declared), cited - set(declared)
    uncited = {name for name, d in declared.items() if name not in cited and not d.has("prose")}
    assert uncited == set()
    # Only the introduction and the closing title line are prose.
    assert {name for name, d in declared.items() if d.has("prose")} == {"INTRODUCTION", "CREDIT"}


def test_no_victory_rules_are_invented(rulebook):
    assert rulebook.of_kind("victory") == ()
    assert rulebook.of_kind("award") == ()
