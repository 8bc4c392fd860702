"""The replay page in a real browser: headless Chromium (Debian's package) driven by Playwright.

It loads with no console error, stepping changes the counters drawn, the narrative marks the
step's lines and shows its dice, and a side's view draws the other side's face-down counters as
such.  Skipped, saying why, where Chromium or Playwright is missing; ``.ci/run`` installs both.
"""

import shutil
from pathlib import Path

import pytest

from driving import played

from warbook.interpreter import frames
from warbook.interpreter.game import Game

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).is_file():
    pytest.skip("Chromium is not installed (apt-get install chromium; .ci/run installs it)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed: pip install -e '.[browser]'")

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "interpreter" / "fixtures" / "mini" / "mini.toml"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """Mini, seed 3: red's three face-down counters placed at steps 1 to 3; the whole page and blue's."""
    folder = tmp_path_factory.mktemp("pages")
    game = Game.new(str(MINI), 3)
    for choice in ["place R1 0401", "place R2 0403", "place R3 0301", "done", "declare R1 watch", "done"]:
        game.apply(choice)
    game.save(folder / "mini.jsonl")
    written = {"all": folder / "all.html", "blue": folder / "blue.html"}
    assert run_quietly("view", str(folder / "mini.jsonl"), "-o", str(written["all"])) == 0
    assert run_quietly("view", str(folder / "mini.jsonl"), "--side", "blue", "-o", str(written["blue"])) == 0
    return written


def run_quietly(*argv) -> int:
    from warbook.interpreter.cli import main

    return main(list(argv))


@pytest.fixture
def open_page(browser):
    opened = []

    def load(path: Path):
        page = browser.new_page()
        problems = []
        page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.goto(path.as_uri())
        opened.append(page)
        return page, problems

    yield load
    for page in opened:
        page.close()


def drawn(page) -> dict[str, str]:
    """Counter id to the glyph it is drawn with."""
    return page.eval_on_selector_all("#counters g.counter", "faces => Object.fromEntries(faces.map(f => "
                                     "[f.dataset.id, f.querySelector('use').getAttribute('href')]))")


def current(page) -> list[str]:
    """The narrative's lines marked as the current step's."""
    return [text.strip() for text in page.eval_on_selector_all("#narrative p.current", "ps => ps.map(p => p.textContent)")]


def test_the_page_loads_without_errors_and_stepping_changes_the_counters(open_page, pages):
    page, problems = open_page(pages["all"])
    page.select_option("#side", "referee")
    assert drawn(page) == {"B1": "#glyph-blue-trooper"}
    assert page.inner_text("#where") == "step 0 of 6"
    page.keyboard.press("ArrowRight")
    assert drawn(page) == {"B1": "#glyph-blue-trooper", "R1": "#glyph-red-guerrilla"}
    assert current(page) == ["red chose: place R1 0401", "R1 Guerrilla set up at 0401"]
    page.click("#next")
    page.click("#next")
    assert set(drawn(page)) == {"B1", "R1", "R2", "R3"} and page.input_value("#slider") == "3"
    page.keyboard.press("Home")
    assert set(drawn(page)) == {"B1"}
    page.locator("#slider").fill("5")
    assert page.inner_text("#where") == "step 5 of 6"
    assert problems == []


def test_the_hidden_side_stays_hidden(open_page, pages):
    page, problems = open_page(pages["all"])
    page.select_option("#side", "blue")
    page.keyboard.press("End")
    assert drawn(page) == {"B1": "#glyph-blue-trooper", **{f"R{i}": "#glyph-red-hidden" for i in (1, 2, 3)}}
    assert page.locator("#counters g.counter.hidden").count() == 3
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    assert current(page) == ["red decided (setup)", "R1 (hidden) set up at 0401"]
    page.keyboard.press("End")
    lines = page.eval_on_selector_all("#narrative p", "ps => ps.map(p => p.textContent)")
    assert "R1 (hidden) set up at 0401" in [line.strip() for line in lines]
    assert not any("Guerrilla" in line for line in lines)
    page.select_option("#side", "red")
    assert drawn(page)["R1"] == "#glyph-red-guerrilla"

    blue_only, more = open_page(pages["blue"])
    blue_only.keyboard.press("End")
    assert blue_only.locator("#side option").count() == 1
    assert blue_only.locator("#counters g.counter.hidden").count() == 3
    assert "guerrilla" not in blue_only.content().lower()  # not hidden by the browser: never sent
    assert problems == [] and more == []


def test_the_dice_of_a_step_are_shown(open_page, tmp_path):
    game = played(str(ROOT / "examples" / "orvel_gap" / "orvel_gap.toml"), seed=2, steps=90)
    log = tmp_path / "orvel.jsonl"
    game.save(log)
    out = tmp_path / "orvel.html"
    assert run_quietly("view", str(log), "-o", str(out)) == 0
    page, problems = open_page(out)
    rolled = first_roll_step(game)
    page.locator("#slider").fill(str(rolled[0]))
    assert page.locator("#rolls .die").first.inner_text() == str(rolled[1])
    page.locator("#slider").fill("0")
    assert page.inner_text("#rolls") == "no dice rolled at this step"
    page.select_option("#side", "referee")
    start = frames.at_step(game, 0).state.units
    boxes = {unit.location for unit in start if not unit.on_map}
    assert sorted(page.eval_on_selector_all("#away p", "ps => ps.map(p => p.dataset.box)")) == sorted(boxes)
    assert page.inner_text("#away-box summary") == f"Off the map ({sum(not u.on_map for u in start)})"
    assert problems == []


def first_roll_step(game: Game) -> tuple[int, int]:
    """The first step whose decision led to a roll, and that roll's value (counted from the log)."""
    step = 0
    for entry in game.log:
        if entry.get("type") == "decision":
            step += 1
        elif entry.get("type") == "roll":
            return step, entry["value"]
    raise AssertionError("no roll in the game")
