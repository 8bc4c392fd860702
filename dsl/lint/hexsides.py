"""Checks of what map features on cell sides do: crossing costs (E139); and of how a cell's
terrains combine: one `terrains` declaration (E163).

Limits: whether a map draws a feature across any edge at all is the map reader's question
(E706, E707), asked when a scenario is loaded, not here.
"""

from __future__ import annotations

from typing import Iterator

from ..diagnostics import Diagnostic, diagnostic
from ..model import Rulebook
from . import check


@check("E139", "crossing-cost-off-edges")
def crossing_cost_off_edges(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a feature's `cost` line when the feature is drawn `on cells` only.

    ## Why is this bad?
    A crossing cost is paid stepping across a side or corner the feature lies on; a feature on
    cells lies on none, so the cost would never be paid.

    ## Example
    ```
    feature road "Road" {
        on cells
        cost ½
    }
    ```
    Use instead: `on sides cells`, so the road lies on the sides between its cells too.
    """
    for decl in rb.of_kind("feature"):
        from ..compiled.terrain import DRAWN_ON_EDGES, compile_feature  # here: only features need the terrain records

        if decl.all("cost") and not (compile_feature(decl, {}).on & DRAWN_ON_EDGES):
            for line in decl.all("cost"):
                yield diagnostic("E139", line.span, f"feature {decl.name!r} lies on cells only, so its crossing "
                                 "cost is never paid", "add 'on sides' (or 'corners') to the feature")


@check("E163", "second-terrains")
def second_terrains(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a second `terrains { … }` declaration.

    ## Why is this bad?
    The rulebook says once how the terrains of one cell combine; a second declaration would be
    ignored.

    ## Example
    Two `terrains { … }` blocks → merge their lines into one.
    """
    for decl in rb.of_kind("terrains")[1:]:
        yield diagnostic("E163", decl.name_span, "the rulebook declares terrains twice", "keep one terrains { … }")
