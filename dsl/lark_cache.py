"""The grammar's LALR tables, built once per machine and kept in the user's cache folder.

Building warbook's parser costs most of a ``warbook lint`` run: Lark analyses the grammar
and, when ``interegular`` is installed, checks every pair of terminals for collisions.  The
tables depend only on the grammar text, the options, and the Lark and Python versions, so
they are saved (Lark's own ``cache=`` format) under a name that hashes all four, and later
runs load them.  The file is written under a temporary name and moved into place, so a run
killed mid-write or two test workers building at once never leave a half-written cache; a
folder that cannot be written means no cache, not an error.

The folder is ``dsl.cache_dir.cache_folder()``; an empty ``WARBOOK_CACHE_DIR`` turns caching off.
"""

from __future__ import annotations

import hashlib
import os
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import lark
from lark import Lark

from .cache_dir import cache_folder

__all__ = ["build_lark", "cache_folder", "cache_key", "grammar_text"]

GRAMMAR = "grammar.lark"


def grammar_text() -> str:
    return resources.files(__package__).joinpath(GRAMMAR).read_text(encoding="utf-8")


def cache_key(text: str, options: dict[str, Any]) -> str:
    """A digest of everything the tables depend on (the transformer is not among them)."""
    shown = sorted((name, repr(value)) for name, value in options.items() if name != "transformer")
    digest = hashlib.sha256("\0".join([text, repr(shown), lark.__version__, repr(sys.version_info[:2])]).encode())
    return digest.hexdigest()[:24]


def build_lark(folder: Path | None = None, **options: Any) -> Lark:
    """The grammar's LALR parser with ``options``, its tables read from ``folder`` when saved
    there before, and saved there otherwise (``folder`` defaults to ``cache_folder()``)."""
    text = grammar_text()
    folder = cache_folder() if folder is None else folder
    if folder is None:
        return Lark(text, parser="lalr", **options)
    path = folder / f"parser-{cache_key(text, options)}.lark"
    if path.is_file():
        return Lark(text, parser="lalr", cache=str(path), **options)
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return Lark(text, parser="lalr", **options)
    parser = Lark(text, parser="lalr", cache=str(partial), **options)
    try:
        os.replace(partial, path)
    except OSError:  # the folder refused the write: Lark logged it and built without a cache
        partial.unlink(missing_ok=True)
    return parser
