"""Reading a TOML file (a scenario, a map, the project's configuration): the file's text, then its
tables, and where each key stands in the text, so that every failure is a positioned diagnostic.

``tomllib`` raises more than ``TOMLDecodeError``: a whole number past Python's 4,300-digit
limit on converting text to ``int`` is a bare ``ValueError``, and arrays or tables nested a
few thousand deep exhaust the recursion limit.  ``parse_toml`` turns each into a diagnostic
of the caller's code at the line it can find, and ``read_toml_text`` reads the file as the
rules loader does (``dsl.sources``: regular files of bounded size only).

Limits: ``tomllib`` gives no position for the digit limit, so the line is that of the first
run of more than 4,300 digits; nesting too deep is placed on the first line.  ``tomllib``
keeps no positions, so ``TomlPositions`` finds keys by reading the text line by line: table
headers (``[a.b]``, ``[[a]]``, counted in order), then ``key =`` (or a dotted ``key.sub =``) in
the table's lines, then ``sub =`` further along the same line (an inline table).  An array of
tables written inline (``setup = [{...}]``) or a key split over lines is placed at the nearest
table or key found; the path (``$.setup[3].zone``) is then in the message.
"""

from __future__ import annotations

import re
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Union, get_args, get_origin

import attrs
from attrs import frozen

from .ast import Span
from .diagnostics import RulesError, diagnostic
from .sources import SourceError, read_source

_DIGIT_LIMIT = sys.get_int_max_str_digits() or 4300
_AT_LINE = re.compile(r"at line (\d+)")
_LONG_NUMBER = re.compile(rf"[0-9A-Fa-f_]{{{_DIGIT_LIMIT},}}")


def read_toml_text(path: str | Path, what: str) -> str:
    """The text of a TOML file (``what`` names it in messages: ``scenario``, ``map``).

    Raises:
        RulesError: E004 when the file is missing, is not a regular file, is too large or is
            not UTF-8 text.
    """
    try:
        return read_source(path)
    except SourceError as exc:
        raise unreadable(path, what, exc) from None


def unreadable(path: str | Path, what: str, exc: SourceError) -> RulesError:
    """The E004 of a TOML file that could not be read (``read_toml_text``)."""
    shown = str(path)
    message = f"no such {what} file {shown!r}" if exc.missing else f"cannot read {what} {shown!r}: {exc.reason}"
    return RulesError([diagnostic("E004", Span.point(shown), message)])


def parse_toml(text: str, shown: str, code: str) -> dict[str, Any]:
    """The tables of a TOML text.

    Raises:
        RulesError: ``code`` (E701 maps, E704 scenarios) at the line of the first problem.
    """
    import tomllib  # here: a configuration read before is kept parsed (dsl.config), and needs no parser

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        at = _AT_LINE.search(str(exc))  # Python before 3.14 gives the place only in the message
        line = getattr(exc, "lineno", None) or (int(at.group(1)) if at else 1)
        raise RulesError([diagnostic(code, Span.point(shown, line), f"not valid TOML: {exc}")]) from None
    except RecursionError:
        raise RulesError([diagnostic(code, Span.point(shown), "not valid TOML: arrays or tables nested too deep",
                                     "nest arrays and inline tables a few levels at most")]) from None
    except ValueError:
        found = _LONG_NUMBER.search(text)
        line = text.count("\n", 0, found.start()) + 1 if found else 1
        column = found.start() - text.rfind("\n", 0, found.start()) if found else 1
        raise RulesError([diagnostic(code, Span(shown, line, column, line, column + 1),
                                     f"a number has more than {_DIGIT_LIMIT} digits",
                                     "write numbers of a few digits")]) from None


KeyPath = tuple[Union[str, int], ...]
"""Where a value is in the file: keys and array indexes (``("setup", 3, "zone")``)."""


def show_path(path: KeyPath) -> str:
    """The path as cattrs writes it: ``$.setup[3].zone``."""
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


def toml_key(cls: type, name: str) -> str:
    """The TOML key of an attribute of an entry record."""
    return attrs.fields_dict(cls)[name].metadata.get("toml") or name


