"""Checks of what an award's points are read from (E155).

Limits: whether a scenario ever sets up a counter the award counts is not checked.
"""

from __future__ import annotations

from typing import Iterator

from ..diagnostics import Diagnostic, diagnostic
from ..model import Rulebook
from . import check

_FOR_CELLS = ("held", "controlled")
"""What an award scores on when its points are a cell's, not a counter's."""


@check("E155", "factor-points-for-cells")
def factor_points_for_cells(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports an award's `points factor F` line when the award scores cells (`on held`, `on
    controlled`) rather than counters.

    ## Why is this bad?
    The points would be a counter's factor, and a cell held prints no factor: the award could
    never say how many points it is worth.

    ## Example
    ```
    award towns "Towns held" {
        on held
        cells town
        points factor attack
    }
    ```
    Use instead: `points 2`, or an award `on eliminated` when the points are the counter's.
    """
    for decl in rb.of_kind("award"):
        from ..compiled.scoring import compile_award  # here: a rulebook without awards does not build its records

        award = compile_award(decl)
        if award.on not in _FOR_CELLS:
            continue
        for line in award.points:
            if isinstance(line.value, str):
                yield diagnostic("E155", line.source.span, f"award {decl.name!r} scores cells {award.on}, "
                                 f"which print no factor {line.value!r}", "give a number of points")
