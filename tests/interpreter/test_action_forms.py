"""``once per turn`` on an action, by play: a side takes it at most once a game turn.

The game is the mini fixture (fixtures/mini) in a temporary copy, with a per-side pool holding
three more blue troopers, an action ``draft`` (1 cp a trooper) and a phase ``muster`` in which
blue (the first player) runs ``do reinforce from pool paying draft``; blue starts with 10 cp.
Blue always takes a trooper when offered one and places it in the first cell offered.

Reference (action): "`once per turn`: each side may take it once per game turn: after a side
pays for it, `do designate force`, `do reinforce` and `do refit` do not offer it again until
the next turn."
"""

from __future__ import annotations

import shutil
from pathlib import Path


from warbook.interpreter.game import Game

MINI = Path(__file__).parent / "fixtures" / "mini"
RULES = '''
resource cp "Command points"
box pool "Pool" {
    per side
}
placement anywhere_blue "Anywhere" {
    side blue
    units trooper
    anywhere
}
action draft "Draft" {
    side blue
    cost cp 1
    LIMIT
}
'''
MUSTER = ('''    phase scoring "Scoring" {''', '''    phase muster "Muster" {
        side first
        do reinforce from pool paying draft
    }
    phase scoring "Scoring" {''')
SETUP = '''
[scenario.resources.blue]
cp = 10

[[setup]]
side = "blue"
unit = "trooper"
count = 3
box = "pool"
'''


def play(tmp_path: Path, limit: str) -> tuple[list[tuple[int, int]], Game]:
    """(turn, troopers on the map) at each take, and the game played out."""
    shutil.copytree(MINI, tmp_path, dirs_exist_ok=True)
    text = (MINI / "mini.rules").read_text()
    (tmp_path / "mini.rules").write_text(text.replace(*MUSTER) + RULES.replace("LIMIT", limit))
    toml = (MINI / "mini.toml").read_text()
    head, rest = toml.split("\n[[setup]]", 1)
    (tmp_path / "mini.toml").write_text(head + SETUP + "\n[[setup]]" + rest)
    game = Game.new(tmp_path / "mini.toml", seed=2)
    takes = []
    while not game.is_over():
        options = game.legal_actions()
        take = next((a for a in options if a.kind == "take"), None)
        if take is not None:
            takes.append(game.state.turn)
            game.apply(take)
        else:
            game.apply(next((a for a in options if a.kind == "done"), options[0]))
    return takes, game


def test_a_once_per_turn_action_is_taken_once_a_turn(tmp_path):
    """Two turns: one trooper each turn, 1 cp each; the third stays in the pool."""
    takes, game = play(tmp_path, "once per turn")
    assert takes == [1, 2]
    assert game.state.resource("blue", "cp") == 8
    assert sum(u.location == "pool" for u in game.state.units if u.type == "trooper") == 1


def test_without_it_the_action_is_taken_as_often_as_paid_for(tmp_path):
    takes, game = play(tmp_path, "")
    assert takes == [1, 1, 1]
    assert game.state.resource("blue", "cp") == 7


PATROL = Path(__file__).parent / "fixtures" / "alternating"


def second_blue_operation(tmp_path: Path, once: bool) -> list[str]:
    """The cells blue may operate from after an unled operation (fixtures/alternating: a launch
    B4 at 0301 moves to 0201, red passes); ``once``: the unled action is ``once per turn``."""
    shutil.copytree(PATROL, tmp_path, dirs_exist_ok=True)
    text = (PATROL / "patrol.rules").read_text()
    old = "    cost orders 1 per unit\n"
    assert old in text
    (tmp_path / "patrol.rules").write_text(text.replace(old, old + ("    once per turn\n" if once else "")))
    game = Game.new(tmp_path / "patrol.toml", 1)
    for answer in ["operate 0301", "add B4", "go", "move 0201", "pass"]:
        game.apply(answer)
    assert (game.decision.side, game.decision.kind) == ("blue", "operation")
    return [str(o) for o in game.decision.options]


def test_a_once_per_turn_operation_is_not_offered_again_that_turn(tmp_path):
    """After its unled operation, blue may still operate with the leader's action (0101, where the
    chief is), but no longer from 0201, where the launch alone could only pay the unled one."""
    assert second_blue_operation(tmp_path / "a", once=False) == ["operate 0101", "operate 0201", "pass"]
    assert second_blue_operation(tmp_path / "b", once=True) == ["operate 0101", "pass"]
