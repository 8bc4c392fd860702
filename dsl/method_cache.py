"""The methods attrs writes for warbook's record classes, compiled once per machine.

attrs gives each class its ``__init__``, ``__eq__``, ``__hash__``, ``__repr__`` … by writing
their source text and compiling it when the class is built, at import.  For the hundred record
classes that ``warbook lint`` imports, that compiling was about a quarter of the process's
instructions.  Compiling is a pure function of the text, its file name and the compiler flags, so
the code objects are kept (``marshal``, as Python keeps a module's bytecode in ``__pycache__``) in
the user's cache folder (``dsl.cache_dir``), one folder per Python version and one file per module,
keyed by the text's file name and hash (``text_key``: the hash Python checks a hash-based
``.pyc`` with); a later process reads the files of the modules it imports and runs the kept code
instead of compiling the same text again.  What attrs does with the code, and so every class, is
unchanged.

Only the classes of warbook's own modules and of attrs' are kept (attrs names each text after its
class, so a class whose fields change gets a new entry, and the old one is dropped when the file is
written again).  Files are written at exit, only when something was compiled, under a temporary name
and moved into place; a missing, damaged or unwritable file means compiling, never an error.

``install()`` (called by ``dsl/__init__`` before any record class is built) wraps the one function
of attrs that compiles (``attr._make._compile_and_eval``); an attrs without it is left alone.  When
attrs is not imported yet, the function is wrapped as soon as ``attr._make`` has run, before the
rest of the package builds its own classes, and the name ``compile`` in ``attr._make`` is the
cache's while that module runs and builds its own (28 method texts in all, 20 M instructions of
compiling in every process that imports attrs).
"""

from __future__ import annotations

import __future__

import atexit
import re
import sys
from importlib.util import source_hash
from pathlib import Path
from types import CodeType, ModuleType
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping

from .cache_dir import cache_folder, keep, read_kept

if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec

KEPT = (" warbook.", " attr.")
"""What attrs' file name for a class's methods holds when the class is warbook's or attrs' own
(``<attrs generated methods warbook.dsl.effects.Retreat>``): the classes whose code is kept."""
BUILDER = "attr._make"
"""attrs' module that compiles."""
FORMAT = 2
"""The shape of a file's contents, ``(FORMAT, Kept)``: a file of another shape is not read."""


SALT = "<type hash>"
"""What stands for the class's type hash in a kept text (below)."""
_SUFFIX = re.compile(r"-[0-9]+>$")


def type_hash(filename: str) -> int:
    """The number attrs writes into a class's ``__hash__`` (``hash`` of a name made from the
    class's, so it changes with ``PYTHONHASHSEED``): texts are kept with it taken out, and their
    code given the number of the process that runs it."""
    qualified = _SUFFIX.sub(">", filename).split(" ", 3)[-1]
    return hash(f"<attrs generated hash {qualified}")


def text_key(text: str) -> bytes:
    """What a kept text is known by: its hash (a file keeps hashes, not texts, so a process reads
    a third less to find its code)."""
    return source_hash(text.encode())


Place = tuple[int, ...]
"""Where a constant is in a code object: the indexes, through the ``co_consts`` of the code and
of the functions it defines and through constant tuples, that lead to it."""


def places_of(const: Any, value: int, at: Place = ()) -> Iterator[Place]:
    """Each place of the int ``value`` in ``const`` (a code object, a tuple or a constant); a
    frozenset holding it has no place (``ValueError``: its order is not kept)."""
    if type(const) is int:
        if const == value:
            yield at
    elif type(const) is tuple or isinstance(const, CodeType):
        for index, item in enumerate(const if type(const) is tuple else const.co_consts):
            yield from places_of(item, value, (*at, index))
    elif type(const) is frozenset and value in const:
        raise ValueError("a constant in a frozenset has no place")


def _places(code: CodeType, value: int) -> tuple[Place, ...] | None:
    try:
        return tuple(places_of(code, value))
    except ValueError:
        return None


def with_constant_at(code: CodeType, places: tuple[Place, ...], new: int) -> CodeType:
    """``code`` with the constant at each of ``places`` made ``new``: only the code objects and
    tuples on the way to it are rebuilt (``with_constant`` would walk every constant)."""
    for place in places:
        code = _put(code, place, new)
    return code


