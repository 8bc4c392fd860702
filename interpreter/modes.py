"""What a unit's mode (its orders: a ``mode`` declaration's ``forbids move attack transport``)
forbids it to do.

Read once per compiled ``Rules``, mode and action, so a phase may ask it of every unit it offers.
"""

from __future__ import annotations

from .caches import rules_cache
from .context import Context
from .state import Unit


def mode_forbids(ctx: Context, unit: Unit, what: str) -> bool:
    """Whether the unit's mode ``forbids`` ``what``; read once per ``Rules``, mode and ``what``."""
    if not unit.mode:
        return False
    cache = rules_cache(ctx.rules).setdefault("mode_forbids", {})
    key = (unit.mode, what)
    found = cache.get(key)
    if found is None:
        mode = ctx.rulebook.get("mode", unit.mode)
        found = cache[key] = mode is not None and any(p.has(what) for p in mode.all("forbids"))
    return found

