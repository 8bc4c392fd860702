"""Balance studies: many seeded games of one scenario, played in worker processes, one record each.

``iter_study`` splits the seeds into ranges (``shrinking_ranges``) and hands them to a pool: in
this process (``jobs`` 1), in ``jobs`` worker processes (``interpreter.study_pool``: forked where
the platform allows), or on a Ray cluster (``interpreter.study_ray``).  Records come
back as ranges finish, in no fixed order; a report sorts them by seed, so a study's answer is the
same whatever the pool, the number of workers or the size of the ranges.  What a study plays —
arms, records, a range of seeds — is ``interpreter.study_games``, named here too.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .study_games import (GameRecord, Runner, StudyArm, Task, arm_scenario, heap_frozen, play_game, play_seeds,
                          play_task, read_records, seed_ranges, shrinking_ranges)
from .study_pool import iter_pool

__all__ = ["GameRecord", "Runner", "StudyArm", "Task", "arm_scenario", "heap_frozen", "iter_study", "play_game",
           "play_seeds", "play_task", "read_records", "run_locally", "seed_ranges", "shrinking_ranges"]


def iter_study(arms: Sequence[StudyArm], seeds: range, *, jobs: int = 1, size: int | None = None,
               runner: Runner | None = None) -> Iterator[GameRecord]:
    """Play every seed under every arm; an iterator of each record as its range finishes (in no
    fixed order).

    The arms' scenarios are loaded here first, so bad rules are refused before any worker starts,
    and local workers start here too (``interpreter.study_pool``): call this before starting
    threads of your own.  The seeds are cut into ranges of ``size`` games, by default ranges that
    shrink toward the end (``shrinking_ranges``); a game depends on its seed alone, so the answer
    is the same whatever plays them (``runner``, by default ``run_locally``) and however they are
    cut.  Closing the iterator (an interrupt) stops the workers; the records yielded so far stand.

    Raises:
        RulesError: when an arm's scenario or rules are bad.
    """
    for arm in arms:
        arm_scenario(arm)
    ranges = seed_ranges(seeds, size) if size else shrinking_ranges(seeds, jobs)
    tasks = [(arm, r.start, r.stop) for r in ranges for arm in arms]
    return (runner or run_locally)(tasks, jobs)


def run_locally(tasks: Sequence[Task], jobs: int) -> Iterator[GameRecord]:
    """The tasks in this process (``jobs`` 1) or in ``jobs`` worker processes (``study_pool``)."""
    if jobs <= 1:
        return _play_here(tasks)
    return iter_pool(tasks, jobs)


def _play_here(tasks: Sequence[Task]) -> Iterator[GameRecord]:
    """The tasks in this process, with what it held before (the compiled rules) out of the garbage
    collector's sight while they play, as a worker's is (``study_pool``)."""
    with heap_frozen():
        for arm, start, stop in tasks:
            yield from play_seeds(arm, start, stop)


