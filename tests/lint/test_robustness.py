"""Checks never raise: mutated fixtures (lines dropped, doubled, swapped, cut) still lint to diagnostics."""

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warbook.dsl.lint import lint_rulebook, load_checks
from warbook.dsl.loader import load_with_diagnostics

load_checks()

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SOURCES = [p.read_text(encoding="utf-8") for p in sorted(FIXTURES.glob("[EWI][1-6]*.rules"))]
SOURCES.append((FIXTURES / "support" / "clean.rules").read_text(encoding="utf-8"))


@st.composite
def mutants(draw) -> str:
    lines = draw(st.sampled_from(SOURCES)).split("\n")
    for _ in range(draw(st.integers(1, 6))):
        i = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["drop", "double", "swap", "cut", "splice"]))
        if action == "drop" and len(lines) > 1:
            del lines[i]
        elif action == "double":
            lines.insert(i, lines[i])
        elif action == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif action == "cut":
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
        else:  # a line from another fixture
            other = draw(st.sampled_from(SOURCES)).split("\n")
            lines.insert(i, other[draw(st.integers(0, len(other) - 1))])
    return "\n".join(lines)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(mutants())
def test_mutated_fixtures_lint_without_raising(tmp_path, text):
    path = tmp_path / "mutant.rules"
    path.write_text(text, encoding="utf-8")
    rulebook, loading = load_with_diagnostics(path)
    if rulebook is not None:
        report = lint_rulebook(rulebook, loading)
        for d in report.diagnostics:
            assert d.code and d.message and d.span.line >= 1
            assert d.message == d.message.strip() and not d.message.endswith(".")
