"""The subcommand registry (``interpreter.cli.COMMANDS``): what each module registers, and that a
subcommand imports its own module alone."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from warbook.interpreter.cli import COMMANDS, build_parser, command_modules
from warbook.interpreter.cli.common import Parser

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("module", list(COMMANDS))
def test_each_module_registers_the_subcommands_the_registry_names(module: str) -> None:
    sub = Parser(prog="warbook").add_subparsers(dest="command", parser_class=Parser)
    importlib.import_module(f"warbook.interpreter.cli.{module}").register(sub)
    assert tuple(sub.choices) == COMMANDS[module]


def test_the_full_parser_lists_every_subcommand_in_the_registry_order() -> None:
    sub = next(a for a in build_parser()._actions if a.dest == "command")  # noqa: SLF001 - argparse's own list
    assert tuple(sub.choices) == tuple(name for names in COMMANDS.values() for name in names)


@pytest.mark.parametrize(("argv", "modules"), [
    (["lint", "a.rules"], ["lint"]),
    (["--debug", "replay", "x.jsonl"], ["play"]),
    (["show", "x"], ["listing"]),
    (["--help"], list(COMMANDS)),
    (["-h", "lint"], list(COMMANDS)),  # the top-level help lists every subcommand
    (["lnit", "a.rules"], list(COMMANDS)),  # argparse names the choices
    ([], list(COMMANDS)),
])
def test_only_the_named_subcommand_module_is_registered(argv: list[str], modules: list[str]) -> None:
    assert command_modules(argv) == modules


def test_linting_imports_no_other_command_module() -> None:
    probe = ("import sys\nfrom warbook.interpreter.cli import main\n"
             "code = main(['lint', '--exit-zero', 'rulebooks/several_klicks.rules'])\n"
             "print('COMMANDS', sorted(m.rsplit('.', 1)[1] for m in sys.modules "
             "if m.startswith('warbook.interpreter.cli.')), code)\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False, cwd=ROOT)
    assert "COMMANDS ['common', 'lint'] 0" in done.stdout, done.stdout + done.stderr
