"""Control and tracing compiled: who holds each cell, and the paths a ``trace`` follows.

``control { … }`` becomes a ``ControlRule`` and each ``trace NAME { … }`` a ``TraceRule``; every
line of those kinds is read here, once (``interpreter.control`` and ``interpreter.tracing`` carry
them out).
"""

from __future__ import annotations

from attrs import field, frozen

from ..model import Declaration
from .lines import as_names


@frozen
class ControlRule:
    """The rulebook's ``control`` declaration, read."""

    decl: Declaration = field(repr=False)
    presence: bool
    """``by presence``: a cell is a side's only while its units alone stand there; else ``by last
    occupant``: it stays the side's after they leave, until an enemy unit enters."""
    cells: tuple[str, ...] | None
    """The selectors of the controlled cells (``None``: every cell)."""
    from_setup: bool
    """``initially by set-up``: the cells a side's units alone stand in when set-up ends are its own."""


def compile_control(decl: Declaration) -> ControlRule:
    """The ``control`` declaration as a ``ControlRule``."""
    by, cells, initially = decl.first("by"), decl.first("cells"), decl.first("initially")
    return ControlRule(
        decl,
        presence=by is not None and by.has("presence"),
        cells=as_names(cells.get("where")) if cells is not None and cells.get("where") else None,
        from_setup=initially is not None and initially.has("set-up"),
    )
