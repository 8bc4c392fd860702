"""Checks of what an award's points are read from (E155), and of its `at distance` lines (W519).

Limits: whether a scenario ever sets up a counter the award counts is not checked.
"""

from __future__ import annotations

from typing import Iterator

from ..diagnostics import Diagnostic, diagnostic
from ..values import Range
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
        for line in (*award.points, *award.distance_points):
            if isinstance(line.value, str):
                yield diagnostic("E155", line.source.span, f"award {decl.name!r} scores cells {award.on}, "
                                 f"which print no factor {line.value!r}", "give a number of points")


@check("W519", "distance-points-shadowed")
def distance_points_shadowed(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports an award's `points … at distance RANGE from WHERE` line that an earlier such line
    always takes first: one from the same cells, for the same counters (or for any), whose range
    holds every distance this one does.

    ## Why is this bad?
    The `at distance` lines are read in order and the first that holds gives the points, so the
    later line never scores; usually its range or its order is a slip.

    ## Example
    ```
    award depth "Depth" {
        on infiltrated
        points 2 at distance 1+ from border
        points 3 at distance 5+ from border
    }
    ```
    Use instead: `points 2 at distance 1..4 from border`, or the `5+` line first.
    """
    for decl in rb.of_kind("award"):
        from ..compiled.scoring import compile_award  # here: a rulebook without awards does not build its records

        lines = compile_award(decl).distance_points
        for index, line in enumerate(lines):
            earlier = next((e for e in lines[:index] if set(e.origin) == set(line.origin)
                            and (not e.who or set(line.who) and set(line.who) <= set(e.who))
                            and _covers(e.distance, line.distance)), None)
            if earlier is not None:
                yield diagnostic("W519", line.source.span,
                                 f"award {decl.name!r}: distance {line.distance.text} is always taken first by "
                                 f"the line for distance {earlier.distance.text}",
                                 "narrow the earlier range, or put this line first")


def _covers(outer: Range | None, inner: Range | None) -> bool:
    """Whether every whole distance ``inner`` holds, ``outer`` holds too."""
    if outer is None or inner is None:
        return False
    low_ok = outer.low is None or (inner.low is not None and inner.low >= outer.low) or (
        inner.low is None and outer.low <= 0)
    high_ok = outer.high is None or (inner.high is not None and inner.high <= outer.high)
    return low_ok and high_ok
