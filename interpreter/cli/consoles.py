"""Rich output shared by ``warbook odds`` and ``warbook sim``: one console per run, on stdout or stderr.

A console writing to a pipe or a file gets no colours and a width that fits the widest table
(rich's default of 80 columns would fold a 13-column table), so saved output is plain text.
"""

from __future__ import annotations

import sys
from fractions import Fraction


def console(*, stderr: bool = False, width: int = 120):
    """A rich ``Console`` on stdout (or stderr); off a terminal, ``width`` columns and no colour."""
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    if stream.isatty():
        return Console(file=stream, highlight=False)
    return Console(file=stream, width=width, no_color=True, highlight=False, soft_wrap=False)


def percent(value: float | Fraction) -> str:
    """A share as a percentage with one decimal (``1/3`` → ``33.3%``)."""
    return f"{float(value) * 100:.1f}%"
