"""What every subcommand shares: exit codes, argparse that never shows a traceback, reading and
writing files the way a serious tool does (size-bounded stdin, atomic writes), and printing
diagnostics on stderr."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from ...dsl.ast import Span
from ...dsl.diagnostics import RulesError, diagnostic
from ...dsl.sources import MAX_FILE_BYTES, is_dir
from .. import render

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class Formatter(argparse.HelpFormatter):
    """argparse's help formatter, which asks the terminal's width only when it writes help.

    argparse makes a formatter for every argument it adds (to check the argument's metavar), and
    each asked the width through ``shutil``: importing it was 7 M instructions of a ``warbook
    lint`` process that writes no help.  The width, once asked, is argparse's own."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None, **more: Any) -> None:
        super().__init__(prog, indent_increment, max_help_position, 0 if width is None else width, **more)
        if width is None:
            del self._width, self._max_help_position  # asked on first use, by __getattr__
            self._asked_help_position = max_help_position

    def __getattr__(self, name: str) -> int:
        if name not in ("_width", "_max_help_position") or "_asked_help_position" not in self.__dict__:
            raise AttributeError(name)
        import shutil

        self._width = shutil.get_terminal_size().columns - 2
        self._max_help_position = min(self._asked_help_position, max(self._width - 20, self._indent_increment * 2))
        return int(self.__dict__[name])


class Parser(argparse.ArgumentParser):
    """argparse that exits with 2 and a one-line message, never a traceback (and asks the
    terminal's width only to write help: ``Formatter``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"warbook: error: {message}\n")


def prefixes(text: str | None) -> list[str]:
    return [p.strip() for p in (text or "").split(",") if p.strip()]


def read_stdin() -> str:
    """Standard input, refused (E004) past the size of the largest rules file."""
    text = sys.stdin.read(MAX_FILE_BYTES + 1)
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:
        from ...dsl.sources import megabytes

        raise RulesError([diagnostic("E004", Span.point("<stdin>"), "cannot read '<stdin>': it is larger than "
                                     f"{megabytes(MAX_FILE_BYTES)}, the most a file may hold")])
    return text


def read_rules(path: str) -> str:
    """A rules file's text as written (a ``\\r\\n`` is kept, so the layout's ``\\n`` counts as a
    change); an E004 diagnostic when it cannot be read."""
    from ...dsl.sources import SourceError, read_source

    try:
        read_source(path)  # the checks every rules file passes: a regular file, within the size, UTF-8
        with open(path, encoding="utf-8", newline="") as handle:
            return handle.read()
    except SourceError as exc:
        message = f"no such rules file {path!r}" if exc.missing else f"cannot read {path!r}: {exc.reason}"
    except OSError as exc:
        message = f"cannot read {path!r}: {exc.strerror or exc}"
    raise RulesError([diagnostic("E004", Span.point(path), message)])


def write_atomically(target: Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8, line ends as given) to a temporary file beside ``target``
    (through a symbolic link) and rename it into place: an interrupted run leaves the old file whole
    and no half-written one.  A file written over keeps its permissions; a new one gets those a new
    file gets (the umask), not a temporary file's private ones."""
    import tempfile

    target = Path(os.path.realpath(target))
    try:
        mode = target.stat().st_mode & 0o7777
    except FileNotFoundError:
        mask = os.umask(0)
        os.umask(mask)
        mode = 0o666 & ~mask
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(name, mode)
        os.replace(name, target)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise


SKIPPED_FOLDERS = frozenset({"__pycache__", "node_modules", "venv", "build", "dist", "site-packages"})
"""Folders a folder argument does not descend into (nor into hidden ones: ``.git``, ``.venv``)."""


def expand(raw: str) -> list[str]:
    """A folder stands for every ``.rules`` and ``.toml`` file below it, in sorted order (as ruff
    takes folders), less hidden and build folders, the project's configuration files, and links
    that lead out of the folder."""
    from ...dsl.config import CONFIG_FILES

    path = Path(raw)
    if raw != "-" and is_dir(path):
        inside = path.resolve()
        found = sorted((*path.rglob("*.rules"), *path.rglob("*.toml")))
        return [str(p) for p in found if p.name not in CONFIG_FILES and p.resolve().is_relative_to(inside) and not any(
            part.startswith(".") or part in SKIPPED_FOLDERS for part in p.relative_to(path).parts[:-1])]
    return [raw]


def usage(message: str) -> int:
    print(f"warbook: error: {message}", file=sys.stderr)
    return EXIT_ERROR


def print_diagnostics(diagnostics) -> None:
    for d in diagnostics:
        print(render.concise(d), file=sys.stderr)
