"""The user's cache folder, where warbook keeps what it builds once per machine.

The folder is ``$WARBOOK_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/warbook``, else
``~/.cache/warbook``.  Setting ``WARBOOK_CACHE_DIR`` to an empty string turns caching off.
Kept apart from its users (``dsl.lark_cache``, ``dsl.method_cache``, ``dsl.config``) so that
asking for the folder imports neither Lark nor attrs; ``keep`` and ``read_kept`` are the small
files of plain data and code they share.
"""

from __future__ import annotations

import marshal
import os
from pathlib import Path
from typing import Any


def cache_folder() -> Path | None:
    """Where built things are kept, or ``None`` when caching is turned off."""
    chosen = os.environ.get("WARBOOK_CACHE_DIR")
    if chosen is not None:
        return Path(chosen) if chosen else None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "warbook"


def read_kept(path: Path | None) -> Any:
    """What ``keep`` wrote to ``path`` (``marshal``), or ``None`` for no file, a damaged one, or none asked."""
    if path is None:
        return None
    try:
        with open(path, "rb") as stream:
            return marshal.loads(stream.read())
    except (OSError, EOFError, ValueError, TypeError):
        return None


def keep(path: Path, value: Any) -> bool:
    """Write ``value`` (plain data or code: ``marshal``) to ``path`` under a temporary name and move
    it into place, so a reader never sees half a file; whether it was written (a folder that
    cannot be written, or a value ``marshal`` cannot hold, means no cache, not an error)."""
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    try:
        data = marshal.dumps(value)
        path.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(data)
        os.replace(partial, path)
    except (OSError, ValueError):
        try:
            partial.unlink(missing_ok=True)
        except OSError:
            pass
        return False
    return True
