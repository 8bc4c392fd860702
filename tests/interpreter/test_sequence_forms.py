"""The sequence of play's own forms, played: a step's sides (``for each side``, ``mutual``), an
alternation inside a step, ``optional`` phases and steps, the game's length (``turns``) and what a
drawn result is (``draws``); and the lines refused before play (``order by``, ``repeat until`` outside
an operation, ``optional`` with no side).

Each game is written into a temporary folder next to fixtures/sequence_forms/ (common.rules, a
strip of five clear squares, 0101-0501): Blue's scout B1 at 0201, Red's raider R1 at 0501, each side
holding 2 orders and gaining 1 a turn (``do gain income orders``), so who gained income, and how
often, shows which runs were played.
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from warbook.dsl.diagnostics import RulesError
from warbook.interpreter.game import Game

FIXTURES = Path(__file__).parent / "fixtures" / "sequence_forms"
HEADER = 'rulebook "Sequence forms" {\n    players 2\n    grid square with diagonals\n}\ninclude "common.rules"\n'


def write_game(folder: Path, rules: str, turns: int | None = 1, name: str = "game") -> Path:
    """The rulebook ``name.rules`` (common.rules plus ``rules``) and its scenario; the scenario's path."""
    for part in ("common.rules", "map.toml"):
        shutil.copy(FIXTURES / part, folder / part)
    (folder / f"{name}.rules").write_text(HEADER + textwrap.dedent(rules), encoding="utf-8")
    turns_line = f"turns = {turns}\n" if turns is not None else ""
    (folder / f"{name}.toml").write_text(textwrap.dedent(f'''\
        [scenario]
        name = "Sequence forms"
        rules = "{name}.rules"
        map = "map.toml"
        {turns_line}player_order = ["blue", "red"]
        [scenario.resources.blue]
        orders = 2
        [scenario.resources.red]
        orders = 2
        [scenario.income.blue]
        orders = 1
        [scenario.income.red]
        orders = 1
        [[setup]]
        side = "blue"
        unit = "scout"
        at = "0201"
        [[setup]]
        side = "red"
        unit = "raider"
        at = "0501"
        '''), encoding="utf-8")
    return folder / f"{name}.toml"


def play(scenario, answers: list[str], rulebook: Path | None = None):
    """Play with these answers; returns the game and (phase, side, kind) of every decision answered."""
    game = Game.new(rulebook, scenario, 1) if rulebook is not None else Game.new(scenario, 1)
    seen = []
    for answer in answers:
        decision = game.decision
        assert decision is not None, f"the game is over before {answer!r}; asked so far: {seen}"
        seen.append((game.state.phase, decision.side, decision.kind))
        game.apply(answer)
    return game, seen


def orders(game) -> tuple:
    return game.state.resource("blue", "orders"), game.state.resource("red", "orders")


def runs(game) -> list[tuple[str, str | None]]:
    return [(e["phase_name"], e["side"]) for e in game.log if e.get("kind") == "phase" and "phase_name" in e]


def texts(game) -> list[str]:
    return [e["text"] for e in game.log if e.get("type") == "event"]


# --- a step's sides ----------------------------------------------------------------------------


def test_a_step_for_each_side_runs_once_per_side_inside_a_phase_bound_to_one(tmp_path):
    """Reference, ``step``: "`for each side [in player order]` — Runs once per side, in player
    order."  Inside Blue's phase the step runs for Blue, then for Red: each gains its income once."""
    game, _ = play(write_game(tmp_path, '''
        sequence {
            phase blue_phase "Blue's phase" {
                side blue
                step muster "Muster" {
                    for each side
                    do gain income orders
                }
            }
        }
        '''), [])
    assert game.is_over()
    assert runs(game) == [("blue_phase", "blue"), ("muster", "blue"), ("muster", "red")]
    assert orders(game) == (3, 3)


def test_a_mutual_step_runs_for_no_side_even_inside_a_phase_bound_to_one(tmp_path):
    """Reference, ``step``: "`mutual` — Both sides act in it: it runs once, for no side …; on a step,
    even inside a phase or step run for one side."  ``do gain income`` with no acting side gives
    every side its income: Red gains in Blue's phase too (a step without ``mutual`` gave Blue's
    alone)."""
    game, _ = play(write_game(tmp_path, '''
        sequence {
            phase blue_phase "Blue's phase" {
                side blue
                step muster "Muster" {
                    mutual
                    do gain income orders
                }
                step pay "Pay" {
                    do gain income orders
                }
            }
        }
        '''), [])
    assert runs(game) == [("blue_phase", "blue"), ("muster", None), ("pay", "blue")]
    assert orders(game) == (4, 3)


