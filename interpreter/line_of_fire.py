"""Fire at range: which cells a unit may fire at, nearer than its range, past its combat's
``fires at least N hexes away``, along a clear line of fire (a combat's ``line of fire blocked by …``).

The line of fire from one cell to another is the line between their centres
(``grid.hex_lines``, ``grid.square_lines``), drawn twice with the usual epsilon nudge, one
way and the other.  A drawing is blocked when a cell it passes through between the two (not
the firer's, not the target's) is selected by a blocking name (its terrain, a terrain tag or a
cell tag, a feature drawn on cells), when a side or corner it crosses between two of its cells
holds a blocking feature, or, where the line runs along a hexside (or through a corner), when
that hexside (the edge between the cells of the two drawings there) holds one.  The line is
clear when either drawing is: along a hexside it is blocked only when both hexes beside it
block (or the hexside itself does), the reading that gives the firer the benefit of a line
exactly on the boundary.  Cells missing from the map (holes) block nothing.
"""

from __future__ import annotations

from .board import Board
from .cells import cell_selectors, within
from .context import Context
from .rules import Rules
from . import grid


def lines_between(board: Board, a: str, b: str) -> tuple[list[str], list[str]]:
    """The two nudged drawings of the line from ``a`` to ``b``, as cell ids (off-map cells kept)."""
    pa, pb = grid.parse_cell_id(a), grid.parse_cell_id(b)
    assert pa is not None and pb is not None
    drawn = grid.hex_lines(pa, pb, board.low_columns) if board.grid == "hex" else grid.square_lines(pa, pb)
    width = board.graph.graph["id_width"]
    one, two = ([grid.cell_id(c, r, width) for c, r in line] for line in drawn)
    return one, two


def _edge_blocks(board: Board, a: str, b: str, names: frozenset[str]) -> str | None:
    if a in board.graph and b in board.graph and board.graph.has_edge(a, b):
        found = board.edge(a, b)["features"] & names
        if found:
            return f"the {board.edge(a, b)['kind']} between {min(a, b)} and {max(a, b)} holds {sorted(found)[0]}"
    return None


def _drawing_blocked(rules: Rules, board: Board, line: list[str], names: frozenset[str]) -> str | None:
    selectors = cell_selectors(rules, board)
    for cell in line[1:-1]:
        found = selectors.get(cell, frozenset()) & names
        if found:
            return f"{cell} holds {sorted(found)[0]}"
    for a, b in zip(line, line[1:]):
        why = _edge_blocks(board, a, b, names)
        if why is not None:
            return why
    return None


def line_blocked(rules: Rules, board: Board, names: tuple[str, ...], a: str, b: str) -> str | None:
    """Why no clear line of fire runs from ``a`` to ``b`` past cells and edges ``names`` select
    (``None``: a clear line; module docstring)."""
    if not names or a == b:
        return None
    wanted = frozenset(names)
    one, two = lines_between(board, a, b)
    for x, y in zip(one, two):  # where the drawings part, the line runs along the edge between them
        if x != y:
            why = _edge_blocks(board, x, y, wanted)
            if why is not None:
                return why
    first = _drawing_blocked(rules, board, one, wanted)
    if first is None or one == two:
        return first
    second = _drawing_blocked(rules, board, two, wanted)
    return None if second is None else first if first == second else f"{first} and {second}"


def cells_in_range(ctx: Context, cell: str, reach: int, minimum: int, blocked_by: tuple[str, ...],
                   among: set[str]) -> list[str]:
    """The cells of ``among`` from ``minimum`` to ``reach`` hexes from ``cell`` (graph hops; a
    minimum below 1 counts as 1) with a clear line of fire from it, in id order."""
    low = max(minimum, 1)
    return sorted(c for c, d in within(ctx.board, [cell], reach).items()
                  if d >= low and c in among and line_blocked(ctx.rules, ctx.board, blocked_by, cell, c) is None)
