"""Rendering: the 34x37 delta map drawn as SVG, against a one-second budget and against reading it.

``MapPicture(board, rules).svg()`` draws the board of ``sea_lords_game_warden`` (1,258 squares,
every terrain, tag pattern, water link, place and the legend), and once more with the counters
of a game at its end (``frames.counters``).  Target: under a second (the issue's figure), shown
as a ratio of that budget: the median of ``ROUNDS`` timed rounds after a warm-up.  The raw
lines give the render as a paired ratio to ``board_from_text`` of the same map (what reading it
costs, measured in the same rounds), PNG conversion (cairosvg, when installed), and
``warbook render`` as a process, start to exit.

Run: ``python -m benchmarks render``.
"""

from __future__ import annotations

import re
import statistics
import subprocess
import tempfile
from pathlib import Path

from benchmarks.harness import Figure, interleaved_many, pairs, profile_call, ratio, show_time, spread, timed
from benchmarks.lint_process import warbook_command

NAMES = ("render",)
ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios" / "sea_lords_game_warden.toml"
BUDGET = 1.0
ROUNDS = 7


def run(name: str = "render", profile: bool = False) -> list[Figure]:
    from warbook.interpreter import frames
    from warbook.interpreter.agents import RandomAgent, iter_play
    from warbook.interpreter.board import board_from_text
    from warbook.interpreter.game import Game
    from warbook.interpreter.picture import MapPicture
    from warbook.interpreter.rng import choice_rng
    from warbook.interpreter.scenario import load_scenario

    scenario = load_scenario(SCENARIO)
    board, rules = scenario.board, scenario.rules
    game = Game.new(scenario, 1)
    for _ in iter_play(game, {side: RandomAgent(choice_rng(1, side)) for side in rules.sides}):
        pass
    seen = frames.counters(game, None)
    held = frames.control(game)
    drawn = MapPicture(board, rules).svg(seen, held)
    stacked = sum(int(n) for n in re.findall(r'data-count="(\d+)"', drawn))
    if drawn.count('class="cell"') != len(board.cells) or stacked != sum(c.location in board.graph for c in seen):
        raise AssertionError("the picture does not hold one polygon per cell and every counter in a stack")
    text, path = scenario.map_text, scenario.map_path
    times = interleaved_many({
        "map": lambda: MapPicture(board, rules).svg(),
        "counters": lambda: MapPicture(board, rules).svg(seen, held),
        "read": lambda: board_from_text(text, path, features=rules.features),
    }, repeats=ROUNDS)
    if profile:
        profile_call(lambda: MapPicture(board, rules).svg(seen, held))
    raw = [(f"{len(board.cells)} cells, {len(seen)} counters at the end of a random game, "
            f"{len(drawn) // 1024} KB of SVG"),
           f"map alone:           {spread(times['map'])}",
           f"map with counters:   {spread(times['counters'])}",
           f"reading the map:     {spread(times['read'])}",
           f"map alone / reading the map: {ratio(times['map'], times['read']):.2f}x (paired median)"]
    try:
        from warbook.interpreter.picture import png

        raw.append(f"PNG conversion (cairosvg): {show_time(min(timed(lambda: png(drawn)) for _ in range(3)))}")
    except (ImportError, OSError):
        raw.append("PNG conversion: cairosvg not installed (pip install -e '.[picture]')")
    with tempfile.TemporaryDirectory() as folder:
        command = [*warbook_command(), "render", "sea_lords_game_warden", "-o", str(Path(folder) / "delta.svg")]
        wall = [timed(lambda: subprocess.run(command, check=True, capture_output=True)) for _ in range(3)]
    raw.append(f"warbook render sea_lords_game_warden -o delta.svg, as a process: median "
               f"{show_time(statistics.median(wall))} (start-up, imports and loading the scenario included)")
    median = statistics.median(times["counters"])
    return [Figure("Render the delta map with counters, vs 1 s", median / BUDGET, 1.0, raw=raw,
                   shown=show_time(median), pairs=[]),
            Figure("Render the delta map / read it", ratio(times["map"], times["read"]), None,
                   pairs=pairs(times["map"], times["read"]))]
