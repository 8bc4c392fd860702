"""Balance studies: how ``warbook sim`` scales over worker processes, and what starting a worker costs.

``sim``: for each shipped scenario, the same ``GAMES`` seeds (fresh each round) played by one
process (``--jobs 1``: the study plays in the command's own process) and by a pool of two
worker processes (``--jobs 2``; the pool ``warbook sim`` starts, ``study_pool.worker_pool``, after
the rules are loaded here as ``iter_study`` loads them), in interleaved rounds.  The workers are
started and their rules loaded before the first timed round (the warm-up), so the figure is the
scaling of play alone: time with two workers ÷ time with one, the median of the paired rounds.  Target ≤ 0.56 (a
speed-up of 1.8 or more on two cores); on a machine shared with other work it is reported as
measured.

``simstart``: the cost of starting one worker (``study_pool.worker_pool``: forked with the rules
this process compiled, where the platform allows; else a process that imports warbook and compiles
them, ``study.arm_scenario``) as a share of a 100-game study on one worker (start + 100 games).
Reported, no target.

Until session 9 both figures used a spawned pool of their own, not the one ``warbook sim`` uses;
they now measure that one, whatever its start method.

Run: ``python -m benchmarks sim simstart``.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from benchmarks.harness import REPEATS, Figure, interleaved_rounds, pairs, show_time

NAMES = ("sim", "simstart")
ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))
GAMES = 48
"""Games a round with each number of workers (fresh seeds each round).  Each game is its own task
(queued to the workers as ``study_pool.WorkerPool`` queues a study's last single games), and a
round waits for its last game: with 4 games, two a worker, the figure measured how unequal two
pairs of games were as much as the scaling (games of one scenario differ in length), so a round
played 12 (session 9), 24 in session 10 and 48 since session 11: the wait for the last game,
about half a game whatever the round's length, was some 4% of a round of 12 (a study's hundreds
of games make it under 1%).  Replaying measured game times, a round of 24 on two ideal workers
took 0.511 of one worker's time, the floor of the figure then, and a round's ratio ranged
0.44-0.64 in Tet (long games of unequal length): a full run read 0.56 where runs of Tet alone
read 0.46-0.51, old pool and new alike."""
STUDY = 100
"""The study size the worker start is compared with."""


def compile_only(arm) -> None:
    """What a worker does before its first game: load and compile the arm's scenario."""
    from warbook.interpreter.study import arm_scenario

    arm_scenario(arm)


def run(name: str = "sim", profile: bool = False) -> list[Figure]:
    from warbook.interpreter.study import StudyArm

    arms = {path.stem: StudyArm("study", str(path)) for path in SCENARIOS}
    return scaling(arms) if name == "sim" else start_cost(arms)


def scaling(arms: dict) -> list[Figure]:
    from warbook.interpreter.study import arm_scenario, play_seeds, play_task
    from warbook.interpreter.study_pool import worker_pool

    figures = []
    for stem, arm in arms.items():
        arm_scenario(arm)
        pool = worker_pool([arm], 2)
        try:
            def round_calls(round_: int, arm=arm, pool=pool) -> dict:
                seeds = range(round_ * GAMES, (round_ + 1) * GAMES)
                tasks = [(arm, seed, seed + 1) for seed in seeds]
                return {"jobs 1": lambda: play_seeds(arm, seeds.start, seeds.stop),
                        "jobs 2": lambda: list(pool.imap_unordered(play_task, tasks))}

            times = interleaved_rounds(round_calls, repeats=REPEATS)
        finally:
            pool.terminate()
            pool.join()
        against = pairs(times["jobs 2"], times["jobs 1"])
        one, two = (GAMES / statistics.median(times[k]) for k in ("jobs 1", "jobs 2"))
        figures.append(Figure(f"sim --jobs 2 ÷ --jobs 1 time: {stem}", statistics.median(against), 1 / 1.8,
                              pairs=against, raw=[f"{GAMES} games a round, fresh seeds, workers warm: "
                                                  f"{one:.2f} games/s with 1 job, {two:.2f} with 2 "
                                                  f"(speed-up {two / one:.2f}x)"]))
    return figures


def start_cost(arms: dict) -> list[Figure]:
    from warbook.interpreter.study import arm_scenario, play_seeds
    from warbook.interpreter.study_pool import start_method, worker_pool

    figures = []
    for stem, arm in arms.items():
        arm_scenario(arm)
        starts = []
        for _ in range(3):
            begun = time.perf_counter()
            pool = worker_pool([arm], 1)
            try:
                pool.apply(compile_only, (arm,))
                starts.append(time.perf_counter() - begun)
            finally:
                pool.terminate()
                pool.join()
        compile_only(arm)
        begun = time.perf_counter()
        play_seeds(arm, 0, GAMES)
        per_game = (time.perf_counter() - begun) / GAMES
        start = statistics.median(starts)
        share = start / (start + STUDY * per_game)
        figures.append(Figure(f"sim worker start, share of a {STUDY}-game study: {stem}", None, None, raw=[
            f"start ({start_method()}) {show_time(start)} (median of 3), a game {show_time(per_game)} "
            f"(mean of {GAMES})"], shown=f"{share * 100:.1f}%"))
    return figures