# --- an alternation inside a step ----------------------------------------------------------------


def test_a_step_alternates_its_own_step_until_both_pass(tmp_path):
    """Reference, ``step``: "`alternate <step:REF(step)> until …` — Players take turns doing a step
    until every player has passed."  The alternation is the ``campaign`` step's, inside a mutual
    phase: Blue operates with B1 (1 order), Red passes, Blue passes; the phase then ends."""
    game, seen = play(write_game(tmp_path, '''
        sequence {
            phase operations "Operations" {
                mutual
                step campaign "Campaign" {
                    alternate sortie until all pass or out of orders
                    step sortie "Sortie" {
                        do designate force paying scout_op raid_op
                        do move force
                    }
                }
            }
        }
        '''), ["operate 0201", "add B1", "go", "move 0301", "pass", "pass"])
    assert [s[:2] for s in seen[:1]] == [("sortie", "blue")]
    assert [s[:2] for s in seen[-2:]] == [("sortie", "red"), ("sortie", "blue")]
    assert game.is_over()
    assert game.state.unit("B1").location == "0301"
    assert orders(game) == (1, 2)


# --- optional ------------------------------------------------------------------------------------


def test_an_optional_phase_asks_each_side_whether_to_play_its_run(tmp_path):
    """Reference, ``phase``: "`optional` — The side it runs for (each side, under `for each side`)
    is asked first whether to play it or skip it".  Blue plays the muster and gains its order; Red
    skips it and gains none; the skip is narrated with the rule's section."""
    game, seen = play(write_game(tmp_path, '''
        sequence {
            phase muster "Muster" {
                for each side
                optional §"9.1"
                do gain income orders
            }
        }
        '''), ["play", "skip"])
    assert seen == [("muster", "blue", "optional"), ("muster", "red", "optional")]
    assert game.is_over()
    assert orders(game) == (3, 2)
    assert "Red skips Muster (§9.1)" in texts(game)


def test_an_optional_step_is_asked_of_the_side_its_phase_runs_for(tmp_path):
    """An ``optional`` step without a side runs for its phase's: Blue is asked, and skipping the
    step leaves the phase's other step to run."""
    game, seen = play(write_game(tmp_path, '''
        sequence {
            phase blue_phase "Blue's phase" {
                side blue
                step bonus "Bonus" {
                    optional
                    do gain income orders
                }
                step pay "Pay" {
                    do gain income orders
                }
            }
        }
        '''), ["skip"])
    assert seen == [("bonus", "blue", "optional")]
    assert game.is_over()
    assert orders(game) == (3, 2)


def test_skipping_an_optional_alternated_step_is_passing(tmp_path):
    """Reference, ``phase``: "skipping an alternated step is passing": each side skips its turn at
    the optional ``sortie`` once and is done for the phase, so the game ends (the alternation
    would otherwise ask the side again and again)."""
    game, seen = play(write_game(tmp_path, '''
        sequence {
            phase operations "Operations" {
                mutual
                alternate sortie until all pass or out of orders
                step sortie "Sortie" {
                    optional
                    do designate force paying scout_op raid_op
                    do move force
                }
            }
        }
        '''), ["skip", "play", "pass"])
    assert seen == [("sortie", "blue", "optional"), ("sortie", "red", "optional"), ("sortie", "red", "operation")]
    assert game.is_over()


# --- turns ---------------------------------------------------------------------------------------

INCOME_EACH_TURN = '''
    sequence {
        turns %s
        phase muster "Muster" {
            side blue
            do gain income orders
        }
    }
    '''


def test_a_rulebook_gives_the_games_length_when_the_scenario_gives_none(tmp_path):
    """Reference, ``sequence``: "`turns (per scenario | <count:INT>)` — … a number, the game's
    length, which a scenario may change with its own `turns`."  ``turns 3`` and a scenario with
    no ``turns``: three turns, three incomes."""
    game, _ = play(write_game(tmp_path, INCOME_EACH_TURN % "3", turns=None), [])
    assert game.is_over() and game.state.turn == 3
    assert orders(game) == (5, 2)


