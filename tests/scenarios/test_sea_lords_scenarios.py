"""The three Sea Lords scenarios (source 24.0-26.10, with 3.0) and the scenario-format keys they use.

Expected numbers are counted by hand from the source's set-up lists (quoted beside each
table), never read off the scenario files or warbook's output.  Two groups of counters come
from provisional mixes, because the source gives no counter mix: the Communist "N" and "R"
units (24.8, 25.8, 26.8: "pick at random a total of …") and the Guerrilla markers; for
those only the totals the source prints are checked.
"""

from __future__ import annotations

import random
import textwrap
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from warbook.dsl import RulesError
from warbook.interpreter.actions import Action
from warbook.interpreter.context import Context
from warbook.interpreter.flow import setup
from warbook.interpreter.costs import cost_table
from warbook.interpreter.options import option_on
from warbook.interpreter.scenario import Scenario, load_scenario
from warbook.interpreter.setup import apply_turn_modifiers

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
MAP = SCENARIOS / "maps" / "sea_lords_delta.toml"
NAMES = ["sea_lords_game_warden", "sea_lords_tet", "sea_lords_zumwalt"]
FW, COM = "free_world", "communist"

GUERRILLA = {"ambush", "arms_cache", "bunkers", "civilians", "minefield", "supply_cache"}
NR = {"supply_junk", "troop_junk", "trawler", "com_riverine", "com_naval"}
"""The Communist "N" and "R" counters the draws pick from (deception "R" units are listed apart)."""

# --- what the source lists, counted by hand ----------------------------------------------------
# (side, where) -> {unit type: count}; "map" is every square of the map; "guerrilla" and "N/R"
# stand for the drawn counters, whatever their types.

GAME_WARDEN = {
    # 24.4 "6 x bases: one each Bin Thuy, Can Tho, Sa Dec, My Tho, Nha Be & Vung Tau. / 4 x CCB,
    # 8 x PBR, 1 x LSC, 1 x PACV, 1 x WPB, 1 x DE, 1 x MS … / 2 x Special Forces companies, 2 x
    # engineer battalions, 2 x counterinsurgency teams, 4 x helicopter detachments … / 3 x
    # special forces camps …"; 24.5 "9 x bases … / 6 x RAG, 2 x CG, 1 x Marine battalion, 1 x
    # Ranger battalion, 1 x commando company, 1 x Regional Force battalion … / 3 x infantry
    # divisions … / 6 x militia garrisons"
    (FW, "map"): {"us_log_base": 6, "ccb": 4, "pbr": 8, "lsc": 1, "pacv": 1, "wpb": 1, "de": 1, "ms": 1,
                  "sf_company": 2, "us_engineer_bn": 2, "ci_team": 2, "helicopter_det": 4, "sf_camp": 3,
                  "arvn_log_base": 9, "rag": 6, "cg": 2, "marine_bn": 1, "ranger_bn": 1, "commando_co": 1,
                  "rf_bn": 1, "arvn_infantry_div": 3, "militia_garrison": 6},
    # 24.4 "2 x airstrikes, 1 x surveillance aircraft, off to the side of the map."
    (FW, "set_aside"): {"airstrike": 2, "surveillance_aircraft": 1},
    # 24.4 "2 x bases, 3 x Special Forces camps in the Refit Box."; 24.8 "3 x militia garrisons
    # in the Refit Box" (the Free World's: a reading, see the scenario file)
    (FW, "refit_box"): {"us_log_base": 2, "sf_camp": 3, "militia_garrison": 3},
    # 24.6 US "3 x PCF, 1 x WPB, 1 x DE, 1 x MS; 1 x HQ, 3 x infantry battalions, 2 x Special
    # Forces companies, 3 x CIDG, 1 x engineer battalion, 1 x counterinsurgency team, 1 x
    # helicopter battalion, 4 x airstrikes, 1 x surveillance aircraft, 1 x B-52 arc light & 1 x
    # naval gunfire." ARVN "1 x HQ, 1 x Marine battalion, 2 x Ranger battalions, 1 x commando
    # company, 2 x Regional Force battalions." Allies "1 x Australian battalion."; 16.4 Ace
    (FW, "reinforcement_pool"): {"pcf": 3, "wpb": 1, "de": 1, "ms": 1, "us_hq": 1, "us_infantry_bn": 3,
                                 "sf_company": 2, "cidg": 3, "us_engineer_bn": 1, "ci_team": 1,
                                 "helicopter_bn": 1, "airstrike": 4, "surveillance_aircraft": 1, "arc_light": 1,
                                 "naval_gunfire": 1, "arvn_hq": 1, "marine_bn": 1, "ranger_bn": 2,
                                 "commando_co": 1, "rf_bn": 2, "australian_bn": 1, "ace": 1},
    # 24.8 "12 x logistical bases … / 1 x HQ, 2 x cadres, 3 x Main Force battalions, 6 x Local
    # Force battalions, 3 x Sapper companies, 3 x Deception "L" units, 12 x Guerrilla markers …
    # / 1 x HQ, 3 x Main Force battalions, 1 x engineer, in Cambodia … / … a total of 10 naval and
    # riverine units"
    (COM, "map"): {"com_log_base": 12, "com_hq": 2, "cadre": 2, "main_force_bn": 6, "lf_bn": 6, "sapper_co": 3,
                   "deception_l": 3, "com_engineer": 1, "guerrilla": 12, "N/R": 10},
    # 24.9 "1 x HQ, 1 x cadre, 3 x Main Force battalions, 3 x Local Force battalions, 3 x Sappers,
    # 3 x Deception "L" units, 9 x Guerrilla markers, all remaining "N" and "R" units."; 16.4
    (COM, "reinforcement_pool"): {"com_hq": 1, "cadre": 1, "main_force_bn": 3, "lf_bn": 3, "sapper_co": 3,
                                  "deception_l": 3, "guerrilla": 9, "peoples_hero": 1},
}

