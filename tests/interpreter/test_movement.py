"""interpreter.movement: hand-counted reachable hexes (data/reachable.txt), paths, explanations, caching.

Every expected value is worked out by hand from the seed (Several Klicks in the
Nam, headings cited) or from the tiny generic rulebook written in the test; none
is copied from warbook's output.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest

from driving import do_call
from warbook.dsl import load_rulebook
from warbook.interpreter import costs, stacking, zones
from warbook.interpreter import movement as mv
from warbook.interpreter.board import board_from_text
from warbook.interpreter.context import Context
from warbook.interpreter.rules import Rules
from warbook.interpreter.state import GameState, Unit

ROOT = Path(__file__).resolve().parents[2]
KLICKS = ROOT / "rulebooks" / "several_klicks.rules"
DATA = Path(__file__).parent / "data" / "reachable.txt"
FIXTURES = Path(__file__).parent / "fixtures" / "movement"

LEGEND = {".": "clear", "=": "road", "j": "jungle", "m": "mountain", "r": "river", "g": "elephant_grass",
          "v": "village", "h": "hill", "p": "paddy_fields"}


@pytest.fixture(scope="module")
def klicks():
    return load_rulebook(KLICKS)


def map_text(rows: list[str], grid: str = "hex", legend: dict[str, str] = LEGEND) -> str:
    used = {c for row in rows for c in row}
    lines = ["[map]", f'grid = "{grid}"', f"width = {len(rows[0])}", f"height = {len(rows)}",
             "rows = [" + ", ".join(f'"{r}"' for r in rows) + "]", "[map.legend]"]
    lines += [f'"{c}" = "{t}"' for c, t in legend.items() if c in used]
    return "\n".join(lines) + "\n"


def make_ctx(rulebook, rows: list[str], units: list[Unit], grid: str = "hex", legend=LEGEND,
             order=("allies", "vc_nva")) -> Context:
    board = board_from_text(map_text(rows, grid, legend), "test-map.toml")
    ctx = Context(SimpleNamespace(rulebook=rulebook, board=board, player_order=tuple(order)), 0)
    ctx.state = GameState(units=tuple(sorted(units)))
    return ctx


def unit(uid: str, side: str, type_name: str, cell: str, **kw) -> Unit:
    return Unit(uid, type_name, side, cell, dummy=type_name == "dummy", **kw)


# --- the perft-style data file --------------------------------------------------------------------


def read_cases(path: Path) -> list[dict]:
    cases, case = [], None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.split("#", 1)[0].rstrip() if not raw.startswith("map ") else raw.rstrip()
        if not line.strip():
            continue
        word, _, rest = line.partition(" ")
        if word == "case":
            case = {"name": rest.strip(), "line": number, "map": [], "units": [], "expect": None}
            cases.append(case)
        elif word == "map":
            case["map"].append(rest.strip())
        elif word == "unit":
            uid, side, type_name, cell, *flags = rest.split()
            options = {"hidden": "hidden" in flags}
            for flag in flags:
                if flag.startswith("mode="):
                    options["mode"] = flag[5:]
            case["units"].append(unit(uid, side, type_name, cell, **options))
        elif word == "move":
            uid, *flags = rest.split()
            case["mover"] = uid
            case["points"] = next((Fraction(f[7:]) for f in flags if f.startswith("points=")), "full")
        elif word == "expect":
            case["expect"] = {cell: Fraction(cost) for cell, cost in (item.split(":") for item in rest.split())}
        elif word == "count":
            case["count"] = int(rest)
        else:
            raise ValueError(f"{path.name}:{number}: unknown line {raw!r}")
    for case in cases:
        if case["expect"] is None:
            case["expect"] = {}
    return cases


CASES = read_cases(DATA)


def test_data_file_is_consistent():
    assert len(CASES) >= 30
    for case in CASES:
        assert len(case["expect"]) == case["count"], f"{case['name']}: expect and count disagree"
        assert len({len(row) for row in case["map"]}) == 1, case["name"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_reachable_hexes(klicks, case):
    ctx = make_ctx(klicks, case["map"], case["units"])
    mover = ctx.state.unit(case["mover"])
    found = mv.reachable(ctx, mover, case["points"])
    assert found == case["expect"], f"{DATA.name}:{case['line']} {case['name']}"
    assert len(found) == case["count"]


# --- paths ----------------------------------------------------------------------------------------


def test_canonical_path_breaks_ties_by_lower_cell_id(klicks):
    # 0101 → 0202 costs 2 by 0102 or by 0201; the lower id, 0102, is the predecessor.
    ctx = make_ctx(klicks, ["...", "..."], [unit("A1", "allies", "us_infantry", "0101")])
    found = mv.reach(ctx, ctx.state.unit("A1"))
    assert found.path("0202") == ("0101", "0102", "0202")
    assert found.path("0102") == ("0101", "0102")


def test_path_follows_the_cheap_road(klicks):
    # TERRAIN TABLE "Road ½ (1 infantry)": ½ a road hex for vehicles; the road runs along row 2.
    # 0102 → 0302: by road 0202 0302 costs ½×2; by row 1 (0201, clear, then 0302) 1 + ½.
    ctx = make_ctx(klicks, ["...", "==="], [unit("M1", "allies", "us_mech", "0102")])
    found = mv.reach(ctx, ctx.state.unit("M1"))
    assert found.path("0302") == ("0102", "0202", "0302")
    assert found.ends["0302"] == 1


def test_foot_troops_pay_a_whole_point_a_road_hex(klicks):
    # "½ (1 infantry)": infantry is every foot type (the rulebook's gap), mortars and VC (Local) too.
    for kind, side in (("mortars", "allies"), ("vc_local", "vc_nva"), ("us_infantry", "allies")):
        ctx = make_ctx(klicks, ["...", "==="], [unit("M1", side, kind, "0102")])
        assert mv.reach(ctx, ctx.state.unit("M1")).ends["0302"] == 2, kind


# --- explanations -----------------------------------------------------------------------------------


def test_explain_names_the_rule_and_section(klicks):
    ctx = make_ctx(klicks, ["..r..", "j....", "....."], [
        unit("A1", "allies", "us_infantry", "0101"), unit("M1", "allies", "us_mech", "0203"),
        unit("V1", "vc_nva", "vc_local", "0503", hidden=True),
        *[unit(f"A{i}", "allies", "us_infantry", "0202") for i in range(2, 6)]])
    a1 = ctx.state.unit("A1")
    river = mv.explain(ctx, a1, "0301")
    assert river == "0301 is river: no entry (terrain 'river', §TERRAIN TABLE)"
    assert "enemy cells forbidden" in mv.explain(ctx, a1, "0503") and "§MOVEMENT" in mv.explain(ctx, a1, "0503")
    stacked = mv.explain(ctx, a1, "0202")
    assert "stacking limit 4" in stacked and "§MOVEMENT" in stacked
    # ZOC: V1 at 0503 holds 0403 (clear); 0504 is off the map.
    assert mv.explain(ctx, a1, "0504") == "'0504' is not a cell of the map"
    # Mech may not enter the jungle at 0102: no road on this map.
    mech = mv.explain(ctx, ctx.state.unit("M1"), "0102")
    assert mech == "0102 is jungle: movement 'vehicle' enters only clear road, or road within 1 (§MOVEMENT)"
    assert mv.explain(ctx, a1, "0201") is None


def test_explain_zone_and_distance(klicks):
    line = make_ctx(klicks, ["........"], [unit("A1", "allies", "us_infantry", "0101"),
                                           unit("V1", "vc_nva", "vc_local", "0601", hidden=True)])
    # MOVEMENT: on a line, 0801 lies behind the enemy-held 0601, which no unit may enter.
    assert mv.explain(line, line.state.unit("A1"), "0801") == \
        "0801 cannot be reached from 0101: no path avoids barred and enemy-held cells"
    # ZONE OF CONTROL: V1 at 0401 holds 0301 0302 0402 0501 0502; 0601 is 5 clear hexes away (Move 6)
    # but every way there enters the zone first.
    ctx = make_ctx(klicks, ["........", "........"], [unit("A1", "allies", "us_infantry", "0101"),
                                                     unit("V1", "vc_nva", "vc_local", "0401", hidden=True)])
    text = mv.explain(ctx, ctx.state.unit("A1"), "0601")
    assert text.startswith("enemy zone of control stops movement at ")
    assert text.split()[7] in {"0301", "0302", "0402", "0501", "0502"} and "§ZONE OF CONTROL" in text
    far = make_ctx(klicks, ["........"], [unit("A1", "allies", "us_infantry", "0101")])
    # US Infantry Move 6: 0801 is 7 clear hexes away.
    assert mv.explain(far, far.state.unit("A1"), "0801") == \
        "0801 is 7 movement points away and A1 has 6 movement points (movement 'foot', §MOVEMENT)"


# --- zones and stacking as functions ---------------------------------------------------------------


def test_enemy_zones_for_retreat_and_omniscience(klicks):
    ctx = make_ctx(klicks, ["....."], [unit("A1", "allies", "us_infantry", "0101"),
                                       unit("D1", "vc_nva", "dummy", "0301", hidden=True),
                                       unit("V1", "vc_nva", "vc_local", "0501", hidden=True)])
    # ZONE OF CONTROL "blocks retreat"; adjacent clear hexes of 0301 and 0501.
    seen = zones.enemy_zones(ctx, "allies", blocking_retreat=True)
    assert sorted(seen) == ["0201", "0401"]
    # Knowing the dummy for what it is leaves only the real unit's zone.
    assert sorted(zones.enemy_zones(ctx, "allies", omniscient=True)) == ["0401"]


def test_zones_of_few_cells_are_tuples_and_every_empty_zone_one_object(klicks):
    # Into clear and road hexes only: a unit in jungle 0301 or 0401 holds none of its jungle
    # neighbours; in 0201, clear 0101; in 0602 (column 6 sits low), its five clear neighbours.
    rows = [".jjjj.j", "jjjjj..", "jjjj..."]
    units = [unit(f"V{n}", "vc_nva", "vc_local", f"0{n}01") for n in (2, 3, 4)] + \
        [unit("V6", "vc_nva", "vc_local", "0602")]
    ctx = make_ctx(klicks, rows, units)
    zone = zones.zone_rules(ctx.rules)[0]
    held = {u.id: zones.zone_of(ctx, u, zone) for u in ctx.state.units}
    assert held == {"V2": ("0101",), "V3": (), "V4": (), "V6": frozenset({"0503", "0601", "0603", "0702", "0703"})}
    assert held["V3"] is held["V4"] is zones.NOWHERE  # one object kept, not one each
    assert sorted(zones.enemy_zones(ctx, "allies")) == ["0101", "0503", "0601", "0603", "0702", "0703"]


def test_a_zone_into_any_cell_one_away_holds_the_cells_next_to_its_unit(klicks):
    from attrs import evolve

    from warbook.interpreter.cells import within

    rows = [".jjjj.j", "jjjjj..", "jjjj..."]
    for cell, size in (("0101", 2), ("0401", 5), ("0602", 6), ("0703", 3)):
        ctx = make_ctx(klicks, rows, [unit("V1", "vc_nva", "vc_local", cell)])  # (a fresh map: fresh memos)
        zone = evolve(zones.zone_rules(ctx.rules)[0], into=None)
        assert zone.range == 1
        held = zones.zone_of(ctx, ctx.state.units[0], zone)
        next_to = sorted(c for c, d in within(ctx.board, [cell], 1).items() if d == 1)
        assert sorted(held) == next_to and len(held) == size
        assert type(held) is (tuple if size <= zones.FEW_CELLS else frozenset)


def test_a_plan_is_kept_once_for_a_type_whatever_the_turn(klicks):
    from warbook.interpreter.caches import map_memos

    ctx = make_ctx(klicks, ["....."], [unit("A1", "allies", "us_infantry", "0101")])
    plans = [mv._plan(ctx.rules, ctx.board, "us_infantry", turn) for turn in range(1, 9)]
    assert all(plan is plans[0] for plan in plans)
    # No `may enter … on turn` line nor `… when` line: by its table's key and by its name, not by turn.
    assert list(map_memos(ctx.rules, ctx.board).plans) == [("us_infantry", None), "us_infantry"]


def test_stacking_problem_counts_ground_and_choppers_apart(klicks):
    units = [unit(f"A{i}", "allies", "us_infantry", "0201") for i in range(1, 5)]
    units += [unit(f"G{i}", "allies", "gunship", "0201") for i in range(1, 4)]
    units += [unit("H1", "allies", "huey", "0101"), unit("A9", "allies", "arvn", "0101"),
              unit("H2", "allies", "huey", "0101")]
    ctx = make_ctx(klicks, ["...."], units)
    state = ctx.state
    # MOVEMENT: "Maximum of 4 choppers in a hex – but there may be 4 choppers and 4 ground units".
    assert stacking.stacking_problem(ctx, "allies", "0201", [state.unit("H1")]) is None
    assert "limit 4 for helicopter" in stacking.stacking_problem(ctx, "allies", "0201",
                                                                 [state.unit("H1"), state.unit("H2")])
    assert "stacking limit 4" in stacking.stacking_problem(ctx, "allies", "0201", [state.unit("A9")])


# --- compiled once -------------------------------------------------------------------------------------


def test_costs_are_compiled_once_per_rules_board_and_type(klicks, monkeypatch):
    ctx = make_ctx(klicks, ["=.jm.", "....."], [unit("A1", "allies", "us_infantry", "0101"),
                                                 unit("V1", "vc_nva", "vc_local", "0502")])
    first = mv.reachable(ctx, ctx.state.unit("A1"))
    table = costs.cost_table(ctx.rules, ctx.board, "us_infantry")
    assert table is costs.cost_table(ctx.rules, ctx.board, "us_infantry")
    assert table.scale == 1 and costs.cost_table(ctx.rules, ctx.board, "us_mech").scale == 2  # road ½

    def no_rules(*args, **kw):
        raise AssertionError("a rule was evaluated during the search")

    monkeypatch.setattr(Rules, "terrain_cost", no_rules)
    monkeypatch.setattr(Rules, "cell_selectors", no_rules)
    assert mv.reachable(ctx, ctx.state.unit("A1")) == first


def test_allowance_reads_points_lines(klicks):
    rules = Rules(klicks)
    assert costs.allowance(rules, rules.unit_type("us_mech")) == 8  # UNITS: US Mech Move 8
    assert costs.allowance(rules, rules.unit_type("huey")) is costs.UNLIMITED  # Move "All"
    assert costs.allowance(rules, rules.unit_type("artillery")) == 0  # Move 0, never moves
    assert mv.show_points(Fraction(5, 2)) == "2½ movement points"
    assert mv.show_points(Fraction(1)) == "1 movement point"


# --- generic constructs on a tiny rulebook of the test's own ---------------------------------------------

GENERIC = (FIXTURES / "generic.rules")


@pytest.fixture(scope="module")
def generic():
    return load_rulebook(GENERIC)


GENERIC_LEGEND = {".": "plain", "~": "water", "x": "wall", "h": "harbour"}


def test_square_grid_without_diagonals(generic):
    # walk: points 2, diagonals no → the 4 side neighbours at 1, the next ring by sides at 2.
    ctx = make_ctx(generic, [".....", ".....", "....."], [unit("W1", "blue", "walker", "0302")],
                   grid="square", legend=GENERIC_LEGEND, order=("blue", "red"))
    found = mv.reachable(ctx, ctx.state.unit("W1"))
    assert found == {"0202": 1, "0402": 1, "0301": 1, "0303": 1,
                     "0102": 2, "0502": 2, "0201": 2, "0401": 2, "0203": 2, "0403": 2}


def test_side_never_enters_unless_the_type_may(generic):
    # side blue never enters wall; the climber may enter wall.
    ctx = make_ctx(generic, [".x."], [unit("W1", "blue", "walker", "0101"), unit("C1", "blue", "climber", "0101")],
                   grid="square", legend=GENERIC_LEGEND, order=("blue", "red"))
    assert mv.reachable(ctx, ctx.state.unit("W1")) == {}
    assert mv.reachable(ctx, ctx.state.unit("C1")) == {"0201": 1, "0301": 2}
    assert "never enters wall" in mv.explain(ctx, ctx.state.unit("W1"), "0201")


def test_enters_only_must_end_and_stops_on_enemy(generic):
    # boat: unlimited distance, enters only water harbour, must end on harbour, stops on entering enemy;
    # the stacking says enemy cells allowed.  Water 0201..0501, harbours 0601 and 0301 row 2.
    rows = ["~~~~~h", "..h..."]
    ctx = make_ctx(generic, rows, [unit("B1", "blue", "boat", "0101"), unit("R1", "red", "raider", "0401")],
                   grid="square", legend={**GENERIC_LEGEND}, order=("blue", "red"))
    # 0101 is water (start); the boat may end only on harbours: 0302 (2 steps, by the corner 0201→0302),
    # and not 0601, which lies beyond the raider's cell 0401, where it must stop.
    assert mv.reachable(ctx, ctx.state.unit("B1")) == {"0302": 2}
    assert "must end on harbour" in mv.explain(ctx, ctx.state.unit("B1"), "0201")


def test_crosses_only_features(generic):
    # ferry: crosses only ford; the ford joins 0101-0201 only.
    ctx_text = map_text(["..."], "square", GENERIC_LEGEND) + \
        '[[map.features]]\nkind = "ford"\npath = ["0101", "0201"]\n'
    board = board_from_text(ctx_text, "ford.toml")
    ctx = Context(SimpleNamespace(rulebook=generic, board=board, player_order=("blue", "red")), 0)
    ctx.state = GameState(units=(unit("F1", "blue", "ferry", "0101"),))
    assert mv.reachable(ctx, ctx.state.unit("F1")) == {"0201": 1}


def test_move_order_descending(generic):
    # `do move order by move descending`: the runner (move 3) before the climber (move 2); the walker
    # has no move factor (`points 2`), so it moves last.
    from warbook.interpreter.procedures.move import move

    ctx = make_ctx(generic, ["....."], [unit("W1", "blue", "walker", "0101"), unit("C1", "blue", "climber", "0201"),
                                        unit("R1", "blue", "runner", "0301")],
                   grid="square", legend=GENERIC_LEGEND, order=("blue", "red"))
    flow = move(ctx, do_call(ctx.rules, "move", step="moving"))
    asked, decision = [], next(flow)
    while decision is not None:
        asked.append(decision.options[0].args[0])
        try:
            decision = flow.send(next(o for o in decision.options if o.kind == "stay"))
        except StopIteration:
            decision = None
    assert asked == ["R1", "C1", "W1"]


def test_a_carrier_never_ends_where_its_cargo_could_not_stand(klicks):
    # MOVEMENT: the Huey may fly over and end over the river (the rulebook's gap reading),
    # but not with US Infantry aboard: "River | No entry" for the troops it would set down.
    ctx = make_ctx(klicks, [".r.."], [unit("H1", "allies", "huey", "0101"), unit("A1", "allies", "us_infantry", "0101")])
    huey, infantry = ctx.state.unit("H1"), ctx.state.unit("A1")
    assert set(mv.reachable(ctx, huey)) == {"0201", "0301", "0401"}
    assert set(mv.search(ctx, huey, cargo=[infantry]).ends) == {"0301", "0401"}
