"""Checks of control, tracing, lasting side states and the victory forms that read them (E145–E149,
E235, E236, W414).

Limits: the linter reads no map, so it cannot tell whether a `control … of WHERE` line or a trace's
`to cells WHERE` names a cell of the map a scenario plays on; `warbook play` then finds no such cell,
and the line is met by no side (a trace from nowhere reaches nothing).
"""

from __future__ import annotations

from typing import Iterator

from ..diagnostics import Diagnostic, diagnostic
from ..model import Rulebook
from . import check
from .names import describe
from .unused import references


@check("E145", "control-without-declaration")
def control_without_declaration(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a rule that reads who controls cells while the rulebook declares no `control`: a
    trace's `to controlled cells`, a victory's `control … of …` line, an award `on controlled`.

    ## Why is this bad?
    Without a `control` declaration no cell is ever controlled: the source is never found, the
    victory line never met, the award never scores.

    ## Example
    ```
    victory {
        control all of town at end
    }
    ```
    Use instead: declare `control { by last occupant }` (and which `cells`).
    """
    if rb.of_kind("control"):
        return
    for trace in rb.of_kind("trace"):
        for line in trace.all("to"):
            if line.has("controlled"):
                yield diagnostic("E145", line.span, f"{describe(trace)} traces to controlled cells, but the "
                                 "rulebook declares no control", "declare 'control { … }'")
    for victory in rb.of_kind("victory"):
        for line in victory.all("control"):
            yield diagnostic("E145", line.span, f"{describe(victory)} is won by control, but the rulebook "
                             "declares no control", "declare 'control { … }'")
    for award in rb.of_kind("award"):
        line = award.first("on")
        if line is not None and line.has("controlled"):
            yield diagnostic("E145", line.span, f"{describe(award)} scores controlled cells, but the rulebook "
                             "declares no control", "declare 'control { … }'")


@check("E146", "trace-without-source")
def trace_without_source(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `trace` with no `to` line.

    ## Why is this bad?
    A path must end at a source; with none, no cell ever traces, and every unit is out of supply.

    ## Example
    `trace supply { length 4 hexes }` → add `to map edge west` (or cells, units, controlled cells).
    """
    for trace in rb.of_kind("trace"):
        if not trace.all("to"):
            yield diagnostic("E146", trace.name_span, f"{describe(trace)} has no source",
                             "add a 'to …' line: a map edge, cells, units or controlled cells")


@check("E147", "unknown-victory-level")
def unknown_victory_level(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a victory's `control … wins LEVEL` or `first to … wins LEVEL` naming a level the
    victory does not declare.

    ## Why is this bad?
    The win would be given a level no `level` line labels: the game would be won at a level the
    rules never named.

    ## Example
    `first to 10 vp wins decisive` with no `level decisive …` line.
    """
    for victory in rb.of_kind("victory"):
        levels = {str(p.get("level")) for p in victory.all("level")}
        for line in (*victory.all("control"), *victory.all("first")):
            level = line.get("level")
            if level is not None and str(level) not in levels:
                yield diagnostic("E147", line.span, f"{describe(victory)}: no level {str(level)!r}",
                                 f"declare 'level {level} RANGE \"LABEL\"', or name one of: "
                                 f"{', '.join(sorted(levels)) or 'none declared'}")


@check("E148", "second-control")
def second_control(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a second `control` declaration.

    ## Why is this bad?
    The game keeps one control of the map; a second declaration would be ignored.

    ## Example
    Two `control { … }` blocks → merge their lines into one.
    """
    for decl in rb.of_kind("control")[1:]:
        yield diagnostic("E148", decl.name_span, "the rulebook declares control twice", "keep one control { … }")


@check("E149", "end-score-not-cells")
def end_score_not_cells(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a victory's `score AWARD… at end` naming an award that is not `on held` or `on
    controlled`.

    ## Why is this bad?
    At the game's end only awards for cells held or controlled can be scored; an award for a
    counter eliminated or revealed scores when that happens, so the line would score nothing.

    ## Example
    `score kills at end` where `award kills { on eliminated }` → remove it from the line.
    """
    for victory in rb.of_kind("victory"):
        line = victory.first("score")
        for ref in line.get("awards") or () if line is not None else ():
            award = rb.get("award", str(ref))
            on = award.first("on") if award is not None else None
            if award is not None and not (on is not None and (on.has("held") or on.has("controlled"))):
                yield diagnostic("E149", line.span, f"{describe(victory)} scores {describe(award)} at the end, "
                                 "which scores no cells", "only awards 'on held' or 'on controlled' score then")


@check("W414", "unused-trace")
def unused_trace(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `trace` that no condition (`in TRACE`, `out of TRACE`), `do check supply … by TRACE`
    or placement (`in TRACE`) names.

    ## Why is this bad?
    No rule asks whether a path is traced: the supply rule it was written for is not in force.

    ## Example
    `trace supply { … }` → `do check supply by supply paying … else to …`.
    """
    refs = references(rb)
    for trace in rb.of_kind("trace"):
        if not refs.uses(trace):
            yield diagnostic("W414", trace.name_span, f"trace {trace.name!r} is never used",
                             "name it in a condition ('in NAME'), 'do check supply … by NAME' or a placement")


@check("E235", "state-condition-with-moment")
def state_condition_with_moment(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `state`'s `when` condition that starts with a moment (`revealed`, `red force
    enters`, `combat round ends`, `PHASE phase ends` …).

    ## Why is this bad?
    A state is read at the end of every phase, when no moment is happening: the condition could
    never hold and the side would never enter the state.

    ## Example
    `when battle phase ends and opponent kills at least 6` → `when opponent kills at least 6`.
    """
    from ..conditions import Names, read_condition

    names = None
    for state in rb.of_kind("state"):
        line = state.first("when")
        if line is None:
            continue
        names = names or Names(rb)
        condition, _ = read_condition(line.get("condition"), names)
        if condition is not None and condition.moment is not None:
            yield diagnostic("E235", line.span, f"{describe(state)}: its condition has a moment, which never "
                             "happens when states are read", "give only clauses: 'when opponent kills at least 6'")


@check("E236", "state-without-condition")
def state_without_condition(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `state` with no `when` line.

    ## Why is this bad?
    No side would ever enter it, so what it forbids never applies.

    ## Example
    `state demoralised { forbids attack }` → add `when opponent kills at least 6`.
    """
    for state in rb.of_kind("state"):
        if state.first("when") is None:
            yield diagnostic("E236", state.name_span, f"{describe(state)} has no condition",
                             "add 'when CONDITION': when a side enters it")
