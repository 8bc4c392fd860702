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


def axes(column: int, row: int, low: str = "even", width: int = 0) -> tuple[int, int]:
    """Two of a hex's cube coordinates (the third is minus their sum), the second moved on by half
    of ``width`` so that both stay at or above 0 on a map that wide (small numbers are shared
    objects): the hexes between two cells are the largest of the differences of the two and of
    their sum (as ``hex_distance``; ``low`` as for ``hex_neighbours``).

    >>> (a, b), (c, d) = axes(1, 1), axes(3, 2)
    >>> max(abs(a - c), abs(b - d), abs(a - c + b - d)) == hex_distance((1, 1), (3, 2))
    True
    """
    x, _, z = _cube(column + (low == "odd"), row)
    return x, z + (width + 2) // 2


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


# --- lines between centres (line of fire) ---------------------------------------------------------------

_NUDGE = (1e-6, 2e-6, -3e-6)
"""The usual epsilon nudge of hex line drawing: moved this way (or the opposite way) a point on a
hexside lies inside one of the two hexes, never on the boundary."""


def _uncube(x: int, z: int) -> tuple[int, int]:
    return x, z + (x + (x & 1)) // 2


def _round_cube(x: float, y: float, z: float) -> tuple[int, int, int]:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return rx, ry, rz


def hex_lines(a: tuple[int, int], b: tuple[int, int], low: str = "even") -> tuple[list[tuple[int, int]], ...]:
    """The hexes the line between the centres of ``a`` and ``b`` passes through, drawn twice: with the
    epsilon nudge one way and the other.  The two differ only where the line runs along a hexside
    (each then holds one of the two hexes beside it); elsewhere they are the same hexes.

    >>> hex_lines((1, 1), (1, 3))[0]
    [(1, 1), (1, 2), (1, 3)]
    >>> [line[1] for line in hex_lines((1, 2), (3, 2))]  # along the hexside between 0201 and 0202
    [(2, 1), (2, 2)]
    """
    shift = low == "odd"
    ac, bc = _cube(a[0] + shift, a[1]), _cube(b[0] + shift, b[1])
    steps = hex_distance(a, b, low)
    out = []
    for sign in (1, -1):
        line = []
        for i in range(steps + 1):
            t = i / steps if steps else 0.0
            x, _, z = _round_cube(*(ac[k] + (bc[k] - ac[k]) * t + sign * _NUDGE[k] for k in range(3)))
            column, row = _uncube(x, z)
            line.append((column - shift, row))
        out.append(line)
    return tuple(out)


def square_lines(a: tuple[int, int], b: tuple[int, int]) -> tuple[list[tuple[int, int]], ...]:
    """The squares the line between the centres of ``a`` and ``b`` passes through, drawn twice: where
    it passes exactly through a corner, one line steps across the column first, the other across
    the row (each holds one of the two squares beside the corner); elsewhere they are the same.

    >>> square_lines((1, 1), (3, 2))[0]
    [(1, 1), (2, 1), (2, 2), (3, 2)]
    >>> [line[1] for line in square_lines((1, 1), (2, 2))]
    [(2, 1), (1, 2)]
    """
    from fractions import Fraction

    dc, dr = b[0] - a[0], b[1] - a[1]
    # The times (0..1 along the line) it crosses a column boundary and a row boundary.
    crossings = [(Fraction(2 * k + 1, 2 * abs(dc)), "c") for k in range(abs(dc))] + \
        [(Fraction(2 * k + 1, 2 * abs(dr)), "r") for k in range(abs(dr))]
    out = []
    for first in ("c", "r"):
        column, row = a
        line = [a]
        for _, axis in sorted(crossings, key=lambda c: (c[0], c[1] != first)):
            if axis == "c":
                column += 1 if dc > 0 else -1
            else:
                row += 1 if dr > 0 else -1
            line.append((column, row))
        out.append(line)
    return tuple(out)
