"""Saved games that travel: a log names what is shipped and carries what is not.

A save is the game's log as JSON lines: a header, then every decision, roll and
event (event sourcing: loading replays the decisions and checks every line against
the replay, ``interpreter.log_check``).  ``LogWriter`` keeps the log on disk as the
game goes, so that a game stopped or killed leaves a log that replays to where it
stopped.  The header says how to find the game's files again on any machine:

- a shipped scenario, and a shipped rulebook played instead of the scenario's own,
  by their shipped names (``{"shipped": NAME}``), found again
  wherever warbook is installed;
- everything else by its text: each file the game read outside the shipped folders
  (the scenario, its map, its rules and what they include) is embedded under
  ``files``, keyed by its path below the files' common folder (``files_at``, relative
  to the log), and ``{"file": KEY}`` names it.  A replay reads the files in place
  while every one of them is still there unchanged, and otherwise writes the
  embedded copies to a temporary folder and reads them from there.

It also records a digest of each declaration of the rulebook, so that a replay
under a rulebook that has changed since names the declarations that changed; a
change of layout or comments alone (same declarations) does not stop a replay,
which checks every line anyway.

Limits: an embedded file that names a shipped file by a relative path (rather than
``extends "NAME"``) replays only in place, and so does a rulebook that reaches another folder
through the project's search paths (``dsl.config``: the configuration is not carried).  Logs of version 1 (paths relative to
the log, no embedded files) still load.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from .. import __version__
from ..dsl.ast import Span
from ..dsl.diagnostics import Diagnostic, RulesError, diagnostic
from ..dsl.diff import compare_digests
from ..dsl.sources import is_file
from .catalogue import find_scenario, is_shipped, shipped_name
from .log_check import bad, check_header, digest_entry, entry_line, read_log, read_regular, replay_compact, replay_lines
from .scenario import Scenario, load_scenario, with_rulebook

Game = Any
"""``interpreter.game.Game``, which imports this module (so it is not imported here)."""

LOG_VERSION = 2
"""Version 2 names shipped files and embeds the others; version 1 held paths relative to the log."""

_NAMES_SHOWN = 8
"""How many changed declarations a replay names before 'and N more'."""


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# --- writing ------------------------------------------------------------------------------

def header(game: Game) -> dict[str, Any]:
    """What a save records before the entries, wherever it is written (no paths).  ``options``
    (the players' agreed options) and ``files`` only when there are some."""
    return _header(game, _embedded(game.scenario))


def _header(game: Game, embedded: dict[Path, str]) -> dict[str, Any]:
    scenario = game.scenario
    head: dict[str, Any] = {"type": "header", "warbook_log": LOG_VERSION, "warbook": __version__,
                            "seed": game.seed, "scenario_hash": text_hash(scenario.text),
                            "map_hash": text_hash(scenario.map_text), "rulebook_hash": scenario.rulebook.hash,
                            "declarations": scenario.rulebook.digests()}
    if scenario.agreed:
        head["options"] = dict(scenario.agreed)
    keys = _keys(embedded)
    head["scenario"] = _reference(scenario.path, "scenarios", keys)
    if _played_under_other_rules(scenario):
        head["rulebook"] = _reference(scenario.rulebook.path, "rulebooks", keys)
    if embedded:
        head["files"] = {keys[path]: text for path, text in embedded.items()}
    return head


def save(game: Game, path: str | os.PathLike, compact: bool = False) -> None:
    """Write the log as JSON lines, atomically (a temporary file renamed into place).

    A compact save (``compact=True``, for long studies) keeps the header, each decision's choice
    and a last line with the digest of the full log (``log_check.digest_entry``): its replay regenerates
    every roll and event and proves them the same.  A symbolic link is written through (the link
    stays); anything else that is not a regular file (a FIFO, a device, a folder) is never replaced.

    Raises:
        OSError: when the file cannot be written, or ``path`` names something other than a file.
    """
    target = _target(path)
    entries = _kept(game.log, compact)
    if compact:
        entries.append(digest_entry(game.log))
    fd = _write_new(target, _text(game, target, entries, compact))
    os.close(fd)


def _kept(entries: list[dict], compact: bool) -> list[dict]:
    """The entries a log keeps: all of them, or a compact log's choices (``{"choice": TEXT}``)."""
    return [{"choice": e["choice"]} for e in entries if e.get("type") == "decision"] if compact else list(entries)


class LogWriter:
    """The log of a game kept on disk as the game goes, so that a game stopped or killed leaves a log
    that replays to where it stopped (``interpreter.log_check``).

    It starts as a save (written atomically), then every ``sync()`` appends the entries logged
    since, in one write each; called when the game waits for a decision or is over, the file always
    ends where a replay of it stops too.  ``close()`` syncs (a compact log also gets its last,
    digest line), flushes the file to disk and closes it.  The finished file is byte for byte
    what ``save`` writes.  After a failed write the writer
    writes nothing more (its file may end in part of a line, which a replay reports).

    Raises (each method):
        OSError: when the file cannot be written, or ``path`` names something other than a file.
    """

    def __init__(self, game: Game, path: str | os.PathLike, compact: bool = False):
        self.game = game
        self.path = _target(path)
        self.compact = compact
        self._written = len(game.log)
        self._fd: int | None = _write_new(self.path, _text(game, self.path, _kept(game.log, compact), compact))

    def sync(self) -> None:
        """Append the entries logged since the last sync (none while nothing new was logged)."""
        if self._fd is None or self._written == len(self.game.log):
            return
        entries = self.game.log[self._written:]
        self._append(_kept(entries, self.compact))
        self._written += len(entries)

    def _append(self, entries: list[dict]) -> None:
        try:
            _write_all(self._fd, "".join(entry_line(e) + "\n" for e in entries).encode("utf-8"))
        except BaseException:  # the file may end in part of a line now: write nothing more to it
            os.close(self._fd)
            self._fd = None
            raise

    def close(self) -> None:
        """Append what is left, flush the file to disk and close it (once; later calls do nothing)."""
        if self._fd is None:
            return
        try:
            self.sync()
            if self.compact:
                self._append([digest_entry(self.game.log)])
            os.fsync(self._fd)
        finally:
            if self._fd is not None:  # a failed write has closed it already
                os.close(self._fd)
                self._fd = None


def _target(path: str | os.PathLike) -> Path:
    """Where a log is written: through a symbolic link, and never over what is not a regular file."""
    target = Path(os.path.realpath(path))
    if os.path.lexists(target) and not is_file(target):
        raise OSError(errno.EEXIST, "it exists and is not a regular file (a log is never written over one)")
    return target


def _text(game: Game, target: Path, entries: list[dict], compact: bool = False) -> str:
    """The header of a log to be written at ``target``, then ``entries``, as JSON lines."""
    embedded = _embedded(game.scenario)
    head = _header(game, embedded)
    if compact:
        head["compact"] = True
    if embedded:
        common = _common_folder(embedded)
        head["files_at"] = Path(os.path.relpath(common, target.parent)).as_posix()
    return "".join(entry_line(e) + "\n" for e in [head, *entries])


def _write_new(target: Path, text: str) -> int:
    """Write ``text`` to a temporary file beside ``target`` and rename it into place; the open file
    (now ``target``) is returned, for appending to."""
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~_umask())  # temporary files are private; a save is not
        _write_all(fd, text.encode("utf-8"))
        os.replace(name, target)
    except BaseException:
        os.close(fd)
        Path(name).unlink(missing_ok=True)
        raise
    return fd


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _played_under_other_rules(scenario: Scenario) -> bool:
    return Path(scenario.rulebook.path).resolve() != Path(scenario.rules_path).resolve()


