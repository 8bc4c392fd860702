"""A saved game as one self-contained HTML page: the map, a step slider, the narrative, the dice.

``page(game, sides)`` replays the game once (``frames.walk``) and writes, for each view asked
for, what that view may know at every step: a side's counters from ``Game.observe(side)`` and
its narrative with the counters it cannot identify redacted (``narrate.redactions``), as
``warbook play`` narrates to a human; ``None`` is the referee's view, the whole truth.  A page
made for some sides holds nothing else: a counter a side cannot identify is in its data with no
type, and its label in no line of its narrative, so the page hides it by not having it (the
browser hides nothing).

The page needs no network: the map is inline SVG (``picture.MapPicture``, its counter layer
empty), the data one JSON block, the script and style inline (``viewer_page``).  Counters go in
as step-by-step changes, which the script accumulates.
"""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Any

from . import frames
from .game import Game
from .narrate import INDENT, Narrator, redactions, title
from .picture import STACK_SHOWN, MapPicture, points
from .picture_style import possessive
from .viewer_page import PAGE

REFEREE = "referee"
"""The key of the view with every counter as it is."""


class _View:
    """One view's data as the replay goes: counters as changes, narrative lines by step."""

    def __init__(self, side: str | None, label: str):
        self.side, self.label = side, label
        self.narrator = Narrator()
        self.before: dict[str, list] = {}
        self.frames: list[dict[str, list]] = []
        self.narrative: list[list[list]] = []
        self.glyphs: set[tuple[str, str | None, bool]] = set()
        self.units: tuple | None = None
        """The state's units this view was last read from (states share an unchanged tuple)."""

    def add(self, game: Game, entries: list[dict]) -> None:
        units = game.state.units
        if units is self.units:  # what a side sees is read from the units alone: nothing changed
            self.frames.append({"set": [], "gone": []})
        else:
            self.units = units
            now = {}
            for counter in frames.counters(game, self.side):
                now[counter.id] = counter.as_json()
                if counter.location[:1].isdigit():  # on the map (a holding area is listed, not drawn)
                    self.glyphs.add((counter.side, counter.type, counter.marker))
            self.frames.append({"set": [c for i, c in now.items() if self.before.get(i) != c],
                                "gone": sorted(set(self.before) - set(now))})
            self.before = now
            if self.side is not None:
                self.narrator.set_redactions(redactions(game, self.side))
        lines = []
        for entry in entries:
            if entry.get("type") == "decision":
                lines.append(["choice", self._decision(entry)])
                continue
            kind = "roll" if entry.get("type") == "roll" else "text"
            for line in self.narrator.lines(entry):
                if line:
                    lines.append([kind, line, entry.get("value")] if kind == "roll" else [kind, line])
        self.narrative.append(lines)

    def _decision(self, entry: dict) -> str:
        """The step's decision: what was chosen, in the referee's view and the chooser's; only
        that a side decided, in the others' (a choice may name what they cannot see)."""
        if self.side is None or entry["side"] == self.side:
            return f"{INDENT}{entry['side']} chose: {entry['choice']}"
        return f"{INDENT}{entry['side']} decided ({entry['kind']})"

    def as_json(self) -> dict[str, Any]:
        return {"label": self.label, "frames": self.frames, "narrative": self.narrative}


def page(game: Game, sides: Sequence[str | None]) -> str:
    """The page for ``game`` with a view for each of ``sides`` (``None``: the referee's), in that order."""
    rules = game.ctx.rules
    picture = MapPicture(game.scenario.board, rules, game.scenario.name)
    views = {side or REFEREE: _View(side, f"{possessive(picture.label_of('side', side))} view" if side else
                                    "Referee (every counter)") for side in sides}
    headings: list[str] = []
    control: list[dict[str, list]] = []
    held: dict[str, str] = {}
    for step, now, entries in frames.walk(game):
        headings.append(frames.heading(now, step))
        holding = frames.control(now)
        control.append({"set": [[cell, side] for cell, side in sorted(holding.items()) if held.get(cell) != side],
                        "gone": sorted(set(held) - set(holding))})
        held = holding
        for view in views.values():
            view.add(now, entries)
    glyphs = set().union(*(view.glyphs for view in views.values()))
    svg = picture.element(glyphs=glyphs, subtitle="replay")
    ever_held = {cell for diff in control for cell, _ in diff["set"]}
    data = {
        "headings": headings,
        "views": {name: view.as_json() for name, view in views.items()},
        "control": control,
        "cells": {cell: [round(x, 1), round(y, 1)] for cell, (x, y) in
                  ((cell, picture.centre(cell)) for cell in picture.cells)},
        "outlines": {cell: points(picture.control_outline(cell)) for cell in sorted(ever_held)},
        "colours": picture.side_colours,
        "counter": round(picture.counter_size, 2),
        "stack": {"shown": STACK_SHOWN, "step": round(picture.geometry.size * 0.11, 2)},
        "title": title(game),
    }
    blob = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    parts = {"TITLE": html.escape(title(game)), "MAP": ET.tostring(svg, encoding="unicode"), "DATA": blob}
    return re.sub(r"__(TITLE|MAP|DATA)__", lambda found: parts[found.group(1)], PAGE)

