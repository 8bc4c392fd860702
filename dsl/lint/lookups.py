"""Lookups the checks of one lint run share (an index of names, the references), kept for the
last rulebook asked and forgotten when the run ends.

A module of its own, below the check families and the package that runs them, so that both can
reach it without importing each other.
"""

from __future__ import annotations

import functools
from typing import Callable, TypeVar

from ..model import Rulebook

T = TypeVar("T")


_FORGETTERS: list[Callable[[], None]] = []
"""Each ``per_rulebook`` memo's way to forget its rulebook (``forget_lookups``)."""


def per_rulebook(build: Callable[[Rulebook], T]) -> Callable[[Rulebook], T]:
    """Cache ``build(rulebook)`` for the last rulebook it was called with (compared by identity),
    until ``forget_lookups``.

    Every check of one lint run asks for the same lookups; identity keeps the test cheap
    (a frozen rulebook's own hash would walk all of it).
    """
    last: tuple[Rulebook, T] | None = None

    @functools.wraps(build)
    def cached(rulebook: Rulebook) -> T:
        nonlocal last
        if last is None or last[0] is not rulebook:
            last = (rulebook, build(rulebook))
        return last[1]

    def forget() -> None:
        nonlocal last
        last = None

    _FORGETTERS.append(forget)
    return cached


def forget_lookups() -> None:
    """Drop what every ``per_rulebook`` memo keeps: a lint run's lookups end with the run (a game
    lints its rulebook as it starts, and would otherwise keep them all its life)."""
    for forget in _FORGETTERS:
        forget()
