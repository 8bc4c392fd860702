"""Loading and linting make young garbage collections as they go and no full one (``dsl.collector``):
a full collection walks the whole growing model, and one young collection after a pause walks all
of it at once, when it has left the processor's caches (issue 18, lint linearity)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from warbook.dsl.collector import NEVER, full_collections_paused
from warbook.dsl.lint import lint_report

UNITS = 300


def many_units(units: int = UNITS) -> str:
    """A rulebook of ``units`` unit types, each with its tag: about ``8 * units`` lines."""
    out = ['rulebook "Many"', 'section 1 "Units"', 'side blue "Blue"', 'side red "Red"', "dice d6",
           'factor attack "Attack"', 'factor move "Move"', 'movement foot "Foot" {', "    points factor move", "}"]
    for i in range(units):
        out += [f'tag t{i} "Tag {i}" §"1"', f'unit u{i} "Unit {i}" §"1" {{', f"    side {'blue' if i % 2 else 'red'}",
                "    movement foot", f"    tags t{i}", f"    attack {i % 7}", "    move 4", "}"]
    return "\n".join(out) + "\n"


THRESHOLDS = (700, 10, 10)
"""CPython's default thresholds, set for each test (and the caller's restored after it)."""


@pytest.fixture
def collector():
    """The collector running with ``THRESHOLDS``; its state before the test restored after it."""
    before, running = gc.get_threshold(), gc.isenabled()
    gc.set_threshold(*THRESHOLDS)
    gc.enable()
    try:
        yield
    finally:
        gc.set_threshold(*before)
        (gc.enable if running else gc.disable)()


def test_no_full_collection_in_the_block_and_the_thresholds_restored_even_on_error(collector):
    with pytest.raises(ZeroDivisionError):
        with full_collections_paused():
            assert gc.get_threshold() == (700, 10, NEVER) and gc.isenabled()
            with full_collections_paused():  # nested: the outer block's thresholds come back
                assert gc.get_threshold() == (700, 10, NEVER)
            assert gc.get_threshold() == (700, 10, NEVER)
            1 / 0
    assert gc.get_threshold() == THRESHOLDS and gc.isenabled()


def test_a_collector_that_is_off_is_left_alone(collector):
    gc.disable()
    with full_collections_paused():
        assert gc.get_threshold() == THRESHOLDS and not gc.isenabled()
    assert gc.get_threshold() == THRESHOLDS and not gc.isenabled()


def test_a_lint_walks_its_model_in_young_collections_as_it_builds_it(collector, tmp_path: Path):
    path = tmp_path / "big.rules"
    path.write_text(many_units(), encoding="utf-8")
    lint_report(path)  # the first lint imports what it needs: not measured
    seen: list[tuple[int, int]] = []  # (generation, young objects) at the start of each collection

    def record(phase: str, info: dict) -> None:
        if phase == "start":
            seen.append((info["generation"], len(gc.get_objects(0))))

    gc.collect()
    before = len(gc.get_objects())
    gc.callbacks.append(record)
    try:
        report = lint_report(path)
    finally:
        gc.callbacks.remove(record)
    kept = len(gc.get_objects()) - before
    assert report.rulebook is not None and kept > 10_000  # what a single late young collection would walk
    assert [g for g, _ in seen].count(0) > 10 and 2 not in [g for g, _ in seen]
    assert max(young for _, young in seen) < 5 * THRESHOLDS[0]  # each walks a few new objects, never the model
