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
- **Handing out games.**  ``WorkerPool`` gives each worker its ranges over a pipe of its own,
  from the study's thread: the study's process costs the workers next to nothing.  While many
  are left, a worker has its next ranges queued behind the one it plays, so that it goes on at
  once when it answers rather than wait for the study's process to wake and reply (on a busy
  machine that wait was some 5 ms a game: a tenth of a short game), and it answers two ranges a
  message, so the study's process wakes (and takes a core from a worker) half as often; the
  last ranges go one at a time to whichever worker is free.
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
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import nullcontext, suppress
from multiprocessing import connection

from .study_games import GameRecord, StudyArm, Task, arm_scenario, heap_frozen, play_task

START_METHODS = ("fork", "forkserver", "spawn")
"""The start methods a pool can use, preferred first (``start_method``)."""

HELD = 2
"""Answers a worker keeps back while its next call is already there, then sends in one message
(``serve``): each message wakes the study's process, which then takes a core from a worker."""

QUEUED = HELD
"""Calls a worker has waiting behind the one it is on, while many are left (``imap_unordered``):
as many as it holds answers back, so that it still has one when it sends them."""

ONE_AT_A_TIME = 1
"""Items a worker handed out one at a time at the end (``imap_unordered``), none queued behind another.

Replaying rounds of 24 measured games of each shipped scenario on two workers, the wait for the
last game is the same with 1 as with 2 or 3 when handing out costs 0.3 ms, and least with 1 when
it costs 5 ms (a busy machine): the ranges already queued at the switch end within a game or so."""

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


def worker_pool(arms: Sequence[StudyArm], jobs: int, method: str | None = None) -> "WorkerPool":
    """``jobs`` workers ready to play the arms (``method``: the start method, by default
    ``start_method()``).  The caller terminates them."""
    return WorkerPool(arms, jobs, method or start_method())


class WorkerPool:
    """Worker processes, each handed one call at a time over a pipe of its own.

    Not ``multiprocessing.Pool``: its thread that watches the workers also wakes at every result
    (it waits on the results' pipe), and the study's process spent about 1 ms of CPU a game in its
    three threads, taken from the workers on a machine with as many cores as workers.  Here the
    study's process waits on the workers' pipes in its own thread (``connection.wait``) and keeps
    each worker's next call queued (``imap_unordered``): no thread, about 0.1 ms a game.  A worker
    that dies is an error (``WorkerLost``), not a study that waits for ever.
    """

    def __init__(self, arms: Sequence[StudyArm], jobs: int, method: str):
        context = multiprocessing.get_context(method)
        if method == "forkserver":
            context.set_forkserver_preload(PRELOAD)
        self._processes, self._pipes, self._unread = [], [], Counter()
        with heap_frozen() if method == "fork" else nullcontext():  # thawed once forked
            for _ in range(max(1, jobs)):
                ours, theirs = context.Pipe()
                process = context.Process(target=serve, args=(theirs, tuple(arms)), daemon=True)
                process.start()
                theirs.close()  # the worker's end is the worker's alone: its death reads as the end of the pipe
                self._processes.append(process)
                self._pipes.append(ours)

    def imap_unordered(self, function: Callable, items: Iterable) -> Iterator:
        """``function(item)`` for each item, on whichever worker is free; each answer as it comes.

        While more than ``ONE_AT_A_TIME`` items a worker wait, each worker has its next calls
        queued behind the one it is on (``QUEUED``), so it goes on as soon as it answers instead of
        waiting for this process to wake, read the answer and send the next (a wait of 0.1 ms on
        an idle machine, several on a busy one, every game), and answers ``HELD`` calls a message
        (``serve``), so this process wakes half as often.  The last items go one at a time to
        whichever worker is free, so that none waits queued behind a long game while another
        worker has nothing to do.
        """
        self._forget_unread()
        waiting = deque(items)
        one_at_a_time = ONE_AT_A_TIME * len(self._pipes)
        calls = dict.fromkeys(self._pipes, 0)  # sent to each worker and not answered yet
        try:
            while True:
                for pipe in self._pipes:
                    while waiting and calls[pipe] < (QUEUED + 1 if len(waiting) > one_at_a_time else 1):
                        _send(pipe, (function, (waiting.popleft(),)))
                        calls[pipe] += 1
                busy = [pipe for pipe in self._pipes if calls[pipe]]
                if not busy:
                    return
                for pipe in connection.wait(busy):
                    answers = _answers(pipe)
                    calls[pipe] -= len(answers)
                    for answer in answers:
                        yield _value(answer)
        finally:
            self._unread.update(calls)  # answers to calls no one will read: read before the next call

    def apply(self, function: Callable, args: tuple = ()):
        """``function(*args)`` on one worker, and its answer."""
        self._forget_unread()
        pipe = self._pipes[0]
        _send(pipe, (function, args))
        (answer,) = _answers(pipe)  # a worker holds no answer back when no other call waits
        return _value(answer)

    def close(self) -> None:
        """Let the workers end once their calls are answered."""
        self._forget_unread()
        for pipe in self._pipes:
            with suppress(OSError):
                pipe.send(None)

    def terminate(self) -> None:
        """Stop the workers now (``SIGTERM``): a call under way is lost."""
        for process in self._processes:
            if process.exitcode is None:
                process.terminate()

    def join(self) -> None:
        for process in self._processes:
            process.join()
        for pipe in self._pipes:
            pipe.close()

    def _forget_unread(self) -> None:
        for pipe, answers in self._unread.items():
            while answers > 0:
                try:
                    answers -= len(pipe.recv())
                except (EOFError, OSError):
                    break
        self._unread.clear()


class WorkerLost(RuntimeError):
    """A worker process ended while it had a call to answer (killed, or out of memory)."""


def _send(pipe, call) -> None:
    try:
        pipe.send(call)
    except (BrokenPipeError, ConnectionResetError):
        raise WorkerLost("a study worker ended before it was given its next games") from None


def _answers(pipe) -> list[tuple[bool, object]]:
    """The next message of a worker: one answer or more, each (whether the call returned, its value)."""
    try:
        return pipe.recv()
    except EOFError:
        raise WorkerLost("a study worker ended before it finished its games") from None


def _value(answer: tuple[bool, object]):
    ok, value = answer
    if not ok:
        raise value
    return value


def serve(pipe, arms: Sequence[StudyArm]) -> None:
    """A worker's life: start (``worker_started``), then answer each call the pipe brings until ``None``.

    Answers go back in messages of up to ``HELD``: one is held back while the next call is already
    in the pipe (the study's process has work queued for this worker, so it need not hear yet),
    and sent at once when none is, as for the last calls of a study.
    """
    worker_started(arms)
    held = []
    while True:
        try:
            call = pipe.recv()
        except EOFError:  # the study's process is gone
            return
        if call is None:
            return
        function, args = call
        try:
            held.append((True, function(*args)))
        except Exception as exc:  # the study's process raises it
            held.append((False, exc))
        if len(held) >= HELD or not pipe.poll():
            try:
                pipe.send(held)
            except Exception as exc:  # an answer that does not pickle
                failed = RuntimeError(f"a study worker's answer could not be sent: {exc!r}")
                pipe.send([(False, failed)] * len(held))
            held = []


def worker_started(arms: Sequence[StudyArm] = ()) -> None:
    """A worker's start: interrupts left to the parent, the arms' rules loaded, the heap frozen.

    A rulebook that fails to load here is left for the first game to report, where the study's
    process sees the loader's diagnostics.
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
