"""``warbook view``: the page's data is made by the engine per view, so a side's page holds nothing
that side may not see; the page is written whole and served on localhost."""

import json
import os
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from driving import run_cli as run

from warbook.interpreter.game import Game

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "interpreter" / "fixtures" / "mini" / "mini.toml"
CHOICES = ["place R1 0401", "place R2 0403", "place R3 0301", "done", "declare R1 watch", "done"]


@pytest.fixture(scope="module")
def mini_log(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("mini") / "mini.jsonl"
    game = Game.new(str(MINI), 3)
    for choice in CHOICES:
        game.apply(choice)
    game.save(path)
    return path


def data_of(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.DOTALL)
    return json.loads(found.group(1))


def test_the_page_has_every_sides_view_and_the_referees_each_made_by_the_engine(capsys, tmp_path, mini_log):
    out = tmp_path / "mini.html"
    code, printed, err = run(capsys, "view", str(mini_log), "-o", str(out))
    assert (code, printed, err) == (0, f"wrote {out}\n", "")
    data = data_of(out.read_text(encoding="utf-8"))
    assert list(data["views"]) == ["blue", "red", "referee"]
    assert len(data["headings"]) == len(CHOICES) + 1 and data["headings"][0].startswith("step 0, turn 0")
    blue, referee = data["views"]["blue"], data["views"]["referee"]
    # step 1 placed R1: blue sees a counter with no type, the referee the guerrilla
    assert [c[:4] for c in blue["frames"][1]["set"]] == [["R1", "red", None, "0401"]]
    assert [c[:4] for c in referee["frames"][1]["set"]] == [["R1", "red", "guerrilla", "0401"]]
    assert [c[:3] for c in blue["frames"][0]["set"]] == [["B1", "blue", "trooper"]]
    assert blue["frames"][2]["gone"] == [] and len(blue["frames"]) == len(CHOICES) + 1
    assert ["text", "  R1 (hidden) set up at 0401"] in blue["narrative"][1]
    assert ["text", "  R1 Guerrilla set up at 0401"] in referee["narrative"][1]
    assert referee["narrative"][1][0] == ["choice", "  red chose: place R1 0401"]  # what red chose: red's and
    assert blue["narrative"][1][0] == ["choice", "  red decided (setup)"]  # the referee's to know, not blue's
    assert data["views"]["red"]["narrative"][1][0] == ["choice", "  red chose: place R1 0401"]


def test_a_page_for_one_side_holds_no_identity_that_side_cannot_see(capsys, tmp_path, mini_log):
    out = tmp_path / "blue.html"
    assert run(capsys, "view", str(mini_log), "--side", "blue", "-o", str(out))[0] == 0
    page = out.read_text(encoding="utf-8")
    assert list(data_of(page)["views"]) == ["blue"]
    assert "guerrilla" not in page.lower() and "decoy" not in page.lower()
    red = tmp_path / "red.html"
    assert run(capsys, "view", str(mini_log), "--side", "red", "-o", str(red))[0] == 0
    assert "Guerrilla" in red.read_text(encoding="utf-8")  # red knows its own counters


def test_the_page_is_self_contained(capsys, tmp_path, mini_log):
    out = tmp_path / "mini.html"
    assert run(capsys, "view", str(mini_log), "-o", str(out))[0] == 0
    page = out.read_text(encoding="utf-8")
    assert not re.search(r'<(script|link|img)[^>]+(src|href)=', page)  # nothing loaded from elsewhere
    assert page.count("<svg") == 1 and '<g id="counters"' in page


def test_dice_rolls_are_in_the_narrative_with_their_value(tmp_path):
    from driving import played
    from warbook.interpreter.viewer import page

    game = played(str(ROOT / "examples" / "orvel_gap" / "orvel_gap.toml"), seed=2, steps=90)
    rolls = [e for e in game.log if e.get("type") == "roll"]
    assert rolls
    data = data_of(page(game, ["kessel"]))
    shown = [line for lines in data["views"]["kessel"]["narrative"] for line in lines if line[0] == "roll"]
    assert [line[2] for line in shown] == [e["value"] for e in rolls]
    assert shown[0][1].startswith(f"  roll {rolls[0]['dice']} = {rolls[0]['value']}")


def test_the_default_output_is_beside_the_log_and_refusals_say_why(capsys, tmp_path, mini_log):
    log = tmp_path / "game.jsonl"
    log.write_bytes(mini_log.read_bytes())
    assert run(capsys, "view", str(log))[0] == 0 and (tmp_path / "game.html").is_file()
    code, _, err = run(capsys, "view", str(log), "--side", "green")
    assert code == 2 and "no side 'green'" in err
    code, _, err = run(capsys, "view", str(log), "-o", str(tmp_path / "page.svg"))
    assert code == 2 and "FILE.html" in err
    missing = tmp_path / "missing.jsonl"
    code, _, err = run(capsys, "view", str(missing))
    assert code == 1 and str(missing) in err


def test_serve_serves_the_page_on_localhost(tmp_path, mini_log):
    out = tmp_path / "served.html"
    process = subprocess.Popen([sys.executable, "-m", "warbook", "view", str(mini_log), "-o", str(out), "--serve",
                                "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert process.stdout.readline() == f"wrote {out}\n"
        address = re.search(r"http://127\.0\.0\.1:\d+/", process.stdout.readline()).group(0)
        with urllib.request.urlopen(address, timeout=10) as answer:
            assert answer.read().decode("utf-8") == out.read_text(encoding="utf-8")
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_the_page_is_the_same_whatever_pythons_hash_seed(tmp_path, mini_log):
    """Nothing in the page depends on the order of a set (Python salts string hashes per process)."""
    pages = []
    for seed in ("1", "2", "3"):
        out = tmp_path / f"page{seed}.html"
        subprocess.run([sys.executable, "-m", "warbook", "view", str(mini_log), "-o", str(out)], check=True,
                       capture_output=True, env={**os.environ, "PYTHONHASHSEED": seed})
        pages.append(out.read_bytes())
    assert pages[0] == pages[1] == pages[2]
