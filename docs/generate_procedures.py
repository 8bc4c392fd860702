"""Regenerate the inventory in docs/procedures.md: each procedure and effect verb, who uses it, and
why one that only the seed games use is still there.

The tables between ``<!-- BEGIN GENERATED -->`` and ``<!-- END GENERATED -->`` are worked out
from the games themselves: every ``.rules`` file under ``rulebooks/``, ``tests/gallery/``,
``examples/`` and ``benchmarks/games/`` is loaded, and each ``do …`` and ``effect …`` line is
counted for the file it is written in (a house rule that ``extends`` a seed game is not a user of
the lines it inherits).  The Python that carries each one out is read from the interpreter's two
registries (``interpreter.procedures.PROCEDURES`` and ``interpreter.effects``).  A procedure or
effect with no user outside the seed rulebooks must have a note in ``PROCEDURE_NOTES`` or
``EFFECT_NOTES`` saying why it stays (what it does that no general construct says) or that it is
general and merely has one user so far; ``tests/show/test_procedures_doc.py`` fails when one is
missing, or when a note outlives its reason (a neutral game uses the entry now).

Usage::

    python docs/generate_procedures.py           # rewrite the tables in place
    python docs/generate_procedures.py --check   # exit 1 if they are stale
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

from warbook.dsl import load_rulebook
from warbook.dsl.compiled.calls import CALLS
from warbook.dsl.effects import effect_class
from warbook.dsl.meanings import meaning
from warbook.dsl.vocabulary import EFFECTS, PROCEDURES, find_procedure, leading_words
from warbook.interpreter import effects as effect_registry
from warbook.interpreter.procedures import PROCEDURES as IMPLEMENTED, load_procedures

ROOT = Path(__file__).resolve().parents[1]
DOCUMENT = ROOT / "docs" / "procedures.md"


def _sibling(name: str):
    """A script of this folder, loaded as a module (the folder is no package)."""
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REFERENCE_SCRIPT = _sibling("generate_reference")
"""Shares the markers, ``splice`` and the command line (``regenerate``) with the reference's script."""
BEGIN, END, splice = REFERENCE_SCRIPT.BEGIN, REFERENCE_SCRIPT.END, REFERENCE_SCRIPT.splice

GAMES = (("rulebooks", "seed"), ("tests/gallery", "gallery"), ("examples", "example"),
         ("benchmarks/games", "benchmark"))
"""Where the games are, and what each folder's games are called in the tables."""

SEED = "seed"

PROCEDURE_NOTES: dict[str, str] = {
    "gain income": "General, one user so far: a side's per-turn income of any resource from its "
    "scenario (`[scenario.income.SIDE]`), changed by `reduce income` and `multiply gains`; a classic "
    "game's replacement points per turn are the same line. No gallery game has income yet.",
    "refit": "Stays: counters paid back one at a time that return after a *rolled* delay on the turn "
    "track (Sea Lords 13.2). Scheduled arrivals (`[[arrival]]`, `do arrivals`) come on turns the "
    "scenario writes, and `replace steps` restores steps at once; neither rolls a delay. General in "
    "form (any box that `returns via` a track, any action and dice).",
    "return refitted units": "Stays with `refit`, whose counters it brings back when their turn comes.",
    "reclaim markers": "Stays: support markers committed to battles go back to their box to be used "
    "again each turn (Sea Lords 17.2). Only a game that commits markers to battles (`commit support`) needs it.",
    "recon": "Stays: the first step of a battle inside one contested square in a game of alternating "
    "operations (Sea Lords 10.1-10.2): the counters there are revealed and a roll decides who fires "
    "first (the bounce). `do fight` and `do bombard` resolve one attack by odds or totals, from "
    "adjacent hexes or at range; none of their model lines says fire exchanged in a shared square "
    "or a roll for first fire. It reads everything from declarations and names no game.",
    "commit support": "Stays: the support step of such a battle (Sea Lords 16.4, 17.2-17.3): markers from a box "
    "committed into the contested square, paid one at a time. `supporting fire from range` adds units "
    "on the map to an assault; it has no markers held off the map.",
    "resolve fire": "Stays: the fire step of such a battle (Sea Lords 11.2-11.3): the side with first fire "
    "fires its total, its losses are taken at once, and the other side fires back with what is left, "
    "round after round. `do fight` resolves each attack with one roll for both sides.",
    "check stacking": "No game: refused before play (E805). Stacking is checked by the `stacking` "
    "declaration's `checked …` line instead.",
    "spot": "General: both seed games use it (hidden counters found within a range by a roll against "
    "the terrain); no gallery game has hidden counters to spot yet.",
}
"""Why a procedure that only the seed rulebooks use stays (keyed by its name)."""

