"""``warbook render``: a map, a scenario's map or a saved game at one step, as an SVG or PNG picture.

``warbook render MAP-or-SCENARIO-or-LOG [--at N] [--side SIDE] -o FILE.svg|.png``.  A map file is
drawn as it is (terrain names as written, every feature centre to centre); a scenario (a file
or a shipped name) with its rulebook's labels and features; a log (``warbook play --log``) is
replayed to step ``N`` (decisions made; default: its last) and drawn with its counters and
control, as ``--side`` sees them (``interpreter.frames``; without it, the whole truth).  The
picture is written atomically; exit 0, 1 for a bad file, 2 for a usage error.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from ...dsl.diagnostics import RulesError, did_you_mean
from ...dsl.sources import MAX_FILE_BYTES
from .common import EXIT_CLEAN, EXIT_FINDINGS, print_diagnostics, usage, write_atomically

FORMATS = (".svg", ".png")


def register(sub) -> None:
    render = sub.add_parser("render", help="draw a map, a scenario's map or a saved game at a step (SVG or PNG)")
    render.add_argument("source", metavar="MAP-or-SCENARIO-or-LOG",
                        help="a map file (.toml), a scenario (a file or a shipped name), or a log (.jsonl)")
    render.add_argument("--at", type=_step, metavar="N", help="with a log: the step to draw, the number of "
                        "decisions made (0: before the first; default: the last)")
    render.add_argument("--side", help="with a log: draw what this side sees (the others' face-down counters as "
                        "such); default: every counter as it is")
    render.add_argument("-o", "--output", required=True, metavar="FILE", help="the picture: FILE.svg or FILE.png "
                        "(PNG needs cairosvg: pip install 'warbook[picture]')")
    render.set_defaults(run=run_render)


def _step(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"a step is a whole number from 0, not {text!r}")
    return value


def is_log(path: str) -> bool:
    """Whether a command-line argument names a saved game: a ``.jsonl`` file, or one starting with ``{``."""
    if path.endswith(".jsonl"):
        return True
    try:
        with open(path, "rb") as handle:
            return handle.read(64).lstrip()[:1] == b"{"
    except OSError:
        return False


def is_map(path: str) -> bool:
    """Whether a TOML file holds a ``[map]`` table and no ``[scenario]`` (else it is read as a
    scenario, whose loader reports what is wrong with it)."""
    import tomllib

    try:
        if os.path.getsize(path) > MAX_FILE_BYTES:
            return False  # the scenario loader refuses it, saying why (E004)
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    return "map" in data and "scenario" not in data


def side_problem(side: str | None, sides: tuple[str, ...]) -> str | None:
    """What is wrong with ``--side`` (a side the game does not have), or ``None``."""
    if side is None or side in sides:
        return None
    hint = did_you_mean(side, sides)
    return f"--side {side}: the game has no side {side!r}; its sides: {', '.join(sides)}" + (f" ({hint})" if hint else "")


def output_problem(output: str, suffixes: tuple[str, ...]) -> str | None:
    """What is wrong with an output file name: its kind, or a missing folder."""
    if Path(output).suffix.lower() not in suffixes:
        return f"cannot tell the kind of picture of {output!r}: name it {' or '.join('FILE' + s for s in suffixes)}"
    if not Path(output).parent.is_dir():
        return f"cannot write {output!r}: no folder {str(Path(output).parent)!r}"
    return None


def run_render(args: argparse.Namespace) -> int:
    from .. import frames
    from ..board import read_board
    from ..catalogue import scenario_argument
    from ..game import Game
    from ..picture import MapPicture, png
    from ..picture_style import possessive
    from ..scenario import load_scenario

    problem = output_problem(args.output, FORMATS)
    if problem:
        return usage(problem)
    logged = is_log(args.source)
    if not logged and (args.at is not None or args.side is not None):
        return usage("--at and --side need a log (`warbook play --log FILE`): a map or scenario has no game to show")
    try:
        if logged:
            game = Game.load(args.source)
            problem = side_problem(args.side, game.ctx.rules.sides)
            if problem:
                return usage(problem)
            last = len(game.choices)
            if args.at is not None and args.at > last:
                return usage(f"--at {args.at}: the game has {last} steps (0 to {last})")
            step = last if args.at is None else args.at
            shown = frames.at_step(game, step) if step != last else game
            picture = MapPicture(game.scenario.board, game.ctx.rules, game.scenario.name)
            seen = f"{possessive(picture.label_of('side', args.side))} view" if args.side else "every counter"
            svg = picture.svg(frames.counters(shown, args.side), frames.control(shown),
                              f"{frames.heading(shown, step)} ({seen})")
        elif is_map(args.source):
            svg = MapPicture(read_board(args.source)).svg()
        else:
            scenario = load_scenario(scenario_argument(args.source))
            svg = MapPicture(scenario.board, scenario.rules, scenario.name).svg()
    except RulesError as exc:
        print_diagnostics(exc.diagnostics)
        return EXIT_FINDINGS
    if Path(args.output).suffix.lower() == ".png":
        try:
            data = png(svg)
        except (ImportError, OSError) as exc:  # OSError: cairosvg finds no cairo library
            return usage(f"PNG needs cairosvg and the cairo library ({exc}): pip install 'warbook[picture]', or "
                         "write FILE.svg")
    else:
        data = svg.encode("utf-8")
    try:
        write_atomically(Path(args.output), data)
    except OSError as exc:
        return usage(f"cannot write {args.output!r}: {exc.strerror or exc}")
    return EXIT_CLEAN
