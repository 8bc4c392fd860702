"""``warbook diff OLD NEW``: what two rulebooks say differently (``dsl.diff``), and with
``--scenario`` where a game under each first plays differently (``interpreter.divergence``).

Exit codes are ``diff``'s: 0 when the rulebooks say the same (and, with ``--scenario``, play
the same), 1 when they differ, 2 when a file cannot be read or loaded (its diagnostics on
stderr) or the command line is wrong.  The differences go to stdout, a summary to stderr.
"""

from __future__ import annotations

import argparse
import sys

from ...dsl.diagnostics import RulesError, Severity
from .common import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, print_diagnostics, usage
from .play import agent_specs, make_agent, seat_agents

NONE = "(none)"
"""How a side that says nothing (no label, no cell) is shown."""


def register(sub) -> None:
    diff = sub.add_parser("diff", help="what two rulebooks say differently, and where their games part "
                          "(docs/diff.md)")
    diff.add_argument("paths", nargs="+", metavar="RULEBOOK", help="OLD NEW: two rules files or shipped "
                      "rulebooks' names; or one house rule, compared with the rulebook it extends")
    diff.add_argument("--json", action="store_true", help="print the differences as JSON (docs/diff.md)")
    diff.add_argument("--scenario", help="also play this scenario under each rulebook and report the first "
                      "log entry where the games differ")
    diff.add_argument("--seed", type=int, help="with --scenario: the seed of both games (default: 0)")
    diff.add_argument("--agents", help="with --scenario: one per side, in player order, comma separated: "
                      "random, greedy or script:FILE (default: random for every side)")
    diff.set_defaults(run=run_diff)


def run_diff(args: argparse.Namespace) -> int:
    import json  # here, not at the top: every command's parser is built, so 'warbook lint' would pay
    from ...dsl.diff import diff_rulebooks

    if len(args.paths) > 2:
        return usage(f"diff compares two rulebooks, not {len(args.paths)}")
    if args.scenario is None and (args.agents is not None or args.seed is not None):
        return usage("--seed and --agents say how to play --scenario; give a scenario")
    specs = agent_specs(args.agents)
    if isinstance(specs, str) or "human" in specs:
        return usage(specs if isinstance(specs, str) else "diff plays both games itself: agents random, greedy "
                     "or script:FILE")
    try:
        paths = _compared_paths(args.paths)
        if isinstance(paths, str):
            return usage(paths)
        old, new = _load_pair(paths)
    except RulesError as exc:
        print_diagnostics(exc.diagnostics)
        return EXIT_ERROR
    found, replay, problems = diff_rulebooks(old, new), None, []
    if args.scenario is not None:
        try:
            replay = _replay(old, new, args, specs)
        except RulesError as exc:  # the diff stands; the games cannot be played (a scenario the rules do not fit)
            problems = exc.diagnostics
    if isinstance(replay, str):
        return usage(replay)
    if args.json:
        shape = found.to_dict()
        if replay is not None:
            shape["replay"] = replay
        print(json.dumps(shape, ensure_ascii=False, indent=2, sort_keys=True))
    else:
        for line in diff_lines(found, replay):
            print(line)
    differ = not found.is_empty or (replay is not None and not replay["identical"])
    print(_summary(found, replay), file=sys.stderr)
    if problems:
        print_diagnostics(problems)
        return EXIT_ERROR
    return EXIT_FINDINGS if differ else EXIT_CLEAN


def _compared_paths(arguments: list[str]) -> list[str] | str:
    """The files compared: OLD and NEW (paths or shipped names), or the rulebook a house rule
    extends and the house rule; a usage message when the one file extends nothing.

    Raises:
        RulesError: when what the house rule extends cannot be found (E004, E007).
    """
    from ...dsl.loader import extended_base
    from ..catalogue import rulebook_argument

    named = [rulebook_argument(p) for p in arguments]
    if len(named) == 2:
        return named
    base, diagnostics = extended_base(named[0])
    if diagnostics:
        raise RulesError(diagnostics)
    if base is None:
        return f"{arguments[0]!r} extends no rulebook, so there is nothing to compare it with: give OLD and NEW"
    return [str(base), named[0]]


def _load_pair(paths: list[str]):
    """The two rulebooks, loaded.

    Raises:
        RulesError: with the error diagnostics of either.
    """
    from ...dsl.loader import load_with_diagnostics

    loaded, errors = [], []
    for path in paths:
        rulebook, diagnostics = load_with_diagnostics(path)
        errors += [d for d in diagnostics if d.severity >= Severity.ERROR]
        loaded.append(rulebook)
    if errors or None in loaded:
        raise RulesError(errors)
    return loaded


