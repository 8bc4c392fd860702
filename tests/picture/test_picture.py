"""``warbook render``: the structure of the pictures it draws (cells, ids, legend, features, counters
at a step, face-down counters for the other side), and its refusals."""

import itertools
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from driving import played, run_cli as run

from warbook.dsl import load_rulebook
from warbook.interpreter import frames
from warbook.interpreter.board import board_from_text, read_board
from warbook.interpreter.frames import Counter
from warbook.interpreter.game import Game
from warbook.interpreter.picture import MapPicture, STACK_SHOWN
from warbook.interpreter.picture_style import MIN_DISTANCE, distance, terrain_colours
from warbook.interpreter.rules import Rules
from warbook.interpreter.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "interpreter" / "fixtures" / "mini"
ORVEL = ROOT / "examples" / "orvel_gap" / "orvel_gap.toml"
DELTA = ROOT / "scenarios" / "maps" / "sea_lords_delta.toml"
NS = {"s": "http://www.w3.org/2000/svg"}


def parse(path: Path) -> ET.Element:
    return ET.fromstring(path.read_text(encoding="utf-8"))


def group(root: ET.Element, name: str) -> ET.Element:
    found = root.find(f".//s:g[@id='{name}']", NS)
    assert found is not None, name
    return found


def cells_of(root: ET.Element) -> list[ET.Element]:
    return group(root, "cells").findall("s:polygon", NS)


def texts(element: ET.Element) -> list[str]:
    return [t.text for t in element.iter(f"{{{NS['s']}}}text") if t.text]


@pytest.fixture(scope="module")
def mini_log(tmp_path_factory) -> Path:
    """Mini, seed 3, to its end: red's three counters are face down (placed at steps 1 to 3)."""
    path = tmp_path_factory.mktemp("mini") / "mini.jsonl"
    game = Game.new(str(MINI / "mini.toml"), 3)
    for choice in ["place R1 0401", "place R2 0403", "place R3 0301", "done", "declare R1 watch", "done"]:
        game.apply(choice)
    game.save(path)
    return path


def test_a_map_file_is_one_polygon_per_cell_with_its_id_and_a_legend_entry_per_terrain(capsys, tmp_path):
    out = tmp_path / "mini.svg"
    assert run(capsys, "render", str(MINI / "map.toml"), "-o", str(out)) == (0, "", "")
    root = parse(out)
    polygons = cells_of(root)
    ids = [p.get("id") for p in polygons]
    assert sorted(ids) == sorted(f"cell-{c:02d}{r:02d}" for c in range(1, 5) for r in range(1, 4))
    assert sorted(texts(group(root, "ids"))) == sorted(i.removeprefix("cell-") for i in ids)
    town = root.find(".//s:polygon[@id='cell-0202']", NS)
    assert town.get("data-terrain") == "town" and town.find("s:title", NS).text == "0202 Town"
    legend = texts(group(root, "legend"))
    assert legend == ["Terrain", "Clear", "Town"]  # a bare map: names in words, no sides, no counters
    assert len({p.get("fill") for p in polygons}) == 2


def test_a_hex_picture_puts_neighbours_side_by_side_and_a_square_one_shares_corners():
    """Geometry agrees with the board's graph: every pair of hex neighbours shares a side (two
    corners), a square's side neighbours two corners and its corner neighbours one; hex maps with
    the even or the odd columns low."""
    odd = board_from_text('[map]\ngrid = "hex"\nwidth = 5\nheight = 4\nlow_columns = "odd"\n'
                          'rows = [".....", ".....", ".....", "....."]\n[map.legend]\n"." = "clear"\n', "odd.toml")
    for board in (read_board(ORVEL.parent / "map.toml"), read_board(DELTA), odd):
        picture = MapPicture(board)
        for a, b, data in board.graph.edges(data=True):
            shared = picture.geometry.shared_side(picture.cells[a], picture.cells[b])
            assert len(shared) == (1 if data["kind"] == "corner" else 2), (a, b)
            step = math.dist(picture.centre(a), picture.centre(b))
            expected = picture.geometry.size * (math.sqrt(3) if board.grid == "hex" else
                                                (math.sqrt(2) if data["kind"] == "corner" else 1))
            assert step == pytest.approx(expected)


def test_the_delta_map_draws_every_square_and_a_legend_entry_for_every_terrain_tag_and_feature(capsys, tmp_path):
    out = tmp_path / "delta.svg"
    assert run(capsys, "render", "sea_lords_game_warden", "-o", str(out))[0] == 0
    root = parse(out)
    assert len(cells_of(root)) == 34 * 37
    scenario = load_scenario(ROOT / "scenarios" / "sea_lords_game_warden.toml")
    legend = texts(group(root, "legend"))
    terrains = {scenario.board.terrain(c) for c in scenario.board.cells}
    assert {scenario.rules.terrains[t].label for t in terrains} <= set(legend)
    assert {"Cambodia", "water symbol", "Free World", "Communist"} <= set(legend)
    # every terrain a colour of its own
    assert len({p.get("fill") for p in cells_of(root)}) == len(terrains)
    # water links lie on sides and corners: drawn centre to centre, one line per edge that has one
    linked = sum(1 for _, _, d in scenario.board.graph.edges(data=True) if "water_link" in d["features"])
    assert len(group(root, "features").findall("s:line", NS)) == linked > 0
    places = texts(group(root, "places"))
    assert "Can Tho" in places and any("/" in name for name in places)  # two names of one square, joined