EFFECT_NOTES: dict[str, str] = {
    "refit": "General in form, one user so far: a result that puts units in a box (Sea Lords' refit "
    "box, which `do refit` empties) rather than out of play.",
    "break off": "General in form, one user so far: the role's counters leave the fight for the places "
    "the combat's `break off` lines allow (Sea Lords 10.3-10.5, leaving a contested square). A "
    "`retreat` goes hex by hex from where the unit stood, with look-ahead; a break-off goes straight to "
    "any cell those lines allow (an adjacent one, one with a friendly counter, a box).",
    "gain": "General, one user so far: a side gains a resource (an amount or a roll), within its caps.",
    "lose": "General, one user so far: a side loses a resource, never below its minimum.",
    "reduce income": "General, one user so far: an event that cuts this turn's income (with `gain income`).",
    "multiply gains": "General, one user so far: an event that multiplies this turn's gains.",
    "reveal": "General, one user so far: an event or result that turns face-down counters face up.",
    "roll": "General: both seed games roll a second table from a result or an event.",
    "pick reinforcement free": "General, one user so far: an event that gives a free reinforcement "
    "draw (with `do reinforce`).",
    "return": "General, one user so far: an event that takes units off the map to a box.",
    "modify": "Stays with the battle procedures: a counter that changes the `recon` or `fire` roll "
    "of a battle in its cell (read by `recon` and `resolve fire` only). `do fight` takes its roll "
    "modifiers from the combat's `roll modifier … when …` lines and from modes instead.",
    "shift": "General, one user so far: a counter's standing column shift, read by every combat's "
    "column shifts (`interpreter/combat.py`), `do fight` included; only Sea Lords' markers print one.",
    "supply": "General, one user so far: a counter that supplies units in its cell for `do check "
    "supply` (the control gallery traces supply instead).",
}
"""Why an effect verb that only the seed rulebooks use stays (keyed by its full name)."""


EFFECT_NAMES = {verb: leading_words(pattern) for verb, pattern in EFFECTS.items()}
"""Effect verb (its first word, the registry key) to its full name."""


def games() -> list[tuple[str, str]]:
    """(path relative to the project, kind of game) of every ``.rules`` file, in order."""
    return [(path.relative_to(ROOT).as_posix(), kind) for folder, kind in GAMES
            for path in sorted((ROOT / folder).rglob("*.rules"))]


def users() -> tuple[dict[str, list[tuple[str, str]]], dict[str, list[tuple[str, str]]]]:
    """(procedure name → games writing a ``do`` line of it, effect verb → games writing it)."""
    procedures: dict[str, list[tuple[str, str]]] = {name: [] for name in PROCEDURES}
    effects: dict[str, list[tuple[str, str]]] = {verb: [] for verb in EFFECTS}
    cwd = Path.cwd()
    os.chdir(ROOT)
    try:
        for path, kind in games():
            own = Path(path).resolve()
            for decl in load_rulebook(Path(path)).walk():
                for line in decl.properties:
                    if Path(line.span.path).resolve() != own or line.name not in ("do", "effect"):
                        continue
                    words = [w.text for w in line.words[1:]]
                    if line.name == "do":
                        found = find_procedure(words)
                        key, table = (found[0] if found else None), procedures
                    else:
                        key, table = (words[0] if words and words[0] in EFFECTS else None), effects
                    if key is not None and (path, kind) not in table[key]:
                        table[key].append((path, kind))
    finally:
        os.chdir(cwd)
    return procedures, effects


