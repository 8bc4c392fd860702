"""The subcommand registry (``interpreter.cli.COMMANDS``): what each module registers, and which
modules a command line registers (that ``warbook lint`` imports no other command module:
``tests/dsl/test_lark_cache.py``)."""

from __future__ import annotations

import importlib

import pytest

from warbook.interpreter.cli import COMMANDS, build_parser, command_modules
from warbook.interpreter.cli.common import Parser


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