def _embedded(scenario: Scenario) -> dict[Path, str]:
    """Every file the game read that is not shipped, by resolved path: what a save must carry."""
    files = {Path(scenario.path): scenario.text, Path(scenario.map_path): scenario.map_text,
             **{Path(p): text for p, text in scenario.rulebook.sources}}
    return {path.resolve(): text for path, text in files.items() if not is_shipped(path)}


def _common_folder(embedded: dict[Path, str]) -> Path:
    return Path(os.path.commonpath([p.parent for p in embedded]))


def _keys(embedded: dict[Path, str]) -> dict[Path, str]:
    """Each embedded file's key: its path below the files' common folder, with ``/``."""
    if not embedded:
        return {}
    common = _common_folder(embedded)
    return {path: path.relative_to(common).as_posix() for path in embedded}


def _reference(path: str, folder: str, keys: dict[Path, str]) -> dict[str, str]:
    name = shipped_name(path, folder)
    return {"shipped": name} if name is not None else {"file": keys[Path(path).resolve()]}


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# --- reading and replaying --------------------------------------------------------------------

def load(cls: type[Game], path: str | os.PathLike) -> Game:
    """Replay a saved log and check it against the replay, line by line: same rulebook, scenario,
    options, and every entry the same (``interpreter.log_check``).  A log that stops at a decision
    replays to an unfinished game.

    Raises:
        RulesError: with an E803 diagnostic at the first line that differs, saying what differs.
    """
    shown = str(path)
    lines, entries = read_log(path)
    head = entries[0]
    version = check_header(head, shown)
    options = head.get("options", {})
    folder = Path(path).resolve().parent
    in_place = folder / head.get("files_at", ".")
    with _files_of(head, folder, shown) as unpacked:
        try:
            scenario = _scenario(head, folder, unpacked, shown)
            game = cls.new(scenario, head["seed"], options=options)
        except RulesError as exc:  # an option the rules do not declare is the log's fault
            raise RulesError([diagnostic("E803", Span.point(shown, 1), f"the header's {d.message}", d.hint)
                              if d.code == "E804" else _carried(d, unpacked if unpacked != in_place else None, shown)
                              for d in exc.diagnostics]) from None
    _check_same_files(head, game, shown)
    if version >= 2:
        _check_header_says(head, game, shown)
    replay = replay_compact if head.get("compact") else replay_lines
    replay(game, lines[1:], entries[1:], shown)
    return game


