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


def test_the_help_is_argparse_own_at_the_terminal_width(monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    helps = []
    for columns in ("44", "120"):
        monkeypatch.setenv("COLUMNS", columns)
        ours, plain = build_parser(["lint"], every=False), argparse.ArgumentParser(prog="warbook", description=(
            "Rules-as-data engine for board wargames."))
        plain.add_argument("--debug", action="store_true", help="show tracebacks for internal errors")
        plain.add_argument("--version", action="version", version="x")
        sub = plain.add_subparsers(dest="command", required=True)
        importlib.import_module("warbook.interpreter.cli.lint").register(sub)
        assert ours.format_help() == plain.format_help() and ours.format_usage() == plain.format_usage()
        lint = next(a for a in ours._actions if a.dest == "command").choices["lint"]  # noqa: SLF001 - argparse's own list
        help_text = lint.format_help()
        assert help_text == next(a for a in plain._actions if a.dest == "command").choices["lint"].format_help()  # noqa: SLF001
        helps.append(help_text)
    assert len(helps[0].splitlines()) > len(helps[1].splitlines())  # the width was asked, and it told


def test_a_lint_command_line_asks_no_terminal_width() -> None:
    import subprocess
    import sys

    probe = ("import sys; from warbook.interpreter.cli import build_parser; "
             "build_parser(['lint', 'a.rules'], every=False).parse_args(['lint', 'a.rules']); print('shutil' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"  # shutil is imported to ask the width, for help only


def test_only_the_warbook_process_lints_with_the_collector_off(capsys: pytest.CaptureFixture[str]) -> None:
    import gc

    from warbook.interpreter.cli import main

    assert gc.isenabled()
    try:
        assert main(["lint", "--explain", "E101"]) == 0 and gc.isenabled()  # in-process: untouched
        assert main(["list"], process=True) == 0 and gc.isenabled()  # a command that is not brief
        assert main(["lint", "--explain", "E101"], process=True) == 0 and not gc.isenabled()
    finally:
        gc.enable()
    assert "E101" in capsys.readouterr().out
