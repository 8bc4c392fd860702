"""``requires option NAME`` (every kind that honours it): with the option off the declaration is not
in force, so a phase or step is skipped, an event does nothing, and an action, combat, placement,
spotting or stacking rule is out of the compiled rules (``interpreter.rules.Rules``).

A neutral two-sided game played with the option off and on."""


import pytest

from warbook.interpreter.game import Game
from warbook.interpreter.scenario import load_scenario

RULES = """
rulebook "Night watch" {
    players 2
}
side blue "Blue"
side red "Red"
dice d6
factor move "Move"
tag foot "Foot"
terrain clear "Clear" {
    cost 1
}
movement walk "Walk" {
    points factor move
}
unit scout "Scout" {
    side blue
    movement walk
    tags foot
    move 2
}
unit raider "Raider" {
    side red
    movement walk
    tags foot
    move 2
}
resource vp "Victory points" {
    minimum 0
}
option night "Night rules" {
    default off
}
event flare "Flare" {
    requires option night
    effect gain vp 1
}
table events "Events" {
    roll d6
    cells are events
    1-6: flare
}
award camp "Camp" {
    to blue
    on held
    cells clear
    points 1
}
action ambush "Ambush" {
    requires option night
    side red
}
result NE "No effect" {
    effect no effect
}
table crt "Melee results" {
    roll d6
    lookup by odds
    columns 1:1
    1-6: NE
}
combat melee "Melee" {
    requires option night
    table crt
    compare odds
    attack factor move
    defence factor move
}
placement camp_fire "Camp fire" {
    requires option night
    side blue
    units scout
    anywhere
}
spotting lanterns "Lanterns" {
    requires option night
    range 1
}
stacking crowd "Crowding" {
    requires option night
    limit 1
}
victory {
    by vp margin
    level draw 0..0 "Draw"
    level win 1..1000 "Win"
}
sequence {
    phase events "Events" {
        side first
        do roll events on events
    }
    phase watch "Night watch" {
        requires option night
        mutual
        do score camp
    }
    phase day "Day" {
        mutual
        step dusk "Dusk" {
            requires option night
            do score camp
        }
        step noon "Noon" {
            do score camp
        }
    }
}
"""

MAP = """[map]
name = "Field"
grid = "square"
width = 2
height = 1
rows = [".."]
[map.legend]
"." = "clear"
"""

SCENARIO = """[scenario]
name = "Night watch"
rules = "night.rules"
map = "field.toml"
turns = 1
player_order = ["blue", "red"]
{options}
[[setup]]
side = "blue"
unit = "scout"
count = 1
at = "0101"

[[setup]]
side = "red"
unit = "raider"
count = 1
at = "0201"
"""


@pytest.fixture
def night(tmp_path):
    (tmp_path / "night.rules").write_text(RULES, encoding="utf-8")
    (tmp_path / "field.toml").write_text(MAP, encoding="utf-8")

    def scenario(on: bool):
        options = "[scenario.options]\nnight = true\n" if on else ""
        path = tmp_path / f"night_{on}.toml"
        path.write_text(SCENARIO.format(options=options), encoding="utf-8")
        return load_scenario(path)

    return scenario


def play(scenario, dice) -> Game:
    dice.append((6, 3))  # the events roll: flare
    game = Game.new(scenario, 1)
    while not game.is_over():
        game.apply(game.legal_actions()[0])
    return game


def phases_run(game: Game) -> list[str]:
    return [e["phase_name"] for e in game.log if e.get("kind") == "phase"]


def test_with_the_option_off_its_phase_and_step_are_skipped_and_its_event_does_nothing(night, dice):
    game = play(night(False), dice)
    assert phases_run(game) == ["events", "day", "noon"]
    assert game.state.resource("blue", "vp") == 1  # noon's camp only: no flare, no watch, no dusk


def test_with_the_option_on_they_are_in_force(night, dice):
    game = play(night(True), dice)
    assert phases_run(game) == ["events", "watch", "day", "dusk", "noon"]
    assert game.state.resource("blue", "vp") == 4  # flare 1, watch 1, dusk 1, noon 1


def test_the_compiled_rules_leave_out_what_is_not_in_force(night):
    off, on = Game.new(night(False), 1).ctx.rules, Game.new(night(True), 1).ctx.rules
    for rules, present in ((off, False), (on, True)):
        assert ("ambush" in rules.actions) is present        # not offered: no procedure finds it
        assert ("melee" in rules.combats) is present         # never fought
        assert ("lanterns" in rules.spottings) is present    # finds nothing
        assert bool(rules.placements) is present             # places nothing
        assert bool(rules.stackings) is present              # limits not checked