def _put(const: Any, place: Place, new: int) -> Any:
    if not place:
        return new
    index, rest = place[0], place[1:]
    items = list(const.co_consts if isinstance(const, CodeType) else const)
    items[index] = _put(items[index], rest, new)
    return const.replace(co_consts=tuple(items)) if isinstance(const, CodeType) else tuple(items)


def with_constant(code: CodeType, old: int, new: int) -> CodeType:
    """``code`` (and the functions it defines) with the constant ``old`` made ``new``, also
    inside constant tuples (a class without fields hashes the folded constant ``(hash,)``)."""
    return code.replace(co_consts=tuple(_replaced(c, old, new) for c in code.co_consts))


def _replaced(const: Any, old: int, new: int) -> Any:
    if type(const) is int:
        return new if const == old else const
    if type(const) is tuple:
        return tuple(_replaced(c, old, new) for c in const)
    if type(const) is frozenset:
        return frozenset(_replaced(c, old, new) for c in const)
    if isinstance(const, CodeType):
        return with_constant(const, old, new)
    return const


def kept(filename: str) -> bool:
    """Whether the code of the methods attrs names ``filename`` is kept (``KEPT``)."""
    return any(part in filename for part in KEPT)


def cache_dir(folder: Path) -> Path:
    """The folder of kept code for this Python (its version and optimisation level) and this shape
    of file (``FORMAT``: a warbook that keeps another shape, in another environment, keeps its
    files apart rather than rewriting these)."""
    version = ".".join(map(str, sys.version_info[:3]))
    return folder / f"attrs-methods-{FORMAT}-{sys.implementation.cache_tag}-{version}-O{sys.flags.optimize}"


def module_of(filename: str) -> str:
    """The module (for a nested class, the enclosing class) that a text's class belongs to: its
    code is kept in that module's file, so a process reads the files of the modules it imports."""
    return _SUFFIX.sub(">", filename).split(" ", 3)[-1][:-1].rpartition(".")[0]


Kept = dict[tuple[str, bytes], tuple[CodeType, int, "tuple[Place, ...] | None"]]
"""Code by (file name, ``text_key`` of the text with ``SALT`` for the type hash), with the type hash
compiled into it and its places in the code (``None``: look for it everywhere)."""


def read_methods(path: Path | None) -> Kept:
    """The kept code of one module's file; empty for a missing, damaged or older file.  Its
    entries are checked as they are used (``usable``), not all as the file is read."""
    kept = read_kept(path)
    if type(kept) is not tuple or len(kept) != 2 or kept[0] != FORMAT or type(kept[1]) is not dict:
        return {}
    return kept[1]


def usable(entry: Any) -> bool:
    """Whether a kept entry has the shape ``Kept`` gives it (a damaged file means compiling)."""
    return (type(entry) is tuple and len(entry) == 3 and isinstance(entry[0], CodeType) and type(entry[1]) is int
            and (entry[2] is None or type(entry[2]) is tuple))


class MethodCache:
    """Compiles attrs' method texts, or takes the code kept for the same text and file name."""

    def __init__(self, folder: Path | None, flags: int) -> None:
        self.folder = folder
        self.flags = flags
        self.kept: dict[str, Kept] = {}
        """Each module's kept code, read when its first class is built."""
        self.compiled: Kept = {}
        """What this process compiled of warbook's, to be kept at exit."""

    def file(self, module: str) -> Path | None:
        return self.folder / f"{module}.marshal" if self.folder is not None else None

    def code(self, script: str, filename: str) -> CodeType:
        salt = type_hash(filename)
        ours = kept(filename)
        if ours:
            key = (filename, text_key(script.replace(str(salt), SALT)))
            module = module_of(filename)
            if module not in self.kept:
                self.kept[module] = read_methods(self.file(module))
            found = self.kept[module].get(key)
            if usable(found):
                code, kept_salt, places = found
                if kept_salt == salt:
                    return code
                return with_constant(code, kept_salt, salt) if places is None else with_constant_at(code, places, salt)
        code = compile(script, filename, "exec", self.flags, dont_inherit=True)
        if ours:
            self.compiled[key] = (code, salt, _places(code, salt))
        return code

    def compile_in(self, builder: ModuleType) -> Callable[..., CodeType]:
        """``compile`` as ``builder`` (``attr._make``) calls it, ``compile(script, filename,
        "exec")`` under its ``__future__`` flags, answered by this cache; any other call is the
        builtin's."""
        def compile_(source: Any, filename: str, mode: str, *args: Any, **kwargs: Any) -> CodeType:
            if mode != "exec" or args or kwargs or not isinstance(source, str):
                return compile(source, filename, mode, *args, **kwargs)
            self.flags = future_flags(builder)
            return self.code(source, filename)

        return compile_

    def compile_and_eval(self, script: str, globs: dict[str, Any] | None, locs: Mapping[str, object] | None = None,
                         filename: str = "") -> None:
        """``attr._make._compile_and_eval``'s signature and effect."""
        eval(self.code(script, filename), globs, locs)  # noqa: S307 - attrs' own generated methods, as attrs does

    def save(self) -> None:
        """Keep what was compiled, each module's file rewritten (older texts of the same classes
        replaced), atomically."""
        if self.folder is None or not self.compiled:
            return
        modules: dict[str, Kept] = {}
        for key, entry in self.compiled.items():
            modules.setdefault(module_of(key[0]), {})[key] = entry
        for module, compiled in modules.items():
            path = self.file(module)
            names = {filename for filename, _ in compiled}
            kept = {key: entry for key, entry in read_methods(path).items()
                    if type(key) is tuple and len(key) == 2 and key[0] not in names}
            if keep(path, (FORMAT, kept | compiled)):
                for key in compiled:
                    del self.compiled[key]


