"""Regenerate the golden logs on purpose (never automatically): ``python tests/golden/regenerate.py
[PREFIX …]`` (only the goldens whose names start with a prefix, e.g. ``sea_lords``).

Each golden is one game of a shipped scenario, greedy against random with a
fixed seed, saved as the JSON-lines log ``warbook play --log`` writes.
``tests/golden/test_golden.py`` replays them and fails on any difference, so
regenerate only when a rule change is meant to change play, and say so in the
commit.
"""

from pathlib import Path

from warbook.interpreter.agents import GreedyAgent, RandomAgent, iter_play
from warbook.interpreter.game import Game
from warbook.interpreter.rng import choice_rng

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
GOLDENS = {
    "klicks_village_sweep_seed7.jsonl": ("scenarios/klicks_village_sweep.toml", 7),
    "klicks_firebase_night_seed11.jsonl": ("scenarios/klicks_firebase_night.toml", 11),
    "sea_lords_game_warden_seed3.jsonl": ("scenarios/sea_lords_game_warden.toml", 3),
    "sea_lords_tet_seed5.jsonl": ("scenarios/sea_lords_tet.toml", 5),
    "sea_lords_zumwalt_seed9.jsonl": ("scenarios/sea_lords_zumwalt.toml", 9),
}


def play(scenario: Path, seed: int) -> Game:
    game = Game.new(scenario, seed=seed)
    first = game.scenario.player_order[0]
    agents = {side: GreedyAgent(choice_rng(seed, side), game) if side == first else RandomAgent(choice_rng(seed, side))
              for side in game.ctx.rules.sides}
    for _ in iter_play(game, agents):
        pass
    return game


def main(only: list[str]) -> None:
    for name, (scenario, seed) in GOLDENS.items():
        if only and not any(name.startswith(prefix) for prefix in only):
            continue
        game = play(ROOT / scenario, seed)
        game.save(HERE / name)
        print(f"{name}: {len(game.choices)} decisions, {game.result()['level']}")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])  # names (or prefixes) of the goldens to regenerate; none: all
