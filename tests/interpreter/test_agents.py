"""Agents on the tiny generic game: determinism, legality, no peeking, terminal input, scripts, narrative."""

import io
import sys
import types
from fractions import Fraction
from pathlib import Path

import pytest

from warbook.interpreter.actions import Action, Decision, IllegalActionError
from warbook.interpreter.human import HumanAgent
from warbook.interpreter.agents import (
    GreedyAgent,
    InputEnded,
    RandomAgent,
    ScriptedAgent,
    ScriptError,
    iter_play,
    parse_choice,
)
from warbook.interpreter.game import Game
from warbook.interpreter.narrate import Narrator, narrate, redactions, result_line
from warbook.interpreter.rng import choice_rng

MINI = (Path(__file__).parent / "fixtures" / "mini" / "mini.toml").resolve()


def play(seed: int, make) -> Game:
    """Play the mini game to the end with ``make(side, game)`` as each side's agent."""
    game = Game.new(MINI, seed)
    agents = {side: make(side, game) for side in game.scenario.player_order}
    for _ in iter_play(game, agents):
        pass
    return game


def random_agents(side, game):
    return RandomAgent(choice_rng(game.seed, f"random:{side}"))


def greedy_agents(side, game):
    return GreedyAgent(choice_rng(game.seed, f"greedy:{side}"), game)


# --- determinism and legality -----------------------------------------------------------


@pytest.mark.parametrize("make", [random_agents, greedy_agents], ids=["random", "greedy"])
def test_agents_are_deterministic_given_a_seed(make):
    for seed in range(4):
        assert play(seed, make).log == play(seed, make).log


def test_random_agent_choices_depend_on_its_seed():
    # The dice do not depend on the agents' stream, but red's set-up choices do.
    logs = {tuple(play(seed, random_agents).choices) for seed in range(8)}
    assert len(logs) > 1


