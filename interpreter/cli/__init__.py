"""The ``warbook`` command: one subcommand per stage, one module per subcommand (or pair).

Wherever a command takes a rulebook or a scenario, a shipped game's name does as
well as a path (``warbook play NAME``, ``warbook lint NAME``, ``warbook show NAME``;
``interpreter.catalogue``), from any folder.

Exit codes (ruff's): 0 clean, 1 diagnostics at or above the fail level, 2 a
usage error or a bug in warbook.  ``--exit-zero`` turns 1 into 0 but never
masks 2.  Only this package writes to stdout and stderr (and the human agent,
to the terminal stream it is handed).

A subcommand is a module of this package with a ``register(sub)`` function that adds its
parser(s) to argparse's subparsers, each with ``set_defaults(run=FUNCTION)``; ``COMMANDS``
is the one registry, in the order ``warbook --help`` lists them, with the subcommands each
module registers.  Only the module of the subcommand named on the command line is imported
(every one for ``warbook --help`` or a name that is none of them), and command modules import
the engine inside their ``run`` functions, so ``warbook lint`` of a rules file loads the
language alone.
"""

from __future__ import annotations

import gc
import importlib
import sys
from typing import NoReturn, Sequence

from ... import __version__
from .common import EXIT_CLEAN, EXIT_ERROR, Parser

COMMANDS = {
    "listing": ("list", "show"), "lint": ("lint",), "fmt": ("fmt",), "play": ("play", "replay"), "diff": ("diff",),
    "odds": ("odds",), "sim": ("sim",), "render": ("render",), "view": ("view",), "lsp": ("lsp",),
}
"""Every subcommand module of this package and the subcommands its ``register`` adds, in the
order ``warbook --help`` lists them."""


def command_modules(argv: Sequence[str] | None = None) -> list[str]:
    """The modules to register for ``argv``: the one whose subcommand ``argv`` names (its first
    word not starting with ``-``), else every one (``--help`` before it, a mistyped name)."""
    for word in sys.argv[1:] if argv is None else argv:
        if word in ("-h", "--help"):
            break
        if not word.startswith("-"):
            chosen = [module for module, names in COMMANDS.items() if word in names]
            return chosen or list(COMMANDS)
    return list(COMMANDS)


def build_parser(argv: Sequence[str] | None = None, every: bool = True) -> Parser:
    """The ``warbook`` parser, with every subcommand, or (``every=False``) with the one ``argv``
    names (``command_modules``)."""
    parser = Parser(prog="warbook", description="Rules-as-data engine for board wargames.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks for internal errors")
    parser.add_argument("--version", action="version", version=f"warbook {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for module in COMMANDS if every else command_modules(argv):
        importlib.import_module(f"{__name__}.{module}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None, process: bool = False) -> int:
    """Run the command ``argv`` names; its exit code.  ``process``: this is the ``warbook``
    process (``run``), which ends with the command: a command whose parser sets ``brief`` (a
    function of its arguments, true for a run that ends once it has printed) runs with the
    garbage collector off, since all it builds lives until the process ends."""
    parser = build_parser(argv, every=False)
    args = parser.parse_args(argv)
    try:
        if process and getattr(args, "brief", None) is not None and args.brief(args):
            gc.disable()
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
    value the exit code.

    What importing the command line built (the language's modules and record classes) lives as
    long as the process, so it is moved out of the collector's sight (``gc.freeze``): later
    collections skip it, which was 3% of a ``warbook lint`` process.  The price is that a
    reference cycle left over from importing is never freed.  What the command built is frozen
    too before the process ends: the collections Python makes as it exits then walk none of it
    (they were another 3% of a lint; exiting frees the memory anyway).  A brief command runs
    with the collector off (``main``: 2% of a lint)."""
    gc.freeze()
    code = main(process=True)
    gc.freeze()
    sys.exit(code)
