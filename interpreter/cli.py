"""The ``warbook`` command: one subcommand per stage (``list``, ``lint``, ``fmt``, ``show``, ``play``, ``replay``).

Wherever a command takes a rulebook or a scenario, a shipped game's name does as
well as a path (``warbook play NAME``, ``warbook lint NAME``, ``warbook show NAME``;
``interpreter.catalogue``), from any folder.

Exit codes (ruff's): 0 clean, 1 diagnostics at or above the fail level, 2 a
usage error or a bug in warbook.  ``--exit-zero`` turns 1 into 0 but never
masks 2.  Only this module writes to stdout and stderr (and the human agent,
to the terminal stream this module hands it).

``play`` and ``replay`` print the narrative (``interpreter.narrate``) on
stdout and diagnostics on stderr as ``path:line:col: CODE message``.  They
exit 0 when the game ends (or the log replays), 1 when a file is bad (the
scenario, a script, a log that does not replay) or a person ends the input
before the game is over, and 2 for usage errors.  ``play --log`` keeps the log
on disk as the game goes (``savefile.LogWriter``): a game stopped or killed
leaves a log that ``replay`` replays to where it stopped, noting the line it
ends at (I806), with exit 0.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import NoReturn, Sequence

from .. import __version__
from ..dsl.ast import Span
from ..dsl.diagnostics import CODES, RulesError, Severity, diagnostic, did_you_mean, sort_diagnostics
from ..dsl.sources import MAX_FILE_BYTES, exists, is_dir, is_file
from . import render

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """argparse that exits with 2 and a one-line message, never a traceback."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"warbook: error: {message}\n")


