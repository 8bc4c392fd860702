"""The narrative: a game's log as lines people read.

Every log entry becomes zero or more lines, in order, with nothing drawn from
outside the log, so narrating a game as it is played and narrating its saved
log afterwards give the same text, byte for byte::

    Mini (Mini), seed 3

    Set-up
      B1 Trooper set up at 0202

    Turn 1 — Orders (blue)
      R1 (hidden) goes on Watch
      roll d6 = 4 for CRT 2:1 (attack on 0610)
    Result: Victory for blue (margin 4; blue 4, red 0)

Events print their own text (the procedures wrote it for people); rolls print
dice, value and reason; a turn starts with a blank line; decisions are silent
unless ``choices=True`` (the events they cause say what happened).

>>> narrate([{"type": "roll", "dice": "d6", "value": 4, "reason": "CRT 2:1 (attack on 0610)"}])
['  roll d6 = 4 for CRT 2:1 (attack on 0610)']

Limits: the text of events is the procedures' own; the narrator does not
reword it.  Hiding face-down counters from one viewer (``redactions``) works
on unit labels as ``Context.label`` writes them (``ID Label``).
"""

from __future__ import annotations

import re
from typing import Iterable, Mapping

from .options import options_on

INDENT = "  "


def result_line(result: Mapping | None) -> str:
    """The one line that says how a game ended."""
    if not result:
        return "Result: the game is not over"
    totals = result.get("totals") or {}
    detail = f"margin {result.get('margin', 0)}"
    if totals:
        detail += "; " + ", ".join(f"{side} {value}" for side, value in totals.items())
    head = f"{result.get('level')} for {result['winner']}" if result.get("winner") else str(result.get("level"))
    return f"Result: {head} ({detail})"


def title(game) -> str:
    """The narrative's first line: the scenario, the seed and the rules it is played with.

    Optional rules in force from the start (the rulebook's defaults, the scenario's and the
    players' choices) are named after the seed, so two narratives of one scenario and seed say
    why they differ.  Options a side decides during set-up are narrated where it decides them.
    """
    name, rules = game.scenario.name, game.scenario.rulebook.title
    head = f"{name}{f' ({rules})' if rules != name else ''}, seed {game.seed}"
    optional = sorted(options_on(game.scenario))
    return f"{head}; optional rules: {', '.join(optional)}" if optional else head


class Narrator:
    """Turns log entries into lines, one entry at a time (it remembers only whether set-up was announced).

    ``redact`` maps a unit's label to what a viewer may read instead (see ``redactions``).
    """

    def __init__(self, redact: Mapping[str, str] | None = None, choices: bool = False):
        self.choices = choices
        self._setup_announced = False
        self.set_redactions(redact or {})

    def set_redactions(self, redact: Mapping[str, str]) -> None:
        """Replace the labels to hide (they change as counters are revealed)."""
        self.redact = dict(redact)
        longest_first = sorted(self.redact, key=len, reverse=True)
        self._pattern = (re.compile("|".join(rf"(?<!\w){re.escape(k)}(?!\w)" for k in longest_first))
                         if self.redact else None)

    def _text(self, text: str, capital: bool = True) -> str:
        text = str(text)
        if self._pattern is not None:
            text = self._pattern.sub(lambda m: self.redact[m.group(0)], text)
        return text[:1].upper() + text[1:] if capital else text

    def lines(self, entry: Mapping) -> list[str]:
        kind = entry.get("type")
        if kind == "roll":
            reason = str(entry.get("reason", ""))
            reason = reason.removeprefix("for ")
            why = f" for {self._text(reason, capital=False)}" if reason else ""
            return [f"{INDENT}roll {entry.get('dice')} = {entry.get('value')}{why}"]
        if kind == "decision":
            return [f"{INDENT}{entry.get('side')} chose: {entry.get('choice')}"] if self.choices else []
        if kind != "event":
            return []
        event = entry.get("kind")
        if event == "turn":
            return ["", self._text(entry["heading"])] if entry.get("heading") else [""]
        if event == "phase":
            return [f"Turn {entry.get('turn')} — {self._text(entry.get('text', ''))}"]
        if event == "result":
            return ["", result_line(entry.get("result"))]
        out = []
        if entry.get("phase") == "setup" and not entry.get("turn") and not self._setup_announced:
            self._setup_announced = True
            out += ["", "Set-up"]
        out.append(INDENT + self._text(entry.get("text", "")))
        return out


def narrate(entries: Iterable[Mapping], redact: Mapping[str, str] | None = None, choices: bool = False) -> list[str]:
    """Every line of the narrative of ``entries`` (a game's ``log`` or a saved log's entries)."""
    narrator = Narrator(redact, choices)
    return [line for entry in entries for line in narrator.lines(entry)]


def redactions(game, viewer: str) -> dict[str, str]:
    """Labels of the counters ``viewer`` may not identify now, each mapped to ``ID (hidden)``.

    For narrating a game to one side as it is played: the log is the whole truth, and some event
    texts name the face-down counters of the side that acted (its own set-up, for instance).
    """
    out = {}
    for unit in game.state.units:
        if not game.ctx.identifies(viewer, unit):
            label = game.ctx.rules.unit_type(unit.type).label
            out[f"{unit.id} {label}"] = f"{unit.id} (hidden)"
    return out
