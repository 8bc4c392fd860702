"""Bad input never crashes: any text parses, loads and lints to diagnostics or a model, within a second."""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warbook.dsl.diagnostics import RulesError
from warbook.dsl.lint import lint_rulebook
from warbook.dsl.loader import load_with_diagnostics
from warbook.dsl.parser import parse_text

ROOT = Path(__file__).resolve().parents[2]
RULEBOOKS = sorted((ROOT / "rulebooks").glob("*.rules"))

# Characters that matter to the syntax, mixed into arbitrary text so the fuzzer reaches the parser's corners.
SYNTAX = st.sampled_from(list('{}:"§#,\n\t ½+-/.*<>') + ["gap", "errata", "include", "extends", "table", "1:2"])
TEXT = st.lists(st.one_of(st.text(max_size=8), SYNTAX), max_size=60).map("".join)
SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@SETTINGS
@given(TEXT)
def test_parse_text_returns_or_raises_rules_error(text):
    try:
        parse_text(text, "fuzz.rules")
    except RulesError as exc:
        assert exc.diagnostics, "a RulesError always carries diagnostics"
        for d in exc.diagnostics:
            assert d.span.line >= 1 and d.span.column >= 1 and d.code


def _load_and_lint(path: Path) -> None:
    rulebook, diagnostics = load_with_diagnostics(path)
    for d in diagnostics:
        assert d.span.line >= 1 and d.code and d.message
    if rulebook is not None:
        lint_rulebook(rulebook, diagnostics)


@SETTINGS
@given(TEXT)
def test_arbitrary_files_load_and_lint_without_crashing(tmp_path, text):
    path = tmp_path / "fuzz.rules"
    path.write_text(text, encoding="utf-8")
    _load_and_lint(path)


@st.composite
def mutated(draw, source: str) -> str:
    lines = source.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["delete", "duplicate", "insert", "truncate", "swap"]))
        if action == "delete":
            del lines[i]
        elif action == "duplicate":
            lines.insert(i, lines[i])
        elif action == "insert":
            lines.insert(i, draw(st.one_of(st.text(max_size=12), SYNTAX)))
        elif action == "truncate":
            lines[i] = lines[i][: draw(st.integers(0, max(len(lines[i]) - 1, 0)))]
        else:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


@pytest.mark.parametrize("rulebook", RULEBOOKS, ids=lambda p: p.stem)
def test_mutated_rulebooks_load_or_report(tmp_path_factory, rulebook):
    source = rulebook.read_text(encoding="utf-8")
    folder = tmp_path_factory.mktemp("mutants")

    @settings(SETTINGS, max_examples=40)
    @given(mutated(source))
    def check(text):
        path = folder / rulebook.name
        path.write_text(text, encoding="utf-8")
        _load_and_lint(path)

    check()
