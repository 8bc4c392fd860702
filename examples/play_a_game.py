"""Play a game with computer agents
==================================

What ``warbook play`` does, through the public API: ``Game.new(scenario,
seed)`` starts a game, one agent per side answers its decisions
(``RandomAgent`` and ``GreedyAgent`` from ``interpreter.agents``, their
randomness drawn from ``rng.choice_rng`` so it never shifts the dice), and
``interpreter.narrate`` turns the log into lines people read.

It plays the shipped scenarios in ``scenarios/`` that this version of the
interpreter can run, and always the tiny test game, greedy against random.
Then it saves the game and loads it again (``Game.load`` replays the log and
checks every roll), to show that a save is a replay.  Run it from anywhere::

    python examples/play_a_game.py

It exits 0 when every game it started has ended and replayed; CI runs it to
keep the example working.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from warbook.dsl import RulesError
from warbook.interpreter.agents import GreedyAgent, RandomAgent, iter_play
from warbook.interpreter.game import Game
from warbook.interpreter.narrate import Narrator, narrate, result_line, title
from warbook.interpreter.rng import choice_rng

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "interpreter" / "fixtures" / "mini" / "mini.toml"
SEED = 7


def play(scenario: Path, seed: int, *, verbose: bool) -> Game:
    """Play one game to the end, greedy first side against random, printing the narrative as it goes."""
    game = Game.new(scenario, seed)
    first, *others = game.scenario.player_order
    agents = {first: GreedyAgent(choice_rng(seed, f"greedy:{first}"), game)}
    agents.update({side: RandomAgent(choice_rng(seed, f"random:{side}")) for side in others})
    narrator = Narrator()
    print(title(game))
    for entry in iter_play(game, agents):
        for line in narrator.lines(entry) if verbose else ():
            print(line)
    if not verbose:
        print(f"  {len(game.choices)} decisions, {sum(e['type'] == 'roll' for e in game.log)} rolls")
        print(result_line(game.result()))
    return game


def check_replay(game: Game) -> None:
    """Save the game, load it back (a replay that verifies every roll) and compare the narratives."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.jsonl"
        game.save(path)
        loaded = Game.load(path)
    assert narrate(loaded.log) == narrate(game.log), "the replay tells a different story"
    print(f"  saved and replayed: {len(game.log)} log entries, same story")


def main() -> int:
    scenarios = [*sorted((ROOT / "scenarios").glob("*.toml")), MINI]
    for scenario in scenarios:
        try:
            game = play(scenario, SEED, verbose=scenario == MINI)
        except RulesError as exc:
            print(f"{scenario.relative_to(ROOT)}: not playable yet")
            for d in exc.diagnostics[:3]:
                print(f"  {d}")
            print()
            continue
        check_replay(game)
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