TET = {
    # 25.4 "7 x logistical bases … / 1 x MRB … / 6 x CCB, 8 x PBR, 3 x PCF, 2 x MON, 2 x ASPB, 2 x
    # ATC, 2 x LSC, 2 x WPB, 1 x DE, 2 x MS … / 1 x HQ, 3 x infantry battalions, 3 x Special Forces
    # companies, 3 x engineer battalions, 3 x counterinsurgency teams, 4 x helicopter detachments,
    # 1 x helicopter battalion … / 3 x Special Forces camps …"; 25.5 "10 x logistical bases … / 14 x
    # RAG, 2 x CG, 2 x Marine battalions, 2 x Ranger battalions, 1 x commando company, 1 x Regional
    # Force battalion … / 3 x infantry divisions … / 6 x militia garrisons"
    (FW, "map"): {"us_log_base": 7, "mrb": 1, "ccb": 6, "pbr": 8, "pcf": 3, "mon": 2, "aspb": 2, "atc": 2,
                  "lsc": 2, "wpb": 2, "de": 1, "ms": 2, "us_hq": 1, "us_infantry_bn": 3, "sf_company": 3,
                  "us_engineer_bn": 3, "ci_team": 3, "helicopter_det": 4, "helicopter_bn": 1, "sf_camp": 3,
                  "arvn_log_base": 10, "rag": 14, "cg": 2, "marine_bn": 2, "ranger_bn": 2, "commando_co": 1,
                  "rf_bn": 1, "arvn_infantry_div": 3, "militia_garrison": 6},
    # 25.4 "3 x airstrikes & 1 x surveillance aircraft off to the side of the map."
    (FW, "set_aside"): {"airstrike": 3, "surveillance_aircraft": 1},
    # 25.4 "2 x bases & 3 x Special Forces camps in the Refit Box."; 25.8 "3 x militia garrisons"
    (FW, "refit_box"): {"us_log_base": 2, "sf_camp": 3, "militia_garrison": 3},
    # 25.6 US "2 x CCB, 1 x PCF, 2 x MON, 2 x ASPB, 4 x ATC, 2 x ATC, 1 x PACV, 1 x DE, 1 x MRB; 1 x
    # HQ, 2 x infantry battalions, 1 x mechanized battalion, 2 x Special Forces companies, 3 x CIDG,
    # 1 x helicopter battalion, 1 x air cavalry battalion; 6 x airstrikes, 2 x surveillance
    # aircraft, 1 x B-52 Arc Light, 2 x naval gunfire." (4 + 2 ATC, as printed) ARVN "2 x HQ, 1 x
    # Marine battalion, 2 x Ranger battalions, 1 x commando company, 2 x Regional Force
    # battalions." Allies "1 x Australian battalion."; 16.4 Ace
    (FW, "reinforcement_pool"): {"ccb": 2, "pcf": 1, "mon": 2, "aspb": 2, "atc": 6, "pacv": 1, "de": 1, "mrb": 1,
                                 "us_hq": 1, "us_infantry_bn": 2, "us_mech_bn": 1, "sf_company": 2, "cidg": 3,
                                 "helicopter_bn": 1, "air_cav_bn": 1, "airstrike": 6, "surveillance_aircraft": 2,
                                 "arc_light": 1, "naval_gunfire": 2, "arvn_hq": 2, "marine_bn": 1, "ranger_bn": 2,
                                 "commando_co": 1, "rf_bn": 2, "australian_bn": 1, "ace": 1},
    # 25.8 "12 x logistical bases … / 3 x HQ, 3 x cadres, 9 x Main Force battalions, 9 x Local Force
    # battalions, 6 x Sapper companies, 6 x Deception "L" and "R" units, 18 x Guerrilla markers … /
    # 1 x engineer in Cambodia … / … a total of 15 "N" and "R" units" (the six deception units read
    # as three of each)
    (COM, "map"): {"com_log_base": 12, "com_hq": 3, "cadre": 3, "main_force_bn": 9, "lf_bn": 9, "sapper_co": 6,
                   "deception_l": 3, "deception_r": 3, "com_engineer": 1, "guerrilla": 18, "N/R": 15},
    # 25.9 "3 x Guerrilla markers, all remaining "N" and "R" units."; 16.4
    (COM, "reinforcement_pool"): {"guerrilla": 3, "peoples_hero": 1},
}

