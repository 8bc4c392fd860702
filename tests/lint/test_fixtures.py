"""One fixture per code, with golden output (ruff's ``F841_0.py`` + ``.snap``).

``fixtures/<CODE>_<name>.rules`` holds cases that must fire and cases that must
not (each commented); ``<CODE>_<name>.expected`` is the concise output of
``warbook lint`` for that code only, paths relative to the repository root.
Files under ``fixtures/support/`` are include targets, not fixtures.
"""

import re
from pathlib import Path

import pytest

from warbook.dsl.codes import RULES
from warbook.dsl.diagnostics import CODES, RulesError
from warbook.dsl.lint import explain, lint_path, load_checks
from warbook.dsl.parser import parse_text
from warbook.interpreter.render import concise

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
FIXTURE_FILES = sorted(FIXTURES.glob("*.rules"))

load_checks()


RULEBOOK_CODES = sorted(info.code for info in RULES if not info.retired)
"""The rules pipeline's own codes (``dsl.codes.RULES``); the table's ``DATA`` codes are about other
inputs (the map reader's E7xx for map files), tested where those are read."""


def fixture_code(path: Path) -> str:
    return path.stem.split("_", 1)[0]


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: p.stem)
def test_fixture_output_matches_golden(path, golden, monkeypatch):
    monkeypatch.chdir(ROOT)
    code = fixture_code(path)
    lines = [concise(d) for d in lint_path(path.relative_to(ROOT)) if d.code == code]
    assert lines, f"{path.name} must contain at least one case where {code} fires"
    golden(path.with_suffix(".expected"), "".join(f"{line}\n" for line in lines))


def test_every_registered_code_has_a_fixture():
    assert len(RULEBOOK_CODES) >= 30 + 22 and set(RULEBOOK_CODES) <= set(CODES)
    covered = {fixture_code(p) for p in FIXTURE_FILES}
    assert sorted(set(RULEBOOK_CODES) - covered) == []


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: p.stem)
def test_fixture_is_named_after_a_registered_code(path):
    code, _, name = path.stem.partition("_")
    assert code in CODES, f"{path.name}: {code} is not a registered code"
    assert name == CODES[code].name.replace("-", "_"), f"{path.name}: {code} is called {CODES[code].name!r}"
    assert path.with_suffix(".expected").is_file(), f"{path.name} has no .expected golden"


def test_every_expected_file_has_a_fixture():
    orphans = [p.name for p in FIXTURES.glob("*.expected") if not p.with_suffix(".rules").is_file()]
    assert orphans == []


@pytest.mark.parametrize("code", RULEBOOK_CODES)
def test_every_code_is_documented(code):
    info = CODES[code]
    assert info.name and info.name == info.name.lower() and " " not in info.name
    doc = explain(code)
    assert "## What it does" in doc, f"{code} has no '## What it does' section"
    what = doc.split("## What it does", 1)[1].split("##", 1)[0]
    assert what.strip(), f"{code}: '## What it does' is empty"


def test_fixtures_mark_cases_that_fire_and_that_do_not():
    """Each fixture comments its cases: ``# fires: …`` and ``# ok: …`` (a case that must stay silent)."""
    unmarked = []
    for path in FIXTURE_FILES:
        text = path.read_text(encoding="utf-8")
        if not re.search(r"#\s*fires\b", text) or not re.search(r"#\s*ok\b", text):
            unmarked.append(path.name)
    assert unmarked == []


def test_clean_rulebook_is_silent(monkeypatch):
    """A small complete rulebook exercising most constructs: no check may fire on it."""
    monkeypatch.chdir(ROOT)
    found = [concise(d) for d in lint_path(FIXTURES.relative_to(ROOT) / "support" / "clean.rules")]
    assert found == []


def _fenced_examples(doc: str) -> list[str]:
    return re.findall(r"```\n(.*?)```", doc, flags=re.S)


@pytest.mark.parametrize("code", RULEBOOK_CODES)
def test_examples_in_the_docs_are_valid_syntax(code):
    """``--explain`` shows rules text; every fenced example must at least parse."""
    for example in _fenced_examples(explain(code)):
        try:
            parse_text(example, f"{code}-example.rules")
        except RulesError as exc:
            pytest.fail(f"{code} example does not parse: {exc.diagnostics[0]}\n{example}")
