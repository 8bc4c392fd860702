"""The user's cache folder, where warbook keeps what it builds once per machine.

The folder is ``$WARBOOK_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/warbook``, else
``~/.cache/warbook``.  Setting ``WARBOOK_CACHE_DIR`` to an empty string turns caching off.
Kept apart from its users (``dsl.lark_cache``, ``dsl.method_cache``) so that asking for the
folder imports neither Lark nor attrs.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_folder() -> Path | None:
    """Where built things are kept, or ``None`` when caching is turned off."""
    chosen = os.environ.get("WARBOOK_CACHE_DIR")
    if chosen is not None:
        return Path(chosen) if chosen else None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "warbook"
