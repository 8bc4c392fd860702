"""``warbook sim``: a balance study — many seeded games of a scenario in parallel, and what they say.

``warbook sim SCENARIO --games N [--agents A,B] [--jobs K] [--seed S] [--rules HOUSE.rules]
[--against BASE.rules] [--backend process|ray] [--out FILE.jsonl] [--json] [--plot FILE.svg]``
plays seeds S to S+N-1 (``interpreter.study``) with a progress bar on stderr (games/s, ETA), then
prints the report (``interpreter.study_report``): win and draw rates with 95% intervals, victory
levels, the VP margin, game length, decisions per phase, losses.  With ``--against`` every seed
is played under both rulebooks (``--rules``, else the scenario's own, against ``--against``) and the
report is their difference with its interval and a verdict in words.

The report is the same for the same seeds whatever ``--jobs`` or ``--backend`` (records are sorted
by seed; nothing timed is in it).  ``--out`` streams one JSON line per game as it reaches this process, so an
interrupted study (Ctrl-C, or ``kill``) keeps every game that did there (the seed ranges under way are lost,
and with ``--jobs`` up to one finished range a worker had not sent yet: ``interpreter.study_pool``); the report
of those games is still printed, and the exit code is 130.

Exit codes: 0 done, 1 bad rules or scenario (diagnostics on stderr), 2 a usage error, 130 interrupted.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path

from .common import EXIT_CLEAN, EXIT_FINDINGS, print_diagnostics, usage

EXIT_INTERRUPTED = 130


def register(sub) -> None:
    sim = sub.add_parser("sim", help="play many seeded games in parallel and report balance with confidence "
                         "intervals; --against compares a house rule with its base")
    sim.add_argument("scenario", help="a scenario file (.toml), or a shipped scenario by name (`warbook list`)")
    sim.add_argument("--games", type=_positive, default=100, metavar="N", help="games per rulebook (default: 100)")
    sim.add_argument("--seed", type=_whole, default=0, metavar="S", help="the first seed: games play seeds S to "
                     "S+N-1 (default: 0)")
    sim.add_argument("--agents", help="one per side, in the scenario's player order, comma separated: random or "
                     "greedy (default: random for every side)")
    sim.add_argument("--jobs", type=_positive, default=1, metavar="K", help="worker processes (default: 1, in "
                     "this process); with --backend ray, the CPUs of a local Ray instance")
    sim.add_argument("--rules", metavar="HOUSE", help="play under this rulebook instead of the scenario's own "
                     "(a file or a shipped rulebook's name)")
    sim.add_argument("--against", metavar="BASE", help="also play every seed under this rulebook and compare: "
                     "--rules (or the scenario's own) against BASE")
    sim.add_argument("--backend", choices=("process", "ray"), default="process",
                     help="where games are played: local worker processes, or Ray (pip install 'warbook[ray]')")
    sim.add_argument("--address", help="with --backend ray: the cluster's address (default: a local instance)")
    sim.add_argument("--out", metavar="FILE.jsonl", help="write each game's record here as it finishes")
    sim.add_argument("--json", action="store_true", help="print the report as JSON")
    sim.add_argument("--plot", metavar="FILE.svg", help="draw the distributions (.svg or .png; pip install "
                     "'warbook[plot]')")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(run=run_sim)


def _positive(text: str) -> int:
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of 1 or more, not {text!r}")
    return value


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None


def run_sim(args: argparse.Namespace) -> int:
    from ...dsl.diagnostics import RulesError
    from ..agents import AUTOMATIC_AGENTS
    from ..catalogue import rulebook_argument, scenario_argument
    from ..study import StudyArm, arm_scenario

    agents = tuple(a.strip() for a in args.agents.split(",")) if args.agents else ()
    unknown = [a for a in agents if a not in AUTOMATIC_AGENTS]
    if unknown:
        return usage(f"unknown agent {unknown[0]!r} for a study; choose from {', '.join(AUTOMATIC_AGENTS)}")
    problem = _output_problem(args)
    if problem:
        return usage(problem)
    try:
        scenario = str(scenario_argument(args.scenario))
        rules = rulebook_argument(args.rules) if args.rules else None
        if args.against:
            arms = (StudyArm("house", scenario, rules, agents),
                    StudyArm("base", scenario, rulebook_argument(args.against), agents))
        else:
            arms = (StudyArm("study", scenario, rules, agents),)
        sides = arm_scenario(arms[0]).player_order
        for arm in arms[1:]:
            arm_scenario(arm)
    except RulesError as exc:
        print_diagnostics(exc.diagnostics)
        return EXIT_FINDINGS
    if agents and len(agents) != len(sides):
        return usage(f"--agents names {len(agents)} agents but the scenario has {len(sides)} sides "
                     f"({', '.join(sides)}), in that order")
    try:
        out = open(args.out, "w", encoding="utf-8") if args.out else None  # streamed: a line per finished game
    except OSError as exc:
        print(f"warbook: error: cannot write --out {args.out!r}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_FINDINGS
    try:
        records, interrupted = _play(args, arms, out)
    except RulesError as exc:  # a worker that could not load the rules (their files went after the check above)
        print_diagnostics(exc.diagnostics)
        return EXIT_FINDINGS
    report = _report(args, arms, sides, records, interrupted)
    if args.json:
        import json

        print(json.dumps(report.to_json(), indent=2, sort_keys=True, ensure_ascii=False))
    else:
        from .sim_output import show_report

        show_report(report)
    if args.plot:
        from .sim_output import plot_report

        plot_report(report, Path(args.plot))
    if interrupted:
        print(f"warbook: interrupted: the report is of the {len(records)} games finished"
              + (f"; {args.out} holds them" if args.out else ""), file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_CLEAN


def _output_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the output options, before any game is played."""
    for option, path in (("--out", args.out), ("--plot", args.plot)):
        if path and not Path(path).resolve().parent.is_dir():
            return f"cannot write {option} {path!r}: no folder {str(Path(path).parent)!r}"
        if path and os.path.isdir(path):
            return f"cannot write {option} {path!r}: it is a folder"
    if args.plot:
        if Path(args.plot).suffix.lower() not in (".svg", ".png"):
            return f"--plot writes .svg or .png, not {args.plot!r}"
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            return "--plot needs matplotlib: pip install 'warbook[plot]'"
    if args.backend == "ray":
        from ..study_ray import RayMissing, ray_module

        try:
            ray_module()
        except RayMissing as exc:
            return str(exc)
    elif args.address:
        return "--address is for --backend ray"
    return None


