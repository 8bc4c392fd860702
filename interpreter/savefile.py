"""Saved games that travel: a log names what is shipped and carries what is not.

A save is the game's log as JSON lines: a header, then every decision, roll and
event (event sourcing: loading replays the decisions and checks every roll).  The
header says how to find the game's files again on any machine:

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
which checks every roll anyway.

Limits: an embedded file that names a shipped file by a relative path (rather than
``extends "NAME"``) replays only in place.  Logs of version 1 (paths relative to
the log, no embedded files) still load.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any

from .. import __version__
from ..dsl.ast import Span
from ..dsl.diagnostics import RulesError, diagnostic
from .actions import Action, IllegalActionError
from .catalogue import find_scenario, is_shipped, shipped_name
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


def save(game: Game, path: str | os.PathLike) -> None:
    """Write the log as JSON lines, atomically (a temporary file renamed into place)."""
    path = Path(path)
    embedded = _embedded(game.scenario)
    head = _header(game, embedded)
    if embedded:
        common = _common_folder(embedded)
        head["files_at"] = Path(os.path.relpath(common, path.resolve().parent)).as_posix()
    lines = [json.dumps(head, sort_keys=True, ensure_ascii=False)]
    lines += [json.dumps(entry, sort_keys=True, ensure_ascii=False, default=str) for entry in game.log]
    handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent or ".", delete=False,
                                         prefix=f".{path.name}.", suffix=".tmp")
    try:
        with handle:
            handle.write("\n".join(lines) + "\n")
        os.chmod(handle.name, 0o666 & ~_umask())  # temporary files are private; a save is not
        os.replace(handle.name, path)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise


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
    """Replay a saved log and check it reproduces: same rulebook, scenario, options and rolls.

    Raises:
        RulesError: with an E803 diagnostic naming the first line that differs.
    """
    shown = str(path)
    entries = _read(path)
    head = entries[0]
    options = head.get("options", {})
    folder = Path(path).resolve().parent
    with _files_of(head, folder, shown) as unpacked:
        scenario = _scenario(head, folder, unpacked, shown)
        try:
            game = cls.new(scenario, int(head["seed"]), options=options)
        except RulesError as exc:  # an option the rules do not declare is the log's fault
            raise RulesError([diagnostic("E803", Span.point(shown, 1), f"the header's {d.message}", d.hint)
                              if d.code == "E804" else d for d in exc.diagnostics]) from None
    _check_same_files(head, game, shown)
    _replay(game, entries, shown)
    return game


def _bad(shown: str, line: int, message: str, hint: str | None = None) -> RulesError:
    return RulesError([diagnostic("E803", Span.point(shown, line), message, hint)])


def _read(path: str | os.PathLike) -> list[dict]:
    """The log's entries, the header first, checked for shape."""
    shown = str(path)
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
        entries = [json.loads(line) for line in lines if line.strip()]
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _bad(shown, 1, f"cannot read log {shown!r}: {exc}") from None
    shapeless = next((n for n, e in enumerate(entries, start=1) if not isinstance(e, dict)), None)
    if shapeless is not None:
        raise _bad(shown, shapeless, f"line {shapeless}: not a log entry (a JSON object)")
    if not entries or entries[0].get("type") != "header":
        raise _bad(shown, 1, "not a warbook log: no header line")
    head = entries[0]
    if type(head.get("seed")) is not int or not _is_reference(head.get("scenario")) \
            or ("rulebook" in head and not _is_reference(head["rulebook"])):
        raise _bad(shown, 1, "the header needs 'scenario' (a shipped name, an embedded file or a path) and 'seed' "
                   "(a whole number)")
    options = head.get("options", {})
    if not isinstance(options, dict) or not all(type(on) is bool for on in options.values()):
        raise _bad(shown, 1, "the header's 'options' must map option names to true or false")
    files = head.get("files", {})
    if not isinstance(files, dict) or not all(isinstance(t, str) and _is_safe_key(k) for k, t in files.items()):
        raise _bad(shown, 1, "the header's 'files' must map relative paths (no '..') to file texts")
    if not isinstance(head.get("files_at", ""), str):
        raise _bad(shown, 1, "the header's 'files_at' must be a folder's path relative to the log")
    return entries


