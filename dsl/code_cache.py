"""attrs' generated methods, compiled once per machine and kept in the user's cache folder.

attrs builds a record class by writing the source of its methods (``__init__``, ``__eq__``,
``__hash__``, ``__repr__`` …) and compiling it: about half a millisecond a class, and loading
the language builds some ninety, the largest share of a ``warbook lint`` run.  The source
depends only on the class and the attrs version, so ``install`` has attrs look the code up
here first: compiled code is saved with ``marshal`` (as Python saves ``.pyc`` files) in
``cache_folder()`` when the process ends, and later processes read it instead of compiling.

The one thing in the source that changes from process to process is the number a class's
``__hash__`` mixes in (``hash()`` of a name, salted per process): it is taken out of the key
and put back into the code's constants.  The file is named after the Python bytecode and the
attrs build it holds code for, is written under a temporary name and moved into place (two
processes at once never leave half a file; the last one's entries win), keeps only the last
run's entries once it grows past ``MAX_ENTRIES``, and a file that cannot be read or written
means compiling as before, not an error.

The hook is attrs' module function ``_compile_and_eval(script, globs, locs, filename)``
(attrs 22.2 to 26 at least); with another attrs, ``install`` does nothing.  The folder is
``dsl.lark_cache``'s (``$WARBOOK_CACHE_DIR``, an empty value turns caching off).
"""

from __future__ import annotations

import atexit
import marshal
import os
import re
import sys
from pathlib import Path
from types import CodeType

MAX_ENTRIES = 4000

_TYPE_HASH = re.compile(r"[ \t]*(-?\d+),")
"""The number attrs' ``__hash__`` source mixes in (``hash((<number>, self.a, …))``), on the
line after ``_HASH_CALL``."""
_HASH_CALL = "hash((\n"
_STAND_IN = 0x5EED_C0DE_5EED_C0DE
"""Written in the type hash's place in the saved code, and replaced by the number on use."""
_SIGNATURE = ("script", "globs", "locs", "filename")


def cache_folder() -> Path | None:
    """Where compiled parser tables and code are kept, or ``None`` when caching is turned off:
    ``$WARBOOK_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/warbook``, else ``~/.cache/warbook``."""
    chosen = os.environ.get("WARBOOK_CACHE_DIR")
    if chosen is not None:
        return Path(chosen) if chosen else None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "warbook"


class CodeCache:
    """Compiled code by (file name, source), read from ``path`` and saved there again."""

    def __init__(self, path: Path):
        self.path = path
        self.codes = self._read()
        self.used: dict[str, CodeType] = {}
        self.compiled = 0
        """How many sources this process compiled (the others were read from the file)."""

    def _read(self) -> dict[str, CodeType]:
        try:
            found = marshal.loads(self.path.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            return {}
        return found if isinstance(found, dict) else {}

    def code(self, script: str, filename: str) -> CodeType:
        """The code ``compile(script, filename, "exec")`` gives, compiled at most once per machine."""
        source, number = _without_type_hash(script)
        key = f"{filename}\0{source}"
        code = self.codes.get(key)
        if type(code) is not CodeType:
            code = compile(source, filename, "exec", dont_inherit=True, flags=_FLAGS)
            self.codes[key] = code
            self.compiled += 1
        self.used[key] = code
        return code if number is None else _with_constant(code, _STAND_IN, number)

    def save(self) -> None:
        """Write the entries (this run's and those already in the file) back, if any is new."""
        if not self.compiled:
            return
        merged = {**self._read(), **self.used}
        if len(merged) > MAX_ENTRIES:
            merged = self.used
        partial = self.path.with_name(f"{self.path.name}.{os.getpid()}.partial")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            partial.write_bytes(marshal.dumps(merged))
            os.replace(partial, self.path)
        except (OSError, ValueError):
            partial.unlink(missing_ok=True) if partial.parent.is_dir() else None
        self.compiled = 0


def _without_type_hash(script: str) -> tuple[str, int | None]:
    """The script with its type hash replaced by ``_STAND_IN``, and the type hash (if any)."""
    at = script.find(_HASH_CALL)
    found = _TYPE_HASH.match(script, at + len(_HASH_CALL)) if at >= 0 else None
    if found is None:
        return script, None
    return f"{script[:found.start(1)]}{_STAND_IN}{script[found.end(1):]}", int(found[1])


def _with_constant(code: CodeType, old: int, new: int) -> CodeType:
    """``code`` with the constant ``old`` replaced by ``new``, in the nested functions that hold it."""
    consts = code.co_consts
    changed = tuple(new if type(c) is int and c == old else _with_constant(c, old, new)
                    if type(c) is CodeType and _holds(c, old) else c for c in consts)
    return code.replace(co_consts=changed)


def _holds(code: CodeType, value: int) -> bool:
    return any(type(c) is int and c == value or type(c) is CodeType and _holds(c, value) for c in code.co_consts)


_FLAGS = 0
"""The ``__future__`` flags of attrs' own ``compile`` (its module's), so the code is the same."""
_INSTALLED: list[CodeCache] = []


def install() -> CodeCache | None:
    """Have attrs compile through a ``CodeCache`` in ``cache_folder()`` (once per process); the
    cache, or ``None`` when caching is off or this attrs has no such hook."""
    global _FLAGS
    if _INSTALLED:
        return _INSTALLED[0]
    folder = cache_folder()
    import attr._make as make

    original = getattr(make, "_compile_and_eval", None)
    if folder is None or getattr(getattr(original, "__code__", None), "co_varnames", ())[:4] != _SIGNATURE:
        return None
    feature = getattr(make, "annotations", None)
    _FLAGS = getattr(feature, "compiler_flag", 0) if type(feature).__name__ == "_Feature" else 0
    cache = CodeCache(folder / f"attrs-{sys.implementation.cache_tag}-{_attrs_build(make)}.marshal")

    def compile_and_eval(script, globs, locs=None, filename=""):
        eval(cache.code(script, filename), globs, locs)

    make._compile_and_eval = compile_and_eval
    atexit.register(cache.save)
    _INSTALLED.append(cache)
    return cache


def _attrs_build(make) -> str:
    """Which attrs this is, without ``attr.__version__`` (read through importlib.metadata, slowly):
    its code file's size and time."""
    try:
        found = os.stat(make.__file__)
    except (OSError, TypeError):
        return "unknown"
    return f"{found.st_size}-{found.st_mtime_ns}"
