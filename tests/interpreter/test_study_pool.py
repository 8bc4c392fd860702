"""A study's worker processes (``interpreter.study_pool``) and how its seeds are cut (``study``).

The games are the gallery's combat_model scenario, as in test_study.py.  Every start method the
platform has is tried: the records must be the very ones this process plays.
"""

import gc
import multiprocessing
import shutil
import signal
from pathlib import Path

import pytest

from warbook.dsl.diagnostics import RulesError
from warbook.interpreter import study_pool
from warbook.interpreter.study import StudyArm, iter_study, play_seeds, shrinking_ranges
from warbook.interpreter.study_pool import iter_pool, start_method, worker_pool

ROOT = Path(__file__).resolve().parents[2]
GALLERY = ROOT / "tests" / "gallery" / "combat_model"
ARM = StudyArm("study", str(GALLERY / "combat_model.toml"))
METHODS = [m for m in study_pool.START_METHODS if m in multiprocessing.get_all_start_methods()]


@pytest.mark.parametrize("seeds, jobs", [(range(0), 2), (range(1), 2), (range(5, 17), 2), (range(3, 200), 3),
                                         (range(1000), 8), (range(7), 1)])
def test_shrinking_ranges_cover_every_seed_once_in_order_and_end_with_single_games(seeds, jobs):
    ranges = shrinking_ranges(seeds, jobs)
    assert [s for r in ranges for s in r] == list(seeds)
    sizes = [len(r) for r in ranges]
    assert all(1 <= n <= 4 for n in sizes) and sizes == sorted(sizes, reverse=True)
    # The last games, about 16 a worker, are handed out one by one.
    assert sizes[-min(len(seeds), 15 * jobs):] == [1] * min(len(seeds), 15 * jobs)


@pytest.mark.parametrize("method", METHODS)
def test_every_start_method_plays_the_records_this_process_plays(method):
    tasks = [(ARM, 0, 3), (ARM, 3, 4), (ARM, 4, 6)]
    found = sorted(iter_pool(tasks, 2, method), key=lambda r: r.seed)
    assert found == play_seeds(ARM, 0, 6)


@pytest.mark.parametrize("method", METHODS)
def test_a_worker_starts_with_its_heap_frozen_and_leaves_interrupts_to_the_study(method):
    pool = worker_pool([ARM], 1, method)
    try:
        assert pool.apply(gc.get_freeze_count) > 0
        assert pool.apply(signal.getsignal, (signal.SIGINT,)) == signal.SIG_IGN
        assert pool.apply(signal.getsignal, (signal.SIGTERM,)) == signal.SIG_DFL
    finally:
        pool.terminate()
        pool.join()


def test_forking_leaves_this_process_heap_as_it_was():
    assert gc.get_freeze_count() == 0
    pool = worker_pool([ARM], 1, "fork")
    pool.terminate()
    pool.join()
    assert gc.get_freeze_count() == 0


def test_a_study_in_this_process_freezes_the_heap_while_it_plays_and_thaws_it_after():
    assert gc.get_freeze_count() == 0
    frozen = [gc.get_freeze_count() for _ in iter_study([ARM], range(3), jobs=1)]
    assert len(frozen) == 3 and all(n > 0 for n in frozen)
    assert gc.get_freeze_count() == 0


def copied_scenario(tmp_path) -> StudyArm:
    for path in GALLERY.iterdir():
        if path.is_file():
            shutil.copy(path, tmp_path / path.name)
    return StudyArm("study", str(tmp_path / "combat_model.toml"))


@pytest.mark.skipif("fork" not in METHODS, reason="no fork on this platform")
def test_a_forked_worker_inherits_the_compiled_rules(tmp_path):
    # The rules are compiled here, then their files go: a forked worker still plays them.
    arm = copied_scenario(tmp_path)
    expected = play_seeds(arm, 0, 2)
    shutil.rmtree(tmp_path)
    assert sorted(iter_pool([(arm, 0, 1), (arm, 1, 2)], 2, "fork"), key=lambda r: r.seed) == expected


def test_a_worker_that_cannot_load_the_rules_reports_it_rather_than_restart_for_ever(tmp_path):
    # A spawned worker loads the rules itself; they are gone by then.  The pool does not restart
    # the worker again and again (a failed start would): the first game raises the loader's error.
    arm = copied_scenario(tmp_path)
    play_seeds(arm, 0, 1)
    shutil.rmtree(tmp_path)
    with pytest.raises((RulesError, OSError)):
        list(iter_pool([(arm, 0, 1)], 1, "spawn"))


def test_closing_the_records_stops_the_workers():
    before = set(multiprocessing.active_children())
    records = iter_pool([(ARM, seed, seed + 1) for seed in range(40)], 2)
    assert len(set(multiprocessing.active_children()) - before) == 2  # started before the first record
    next(records)
    records.close()
    assert set(multiprocessing.active_children()) - before == set()


def test_the_start_method_is_one_the_platform_has():
    assert start_method() in multiprocessing.get_all_start_methods()


