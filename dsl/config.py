"""The project's configuration: ``warbook.toml``, or ``[tool.warbook]`` in ``pyproject.toml``.

Found as ruff finds its own: walking up from the file being linted or loaded (or from the
current folder), the first folder holding a ``warbook.toml``, or a ``pyproject.toml`` with a
``[tool.warbook]`` table, is the project's root; in one folder ``warbook.toml`` wins.  Read with
``tomllib`` (no code is run) and structured with one cattrs converter that forbids unknown keys;
every problem (bad TOML, an unknown key, a value of the wrong type or one warbook cannot use) is
an E009 diagnostic at the key, and the setting it spoils falls back to its default.

What it says (docs/config.md):

- ``include``: the files and folders ``warbook lint`` checks when given no path;
- ``search-paths``: folders, relative to the configuration's folder, that a rulebook may
  ``extends``/``include`` from besides its own folder, and where ``extends "NAME"`` looks first;
- ``[lint]``: ``select``, ``ignore``, ``fail-level``, ``output-format`` and ``per-file-ignores``
  (a glob, relative to the root, to the codes it silences), which command-line flags override.

Limits: a configuration is trusted as the rulebook's own folder is: whoever writes one may name
any folder as a search path.  Only ``.rules`` files are read through a search path.  The
configuration found is the nearest one; configurations do not extend one another.
"""

from __future__ import annotations

import fnmatch
import functools
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, ClassVar, NewType

import attrs
from attrs import field, frozen

from .ast import Span
from .cache_dir import cache_folder, keep, read_kept
from .diagnostics import CODES, Diagnostic, RulesError, diagnostic, did_you_mean
from .sources import SourceError, display_path, is_dir, is_file, read_source

if TYPE_CHECKING:
    from .toml_text import KeyPath, TomlPositions

CONFIG_FILES = ("warbook.toml", "pyproject.toml")
"""The files a project's configuration is read from, in the order they win within one folder."""
OUTPUT_FORMATS = ("concise", "full", "json", "sarif", "github")
"""What ``output-format`` (and ``warbook lint --output-format``) may be."""
FAIL_LEVELS = ("error", "warning", "info")
"""What ``fail-level`` may be, most severe first."""

Strings = NewType("Strings", tuple)
"""A list of strings."""
MEANS = {Strings: "a list of strings", str | None: "a string", dict[str, Strings]: "a table of glob = [codes]"}
"""What a value of each type must be, for the messages."""


def _toml(name: str) -> dict:
    return {"toml": name}


@frozen
class LintTable:
    """``[lint]``: what ``warbook lint`` reports and how, unless a flag says otherwise."""

    WHAT: ClassVar[str] = "[lint]"
    select: Strings = ()
    ignore: Strings = ()
    fail_level: str | None = field(default=None, metadata=_toml("fail-level"))
    output_format: str | None = field(default=None, metadata=_toml("output-format"))
    per_file_ignores: dict[str, Strings] = field(factory=dict, metadata=_toml("per-file-ignores"))


@frozen
class ConfigTable:
    """The configuration's keys as written (``warbook.toml``'s top level, or ``[tool.warbook]``)."""

    WHAT: ClassVar[str] = "the configuration"
    include: Strings = ()
    search_paths: Strings = field(default=(), metadata=_toml("search-paths"))
    lint: LintTable = field(factory=LintTable)


@frozen
class Config:
    """A project's configuration, resolved: paths absolute, values checked."""

    root: Path
    """The folder of the configuration file (the current folder when there is none)."""
    path: Path | None = None
    """The configuration file, ``None`` when none was found."""
    include: tuple[Path, ...] = ()
    """What ``warbook lint`` with no path checks; the root itself when empty."""
    search_paths: tuple[Path, ...] = ()
    """Folders a rulebook may extend or include from besides its own, resolved."""
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    fail_level: str | None = None
    output_format: str | None = None
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(glob relative to the root, code prefixes) pairs, in the file's order."""

    def ignored_codes(self, path: str | os.PathLike) -> tuple[str, ...]:
        """The code prefixes ``per-file-ignores`` silences for ``path``: a glob matches the path
        relative to the root (``*`` crosses folders, as in ruff), or, with no ``/``, its name."""
        target = Path(path).resolve()
        try:
            relative = target.relative_to(self.root).as_posix()
        except ValueError:
            return ()
        return tuple(code for pattern, codes in self.per_file_ignores
                     if fnmatch.fnmatchcase(relative, pattern)
                     or ("/" not in pattern and fnmatch.fnmatchcase(target.name, pattern))
                     for code in codes)


