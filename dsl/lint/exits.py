"""Checks of the ways off the map (E156, E157).

Limits: whether any cell of a map lies where an exit's `from` line says is the map's question,
asked when a scenario is loaded, not here.
"""

from __future__ import annotations

from typing import Iterator

from ..diagnostics import Diagnostic, diagnostic
from ..model import Rulebook
from . import check


@check("E156", "exit-without-box")
def exit_without_box(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports an `exit` with no `to BOX` line.

    ## Why is this bad?
    A unit that steps off the map must go somewhere: the box says where, and it is where a
    scenario or an award finds it again.

    ## Example
    ```
    exit east "East edge" {
        from map edge east
    }
    ```
    Use instead: add `to exited`, a declared `box`.
    """
    for decl in rb.of_kind("exit"):
        if decl.first("to") is None:
            yield diagnostic("E156", decl.span, f"exit {decl.name!r} says no box its units go to",
                             "add 'to BOX' (a declared box)")


@check("E157", "exit-never-offered")
def exit_never_offered(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports an `exit` in a rulebook whose sequence of play has neither `do move` nor `do move force`.

    ## Why is this bad?
    Units step off the map among their moves in a `do move` phase, and a force steps off among an
    operation's moves (`do move force`); with neither, the exit would never be taken.

    ## Example
    A rulebook that moves nothing (its only phase does `do score`), with an `exit` declared.

    Use instead: a phase with `do move` or `do move force`, or drop the exit.
    """
    moves = any(line.get("procedure") in _OFFERING for d in rb.walk() if d.kind in ("phase", "step")
                for line in d.all("do"))
    if moves:
        return
    for decl in rb.of_kind("exit"):
        yield diagnostic("E157", decl.span,
                         f"exit {decl.name!r} is never offered: no phase does 'do move' or 'do move force'",
                         "add a phase with 'do move' or 'do move force', or drop the exit")


_OFFERING = ("move", "move force")
"""The procedures that offer exits among their moves (``interpreter.exits``)."""