ZUMWALT = {
    # 26.4 "7 x logistical bases … / 2 x MRB … / 8 x CCB, 6 x PBR, 4 x PCF, 4 x MON, 4 x ASPB, 4 x
    # ATC, 1 x PACV, 2 x LSC, 2 x WPB, 2 x DE, 2 x MS … / 2 x HQ, 5 x infantry battalions, 1 x
    # mechanized battalion, 4 x Special Forces companies, 3 x engineer battalions, 3 x
    # counterinsurgency teams, 4 x helicopter detachments, 1 x helicopter battalion … / 3 x Special
    # Forces camps … / Sensor makers: x 6"; 26.5 "10 x bases … / 14 x RAG, 2 x CG, 2 x Marine
    # battalions, 2 x Ranger battalions, 1 x Regional Force battalion, 1 x commando company … / 3 x
    # infantry divisions … / 6 x militia garrisons"
    (FW, "map"): {"us_log_base": 7, "mrb": 2, "ccb": 8, "pbr": 6, "pcf": 4, "mon": 4, "aspb": 4, "atc": 4,
                  "pacv": 1, "lsc": 2, "wpb": 2, "de": 2, "ms": 2, "us_hq": 2, "us_infantry_bn": 5,
                  "us_mech_bn": 1, "sf_company": 4, "us_engineer_bn": 3, "ci_team": 3, "helicopter_det": 4,
                  "helicopter_bn": 1, "sf_camp": 3, "sensor": 6, "arvn_log_base": 10, "rag": 14, "cg": 2,
                  "marine_bn": 2, "ranger_bn": 2, "rf_bn": 1, "commando_co": 1, "arvn_infantry_div": 3,
                  "militia_garrison": 6},
    # 26.4 "4 x airstrikes, 2 x surveillance aircraft, 1 x naval gunfire, off to the side of the map."
    (FW, "set_aside"): {"airstrike": 4, "surveillance_aircraft": 2, "naval_gunfire": 1},
    # 26.4 "2 x logistical bases, 3 x Special Forces camps, in the Refit Box."; 26.8 "3 x militia"
    (FW, "refit_box"): {"us_log_base": 2, "sf_camp": 3, "militia_garrison": 3},
    # 26.6 US "1 x HQ, 4 x infantry battalions, 1 x armored cavalry battalion, 1 x engineer
    # battalion, 2 x Special Forces companies, 3 x CIDG, 1 x helicopter battalion, 1 x air cavalry
    # battalion, 6 x airstrikes, 1 x B-52 Arc Light, 1 x naval gunfire." ARVN "2 x HQ, 1 x Marine
    # battalion, 3 x Ranger battalions, 1 x commando company, 2 x Regional Force battalions."
    # Allies "1 x Australian battalion, 1 x Thai battalion."; 16.4 Ace
    (FW, "reinforcement_pool"): {"us_hq": 1, "us_infantry_bn": 4, "us_armored_cav_bn": 1, "us_engineer_bn": 1,
                                 "sf_company": 2, "cidg": 3, "helicopter_bn": 1, "air_cav_bn": 1, "airstrike": 6,
                                 "arc_light": 1, "naval_gunfire": 1, "arvn_hq": 2, "marine_bn": 1, "ranger_bn": 3,
                                 "commando_co": 1, "rf_bn": 2, "australian_bn": 1, "thai_bn": 1, "ace": 1},
    # 26.8 "12 x bases … / 1 x HQ, 3 x Main Force battalions, 3 x Local Force battalions, 4 x Sapper
    # companies, 3 x Deception "L" units, 9 x Guerrilla markers … / 2 x HQ, 6 x Main Force
    # battalions, 2 x Sappers, 1 x engineer in Cambodia … / … a total of 10 "N" and "R" units"
    (COM, "map"): {"com_log_base": 12, "com_hq": 3, "main_force_bn": 9, "lf_bn": 3, "sapper_co": 6,
                   "deception_l": 3, "com_engineer": 1, "guerrilla": 9, "N/R": 10},
    # 26.9 "3 x cadre, 6 x Local Force battalions, 2 x Sappers, 9 x Guerrilla markers, 3 x
    # Deception "R" units, all remaining "N" and "R" units."; 16.4
    (COM, "reinforcement_pool"): {"cadre": 3, "lf_bn": 6, "sapper_co": 2, "guerrilla": 9, "deception_r": 3,
                                  "peoples_hero": 1},
}

EXPECTED = {"sea_lords_game_warden": GAME_WARDEN, "sea_lords_tet": TET, "sea_lords_zumwalt": ZUMWALT}

# 24.1-24.3, 24.7; 25.1-25.3, 25.7; 26.1-26.3, 26.7: turns, first player, (starting CP, VP), CP a turn.
HEADS = {
    "sea_lords_game_warden": (6, COM, {FW: (25, 0), COM: (25, 0)}, {FW: 10, COM: 10}),
    "sea_lords_tet": (8, COM, {FW: (0, 0), COM: (90, 0)}, {FW: 15, COM: 5}),
    "sea_lords_zumwalt": (12, FW, {FW: (75, 0), COM: (40, 25)}, {FW: 20, COM: 10}),
}


@pytest.fixture(scope="module")
def scenarios() -> dict[str, Scenario]:
    return {name: load_scenario(SCENARIOS / f"{name}.toml") for name in NAMES}


def _kind(unit: str) -> str:
    return "guerrilla" if unit in GUERRILLA else "N/R" if unit in NR else unit


