"""``do score`` in a phase bound to one side scores only the awards that side receives (issue 14).

The game is in fixtures/side_scoring/: a 4 x 3 hex map with a town at 0202 and a camp at 0402,
two turns, player order red then blue, no decision to make.  Blue's trooper B1 holds the town and
Red's guerrilla R1 the camp all game.  Awards: ``town_held`` (to blue, 2 for the town),
``camp_held`` (to red, 3 for the camp), ``unclaimed`` (no ``to``, 5 for the town).  Each turn:
``first_scoring`` (``side first``, Red) and ``second_scoring`` (``side second``, Blue) both run
``do score town_held camp_held unclaimed``; ``muster`` (``mutual``) runs ``do score town_held``.
"""

from __future__ import annotations

from pathlib import Path

from warbook.interpreter.game import Game

SCENARIO = Path(__file__).parent / "fixtures" / "side_scoring" / "side_scoring.toml"


def scored(game) -> list[tuple[int, str, str, str]]:
    """(turn, phase, side, new total) of every VP gain in the log."""
    return [(e["turn"], e["phase"], e["side"], e["value"]) for e in game.log
            if e.get("type") == "event" and e.get("kind") == "resource" and e.get("resource") == "vp"]


def test_each_side_scores_its_own_awards_in_its_own_phase_and_a_mutual_phase_scores_all():
    """Reference, "Sequence of play": in a phase bound to one side, ``do score AWARD…`` scores
    only the awards whose ``to`` names that side; a ``mutual`` phase scores every award listed;
    an award without ``to`` is received by no side and scores nothing.

    By hand, each turn: Red's phase, camp_held +3 to Red (town_held is Blue's, unclaimed nobody's);
    Blue's phase, town_held +2 to Blue; Muster, town_held +2 to Blue.  Red 3 + 3 = 6, Blue
    4 + 4 = 8 over two turns: Blue wins by 2 ("Victory", 2..100).  (Scoring every award in every
    phase gave 12 each, a draw.)"""
    game = Game.new(SCENARIO, seed=1)
    assert game.is_over() and not game.choices
    assert scored(game) == [
        (1, "first_scoring", "red", "3"),
        (1, "second_scoring", "blue", "2"),
        (1, "muster", "blue", "4"),
        (2, "first_scoring", "red", "6"),
        (2, "second_scoring", "blue", "6"),
        (2, "muster", "blue", "8"),
    ]
    assert game.result() == {"winner": "blue", "level": "Victory", "margin": 2,
                             "totals": {"red": "6", "blue": "8"}}