def _module_path(module: str) -> str:
    """``warbook.interpreter.procedures.move`` → ``interpreter/procedures/move.py``."""
    return "/".join(module.split(".")[1:]) + ".py"


def carried_out_in(verb: str) -> list[str]:
    """The interpreter modules that carry out or read an effect verb."""
    effect_registry.load_implementations()
    cls = effect_class(verb)
    modules = {f.__module__ for (c, _), f in effect_registry.IMPLEMENTATIONS.items() if c is cls}
    if cls in effect_registry.READERS:
        modules.add(effect_registry.READERS[cls].rsplit(".", 1)[0])
    return sorted(_module_path(m) for m in modules)


def summary(text: str, length: int = 100) -> str:
    """The first sentences of a meaning, at least ``length`` characters of them, for a short summary."""
    text = text.replace("``", "`")
    end = text.find(". ")
    while 0 <= end < length:
        end = text.find(". ", end + 1)
    return text if end < 0 else text[: end + 1]


def _users_cell(found: list[tuple[str, str]]) -> str:
    """``seed: several_klicks; gallery: after_combat, rail``: the games by kind, by file name."""
    if not found:
        return "none"
    kinds: dict[str, list[str]] = {}
    for path, kind in found:
        kinds.setdefault(kind, []).append(Path(path).stem)
    return "; ".join(f"{kind}: {', '.join(names)}" for kind, names in kinds.items())


def needs_note(found: list[tuple[str, str]]) -> bool:
    """Whether no game but the seed rulebooks uses it (so its note must say why it stays)."""
    return all(kind == SEED for _, kind in found)


def _status(name: str, found: list[tuple[str, str]], notes: dict[str, str]) -> str:
    if not needs_note(found):
        return "general: a neutral game uses it"
    return notes.get(name, "**no note**")


def generate() -> str:
    """The tables, without the markers."""
    load_procedures()
    procedures, effects = users()
    only_seeds = [n for n, f in procedures.items() if f and needs_note(f)]
    lines = [
        "<!-- Generated by docs/generate_procedures.py from the games and the interpreter's",
        "     registries; edit the games or the script's notes and run it, not this text. -->",
        "",
        f"{len(PROCEDURES)} procedures: {sum(not needs_note(f) for f in procedures.values())} used by a neutral "
        f"game (gallery, example or benchmark), {len(only_seeds)} by the seed rulebooks alone, "
        f"{sum(not f for f in procedures.values())} by no game. {len(EFFECTS)} effect verbs: "
        f"{sum(not needs_note(f) for f in effects.values())} used by a neutral game, "
        f"{sum(bool(f) and needs_note(f) for f in effects.values())} by the seed rulebooks alone, "
        f"{sum(not f for f in effects.values())} by no game.",
        "",
        "### Procedures (`do …`)",
        "",
        "| procedure | what it does | carried out in | used by | why it stays, if only the seeds use it |",
        "|---|---|---|---|---|",
    ]
    for name in PROCEDURES:
        function = IMPLEMENTED.get(name)
        where = f"`{_module_path(function.__module__)}`" if function else "(refused before play)"
        lines.append(f"| `{name}` | {summary(meaning(CALLS[name]))} | {where} | "
                     f"{_users_cell(procedures[name])} | {_status(name, procedures[name], PROCEDURE_NOTES)} |")
    lines += [
        "",
        "### Effects (`effect …`)",
        "",
        "| effect | what it does | carried out in | used by | why it stays, if only the seeds use it |",
        "|---|---|---|---|---|",
    ]
    for verb in EFFECTS:
        name = EFFECT_NAMES[verb]
        where = "<br>".join(f"`{m}`" for m in carried_out_in(verb))
        lines.append(f"| `{name}` | {summary(meaning(effect_class(verb)))} | {where} | "
                     f"{_users_cell(effects[verb])} | {_status(name, effects[verb], EFFECT_NOTES)} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    return REFERENCE_SCRIPT.regenerate(argv, __doc__.splitlines()[0], DOCUMENT, generate,
                                       "docs/generate_procedures.py")


if __name__ == "__main__":
    sys.exit(main())