def test_agents_never_draw_from_the_global_random(monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("an agent used the global random")

    for name in ("random", "choice", "shuffle", "randint", "randrange"):
        monkeypatch.setattr(f"random.{name}", forbidden)
    play(1, random_agents)
    play(1, greedy_agents)


class Checked:
    """Wraps an agent and records whether every choice was one of the legal actions."""

    def __init__(self, agent, game):
        self.agent, self.game, self.checked = agent, game, 0

    def choose(self, observation, decision):
        action = self.agent.choose(observation, decision)
        assert action in self.game.legal_actions() and action in decision.options
        self.checked += 1
        return action


def test_greedy_only_chooses_legal_actions():
    for seed in range(6):
        game = Game.new(MINI, seed)
        agents = {side: Checked(greedy_agents(side, game), game) for side in game.scenario.player_order}
        list(iter_play(game, agents))
        assert game.is_over() and sum(a.checked for a in agents.values()) == len(game.choices) > 0


def test_iter_play_yields_the_whole_log_in_order():
    game = Game.new(MINI, 2)
    agents = {side: random_agents(side, game) for side in game.scenario.player_order}
    assert list(iter_play(game, agents)) == game.log and game.is_over()


# --- greedy: what it prefers, and what it may not see ----------------------------------------


class ScenarioOnly:
    """A stand-in game that exposes its scenario and nothing else: any look at the state fails."""

    def __init__(self, game):
        self.scenario = game.scenario

    def __getattr__(self, name):
        raise AssertionError(f"the greedy agent looked at game.{name}")


def observation(units, side="blue"):
    return {"side": side, "turn": 1, "phase": "move", "units": units, "resources": {"blue.vp": "0", "red.vp": "0"}}


def blue(cell):
    return {"id": "B1", "side": "blue", "type": "trooper", "location": cell, "mode": None, "dummy": False}


def face_down(unit_id, cell):
    return {"id": unit_id, "side": "red", "type": None, "location": cell, "mode": None, "dummy": None}


def test_greedy_moves_onto_objectives_and_next_to_enemies_from_the_observation_alone():
    greedy = GreedyAgent(choice_rng(0, "t"), ScenarioOnly(Game.new(MINI, 0)))
    # The mini map's only objective is the town at 0202 (award town_held: 2 VP a turn).
    moves = Decision("blue", "move", "move B1", (Action("move", ("B1", "0101")), Action("move", ("B1", "0202")),
                                                  Action("move", ("B1", "0401")), Action("pass")))
    assert greedy.choose(observation([blue("0201")]), moves) == Action("move", ("B1", "0202"))
    # Leaving the objective scores below staying (pass).
    away = Decision("blue", "move", "move B1", (Action("move", ("B1", "0101")), Action("pass")))
    assert greedy.choose(observation([blue("0202")]), away) == Action("pass")
    # With no objective in reach, a cell beside a face-down enemy counter beats one far from it.
    near = Decision("blue", "move", "move B1", (Action("move", ("B1", "0103")), Action("move", ("B1", "0303"))))
    seen = observation([blue("0203"), face_down("R1", "0403")])
    assert greedy.choose(seen, near) == Action("move", ("B1", "0303"))


SKIRMISH_RULES = """
combat skirmish "Skirmish" {
    table crt
    compare odds
    adjacent
    attack factor attack
    defence factor defend
}
table crt "Combat results" {
    roll d6
    lookup by odds
    columns 1:1 2:1
    1..3: D D
    4..6: A D
}
result A "Attacker eliminated" {
    effect eliminate all attackers
    worth -2
}
result D "Defender eliminated" {
    effect eliminate all defenders
    worth +2
}
"""


@pytest.fixture
def skirmish(tmp_path) -> Path:
    """The mini game plus attack and defence factors and one combat: trooper 2-2, guerrilla 1-1.

    On its CRT a 1:1 attack eliminates the defender on 1-3 (worth +2) and the attacker on 4-6
    (worth -2): expected worth 0; a 2:1 attack always eliminates the defender: expected worth 2.
    """
    mini = MINI.parent
    rules = (mini / "mini.rules").read_text()
    factors = 'factor move "Move"\n'
    rules = rules.replace(factors, factors + 'factor attack "Attack"\nfactor defend "Defence"\n')
    trooper, guerrilla = "    move 3\n}\nunit guerrilla", "    tags foot\n    move 3\n}\nmarker"
    rules = rules.replace(trooper, trooper.replace("    move 3\n", "    move 3\n    attack 2\n    defend 2\n"))
    rules = rules.replace(guerrilla, guerrilla.replace("    move 3\n", "    move 3\n    attack 1\n    defend 1\n"))
    assert rules.count("attack 2") == rules.count("attack 1") == 1
    (tmp_path / "skirmish.rules").write_text(rules + SKIRMISH_RULES)
    (tmp_path / "map.toml").write_text((mini / "map.toml").read_text())
    (tmp_path / "skirmish.toml").write_text((mini / "mini.toml").read_text().replace("mini.rules", "skirmish.rules"))
    return tmp_path / "skirmish.toml"


def fake_combat(worth_by_type, calls):
    def expected_worth(ctx, combat_name, attackers, defenders, *, roll_modifier=0, support=(), rolls=None):
        calls.append((combat_name, [a.type for a in attackers], [d.type for d in defenders]))
        assert all(u.type for u in ctx.state.units), "the context is built from the observation"
        return Fraction(sum(worth_by_type[d.type] for d in defenders))

    return types.SimpleNamespace(expected_worth=expected_worth, roll_results=lambda *args, **kwargs: [])


def test_greedy_scores_attacks_on_face_down_counters_from_public_set_up_counts(monkeypatch, skirmish):
    game = Game.new(skirmish, 0)
    calls = []
    # The truth is irrelevant: the defender is face down, so greedy must weigh the set-up counts
    # (2 guerrillas, 1 decoy for red), never read which one it really is.
    monkeypatch.setitem(sys.modules, "warbook.interpreter.combat", fake_combat({"guerrilla": 3, "decoy": 0}, calls))
    monkeypatch.setitem(sys.modules, "warbook.interpreter.exchange",  # (the units' losses: weighed apart)
                        types.SimpleNamespace(expected_exchange=lambda *args, **kwargs: Fraction(0)))
    greedy = GreedyAgent(choice_rng(0, "t"), ScenarioOnly(game))
    attack = Action("attack", ("B1", "0302"))
    decision = Decision("blue", "attack", "attack", (attack, Action("done")))
    seen = observation([blue("0202"), face_down("R7", "0302")])
    assert greedy.score(seen, decision, attack) == Fraction(2 * 3 + 1 * 0, 3)
    assert sorted(c[2][0] for c in calls) == ["decoy", "guerrilla"] and {c[0] for c in calls} == {"skirmish"}
    assert greedy.choose(seen, decision) == attack
    # An attack expected to do harm loses to passing.
    monkeypatch.setitem(sys.modules, "warbook.interpreter.combat", fake_combat({"guerrilla": -3, "decoy": -3}, []))
    assert greedy.choose(seen, decision) == Action("done")


def test_greedy_without_a_combat_module_falls_back_to_its_rng(monkeypatch, skirmish):
    monkeypatch.setitem(sys.modules, "warbook.interpreter.combat", None)  # import fails
    game = Game.new(skirmish, 0)
    decision = Decision("blue", "attack", "attack", (Action("attack", ("B1", "0302")), Action("done")))
    seen = observation([blue("0202"), face_down("R7", "0302")])
    picks = {GreedyAgent(choice_rng(s, "t"), game).choose(seen, decision) for s in range(12)}
    assert picks == set(decision.options)


# --- a person at a terminal ----------------------------------------------------------------


DECLARE = Decision("blue", "declare watch", "put units on Watch orders",
                   (Action("declare", ("B1", "watch")), Action("done")))


def ask(text: str, decision=DECLARE, board=None):
    out = io.StringIO()
    agent = HumanAgent(io.StringIO(text), out, board=board)
    return agent.choose(observation([blue("0202"), face_down("R1", "0302")]), decision), out.getvalue()


def test_human_accepts_a_number_full_words_or_a_unique_prefix():
    assert ask("2\n")[0] == Action("done")
    assert ask("declare B1 watch\n")[0] == Action("declare", ("B1", "watch"))
    assert ask("  do \n")[0] == Action("done")


def test_human_is_asked_again_after_garbage_and_sees_why():
    action, out = ask("garbage\n7\nd\n\n?\ndec\n")
    assert action == Action("declare", ("B1", "watch"))
    assert "illegal action 'garbage' for blue (declare watch)" in out
    assert "illegal action '7'" in out
    assert "'d' matches 2 actions" in out
    assert out.count("  1. declare B1 watch") == 2  # listed once, then again for '?'
    assert out.count("blue> ") == 6


def test_human_sees_its_view_and_numbered_options():
    board = Game.new(MINI, 0).scenario.board
    _, out = ask("1\n", board=board)
    assert "01 ....\n02 .OX.\n03 ...." in out  # B1 at 0202 (O), a face-down counter at 0302 (X)
    assert "yours:\n  0202: B1 trooper\nenemy:\n  0302: R1 face down\n" in out
    assert "resources: blue vp 0, red vp 0" in out
    assert "blue to choose (declare watch): put units on Watch orders" in out
    assert "  1. declare B1 watch\n  2. done" in out


def test_human_end_of_input_is_a_clean_error():
    with pytest.raises(InputEnded, match="input ended while blue was to choose"):
        ask("garbage\n")


def test_parse_choice_follows_the_game_rules():
    game = Game.new(MINI, 0)
    for text in ("1", "3", "place R", "place R1 040", str(game.legal_actions()[-1])):
        try:
            expected = game.parse_action(text)
        except IllegalActionError as exc:
            with pytest.raises(type(exc)):
                parse_choice(text, game.decision)
        else:
            assert parse_choice(text, game.decision) == expected


# --- scripts -------------------------------------------------------------------------------


def test_scripted_agents_replay_a_saved_game_to_the_same_log(tmp_path):
    original = play(7, greedy_agents)
    path = tmp_path / "game.jsonl"
    original.save(path)
    replayed = play(7, lambda side, game: ScriptedAgent.from_file(path, side))
    assert replayed.log == original.log and replayed.result() == original.result()


def test_scripts_by_hand_may_abbreviate_and_comment(tmp_path):
    game = Game.new(MINI, 0)
    first = game.legal_actions()[0]
    script = tmp_path / "red.txt"
    script.write_text(f"# red's set-up\n\n{first}   # the first cell\n1\n")
    agent = ScriptedAgent.from_file(script)
    game.apply(agent.choose(game.observe("red"), game.decision))
    game.apply(agent.choose(game.observe("red"), game.decision))
    assert game.choices[0] == str(first) and agent.remaining == 0
    with pytest.raises(ScriptError) as info:
        agent.choose(game.observe("red"), game.decision)
    assert info.value.diagnostic.code == "E811" and "ran out after 2 choices" in info.value.diagnostic.message
    assert str(info.value.diagnostic.span) == f"{script}:5:1"


def test_an_illegal_scripted_choice_points_at_its_line(tmp_path):
    script = tmp_path / "red.txt"
    script.write_text("place R1 0101\n")
    game = Game.new(MINI, 0)
    with pytest.raises(IllegalActionError) as info:
        ScriptedAgent.from_file(script).choose(game.observe("red"), game.decision)
    assert str(info.value.diagnostic.span) == f"{script}:1:1" and info.value.diagnostic.code == "E801"


def test_a_missing_script_is_a_diagnostic(tmp_path):
    with pytest.raises(ScriptError) as info:
        ScriptedAgent.from_file(tmp_path / "nope.txt")
    assert info.value.diagnostic.code == "E811" and "no such file" in info.value.diagnostic.message


# --- narrative ----------------------------------------------------------------------------


def test_narrative_is_deterministic_and_readable():
    game = play(3, random_agents)
    lines = narrate(game.log)
    assert lines == narrate(play(3, random_agents).log)
    assert "Set-up" in lines and "Turn 1 — Orders (blue)" in lines and "Turn 2 — Scoring" in lines
    assert lines[-1] == result_line(game.result()) == "Result: Victory for blue (margin 4; blue 4, red 0)"
    assert "  B1 Trooper set up at 0202" in lines


def test_narrative_of_rolls_and_choices():
    entries = [{"type": "decision", "side": "blue", "choice": "attack B1 0302"},
               {"type": "roll", "dice": "d6", "value": 4, "reason": "CRT 2:1 (attack on 0610)"}]
    assert narrate(entries) == ["  roll d6 = 4 for CRT 2:1 (attack on 0610)"]
    assert narrate(entries, choices=True)[0] == "  blue chose: attack B1 0302"
    assert result_line(None) == "Result: the game is not over"
    assert result_line({"winner": None, "level": "Draw", "margin": 0}) == "Result: Draw (margin 0)"


def test_narrating_to_one_side_hides_the_enemy_face_down_counters():
    game = play(3, random_agents)
    hidden = redactions(game, "blue")
    assert set(hidden.values()) == {"R1 (hidden)", "R2 (hidden)", "R3 (hidden)"}
    assert redactions(game, "red") == {}
    shown = "\n".join(line for entry in game.log for line in Narrator(hidden).lines(entry))
    assert "Guerrilla" not in shown and "Decoy" not in shown and "R1 (hidden) set up at" in shown


def test_greedy_scores_attacks_with_the_rulebook_tables(skirmish):
    pytest.importorskip("warbook.interpreter.combat")
    greedy = GreedyAgent(choice_rng(0, "t"), ScenarioOnly(Game.new(skirmish, 0)))
    # Trooper (attack 2) against a guerrilla (defence 1): 2:1, a certain D (worth +2).  A face-down
    # counter is a guerrilla two times in three (set-up: 2 guerrillas, 1 decoy; a dummy is worth 0).
    known = {**face_down("R7", "0302"), "type": "guerrilla"}
    attack = Action("attack", ("B1", "0302"))
    decision = Decision("blue", "attack", "attack", (attack, Action("done")))
    # Beside the worth, the D takes the guerrilla's strength (move 3, attack 1, defend 1: 5) at 1/100 a point.
    assert greedy.score(observation([blue("0202"), known]), decision, attack) == 2 + Fraction(5, 100)
    assert greedy.score(observation([blue("0202"), face_down("R7", "0302")]), decision, attack) == \
        Fraction(2, 3) * (2 + Fraction(5, 100))


def test_greedy_gives_up_its_weakest_unit(skirmish):
    greedy = GreedyAgent(choice_rng(0, "t"), ScenarioOnly(Game.new(skirmish, 0)))
    # Red chooses a loss: a guerrilla (move 3, attack 1, defend 1) or the decoy (a dummy, no factors).
    units = [{"id": "R1", "side": "red", "type": "guerrilla", "location": "0302", "mode": None, "dummy": False},
             {"id": "R2", "side": "red", "type": "decoy", "location": "0302", "mode": None, "dummy": True}]
    decision = Decision("red", "losses", "choose 1 more to lose", (Action("lose", ("R1",)), Action("lose", ("R2",))))
    assert greedy.choose(observation(units, side="red"), decision) == Action("lose", ("R2",))
