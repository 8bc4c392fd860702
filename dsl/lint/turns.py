"""Checks of the turn record and the weather (E325, W417, E150).

Limits: E325 compares a turn line with the rulebook's own ``turns N``; a scenario that plays fewer
turns simply never reaches the later lines, and one that plays more has turns with no line (they
start as a turn without a record does).  W417 looks for the weather's name among the words of
every other line (a `turn … weather`, a `set weather`, a `when weather is …`), not at what they mean.
"""

from __future__ import annotations

from typing import Iterator

from ..conditions import Compare, ConditionError, Names, Weather, parse_condition
from ..diagnostics import Diagnostic, diagnostic
from ..model import Rulebook
from . import check


@check("E150", "condition-not-of-weather-or-turn")
def condition_not_of_weather_or_turn(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a terrain's `cost … when` or a movement class's `allowance … when` line whose condition
    reads anything but the weather (`weather is NAME`) and the turn (`turn >= 3`): counters, a
    resource, a side, a moment.

    ## Why is this bad?
    What a cell costs and how far a unit moves are worked out for the whole map at once, from the
    turn and the weather alone; a condition about counters or sides has no counter or side to be
    read for there, so the line would hold or fail by accident.

    ## Example
    ```
    terrain clear "Clear" {
        cost 2 when enemy unit in cell
    }
    ```
    Use instead: a condition of the weather or the turn, `cost 2 when weather is mud`.
    """
    names = Names(rb)
    lines = [p for t in rb.of_kind("terrain") for p in t.all("cost")]
    lines += [p for m in rb.of_kind("movement") for p in m.all("allowance")]
    for line in lines:
        words = line.get("condition")
        if not words:
            continue
        try:
            condition = parse_condition([str(w) for w in words], names)
        except ConditionError:
            continue  # W508 reports it
        static = condition.moment is None and all(
            isinstance(c, Weather) or (isinstance(c, Compare) and {c.left.kind, c.right.kind} <= {"number", "turn"})
            for c in condition.clauses)
        if not static:
            at = line.words[len(line.words) - len(words)]
            yield diagnostic("E150", at.span, f"{' '.join(str(w) for w in words)!r} reads more than the weather and "
                             "the turn", "a cost or an allowance may depend only on 'weather is NAME' and 'turn' "
                             "comparisons")


@check("E325", "bad-turn-record")
def bad_turn_record(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `turn N "LABEL" …` line of the sequence (the turn record) that is not the next turn:
    the lines must number the turns 1, 2 … in order, each once, and no line may name a turn after
    the game's last (`turns N`).

    ## Why is this bad?
    A turn named twice would have two dates and two weathers; a turn past the last is never played,
    so its weather or note would silently never apply.

    ## Example
    ```
    sequence {
        turns 2
        turn 1 "5 June"
        turn 3 "19 June"
    }
    ```
    Use instead: `turn 2 "12 June"`, and a `turns 3` line if the game has a third turn.
    """
    for sequence in rb.of_kind("sequence"):
        turns = sequence.first("turns")
        last = turns.get("count") if turns is not None else None
        for expected, line in enumerate(sequence.all("turn"), start=1):
            number = line.get("turn")
            if number != expected:
                yield diagnostic("E325", line.words[1].span, f"turn {number} written where turn {expected} is next "
                                 "on the turn record", "number the turn lines 1, 2 … in order, each once")
            elif last is not None and number > int(last):
                yield diagnostic("E325", line.words[1].span, f"turn {number} is after the game's last turn "
                                 f"(turns {last})", "remove the line, or make the game longer")


@check("W417", "unused-weather")
def unused_weather(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `weather` that no line names: no turn of the turn record has it, no `set weather`
    effect sets it and no condition reads it.

    ## Why is this bad?
    The game can never have that weather, or having it changes nothing: a rule about it is missing
    or misspelt.
    """
    named: set[str] = set()
    for decl in rb.walk():
        if decl.kind == "weather":
            continue
        for prop in decl.properties:
            named.update(w.text for w in prop.words if not w.quoted)
    for decl in rb.of_kind("weather"):
        if decl.name not in named:
            yield diagnostic("W417", decl.name_span, f"weather {decl.name!r} is never named: no turn has it, no "
                             "effect sets it and no condition reads it", "name it, or remove it")