def _carried(found: Diagnostic, unpacked: Path | None, shown: str) -> Diagnostic:
    """A diagnostic about a file the log carries, unpacked to a temporary folder (``unpacked``) that
    is gone by the time it is shown: placed at the header (line 1), the carried file named with its position."""
    where = Path(found.span.path).resolve() if unpacked is not None else None
    if where is None or not where.is_relative_to(unpacked.resolve()):
        return found
    key = where.relative_to(unpacked.resolve()).as_posix()
    return attrs.evolve(found, span=Span.point(shown, 1), message=f"in the file {key!r} the log carries, line "
                        f"{found.span.line}, column {found.span.column}: {found.message}")


def _bad(shown: str, line: int, message: str, hint: str | None = None) -> RulesError:
    return bad(shown, line, message, hint)


def _check_header_says(head: dict, game: Game, shown: str) -> None:
    """A version-2 header says what a save of the replayed game says (but the version of warbook
    that wrote it and where its files were): the same files, options, references and digests."""
    written = _header(game, _embedded(game.scenario))
    for key in sorted(set(head) | set(written)):
        if key in ("warbook", "files_at", "rulebook_hash", "compact") or head.get(key) == written.get(key):
            continue
        if key == "files":
            carried = [k for k in sorted(set(head.get(key, {})) | set(written.get(key, {})))
                       if head.get(key, {}).get(k) != written.get(key, {}).get(k)]
            if not carried:
                raise _bad(shown, 1, "the header's 'files' is not what a save of the replayed game says")
            raise _bad(shown, 1, f"the file {carried[0]!r} the log carries is not the one the game was played "
                       "with (the header's hashes say otherwise)")
        raise _bad(shown, 1, f"the header's {key!r} is not what a save of the replayed game says")
    if head["rulebook_hash"] != written["rulebook_hash"] and not _any_shipped(game.scenario):
        raise _bad(shown, 1, "the rulebook the log carries does not match the header's 'rulebook_hash'",
                   "replay it with the files it was recorded with")


def _any_shipped(scenario: Scenario) -> bool:
    """Whether any of the rulebook's files is shipped (and so may have changed since, in layout)."""
    return any(is_shipped(p) for p, _ in scenario.rulebook.sources)


@contextlib.contextmanager
def _files_of(head: dict, log_folder: Path, shown: str) -> Iterator[Path | None]:
    """The folder to read the embedded files from: where they were saved, while every one is still
    there unchanged, else a temporary folder they are written out to (removed afterwards); or
    ``None`` when the log carries none."""
    files = head.get("files")
    if not files:
        yield None
        return
    saved_at = log_folder / head.get("files_at", ".")
    if all(_file_hash(saved_at / key) == text_hash(text) for key, text in files.items()):
        yield saved_at
        return
    with tempfile.TemporaryDirectory(prefix="warbook-save-") as folder:
        root = Path(folder)
        try:
            for key, text in files.items():
                target = root / key
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise _bad(shown, 1, f"cannot unpack the files the log carries: {exc.strerror or exc}") from None
        yield root


