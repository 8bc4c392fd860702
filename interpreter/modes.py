"""What a unit's mode (its orders: a ``mode`` declaration's ``forbids move attack transport``)
forbids it to do.

The modes are compiled (``dsl.compiled.modes``), so a phase may ask it of every unit it offers.
"""

from __future__ import annotations

from ..dsl.compiled.modes import Mode
from .context import Context
from .state import Unit


def forbidding_mode(ctx: Context, unit: Unit, what: str) -> Mode | None:
    """The unit's mode when it ``forbids`` ``what`` (move, attack, transport), else ``None``."""
    mode = ctx.rules.mode(unit.mode)
    return mode if mode is not None and what in mode.forbids else None


def mode_forbids(ctx: Context, unit: Unit, what: str) -> bool:
    """Whether the unit's mode ``forbids`` ``what``."""
    return forbidding_mode(ctx, unit, what) is not None