def _strings(value: Any, _: Any) -> tuple[str, ...]:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise ValueError("not a list of strings")


def _text(value: Any, _: Any) -> str:
    if isinstance(value, str):
        return value
    raise ValueError("not a string")


HOOKS = {Strings: _strings, str: _text}
"""The converter's own hooks for the leaf types; ``structure_plain`` calls the same functions."""
TABLES = (LintTable, ConfigTable)


@functools.cache
def converter():
    """The one converter configurations are read with (made, and cattrs imported, only when a
    configuration is not plain: see ``structure_plain``)."""
    from cattrs.gen import make_dict_structure_fn, override
    from cattrs.preconf.tomllib import make_converter

    made = make_converter(forbid_extra_keys=True)
    for kind, hook in HOOKS.items():
        made.register_structure_hook(kind, hook)
    for cls in TABLES:
        attrs.resolve_types(cls)
        renames = {a.name: override(rename=a.metadata["toml"]) for a in attrs.fields(cls) if "toml" in a.metadata}
        made.register_structure_hook(cls, make_dict_structure_fn(cls, made, _cattrs_forbid_extra_keys=True, **renames))
    return made


class _NotPlain(Exception):
    """A value ``structure_plain`` leaves to the converter."""


def structure_plain(data: Any, cls: type) -> Any:
    """``data`` structured as ``cls`` without cattrs, when it is plainly valid: every key one of
    the table's, every value of the shape its type takes, read by the converter's own hooks
    (``HOOKS``); ``None`` otherwise, and the converter reads it (and reports what is wrong).

    Why: importing cattrs and making the converter cost more than linting a rules file, and most
    configurations are a few lists of strings.  This only builds what the converter would build
    from the same hooks; it decides nothing the converter does not (``tests/lint/test_config.py``
    checks the two agree on any table).
    """
    try:
        return _plain(data, cls)
    except _NotPlain:
        return None


@functools.cache
def _table_fields(cls: type) -> dict[str, tuple[str, Any]]:
    """A table's TOML keys, each to its attribute's name and type."""
    attrs.resolve_types(cls)
    return {a.metadata.get("toml", a.name): (a.name, a.type) for a in attrs.fields(cls)}


def _plain(value: Any, kind: Any) -> Any:
    if kind in TABLES:
        fields = _table_fields(kind)
        if not isinstance(value, dict) or not value.keys() <= fields.keys():
            raise _NotPlain
        return kind(**{fields[key][0]: _plain(item, fields[key][1]) for key, item in value.items()})
    if kind == str | None:
        kind = str
    elif kind == dict[str, Strings]:
        if not isinstance(value, dict):
            raise _NotPlain
        return {_plain(key, str): _plain(item, Strings) for key, item in value.items()}
    if kind not in HOOKS:
        raise _NotPlain
    try:
        return HOOKS[kind](value, kind)
    except ValueError:
        raise _NotPlain from None


def find_config(start: str | os.PathLike) -> Path | None:
    """The configuration that governs ``start`` (a file or a folder): the nearest ``warbook.toml``,
    or ``pyproject.toml`` with a ``[tool.warbook]`` table, in its folder or a folder above."""
    folder = Path(start).resolve()
    if not is_dir(folder):
        folder = folder.parent
    for candidate in (folder, *folder.parents):
        if is_file(candidate / "warbook.toml"):
            return candidate / "warbook.toml"
        pyproject = candidate / "pyproject.toml"
        if is_file(pyproject) and _has_warbook_table(pyproject):
            return pyproject
    return None


def _has_warbook_table(pyproject: Path) -> bool:
    """Whether a ``pyproject.toml`` configures warbook (a bad one that does is reported, not skipped)."""
    try:
        text = read_source(pyproject)
    except SourceError:
        return False
    return "tool.warbook" in text or "[tool]" in text and "warbook" in text


