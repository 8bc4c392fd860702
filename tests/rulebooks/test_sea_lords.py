"""rulebooks/sea_lords.rules against the seed text of Sea Lords on the Mekong Delta.

The expected values are the source's own charts and rules, pasted below
verbatim (tabs written as ``\\t``) from the seed, and read with a few lines of
plain Python; the five CRT cells the source does not print but a published
play report observed (mtngrown.github.io, 2015-06-13, "Operation Sealords and
the game") are literals too.  Nothing here is copied from warbook's output.
When the seed file is present, a test checks every pasted block is in it.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from warbook.dsl import Severity, load_rulebook
from warbook.dsl.lint import lint_path
from warbook.dsl.model import Declaration
from warbook.dsl.tables import TableView, cell_worth, result_parts

ROOT = Path(__file__).resolve().parents[2]
RULEBOOK = ROOT / "rulebooks" / "sea_lords.rules"
SEED = Path("/work/shared/seeds/000_1665db6584a31974.txt")

# --- The source, verbatim -------------------------------------------------------

# 27.0, SEALORDS Terrain Effects Chart, and the source gap printed under it.
SEED_TEC = (
    "Terrain Type\tRecon Effects\tCombat Effect\nMajor River\tAttacker + 1\tNo Effect\n"
    "Minor River, Canal\tNo Effect\tNo Effect\nSwamp, Mangrove Forest\tDefender + 1\t1L Communists Defending\n"
    "Coastal\tAttacker + 1\tNo Effect\nHigh Seas (Only N Units)\tNo Effect\tNo Effect\nCity\tAttacker + 1\t2L\n"
    "Town\tNo Effect\t1L\nSaigon LoC\tOther Terrain\tOther Terrain"
)
SEED_TEC_GAP = (
    '[Source gap: the Saigon LoC and Communist Base Square rows both read "Other Terrain" in both columns, '
    "as printed. The text does not say what those entries should be, so none is supplied here. Consult the "
    "printed mapsheet chart.]"
)

# 27.0, SEALORDS Combat Results Table (as printed: row 1, and three cells of row 2) and its notes.
SEED_CRT = (
    "Die Roll\t<1*\t1\t2\t3\t4-5\t6-7\t8-9\t10-12\t13-15\t16-18\t19-22\t23-26\t27 +\n"
    "1\tZ\tZ\tZ\tZ\tZ\tZ\tZ\tZ\tZ\tZ\tZ\tZ\tR+Z\n"
    "2\tA\tA\tA"
)
SEED_CRT_HEADING = "Columns are headed by Total Firepower Attacking. Rows are the die roll."
SEED_CRT_STAR = "* Use this column only if shifted into it."
SEED_CRT_NOTE = (
    '[Source note: "K+B+ A" in the die-roll 2 / 27+ cell is printed with a stray space; reproduced as printed.]'
)

# The play report's observed cells: (column, die roll, result).
OBSERVED_CRT_CELLS = [("6-7", 2, "A"), ("2", 5, "R"), ("2", 2, "A"), ("3", 6, "K"), ("8-9", 6, "K+B")]

# 11.5 Combat Results.
SEED_RESULTS = (
    "R: place one targeted unit in the Refit Box.\nK: eliminate one targeted unit.\n"
    "K + R: eliminate one targeted unit; place one other targeted unit in the Refit Box.\n"
    "2K: eliminate two targeted units.\n"
    "A: place one airstrike or air surveillance marker in the Refit Box.\n"
    "Z: place one firing unit in the Refit Box.\n"
    "B: all targeted units break-off. Follow the same procedure given above in 10.3, 10.4 and 10.5."
)

# 27.0, CRT Column Shifts Summary.
SEED_SHIFTS = (
    "CRT Column Shifts Summary\n\n1L or 2L: defender's terrain or base (see Terrain Effects Chart)\n"
    "1L: defender has bunker in square\n1R: firing player has headquarters, CCB or Cadre in square."
)

# 27.0, SEALORDS Random Events Table, the event explanations, and the Mapsheet Errata.
SEED_EVENTS_TABLE = (
    "Die Roll\tFree World Event\tCommunist Event\n1\tEmergency Reinforcements\tBombing in Cambodia\n"
    "2\tIntelligence Breakthrough\tDau Tranh\n3\tOER Time\tDispute in Politburo\n"
    "4\tMedia Circus\tIn-Country Fighting\n5\tWeather\tRocket Attack\n6\tNo Event\tNo Event"
)
SEED_FREE_WORLD_EVENTS = (
    "Emergency Reinforcements: If you currently have at least 25 more VP than the Communist, roll a die and "
    "lose that number of CP. If the Communist currently has at least 25 more VP than you, roll a die and gain "
    "that number of CP.\n"
    "Intelligence Breakthrough: You may flip face up all Communist units in any one square on the map.\n"
    "OER Time: If you currently have at least 25 more VP than the Communist, roll a die and receive that number "
    "of CP. If the Communist currently has at least 25 more VP than you, roll a die and lose that number of CP.\n"
    "Media Circus: For this coming turn, double the number of VP both players receive for all game actions.\n"
    "Weather: Reduce the number of CP you receive as reinforcement this turn by one die roll (to a minimum of 0)."
)
SEED_COMMUNIST_EVENTS = (
    "Dau Tranh: Roll a die and add that result to your CP total.\n"
    "Dispute in Politburo: Roll a die and subtract that result from your CP total.\n"
    "In-Country Fighting: Roll a die. On a 1-2, the Free World player picks a reinforcement and places it at "
    "no CP cost. On a 3-6, he must remove any one battalion from the map and place it in his reinforcement pool.\n"
    "Rocket Attack: If you have at least one unit or guerrilla marker adjacent to Saigon or Vung Tau, you "
    "receive 2 VP.\n"
    "Bombing in Cambodia: Reduce the number of CP you receive this turn by a die roll."
)
SEED_MAPSHEET_ERRATA = 'The last line of the "In-Country Fighting" Communist event should read: reinforcement pool.'

# 27.0, SEALORDS Victory Points Table.
SEED_VP = (
    "Communist VP\n\nEvent\tPoints\tNotes\n"
    "Each Free World airstrike marker placed in the Refit Box as a result of combat.\t1\tScored as they occur.\n"
    "Each US or Allied unit placed in the Refit Box as a result of combat.\t2\tScored as they occur.\n"
    "Each US or Allied unit eliminated as a result of combat.\t4\tScored as they occur.\n"
    "Each South Vietnamese unit placed in the Refit Box as a result of combat.\t3 for divisions; 1 for all others"
    "\tScored as they occur.\n"
    "Each South Vietnamese unit eliminated as a result of combat.\t6 for divisions; 2 for all others"
    "\tScored as they occur.\n"
    "Each city square solely occupied by Communist units.\t2\tScored during each Communist Victory Check Phase.\n"
    "Each town square solely occupied by Communist units.\t1\tScored during each Communist Victory Check Phase. "
    "Cambodian towns count as 0.\n\n"
    "Free World VP\n\nEvent\tPoints\tNotes\n"
    "Each Communist unit placed in the refit box as a result of combat.\t2 for cadres, HQs and bases; 2 for "
    "Infiltration Replacement and Supply units; 0 for deception units; 1 all others\tScored as they occur.\n"
    "Each Communist unit eliminated as a result of combat.\t4 for cadres, HQs and bases; 3 for Infiltration "
    "Replacement and Supply units; 0 for deception units; 2 all others\tScored as they occur.\n"
    "Each printed Communist Base square solely occupied by Free World units\t3\tScored during each Free World "
    "Victory Check Phase.\n"
    "Revealing Communist guerilla markers\tArms Cache = 1; Supply Cache = 1; All Others = 0\tScored as they occur."
)

# 27.0, SEALORDS CP Table.
SEED_CP = (
    "Communist\n\nAction\tCP Cost\tPhase\n"
    "Pick reinforcement unit\t2 in 1965-67; 3 in 1968 and later\tReinforcement\n"
    "Initiate a refit\t1\tReinforcement\n"
    "Conduct an Operation using a headquarters\t2\tOperations\n"
    "Conduct an Operation without a headquarters\t2 per unit\tOperations\n"
    "Move via Strategic Redeployment\tx2 normal transport cost\tOperations\n"
    "Provide logistic support to an Out of Supply unit\t1\tLogistics\n\n"
    "Free World\n\nAction\tCP Cost\tPhase\n"
    "Pick a reinforcement unit from the Pool\t2\tReinforcement\n"
    "Place a sensor marker\t1\tReinforcement\n"
    "Initiate refit\t1 if a US/Allied unit; 2 if an ARVN unit\tReinforcement\n"
    "Conduct an Operation using a headquarters\t2 if US headquarters; 3 if an ARVN headquarters\tOperations\n"
    "Conduct an Operation without a headquarters\t2 per US/Ally unit; 3 per ARVN unit\tOperations\n"
    "Move via Strategic Redeployment\tUS/Ally unit: twice transport cost of the unit; ARVN unit: three times "
    "transport cost of the unit\tOperations\n"
    "Utilize an airstrike or naval gunfire marker\t1\tAir\n"
    "Provide logistic support to an Out of Supply unit"
)

# 27.0, SEALORDS Transport Costs Table, and the source flags printed under it.
SEED_TRANSPORT = (
    "Unit Type\tNumber of Transport Points Needed\nCommunist\nHeadquarters, Cadre, Sapper, Deception\t1\n"
    "Main Force, Regional Force, Engineer Battalion\t2\nFree World\nCompany (any type)\t1\n"
    "Infantry, Marine, Ranger, Local Force Battalion\t2\nEngineer Battalion\t3\nMechanized Battalion\t4\n"
    "Headquarters\t3\nPBR\t3 (only helicopter may transport)"
)

# 27.0, SEALORDS Turn Record Track (the last note, cut off by the section's end in the seed, follows it).
SEED_TURNS = (
    'Turn\tNote\n1\tStart all scenarios\n2\n3\n4\n5\n6\tEnd "Game Warden" Scenario\n7\n8\n9\tEnd "Tet" Scenario\n'
    "10\n11\n12\t"
)
SEED_TURN_12 = 'End "Zumwalt" Scenario'

# 4.2, 4.3, 4.4 and 9.1.
SEED_VICTORY_LEVELS = (
    "4.2 Victory Levels\n\n0–25 = Draw\n26–50 = Marginal Victory\n51–75 = Tactical Victory\n"
    "76–100 = Decisive Victory (see 4.4 below)"
)
SEED_CAP = (
    "If a player's VP total goes to 100, it can go no higher. Simply ignore what would otherwise be further VP "
    "additions to that side's VP total. Note that players never lose VP; they only gain them."
)
SEED_SUDDEN_DEATH = (
    "If, at any time, one player has 75 or more VP than the other, the game immediately comes to an end and the "
    "player with that VP superiority wins a decisive victory."
)
SEED_STACKING = "The general rule is both players may stack up to eight units in a square."

# 6.2 Sequence of Play Outline (one line in the seed), and the step names of 7.6.
SEED_OUTLINE = (
    "I. First Player Random Events Phase II. Second Player Random Events Phase III. First Player Reinforcement "
    "& Refit Phase A. First Player Reinforcement Sub-Phase B. First Player Refit Sub-Phase IV. Second Player "
    "Reinforcement & Refit Phase A. Second Player Reinforcement Sub-Phase B. Second Player Refit Sub-Phase V. "
    "Mutual & Alternating Operations Phase A. First Player Operation B. Second Player Operation C. First Player "
    "Operation D. Second Player Operation, etc. VI. First Player Logistics Phase VII. Second Player Logistics "
    "Phase VIII. First Player Territorial Victory Point Phase IX. Second Player Territorial Victory Point Phase"
)
SEED_OPERATION_STEPS = [
    "Force Designation Sub-Phase", "Force Movement Sub-Phase", "Recon Sub-Phase",
    "Free World Air, Airmobile & Naval Gunfire Sub-Phase", "Fire Sub-Phase", "Recycle",
]

# 2.5 Nationalities and 2.6 Unit Sizes.
SEED_NATIONALITIES = {
    "Free World": "Olive Drab: US\nSky Blue: South Vietnamese\nTan: Australian & Thai",
    "Communist": "Scarlet: Viet Cong & North Vietnamese",
}
SEED_SIZES = (
    'XX: division\nX: brigade or similarly sized "group"\nIII: regiment or similarly sized "group"\n'
    "II: battalion or squadron\nI: company, team or cadre"
)

# 19.3 Guerrilla Marker Effects.
SEED_GUERRILLA = (
    "Ambush: add one to the Communist recon die roll in that square. If there are no Communist combat units in "
    "the square when revealed, remove the marker without it having any effect.\n"
    "Arms Cache: add one to the first Communist firepower die roll in that square. If revealed by Free World "
    "forces and there are no Communist combat units in that square, remove it immediately and give the Free "
    "World player a VP.\n"
    "Bunkers: if Communist units are defending in a square with bunkers, shift the Free World fire column one "
    "column left. If revealed by Free World forces and there are no Communist combat units in that square, "
    "remove it immediately.\n"
    "Civilians: if there are no Communist combat units in the square, remove this marker without it having any "
    "effect. If there are one or more Communist combat units present, then, if the Free World player conducts "
    "any combat in that square, the Communist player receives two VP. The marker is then removed.\n"
    'Minefield: when revealed, immediately attack a Free World "L," "R" and "N" class units in the square with a '
    "fire strength of three. There's no recon die roll or break-off, nor does the Free World defender gain any "
    "defensive shifts. The Free World player may not fire back at the marker. This happens before any other "
    "combat. If there's a Free World minesweeper unit in the square, the marker is removed without it having "
    "any effect. If a loss is inflicted by a minefield attack, it's taken by the Free World \"L,\" \"R\" or \"N\" "
    "unit with the lowest recon value in that square. If more than one unit has the same lowest recon value, "
    "choose one at random. Note that a minefield may attack by itself.\n"
    "Supply Cache: provides supply to all the Communist units in its square for one Logistics Phase, and then "
    "the marker is removed from play. If revealed by Free World forces, remove it immediately and, if there is "
    "a Free World combat unit (not just markers) in the square, give the Free World one VP."
)

# The unit types and markers the rules and scenarios name (7.3, 8.10, 12.3, 12.4, 15.1, 17.0, 18.0, 24.0-26.0).
NAMED_UNIT_TYPES = {
    "us": ["CCB", "PBR", "LSC", "PACV", "WPB", "DE", "MS", "PCF", "MON", "ASPB", "ATC", "MRB", "HQ",
           "infantry battalion", "mechanized battalion", "armored cavalry battalion", "Special Forces company",
           "engineer battalion", "counterinsurgency team", "helicopter detachment", "helicopter battalion",
           "air cavalry battalion", "CIDG", "Special Forces camp", "logistical base"],
    "arvn": ["RAG", "CG", "Marine battalion", "Ranger battalion", "commando company", "Regional Force battalion",
             "infantry division", "militia garrison", "HQ", "logistical base"],
    "allied": ["Australian battalion", "Thai battalion"],
    "vc_nva": ["HQ", "cadre", "Main Force battalion", "Local Force battalion", "Sapper company",
               'Deception "L"', 'Deception "R"', "engineer", "logistical base", "Supply infiltration junk",
               "Troop infiltration junk", "Trawler"],
}
NAMED_MARKERS = ["Airstrike", "Surveillance aircraft", "B-52 Arc Light", "Naval gunfire", "Sensor", "Ace",
                 "People's Hero"]

PROVISIONAL_COUNTERS = "counter values are not in the source; provisional"


# --- Helpers ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def rb():
    return load_rulebook(RULEBOOK)


def _table(rb, name: str) -> TableView:
    return TableView.from_declaration(rb.get("table", name))


def _by_label(rb, kind: str, label: str, side: str | None = None) -> Declaration:
    found = [d for d in rb.of_kind(kind) if d.label == label
             and (side is None or str(d.first("side").get("side")) == side)]
    assert len(found) == 1, f"{kind} labelled {label!r} (side {side}): {[d.name for d in found]}"
    return found[0]


def _side_named(rb, label: str) -> str:
    return _by_label(rb, "side", label).name


def _texts(decl: Declaration, prop: str = "text") -> list[str]:
    return [str(p.get("text")) for p in decl.all(prop)]


def _names(value) -> set[str]:
    return {str(v) for v in value or ()}


def _tab_rows(block: str) -> list[list[str]]:
    return [line.split("\t") for line in block.splitlines() if line]


def _explanations(block: str) -> dict[str, str]:
    """'Name: text' lines → {name: text}."""
    return dict(line.split(": ", 1) for line in block.splitlines())


def _crt_cell(view: TableView, column: str, roll: int):
    col = [c.label for c in view.columns].index(column)
    row = next(r for r in view.rows if r.roll is not None and r.roll.low == roll)
    return row.cells[col]


# --- Loading and linting ----------------------------------------------------------


def test_pasted_blocks_are_verbatim_in_the_seed():
    if not SEED.is_file():
        pytest.skip("seed text not available")
    seed = SEED.read_text(encoding="utf-8")
    blocks = [SEED_TEC, SEED_TEC_GAP, SEED_CRT, SEED_CRT_HEADING, SEED_CRT_STAR, SEED_CRT_NOTE, SEED_RESULTS,
              SEED_SHIFTS, SEED_EVENTS_TABLE, SEED_FREE_WORLD_EVENTS, SEED_COMMUNIST_EVENTS, SEED_MAPSHEET_ERRATA,
              SEED_VP, SEED_CP, SEED_TRANSPORT, SEED_TURNS, SEED_TURN_12, SEED_VICTORY_LEVELS, SEED_CAP,
              SEED_SUDDEN_DEATH, SEED_STACKING, SEED_OUTLINE, SEED_SIZES, SEED_GUERRILLA,
              *SEED_NATIONALITIES.values(), *(f"{step}." for step in SEED_OPERATION_STEPS)]
    for block in blocks:
        assert block in seed, block[:60]


def test_every_text_is_quoted_from_the_seed(rb):
    """`text` is the printed wording; chart rows are written with ' | ' between the printed cells."""
    if not SEED.is_file():
        pytest.skip("seed text not available")
    seed = SEED.read_text(encoding="utf-8")
    for decl in rb.walk():
        for text in _texts(decl):
            assert text in seed or text.replace(" | ", "\t") in seed, (decl.kind, decl.name, text[:60])


def test_loads_and_lints_without_errors():
    errors = [d for d in lint_path(RULEBOOK) if d.severity >= Severity.ERROR]
    assert errors == []


def test_header(rb):
    header = rb.get("rulebook", "rulebook")
    assert header.label == "Sea Lords on the Mekong Delta"
    assert header.first("players").get("count") == 2
    assert {w.text for p in header.all("alias") for w in p.words[1:]} == {"sealords", "sea-lords"}
    assert header.first("grid").text == "grid square with diagonals"  # 2.2 squares, 8.14 diagonal moves


def test_every_numbered_section_is_declared(rb):
    if not SEED.is_file():
        pytest.skip("seed text not available")
    headings = dict(re.findall(r"^(\d+\.\d+) (.*)$", SEED.read_text(encoding="utf-8"), re.M))
    declared = {d.name: d for d in rb.of_kind("section")}
    assert set(headings) <= set(declared), sorted(set(headings) - set(declared))
    assert "Mapsheet Errata" in declared
    for number, rest in headings.items():
        if m := re.match(r"(Game Length|Player Order): ", rest):  # run-in titles (24.1 …)
            assert declared[number].label == m[1]
        elif len(rest) < 70 and not rest.endswith("."):  # a heading line
            assert declared[number].label == rest, number
        else:  # untitled: the section starts with its text, and no title is invented
            assert declared[number].label is None, number


# --- Combat Results Table -----------------------------------------------------------


def test_crt_headings_as_printed(rb):
    view = _table(rb, "crt")
    header, _, _ = _tab_rows(SEED_CRT)
    assert header[0] == view.decl.first("key").get("text").text
    assert [c.label for c in view.columns] == [h.replace(" ", "") for h in header[1:]]  # "27 +" is printed spaced
    assert view.decl.first("heading").get("text").text in SEED_CRT_HEADING
    assert view.lookup == "firepower" and view.dice == "d6"
    starred = [c.label for c in view.columns if c.shifted_only]
    assert starred == [h for h in header[1:] if h.endswith("*")]
    assert SEED_CRT_STAR in _texts(view.decl)


def test_crt_row_1_exactly_as_printed(rb):
    view = _table(rb, "crt")
    _, row1, _ = _tab_rows(SEED_CRT)
    printed = view.rows[0]
    assert printed.roll.low == int(row1[0])
    assert [c.text for c in printed.cells] == row1[1:]
    assert not any(c.provisional for c in printed.cells)
    assert not printed.provenance.gaps


def test_crt_row_2_printed_cells(rb):
    view = _table(rb, "crt")
    _, _, row2 = _tab_rows(SEED_CRT)
    row = view.rows[1]
    assert row.roll.low == int(row2[0])
    first = row.cells[: len(row2) - 1]
    assert [c.text for c in first] == row2[1:] and not any(c.provisional for c in first)
    printed_27 = re.search(r'"([^"]+)" in the die-roll 2 / 27\+ cell', SEED_CRT_NOTE).group(1)
    last = row.cells[-1]
    assert last.text == printed_27.replace(" ", "") and not last.provisional
    assert any(printed_27 in e.text for e in row.provenance.errata)


def test_crt_unprinted_cells_are_provisional_with_a_gap(rb):
    view = _table(rb, "crt")
    printed = {(1, i) for i in range(len(view.columns))} | {(2, 0), (2, 1), (2, 2), (2, len(view.columns) - 1)}
    assert [r.roll.low for r in view.rows] == [1, 2, 3, 4, 5, 6]
    for row in view.rows:
        assert len(row.cells) == len(view.columns)
        for i, cell in enumerate(row.cells):
            assert cell.provisional == ((row.roll.low, i) not in printed), (row.key, view.columns[i].label)
        if any(c.provisional for c in row.cells):
            assert row.provenance.gaps, f"row {row.key} has provisional cells but no gap"


def test_crt_agrees_with_the_play_report(rb):
    view = _table(rb, "crt")
    for column, roll, result in OBSERVED_CRT_CELLS:
        assert _crt_cell(view, column, roll).text == result, (column, roll)


def test_crt_is_monotone_by_worth(rb):
    view = _table(rb, "crt")
    assert view.decl.first("better").text == "better for roller right"
    assert view.decl.first("higher").text == "higher rolls better for roller"
    grid = [[cell_worth(rb, c.text) for c in row.cells] for row in view.rows]
    assert all(w is not None for line in grid for w in line)
    for r, line in enumerate(grid):
        assert line == sorted(line), f"row {r + 1} gets worse to the right: {line}"
    for c in range(len(view.columns)):
        column = [line[c] for line in grid]
        assert column == sorted(column), f"column {view.columns[c].label} gets worse down: {column}"


def test_result_texts_and_worth(rb):
    for line in SEED_RESULTS.splitlines():
        code = line.split(": ", 1)[0]
        result = rb.get("result", code.replace(" ", ""))
        assert result is not None, code
        assert _texts(result) == [line]
        assert result.has("effect")
    assert rb.get("result", "K+R").provenance.errata  # printed "K + R" with spaces
    worth = {name: rb.get("result", name).first("worth").get("value")
             for name in ("Z", "A", "NE", "R", "B", "K", "K+R", "2K")}
    assert worth["Z"] < worth["A"] < worth["NE"] == 0 < worth["R"] < worth["K"] < worth["K+R"] < worth["2K"]
    assert worth["K+R"] == worth["K"] + worth["R"]
    assert rb.get("result", "NE").provenance.gaps  # 11.5 prints no no-effect result
    assert cell_worth(rb, "K+B+A") == worth["K"] + worth["B"] + worth["A"]


def test_compound_cells_combine_their_parts(rb):
    view = _table(rb, "crt")
    compounds = {c.text for row in view.rows for c in row.cells if "+" in c.text}
    assert {"R+Z", "K+B+A", "K+B"} <= compounds
    for text in compounds:
        parts = result_parts(rb, text)
        assert parts is not None, text
        if len(parts) > 1:
            assert all(p.has("combines") for p in parts), text


def test_results_act_on_the_right_side(rb):
    assert rb.get("result", "Z").first("effect").text == "effect refit 1 firers to refit_box"  # "one firing unit"
    assert rb.get("result", "R").first("effect").text == "effect refit 1 targets to refit_box"  # "in the Refit Box"
    assert rb.get("result", "K").first("effect").text == "effect eliminate 1 targets"  # "one targeted unit"
    assert rb.get("result", "2K").first("effect").text == "effect eliminate 2 targets"
    assert rb.get("result", "B").first("effect").text == "effect break off targets"


def test_column_shifts(rb):
    combat = rb.get("combat", "fire_combat")
    assert str(combat.first("table").get("table")) == "crt"
    assert combat.first("compare").text == "compare total"
    assert combat.first("terrain").text == "terrain shifts columns"  # 1L or 2L: defender's terrain or base
    shifts = {frozenset(_names(p.get("who"))): p.get("shift").columns for p in combat.all("shift")}
    summary = SEED_SHIFTS.splitlines()
    assert "1L: defender has bunker in square" in summary
    # The bunker's own shift: the enemy's fire, when the bunker's side defends (19.3).
    bunkers = [p for p in rb.get("marker", "bunkers").all("effect") if p.get("effect") == "shift"]
    assert [(p.get("shift").columns, p.text) for p in bunkers] == [
        (-1, "effect shift 1L for enemy when defending")]
    assert "1R: firing player has headquarters, CCB or Cadre in square." in summary
    assert shifts == {frozenset({"hq", "ccb", "cadre"}): 1}
    for hero in ("ace", "peoples_hero"):  # 16.4: shift the CRT column one to the right when firing
        lines = [p for p in rb.get("marker", hero).all("effect") if p.get("effect") == "shift"]
        assert [(p.get("shift").columns, p.text) for p in lines] == [(1, "effect shift 1R for self")]
    assert combat.first("fire").text == "fire is sequential"  # 11.3: losses are not simultaneous
    assert combat.first("losses").text == "losses chosen by owner"  # 11.7
    assert combat.has("recycle")  # 11.8


# --- Terrain Effects Chart ---------------------------------------------------------


def _recon(cell: str):
    if cell == "No Effect":
        return None
    role, _, value = cell.partition(" + ")
    return role.lower(), int(value)


def _combat(cell: str):
    if cell == "No Effect":
        return 0, None
    shift, _, rest = cell.partition(" ")
    side = {"": None, "Communists Defending": "Communist"}[rest]
    return -int(shift[:-1]) if shift.endswith("L") else int(shift[:-1]), side


def test_terrain_effects_chart(rb):
    header, *rows = _tab_rows(SEED_TEC)
    assert header == ["Terrain Type", "Recon Effects", "Combat Effect"]
    assert len(rows) == 8
    for label, recon_cell, combat_cell in rows:
        terrain = _by_label(rb, "terrain", label)
        if recon_cell == "Other Terrain":
            assert combat_cell == "Other Terrain"
            assert terrain.has("effects") and not terrain.has("recon") and not terrain.has("defence")
            assert any(g.text in SEED_TEC_GAP for g in terrain.provenance.gaps)
            continue
        recon = terrain.first("recon")
        expected = _recon(recon_cell)
        if expected is None:
            assert recon.text == "recon no effect", label
        else:
            assert (recon.get("role"), recon.get("modifier")) == expected, label
        defence = terrain.all("defence")
        assert len(defence) == 1, label
        shift, side = _combat(combat_cell)
        if shift == 0:
            assert defence[0].text == "defence no effect", label
        else:
            assert defence[0].get("shift").columns == shift, label
            got_side = defence[0].get("side")
            assert (rb.get("side", str(got_side)).label if got_side else None) == side, label


def test_communist_base_square_is_other_terrain(rb):
    label = re.search(r"the Saigon LoC and (.+?) rows both read", SEED_TEC_GAP).group(1)
    base = _by_label(rb, "terrain", label)
    assert base.has("effects")
    assert any(g.text in SEED_TEC_GAP for g in base.provenance.gaps)


def test_high_seas_only_n_units(rb):
    high_seas = _by_label(rb, "terrain", "High Seas (Only N Units)")
    blocked = _names(high_seas.first("cost").get("who"))
    assert high_seas.first("cost").has("no")  # no entry
    assert blocked == {c.name for c in rb.of_kind("movement")} - {"N"}
    assert _names(rb.get("movement", "N").first("enters").get("where")) == {"high_seas", "coastal"}  # 8.5


# --- Random events -----------------------------------------------------------------


def test_random_events_table_row_by_row(rb):
    view = _table(rb, "random_events")
    header, *rows = _tab_rows(SEED_EVENTS_TABLE)
    assert view.decl.first("key").get("text").text == header[0]
    assert [rb.get("side", c.label).label + " Event" for c in view.columns] == header[1:]
    assert [c.display for c in view.columns] == header[1:]  # shown as printed
    assert view.dice == "d6" and view.cells_are == "events"
    assert len(view.rows) == len(rows)
    for row, printed in zip(view.rows, rows):
        assert row.roll.low == row.roll.high == int(printed[0])
        assert [rb.get("event", c.text).label for c in row.cells] == printed[1:]
        assert not any(c.provisional for c in row.cells)


@pytest.mark.parametrize("side_label, block", [("Free World", SEED_FREE_WORLD_EVENTS),
                                               ("Communist", SEED_COMMUNIST_EVENTS)])
def test_event_texts_verbatim(rb, side_label, block):
    side = _side_named(rb, side_label)
    for label, text in _explanations(block).items():
        event = _by_label(rb, "event", label, side)
        assert _texts(event) == [text]
        assert event.has("effect")


def _effects(rb, name: str) -> list[str]:
    return [p.text for p in rb.get("event", name).all("effect")]


def test_event_effects(rb):
    fw = _explanations(SEED_FREE_WORLD_EVENTS)
    lead = re.search(r"at least (\d+) more VP", fw["Emergency Reinforcements"]).group(1)
    assert _effects(rb, "emergency_reinforcements") == [
        f"effect lose cp d6 when vp lead >= {lead}", f"effect gain cp d6 when opponent vp lead >= {lead}"]
    assert _effects(rb, "oer_time") == [
        f"effect gain cp d6 when vp lead >= {lead}", f"effect lose cp d6 when opponent vp lead >= {lead}"]
    assert _effects(rb, "intelligence_breakthrough") == ["effect reveal enemy units in one cell"]
    assert "double" in fw["Media Circus"] and "both players" in fw["Media Circus"]
    assert _effects(rb, "media_circus") == ["effect multiply gains vp by 2 this turn for both"]
    assert "(to a minimum of 0)" in fw["Weather"]
    assert _effects(rb, "weather") == ["effect reduce income cp d6 minimum 0"]
    assert _effects(rb, "dau_tranh") == ["effect gain cp d6"]
    assert _effects(rb, "dispute_in_politburo") == ["effect lose cp d6"]
    assert _effects(rb, "bombing_in_cambodia") == ["effect reduce income cp d6"]
    assert _effects(rb, "no_event") == ["effect no effect"]
    rocket = rb.get("event", "rocket_attack").first("effect")
    assert (rocket.get("effect"), rocket.get("resource").name, rocket.get("amount")) == ("gain", "vp", 2)
    assert "saigon_vung_tau" in rocket.get("condition") and "adjacent" in rocket.get("condition")


def test_in_country_fighting(rb):
    event = rb.get("event", "in_country_fighting")
    assert _effects(rb, "in_country_fighting") == ["effect roll d6 on in_country_fighting"]
    assert [e.text for e in event.provenance.errata] == [SEED_MAPSHEET_ERRATA]
    view = _table(rb, "in_country_fighting")
    assert [(r.roll.low, r.roll.high) for r in view.rows] == [(1, 2), (3, 6)]  # "On a 1-2" / "On a 3-6"
    low, high = (rb.get("event", r.cells[0].text) for r in view.rows)
    assert [p.text for p in low.all("effect")] == ["effect pick reinforcement free for opponent from reinforcement_pool"]
    assert [p.text for p in high.all("effect")] == ["effect return 1 of battalion opponent to reinforcement_pool"]
    assert rb.get("box", "reinforcement_pool").label == "Reinforcement Pool"
    assert [e.text for e in view.rows[1].provenance.errata] == [SEED_MAPSHEET_ERRATA]


# --- Victory Point Tables ------------------------------------------------------------

# What the "for …" parts of the printed points name, in the rulebook's selectors.
POINT_SELECTORS = {
    "divisions": {"division"},
    "cadres, HQs and bases": {"cadre", "com_hq", "com_log_base"},
    "Infiltration Replacement and Supply units": {"troop_junk", "supply_junk"},
    "deception units": {"deception"},
    "Arms Cache": {"arms_cache"},
    "Supply Cache": {"supply_cache"},
}


def _printed_points(cell: str) -> dict[str | None, int]:
    """'3 for divisions; 1 for all others' → {'divisions': 3, None: 1}; None is everyone else."""
    out: dict[str | None, int] = {}
    for part in cell.split("; "):
        if m := re.fullmatch(r"(\d+)", part):
            out[None] = int(m[1])
        elif m := re.fullmatch(r"(\d+) (?:for )?all others", part) or re.fullmatch(r"All Others = (\d+)", part):
            out[None] = int(m[1])
        elif m := re.fullmatch(r"(\d+) for (.+)", part):
            out[m[2]] = int(m[1])
        elif m := re.fullmatch(r"(.+) = (\d+)", part):
            out[m[1]] = int(m[2])
        else:
            raise AssertionError(f"unread points cell part {part!r}")
    return out


def _vp_rows():
    side = None
    for line in SEED_VP.splitlines():
        if line.endswith(" VP"):
            side = line[: -len(" VP")]
        elif "\t" in line and not line.startswith("Event\t"):
            yield side, *line.split("\t")


def test_vp_tables(rb):
    rows = list(_vp_rows())
    assert len(rows) == 11
    awards = [a for a in rb.of_kind("award") if a.has("printed")]
    assert len(awards) == len(rows)
    for side_label, event, points, notes in rows:
        award = next(a for a in awards if _texts(a) == [event])
        assert str(award.first("to").get("side")) == _side_named(rb, side_label)
        assert award.first("printed").get("text").text == points
        assert notes in _texts(award, "note")
        expected = _printed_points(points)
        got = {}
        for line in award.all("points"):
            who = line.get("who")
            for name in (_names(who) if who else [None]):
                got[name] = line.get("value")
        base = expected.pop(None)
        assert got.pop(None) == base, event
        for what, value in expected.items():
            for name in POINT_SELECTORS[what]:
                assert got.pop(name) == value, (event, what)
        if "Cambodian towns count as 0." in notes:
            assert got.pop("cambodia") == 0
        assert got == {}, event
        if notes == "Scored as they occur.":
            assert award.first("scored").text == "scored as they occur"
        else:
            assert notes.startswith(f"Scored during each {side_label} Victory Check Phase.")
            assert award.first("on").text == "on held"
            phases = [rb.get("phase", str(p)) for p in award.first("scored").get("phases")]
            assert all("Territorial Victory Point Phase" in p.label for p in phases)


def test_vp_doubling_by_special_units(rb):
    assert _names(rb.get("award", "com_city").first("doubled").get("who")) == {"cadre"}  # 16.2
    assert _names(rb.get("award", "com_town").first("doubled").get("who")) == {"cadre"}
    assert _names(rb.get("award", "fw_base").first("doubled").get("who")) == {"ci_team"}  # 16.3


# --- CP Table --------------------------------------------------------------------------

# The printed CP Cost cells read by hand: (amount, times transport, per unit, for whom, year limit).
EXPECTED_CP = {
    ("Communist", "Pick reinforcement unit"): [(2, None, False, set(), ("until", 1967)),
                                               (3, None, False, set(), ("from", 1968))],
    ("Communist", "Initiate a refit"): [(1, None, False, set(), None)],
    ("Communist", "Conduct an Operation using a headquarters"): [(2, None, False, set(), None)],
    ("Communist", "Conduct an Operation without a headquarters"): [(2, None, True, set(), None)],
    ("Communist", "Move via Strategic Redeployment"): [(None, 2, False, set(), None)],
    ("Communist", "Provide logistic support to an Out of Supply unit"): [(1, None, False, set(), None)],
    ("Free World", "Pick a reinforcement unit from the Pool"): [(2, None, False, set(), None)],
    # The action names what it places: sensors (18.1), not other markers held off the map.
    ("Free World", "Place a sensor marker"): [(1, None, False, {"sensor"}, None)],
    # Airstrike, Arc-Light, naval gunfire and surveillance markers are listed as US (24.4, 24.6).
    ("Free World", "Initiate refit"): [(1, None, False, {"us", "allied", "airstrike", "arc_light", "naval_gunfire",
                                                         "surveillance_aircraft"}, None),
                                       (2, None, False, {"arvn"}, None)],
    ("Free World", "Conduct an Operation using a headquarters"): [(2, None, False, {"us_hq", "ccb"}, None),
                                                                  (3, None, False, {"arvn_hq"}, None)],
    ("Free World", "Conduct an Operation without a headquarters"): [(2, None, True, {"us", "allied"}, None),
                                                                    (3, None, True, {"arvn"}, None)],
    ("Free World", "Move via Strategic Redeployment"): [(None, 2, False, {"us", "allied"}, None),
                                                        (None, 3, False, {"arvn"}, None)],
    ("Free World", "Utilize an airstrike or naval gunfire marker"): [(1, None, False, set(), None)],
}


def _cost(prop) -> tuple:
    year = prop.get("year")
    limit = None if year is None else (next(w.text for w in prop.words if w.text in ("from", "until")), year)
    amount = prop.get("amount")
    return (None if amount is None else int(amount), prop.get("multiple"), prop.has("per"),
            _names(prop.get("who")), limit)


def _cp_rows():
    side = None
    for line in SEED_CP.splitlines():
        if line in ("Communist", "Free World"):
            side = line
        elif line and not line.startswith("Action\t"):
            yield side, *line.split("\t")


def _enclosing_labels(rb, name: str) -> list[str]:
    """The label of a phase or step and of every phase or step around it."""
    def search(decl, trail):
        if decl.kind in ("phase", "step") and decl.name == name:
            return [*trail, decl.label]
        for child in decl.children:
            found = search(child, [*trail, decl.label] if decl.kind in ("phase", "step") else trail)
            if found:
                return found
        return None
    return search(rb.get("sequence", "sequence_of_play"), [])


def test_cp_table(rb):
    rows = list(_cp_rows())
    assert len(rows) == 14
    for side_label, action_label, *cells in rows:
        action = _by_label(rb, "action", action_label, _side_named(rb, side_label))
        costs = [_cost(p) for p in action.all("cost")]
        if not cells:  # the Free World logistic support line prints no cost and no phase
            assert not action.has("printed")
            assert all(p.provenance.gaps for p in action.all("cost"))
            assert _enclosing_labels(rb, str(action.first("during").get("phases")[0]))[-1].endswith(
                "Logistics Phase")
            continue
        cost, phase = cells
        assert action.first("printed").get("text").text == cost
        assert costs == EXPECTED_CP[side_label, action_label], action_label
        during = action.first("during")
        names = [str(p) for p in during.get("phases")] if during.get("phases") else [str(during.get("phase"))]
        # The printed phase is the action's; another (a gap says why) may be added by other rules.
        printed = [n for n in names if any(phase in label for label in _enclosing_labels(rb, n))]
        assert printed, (action_label, names)
        assert len(printed) == len(names) or during.provenance.gaps, (action_label, names)


# --- Transport Costs Table ------------------------------------------------------------


def _transport_rows():
    side = None
    for line in SEED_TRANSPORT.splitlines()[1:]:
        if "\t" not in line:
            side = line
        else:
            what, cell = line.split("\t")
            yield side, what, int(cell.split(" ")[0])


def test_transport_costs_table(rb):
    view = _table(rb, "transport_costs")
    printed = list(_transport_rows())
    header = SEED_TRANSPORT.splitlines()[0].split("\t")
    assert view.decl.first("key").get("text").text == header[0]
    assert [c.label for c in view.columns] == header[1:]
    assert view.row_keys == "names" and view.cells_are == "numbers"
    assert [int(r.cells[0].text) for r in view.rows] == [n for _, _, n in printed]
    for row, (side_label, what, number) in zip(view.rows, printed):
        side = _side_named(rb, side_label)
        for word in row.key_words:
            unit = rb.get("unit", word.text)
            assert unit is not None, word.text
            assert unit.first("factor:transport_cost").get("value") == number, word.text
            nationality = rb.get("nationality", str(unit.first("nationality").get("nationality")))
            if str(nationality.first("side").get("side")) != side:
                assert row.provenance.errata, f"{word.text} printed under {side_label}"  # the source flags


def test_every_transport_cost_is_on_the_table_or_provisional(rb):
    on_table = {w.text: int(r.cells[0].text) for r in _table(rb, "transport_costs").rows for w in r.key_words}
    for unit in rb.of_kind("unit"):
        cost = unit.first("factor:transport_cost")
        if cost is None:
            continue
        if unit.name in on_table:
            assert cost.get("value") == on_table[unit.name]
            assert "27.0" in cost.provenance.section_names
        else:
            assert cost.provenance.gaps, unit.name


# --- Units and markers ------------------------------------------------------------------


def test_every_named_unit_type_is_declared(rb):
    for nationality, names in NAMED_UNIT_TYPES.items():
        labels = [u.label.lower() for u in rb.of_kind("unit")
                  if str(u.first("nationality").get("nationality")) == nationality]
        for name in names:
            assert any(name.lower() in label for label in labels), (nationality, name)


def test_unit_counter_values_are_provisional(rb):
    for unit in rb.of_kind("unit"):
        assert unit.has("factor:firepower") and unit.has("factor:recon"), unit.name
        assert PROVISIONAL_COUNTERS in [g.text for g in unit.provenance.gaps], unit.name
        assert unit.has("movement") and unit.has("nationality"), unit.name


def test_markers(rb):
    for label in NAMED_MARKERS:
        _by_label(rb, "marker", label)
    for label, text in _explanations(SEED_GUERRILLA).items():
        marker = _by_label(rb, "marker", label)
        assert _texts(marker) == [f"{label}: {text}"]
        assert "guerrilla" in _names(marker.first("tags").get("tags"))
        assert marker.has("one") and marker.has("never")  # 19.2 one of each type; 8.12 never move
        assert str(marker.first("side").get("side")) == _side_named(rb, "Communist")
    strength = {"three": 3}[re.search(r"fire strength of (\w+)", SEED_GUERRILLA).group(1)]
    attack = [p for p in rb.get("marker", "minefield").all("effect") if p.get("effect") == "attack"]
    assert [p.get("strength") for p in attack] == [strength]
    assert rb.get("marker", "surveillance_aircraft").first("factor:firepower").get("value") == 0  # 17.6
    for name in ("airstrike", "arc_light", "naval_gunfire", "ambush", "arms_cache", "bunkers", "civilians",
                 "minefield", "supply_cache", "surveillance_aircraft"):
        assert PROVISIONAL_COUNTERS in [g.text for g in rb.get("marker", name).provenance.gaps], name


def test_movement_classes_the_text_states(rb):
    def cls(name):
        return str(rb.get("unit", name).first("movement").get("class"))
    for name in ("wpb", "de", "cg", "trawler", "com_naval"):          # 23.2, 15.1
        assert cls(name) == "N", name
    for name in ("supply_junk", "troop_junk", "deception_r"):          # 15.1, 10.6
        assert cls(name) == "R", name
    assert cls("deception_l") == "L"                                  # 10.6
    for unit in rb.of_kind("unit"):
        if unit.has("factor:transport_cost") and unit.name != "pbr":   # 8.10: only L units (and PBRs) are carried
            assert cls(unit.name) == "L", unit.name


def test_plausible_forces_reach_the_observed_columns(rb):
    """Provisional firepower must let ordinary forces (1-3 counters of one side) reach each observed column."""
    view = _table(rb, "crt")
    by_side: dict[str, list[int]] = {}
    for decl in (*rb.of_kind("unit"), *rb.of_kind("marker")):
        value = decl.first("factor:firepower")
        if value is None:
            continue
        side = decl.first("side")
        side = str(side.get("side")) if side else str(
            rb.get("nationality", str(decl.first("nationality").get("nationality"))).first("side").get("side"))
        by_side.setdefault(side, []).append(int(value.get("value")))
    columns = {c.label: c.range for c in view.columns}
    for column, _, _ in OBSERVED_CRT_CELLS:
        reachable = any(sum(combo) in columns[column]
                        for values in by_side.values() for n in (1, 2, 3)
                        for combo in itertools.combinations(values, n))
        assert reachable, column


# --- Sides, nationalities, sizes, movement, stacking ------------------------------------


def test_sides_and_fog_of_war(rb):
    fw, com = rb.get("side", "free_world"), rb.get("side", "communist")
    assert com.first("counters").text == "counters face down"     # 8.13
    assert fw.first("inspects").text == "inspects enemy nothing"  # only via recon
    assert com.first("inspects").text == "inspects enemy stacks"  # may always inspect Free World stacks
    spotting = rb.get("spotting", "fog_of_war")
    assert spotting.has("reveal") and spotting.has("hide")


def test_nationalities(rb):
    for side_label, block in SEED_NATIONALITIES.items():
        side = _side_named(rb, side_label)
        for colour, label in _explanations(block).items():
            nationality = _by_label(rb, "nationality", label)
            assert nationality.first("color").get("text").text == colour
            assert str(nationality.first("side").get("side")) == side


def test_sizes(rb):
    for symbol, label in _explanations(SEED_SIZES).items():
        size = next(s for s in rb.of_kind("size") if s.header_value("symbol") == symbol)
        assert size.label == label


def test_cambodia_and_prohibited_squares(rb):
    assert _names(rb.get("side", "free_world").first("never").get("where")) == {"cambodia"}       # 21.1
    assert _names(rb.get("unit", "sf_company").first("may").get("where")) == {"cambodia"}         # 21.1
    for name in ("rf_bn", "lf_bn"):                                                              # 21.3
        assert _names(rb.get("unit", name).first("never").get("where")) == {"cambodia"}
    assert _names(rb.get("side", "communist").first("never").get("where")) == {"saigon_vung_tau"}  # 8.3


def test_movement_classes(rb):
    assert {m.name for m in rb.of_kind("movement")} == {"N", "R", "L", "A", "static"}  # 2.7
    river = rb.get("movement", "R")
    assert _names(river.first("crosses").get("features")) == {"water_link"}            # 8.4
    assert [p.text for p in river.all("stops")][0] == "stops on entering enemy"
    assert rb.get("feature", "water_link").first("on").text == "on sides corners"
    assert rb.get("movement", "L").has("needs")                                        # 8.7
    airmobile = rb.get("movement", "A")
    assert airmobile.has("ignores") and airmobile.has("joins")                         # 8.6, 7.5
    assert rb.get("movement", "static").has("never")                                   # 8.12
    for name in ("R", "L", "static"):
        assert _names(rb.get("movement", name).first("enters").get("where")) == {
            "river", "coastal", "city", "town", "base"}                                # 8.3 point 3


def test_stacking(rb):
    stacking = rb.get("stacking", "stacks")
    words = {"eight": 8}
    assert stacking.first("limit").get("count") == words[re.search(r"up to (\w+) units", SEED_STACKING)[1]]
    assert stacking.first("checked").text == "checked at end of phases"  # 9.2
    assert str(stacking.first("excess").get("box")) == "refit_box"
    assert {"A", "sensor", "airstrike", "naval_gunfire"} <= _names(stacking.first("exempt").get("who"))  # 9.1


def test_resources(rb):
    cap = int(re.search(r"goes to (\d+), it can go no higher", SEED_CAP)[1])
    vp, cp = rb.get("resource", "vp"), rb.get("resource", "cp")
    assert vp.first("cap").get("value") == cap and vp.has("never") and vp.has("open")
    assert cp.first("cap").get("value") == cap and cp.first("carry").text == "carry over yes"


# --- Victory --------------------------------------------------------------------------------


def test_victory_levels_and_sudden_death(rb):
    victory = rb.get("victory", "victory")
    levels = victory.all("level")
    printed = [re.fullmatch(r"(\d+)–(\d+) = (.+?)(?: \(see 4\.4 below\))?", line).groups()
               for line in SEED_VICTORY_LEVELS.splitlines()[2:]]
    assert len(levels) == len(printed) == 4
    for level, (low, high, label) in zip(levels, printed):
        rng = level.get("range")
        assert (rng.low, rng.high) == (int(low), int(high))
        assert level.get("label").text == label
    lead = int(re.search(r"one player has (\d+) or more VP", SEED_SUDDEN_DEATH)[1])
    assert victory.first("sudden").get("lead") == lead
    assert victory.first("by").text == "by vp margin" and victory.has("draws")


# --- Sequence of play --------------------------------------------------------------------------


def _outline() -> list[tuple[str, list[str]]]:
    phases = re.split(r" (?=(?:IX|VIII|VII|VI|V|IV|III|II|I)\. )", SEED_OUTLINE)
    out = []
    for chunk in phases:
        title, *subs = re.split(r" (?=[A-D]\. )", chunk)
        out.append((title, subs))
    return out


def test_sequence_phase_order(rb):
    sequence = rb.get("sequence", "sequence_of_play")
    phases = [c for c in sequence.children if c.kind == "phase"]
    outline = _outline()
    assert [p.label for p in phases] == [title for title, _ in outline]
    assert [t.split(".")[0] for t, _ in outline] == ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"]
    for phase, (title, subs) in zip(phases, outline):
        if "First Player" in title:
            assert phase.first("side").text == "side first", title
        elif "Second Player" in title:
            assert phase.first("side").text == "side second", title
        if "Reinforcement & Refit" in title:
            assert [s.label for s in phase.children] == subs


def test_operations_phase_alternates_operations(rb):
    operations = rb.get("phase", "operations")
    assert operations.has("mutual")
    alternate = operations.first("alternate")
    assert str(alternate.get("step")) == "operation"
    assert alternate.text == "alternate operation until all pass or out of cp"  # 6.5
    steps = [d.label for d in rb.get("step", "operation").walk() if d.kind == "step"][1:]
    printed = [s for s in steps if s in SEED_OPERATION_STEPS]
    assert sorted(printed, key=SEED_OPERATION_STEPS.index) == SEED_OPERATION_STEPS
    recycle = rb.get("step", "recycle")
    assert recycle.has("repeat")  # "Repeat sub-phases three through five"
    assert [c.label for c in recycle.children] == SEED_OPERATION_STEPS[2:5]
    assert [c.label for c in rb.get("step", "operation").children][:2] == SEED_OPERATION_STEPS[:2]
    assert rb.get("step", "air_support").first("side").text == "side free_world"  # during both sides' operations


def test_turn_record_track(rb):
    view = _table(rb, "turn_record_track")
    rows = [line.split("\t") for line in SEED_TURNS.splitlines()[1:]]
    rows[-1][1] = SEED_TURN_12
    assert [r.key for r in view.rows] == [r[0] for r in rows]
    assert [r.cells[0].text for r in view.rows] == [r[1] if len(r) > 1 else "" for r in rows]
