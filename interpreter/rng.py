"""One seeded source of dice: the n-th roll of a game is drawn from ``Random(f"{seed}:{n}")``.

Counter-based, so the game state holds only ``n`` (an int) and stays frozen and
hashable; replaying the same choices draws the same numbers, whatever else ran
in between.  No code in warbook uses the global ``random``.

>>> roll(7, 0, 6) == roll(7, 0, 6), 1 <= roll(7, 1, 10) <= 10
(True, True)
"""

from __future__ import annotations

import random


def roll(seed: int, n: int, faces: int, count: int = 1) -> int:
    """The total of the ``n``-th roll of ``count`` dice with ``faces`` sides under ``seed``."""
    rng = random.Random(f"{seed}:{n}")
    return sum(rng.randint(1, faces) for _ in range(count))


def choice_rng(seed: int, purpose: str) -> random.Random:
    """A separate stream for agents' own randomness, so an agent never shifts the dice."""
    return random.Random(f"{seed}:agent:{purpose}")