def config_for(start: str | os.PathLike | None = None) -> tuple[Config, list[Diagnostic]]:
    """The configuration that governs ``start`` (the current folder by default), and its problems
    (E009); a default ``Config`` rooted at the current folder when there is none."""
    found = find_config(start if start is not None else Path.cwd())
    if found is None:
        return Config(Path.cwd().resolve()), []
    try:
        info = found.stat()
    except OSError:
        return load_config(found)
    config, problems = _load_unchanged(found, (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns))
    return config, list(problems)


@functools.lru_cache(maxsize=64)
def _load_unchanged(path: Path, _stamp: tuple[int, ...]) -> tuple[Config, tuple[Diagnostic, ...]]:
    """``load_config``, read again only when the file has changed (each rulebook loaded under a
    project finds its configuration)."""
    config, problems = load_config(path)
    return config, tuple(problems)


def load_config(path: Path) -> tuple[Config, list[Diagnostic]]:
    """The configuration in ``path`` (``warbook.toml`` or a ``pyproject.toml``) and its problems;
    never raises for bad input.  A configuration read before and without problems is read without
    importing ``dsl.toml_text`` (its parser and its positions of keys serve only the first reading
    and the messages)."""
    path = Path(path).resolve()
    reader = _Reader(path)
    try:
        text = read_source(path)
    except SourceError as exc:
        from .toml_text import unreadable

        return Config(path.parent, path), list(unreadable(path, "configuration", exc).diagnostics)
    try:
        data = parsed_config(text, str(reader.shown), _parse_toml)
    except RulesError as exc:
        return Config(path.parent, path), list(exc.diagnostics)
    reader.text = text
    if path.name == "pyproject.toml":
        reader.prefix = ("tool", "warbook")
        tool = data.get("tool", {})
        data = tool.get("warbook", {}) if isinstance(tool, dict) else None
        if not isinstance(data, dict):
            reader.report((), "'tool.warbook' must be a table")
            return Config(path.parent, path), reader.problems
    return reader.resolve(reader.structure(data)), reader.problems


KEPT_CONFIGS = 8
"""How many configuration texts ``parsed_config`` keeps parsed (the most recent)."""


def _parse_toml(text: str, shown: str, code: str) -> dict:
    from .toml_text import parse_toml

    return parse_toml(text, shown, code)


def parsed_config(text: str, shown: str, parse: Callable[[str, str, str], dict]) -> dict:
    """``parse(text, shown, "E009")``, kept by text in the cache folder (``dsl.cache_dir``), so a
    configuration read before needs no TOML parser (importing ``tomllib`` was a tenth of a
    ``warbook lint`` process).  A text that does not parse is not kept; it raises every time.

    Raises:
        RulesError: E009 for text that is not TOML.
    """
    folder = cache_folder()
    path = folder / f"configs-{sys.implementation.cache_tag}.marshal" if folder is not None else None
    kept = read_kept(path)
    kept = kept if isinstance(kept, dict) else {}
    found = kept.get(text)
    if isinstance(found, dict):
        return found
    data = parse(text, shown, "E009")
    if path is not None:
        recent = dict(list(kept.items())[1 - KEPT_CONFIGS:])
        keep(path, recent | {text: data})  # a date or time in it (not plain data) means not kept
    return data


