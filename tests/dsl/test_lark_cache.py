"""The parser's tables are cached per machine (``dsl.lark_cache``): same parser, safe writes."""

from __future__ import annotations

import sys
import subprocess
from pathlib import Path

from warbook.dsl.lark_cache import build_lark, cache_folder

TEXT = '\nside blue "Blue"\nterrain clear {\n  cost 1 for foot\n}\n'


def test_a_cached_parser_is_saved_once_and_parses_as_a_fresh_one(tmp_path: Path) -> None:
    first = build_lark(tmp_path, maybe_placeholders=True)
    saved = sorted(tmp_path.iterdir())
    assert [p.suffix for p in saved] == [".lark"]  # one file, no partial left behind
    second = build_lark(tmp_path, maybe_placeholders=True)
    assert sorted(tmp_path.iterdir()) == saved
    assert second.parse(TEXT) == first.parse(TEXT)


def test_other_options_get_their_own_tables(tmp_path: Path) -> None:
    build_lark(tmp_path, maybe_placeholders=True)
    build_lark(tmp_path, maybe_placeholders=False)
    assert len(list(tmp_path.glob("*.lark"))) == 2


def test_a_damaged_cache_file_is_rebuilt_not_an_error(tmp_path: Path) -> None:
    build_lark(tmp_path, maybe_placeholders=True)
    (saved,) = tmp_path.glob("*.lark")
    expected = build_lark(tmp_path, maybe_placeholders=True).parse(TEXT)
    saved.write_bytes(saved.read_bytes()[:200])
    assert build_lark(tmp_path, maybe_placeholders=True).parse(TEXT) == expected


def test_a_folder_that_cannot_be_made_means_no_cache(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    parser = build_lark(blocker / "cache", maybe_placeholders=True)
    assert parser.parse(TEXT) == build_lark(tmp_path / "elsewhere", maybe_placeholders=True).parse(TEXT)
    assert blocker.read_text() == "not a folder"


def test_the_cache_folder_follows_the_environment(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("WARBOOK_CACHE_DIR", str(tmp_path / "here"))
    assert cache_folder() == tmp_path / "here"
    monkeypatch.setenv("WARBOOK_CACHE_DIR", "")
    assert cache_folder() is None
    monkeypatch.delenv("WARBOOK_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_folder() == tmp_path / "xdg" / "warbook"


def test_linting_a_rules_file_imports_neither_the_engine_nor_networkx(tmp_path: Path) -> None:
    """An on-save hook pays only for the language: the game engine and graphs load only for
    scenarios and play."""
    rules = tmp_path / "tiny.rules"
    rules.write_text('rulebook "Tiny" {\n  source "a test"\n}\nside blue "Blue"\n', encoding="utf-8")
    probe = ("import sys\nfrom warbook.interpreter.cli import main\nmain(['lint', '--exit-zero', sys.argv[1]])\n"
             "heavy = sorted(m for m in sys.modules if m.split('.')[0] == 'networkx' or m in "
             "('warbook.interpreter.scenario', 'warbook.interpreter.game', 'warbook.interpreter.board'))\n"
             "print('HEAVY', heavy)\n")
    done = subprocess.run([sys.executable, "-c", probe, str(rules)], capture_output=True, text=True, check=False)
    assert "HEAVY []" in done.stdout, done.stdout + done.stderr


def test_linting_a_rulebook_in_the_checkout_imports_only_what_it_uses() -> None:
    """The repository's ``pyproject.toml`` has a plain ``[tool.warbook]`` table: read without cattrs
    (``dsl.config.structure_plain``).  several_klicks.rules has no awards, no map features and no
    force dropping units off, so the scoring, terrain and movement records are not built; good text is read without Lark (``dsl.reader``); of
    the command modules, only ``lint``'s is imported (``interpreter.cli.COMMANDS``)."""
    root = Path(__file__).resolve().parents[2]
    probe = ("import sys\nfrom warbook.interpreter.cli import main\n"
             "code = main(['lint', '--exit-zero', 'rulebooks/several_klicks.rules'])\n"
             "print('LOADED', sorted(m for m in sys.modules if m.split('.')[0] in ('cattrs', 'lark') or m in "
             "('warbook.dsl.compiled.scoring', 'warbook.dsl.compiled.terrain', 'warbook.dsl.compiled.movement', "
             "'json')), code)\n"
             "print('COMMANDS', sorted(m for m in sys.modules if m.startswith('warbook.interpreter.cli.')))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False, cwd=root)
    assert "LOADED [] 0" in done.stdout, done.stdout + done.stderr
    assert "COMMANDS ['warbook.interpreter.cli.common', 'warbook.interpreter.cli.lint']" in done.stdout