def _locate(ref: str | dict, folder: str, log_folder: Path, unpacked: Path | None, shown: str) -> Path:
    """The file a header reference stands for: a shipped one by name, else an embedded one."""
    if isinstance(ref, str):  # version 1: relative to the log, else as written
        beside = log_folder / ref
        found = beside if is_file(beside) else Path(ref)
        if not is_file(found):
            raise _bad(shown, 1, f"the header names the file {ref!r}, which is not a regular file beside the log "
                       "nor from here")
        return found
    if "shipped" in ref:
        from ..dsl.rulebook_paths import find_rulebook

        found = find_scenario(ref["shipped"]) if folder == "scenarios" else find_rulebook(ref["shipped"])
        if found is None:
            raise _bad(shown, 1, f"the game was saved with the shipped {folder[:-1]} {ref['shipped']!r}, which this "
                       f"warbook ({__version__}) does not have", "`warbook list` shows the shipped games")
        return found
    if unpacked is None or not is_file(unpacked / ref["file"]):
        raise _bad(shown, 1, f"the log names the file {ref['file']!r} but does not carry it")
    return unpacked / ref["file"]


def _scenario(head: dict, log_folder: Path, unpacked: Path | None, shown: str) -> Scenario:
    """The scenario (under the rulebook it was played with) the header names."""
    scenario = load_scenario(_locate(head["scenario"], "scenarios", log_folder, unpacked, shown))
    rules = head.get("rulebook")
    if isinstance(rules, dict):
        return with_rulebook(scenario, _locate(rules, "rulebooks", log_folder, unpacked, shown))
    if isinstance(rules, str) and scenario.rulebook.hash != head.get("rulebook_hash") \
            and is_file(log_folder / rules):
        # Version 1: played under another rulebook than the scenario's own (a house rule).
        return with_rulebook(scenario, log_folder / rules)
    return scenario


def _file_hash(path: Path) -> str | None:
    try:
        return text_hash(read_regular(path).decode("utf-8"))
    except (OSError, ValueError):  # a FIFO or a device is not read; a bad name is no file
        return None


def _check_same_files(head: dict, game: Game, shown: str) -> None:
    """Refuse to replay a game whose scenario, map or rules changed since it was saved, saying what
    changed; a rulebook whose declarations are all unchanged (layout, comments) replays."""
    scenario = game.scenario
    if text_hash(scenario.text) != head.get("scenario_hash"):
        raise _bad(shown, 1, f"the scenario {scenario.path!r} has changed since the game was saved",
                   "replay it with the files it was recorded with")
    if "map_hash" in head and text_hash(scenario.map_text) != head["map_hash"]:
        raise _bad(shown, 1, f"the map {scenario.map_path!r} has changed since the game was saved",
                   "replay it with the files it was recorded with")
    if scenario.rulebook.hash == head.get("rulebook_hash"):
        return
    recorded = head.get("declarations")
    if not isinstance(recorded, dict):
        raise _bad(shown, 1, "the log was written for a different rulebook",
                   "replay it with the files it was recorded with")
    changes = describe_changes(recorded, scenario.rulebook.digests())
    if changes:
        raise _bad(shown, 1, f"the rulebook has changed since the game was saved: {changes}",
                   "replay it with the rulebook it was recorded with")


def describe_changes(recorded: dict[str, str], current: dict[str, str]) -> str:
    """The declarations that differ between two sets of digests, by kind and name, or ``""``.

    >>> describe_changes({"table crt": "a1", "phase move": "b2"}, {"table crt": "ff", "unit tank": "c3"})
    'changed table crt; added unit tank; removed phase move'
    """
    found = compare_digests(recorded, current)
    parts = []
    for label, names in (("changed", found.changed), ("added", found.added), ("removed", found.removed)):
        if names:
            more = f" and {len(names) - _NAMES_SHOWN} more" if len(names) > _NAMES_SHOWN else ""
            parts.append(f"{label} {', '.join(names[:_NAMES_SHOWN])}{more}")
    return "; ".join(parts)