def listed(scenario: Scenario) -> dict[tuple[str, str], Counter]:
    """What the scenario file sets up, by side and holding area ("map" for every square)."""
    out: dict[tuple[str, str], Counter] = {}
    for p in scenario.setup:
        if p.requires_option:
            continue
        out.setdefault((p.side, p.box or "map"), Counter())[p.unit] += p.count
    for draw in scenario.draws:
        kind = {_kind(u) for u, _ in draw.mix}
        assert len(kind) == 1, "a draw mixes Guerrilla markers and N/R units"
        total = sum(n for _, n in draw.mix)
        out.setdefault((draw.side, "map"), Counter())[kind.pop()] += draw.count
        rest = total - draw.count if draw.rest_count is None else draw.rest_count
        if draw.rest and rest and _kind(draw.mix[0][0]) == "guerrilla":
            out.setdefault((draw.side, draw.rest), Counter())["guerrilla"] += rest
    return out


# --- the files ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_scenario_loads_on_the_delta_map(scenarios, name):
    scenario = scenarios[name]
    assert scenario.board.width == 34 and scenario.board.height == 37
    turns, first, start, income = HEADS[name]
    assert scenario.turns == turns
    assert scenario.player_order[0] == first
    assert scenario.setup_order == (FW, COM)  # 24.2, 25.2, 26.2: the Free World player sets up first
    assert {(s, r): v for s, r, v in scenario.resources} == {
        (side, res): value for side, (cp, vp) in start.items() for res, value in (("cp", cp), ("vp", vp))}
    assert set(scenario.income) == {(side, "cp", n) for side, n in income.items()}


@pytest.mark.parametrize("name", NAMES)
def test_forces_and_pools_match_the_source_lists(scenarios, name):
    got = listed(scenarios[name])
    want = {key: Counter(value) for key, value in EXPECTED[name].items()}
    assert got == want


def test_the_years_give_the_cp_table_its_cost_band(scenarios):
    # 24.0 "1966 to early 1967"; 25.0 "the Communist Tet Offensive of 1968"; 26.0 "1969-70"
    assert [scenarios[n].year for n in NAMES] == [1966, 1968, 1969]


def test_the_n_and_r_mix_is_big_enough_and_the_rest_goes_to_the_pool(scenarios):
    for scenario in scenarios.values():
        (draw,) = [d for d in scenario.draws if _kind(d.mix[0][0]) == "N/R"]
        assert draw.rest == "reinforcement_pool" and draw.rest_count is None  # "all remaining"
        assert sum(n for _, n in draw.mix) >= 15  # Tet picks 15 (25.8)


def test_named_places_resolve_to_the_towns_squares(scenarios):
    # The squares of the towns, computed from their coordinates with the frame formula of
    # test_sea_lords_map (11.80 N 104.20 E, 0.0915 deg a column, 0.0904 deg a row).
    import importlib.util

    spec = importlib.util.spec_from_file_location("_sea_lords_map", Path(__file__).parent / "test_sea_lords_map.py")
    frame = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(frame)
    SCENARIO_TOWNS, square = frame.SCENARIO_TOWNS, frame.square

    def cells(names):
        return [square(*SCENARIO_TOWNS[n]) for n in names]

    gw = scenarios["sea_lords_game_warden"]
    by_unit = {p.unit: p.cells for p in gw.setup if p.cells}
    assert list(by_unit["us_log_base"]) == cells(["Binh Thuy", "Can Tho", "Sa Dec", "My Tho", "Nha Be", "Vung Tau"])
    assert list(by_unit["arvn_infantry_div"]) == cells(["My Tho", "Sa Dec", "Bac Lieu"])
    zumwalt = scenarios["sea_lords_zumwalt"]
    divisions = next(p.cells for p in zumwalt.setup if p.unit == "arvn_infantry_div")
    assert list(divisions) == cells(["Dong Tam", "Sa Dec", "Bac Lieu"])  # 26.5
    arvn = next(p.cells for p in zumwalt.setup if p.unit == "arvn_log_base" and p.cells)
    assert list(arvn) == cells(["Saigon", "Nha Be", "Vung Tau", "Tan An", "My Tho", "Vinh Long", "Can Tho",
                                "Long Xuyen", "Rach Gia"])


def test_one_communist_base_on_each_printed_base_area(scenarios):
    # 24.8 "12 x logistical bases …, one each per printed Communist base area square"
    for scenario in scenarios.values():
        (bases,) = [p for p in scenario.setup if p.unit == "com_log_base"]
        board = scenario.board
        assert sorted(bases.cells) == sorted(c for c in board.cells if board.terrain(c) == "communist_base")
        assert len(bases.cells) == 12


# --- a whole set-up, chosen at random ----------------------------------------------------------


def run_setup(scenario: Scenario, seed: int, answers: dict[str, str] | None = None) -> Context:
    """Set the scenario up, answering each decision with a seeded random choice (or ``answers``
    for before-play options: option name -> "on"/"off")."""
    ctx = Context(scenario, seed)
    rng = random.Random(seed)
    flow = setup(ctx)
    try:
        decision = next(flow)
        while True:
            if decision.kind == "option" and answers:
                choice = Action("option", (decision.options[0].args[0], answers[decision.options[0].args[0]]))
            else:
                choice = rng.choice(decision.options)
            decision = flow.send(choice)
    except StopIteration:
        pass
    return ctx


