"""Reading the text of a rules, scenario or map file, refusing what is not a plain, small file.

A path the user names may be a FIFO (reading waits for a writer that never comes), a device
(``/dev/zero`` never ends), a folder, a path the system refuses (too long, a NUL character) or
a file too large to parse in reasonable memory.  ``read_source`` turns each into a
``SourceError`` with a reason fit for a message, so that every reader reports it as a
diagnostic instead of hanging or raising ``OSError``/``ValueError``.

The text is decoded as UTF-8 with universal newlines (``\\r\\n`` and ``\\r`` become ``\\n``),
as ``Path.read_text`` does.

Limits: the check and the read use one open file (no race between them), but a file that grows
while it is read is cut at ``MAX_FILE_BYTES + 1`` bytes and refused.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

MAX_FILE_BYTES = 1024 * 1024
"""The largest file read, in bytes: ten times the largest shipped rulebook."""
MAX_TOTAL_BYTES = 4 * MAX_FILE_BYTES
"""The most bytes one rulebook's files (with their includes and extends) may hold together."""
MAX_FILES = 256
"""The most distinct files one rulebook may be made of."""

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
"""Opening a FIFO without it waits for a writer; regular files ignore it."""
_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


class SourceError(Exception):
    """A file warbook will not read, and why (``reason``, a phrase for a message)."""

    def __init__(self, reason: str, missing: bool = False):
        super().__init__(reason)
        self.reason = reason
        self.missing = missing
        """The path names nothing (the caller may suggest what it could have meant)."""


def megabytes(size: int) -> str:
    """``1 MB``: a byte count as the limits are written in messages (in bytes when not whole MB)."""
    return f"{size // (1024 * 1024)} MB" if size and size % (1024 * 1024) == 0 else f"{size} bytes"


def read_source(path: str | os.PathLike, limit: int | None = None) -> str:
    """The UTF-8 text of the regular file at ``path``, of at most ``limit`` bytes
    (``MAX_FILE_BYTES`` by default).

    Raises:
        SourceError: when the path names nothing (``missing``), cannot be opened, is not a
            regular file, is larger than the limit, or is not UTF-8 text.
    """
    limit = MAX_FILE_BYTES if limit is None else limit
    fd = _open(path)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in _KINDS if test(info.st_mode)), "something else")
            raise SourceError(f"it is {kind}, not a regular file")
        data = _read_at_most(fd, limit + 1) if info.st_size <= limit else b""
    finally:
        os.close(fd)
    if info.st_size > limit or len(data) > limit:
        raise SourceError(f"it is larger than {megabytes(limit)}, the most a file may hold")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SourceError("not UTF-8 text") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _read_at_most(fd: int, size: int) -> bytes:
    """Up to ``size`` bytes from ``fd`` (fewer only at the end of the file)."""
    chunks, left = [], size
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _open(path: str | os.PathLike) -> int:
    """A read-only descriptor of ``path``, without waiting on a FIFO."""
    try:
        return os.open(path, os.O_RDONLY | _NONBLOCK)
    except ValueError:
        raise SourceError("the path holds a NUL character") from None
    except FileNotFoundError:
        raise SourceError("no such file", missing=True) from None
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            raise SourceError("the path is longer than the system allows") from None
        if exc.errno == errno.ENOTDIR:
            raise SourceError("no such file", missing=True) from None
        raise SourceError(exc.strerror or str(exc)) from None


def is_file(path: Path) -> bool:
    """``Path.is_file`` that says ``False`` for a path the system refuses (too long, a NUL)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def exists(path: Path) -> bool:
    """``Path.exists`` that says ``False`` for a path the system refuses (too long, a NUL)."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def is_dir(path: Path) -> bool:
    """``Path.is_dir`` that says ``False`` for a path the system refuses (too long, a NUL)."""
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def display_path(path: str | os.PathLike) -> str:
    """A path as diagnostics show it: relative to the current folder (an absolute one when there
    is no relative path, as across drives on Windows)."""
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)
