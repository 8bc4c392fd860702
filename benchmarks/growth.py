"""Growth: how a playout's cost grows with the number of units, and with the map alone.

Both figures play Skirmish (``benchmarks/games/``) on a map made of tiles side by side, each
tile its 8×6 map with a lake border 2 cells wide on the east and south (``BORDER``; the tile
width stays even, so every hex keeps its neighbours' pattern):

- **units**: 8 tiles (4 across, 2 down) with the scenario's units set up in every tile, so 8×
  the units on 8× the map; the figure is time per playout at 8× ÷ at 1× (one tile, border
  included).  Target ≤ 9×.
- **map**: 16 tiles (4 by 4) with the units of one tile only: the figure is the time per
  playout ÷ on the one-tile map, reported.  The units cannot leave their tile, so both sides
  play the same games: the growth is what a decision costs more with the map's size (options
  over unlimited ranges, walks over every cell).

Why the border: the figure is meant to measure how the *engine's* cost grows with units, so
the 8× game must be 8 copies of the same game.  Without it the tiles fought each other (at 8×
attacks a playout rose 15.5×, not 8×) and units wandered into the next tile, so the figure
mixed more fighting a unit with the engine's growth.  Lake is no entry for every movement
class, and 2 cells put one tile's units 3 hexes from the next tile's: past the longest zone of
control (1, or 2 dug in), adjacent combat and retreat (Skirmish has no hidden counters, so no
spotting crosses it either).  The 1× map has the same border, so both sides of the ratio play
the same tile.  Then an engine whose cost is linear in units gives about 8×, or a little less
(a phase's ``done`` decisions are per side, not per unit), and any excess is per-decision work
over all units: what issue 18 item 2 removes.  The raw lines give the decisions, attacks and
rolls a playout at each size, so that the game's own growth is seen beside the cost's.

Each round plays fresh seeds on both sides of a figure (interleaved, paired medians).

Run: ``python -m benchmarks growth``.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import tomllib
from pathlib import Path

from benchmarks.harness import Figure, interleaved_rounds, pairs, ratio, spread

NAMES = ("growth",)
GAMES = Path(__file__).parent / "games"
SEEDS_A_ROUND = 8
TALLY_SEEDS = 16
"""Playouts (seeds 0-15) counted for the raw lines' decisions, attacks and rolls, apart from the timing."""


BORDER = 2
"""Lake cells on the east and south of every tile.  Lake is no entry for every movement class, so
no unit crosses it, and two cells put a tile's units 3 hexes from the next tile's: past the
longest zone of control (1, or 2 dug in) and past adjacent combat and retreat."""