@pytest.fixture(scope="module")
def set_up(scenarios) -> dict[tuple[str, int], Context]:
    out = {}
    for name in NAMES:
        for seed in (1, 2):
            answers = {"invade_cambodia": "on" if seed == 1 else "off"} if name == "sea_lords_zumwalt" else None
            out[name, seed] = run_setup(scenarios[name], seed, answers)
    return out


STATIC_OK_TERRAIN = {"major_river", "minor_river", "coastal", "city", "town", "communist_base"}
"""8.3: static units only in major river, minor river, canal, city, town, printed base or coastal squares."""


def _enterable_by_static(board, cell) -> bool:
    return board.terrain(cell) in STATIC_OK_TERRAIN or bool({"river", "coastal"} & board.tags(cell))


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_random_set_up_is_legal(scenarios, set_up, name, seed):
    ctx = set_up[name, seed]
    scenario, board, rules = scenarios[name], ctx.board, ctx.rules
    units = ctx.state.units
    boxes = {d.name for d in rules.rulebook.of_kind("box")}
    invaded = option_on(ctx, "invade_cambodia")

    # Every counter in exactly one place: a square or a box (none left "offmap").
    assert len({u.id for u in units}) == len(units)
    assert all(u.location in board.graph or u.location in boxes for u in units)
    want = EXPECTED[name]
    drawn = Counter()  # the drawn counters set up or sent to a box (the mixes are provisional)
    for d in scenario.draws:
        total = sum(n for _, n in d.mix)
        drawn[d.side] += d.count + (d.rest_count if d.rest_count is not None else total - d.count if d.rest else 0)
    for side in (FW, COM):
        fixed = sum(n for (s, _), table in want.items() if s == side for k, n in table.items()
                    if k not in ("guerrilla", "N/R"))
        extra = 1 if side == FW and invaded else 0
        assert sum(1 for u in units if u.side == side) == fixed + drawn[side] + extra

    # The holding areas hold what the source puts there (the Refit Box may get unplaced counters).
    for (side, where), table in want.items():
        if where == "map":
            continue
        held = Counter(_kind(u.type) for u in units if u.side == side and u.location == where)
        for unit, n in table.items():
            assert held[unit] >= n if where == "refit_box" else held[unit] == n, (side, where, unit)

    cells: dict[tuple[str, str], list] = {}
    for u in units:
        if u.on_map:
            cells.setdefault((u.location, u.side), []).append(u)
    for (cell, side), here in cells.items():
        types = [rules.unit_type(u.type) for u in here]
        # 9.1: eight units a square; airmobile units and markers do not count.
        assert sum(1 for t in types if t.kind == "unit" and t.movement != "A") <= 8, (cell, side)
        # 9.4: one of each kind of static unit; 19.2: one of each Guerrilla marker type; 18.2 one sensor.
        one_each = [t.name for t in types if t.movement == "static" or t.name in GUERRILLA or t.name == "sensor"]
        assert len(one_each) == len(set(one_each)), (cell, one_each)
        for t in types:
            if t.movement == "static":
                assert _enterable_by_static(board, cell), (cell, t.name)
            if t.movement == "N":  # 8.3: N units only in high seas and coastal squares
                assert board.terrain(cell) in ("high_seas", "coastal") or "coastal" in board.tags(cell)
        if side == FW and not invaded:
            # 21.1: no Free World unit in Cambodia (markers such as sensors may be: 21.1, 18.1)
            assert not ("cambodia" in board.tags(cell) and any(t.kind == "unit" for t in types)), cell
        if side == COM:
            assert "saigon_vung_tau" not in board.tags(cell), cell  # 8.3
        # No square holds units of both sides (set-up never places a counter on an enemy's).
        enemy = COM if side == FW else FW
        assert (cell, enemy) not in cells or not any(t.kind == "unit" for t in types) or \
            not any(rules.unit_type(u.type).kind == "unit" for u in cells[cell, enemy]), cell

    # The zones: where each kind of counter may stand.
    group_limit = {"sea_lords_game_warden": 2, "sea_lords_tet": 3, "sea_lords_zumwalt": 3}[name]
    arvn_line = {"rag", "cg", "marine_bn", "ranger_bn", "commando_co", "rf_bn"}  # 24.5/25.5/26.5
    us_lines = {"ccb", "pbr", "pcf", "lsc", "pacv", "wpb", "de", "ms", "mon", "aspb", "atc", "us_hq",
                "us_infantry_bn", "us_mech_bn", "sf_company", "us_engineer_bn", "ci_team", "helicopter_det",
                "helicopter_bn", "us_armored_cav_bn"}
    for (cell, side), here in cells.items():
        kinds = Counter(u.type for u in here)
        if side == FW:
            assert sum(kinds[t] for t in arvn_line) <= group_limit, cell  # "no more than N units per square"
            if any(kinds[t] for t in arvn_line):
                assert kinds["arvn_log_base"], cell  # "on any ARVN base squares"
            if any(kinds[t] for t in us_lines):
                assert kinds["us_log_base"], cell  # "on any US base squares"
            assert kinds["militia_garrison"] <= 1
            if kinds["militia_garrison"] or kinds["sf_camp"]:
                assert board.terrain(cell) in ("city", "town") and "cambodia" not in board.tags(cell)
            if kinds["mrb"]:
                assert "cambodia" not in board.tags(cell) and board.terrain(cell) != "communist_base"
        else:
            if kinds["supply_junk"] or kinds["troop_junk"]:  # "on base areas in Cambodia"
                assert board.terrain(cell) == "communist_base" and "cambodia" in board.tags(cell)
            if kinds["trawler"]:  # "on the west or east edge high seas squares"
                assert board.terrain(cell) == "high_seas" and cell[:2] in ("01", "34")
            for t in ("com_riverine", "com_naval", "cadre", "lf_bn", "deception_l", "deception_r", *GUERRILLA):
                if kinds[t]:  # "in South Vietnam"
                    assert "cambodia" not in board.tags(cell), (cell, t)
            if kinds["com_engineer"]:  # "in Cambodia … Communist base squares"
                assert board.terrain(cell) == "communist_base" and "cambodia" in board.tags(cell)


