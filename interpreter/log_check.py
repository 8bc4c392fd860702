"""A save that proves itself: a log is read with care and checked, line by line, against its replay.

Reading.  Only a regular file is read (a FIFO or a device named as a log, or in its
header, never makes a replay wait), and at most ``MAX_LOG_BYTES``.  Lines are split on
``\\n`` alone, each one UTF-8 text holding one JSON object; a line nested too deep for
the JSON reader, or holding a number past Python's limit on digits, is a diagnostic at
that line, never a traceback.  The header's names of files and folders are bounded
(no NUL, no part longer than a file name may be) before any of them is looked up.

Replaying.  Every line after the header must be exactly the line the replay writes
(``entry_line``: the same JSON, spelt the same way): a forged result, an edited event
text, an added or removed roll or decision, a roll's ``n`` or dice, a decision's side
or kind all differ from what the replay writes, and the first line that differs is
reported with its number and what differs.  A log that stops at a decision the replay
also stops at (a game abandoned, or killed while the log was being kept as it went)
replays as an unfinished game.

Limits: the header is checked for what it says, not spelt byte for byte (its ``warbook``
version and ``files_at`` folder are information, not part of the game); a rulebook
whose declarations are all unchanged replays under a changed ``rulebook_hash`` when
part of it is shipped (layout and comments may change between versions of warbook).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from pathlib import PurePosixPath
from typing import Any

from ..dsl.ast import Span
from ..dsl.diagnostics import RulesError, diagnostic
from .actions import Action, IllegalActionError

MAX_LOG_BYTES = 256 * 1024 * 1024
"""The largest log a replay reads (a long game with its files embedded is a few megabytes)."""

MAX_PATH, MAX_NAME = 4096, 255
"""The longest path, and the longest part of a path, a header may name (POSIX's usual limits)."""

VERSIONS = (1, 2)
"""The versions of the log this warbook reads."""

HEADER_KEYS = {
    1: {"type", "warbook_log", "warbook", "seed", "scenario", "scenario_hash", "map_hash", "rulebook",
        "rulebook_hash", "declarations", "options"},
    2: {"type", "warbook_log", "warbook", "seed", "scenario", "scenario_hash", "map_hash", "rulebook",
        "rulebook_hash", "declarations", "options", "files", "files_at", "compact"},
}
"""The keys a header of each version may have."""

REQUIRED_KEYS = {
    1: ("scenario", "seed", "scenario_hash", "rulebook_hash"),
    2: ("scenario", "seed", "warbook", "scenario_hash", "map_hash", "rulebook_hash", "declarations"),
}
"""The keys a header of each version must have (``type`` and ``warbook_log`` are checked first)."""

_SHIPPED_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,99}")
_HASH = re.compile(r"[0-9a-f]{16}")
_LONG_NUMBER = re.compile(r"[0-9]{4000,}")
_SHOWN = 60
"""How many characters of a value a diagnostic shows before '…'."""


def bad(shown: str, line: int, message: str, hint: str | None = None, column: int = 1) -> RulesError:
    """The error of a log that does not prove itself: one E803 at its line."""
    return RulesError([diagnostic("E803", Span.point(shown, line, column), message, hint)])


def entry_line(entry: dict) -> str:
    """An entry as a line of the log, exactly as a save writes it and a replay checks it."""
    return json.dumps(entry, sort_keys=True, ensure_ascii=False, default=str)


# --- reading ------------------------------------------------------------------------------------