def test_a_feature_on_sides_only_is_drawn_on_the_shared_side_and_one_on_cells_centre_to_centre(capsys, tmp_path):
    out = tmp_path / "orvel.svg"
    assert run(capsys, "render", str(ORVEL), "-o", str(out))[0] == 0
    root = parse(out)
    picture = MapPicture(load_scenario(ORVEL).board)
    river = group(root, "features").findall("s:line[@class='feature feature-river']", NS)
    railway = group(root, "features").findall("s:line[@class='feature feature-railway']", NS)
    assert len(river) == 15 and len(railway) == 11  # the map's paths: 16 and 12 cells
    first = river[0]  # the edge 0701-0801: its ends are corners of both hexes
    ends = [(float(first.get("x1")), float(first.get("y1"))), (float(first.get("x2")), float(first.get("y2")))]
    for cell in ("0701", "0801"):
        assert all(min(math.dist(end, c) for c in picture.geometry.corners(*picture.cells[cell])) < 0.1 for end in ends)
    rail = railway[0]  # 0104-0204: centre to centre
    assert (float(rail.get("x1")), float(rail.get("y1"))) == pytest.approx(picture.centre("0104"), abs=0.1)
    assert (float(rail.get("x2")), float(rail.get("y2"))) == pytest.approx(picture.centre("0204"), abs=0.1)


def counters_in(root: ET.Element) -> dict[str, tuple[str, str, str]]:
    """Counter id to (cell, glyph, class) as drawn."""
    out = {}
    for stack in group(root, "counters").findall("s:g", NS):
        for face in stack.findall("s:g", NS):
            use = face.find("s:use", NS)
            out[face.get("data-id")] = (stack.get("data-cell"), use.get("href"), face.get("class"))
    return out


def test_a_log_at_a_step_draws_the_counters_then_on_the_map(capsys, tmp_path, mini_log):
    out = tmp_path / "step.svg"
    assert run(capsys, "render", str(mini_log), "--at", "2", "-o", str(out))[0] == 0
    drawn = counters_in(parse(out))
    assert drawn == {"B1": ("0202", "#glyph-blue-trooper", "counter"),
                     "R1": ("0401", "#glyph-red-guerrilla", "counter"),
                     "R2": ("0403", "#glyph-red-decoy", "counter")}
    assert run(capsys, "render", str(mini_log), "--at", "0", "-o", str(out))[0] == 0
    assert set(counters_in(parse(out))) == {"B1"}
    assert run(capsys, "render", str(mini_log), "-o", str(out))[0] == 0  # the last step
    assert set(counters_in(parse(out))) == {"B1", "R1", "R2", "R3"}
    assert "step 6" in parse(out).find("s:text[@id='title']", NS).text


def test_face_down_counters_are_drawn_as_such_for_the_other_side_and_their_identity_is_not_in_the_picture(
        capsys, tmp_path, mini_log):
    blue, red, everyone = (tmp_path / f"{name}.svg" for name in ("blue", "red", "all"))
    assert run(capsys, "render", str(mini_log), "--side", "blue", "-o", str(blue))[0] == 0
    assert run(capsys, "render", str(mini_log), "--side", "red", "-o", str(red))[0] == 0
    assert run(capsys, "render", str(mini_log), "-o", str(everyone))[0] == 0
    seen_by_blue = counters_in(parse(blue))
    assert {i: c[1:] for i, c in seen_by_blue.items() if i.startswith("R")} == \
        {i: ("#glyph-red-hidden", "counter hidden") for i in ("R1", "R2", "R3")}
    text = blue.read_text(encoding="utf-8")
    assert "guerrilla" not in text.lower() and "decoy" not in text.lower()
    assert "Red: face down (unknown)" in texts(group(parse(blue), "legend"))
    assert counters_in(parse(red))["R1"][1] == "#glyph-red-guerrilla"
    whole = parse(everyone)
    assert counters_in(whole)["R2"][1] == "#glyph-red-decoy"
    assert len(group(whole, "counters").findall(".//s:rect[@class='face-down']", NS)) == 3  # marked face down


def test_control_is_drawn_as_an_outline_in_the_holders_colour(tmp_path):
    game = played(str(ORVEL), seed=2, steps=40)
    picture = MapPicture(game.scenario.board, game.ctx.rules)
    held = frames.control(game)
    assert held  # the scenario's towns start held
    root = ET.fromstring(picture.svg(frames.counters(game, None), held))
    drawn = {p.get("data-cell"): p.get("data-side") for p in group(root, "control").findall("s:polygon", NS)}
    assert drawn == held
    assert {p.get("stroke") for p in group(root, "control").findall("s:polygon", NS)} <= set(picture.side_colours.values())