def test_game_warden_sets_up_every_counter_where_the_source_says(set_up):
    # Game Warden's lists fit the map with room to spare: nothing goes to the Refit Box unplaced.
    for seed in (1, 2):
        ctx = set_up["sea_lords_game_warden", seed]
        assert not [e for e in ctx.events if "cannot be placed" in e.get("text", "")]


def test_the_same_seed_gives_the_same_set_up(scenarios):
    for name in NAMES:
        a, b = run_setup(scenarios[name], 5), run_setup(scenarios[name], 5)
        assert a.state.units == b.state.units and a.events == b.events
        assert a.state.rolls == b.state.rolls > 0  # the draws are logged rolls


def test_draws_are_logged_rolls_with_their_reason(scenarios):
    ctx = run_setup(scenarios["sea_lords_game_warden"], 3)
    rolls = [e for e in ctx.events if e["type"] == "roll"]
    # 24.8/24.9: 12 of 21 Guerrilla markers then the 9 others; 10 of 20 N/R units then the
    # other 10, each pick one roll while more than one counter is left: 20 + 19 rolls.
    assert len(rolls) == 20 + 19
    assert all("set-up draw for communist" in r["reason"] for r in rolls)


# --- 26.10: the invasion of Cambodia ------------------------------------------------------------


def test_invading_cambodia_gives_the_communist_25_vp_and_the_fw_a_cavalry_battalion(scenarios):
    zumwalt = scenarios["sea_lords_zumwalt"]
    on = run_setup(zumwalt, 7, {"invade_cambodia": "on"})
    off = run_setup(zumwalt, 7, {"invade_cambodia": "off"})
    # 26.7 "Starting VP: 25"; 26.10 1) "the Communist player receives 25 VP"
    assert on.state.resource(COM, "vp") == Fraction(50)
    assert off.state.resource(COM, "vp") == Fraction(25)
    assert on.state.resource(FW, "vp") == off.state.resource(FW, "vp") == 0
    # 26.10 3) "a US armored cavalry battalion …, set up in any US logistical base"
    cav = [u for u in on.state.units if u.type == "us_armored_cav_bn" and u.on_map]
    assert len(cav) == 1
    assert any(u.type == "us_log_base" for u in on.state.units_at(cav[0].location))
    assert not [u for u in off.state.units if u.type == "us_armored_cav_bn" and u.on_map]
    # the decision is logged
    assert [e["on"] for e in on.events if e.get("kind") == "option"] == [True]


def test_invading_cambodia_opens_cambodia_to_free_world_units(scenarios):
    # 26.10 2) "all Free World units may conduct operations in Cambodia"; 21.1 otherwise.
    zumwalt = scenarios["sea_lords_zumwalt"]
    phnom_penh = zumwalt.board.place("Phnom Penh")  # a Cambodian town on the Mekong
    on, off = run_setup(zumwalt, 7, {"invade_cambodia": "on"}), run_setup(zumwalt, 7, {"invade_cambodia": "off"})
    assert option_on(on, "invade_cambodia") and not option_on(off, "invade_cambodia")
    assert phnom_penh in cost_table(on.rules, on.board, "us_infantry_bn").cost
    assert phnom_penh not in cost_table(off.rules, off.board, "us_infantry_bn").cost
    assert phnom_penh in cost_table(off.rules, off.board, "sf_company").cost  # 21.1's own exception


# --- 25.10: Tet turn 1 ----------------------------------------------------------------------------


def test_tet_communist_recon_plus_one_on_turn_1_only(scenarios):
    ctx = Context(scenarios["sea_lords_tet"], 1)
    ctx.state = ctx.state.__class__(turn=1)
    apply_turn_modifiers(ctx)
    assert ctx.state.turn_modifiers == ((COM, "roll:recon", 1),)  # 25.10 "adds one to all his recon die rolls"
    ctx.state = ctx.state.__class__(turn=2)
    apply_turn_modifiers(ctx)
    assert ctx.state.turn_modifiers == ()