class _Reader:
    """One configuration file: its values structured and checked, problems kept as E009s."""

    def __init__(self, path: Path):
        self.path = path
        self.shown = display_path(path)
        self.text = ""
        self.positions: TomlPositions | None = None
        """Where the text's keys stand, found at the first problem reported."""
        self.prefix: KeyPath = ()
        self.problems: list[Diagnostic] = []

    def report(self, where: KeyPath, message: str, hint: str | None = None) -> None:
        if self.positions is None:
            from .toml_text import TomlPositions

            self.positions = TomlPositions(self.text)
        line, column, width = self.positions.locate((*self.prefix, *where))
        self.problems.append(diagnostic("E009", Span(self.shown, line, column, line, column + width), message, hint))

    def structure(self, data: dict) -> ConfigTable:
        """The table as a ``ConfigTable``; on a problem, each key that failed reported and left out."""
        plain = structure_plain(data, ConfigTable)
        if plain is not None:
            return plain
        from cattrs import ClassValidationError, ForbiddenExtraKeysError

        from .toml_text import iter_failures

        try:
            return converter().structure(data, ConfigTable)
        except (ClassValidationError, ForbiddenExtraKeysError) as error:
            bad = [path for failure in iter_failures(error, ConfigTable, ()) for path in self.report_failure(failure)]
            rest = _without(data, bad)
            return self.structure(rest) if rest != data else ConfigTable()

    def report_failure(self, failure) -> list[KeyPath]:
        """Report one cattrs failure; the paths of the keys to leave out."""
        from cattrs import ForbiddenExtraKeysError

        from .toml_text import show_path, toml_key

        exc, where = failure.error, failure.path
        if isinstance(exc, ForbiddenExtraKeysError):
            known = [toml_key(exc.cl, a.name) for a in attrs.fields(exc.cl)]
            for key in sorted(exc.extra_fields):
                self.report((*where, key), f"unknown key {key!r} in {exc.cl.WHAT}",
                            did_you_mean(key, known) or f"{exc.cl.WHAT} takes: {', '.join(known)}")
            return [(*where, key) for key in exc.extra_fields]
        shown = repr(where[-1]) if where and isinstance(where[-1], str) else show_path(where)
        self.report(where, f"{shown} must be {MEANS.get(failure.kind, 'a table')}")
        return [where[:3]]

    def resolve(self, table: ConfigTable) -> Config:
        """The ``Config`` of a structured table, each value checked (a bad one reported, dropped)."""
        root = self.path.parent
        lint = table.lint
        return Config(
            root, self.path,
            include=tuple((root / text).resolve() for text in table.include
                          if self.relative(("include",), text) and self.exists(("include",), text, root)),
            search_paths=tuple((root / text).resolve() for text in table.search_paths
                               if self.relative(("search-paths",), text) and self.is_folder(text, root)),
            select=self.prefixes(("lint", "select"), lint.select),
            ignore=self.prefixes(("lint", "ignore"), lint.ignore),
            fail_level=self.choice(("lint", "fail-level"), lint.fail_level, FAIL_LEVELS),
            output_format=self.choice(("lint", "output-format"), lint.output_format, OUTPUT_FORMATS),
            per_file_ignores=tuple((glob, self.prefixes(("lint", "per-file-ignores", glob), codes))
                                   for glob, codes in lint.per_file_ignores.items()),
        )

    def relative(self, where: KeyPath, text: str) -> bool:
        if Path(text).is_absolute() or text.startswith("~"):
            self.report(where, f"{text!r} must be relative to the configuration's folder",
                        "a project's configuration names its folders relative to itself, so it can be moved whole")
            return False
        return True

    def exists(self, where: KeyPath, text: str, root: Path) -> bool:
        if is_file(root / text) or is_dir(root / text):
            return True
        self.report(where, f"{text!r} names nothing in {display_path(root)!r}")
        return False

    def is_folder(self, text: str, root: Path) -> bool:
        if is_dir(root / text):
            return True
        self.report(("search-paths",), f"search path {text!r} is not a folder of {display_path(root)!r}")
        return False

    def prefixes(self, where: KeyPath, codes: tuple[str, ...]) -> tuple[str, ...]:
        kept = []
        for code in codes:
            if any(known.startswith(code.upper()) for known in CODES) and code.strip():
                kept.append(code.upper())
            else:
                self.report(where, f"no code starts with {code!r}", did_you_mean(code.upper(), CODES))
        return tuple(kept)

    def choice(self, where: KeyPath, value: str | None, choices: tuple[str, ...]) -> str | None:
        if value is None or value in choices:
            return value
        self.report(where, f"{where[-1]!r} must be one of {', '.join(choices)}, not {value!r}",
                    did_you_mean(value, choices))
        return None


def _without(data: dict, paths: list[KeyPath]) -> dict:
    """``data`` with the values at ``paths`` left out (each path of string keys)."""
    out = dict(data)
    for path in paths:
        table = out
        for key in path[:-1]:
            if not isinstance(table.get(key), dict):
                break
            table[key] = table = dict(table[key])
        else:
            if path and isinstance(path[-1], str):
                table.pop(path[-1], None)
    return out