def install(folder: Path | None = None) -> MethodCache | None:
    """Make attrs compile through a ``MethodCache`` kept in ``folder`` (default: the cache
    folder; caching turned off: nothing installed).  Installing again keeps the first cache.
    Before attrs is imported, the cache is installed as ``attr._make`` is (``WrapOnImport``)."""
    folder = cache_folder() if folder is None else folder
    if BUILDER not in sys.modules and folder is not None:
        hook = WrapOnImport(folder)
        sys.meta_path.insert(0, hook)
        try:
            import attr._make  # noqa: F401 - runs the hook
        finally:
            if hook in sys.meta_path:
                sys.meta_path.remove(hook)
    import attr._make as builder  # the module whose compiling is cached; import attrs' public names elsewhere

    return wrap(builder, folder)


def future_flags(builder: ModuleType) -> int:
    """The ``__future__`` flags ``builder``'s (``attr._make``'s) own ``compile`` calls inherit."""
    feature = getattr(builder, "annotations", None)
    return feature.compiler_flag if feature is __future__.annotations else 0


def wrap(builder: ModuleType, folder: Path | None, cache: MethodCache | None = None) -> MethodCache | None:
    """Wrap ``builder``'s (``attr._make``'s) compiling in a ``MethodCache`` kept in ``folder``
    (``cache``: the one it compiled through while it ran, ``WrapOnImport``)."""
    original: Callable[..., None] | None = getattr(builder, "_compile_and_eval", None)
    if original is None:
        return None
    if isinstance(getattr(original, "__self__", None), MethodCache):
        return original.__self__
    if folder is None:
        return None
    if cache is None:
        cache = MethodCache(cache_dir(folder), future_flags(builder))
    cache.flags = future_flags(builder)
    builder._compile_and_eval = cache.compile_and_eval
    atexit.register(cache.save)
    return cache


class WrapOnImport:
    """An import finder for ``attr._make`` alone, found by the finders after it.  While the
    module runs, the name ``compile`` in it is the cache's (``MethodCache.compile_in``: attrs
    calls ``compile`` in one place, and a module's name comes before the builtin), so the classes
    it builds for itself come from kept code; once it has run, the name is taken away and its
    compiling wrapped (``wrap``), so the classes the rest of attrs builds do too.  It takes itself
    off ``sys.meta_path`` when asked, so it acts once."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        if name != BUILDER or self not in sys.meta_path:
            return None
        sys.meta_path.remove(self)
        for finder in sys.meta_path:
            found = getattr(finder, "find_spec", None)
            spec = found(name, path, target) if found is not None else None
            if spec is not None:
                break
        else:
            return None
        run = getattr(spec.loader, "exec_module", None)
        if run is None:
            return spec

        def exec_module(module: ModuleType) -> None:
            cache = MethodCache(cache_dir(self.folder), 0)
            module.compile = cache.compile_in(module)  # type: ignore[attr-defined] # for its own classes
            try:
                run(module)
            finally:
                vars(module).pop("compile", None)
            wrap(module, self.folder, cache)

        spec.loader.exec_module = exec_module  # type: ignore[union-attr] # this spec's own loader
        return spec
