"""A world: what the mechanics read of a game (its compiled rules, its map and its state).

Movement, zones of control, stacking and the situation of a side take a ``World``: a ``Context``
(``interpreter.context``) during play, or ``Parts`` for callers without one (benchmarks, tests).
Guarantees: the mechanics only read these three attributes, never change them.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

from .board import Board
from .rules import Rules
from .state import GameState


class World(Protocol):
    """What the mechanics read: a ``Context`` or any object with these three attributes."""

    rules: Rules
    board: Board
    state: GameState


class Parts(NamedTuple):
    """A ``World`` made of parts, for callers without a ``Context``."""

    rules: Rules
    board: Board
    state: GameState
