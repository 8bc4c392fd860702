"""``warbook play`` and ``warbook replay``: a game narrated on stdout, diagnostics on stderr.

They exit 0 when the game ends (or the log replays), 1 when a file is bad (the scenario, a
script, a log that does not replay) or a person ends the input before the game is over, and 2
for usage errors.  ``play --log`` keeps the log on disk as the game goes
(``savefile.LogWriter``): a game stopped or killed leaves a log that ``replay`` replays to where
it stopped, noting the line it ends at (I806), with exit 0."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ...dsl.ast import Span
from ...dsl.diagnostics import RulesError, diagnostic, did_you_mean
from ...dsl.sources import is_file
from .common import EXIT_CLEAN, EXIT_FINDINGS, print_diagnostics, usage

AGENT_KINDS = ("random", "greedy", "human")
"""Agents by name on the command line; ``script:FILE`` is the fourth kind."""


def register(sub) -> None:
    play = sub.add_parser("play", help="play a scenario with agents and print the narrative")
    play.add_argument("scenario", help="a scenario file (.toml), or a shipped scenario by name (`warbook list`)")
    play.add_argument("--seed", type=_seed, default=0, help="the game's seed: same seed and agents, same game "
                      "(default: 0)")
    play.add_argument("--agents", help="one per side, in the scenario's player order, comma separated: "
                      f"{', '.join(AGENT_KINDS)} or script:FILE (default: random for every side)")
    play.add_argument("--side", type=_seat, action="append", default=[], metavar="SIDE=AGENT",
                      help="seat an agent on a side by name (blue=human); repeat for several; sides not "
                      "seated take --agents, else random (`warbook list` names each scenario's sides)")
    play.add_argument("--rules", metavar="RULEBOOK", help="play under this rulebook instead of the scenario's own "
                      "(a house rule that extends it; a file or a shipped rulebook's name)")
    play.add_argument("--option", type=_option, action="append", default=[], metavar="NAME[=on|off]",
                      help="switch an optional rule of the rulebook on (NAME or NAME=on) or off (NAME=off), as "
                      "the players agree before play; repeat for several (`warbook show RULEBOOK` lists them)")
    play.add_argument("--log", metavar="FILE", help="save the game here (JSON lines; `warbook replay` reads it)")
    play.add_argument("--compact", action="store_true", help="with --log: keep only the decisions and the digest "
                      "of the full log (for long studies; `warbook replay` regenerates every roll and event)")
    play.add_argument("--quiet", action="store_true", help="print only the result")
    play.set_defaults(run=run_play)

    replay = sub.add_parser("replay", help="check that a saved game replays, and narrate it")
    replay.add_argument("log", help="a log written by `warbook play --log`")
    replay.add_argument("--quiet", action="store_true", help="print only the result")
    replay.set_defaults(run=run_replay)


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the seed must be a whole number, not {text!r}") from None


def _option(text: str) -> tuple[str, bool]:
    """``NAME``, ``NAME=on`` or ``NAME=off`` as (name, on); anything else is a usage error."""
    name, equals, value = text.partition("=")
    name = name.strip()
    if not name:
        raise argparse.ArgumentTypeError(f"an option needs a name: NAME, NAME=on or NAME=off, not {text!r}")
    if equals and value.strip() not in ("on", "off"):
        raise argparse.ArgumentTypeError(f"option {name!r} must be on or off, not {value!r}")
    return name, value.strip() != "off"


def _seat(text: str) -> tuple[str, str]:
    """``SIDE=AGENT`` as (side, agent); the agent is checked like one of ``--agents``."""
    side, equals, spec = (part.strip() for part in text.partition("="))
    if not side or not equals or not spec:
        raise argparse.ArgumentTypeError(f"a seat is SIDE=AGENT (such as blue=human), not {text!r}")
    checked = agent_specs(spec)
    if isinstance(checked, str):
        raise argparse.ArgumentTypeError(checked)
    return side, spec


def agent_specs(text: str | None) -> list[str] | str:
    """The agent names, or a message saying what is wrong with them."""
    if text is None:
        return []
    specs = [part.strip() for part in text.split(",")]
    for spec in specs:
        if spec.startswith("script:"):
            if not spec[len("script:"):]:
                return "'script:' needs a file: script:FILE"
        elif spec not in AGENT_KINDS:
            return f"unknown agent {spec!r}; choose from {', '.join(AGENT_KINDS)} or script:FILE"
    return specs


def make_agent(spec: str, side: str, game):
    """The agent ``spec`` names (one of ``AGENT_KINDS`` or ``script:FILE``), seated on ``side``
    of ``game``, with its own seeded stream (``rng.choice_rng``)."""
    from .. import agents
    from ..human import HumanAgent

    if spec in agents.AUTOMATIC_AGENTS:
        return agents.automatic_agent(spec, side, game)
    if spec == "human":
        labels = {name: t.label for name, t in game.ctx.rules.unit_types.items()}
        return HumanAgent(sys.stdin, sys.stdout, board=game.scenario.board, labels=labels)
    return agents.ScriptedAgent.from_file(spec[len("script:"):], side)


def seat_agents(sides: tuple[str, ...], specs: list[str], named: list[tuple[str, str]]) -> dict[str, str] | str:
    """The agent of every side: ``--agents`` in player order, then ``--side`` by name, else random;
    or a message saying what is wrong."""
    if specs and len(specs) != len(sides):
        return (f"--agents names {len(specs)} agent{'s' if len(specs) != 1 else ''} but the scenario has "
                f"{len(sides)} sides ({', '.join(sides)}), in that order")
    seats = dict(zip(sides, specs or ["random"] * len(sides)))
    for side, spec in named:
        if side not in seats:
            hint = did_you_mean(side, sides)
            return f"--side {side}={spec}: the scenario has no side {side!r}; its sides: {', '.join(sides)}" + \
                (f" ({hint})" if hint else "")
        seats[side] = spec
    return seats


def run_play(args: argparse.Namespace) -> int:
    from ..actions import IllegalActionError
    from ..agents import InputEnded, ScriptError, iter_play
    from ..catalogue import rulebook_argument, scenario_argument
    from ..game import Game
    from ..narrate import Narrator, redactions, result_line, title
    from ..savefile import LogWriter

    specs = agent_specs(args.agents)
    if isinstance(specs, str):
        return usage(specs)
    if args.compact and not args.log:
        return usage("--compact needs --log FILE")
    if args.log and not Path(args.log).parent.is_dir():
        return usage(f"cannot write the log {args.log!r}: no folder {str(Path(args.log).parent)!r}")
    target = os.path.realpath(args.log) if args.log else None
    if target and os.path.lexists(target) and not is_file(Path(target)):
        return usage(f"cannot write the log {args.log!r}: it is not a regular file (a log is never written over "
                     "one)")
    options = dict(args.option)  # a name given twice: the last one counts
    try:
        scenario = scenario_argument(args.scenario)
        where = (rulebook_argument(args.rules), scenario) if args.rules else (scenario,)
        game = Game.new(*where, args.seed, options=options)
    except RulesError as exc:
        print_diagnostics(exc.diagnostics)
        return EXIT_FINDINGS
    seats = seat_agents(game.scenario.player_order, specs, args.side)
    if isinstance(seats, str):
        return usage(seats)
    try:
        agents = {side: make_agent(spec, side, game) for side, spec in seats.items()}
    except ScriptError as exc:
        print_diagnostics([exc.diagnostic])
        return EXIT_FINDINGS
    humans = [side for side, spec in seats.items() if spec == "human"]
    viewer = humans[0] if len(humans) == 1 else None
    try:
        writer = LogWriter(game, args.log, compact=args.compact) if args.log else None  # kept as the game goes
    except OSError as exc:
        print(f"warbook: error: cannot write the log {args.log!r}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_FINDINGS
    narrator = Narrator()
    if not args.quiet:
        print(title(game))
    status = EXIT_CLEAN
    try:
        for entry in iter_play(game, agents):
            if writer is not None and not _synced(writer, args.log):  # a game killed leaves what it played
                status = EXIT_FINDINGS
                break
            if args.quiet:
                continue
            if viewer is not None:
                narrator.set_redactions(redactions(game, viewer))
            for line in narrator.lines(entry):
                print(line, flush=viewer is not None)
    except InputEnded as exc:
        print(f"warbook: {exc}; the game is not over", file=sys.stderr)
        status = EXIT_FINDINGS
    except (ScriptError, IllegalActionError) as exc:
        print_diagnostics([exc.diagnostic])
        status = EXIT_FINDINGS
    finally:
        if writer is not None and not _synced(writer, args.log, close=True):
            status = EXIT_FINDINGS
    if args.quiet and game.is_over():
        print(result_line(game.result()))
    return status


def _synced(writer, shown: str, close: bool = False) -> bool:
    """Bring the log on disk up to date (and close it): whether that worked, else say why."""
    try:
        writer.close() if close else writer.sync()
    except OSError as exc:
        print(f"warbook: error: cannot write the log {shown!r}: {exc.strerror or exc}", file=sys.stderr)
        return False
    return True


def run_replay(args: argparse.Namespace) -> int:
    from ..game import Game
    from ..narrate import narrate, result_line, title

    try:
        game = Game.load(args.log)
    except RulesError as exc:
        print_diagnostics(exc.diagnostics)
        return EXIT_FINDINGS
    if args.quiet:
        print(result_line(game.result()))
    else:
        print(title(game))
        for line in narrate(game.log):
            print(line)
        if not game.is_over():
            print(result_line(None))
    if not game.is_over():  # a game abandoned, or killed while its log was kept: a valid prefix
        end, decision = _line_count(args.log), game.decision
        print_diagnostics([diagnostic("I806", Span.point(args.log, end), f"the log ends at line {end} before the "
                                      f"game ended; {decision.side} was to make a {decision.kind} decision")])
    return EXIT_CLEAN


def _line_count(path: str) -> int:
    """How many lines a log that replayed has (a compact log has fewer than its game's entries)."""
    with open(path, "rb") as handle:
        return sum(1 for _ in handle)