def test_tet_sappers_may_enter_saigon_only_on_turn_1(scenarios):
    # 25.10 "On Game Turn 1, Communist Sapper units may enter Saigon and Vung Tau"; 8.3 otherwise
    # never.  The cost tables serve every turn, so they keep the ban; turn 1 is the engine's to add.
    tet = scenarios["sea_lords_tet"]
    saigon = tet.board.place("Saigon")
    decl = tet.rulebook.get("unit", "sapper_co")
    (line,) = decl.all("may")
    assert line.get("turn") == 1
    assert saigon not in cost_table(tet.rules, tet.board, "sapper_co").cost


# --- the format's keys: each problem an E704 with its line -------------------------------------

HEAD = f"""\
[scenario]
rulebook = "sea_lords"
map = "{MAP}"
turns = 2
player_order = ["free_world", "communist"]
"""


def load_text(tmp_path, text: str) -> Scenario:
    path = tmp_path / "s.toml"
    path.write_text(HEAD + textwrap.dedent(text), encoding="utf-8")
    return load_scenario(path)


def problem(tmp_path, text: str) -> tuple[int, str, str | None]:
    with pytest.raises(RulesError) as caught:
        load_text(tmp_path, text)
    (d,) = caught.value.diagnostics
    assert d.code == "E704", d
    return d.span.line, d.message, d.hint


BAD = [
    # (what, text after HEAD (line 6 on), expected line, words in the message, words in the hint)
    ("year", 'year = "1966"\n', 6, "'year' must be a whole number", None),
    ("income side", '[scenario.income.free_wrld]\ncp = 10\n', 6, "unknown side 'free_wrld' in income",
     "free_world"),
    ("income resource", '[scenario.income.free_world]\ncps = 10\n', 7, "unknown resource 'cps'", "cp"),
    ("income value", '[scenario.income.free_world]\ncp = 1.5\n', 7, "must be a whole number", None),
    ("option name", '[scenario.options]\nnaval_zc = true\n', 7, "unknown option 'naval_zc'", "naval_zoc"),
    ("option value", '[scenario.options]\nnaval_zoc = "yes"\n', 7, "must be true or false", None),
    ("choose option", '[scenario.choose]\ninvade = "free_world"\n', 7, "unknown option 'invade'", None),
    ("choose side", '[scenario.choose]\nnaval_zoc = "fw"\n', 7, "chosen by unknown side 'fw'", None),
    ("unplaced", 'unplaced = "refit"\n', 6, "unknown box 'refit'", "refit_box"),
    ("box", '[[setup]]\nside = "free_world"\nunit = "pbr"\nbox = "refit"\n', 9, "unknown box 'refit'", "refit_box"),
    ("place", '[[setup]]\nside = "free_world"\nunit = "pbr"\nat = "My Thoo"\n', 9,
     "'My Thoo' is neither a place of the map nor a cell id", "My Tho"),
    ("cell", '[[setup]]\nside = "free_world"\nunit = "pbr"\nat = "9999"\n', 9, "'9999' is not on the map", None),
    ("places", '[[setup]]\nside = "free_world"\nunit = "pbr"\nplaces = ["My Tho", "Sa Dek"]\n', 9,
     "'Sa Dek' is neither a place", "Sa Dec"),
    ("places count", '[[setup]]\nside = "free_world"\nunit = "pbr"\ncount = 3\nplaces = ["My Tho", "Sa Dec"]\n',
     9, "'count' is 3 but the entry places one on each of 2 cells", None),
    ("zone tags", '[[setup]]\nside = "free_world"\nunit = "pbr"\nzone = { tags = ["cambodja"] }\n', 9,
     "zone tags names 'cambodja'", "cambodia"),
    ("zone not_tags", '[[setup]]\nside = "free_world"\nunit = "pbr"\nzone = { not_tags = ["rivr"] }\n', 9,
     "zone not_tags names 'rivr'", "river"),
    ("zone edge", '[[setup]]\nside = "free_world"\nunit = "pbr"\nzone = { edge = ["westt"] }\n', 9,
     "unknown map edge 'westt'", "west"),
    ("zone holding", '[[setup]]\nside = "free_world"\nunit = "pbr"\nzone = { holding = ["us_base"] }\n', 9,
     "zone holding names 'us_base'", "us_log_base"),
    ("zone key", '[[setup]]\nside = "free_world"\nunit = "pbr"\nzone = { tag = ["river"] }\n', 9,
     "unknown key 'tag' in a zone", "tags"),
    ("zone empty", ('[[setup]]\nside = "free_world"\nunit = "pbr"\nzone = { tags = ["cambodia"], '
     'not_tags = ["cambodia"] }\n'), 6, "set-up zone contains no cell", None),
    ("setup key", '[[setup]]\nside = "free_world"\nunit = "pbr"\nbox = "refit_box"\nper_cel = 2\n', 10,
     "unknown key 'per_cel' in a set-up entry", "per_cell"),
    ("two wheres", '[[setup]]\nside = "free_world"\nunit = "pbr"\nbox = "refit_box"\nat = "My Tho"\n', 6,
     "not at and box", None),
    ("wrong side", '[[setup]]\nside = "communist"\nunit = "pbr"\nbox = "refit_box"\n', 8,
     "unit type 'pbr' belongs to 'free_world', not 'communist'", None),
    ("group_per_cell", ('[[setup]]\nside = "free_world"\nunit = "pbr"\nzone = { tags = ["river"] }\n'
     'group_per_cell = 0\n'), 10, "'group_per_cell' must be a whole number", None),
    ("one_each", '[[setup]]\nside = "free_world"\nunit = "pbr"\nzone = { tags = ["river"] }\none_each = "yes"\n',
     10, "'one_each' must be true or false", None),
    ("one_each count", ('[[setup]]\nside = "communist"\nunit = "com_log_base"\ncount = 11\n'
     'zone = { terrain = ["communist_base"] }\none_each = true\n'), 9, ("'count' is 11 but the entry places one on "
     "each of 12 cells"), None),
    ("requires_option", ('[[setup]]\nside = "free_world"\nunit = "pbr"\nbox = "refit_box"\n'
     'requires_option = "invade"\n'), 10, "unknown option 'invade'", None),
    ("may_hold", '[[setup]]\nside = "free_world"\nunit = "sensor"\nzone = {}\nmay_hold = "aside"\n', 10,
     "unknown box 'aside'", "set_aside"),
    ("draw type", '[[draw]]\nside = "communist"\ncount = 1\nfrom = { junk = 2 }\n', 9, "unknown unit type 'junk'",
     None),
    ("draw count", '[[draw]]\nside = "communist"\ncount = 5\nfrom = { trawler = 2 }\n', 8,
     "'count' must be a whole number from 1 to the 2 counters", None),
    ("draw zone", '[[draw]]\nside = "communist"\ncount = 1\nfrom = { trawler = 2 }\n', 6,
     "no [[draw.place]] zone for 'trawler'", None),
    ("draw rest", '[[draw]]\nside = "communist"\ncount = 1\nfrom = { trawler = 2 }\nrest = "pool"\n', 10,
     "unknown box 'pool'", "reinforcement_pool"),
    ("draw place units", ('[[draw]]\nside = "communist"\ncount = 1\nfrom = { trawler = 2 }\n[[draw.place]]\n'
     'units = ["junk"]\nzone = {}\n'), 11, "'units' must list unit types of the draw's mix", None),
    ("modifier what", '[[turn_modifier]]\nturns = "1"\nside = "communist"\nwhat = "recon"\namount = 1\n', 9,
     "'what' must be roll:WHAT, income:RESOURCE or gains:RESOURCE", None),
    ("modifier turns", '[[turn_modifier]]\nturns = "first"\nside = "communist"\nwhat = "roll:recon"\namount = 1\n',
     7, "'turns' must be a turn or a range", None),
    ("scenario key", 'yeer = 1966\n', 6, "unknown key 'yeer' in [scenario]", "year"),
]


