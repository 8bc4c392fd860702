"""Grid geometry: cell ids, neighbours and distances for hex and square-with-diagonals maps.

Pure functions on coordinates; nothing here knows terrain or games.

Hex maps use wargamers' numbering: cell ``0312`` is column 3, row 12, both
1-based, hexes with flat tops in vertical columns and every *even* column set
half a hex lower (the common printed convention), or every *odd* one (``low="odd"``).  Square maps number the
same way; each cell touches 4 cells across its sides and 4 across its corners.

>>> cell_id(3, 12), parse_cell_id("0312")
('0312', (3, 12))
>>> sorted(hex_neighbours(2, 2))
[(1, 2), (1, 3), (2, 1), (2, 3), (3, 2), (3, 3)]
>>> hex_distance((1, 1), (3, 2))
2
"""

from __future__ import annotations

import re

_CELL = re.compile(r"(\d{2,3})(\d{2,3})\Z")


def cell_id(column: int, row: int, width: int = 2) -> str:
    """``(3, 12)`` → ``"0312"``; ``width`` digits per part (3 for maps over 99 cells wide or high)."""
    return f"{column:0{width}d}{row:0{width}d}"


def parse_cell_id(text: str) -> tuple[int, int] | None:
    """``"0312"`` → ``(3, 12)``; ``None`` when the text is not a cell id (even digit count, 4 or 6)."""
    if not _CELL.match(text) or len(text) % 2:
        return None
    half = len(text) // 2
    return int(text[:half]), int(text[half:])


LOW_COLUMNS = ("even", "odd")
"""Which hex columns may sit half a hex lower than the others."""


def hex_neighbours(column: int, row: int, low: str = "even") -> list[tuple[int, int]]:
    """The six cells around a hex (may lie off the map; the caller filters); ``low``: which columns
    sit half a hex lower, ``"even"`` or ``"odd"``.

    >>> sorted(hex_neighbours(2, 2, low="odd"))
    [(1, 1), (1, 2), (2, 1), (2, 3), (3, 1), (3, 2)]
    """
    if (column + (low == "odd")) % 2 == 0:  # the low columns sit half a hex lower
        rows_beside = (row, row + 1)
    else:
        rows_beside = (row - 1, row)
    out = [(column, row - 1), (column, row + 1)]
    for side in (column - 1, column + 1):
        out.extend((side, r) for r in rows_beside)
    return out


def _cube(column: int, row: int) -> tuple[int, int, int]:
    x = column
    z = row - (column + (column & 1)) // 2
    return x, -x - z, z


def hex_distance(a: tuple[int, int], b: tuple[int, int], low: str = "even") -> int:
    """Hexes between two cells, counting the destination (``low`` as for ``hex_neighbours``: an
    odd-low map is an even-low one with its columns numbered one on)."""
    shift = low == "odd"
    ax, ay, az = _cube(a[0] + shift, a[1])
    bx, by, bz = _cube(b[0] + shift, b[1])
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def square_neighbours(column: int, row: int) -> list[tuple[tuple[int, int], str]]:
    """The eight cells around a square, each with ``"side"`` or ``"corner"``."""
    out = []
    for dc in (-1, 0, 1):
        for dr in (-1, 0, 1):
            if dc or dr:
                out.append(((column + dc, row + dr), "corner" if dc and dr else "side"))
    return out


def square_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Squares between two cells when diagonal steps are allowed (Chebyshev distance)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))
