"""The games shipped inside warbook, by name: what ``warbook list`` prints and what a name stands for.

A command-line argument naming a rulebook or a scenario is a path when such a
file exists, and otherwise the name of a shipped one: a rulebook by file stem or
header alias, a scenario by file stem.  So ``warbook play NAME`` works from any
folder, with a regular install as with an editable one.

>>> name = scenario_names()[0]
>>> find_scenario(name).name == f"{name}.toml" and shipped_name(find_scenario(name), "scenarios") == name
True
>>> find_scenario("no such scenario") is None
True
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from attrs import frozen

from ..dsl.ast import Span
from ..dsl.diagnostics import RulesError, diagnostic, did_you_mean
from ..dsl.loader import load_with_diagnostics
from ..dsl.rulebook_paths import find_rulebook, rulebook_aliases, shipped_folder
from ..dsl.sources import exists, is_file


@frozen
class RulebookEntry:
    """A shipped rulebook, as ``warbook list`` shows it."""

    name: str
    aliases: tuple[str, ...]
    title: str
    path: Path


@frozen
class ScenarioEntry:
    """A shipped scenario, as ``warbook list`` shows it (read from its ``[scenario]`` table)."""

    name: str
    title: str
    game: str
    """The title of the rulebook it is played with."""
    sides: tuple[tuple[str, str], ...]
    """(side, label) in player order: the first moves first."""
    turns: int | None
    path: Path


def shipped_name(path: str | Path, folder: str) -> str | None:
    """The shipped name of the file at ``path`` when it is one of ``folder``'s (``rulebooks`` or
    ``scenarios``), else ``None``: how a save names what it can find again anywhere."""
    resolved = Path(path).resolve()
    return resolved.stem if resolved.parent == shipped_folder(folder).resolve() else None


def is_shipped(path: str | Path) -> bool:
    """Whether ``path`` lies in a shipped folder (a rulebook, a scenario, its overlay or map)."""
    resolved = Path(path).resolve()
    return any(resolved.is_relative_to(shipped_folder(f).resolve()) for f in ("rulebooks", "scenarios"))


def find_scenario(name: str) -> Path | None:
    """A shipped scenario by file stem, or ``None``."""
    candidate = shipped_folder("scenarios") / f"{name}.toml"
    return candidate if is_file(candidate) else None


def scenario_names() -> list[str]:
    return sorted(p.stem for p in shipped_folder("scenarios").glob("*.toml"))


def rulebook_names() -> list[str]:
    return sorted(p.stem for p in shipped_folder("rulebooks").glob("*.rules"))


def scenario_argument(text: str) -> Path:
    """The scenario file a command-line argument names: a path, else a shipped scenario's name.

    Raises:
        RulesError: E004 naming the shipped scenarios when it is neither.
    """
    path = Path(text)
    if is_file(path) or path.suffix == ".toml" or "/" in text:
        return path  # a path: loading it reports a missing file where it is
    found = find_scenario(text)
    if found is None:
        names = scenario_names()
        raise RulesError([diagnostic("E004", Span.point(text), f"no scenario file or shipped scenario {text!r}",
                                     did_you_mean(text, names) or f"shipped scenarios: {', '.join(names)} "
                                     "(`warbook list` describes them)")])
    return found


def rulebook_argument(text: str) -> str:
    """The rules file a command-line argument names: a path, else a shipped rulebook's name or alias.
    An argument that is neither stays as written, so loading it reports the missing file."""
    if text == "-" or exists(Path(text)):
        return text
    found = find_rulebook(text)
    return str(found) if found is not None else text


def iter_rulebooks() -> Iterator[RulebookEntry]:
    """Every shipped rulebook, by name."""
    for path in sorted(shipped_folder("rulebooks").glob("*.rules")):
        yield RulebookEntry(path.stem, rulebook_aliases(path), _title(path), path)


def iter_scenarios() -> Iterator[ScenarioEntry]:
    """Every shipped scenario, by name, with its game, sides and length (its rulebook is loaded
    for the titles of the game and the sides)."""
    import tomllib

    from .scenario import rulebook_turns, scenario_rules  # here, not at the top: `warbook lint` reads none

    for path in sorted(shipped_folder("scenarios").glob("*.toml")):
        head = tomllib.loads(path.read_text(encoding="utf-8")).get("scenario", {})
        rules = head.get("rules") or head.get("rulebook") or ""
        rules_path = scenario_rules(path, rules) if rules else None
        rulebook = load_with_diagnostics(rules_path)[0] if rules_path else None
        labels = {d.name: d.display for d in rulebook.of_kind("side")} if rulebook else {}
        order = head.get("player_order", [])
        turns = head.get("turns")
        if turns is None and rulebook is not None:  # the rulebook's `turns N` when the scenario gives none
            turns = rulebook_turns(rulebook)
        yield ScenarioEntry(path.stem, str(head.get("name", path.stem)), rulebook.title if rulebook else "?",
                            tuple((side, labels.get(side, side)) for side in order),
                            turns if isinstance(turns, int) else None, path)


def _title(path: Path) -> str:
    rulebook = load_with_diagnostics(path)[0]
    return rulebook.title if rulebook is not None else path.stem