def tiled(folder: Path, across: int, down: int, units_in: int) -> Path:
    """A Skirmish scenario on ``across × down`` tiles, each its map with a lake border on the east
    and south (``BORDER``), with its units set up in the first ``units_in`` tiles (row by row); the
    scenario's path."""
    map_text = (GAMES / "skirmish_map.toml").read_text(encoding="utf-8")
    head = tomllib.loads(map_text)["map"]
    width, height, rows = head["width"], head["height"], head["rows"]
    lake = next(char for char, terrain in head["legend"].items() if terrain == "lake")
    tile_rows = [row + lake * BORDER for row in rows] + [lake * (width + BORDER)] * BORDER
    tile_width, tile_height = width + BORDER, height + BORDER
    if tile_width % 2:
        raise ValueError("an odd tile width would change the hex pattern between copies")
    big_rows = [row * across for row in tile_rows] * down
    map_text = re.sub(r"rows = \[.*?\]", "rows = [\n" + "".join(f'    "{r}",\n' for r in big_rows) + "]", map_text,
                      flags=re.S)
    map_text = map_text.replace(f"width = {width}", f"width = {tile_width * across}")
    map_text = map_text.replace(f"height = {height}", f"height = {tile_height * down}")
    scenario = tomllib.loads((GAMES / "skirmish.toml").read_text(encoding="utf-8"))
    lines = ['[scenario]', 'name = "Skirmish tiled"', 'rules = "skirmish.rules"', 'map = "map.toml"',
             f'turns = {scenario["scenario"]["turns"]}', 'player_order = ["blue", "red"]']
    for copy in range(units_in):
        dx, dy = tile_width * (copy % across), tile_height * (copy // across)
        for setup in scenario["setup"]:
            column, row = int(setup["at"][:2]) + dx, int(setup["at"][2:]) + dy
            lines += ["", "[[setup]]", f'side = "{setup["side"]}"', f'unit = "{setup["unit"]}"',
                      f'count = {setup["count"]}', f'at = "{column:02d}{row:02d}"']
    (folder / "map.toml").write_text(map_text, encoding="utf-8")
    shutil.copy(GAMES / "skirmish.rules", folder / "skirmish.rules")
    path = folder / "scenario.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _scenario(root: Path, name: str, across: int, down: int, units_in: int):
    from warbook.interpreter.scenario import load_scenario

    folder = root / name
    folder.mkdir()
    return load_scenario(tiled(folder, across, down, units_in))


def tally(scenario, seeds) -> dict[str, float]:
    """Decisions, attacks (``attack`` choices) and rolls a playout, over ``seeds``: played apart
    from the timed rounds, the same random playouts as ``play_scenario``."""
    from warbook.interpreter.game import Game
    from warbook.interpreter.rng import choice_rng

    counts = {"decisions": 0, "attacks": 0, "rolls": 0}
    for seed in seeds:
        game, rng = Game.new(scenario, seed), choice_rng(seed, "playout")
        while not game.is_over():
            options = game.legal_actions()
            action = options[rng.randrange(len(options))]
            counts["decisions"] += 1
            counts["attacks"] += action.kind == "attack"
            game.apply(action)
        counts["rolls"] += sum(1 for line in game.log if line.get("type") == "roll")
    return {key: value / len(seeds) for key, value in counts.items()}


def _counts(made: dict[str, float]) -> str:
    return ", ".join(f"{made[key]:.1f} {key}" for key in ("decisions", "attacks", "rolls"))


def run(name: str = "growth", profile: bool = False) -> list[Figure]:
    from benchmarks.scenarios import play_scenario

    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary)
        one = _scenario(root, "one", 1, 1, 1)
        units = _scenario(root, "units", 4, 2, 8)
        wide = _scenario(root, "map", 4, 4, 1)

        def round_calls(round_: int) -> dict:
            seeds = range(round_ * SEEDS_A_ROUND, (round_ + 1) * SEEDS_A_ROUND)
            return {key: (lambda s=scenario: play_scenario(s, seeds))
                    for key, scenario in (("one", one), ("units", units), ("map", wide))}

        times = interleaved_rounds(round_calls)
        seeds = range(TALLY_SEEDS)
        made = {key: tally(scenario, seeds) for key, scenario in (("one", one), ("units", units), ("map", wide))}
        if profile:
            from benchmarks.harness import profile_call

            profile_call(lambda: play_scenario(units, range(SEEDS_A_ROUND)))
    grew = {key: made["units"][key] / made["one"][key] for key in made["one"] if made["one"][key]}
    return [
        Figure("Units growth (8x the units and map / 1x, per playout)", ratio(times["units"], times["one"]), 9.0,
               pairs=pairs(times["units"], times["one"]), raw=[
                   f"{SEEDS_A_ROUND} random playouts a round, fresh seeds; tiles parted by a lake border",
                   f"a playout ({TALLY_SEEDS} seeds): 1x {_counts(made['one'])}; 8x {_counts(made['units'])}",
                   "8x / 1x: " + ", ".join(f"{key} {value:.2f}x" for key, value in grew.items()),
                   f"8x: {spread(times['units'])}", f"1x: {spread(times['one'])}"]),
        Figure("Map growth (16x the map, same units / 1x, per playout)", ratio(times["map"], times["one"]), None,
               pairs=pairs(times["map"], times["one"]), raw=[
                   f"a playout on the 16x map: {_counts(made['map'])}", f"16x map: {spread(times['map'])}"]),
    ]
