"""A person at a terminal: the side's view drawn as text, numbered options, a choice read back.

One of the agents of ``interpreter.agents`` (the same one-method protocol); it sees only
``Game.observe(side)``, and writes only to the output stream it is given.

Limits: the map is drawn as one character per cell from the map's own legend; hex rows are not
offset, so read neighbours from the cell ids.
"""

from __future__ import annotations

from typing import IO, Iterable, Mapping, Sequence

from .actions import Action, AmbiguousActionError, Decision, IllegalActionError, parse_choice
from .agents import InputEnded


class HumanAgent:
    """A person at a terminal: shows the side's view and numbered options, reads a choice.

    Accepts an option's number, its full words or a unique prefix; anything else gets the
    reason and the question again.  ``?`` lists the options again.  End of input raises
    ``InputEnded``, which the command line turns into a clean exit.  It writes only to the
    ``output`` stream it is given (the terminal), as the command line's part of the program.
    """

    def __init__(self, input: IO[str], output: IO[str], board=None, labels: Mapping[str, str] | None = None):
        self.input = input
        self.output = output
        self.board = board
        """The map to draw (``Board``), or ``None`` for no map."""
        self.labels = dict(labels or {})
        """Unit type name to the name people read."""

    def choose(self, observation: dict, decision: Decision) -> Action:
        self._write(self.view(observation, decision))
        self._write(self.options_text(decision))
        while True:
            self.output.write(f"{decision.side}> ")
            self.output.flush()
            line = self.input.readline()
            if not line:
                self._write("")
                raise InputEnded(f"input ended while {decision.side} was to choose ({decision.kind})")
            text = line.strip()
            if text == "?":
                self._write(self.options_text(decision))
                continue
            if not text:
                self._write("  type an option's number, its words or the start of them ('?' lists them)")
                continue
            try:
                return parse_choice(text, decision)
            except IllegalActionError as exc:
                self._write(f"  {exc.diagnostic.message}")
                self._write(f"  help: {exc.diagnostic.hint or ''}" if isinstance(exc, AmbiguousActionError)
                            else "  type '?' to list the options")

    def _write(self, text: str) -> None:
        self.output.write(text + "\n")

    def view(self, observation: dict, decision: Decision) -> str:
        """The side's picture of the game: the map with units it may see, its units, resources, the question."""
        side = observation.get("side", decision.side)
        units = observation.get("units", ())
        weather = f", weather {observation['weather']}" if observation.get("weather") else ""
        lines = ["", f"== {side} — turn {observation.get('turn', '?')}{weather}, {observation.get('phase', '?')}"]
        if self.board is not None:
            lines += self.map_text(side, units)
        for heading, group in (("yours", [u for u in units if u["side"] == side]),
                               ("enemy", [u for u in units if u["side"] != side])):
            if group:
                lines.append(f"{heading}:")
                lines += [f"  {where}: {', '.join(self._describe(u) for u in here)}"
                          for where, here in _by_location(group)]
        resources = observation.get("resources") or {}
        if resources:
            lines.append("resources: " + ", ".join(f"{k.replace('.', ' ')} {v}" for k, v in sorted(resources.items())))
        if observation.get("control"):
            lines.append("control: " + ", ".join(f"{cell} {who}" for cell, who in sorted(observation["control"].items())))
        if observation.get("states"):
            lines.append("states: " + ", ".join(f"{who} {name}" for who, name in observation["states"]))
        lines.append(f"{decision.side} to choose ({decision.kind}): {decision.prompt}")
        return "\n".join(lines)

    def _describe(self, unit: dict) -> str:
        if unit["type"] is None:
            name = "face down"
        else:
            name = self.labels.get(unit["type"], unit["type"])
            if unit.get("dummy"):
                name += " (dummy)"
            if unit.get("step"):
                name += f" (step {unit['step']})"
        mode = f" ({unit['mode']})" if unit.get("mode") else ""
        return f"{unit['id']} {name}{mode}"

    def map_text(self, side: str, units: Iterable[dict]) -> list[str]:
        """The map rows with ``O`` where the side has units, ``X`` where it sees enemy counters, ``*`` both."""
        board = self.board
        marks: dict[str, str] = {}
        for unit in units:
            if unit["location"] not in board.graph:
                continue
            mark = "O" if unit["side"] == side else "X"
            marks[unit["location"]] = mark if marks.get(unit["location"], mark) == mark else "*"
        width = board.graph.graph.get("id_width", 2)
        rows = board.to_text().splitlines()
        tens = "".join(str(c // 10 % 10) for c in range(1, board.width + 1))
        ones = "".join(str(c % 10) for c in range(1, board.width + 1))
        pad = " " * (width + 1)
        lines = [pad + tens, pad + ones]
        for r, row in enumerate(rows, start=1):
            chars = list(row)
            for c in range(1, board.width + 1):
                cell = f"{c:0{width}d}{r:0{width}d}"
                if cell in marks:
                    chars[c - 1] = marks[cell]
            lines.append(f"{r:0{width}d} " + "".join(chars))
        lines.append(f"{pad}O yours, X enemy, * both; " + ", ".join(f"{c} {t}" for c, t in self._legend()))
        return lines

    def _legend(self) -> list[tuple[str, str]]:
        """Each map character with the terrain it stands for (the first cell drawn with it)."""
        chars = self.board.graph.graph.get("chars", {})
        legend: dict[str, str] = {}
        for cell in sorted(chars):
            legend.setdefault(chars[cell], self.board.terrain(cell))
        return sorted(legend.items())

    @staticmethod
    def options_text(decision: Decision, width: int = 96) -> str:
        """The options numbered from 1, in columns when there are many."""
        items = [f"{n:>3}. {option}" for n, option in enumerate(decision.options, start=1)]
        if len(items) <= 12:
            return "\n".join(items)
        cell = max(len(i) for i in items) + 2
        columns = max(1, width // cell)
        height = -(-len(items) // columns)
        rows = []
        for r in range(height):
            row = [items[c * height + r] for c in range(columns) if c * height + r < len(items)]
            rows.append("".join(i.ljust(cell) for i in row).rstrip())
        return "\n".join(rows)


def _by_location(units: Sequence[dict]) -> list[tuple[str, list[dict]]]:
    """Units grouped by where they are: map cells in id order, then holding areas by name."""
    places: dict[str, list[dict]] = {}
    for unit in units:
        places.setdefault(unit["location"], []).append(unit)
    order = sorted(places, key=lambda where: (not where[:1].isdigit(), where))
    return [(where, places[where]) for where in order]