def read_regular(path: str | os.PathLike, limit: int = MAX_LOG_BYTES) -> bytes:
    """The bytes of a regular file, opened without waiting (a FIFO is refused, never read).

    Raises:
        OSError: when it cannot be read, is not a regular file or is larger than ``limit``.
        ValueError: for a path with a NUL in it.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError("it is not a regular file")
        if info.st_size > limit:
            raise OSError(f"larger than {limit // (1024 * 1024)} MB")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, 1024 * 1024)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise OSError(f"larger than {limit // (1024 * 1024)} MB")
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_log(path: str | os.PathLike) -> tuple[list[str], list[dict]]:
    """The log's lines and their entries, the header first, each line checked to be one JSON object.

    Raises:
        RulesError: an E803 at the first line that cannot be read, or at line 1 for the file.
    """
    shown = str(path)
    try:
        data = read_regular(path)
    except (OSError, ValueError) as exc:
        reason = "no such file" if isinstance(exc, FileNotFoundError) else \
            getattr(exc, "strerror", None) or str(exc)
        raise bad(shown, 1, f"cannot read log {shown!r}: {reason}") from None
    if not data:
        raise bad(shown, 1, "not a warbook log: no header line")
    raw = data.split(b"\n")
    if raw[-1] == b"":  # the newline that ends the last line; a last line without one is read too
        raw.pop()
    lines, entries = [], []
    for number, chunk in enumerate(raw, start=1):
        try:
            line = chunk.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise bad(shown, number, f"line {number}: not UTF-8 text", column=exc.start + 1) from None
        lines.append(line)
        entries.append(_entry(line, number, shown))
    return lines, entries


def _entry(line: str, number: int, shown: str) -> dict:
    if not line.strip():
        raise bad(shown, number, f"line {number}: an empty line (a log has one JSON object on every line)")
    try:
        entry = json.loads(line)
    except json.JSONDecodeError as exc:
        raise bad(shown, number, f"line {number}: not JSON: {exc.msg}", column=exc.colno) from None
    except RecursionError:
        raise bad(shown, number, f"line {number}: nested too deep to be a log entry") from None
    except ValueError:  # an integer past Python's limit on digits (sys.get_int_max_str_digits)
        long = _LONG_NUMBER.search(line)
        raise bad(shown, number, f"line {number}: a number too long to read", column=long.start() + 1 if long else 1) \
            from None
    if not isinstance(entry, dict):
        raise bad(shown, number, f"line {number}: not a log entry (a JSON object)")
    return entry


# --- the header's shape -------------------------------------------------------------------------

def check_header(head: dict, shown: str) -> int:
    """The header's version, once its keys, their types and every name of a file in it are checked.

    Raises:
        RulesError: an E803 at line 1 saying what is wrong.
    """
    if head.get("type") != "header":
        raise bad(shown, 1, "not a warbook log: no header line")
    version = head.get("warbook_log")
    if type(version) is not int or version not in VERSIONS:
        raise bad(shown, 1, f"the log is of version {_clip(version)}, which this warbook does not read "
                  f"(it reads versions {', '.join(map(str, VERSIONS))})", "replay it with the warbook that wrote it")
    unknown = sorted(set(head) - HEADER_KEYS[version])
    if unknown:
        raise bad(shown, 1, f"the header has a key a version-{version} log does not have: {_clip(unknown[0])}")
    if type(head.get("seed")) is not int or not _is_reference(head.get("scenario"), version) \
            or ("rulebook" in head and not _is_reference(head["rulebook"], version)):
        raise bad(shown, 1, "the header needs 'scenario' (a shipped name, an embedded file or a path) and 'seed' "
                  "(a whole number)")
    missing = [key for key in REQUIRED_KEYS[version] if key not in head]
    if missing:
        raise bad(shown, 1, f"the header has no {missing[0]!r}")
    for key in ("scenario_hash", "map_hash", "rulebook_hash"):
        if key in head and not (isinstance(head[key], str) and _HASH.fullmatch(head[key])):
            raise bad(shown, 1, f"the header's {key!r} must be 16 hexadecimal digits")
    declarations = head.get("declarations", {})
    if not isinstance(declarations, dict) or not all(isinstance(v, str) for v in declarations.values()):
        raise bad(shown, 1, "the header's 'declarations' must map declarations to their digests")
    if not isinstance(head.get("warbook", ""), str):
        raise bad(shown, 1, "the header's 'warbook' must be the version of warbook that wrote it")
    options = head.get("options", {})
    if not isinstance(options, dict) or not all(type(on) is bool for on in options.values()):
        raise bad(shown, 1, "the header's 'options' must map option names to true or false")
    files = head.get("files", {})
    if not isinstance(files, dict) or not all(isinstance(t, str) and is_safe_key(k) for k, t in files.items()):
        raise bad(shown, 1, "the header's 'files' must map relative paths (no '..') to file texts")
    if not (isinstance(head.get("files_at", ""), str) and is_safe_path(head.get("files_at", ""))):
        raise bad(shown, 1, "the header's 'files_at' must be a folder's path relative to the log")
    if head.get("compact", True) is not True:
        raise bad(shown, 1, "the header's 'compact' must be true (a full log has no 'compact')")
    return version


def _is_reference(value: Any, version: int) -> bool:
    """A version-1 path, or a version-2 ``{"shipped": NAME}`` or ``{"file": KEY}``."""
    if isinstance(value, str):
        return version == 1 and bool(value) and is_safe_path(value)
    if not isinstance(value, dict) or len(value) != 1:
        return False
    ((kind, name),) = value.items()
    return isinstance(name, str) and (kind == "shipped" and bool(_SHIPPED_NAME.fullmatch(name))
                                      or kind == "file" and is_safe_key(name))


def is_safe_path(text: str) -> bool:
    """Whether a path named in a header can be looked up at all: no NUL, no lone surrogate, and
    no longer than a system allows."""
    if "\0" in text or len(text) > MAX_PATH:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return all(len(part.encode("utf-8")) <= MAX_NAME for part in re.split(r"[/\\]", text))


def is_safe_key(key: str) -> bool:
    """Whether an embedded file's key stays inside the folder it is written to, and can be written."""
    parts = PurePosixPath(key).parts
    return bool(parts) and is_safe_path(key) and not PurePosixPath(key).is_absolute() and ".." not in parts \
        and "\\" not in key and ":" not in key


