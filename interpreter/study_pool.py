"""The worker processes of a local study (``warbook sim --jobs K``): how they start, and what they keep.

A study's games are short (a tenth of a second for a small scenario), so what a worker costs
besides its games weighs: starting it, compiling the rules in it, and the garbage collector going
over the compiled rules again and again while it plays.

- **Start.**  Where the platform has ``fork`` (Linux), a worker is a fork of the study's process,
  which has loaded and compiled every arm's rules (``study.iter_study`` does that first): the
  worker starts with them, in a few milliseconds, instead of importing warbook and compiling again.
  A process with threads of its own is not forked (a thread's lock held at the fork would be held
  for ever in the worker): there, and where there is no ``fork`` (macOS's is unsafe with its
  system libraries), workers come from a ``forkserver`` that has imported the engine once; on
  Windows they are spawned.  Those workers compile the rules once, when they start.
- **The collector.**  A worker's rules live as long as it does, so once they are loaded the
  worker moves everything it holds out of the collector's sight (``gc.freeze``): a full collection
  then costs the garbage of the games only.  Before forking, the parent freezes its heap for the
  fork and thaws it at once, so the workers' collections do not touch (and copy) the pages they
  share with it.
- **Interrupts.**  A worker ignores Ctrl-C and dies at ``SIGTERM``: the study's process stops it
  (``iter_pool``'s iterator, when closed), and the games finished stand.

The start method changes nothing in the records: a game depends on its seed and its rules only.
"""

from __future__ import annotations

import gc
import multiprocessing
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import nullcontext

from .study import GameRecord, StudyArm, Task, arm_scenario, heap_frozen, play_task

START_METHODS = ("fork", "forkserver", "spawn")
"""The start methods a pool can use, preferred first (``start_method``)."""

PRELOAD = ["warbook.interpreter.study", "warbook.interpreter.game", "warbook.interpreter.agents",
           "warbook.interpreter.scenario"]
"""What a forkserver imports once, before it forks any worker: the modules that load and play a game."""


def start_method() -> str:
    """``fork`` on Linux from a process with no other thread; else ``forkserver`` where the platform
    has it; else ``spawn``."""
    available = multiprocessing.get_all_start_methods()
    if "fork" in available and sys.platform.startswith("linux") and threading.active_count() == 1:
        return "fork"
    return "forkserver" if "forkserver" in available else "spawn"


def worker_pool(arms: Sequence[StudyArm], jobs: int, method: str | None = None):
    """A ``multiprocessing`` pool of ``jobs`` workers ready to play the arms (``method``: the start
    method, by default ``start_method()``).  The caller terminates it."""
    method = method or start_method()
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        context.set_forkserver_preload(PRELOAD)
    with heap_frozen() if method == "fork" else nullcontext():  # thawed once forked
        return context.Pool(jobs, initializer=worker_started, initargs=(tuple(arms),))


def worker_started(arms: Sequence[StudyArm] = ()) -> None:
    """A worker's start: interrupts left to the parent, the arms' rules loaded, the heap frozen.

    A rulebook that fails to load here is left for the first game to report: a pool restarts a
    worker whose start raises, for ever.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        for arm in arms:
            arm_scenario(arm)
    except Exception:  # the game's own call raises it again, where the parent sees it
        pass
    gc.collect()
    gc.freeze()


def iter_pool(tasks: Sequence[Task], jobs: int, method: str | None = None) -> Iterator[GameRecord]:
    """Start ``jobs`` workers now, and yield the records of the tasks as the workers finish them.

    The workers start when this is called, not when the first record is asked for, so that a
    caller may start threads of its own (a progress display) afterwards.  Closing the iterator
    stops the workers.
    """
    pool = worker_pool(tuple(dict.fromkeys(arm for arm, _, _ in tasks)), jobs, method)
    return _records(pool, tasks)


def _records(pool, tasks: Sequence[Task]) -> Iterator[GameRecord]:
    try:
        for records in pool.imap_unordered(play_task, tasks):
            yield from records
        pool.close()
    finally:
        pool.terminate()
        pool.join()
