"""Regenerate the golden logs on purpose (never automatically): ``python tests/golden/regenerate.py``.

Each golden is one game of a shipped scenario, greedy against random with a
fixed seed, saved as the JSON-lines log ``warbook play --log`` writes.
``tests/golden/test_golden.py`` replays them and fails on any difference, so
regenerate only when a rule change is meant to change play, and say so in the
commit.
"""

from pathlib import Path

from interpreter.agents import GreedyAgent, RandomAgent, iter_play
from interpreter.game import Game
from interpreter.rng import choice_rng

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
GOLDENS = {
    "klicks_village_sweep_seed7.jsonl": ("scenarios/klicks_village_sweep.toml", 7),
    "klicks_firebase_night_seed11.jsonl": ("scenarios/klicks_firebase_night.toml", 11),
}


def play(scenario: Path, seed: int) -> Game:
    game = Game.new(scenario, seed=seed)
    first = game.scenario.player_order[0]
    agents = {side: GreedyAgent(choice_rng(seed, side), game) if side == first else RandomAgent(choice_rng(seed, side))
              for side in game.ctx.rules.sides}
    for _ in iter_play(game, agents):
        pass
    return game


def main() -> None:
    for name, (scenario, seed) in GOLDENS.items():
        game = play(ROOT / scenario, seed)
        game.save(HERE / name)
        print(f"{name}: {len(game.choices)} decisions, {game.result()['level']}")


if __name__ == "__main__":
    main()