# --- the replay, line by line -------------------------------------------------------------------

def replay_lines(game: Any, lines: list[str], entries: list[dict], shown: str) -> None:
    """Replay the log's decisions and check that every line after the header is the one the replay
    writes; the log may stop at a decision the replay waits for (an unfinished game).

    ``lines`` and ``entries`` leave the header out: the first of them is line 2 of the file.

    Raises:
        RulesError: an E803 at the first line that differs, saying what differs.
    """
    done = 0
    while True:
        produced = game.log
        for index in range(done, len(produced)):
            number = index + 2
            if index >= len(lines):
                raise bad(shown, number, f"line {number}: the log ends at line {number - 1}, but the replay goes on "
                          f"with {_summary(produced[index])}")
            if lines[index] != entry_line(produced[index]):
                if lines[index].endswith("\r"):
                    raise bad(shown, number, f"line {number}: ends in a carriage return (the lines of a log end "
                              "in a line feed alone)", "convert the file's line ends back to LF")
                raise bad(shown, number, f"line {number}: {_difference(entries[index], produced[index])}")
        done = len(produced)
        if done == len(lines):
            return
        number, entry = done + 2, entries[done]
        decision = game.decision
        if decision is None:
            raise bad(shown, number, f"line {number}: the game is over on replay, but the log goes on with "
                      f"{_summary(entry)}")
        if entry.get("type") != "decision" or not isinstance(entry.get("choice"), str):
            raise bad(shown, number, f"line {number}: the replay waits here for {decision.side}'s {decision.kind} "
                      f"decision, but the log has {_summary(entry)}")
        _apply(game, entry["choice"], shown, number)


def _apply(game: Any, choice: str, shown: str, number: int) -> None:
    """Play a logged choice; one the replay does not offer is an E803 at its line."""
    try:
        game.apply(Action.parse(choice))
    except IllegalActionError as exc:
        raise bad(shown, number, f"line {number}: {exc}") from None


def log_digest(entries: list[dict]) -> str:
    """The SHA-256 of a full log's entries as a save writes them: what a compact log's last line
    records, so that its replay proves it regenerated the very log the game wrote."""
    digest = hashlib.sha256()
    for entry in entries:
        digest.update((entry_line(entry) + "\n").encode("utf-8"))
    return digest.hexdigest()


def digest_entry(entries: list[dict]) -> dict:
    """The last line of a compact log: how many entries the full log had, and their digest."""
    return {"type": "digest", "entries": len(entries), "sha256": log_digest(entries)}


