"""Where rulebooks are found: the shipped games' folders, the search path for ``extends "NAME"``
(the project's search paths, ``$WARBOOK_PATH``, the shipped rulebooks) and the header aliases a
rulebook may also be named by."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from .diagnostics import RulesError
from .parser import parse_text
from .sources import SourceError, is_file, read_source

_TOP_PACKAGE = __package__.rpartition(".")[0]
"""The package the shipped games are data of (``warbook``): the parent of this one."""


def shipped_folder(name: str) -> Path:
    """A folder of games shipped inside the ``warbook`` package: ``rulebooks`` or ``scenarios``.

    Found with ``importlib.resources``, so it is the installed package data after a regular
    install and the checkout's own folder after an editable one.  Limit: warbook must be
    installed as files (not imported from a zip), since rulebooks include one another by path.
    """
    from importlib import resources  # here, not at the top: a lint of one file needs no shipped game

    return Path(str(resources.files(_TOP_PACKAGE).joinpath(name)))


def shipped_rulebooks_dir() -> Path:
    """The shipped ``rulebooks/`` folder (see ``shipped_folder``)."""
    return shipped_folder("rulebooks")


def rulebook_aliases(path: Path) -> tuple[str, ...]:
    """The aliases a rulebook's header declares (``alias short, other-name``), in order."""
    return tuple(_aliases(path))


def search_path(project: Sequence[Path] = ()) -> list[Path]:
    """Folders searched by ``extends "name"``: the project's search paths (``dsl.config``), then
    ``$WARBOOK_PATH`` entries, then the shipped rulebooks."""
    extra = [Path(p) for p in os.environ.get("WARBOOK_PATH", "").split(os.pathsep) if p]
    return [*project, *extra, shipped_rulebooks_dir()]


def find_rulebook(name: str, project: Sequence[Path] = ()) -> Path | None:
    """A rulebook by file stem or by one of its header aliases (in the project's search paths
    first), or ``None``."""
    for folder in search_path(project):
        candidate = folder / f"{name}.rules"
        if is_file(candidate):
            return candidate
    for folder in search_path(project):
        for path in sorted(folder.glob("*.rules")) if folder.is_dir() else ():
            if name in _aliases(path):
                return path
    return None


def _aliases(path: Path) -> dict[str, None]:
    """The header's aliases as an ordered set."""
    try:
        parsed = parse_text(read_source(path), str(path))
    except (SourceError, RulesError):
        return {}
    out: dict[str, None] = {}
    for st in parsed.statements:
        if st.head.text == "rulebook":
            for item in st.block or ():
                if item.head.text == "alias":
                    out.update(dict.fromkeys(w.text for w in item.words[1:]))
    return out