def test_sim_reports_rules_a_worker_could_not_load_and_exits_1(tmp_path, monkeypatch, capsys):
    from warbook.interpreter.cli import main

    arm = copied_scenario(tmp_path)
    started = study_pool.worker_pool

    def files_gone_first(arms, jobs, method=None):  # the files go after sim checked them, before workers load them
        shutil.rmtree(tmp_path)
        return started(arms, jobs, "spawn")

    monkeypatch.setattr(study_pool, "worker_pool", files_gone_first)
    assert main(["sim", arm.scenario, "--games", "2", "--jobs", "2", "--quiet"]) == 1
    assert "E004 no such scenario file" in capsys.readouterr().err


def test_a_worker_that_dies_is_an_error_not_a_wait_for_ever():
    import os

    pool = worker_pool([ARM], 1, "fork")
    try:
        with pytest.raises(study_pool.WorkerLost):
            pool.apply(os._exit, (3,))
    finally:
        pool.terminate()
        pool.join()


def test_a_rules_error_pickles_with_its_diagnostics(tmp_path):
    # What a worker sends back when its rules do not load: the same error, diagnostics and all.
    import pickle

    from warbook.interpreter.study import arm_scenario

    with pytest.raises(RulesError) as raised:
        arm_scenario(StudyArm("study", str(tmp_path / "missing.toml")))
    copy = pickle.loads(pickle.dumps(raised.value))
    assert copy.diagnostics == raised.value.diagnostics and str(copy) == str(raised.value)
    assert [d.code for d in copy.diagnostics] == ["E004"]


GATE = None
"""Opened once every worker has its first calls in hand (forked workers share it)."""


def gated_abs(number: int) -> int:
    GATE.wait(10)
    return abs(number)


@pytest.mark.skipif("fork" not in METHODS, reason="no fork on this platform")
def test_a_worker_has_its_next_calls_queued_until_the_last_items_go_one_at_a_time(monkeypatch):
    # What the study's process sends and reads, in order: while many items wait, each worker has
    # QUEUED calls behind the one it plays, and holds its answers back while a call waits (up to
    # HELD in a message); the last ONE_AT_A_TIME a worker go to a worker with nothing in hand, so
    # that none waits behind another worker's long game, and each comes back in a message of its own.
    global GATE
    GATE = multiprocessing.get_context("fork").Event()
    depth = study_pool.QUEUED + 1
    events = []
    sent, read = study_pool._send, study_pool._answers

    def spied_send(pipe, call):
        events.append(("send", pipe.fileno(), call[1][0]))
        sent(pipe, call)
        if len(events) == 2 * depth:  # every worker's first calls are in its pipe: let them play
            GATE.set()

    def spied_read(pipe):
        answers = read(pipe)
        events.append(("read", pipe.fileno(), [value for _, value in answers]))
        return answers

    monkeypatch.setattr(study_pool, "_send", spied_send)
    monkeypatch.setattr(study_pool, "_answers", spied_read)
    pool = worker_pool([ARM], 2, "fork")
    try:
        answers = sorted(pool.imap_unordered(gated_abs, range(-23, 1)))
    finally:
        pool.terminate()
        pool.join()
    assert answers == list(range(24))
    assert [kind for kind, _, _ in events[:2 * depth + 1]] == ["send"] * 2 * depth + ["read"]
    assert len(events[2 * depth][2]) == study_pool.HELD  # the first answer was held for the second
    in_hand, sends, sent_to, answered, alone = {}, [], {}, {}, {}
    for kind, pipe, item in events:
        if kind == "send":
            in_hand[pipe] = in_hand.get(pipe, 0) + 1
            sends.append((item, in_hand[pipe]))
            sent_to.setdefault(pipe, []).append(-item)
            if len(sends) > 24 - 2 * study_pool.ONE_AT_A_TIME:
                alone[pipe] = -item
        else:
            assert 1 <= len(item) <= study_pool.HELD
            if pipe in alone:  # a call a worker had alone is answered in a message of its own
                assert item == [alone.pop(pipe)]
            in_hand[pipe] -= len(item)
            answered.setdefault(pipe, []).extend(item)
    assert answered == sent_to  # each worker answered its own calls, in the order they were sent
    assert max(n for _, n in sends) == depth
    assert all(n == 1 for _, n in sends[-2 * study_pool.ONE_AT_A_TIME:])  # the last ones: none queued
    assert [item for item, _ in sends] == list(range(-23, 1))  # handed out in order, each once
    assert not alone


def test_answers_left_unread_by_a_closed_iterator_are_not_taken_for_the_next_call():
    # Closing the records early leaves up to two answers a worker on their way; the next call
    # must get its own answer, not one of those.
    import os

    pool = worker_pool([ARM], 2, "fork")
    try:
        answers = pool.imap_unordered(abs, range(-20, 0))
        assert next(answers) in range(1, 21)
        answers.close()
        assert pool.apply(os.getpid) in {process.pid for process in multiprocessing.active_children()}
        assert sorted(pool.imap_unordered(abs, [-1, -2, -3])) == [1, 2, 3]
    finally:
        pool.terminate()
        pool.join()


def test_records_sent_two_a_message_are_the_records_this_process_plays():
    # Sixteen single games on two workers: calls queued, answers held back and sent in pairs,
    # the last ones alone; every seed's record comes back once, the same as played here.
    tasks = [(ARM, seed, seed + 1) for seed in range(16)]
    found = sorted(iter_pool(tasks, 2), key=lambda r: r.seed)
    assert found == play_seeds(ARM, 0, 16)
