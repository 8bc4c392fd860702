"""Checks of how a force moves under ``move force`` (E331, W421).

Limits: E331 reads every movement class that moves by itself, not only those a force could hold
(which units share a cell is the scenario's matter).
"""

from __future__ import annotations

from typing import Iterator

from ..diagnostics import Diagnostic, diagnostic
from ..model import Rulebook
from . import check


@check("E331", "drop-off-without-unlimited-distance")
def drop_off_without_unlimited_distance(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `do move force dropping off …` line in a rulebook where a movement class that moves
    by itself (neither `needs transport` nor `never moves`) is not `unlimited distance`.

    ## Why is this bad?
    A force that drops units off may move on from where it left them, as far as its class
    allows. The interpreter does not count the points a force has spent on the way, so it can
    carry this out only for classes with no movement-point limit.

    ## Example
    ```
    movement boat "Boat" {
        points 6
    }
    ```
    with `do move force dropping off boat` in the sequence of play.

    Use instead: `unlimited distance` in the class, or `do move force` without `dropping off`.
    """
    lines = [line for d in rb.walk() if d.kind in ("phase", "step") for line in d.all("do")
             if line.get("procedure") == "move force" and line.get("drop")]
    if not lines:
        return
    from ..compiled.movement import compile_movement  # its records only for a rulebook with such lines

    classes = [compile_movement(d) for d in rb.of_kind("movement")]
    limited = sorted(c.name for c in classes if not (c.unlimited_distance or c.points == "unlimited")
                     and not c.needs_transport and not c.never_moves)
    if limited:
        for line in lines:
            named = ", ".join(repr(n) for n in limited)
            which = f"movement {named} is" if len(limited) == 1 else f"movements {named} are"
            yield diagnostic("E331", line.span, f"a force may drop units off and move on, but {which} not "
                             "'unlimited distance'",
                             "write 'unlimited distance' in those classes, or leave out 'dropping off'")


@check("W421", "go-on-past-no-markers")
def go_on_past_no_markers(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a movement class with `may go on past markers` but no `stops on entering MARKER…` line.

    ## Why is this bad?
    The line lets a force go on after the markers that stopped it are revealed. A class that no
    marker stops is never stopped that way, so the line does nothing; a marker name was probably
    left out of `stops on entering`.

    ## Example
    ```
    movement boat "Boat" {
        unlimited distance
        may go on past markers
    }
    ```
    Use instead: add `stops on entering snare` (the markers that stop it), or drop the line.
    """
    for decl in rb.of_kind("movement"):
        line = decl.first("may")
        if line is not None and not any(p.get("markers") for p in decl.all("stops")):
            yield diagnostic("W421", line.span, f"movement {decl.name!r} may go on past markers, but no "
                             "marker stops it", "add 'stops on entering MARKER…', or drop the line")