def _is_reference(value: Any) -> bool:
    """A version-1 path, or a version-2 ``{"shipped": NAME}`` or ``{"file": KEY}``."""
    if isinstance(value, str):
        return True
    return isinstance(value, dict) and all(isinstance(v, str) for v in value.values()) \
        and ("shipped" in value or "file" in value)


def _is_safe_key(key: str) -> bool:
    """Whether an embedded file's key stays inside the folder it is written to."""
    parts = PurePosixPath(key).parts
    return bool(parts) and not PurePosixPath(key).is_absolute() and ".." not in parts and "\\" not in key \
        and ":" not in key


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
        return beside if beside.is_file() else Path(ref)
    if "shipped" in ref:
        from ..dsl.loader import find_rulebook

        found = find_scenario(ref["shipped"]) if folder == "scenarios" else find_rulebook(ref["shipped"])
        if found is None:
            raise _bad(shown, 1, f"the game was saved with the shipped {folder[:-1]} {ref['shipped']!r}, which this "
                       f"warbook ({__version__}) does not have", "`warbook list` shows the shipped games")
        return found
    if unpacked is None or not (unpacked / ref["file"]).is_file():
        raise _bad(shown, 1, f"the log names the file {ref['file']!r} but does not carry it")
    return unpacked / ref["file"]


def _scenario(head: dict, log_folder: Path, unpacked: Path | None, shown: str) -> Scenario:
    """The scenario (under the rulebook it was played with) the header names."""
    scenario = load_scenario(_locate(head["scenario"], "scenarios", log_folder, unpacked, shown))
    rules = head.get("rulebook")
    if isinstance(rules, dict):
        return with_rulebook(scenario, _locate(rules, "rulebooks", log_folder, unpacked, shown))
    if isinstance(rules, str) and scenario.rulebook.hash != head.get("rulebook_hash") \
            and (log_folder / rules).is_file():
        # Version 1: played under another rulebook than the scenario's own (a house rule).
        return with_rulebook(scenario, log_folder / rules)
    return scenario


def _file_hash(path: Path) -> str | None:
    try:
        return text_hash(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
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
    groups = (("changed", [k for k in current if k in recorded and recorded[k] != current[k]]),
              ("added", [k for k in current if k not in recorded]),
              ("removed", [k for k in recorded if k not in current]))
    parts = []
    for label, names in groups:
        if names:
            more = f" and {len(names) - _NAMES_SHOWN} more" if len(names) > _NAMES_SHOWN else ""
            parts.append(f"{label} {', '.join(names[:_NAMES_SHOWN])}{more}")
    return "; ".join(parts)


def _replay(game: Game, entries: list[dict], shown: str) -> None:
    """Send every recorded decision, checking the number of legal actions, then the rolls."""
    for number, entry in enumerate(entries, start=1):
        if entry.get("type") != "decision":
            continue
        if game.is_over() or len(game.legal_actions()) != entry.get("options"):
            raise _bad(shown, number, f"line {number}: expected {entry.get('options')} legal actions, found "
                       f"{len(game.legal_actions())}")
        if not isinstance(entry.get("choice"), str):
            raise _bad(shown, number, f"line {number}: a decision without its 'choice'")
        try:
            game.apply(Action.parse(entry["choice"]))
        except IllegalActionError as exc:
            raise _bad(shown, number, f"line {number}: {exc}") from None
    expected = [e for e in entries if e.get("type") == "roll"]
    got = [e for e in game.log if e.get("type") == "roll"]
    for want, have in zip(expected, got):
        if (want.get("value"), want.get("reason")) != (have.get("value"), have.get("reason")):
            raise _bad(shown, 1, f"roll {want.get('n')} differs on replay: {want.get('value')} then, "
                       f"{have.get('value')} now")