def test_a_stack_shows_three_counters_and_its_size():
    board = read_board(MINI / "map.toml")
    picture = MapPicture(board)
    stack = [Counter(f"X{i}", "blue", "trooper", "0202", label="Trooper") for i in range(5)]
    root = ET.fromstring(picture.svg(stack))
    drawn = group(root, "counters").find("s:g", NS)
    assert drawn.get("data-count") == "5" and len(drawn.findall("s:g", NS)) == STACK_SHOWN
    assert drawn.find("s:text[@class='badge']", NS).text == "5"
    assert drawn.find("s:title", NS).text == "0202: " + "; ".join(f"X{i} Trooper" for i in range(5))


def test_terrains_reading_as_one_word_get_different_shades_and_no_two_colours_are_close():
    colours = terrain_colours([("major_river", "Major River", ()), ("minor_river", "Minor River", ()),
                               ("moor", "Moor", ()), ("steppe", "Steppe", ())])
    assert len(set(colours.values())) == 4
    for name in ("several_klicks", "sea_lords"):
        rules = Rules(load_rulebook(ROOT / "rulebooks" / f"{name}.rules"))
        every = terrain_colours([(t.name, t.label, t.tags) for t in rules.terrains.values()])
        assert min(distance(a, b) for a, b in itertools.combinations(every.values(), 2)) >= MIN_DISTANCE, name


@pytest.mark.parametrize("argv, message", [
    (["--at", "1"], "--at and --side need a log"),
    (["--side", "blue"], "--at and --side need a log"),
])
def test_a_map_has_no_step_or_side(capsys, tmp_path, argv, message):
    code, _, err = run(capsys, "render", str(MINI / "map.toml"), *argv, "-o", str(tmp_path / "x.svg"))
    assert code == 2 and message in err and not (tmp_path / "x.svg").exists()


def test_refusals_name_what_is_wrong(capsys, tmp_path, mini_log):
    target = str(tmp_path / "x.svg")
    code, _, err = run(capsys, "render", str(mini_log), "--at", "7", "-o", target)
    assert code == 2 and "the game has 6 steps (0 to 6)" in err
    code, _, err = run(capsys, "render", str(mini_log), "--side", "bleu", "-o", target)
    assert code == 2 and "no side 'bleu'" in err and "blue" in err
    code, _, err = run(capsys, "render", str(mini_log), "-o", str(tmp_path / "x.gif"))
    assert code == 2 and "FILE.svg or FILE.png" in err
    code, _, err = run(capsys, "render", str(mini_log), "-o", str(tmp_path / "no" / "x.svg"))
    assert code == 2 and "no folder" in err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"not": "a log"}\n', encoding="utf-8")
    code, _, err = run(capsys, "render", str(bad), "-o", target)
    assert code == 1 and str(bad) in err and "Traceback" not in err
    code, _, err = run(capsys, "render", "no_such_scenario", "-o", target)
    assert code == 1 and "E004" in err
    assert not Path(target).exists()


def test_png_is_written_through_cairosvg(capsys, tmp_path, mini_log):
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError) as exc:  # OSError: cairosvg without the cairo library
        pytest.skip(f"PNG output needs the picture extra (cairosvg) and the cairo library: {exc}")
    out = tmp_path / "mini.png"
    assert run(capsys, "render", str(mini_log), "--side", "blue", "-o", str(out))[0] == 0
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    svg = MapPicture(read_board(MINI / "map.toml")).element()
    assert width > 0 and height == int(svg.get("height"))


def test_counters_off_the_map_are_listed_by_holding_area_not_drawn():
    game = played(str(ORVEL), seed=2, steps=40)
    away = {}
    for unit in game.state.units:
        if not unit.on_map:
            away.setdefault(unit.location, []).append(unit.id)
    assert away  # reinforcements still to come
    picture = MapPicture(game.scenario.board, game.ctx.rules)
    root = ET.fromstring(picture.svg(frames.counters(game, None)))
    listed = {t.get("data-box"): t.text for t in group(root, "legend").findall("s:text[@class='legend-box']", NS)}
    assert set(listed) == set(away)
    for box, ids in away.items():
        assert listed[box].startswith(f"{box.replace('_', ' ')} ({len(ids)}): {ids[0]}")
    drawn = {face.get("data-id") for face in group(root, "counters").iter(f"{{{NS['s']}}}g") if face.get("data-id")}
    assert drawn == {u.id for u in game.state.units if u.on_map}


def test_a_map_file_is_told_from_a_scenario_by_its_tables_not_its_layout(capsys, tmp_path):
    source = tmp_path / "strip.toml"
    source.write_text('[map]   # a comment on the table line\nname = "Strip"\ngrid = "square"\nwidth = 3\n'
                      'height = 1\nrows = [".~."]\n[map.legend]\n"." = "clear"\n"~" = "lake"\n', encoding="utf-8")
    out = tmp_path / "strip.svg"
    assert run(capsys, "render", str(source), "-o", str(out)) == (0, "", "")
    root = parse(out)
    assert [p.get("id") for p in cells_of(root)] == ["cell-0101", "cell-0201", "cell-0301"]
    assert texts(group(root, "legend")) == ["Terrain", "Clear", "Lake"]