@pytest.mark.parametrize("what, text, line, message, hint", BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_an_e704_with_its_line(tmp_path, what, text, line, message, hint):
    got_line, got_message, got_hint = problem(tmp_path, text)
    assert message in got_message
    assert got_line == line, got_message
    if hint:
        assert got_hint and hint in got_hint


def test_the_new_keys_load_as_written(tmp_path):
    scenario = load_text(tmp_path, """\
        year = 1968
        unplaced = "refit_box"
        [scenario.income.free_world]
        cp = 15
        [scenario.options]
        naval_zoc = true
        [[setup]]
        side = "free_world"
        unit = "us_log_base"
        places = ["Bin Thuy", "Long Xugen"]
        [[setup]]
        side = "free_world"
        unit = "sensor"
        count = 2
        zone = { edge = ["east"], tags = ["high_seas"] }
        may_hold = "set_aside"
        [[turn_modifier]]
        turns = "2-3"
        side = "free_world"
        what = "income:cp"
        amount = -2
        """)
    assert scenario.year == 1968 and scenario.unplaced == "refit_box"
    assert scenario.income == (("free_world", "cp", 15),)
    assert option_on(scenario, "naval_zoc")  # 23.1: an optional rule the scenario switches on
    bases, sensors = scenario.setup
    assert bases.cells == ("1720", "1416") and bases.count == 2  # the seed's spellings of Binh Thuy, Long Xuyen
    # The east edge's high seas squares: column 34 of the map drawing (docs/scenarios.md) is
    # '.' in rows 1-15, 'c' in row 16 and '~' in rows 17-37.
    assert sensors.zone.allowed == frozenset(f"34{r:02d}" for r in range(17, 38))
    (modifier,) = scenario.turn_modifiers
    assert (modifier.first, modifier.last, modifier.what, modifier.amount) == (2, 3, "income:cp", -2)


def test_tet_turn_1_begins_with_the_recon_modifier_in_force(scenarios):
    # The turn loop applies the scenario's turn modifiers when a turn begins (25.10).
    from warbook.interpreter.agents import RandomAgent
    from warbook.interpreter.game import Game
    from warbook.interpreter.rng import choice_rng

    game = Game.new(scenarios["sea_lords_tet"], seed=4)
    agents = {s: RandomAgent(choice_rng(4, s)) for s in game.ctx.rules.sides}
    while not game.is_over() and game.state.turn == 0:
        side = game.current_player()
        game.apply(agents[side].choose(game.observe(side), game.decision))
    assert game.state.turn == 1
    assert (COM, "roll:recon", 1) in game.state.turn_modifiers