def _play(args: argparse.Namespace, arms, out) -> tuple[list, bool]:
    """Play the study with a progress bar; (the records finished, whether it was interrupted)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, \
        TimeRemainingColumn

    from ..study import iter_study
    from .consoles import console
    from .sim_output import RateColumn

    records = []
    total = args.games * len(arms)
    runner = None
    if args.backend == "ray":
        from ..study_ray import ray_runner

        runner = ray_runner(args.address)
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), RateColumn(),
                        TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                        console=console(stderr=True), disable=args.quiet, transient=False,
                        refresh_per_second=4)  # drawn 10 times a second, the bar took 0.7% of a core from the workers
    interrupted, games = False, None
    stop = signal.signal(signal.SIGTERM, _interrupt)  # `kill` keeps the finished games as Ctrl-C does
    try:
        # The workers start here, before the progress display's thread: a forked worker takes no thread along.
        games = iter_study(arms, range(args.seed, args.seed + args.games), jobs=args.jobs, runner=runner)
        with progress:
            task = progress.add_task("games", total=total)
            for record in games:
                records.append(record)
                if out is not None:
                    out.write(record.to_line() + "\n")
                    out.flush()
                progress.advance(task)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if games is not None:
            games.close()
        signal.signal(signal.SIGTERM, stop)
        if out is not None:
            out.close()
    return records, interrupted


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def _report(args, arms, sides, records, interrupted):
    from ..study_report import compare, summarize
    from .sim_output import Report

    if len(arms) == 2:
        house = [r for r in records if r.arm == "house"]
        base = [r for r in records if r.arm == "base"]
        return Report(args.scenario, arms, sides, args.seed, args.games, interrupted,
                      (summarize(house, sides, "house"), summarize(base, sides, "base")), compare(house, base, sides),
                      (("house", args.rules), ("base", args.against)))
    return Report(args.scenario, arms, sides, args.seed, args.games, interrupted,
                  (summarize(records, sides, arms[0].name),), None, ((arms[0].name, args.rules),))