def replay_compact(game: Any, lines: list[str], entries: list[dict], shown: str) -> None:
    """Replay a compact log: one ``{"choice": TEXT}`` line per decision, each checked to be legal
    where the replay waits, then its last line (``digest_entry``), checked against the digest of
    the full log the replay wrote, so that every roll and event is proved the same.  A compact log
    without that line (a game killed while it was kept) replays to its last decision.

    Raises:
        RulesError: an E803 at the first line that differs, saying what differs.
    """
    last = entries[-1] if entries and entries[-1].get("type") == "digest" else None
    for index, (line, entry) in enumerate(zip(lines, entries[: len(entries) - (last is not None)])):
        number = index + 2
        if set(entry) != {"choice"} or not isinstance(entry["choice"], str):
            raise bad(shown, number, f"line {number}: a compact log holds one {{\"choice\": TEXT}} per decision and "
                      f"a last 'digest' line, not {_summary(entry)}")
        if game.decision is None:
            raise bad(shown, number, f"line {number}: the game is over on replay, but the log goes on with "
                      f"{_summary(entry)}")
        if line != entry_line(entry):
            raise bad(shown, number, f"line {number}: spelt otherwise than warbook writes it; it writes "
                      f"{_clip(entry_line(entry))}")
        _apply(game, entry["choice"], shown, number)
    if last is None:
        return
    number = len(lines) + 1
    if last != digest_entry(game.log):
        raise bad(shown, number, f"line {number}: the replay wrote {len(game.log)} entries, digest "
                  f"{log_digest(game.log)[:16]}…, but the game recorded {_clip(last.get('entries'))}, digest "
                  f"{_clip(last.get('sha256'))}", "replay it with the warbook and files it was recorded with")


_MISSING = object()


def _difference(logged: dict, replayed: dict) -> str:
    """What differs between a line of the log and the line the replay writes, in one phrase."""
    where = _first_difference(logged, replayed, "")
    label = _label(replayed)
    if where is None:
        return f"{label}: spelt otherwise than warbook writes it (same values); the replay writes " \
               f"{_clip(entry_line(replayed))}"
    path, was, now = where
    if was is _MISSING:
        return f"{label}: the log has no {path!r}; the replay has {_clip(now)}"
    if now is _MISSING:
        return f"{label}: the log has {path!r} ({_clip(was)}), which the replay does not"
    return f"{label}: {path!r} is {_clip(was)} in the log but {_clip(now)} on replay"


def _first_difference(was: Any, now: Any, path: str) -> tuple[str, Any, Any] | None:
    """The first place (a dotted path) where two JSON values differ, type included, or ``None``."""
    now = json.loads(json.dumps(now, default=str)) if not path else now  # the replay's value as the log holds it
    if isinstance(was, dict) and isinstance(now, dict):
        for key in sorted(set(was) | set(now)):
            inner = f"{path}.{key}" if path else key
            if key not in was or key not in now:
                return inner, was.get(key, _MISSING), now.get(key, _MISSING)
            found = _first_difference(was[key], now[key], inner)
            if found:
                return found
        return None
    if isinstance(was, list) and isinstance(now, list) and len(was) == len(now):
        for i, (a, b) in enumerate(zip(was, now)):
            found = _first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        return None
    if type(was) is not type(now) or was != now:
        return path or "the entry", was, now
    return None


def _label(entry: dict) -> str:
    """A short name for an entry: ``roll 12``, ``blue's move decision``, ``combat event``."""
    kind = entry.get("type")
    if kind == "roll":
        return f"roll {entry.get('n')}"
    if kind == "decision":
        return f"{entry.get('side')}'s {entry.get('kind')} decision"
    if kind == "event":
        return f"{entry.get('kind')} event"
    return f"a {_clip(kind)} entry"


def _summary(entry: dict) -> str:
    """An entry named and, where it has one, its text or reason."""
    said = entry.get("text", entry.get("reason", entry.get("choice")))
    return f"{_label(entry)} {_clip(said)}" if isinstance(said, str) else _label(entry)


def _clip(value: Any) -> str:
    text = repr(value) if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"