def _replay(old, new, args: argparse.Namespace, specs: list[str]) -> dict | str:
    """Both games played side by side: the ``replay`` part of the output, or a usage message."""
    import attrs

    from ..agents import ScriptError
    from ..catalogue import scenario_argument, shipped_name
    from ..divergence import compare_plays
    from ..game import Game

    scenario = scenario_argument(args.scenario)
    seed = args.seed or 0
    games = [Game.new(rulebook, scenario, seed) for rulebook in (old, new)]
    seats = seat_agents(games[0].scenario.player_order, specs, [])
    if isinstance(seats, str):
        return seats
    try:
        agents = [{side: make_agent(spec, side, game) for side, spec in seats.items()} for game in games]
    except ScriptError as exc:  # a script that cannot be read
        raise RulesError([exc.diagnostic]) from None
    found = compare_plays(*games, *agents)
    shown = shipped_name(scenario, "scenarios") or str(scenario)
    return {"scenario": shown, "seed": seed, "agents": seats, "identical": found is None,
            "divergence": attrs.asdict(found) if found is not None else None}


def diff_lines(found, replay: dict | None) -> list[str]:
    """The text output: each declaration added, removed or changed, then the replay's finding."""
    import json  # here: see run_diff
    from ...dsl.diff import iter_line_edits

    lines = [f"--- {found.old}", f"+++ {found.new}"] if not found.is_empty else []
    for decl in found.declarations:
        label = f" {json.dumps(decl.label, ensure_ascii=False)}" if decl.label else ""
        where = f" (in {decl.parent})" if decl.parent else ""
        lines.append(f"{decl.status} {decl.kind} {decl.name}{label}{where}")
        for change in decl.changes:
            if change.aspect == "property":
                lines += [f"    {_arrow(a, b)}" if a and b else f"    - {a}" if a else f"    + {b}"
                          for a, b in iter_line_edits(change)]
            else:
                lines.append(f"    {_change_line(change)}")
    if replay is not None:
        lines += _replay_lines(replay)
    return lines


def _change_line(change) -> str:
    old, new = ", ".join(change.old) or NONE, ", ".join(change.new) or NONE
    if change.aspect == "cell":
        return f"cell {change.name} × {change.column}: {_arrow(old, new)}"
    if change.aspect == "row":
        if not change.old or not change.new:
            return f"{'+' if change.new else '-'} row {change.name}: {old if change.old else new}"
        return f"row {change.name} annotations: {_arrow(old, new)}"
    if change.aspect == "provenance":
        return f"{change.name} {_arrow(old, new)}"
    if change.aspect == "nested":
        return f"nested order: {_arrow(old, new)}"
    if change.aspect == "order":
        return f"{change.name} reordered: {_arrow(old, new)}"
    return f"{change.name} {_arrow(old, new)}"  # label, header, flags


def _arrow(old: str, new: str) -> str:
    return f"{old} → {new}"


def _replay_lines(replay: dict) -> list[str]:
    agents = ", ".join(f"{side} {spec}" for side, spec in replay["agents"].items())
    lines = [f"replay {replay['scenario']}, seed {replay['seed']}, agents {agents}:"]
    found = replay["divergence"]
    if found is None:
        return [*lines, "    the two games play identically to the end"]
    where = ", ".join(part for part in (f"turn {found['turn']}" if found["turn"] is not None else "",
                                        f"phase {found['phase']}" if found["phase"] else "") if part)
    return [*lines,
            f"    the games diverge at log entry {found['entry']}, after {found['decisions']} identical "
            f"decision{'s' if found['decisions'] != 1 else ''}{f' ({where})' if where else ''}:",
            f"    old: {describe_entry(found['old'])}",
            f"    new: {describe_entry(found['new'])}"]


def describe_entry(entry: dict | None) -> str:
    """One log entry in a line: a decision with its options and choice, else its narration."""
    import json  # here: see run_diff
    from ..narrate import Narrator

    if entry is None:
        return "the game is over"
    if entry.get("type") == "decision":
        return (f"{entry.get('side')} {entry.get('kind')} decision among {entry.get('options')} options, "
                f"chose {entry.get('choice')!r}")
    if entry.get("type") == "stopped":
        return f"the game stops: {entry.get('text')}"
    text = " ".join(line.strip() for line in Narrator().lines(entry) if line.strip())
    return text or json.dumps(entry, ensure_ascii=False, sort_keys=True)


def _summary(found, replay: dict | None) -> str:
    counts = [f"{found.count(status)} {status}" for status in ("changed", "added", "removed") if found.count(status)]
    total = len(found.declarations)
    head = (f"{total} declaration{'s' if total != 1 else ''} differ{'s' if total == 1 else ''}: "
            f"{', '.join(counts)}") if total else "the rulebooks say the same"
    if replay is None:
        return head
    return f"{head}; {'the games play identically' if replay['identical'] else 'the games diverge'}"
