"""Python's cyclic garbage collector kept off what the language builds to keep.

Importing the language (attrs and a hundred record classes) and loading a rulebook allocate a
great many objects that form no reference cycles, or cycles that live as long as the process
(classes, modules); each collection that walks them again is wasted.  Kept apart from
``dsl.loader`` so that ``dsl/__init__`` can pause the collector before it imports anything heavy.
"""

from __future__ import annotations

import contextlib
import gc
from typing import Iterator

NEVER = 2**31 - 1
"""A threshold for the oldest generation that no count reaches: no full collection."""


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the collector for the block, and resume it (if it was running) when the block ends.

    For importing the language, whose classes and functions live as long as the process: the
    collections were 5% of a ``warbook lint`` process.  Nothing is lost: what is garbage is freed
    by reference counting, and a cycle left is collected once the collector resumes.
    """
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()


@contextlib.contextmanager
def full_collections_paused() -> Iterator[None]:
    """No full collection in the block; the young ones go on.  Thresholds restored at the end,
    even on error; a collector that is off (the ``warbook`` process) is left alone.

    For loading and linting, whose model grows with the rulebook.  A full collection walks the
    whole heap, so full collections while it grows cost more than the rulebook grows (with the
    collector running, linting 4x the text took 5.7x the time).  Pausing the collector altogether
    moved the cost, not removed it: the first young collection after the pause walked every
    object the lint kept, at once, after the model had left the processor's caches (4x the
    generated rulebook, 236,000 objects; a cache simulation of an 8 MB last level found 1.34 M
    misses in that walk against 0.01 M for the rulebook once, half of all the lint's excess
    misses).  Young collections walk each object while it is new and still in the cache, and
    their work grows as the rulebook does (in instructions, 3% of a lint).

    The objects kept are promoted to the oldest generation as usual; the next full collection,
    after the block, walks those still alive then.
    """
    if not gc.isenabled():
        yield
        return
    thresholds = gc.get_threshold()
    gc.set_threshold(thresholds[0], thresholds[1], NEVER)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
