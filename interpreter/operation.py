"""One operation in progress: the force, where it went, and the battle it started.

Games played by alternating operations (a phase with ``alternate operation …``)
run one operation at a time: a side designates a force, moves it, and, when it
ends in a cell with enemy counters, the two sides recon and fire round by round
until one side remains.  The procedures of those steps share this record through
``ctx.operation``; it is ``None`` outside an operation.

It is working memory for the procedures, not game state: everything a replay
needs follows from the logged choices and rolls, and the record is rebuilt as
the same choices are replayed.
"""

from __future__ import annotations

from attrs import define, evolve, field


@define
class Operation:
    """The operation the acting side is conducting."""

    side: str
    """The attacker: the side conducting the operation (whose moving force starts a battle)."""
    force: list[str] = field(factory=list)
    """Ids of the units in the force (the only attacker units that may fire)."""
    origin: str | None = None
    """The cell the force was designated in."""
    mode: str = "operation"
    """How the force goes: ``operation`` (a move), or ``redeploy:ACTION`` (straight to a base)."""
    action: str | None = None
    """The action the force was designated (and paid) by: the units it is ``led by`` lead the force."""
    path: tuple[str, ...] = ()
    """The cells the force passed through on its move, from ``origin`` to where it stopped."""
    moving: list[str] = field(factory=list)
    """A reacting force designated during a battle, waiting for its move into the contested cell."""
    cell: str | None = None
    """The contested cell: where the force ended its move while enemy counters are there."""
    passed: bool = False
    """The side declined to conduct an operation (``designate force`` offered ``pass``)."""
    reaction: bool = False
    """A force designated during a battle (a reaction move into the contested cell)."""
    round: int = 0
    """Combat rounds fought so far in the contested cell."""
    recon_units: dict[str, str] = field(factory=dict)
    """Side → id of the unit that rolled for recon this round (the first loss into a refit box)."""
    bounce: str | None = None
    """The side that won the recon roll this round."""
    first_fire: str | None = None
    """The side that fires first this round (the bounce side, when it chose to fire)."""
    support: list[str] = field(factory=list)
    """Markers committed to the contested cell (air or naval support) that fire with the force."""
    ended: bool = False
    """The operation is over early (the attacking force broke off)."""

    def copy(self) -> "Operation":
        """An independent copy (its lists and dicts copied), for a checkpoint of the game."""
        return evolve(self, force=list(self.force), moving=list(self.moving), recon_units=dict(self.recon_units),
                      support=list(self.support))

    def fighting(self) -> bool:
        """Whether a battle is on: the force ended in a contested cell and has not ended."""
        return self.cell is not None and not self.ended
