"""Saves that travel: a log names what is shipped, carries what is not, and says what changed.

Each test saves a game, moves the log (and removes or edits the files it was played
from) and replays it, as a player who mails a save to a friend would.
"""

import json
import shutil
from pathlib import Path

import pytest

from warbook.dsl.diagnostics import RulesError
from warbook.interpreter.agents import RandomAgent, iter_play
from warbook.interpreter.game import Game
from warbook.interpreter.rng import choice_rng

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "interpreter" / "fixtures" / "mini"
HOUSE_RULE = """extends "several_klicks"
override terrain jungle {
    cost 4
}
"""


def played(*where, seed: int = 3, steps: int | None = None) -> Game:
    """A game played by random agents, to the end or for ``steps`` decisions."""
    game = Game.new(*where, seed)
    agents = {side: RandomAgent(choice_rng(seed, side)) for side in game.ctx.rules.sides}
    for _ in iter_play(game, agents):
        if steps is not None and len(game.choices) >= steps:
            break
    return game


def header(log: Path) -> dict:
    return json.loads(log.read_text(encoding="utf-8").splitlines()[0])


def rewrite_header(log: Path, change) -> None:
    lines = log.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    change(head)
    log.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n", encoding="utf-8")


def refused(log: Path) -> str:
    with pytest.raises(RulesError) as info:
        Game.load(log)
    (found,) = info.value.diagnostics
    assert found.code == "E803" and found.span.line == 1
    return found.message


@pytest.fixture
def own_game(tmp_path) -> Path:
    """A game of one's own (not shipped): the mini scenario, its rules and map copied elsewhere."""
    folder = tmp_path / "mine"
    shutil.copytree(MINI, folder)
    return folder / "mini.toml"


def test_a_shipped_scenario_is_named_and_replays_from_another_folder(tmp_path):
    game = played(ROOT / "scenarios" / "klicks_village_sweep.toml", steps=40)
    log = tmp_path / "saved" / "sweep.jsonl"
    log.parent.mkdir()
    game.save(log)
    head = header(log)
    assert head["scenario"] == {"shipped": "klicks_village_sweep"} and "files" not in head and "rulebook" not in head
    moved = tmp_path / "elsewhere" / "deeper" / "sweep.jsonl"
    moved.parent.mkdir(parents=True)
    shutil.move(log, moved)
    assert Game.load(moved).log == game.log


def test_a_scenario_of_ones_own_travels_inside_the_log(own_game, tmp_path):
    game = played(own_game)
    log = own_game.parent / "game.jsonl"
    game.save(log)
    head = header(log)
    assert head["scenario"] == {"file": "mini.toml"} and set(head["files"]) == {"mini.toml", "mini.rules", "map.toml"}
    assert head["files"]["mini.rules"] == (MINI / "mini.rules").read_text(encoding="utf-8")
    moved = tmp_path / "friend" / "game.jsonl"
    moved.parent.mkdir()
    shutil.move(log, moved)
    shutil.rmtree(own_game.parent)  # the friend has only the log
    replayed = Game.load(moved)
    assert replayed.log == game.log and replayed.result() == game.result()


def test_files_edited_where_the_game_was_played_do_not_stop_its_replay(own_game):
    game = played(own_game)
    log = own_game.parent / "game.jsonl"
    game.save(log)
    rules = own_game.parent / "mini.rules"
    rules.write_text(rules.read_text(encoding="utf-8").replace("cost 1", "cost 2"), encoding="utf-8")
    assert Game.load(log).log == game.log  # read from the copies the log carries, not the edited file


def test_a_house_rule_played_on_a_shipped_scenario_is_carried_and_the_scenario_named(tmp_path):
    house = tmp_path / "house" / "jungle.rules"
    house.parent.mkdir()
    house.write_text(HOUSE_RULE, encoding="utf-8")
    game = played(house, ROOT / "scenarios" / "klicks_village_sweep.toml", steps=30)
    log = tmp_path / "house.jsonl"
    game.save(log)
    shutil.rmtree(house.parent)
    head = header(log)
    assert head["scenario"] == {"shipped": "klicks_village_sweep"}
    assert head["rulebook"] == {"file": "jungle.rules"} and head["files"] == {"jungle.rules": HOUSE_RULE}
    replayed = Game.load(log)
    assert replayed.scenario.rulebook.get("terrain", "jungle").first("cost").text == "cost 4"
    assert replayed.log == game.log


def test_a_changed_rulebook_is_reported_by_the_declarations_that_changed(own_game):
    log = own_game.parent / "game.jsonl"
    played(own_game).save(log)

    def as_saved_under_other_rules(head):
        head["rulebook_hash"] = "0" * 16
        head["declarations"]["terrain town"] = "0" * 10
        del head["declarations"]["mode watch"]
        head["declarations"]["unit tank"] = "1" * 10

    rewrite_header(log, as_saved_under_other_rules)
    assert refused(log) == ("the rulebook has changed since the game was saved: changed terrain town; "
                            "added mode watch; removed unit tank")


def test_a_rulebook_changed_in_layout_only_still_replays(tmp_path):
    """Part of the rules is shipped (and may be laid out otherwise in another warbook): the same
    declarations under another hash replay."""
    house = tmp_path / "jungle.rules"
    house.write_text(HOUSE_RULE, encoding="utf-8")
    game = played(house, ROOT / "scenarios" / "klicks_village_sweep.toml", steps=20)
    log = tmp_path / "game.jsonl"
    game.save(log)
    rewrite_header(log, lambda head: head.update(rulebook_hash="0" * 16))  # same declarations, other text
    assert Game.load(log).log == game.log


def test_rules_carried_whole_must_match_their_hash(own_game):
    """Every file of the rules travels in the log: their hash cannot have changed, only been forged."""
    log = own_game.parent / "game.jsonl"
    played(own_game).save(log)
    rewrite_header(log, lambda head: head.update(rulebook_hash="0" * 16))
    assert refused(log) == "the rulebook the log carries does not match the header's 'rulebook_hash'"


@pytest.mark.parametrize("change, message", [
    (lambda h: h.update(files={"../outside.rules": "x"}),
     "the header's 'files' must map relative paths (no '..') to file texts"),
    (lambda h: h.update(files={"/etc/x.rules": "x"}),
     "the header's 'files' must map relative paths (no '..') to file texts"),
    (lambda h: h.update(scenario={"shipped": "no_such_scenario"}),
     "the game was saved with the shipped scenario 'no_such_scenario', which this warbook"),
    (lambda h: h.update(scenario={"file": "gone.toml"}), "the log names the file 'gone.toml' but does not carry it"),
    (lambda h: h.update(scenario={"shipped": 3}),
     "the header needs 'scenario' (a shipped name, an embedded file or a path) and 'seed' (a whole number)"),
])
def test_a_bad_header_is_a_diagnostic(own_game, change, message):
    log = own_game.parent / "game.jsonl"
    played(own_game, steps=2).save(log)
    rewrite_header(log, change)
    assert refused(log).startswith(message)