def _prefixes(text: str | None) -> list[str]:
    return [p.strip() for p in (text or "").split(",") if p.strip()]


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="warbook", description="Rules-as-data engine for board wargames.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks for internal errors")
    parser.add_argument("--version", action="version", version=f"warbook {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    listing = sub.add_parser("list", help="list the shipped rulebooks and scenarios, by name")
    listing.add_argument("--json", action="store_true", help="machine-readable output")
    listing.set_defaults(run=run_list)

    lint = sub.add_parser("lint", help="check rulebooks and report diagnostics")
    lint.add_argument("paths", nargs="*", metavar="PATH", help="rules files, scenario or map files (.toml), folders, "
                      "or shipped rulebooks and scenarios by name ('-' reads stdin)")
    lint.add_argument("--format", choices=("concise", "full", "json"), default="concise")
    lint.add_argument("--select", help="only these codes or prefixes, comma separated (E,W4)")
    lint.add_argument("--ignore", help="skip these codes or prefixes, comma separated")
    lint.add_argument("--fail-level", choices=("error", "warning", "info"), default="warning",
                      help="lowest severity that makes the exit code 1 (default: warning)")
    lint.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    lint.add_argument("--explain", metavar="CODE", help="print the documentation of a code and exit")
    lint.add_argument("--list", action="store_true", help="list every code and exit")
    lint.set_defaults(run=run_lint)

    fmt = sub.add_parser("fmt", help="rewrite rules files in the canonical layout (docs/fmt.md)")
    fmt.add_argument("paths", nargs="+", metavar="PATH", help="rules files or folders ('-' reads stdin and "
                     "writes stdout)")
    fmt.add_argument("--check", action="store_true", help="write nothing; exit 1 if any file would change")
    fmt.add_argument("--diff", action="store_true", help="write nothing; print what would change, exit 1 if any")
    fmt.set_defaults(run=run_fmt)

    show = sub.add_parser("show", help="print resolved declarations of a rulebook")
    show.add_argument("rulebook", help="a rules file, or a shipped rulebook by name")
    show.add_argument("name", nargs="?", help="a declaration name (KIND:NAME when ambiguous)")
    show.add_argument("--json", action="store_true", help="machine-readable output")
    show.set_defaults(run=run_show)

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
    return parser


def run_lint(args: argparse.Namespace) -> int:
    from ..dsl.lint import explain, iter_selected, lint_report, load_checks

    load_checks()
    if args.list:
        for code in sorted(CODES):
            info = CODES[code]
            print(f"{code} {info.name} ({info.severity.label})")
        return EXIT_CLEAN
    if args.explain:
        info = CODES.get(args.explain.upper())
        if info is None:
            print(f"warbook: error: unknown code {args.explain!r}; see 'warbook lint --list'", file=sys.stderr)
            return EXIT_ERROR
        print(f"{info.code} {info.name} ({info.severity.label})\n\n{explain(info.code)}")
        return EXIT_CLEAN
    if not args.paths:
        print("warbook: error: lint needs at least one PATH (or --explain CODE)", file=sys.stderr)
        return EXIT_ERROR
    select, ignore = _prefixes(args.select), _prefixes(args.ignore)
    for prefix in (*select, *ignore):
        if not any(code.startswith(prefix.upper()) for code in CODES):
            print(f"warbook: error: no code starts with {prefix!r}", file=sys.stderr)
            return EXIT_ERROR
    diagnostics, sources, suppressed = [], {}, 0
    paths = [p for raw in args.paths for p in _expand(_lint_argument(raw))]
    for raw in paths:
        path = _stdin_to_file(raw) if raw == "-" else raw
        if path.endswith(".toml"):
            from .scenario_lint import lint_data_file  # scenarios need the engine; rules files do not

            checked = lint_data_file(path)
            sources.update(dict(checked.sources))
            diagnostics.extend(checked.diagnostics)
            continue
        report = lint_report(path)
        suppressed += report.suppressed
        if report.rulebook is not None:
            sources.update(dict(report.rulebook.sources))
        diagnostics.extend(report.diagnostics)
    shown = sort_diagnostics(iter_selected(diagnostics, [s.upper() for s in select], [i.upper() for i in ignore]))
    if args.format == "json":
        print(render.as_json(shown))
    elif args.format == "full":  # ruff's layout: a blank line after each diagnostic, then the summary
        for d in shown:
            print(render.full(d, lambda path: sources.get(path) or _source_text(path, sources)), end="\n\n")
    else:
        for d in shown:
            print(render.concise(d))
    if args.format != "json":
        counts = {s: sum(1 for d in shown if d.severity is s) for s in Severity}
        summary = ", ".join(f"{n} {s.label}{'s' if n != 1 else ''}" for s, n in sorted(counts.items(), reverse=True))
        tail = f", {suppressed} suppressed" if suppressed else ""
        print(f"{len(paths)} file{'s' if len(paths) != 1 else ''} checked: {summary}{tail}",
              file=sys.stderr)
    fail = Severity[args.fail_level.upper()]
    if any(d.severity >= fail for d in shown) and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def run_fmt(args: argparse.Namespace) -> int:
    """``warbook fmt``: exit 0 when every file is (now) formatted, 1 when one would change under
    ``--check`` or ``--diff``, 2 when a file cannot be read, parsed or written (a diagnostic each)."""
    from ..dsl.fmt import format_text

    changed, unchanged, failed = [], 0, False
    paths = [p for raw in args.paths for p in _expand(raw) if p == raw or p.endswith(".rules")]
    for path in paths:
        shown = "<stdin>" if path == "-" else path
        try:
            text = _read_stdin() if path == "-" else _read_rules(path)
            formatted = format_text(text, shown)
        except RulesError as exc:
            _diagnostics(exc.diagnostics)
            failed = True
            continue
        if path == "-" and not (args.check or args.diff):
            sys.stdout.write(formatted)
            continue
        if formatted == text:
            unchanged += 1
            continue
        changed.append(shown)
        if args.diff:
            import difflib

            for line in difflib.unified_diff(text.splitlines(True), formatted.splitlines(True),
                                             f"{shown}\t(original)", f"{shown}\t(formatted)"):
                sys.stdout.write(line if line.endswith("\n") else f"{line}\n\\ No newline at end of file\n")
        elif args.check:
            print(f"Would reformat: {shown}")
        else:
            try:
                _write_atomically(Path(path), formatted)
            except OSError as exc:
                print(f"warbook: error: cannot write {shown!r}: {exc.strerror or exc}", file=sys.stderr)
                failed = True
    if paths != ["-"] or args.check or args.diff:
        verb = ("would be reformatted", "already formatted") if args.check or args.diff else ("reformatted",
                                                                                              "left unchanged")
        counts = [f"{n} file{'s' if n != 1 else ''} {v}" for n, v in zip((len(changed), unchanged), verb) if n]
        if counts or not failed:
            print(", ".join(counts) or "no rules files", file=sys.stderr)
    if failed:
        return EXIT_ERROR
    return EXIT_FINDINGS if changed and (args.check or args.diff) else EXIT_CLEAN


def _read_stdin() -> str:
    """Standard input, refused (E004) past the size of the largest rules file."""
    text = sys.stdin.read(MAX_FILE_BYTES + 1)
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:
        from ..dsl.sources import megabytes

        raise RulesError([diagnostic("E004", Span.point("<stdin>"), "cannot read '<stdin>': it is larger than "
                                     f"{megabytes(MAX_FILE_BYTES)}, the most a file may hold")])
    return text


def _read_rules(path: str) -> str:
    """A rules file's text as written (a ``\\r\\n`` is kept, so the layout's ``\\n`` counts as a
    change); an E004 diagnostic when it cannot be read."""
    from ..dsl.sources import SourceError, read_source

    try:
        read_source(path)  # the checks every rules file passes: a regular file, within the size, UTF-8
        with open(path, encoding="utf-8", newline="") as handle:
            return handle.read()
    except SourceError as exc:
        message = f"no such rules file {path!r}" if exc.missing else f"cannot read {path!r}: {exc.reason}"
    except OSError as exc:
        message = f"cannot read {path!r}: {exc.strerror or exc}"
    raise RulesError([diagnostic("E004", Span.point(path), message)])


def _write_atomically(target: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``target`` (through a symbolic link) and rename it
    into place, keeping the file's permissions: an interrupted run leaves the old file whole."""
    import tempfile

    target = target.resolve()
    mode = target.stat().st_mode & 0o7777
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(name, mode)
        os.replace(name, target)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise


def _source_text(path: str, sources: dict) -> str | None:
    """The text of a file that did not load (a syntax error leaves no rulebook to keep it), so the
    full format can show the line; ``None`` if it cannot be read, and the header line stands alone."""
    from ..dsl.sources import SourceError, read_source

    if path not in sources:
        try:
            sources[path] = read_source(path, MAX_FILE_BYTES).removeprefix("\ufeff")
        except (SourceError, OSError, ValueError):
            sources[path] = None
    return sources[path]


def _expand(raw: str) -> list[str]:
    """A folder stands for every ``.rules`` and ``.toml`` file below it, in sorted order (as ruff
    takes folders)."""
    path = Path(raw)
    if raw != "-" and is_dir(path):
        return [str(p) for p in sorted((*path.rglob("*.rules"), *path.rglob("*.toml")))]
    return [raw]


def _lint_argument(raw: str) -> str:
    """A path, else a shipped rulebook's name or alias, else a shipped scenario's name."""
    if raw == "-" or exists(Path(raw)):
        return raw  # what rulebook_argument answers, without importing the catalogue
    from .catalogue import find_scenario, rulebook_argument

    found = rulebook_argument(raw)
    if found == raw and not exists(Path(raw)) and (scenario := find_scenario(raw)) is not None:
        return str(scenario)
    return found


def _stdin_to_file(_: str) -> str:
    """Lint stdin by writing it to a temporary file (relative includes then resolve from the cwd)."""
    import tempfile

    data = sys.stdin.read(MAX_FILE_BYTES + 1)  # more is refused when read back (E004), never held whole
    handle = tempfile.NamedTemporaryFile("w", suffix=".rules", delete=False, dir=Path.cwd(), encoding="utf-8")
    with handle:
        handle.write(data)
    import atexit
    import os

    atexit.register(os.unlink, handle.name)
    return handle.name


def run_show(args: argparse.Namespace) -> int:
    from .catalogue import rulebook_argument
    from .show import show

    args.rulebook = rulebook_argument(args.rulebook)
    return show(args)


def run_list(args: argparse.Namespace) -> int:
    import json

    from .catalogue import iter_rulebooks, iter_scenarios

    rulebooks, scenarios = list(iter_rulebooks()), list(iter_scenarios())
    if args.json:
        print(json.dumps({"rulebooks": [{"name": r.name, "aliases": list(r.aliases), "title": r.title}
                                        for r in rulebooks],
                          "scenarios": [{"name": s.name, "title": s.title, "game": s.game, "turns": s.turns,
                                         "sides": [{"name": side, "label": label} for side, label in s.sides],
                                         "first": s.sides[0][0] if s.sides else None} for s in scenarios]},
                         indent=2, ensure_ascii=False))
        return EXIT_CLEAN
    print("Rulebooks (warbook lint NAME, warbook show NAME, extends \"NAME\"):")
    print(_columns([(r.name, r.title, f"aliases: {', '.join(r.aliases)}" if r.aliases else "") for r in rulebooks]))
    print("\nScenarios (warbook play NAME --side SIDE=human):")
    print(_columns([(s.name, s.title, s.game, f"{s.turns} turns" if s.turns else "", _order(s.sides))
                    for s in scenarios]))
    return EXIT_CLEAN


def _order(sides: tuple[tuple[str, str], ...]) -> str:
    """``a (A) first, then b (B), c (C)``: the sides in player order, labels beside names."""
    named = [f"{side} ({label})" if label != side else side for side, label in sides]
    return f"{named[0]} first, then {', '.join(named[1:])}" if len(named) > 1 else "".join(named)


def _columns(rows: list[tuple[str, ...]]) -> str:
    """Rows as left-aligned columns two spaces apart, indented."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))] if rows else []
    return "\n".join("  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows)


# --- play and replay ------------------------------------------------------------------------

AGENT_KINDS = ("random", "greedy", "human")
"""Agents by name on the command line; ``script:FILE`` is the fourth kind."""


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
    checked = _agent_specs(spec)
    if isinstance(checked, str):
        raise argparse.ArgumentTypeError(checked)
    return side, spec


def _usage(message: str) -> int:
    print(f"warbook: error: {message}", file=sys.stderr)
    return EXIT_ERROR


def _diagnostics(diagnostics) -> None:
    for d in diagnostics:
        print(render.concise(d), file=sys.stderr)


def _agent_specs(text: str | None) -> list[str] | str:
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


def _make_agent(spec: str, side: str, game):
    from . import agents
    from .human import HumanAgent
    from .rng import choice_rng

    if spec == "random":
        return agents.RandomAgent(choice_rng(game.seed, f"random:{side}"))
    if spec == "greedy":
        return agents.GreedyAgent(choice_rng(game.seed, f"greedy:{side}"), game)
    if spec == "human":
        labels = {name: t.label for name, t in game.ctx.rules.unit_types.items()}
        return HumanAgent(sys.stdin, sys.stdout, board=game.scenario.board, labels=labels)
    return agents.ScriptedAgent.from_file(spec[len("script:"):], side)


def _seats(sides: tuple[str, ...], specs: list[str], named: list[tuple[str, str]]) -> dict[str, str] | str:
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
    from .actions import IllegalActionError
    from .agents import InputEnded, ScriptError, iter_play
    from .catalogue import rulebook_argument, scenario_argument
    from .game import Game
    from .narrate import Narrator, redactions, result_line, title
    from .savefile import LogWriter

    specs = _agent_specs(args.agents)
    if isinstance(specs, str):
        return _usage(specs)
    if args.compact and not args.log:
        return _usage("--compact needs --log FILE")
    if args.log and not Path(args.log).parent.is_dir():
        return _usage(f"cannot write the log {args.log!r}: no folder {str(Path(args.log).parent)!r}")
    target = os.path.realpath(args.log) if args.log else None
    if target and os.path.lexists(target) and not is_file(Path(target)):
        return _usage(f"cannot write the log {args.log!r}: it is not a regular file (a log is never written over one)")
    options = dict(args.option)  # a name given twice: the last one counts
    try:
        scenario = scenario_argument(args.scenario)
        where = (rulebook_argument(args.rules), scenario) if args.rules else (scenario,)
        game = Game.new(*where, args.seed, options=options)
    except RulesError as exc:
        _diagnostics(exc.diagnostics)
        return EXIT_FINDINGS
    seats = _seats(game.scenario.player_order, specs, args.side)
    if isinstance(seats, str):
        return _usage(seats)
    try:
        agents = {side: _make_agent(spec, side, game) for side, spec in seats.items()}
    except ScriptError as exc:
        _diagnostics([exc.diagnostic])
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
        _diagnostics([exc.diagnostic])
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
    from .game import Game
    from .narrate import narrate, result_line, title

    try:
        game = Game.load(args.log)
    except RulesError as exc:
        _diagnostics(exc.diagnostics)
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
        _diagnostics([diagnostic("I806", Span.point(args.log, end), f"the log ends at line {end} before the game "
                                 f"ended; {decision.side} was to make a {decision.kind} decision")])
    return EXIT_CLEAN


def _line_count(path: str) -> int:
    """How many lines a log that replayed has (a compact log has fewer than its game's entries)."""
    with open(path, "rb") as handle:
        return sum(1 for _ in handle)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_CLEAN
    except Exception as exc:  # a bug in warbook, not a user error
        if args.debug:
            import traceback

            traceback.print_exc()
        else:
            print(f"warbook: internal error: {type(exc).__name__}: {exc} (run with --debug for a traceback)",
                  file=sys.stderr)
        return EXIT_ERROR


def run() -> NoReturn:
    """The ``warbook`` process (the console script, ``python -m warbook``): ``main``, its return
    value the exit code."""
    sys.exit(main())


if __name__ == "__main__":
    run()
