"""E22x: effects in a context that cannot carry them out ("not valid here").

An effect line is checked against what the context that carries it out can do:
a combat result's effects (a ``result``'s, and an ``event``'s that a cell of a
table rolled in combat names) may only use the verbs combat carries out, and no
``when`` moment, since a result is carried out when it is rolled.
``combat_effect_problems`` is shared with the interpreter
(``interpreter.combat_effects``): a game that reaches a line it reports stops
with the same diagnostic, and ``Game`` refuses to start under rules with lint
errors, so such a game never starts.
"""

from __future__ import annotations

from typing import Iterator

from ..conditions import ConditionError, Names, parse_condition
from ..diagnostics import Diagnostic, diagnostic
from ..model import Declaration, Property, Rulebook
from ..tables import result_parts
from . import check
from .names import Index, describe, index, ref_of


COMBAT_VERBS = ("eliminate", "refit", "retreat", "stand", "break", "gain", "lose", "roll", "no")
"""The effect verbs a combat result carries out (``interpreter.combat.apply_effect``); the other
verbs of ``dsl.vocabulary.EFFECTS`` belong to events and markers."""

_COMBAT_HINT = ("a combat result may eliminate, refit, retreat, stand, break off, gain, lose, roll … on "
                "or have no effect")


def _rolled_on(decl: Declaration) -> list[str]:
    return [str(p.get("table")) for p in decl.all("effect") if p.get("effect") == "roll" and p.get("table") is not None]


def combat_effect_lines(rb: Rulebook) -> Iterator[tuple[Declaration, Property]]:
    """Every effect line a combat carries out, with its declaration: each ``result``'s (results are
    carried out only by combat), then each event's that a cell of a table rolled in combat names
    (the table of a ``combat``, of a ``do fire at aircraft with``, or of a ``roll … on`` among
    these lines)."""
    idx = index(rb)
    views = {view.name: view for view in idx.tables}
    results = idx.of_kind("result")
    pending = [ref_of(c, "table", "table") for c in idx.of_kind("combat")]
    pending += [str(p.get("table")) for d in idx.declarations if d.kind in ("phase", "step") for p in d.all("do")
                if p.get("procedure") == "fire at aircraft" and p.get("table") is not None]
    pending += [t for r in results for t in _rolled_on(r)]
    events: dict[str, Declaration] = {}
    seen: set[str] = set()
    while pending:
        name = pending.pop()
        if name is None or name in seen or name not in views:
            continue
        seen.add(name)
        for row in views[name].rows:
            for cell in row.cells:
                if result_parts(idx, cell.text) is not None:  # type: ignore[arg-type]
                    continue  # a result, as combat reads a cell first
                event = idx.get("event", cell.text)
                if event is not None and event.name not in events:
                    events[event.name] = event
                    pending += _rolled_on(event)
    for decl in (*results, *sorted(events.values(), key=lambda d: (d.span.path, d.span.line))):
        for prop in decl.all("effect"):
            yield decl, prop


def combat_effect_problems(rb: Rulebook | Index, decl: Declaration, prop: Property,
                           names: Names) -> list[Diagnostic]:
    """Why combat cannot carry out one effect line of ``decl`` (E220, E221); empty when it can.

    ``names`` are the rulebook's (``dsl.conditions.Names``).  A condition the grammar cannot read
    is W508's business, not reported here.
    """
    verb = prop.get("effect")
    text = " ".join(w.text for w in prop.words[1:])
    out = []
    if verb not in COMBAT_VERBS:
        why = "; this event is a cell of a table rolled in combat" if decl.kind == "event" else ""
        out.append(diagnostic("E220", prop.words[1].span, f"effect {text!r} of {describe(decl)} cannot be carried "
                              "out in a combat result", _COMBAT_HINT + why))
    elif verb == "roll":
        table = rb.get("table", str(prop.get("table")))
        cells = table.first("cells") if table is not None else None
        if cells is not None and cells.words[-1].text not in ("results", "events"):
            out.append(diagnostic("E220", prop.words[1].span, f"effect {text!r} of {describe(decl)} rolls on table "
                                  f"{table.name!r}, whose cells are {cells.words[-1].text}: combat carries out "
                                  "only results and events", "roll on a table whose cells are results or events"))
    condition = prop.get("condition")
    if condition:
        words = prop.words[len(prop.words) - len(condition):]
        try:
            parsed = parse_condition([w.text for w in words], names)
        except ConditionError:
            parsed = None
        if parsed is not None and parsed.moment is not None:
            out.append(diagnostic("E221", words[0].span, f"condition {' '.join(w.text for w in words)!r} of "
                                  f"{describe(decl)} waits for a moment, but a combat result is carried out when "
                                  "it is rolled", "drop the moment; totals, resources, counters "
                                  "and 'defending' are read when the result is carried out"))
    return out


def _combat_problems(rb: Rulebook, code: str) -> Iterator[Diagnostic]:
    names = Names(rb)
    for decl, prop in combat_effect_lines(rb):
        yield from (d for d in combat_effect_problems(index(rb), decl, prop, names) if d.code == code)


@check("E220", "effect-not-in-combat")
def effect_not_in_combat(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports an effect line that combat carries out (a `result`'s, or an `event`'s that a cell of
    a table rolled in combat names) whose verb a combat result cannot carry out: one other than
    `eliminate`, `refit`, `retreat`, `stand`, `break off`, `gain`, `lose`, `roll … on` and `no
    effect`; or a `roll … on` a table whose cells are numbers or text.

    ## Why is this bad?
    The other verbs belong to events and markers (a turn's income, a marker removing itself,
    a standing modifier); in a combat result they have nothing to act on, and a game reaching
    one would stop.

    ## Example
    ```
    result AS "Attacker supplied" {
        effect supply attackers
    }
    ```
    Use instead: an effect a result can carry out (`effect gain cp 1 to attackers`), or put
    the effect on an event or a marker.
    """
    return _combat_problems(rb, "E220")


@check("E221", "condition-not-in-combat")
def condition_not_in_combat(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `when` condition on an effect line that combat carries out (a `result`'s, or an
    `event`'s that a cell of a table rolled in combat names) that begins with a **moment**
    (`revealed`, `WHO force enters`, `WHO fires in cell`, `combat round ends`, `PHASE phase
    ends`).

    ## Why is this bad?
    A combat result is carried out when it is rolled; it never waits for a moment, so the
    effect could never apply.  Its clauses (totals, resources, counters in the cell,
    `defending`) are what a result can test.

    ## Example
    ```
    result DR "Defender retreats" {
        effect retreat defenders 1 when revealed
    }
    ```
    Use instead: `effect retreat defenders 1 when attackers attack exceeds defenders defence`.
    """
    return _combat_problems(rb, "E221")
