"""A game step by step, as one side sees it: the counters a picture draws at each step.

Step 0 is the game before its first decision (set-up done by the rules), step N the game after N
decisions.  What a side sees comes from ``Game.observe(side)`` alone (a counter it cannot
identify has no type, so its identity is in no picture or page made for that side); ``side=None``
is the whole truth, for a referee or a designer.

``walk(game)`` replays a loaded game once, yielding every step with the log entries it wrote;
``at_step(game, n)`` replays to one step.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from attrs import frozen

from .actions import Action
from .game import Game, replayed


@frozen
class Counter:
    """One counter on the map as a viewer sees it (``type`` ``None``: a counter it cannot identify)."""

    id: str
    side: str
    type: str | None
    location: str
    marker: bool = False
    face_down: bool = False
    """Face down in play: drawn so in the whole truth; a side's own face-down counters too."""
    label: str = ""
    notes: tuple[str, ...] = ()
    """What else the viewer knows: a mode, a lost step, a status, that it is a dummy."""

    def describe(self) -> str:
        if self.type is None:
            return f"{self.id} ({self.side}, face down)"
        extra = ", ".join(("face down", *self.notes) if self.face_down else self.notes)
        return f"{self.id} {self.label}" + (f" ({extra})" if extra else "")

    def as_json(self) -> list[Any]:
        """The page's compact form: [id, side, type or null, cell, marker, face down, title]."""
        return [self.id, self.side, self.type, self.location, self.marker, self.face_down, self.describe()]


def counters(game: Game, side: str | None) -> tuple[Counter, ...]:
    """The counters at this point of ``game`` as ``side`` sees them (``None``: all of them): on the
    map, and in holding areas (eliminated, a box, off the map) those it may know of (its own, and
    others it identifies, as ``observe`` says)."""
    rules = game.ctx.rules
    if side is None:
        seen = [{"id": u.id, "side": u.side, "type": u.type, "location": u.location, "mode": u.mode,
                 "dummy": u.dummy, "step": u.step, "status": sorted(u.status), "hidden": u.hidden}
                for u in game.state.units]
    else:
        hidden = {u.id for u in game.state.units if u.hidden}
        seen = [dict(u, hidden=u["id"] in hidden) for u in game.observe(side)["units"]]
    out = []
    for unit in seen:
        type_name = unit["type"]
        if type_name is None:
            out.append(Counter(unit["id"], unit["side"], None, unit["location"], face_down=True))
            continue
        unit_type = rules.unit_type(type_name)
        notes = [*([unit["mode"]] if unit.get("mode") else []), *(["dummy"] if unit.get("dummy") else []),
                 *([f"step {unit['step']}"] if unit.get("step", 1) > 1 else []), *unit.get("status", ())]
        out.append(Counter(unit["id"], unit["side"], type_name, unit["location"], unit_type.kind == "marker",
                           bool(unit["hidden"]), unit_type.label, tuple(notes)))
    return tuple(out)


def control(game: Game) -> dict[str, str]:
    """Who holds each cell (public, as ``observe`` says)."""
    return dict(game.state.control)


def walk(game: Game) -> Iterator[tuple[int, Game, list[dict]]]:
    """(step, the game at that step, the log entries that step wrote) from step 0 to the end of
    ``game``'s choices, replaying them once in a new game (the game handed in is not changed)."""
    fresh = Game(game.scenario, game.seed)
    written = len(fresh.log)
    yield 0, fresh, fresh.log[:written]
    for step, choice in enumerate(game.choices, start=1):
        fresh.apply(Action.parse(choice))
        yield step, fresh, fresh.log[written:]
        written = len(fresh.log)


def at_step(game: Game, step: int) -> Game:
    """``game`` replayed to ``step`` (0 to its number of decisions)."""
    return replayed(game.scenario, game.seed, game.choices[:step])


def heading(game: Game, step: int) -> str:
    """A step's caption: which step, turn and phase."""
    return f"step {step}, turn {game.state.turn}, {game.state.phase.replace('_', ' ')}"