def test_a_scenario_gives_its_own_length_over_the_rulebooks(tmp_path):
    """The scenario's ``turns = 2`` overrides the rulebook's ``turns 3``."""
    game, _ = play(write_game(tmp_path, INCOME_EACH_TURN % "3", turns=2), [])
    assert game.state.turn == 2 and orders(game) == (4, 2)


def test_another_rulebook_gives_its_own_length_to_a_scenario_that_gives_none(tmp_path):
    """A scenario with no ``turns`` played under another rulebook (``Game.new(rulebook, scenario,
    seed)``) lasts as that rulebook says: ``turns 1`` there, ``turns 3`` in the scenario's own."""
    scenario = write_game(tmp_path, INCOME_EACH_TURN % "3", turns=None)
    other = write_game(tmp_path, INCOME_EACH_TURN % "1", turns=None, name="short")
    game, _ = play(scenario, [], rulebook=other.with_suffix(".rules"))
    assert game.state.turn == 1 and orders(game) == (3, 2)


@pytest.mark.parametrize("line", ["per scenario", None])
def test_a_scenario_must_give_its_length_when_the_rulebook_leaves_it_to_the_scenario(tmp_path, line):
    """``turns per scenario`` (or no ``turns`` line): a scenario without ``turns`` is refused before
    play, at its ``[scenario]`` table."""
    rules = INCOME_EACH_TURN % line if line else INCOME_EACH_TURN.replace("turns %s\n", "")
    with pytest.raises(RulesError) as error:
        Game.new(write_game(tmp_path, rules, turns=None), 1)
    (diag,) = error.value.diagnostics
    assert diag.code == "E704" and diag.message == "missing key 'turns' in [scenario]"
    assert "turns per scenario" in diag.hint


def test_a_rulebook_of_no_turns_stops_the_game_before_play(tmp_path):
    """``turns 0`` is a lint error (E318): the game never starts."""
    with pytest.raises(RulesError) as error:
        Game.new(write_game(tmp_path, INCOME_EACH_TURN % "0", turns=None), 1)
    assert [d.code for d in error.value.diagnostics] == ["E318"]


# --- draws ---------------------------------------------------------------------------------------

VICTORY = '''
    victory {
        by vp margin
        level draw 0..1 "Draw"
        level win 2+ "Victory"
        %s
    }
    sequence {
        phase muster "Muster" {
            side blue
            do gain income orders
        }
    }
    '''


@pytest.mark.parametrize(("line", "winner"), [("draws won by red", "red"), ("draws possible", None), ("", None)])
def test_draws_are_draws_unless_a_side_wins_them(tmp_path, line, winner):
    """Reference, ``victory``: "`draws (possible | won by <side:REF(side)>)` — … `possible`, a draw
    (as without the line); `won by SIDE`, a win for that side at the drawn level's label."  Both
    sides end on 0 VP."""
    game, _ = play(write_game(tmp_path, VICTORY % line), [])
    assert game.is_over()
    assert game.ctx.result["winner"] == winner and game.ctx.result["level"] == "Draw"
    assert ("the result is drawn, and draws are won by Red" in texts(game)) == (winner is not None)


# --- refused before play -------------------------------------------------------------------------


@pytest.mark.parametrize(("code", "body"), [
    ("E315", "mutual\n        order by move descending\n        do move"),
    ("E316", "mutual\n        repeat until only one side remains in the contested square\n        do move"),
    ("E317", "mutual\n        optional\n        do move"),
])
def test_a_phase_line_that_cannot_be_carried_out_there_stops_the_game_before_play(tmp_path, code, body):
    """``order by`` on a phase (E315), ``repeat until`` outside an operation (E316) and ``optional``
    with no side to decide (E317) are lint errors: a game under them never starts."""
    rules = f'sequence {{\n    phase moving "Moving" {{\n        {body}\n    }}\n}}\n'
    with pytest.raises(RulesError) as error:
        Game.new(write_game(tmp_path, rules), 1)
    assert [d.code for d in error.value.diagnostics] == [code]