class TomlPositions:
    """Where tables and keys stand in a TOML text (see the module's limits)."""

    HEADER = re.compile(r"\s*(\[\[?)\s*([^\]\[]+?)\s*\]")

    def __init__(self, text: str):
        self.lines = text.splitlines()
        self.tables: list[tuple[KeyPath, int]] = []
        """(full path with array indexes, 0-based line) of each table header, in order."""
        counts: dict[tuple[str, ...], int] = {}
        for number, line in enumerate(self.lines):
            found = self.HEADER.match(line)
            if not found:
                continue
            names = tuple(n.strip().strip('"') for n in found.group(2).split("."))
            is_array = found.group(1) == "[["
            full: list[str | int] = []
            for k in range(1, len(names) + 1):
                full.append(names[k - 1])
                if names[:k] in counts and k < len(names):
                    full.append(counts[names[:k]])
            if is_array:
                counts[names] = counts.get(names, -1) + 1
                for key in [key for key in counts if len(key) > len(names) and key[:len(names)] == names]:
                    del counts[key]
                full.append(counts[names])
            self.tables.append((tuple(full), number))

    def locate(self, path: KeyPath) -> tuple[int, int, int]:
        """(line, column, width) of the value at ``path``: its key, else its table's header (1-based)."""
        best: KeyPath = ()
        start = None
        for full, number in self.tables:
            if len(full) > len(best) and path[:len(full)] == full:
                best, start = full, number
        begin = 0 if start is None else start + 1
        end = next((number for _, number in self.tables if number >= begin), len(self.lines))
        line, column, width = (1, 1, 0) if start is None else self.header(start)
        rest = path[len(best):]
        if not rest or not isinstance(rest[0], str):
            return line, column, width
        first = re.compile(rf'^\s*"?({re.escape(rest[0])})"?\s*[=.]')
        for number in range(begin, end):
            found = first.match(self.lines[number])
            if found:
                line, column, width = number + 1, found.start(1) + 1, len(rest[0])
                break
        else:  # a table written only through its sub-tables ([[KEY]] under a misspelt KEY)
            below = (*best, rest[0])
            return next((self.header(number) for full, number in self.tables if full[:len(below)] == below),
                        (line, column, width))
        text = self.lines[line - 1]
        for key in rest[1:]:
            if not isinstance(key, str):
                break
            found = re.compile(rf'(?<![\w-])"?({re.escape(key)})"?\s*=').search(text, column - 1 + width)
            if not found:
                break
            column, width = found.start(1) + 1, len(key)
        return line, column, width

    def header(self, number: int) -> tuple[int, int, int]:
        """(line, column, 0) of the table header on 0-based line ``number``."""
        text = self.lines[number]
        return number + 1, len(text) - len(text.lstrip()) + 1, 0


def value_at(raw: Any, path: KeyPath) -> Any:
    """The value at ``path`` under ``raw`` (``None`` where it is missing)."""
    for step in path:
        try:
            raw = raw[step]
        except (KeyError, IndexError, TypeError):
            return None
    return raw


@frozen
class Failure:
    """One leaf of a cattrs structuring error."""

    path: KeyPath
    owner: Any
    """The record class whose attribute failed (for a missing key: the table that lacks it)."""
    kind: Any
    """The type the value should have had."""
    metadata: Any
    error: BaseException


def iter_failures(error: BaseException, cls: Any, path: KeyPath) -> Iterator[Failure]:
    """Each leaf failure under a cattrs error raised structuring a ``cls`` at ``path``."""
    from cattrs import ClassValidationError, IterableValidationError  # here: reading good TOML needs no cattrs

    if isinstance(error, ClassValidationError):
        fields = attrs.fields_dict(cls)
        for exc in error.exceptions:
            note = next((n for n in getattr(exc, "__notes__", ()) if hasattr(n, "name")), None)
            if note is None:
                yield from iter_failures(exc, cls, path)
                continue
            attribute = fields[note.name]
            step = (*path, toml_key(cls, note.name))
            if isinstance(exc, ExceptionGroup):
                yield from iter_failures(exc, _inner(attribute.type), step)
            else:
                yield Failure(step, cls, attribute.type, attribute.metadata, exc)
    elif isinstance(error, IterableValidationError):
        for exc in error.exceptions:
            note = next((n for n in getattr(exc, "__notes__", ()) if hasattr(n, "index")), None)
            step = (*path, note.index) if note is not None else path
            kind = note.type if note is not None else cls
            if isinstance(exc, ExceptionGroup):
                yield from iter_failures(exc, _inner(kind), step)
            else:
                yield Failure(step, cls, kind, None, exc)
    else:
        yield Failure(path, cls, cls, None, error)


def _inner(kind: Any) -> Any:
    """The type an attribute's structuring descends into (``ZoneTable | None`` → ``ZoneTable``)."""
    args = [a for a in get_args(kind) if a is not type(None)]
    if get_origin(kind) in (Union, types.UnionType) and len(args) == 1:
        return _inner(args[0])
    if get_origin(kind) is tuple and args and attrs.has(args[0]):
        return args[0]
    return kind
