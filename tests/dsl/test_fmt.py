"""``dsl.fmt``: the canonical layout, hand-checked; idempotent, and the model unchanged, on every
shipped rulebook and on copies of them with their layout mutated (hypothesis)."""

import re
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from layout import mutated_layout
from warbook.dsl import reader
from warbook.dsl.ast import Span
from warbook.dsl.diagnostics import RulesError
from warbook.dsl.fmt import format_text, is_formatted
from warbook.dsl.loader import load_with_diagnostics

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted({*ROOT.glob("rulebooks/*.rules"), *ROOT.glob("scenarios/*.rules"),
                  *ROOT.glob("examples/**/*.rules"), *ROOT.glob("tests/gallery/*/*.rules")})
SMALL = [p for p in SHIPPED if p.stat().st_size < 40_000]
"""The shipped files hypothesis mutates most (the largest is sampled too, but is slow to load)."""


def test_layout_of_a_messy_file():
    messy = (
        "\n\n# head comment\n"
        'side a "A" gap "g" §"1"   {   # trailing\n'
        '\ttext "x" , "y"\n'
        "  empty {\n  }\n\n\n"
        "  # inner comment\n\n"
        "  1..2 : DE DE   NE\n"
        '  10: a b c errata "e" § "s"\n'
        "  3: ½D½A x   \n"
        "\n}\n"
        "x { y\n}\n"
    )
    assert format_text(messy) == (
        "# head comment\n"
        'side a "A" §"1" gap "g" {  # trailing\n'
        '    text "x", "y"\n'
        "    empty {}\n"
        "\n"
        "    # inner comment\n"
        "\n"
        "    1..2: DE   DE NE\n"
        '    10:   a    b  c  §"s" errata "e"\n'
        "    3:    ½D½A x\n"
        "}\n"
        "x {\n"
        "    y\n"
        "}\n"
    )


def test_rows_align_only_in_runs_without_blank_lines_or_comments():
    text = "t {\n    1: a bb\n    22: ccc d\n\n    3: e f\n    # c\n    44: g h\n}\n"
    assert format_text(text) == ("t {\n    1:  a   bb\n    22: ccc d\n\n    3: e f\n    # c\n    44: g h\n}\n")


def test_comments_and_notation_are_kept_exactly():
    text = 'a "q\\"s\\n" 3:1 1..3 27+ x1/2 K+R? # ## odd   comment #\n  # indented   comment\nb\n'
    assert format_text(text) == 'a "q\\"s\\n" 3:1 1..3 27+ x1/2 K+R?  # ## odd   comment #\n# indented   comment\nb\n'


def test_a_multi_line_text_is_kept_as_written():
    text = 'a {\n  text "one\n   two  "   # c\n}\n'
    assert format_text(text) == 'a {\n    text "one\n   two  "  # c\n}\n'


def test_line_endings_bom_and_end_of_file():
    assert format_text("\ufeffa\r\nb") == "a\nb\n"
    assert format_text("") == "" and format_text("\n\n# c\n\n") == "# c\n"


def test_a_syntax_error_is_refused_with_the_parsers_diagnostics():
    with pytest.raises(RulesError) as info:
        format_text("side a {\n    short a\n", "e.rules")
    assert [(d.code, d.span.line, d.span.column) for d in info.value.diagnostics] == [("E003", 1, 8)]


def _without_spans(value):
    """A model value with every ``Span`` left out, for comparing what two texts say."""
    if isinstance(value, Span):
        return None
    if attrs.has(type(value)):
        return (type(value).__name__, *(_without_spans(getattr(value, f.name)) for f in attrs.fields(type(value))
                                        if f.name != "sources"))
    if isinstance(value, tuple | list):
        return tuple(_without_spans(v) for v in value)
    if isinstance(value, frozenset | set):
        return frozenset(_without_spans(v) for v in value)
    return value


def _model(path: Path, text: str):
    rulebook, diagnostics = load_with_diagnostics(path, texts={path.resolve(): text})
    assert rulebook is not None, diagnostics
    return _without_spans(rulebook)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_shipped_files_format_idempotently_to_the_same_model(path):
    text = path.read_text(encoding="utf-8")
    formatted = format_text(text, str(path))
    assert format_text(formatted, str(path)) == formatted
    assert _model(path, formatted) == _model(path, text)


MUTATION = settings(deadline=None, max_examples=20, suppress_health_check=[HealthCheck.too_slow])


@MUTATION
@given(st.sampled_from(SMALL + SMALL + SHIPPED), st.randoms(use_true_random=False))
def test_a_mutated_layout_formats_as_the_original(path, rng):
    """Spaces, tabs, indentation and repeated blank lines are layout: the formatted text is the same."""
    text = path.read_text(encoding="utf-8")
    assert format_text(mutated_layout(text, rng, False), str(path)) == format_text(text, str(path))


@MUTATION
@given(st.sampled_from(SMALL + SMALL + SHIPPED), st.randoms(use_true_random=False))
def test_a_mutated_file_formats_idempotently_to_the_same_model(path, rng):
    mutated = mutated_layout(path.read_text(encoding="utf-8"), rng, True)
    formatted = format_text(mutated, str(path))
    assert is_formatted(formatted, str(path))
    assert _model(path, formatted) == _model(path, mutated)


def test_the_example_of_docs_fmt_md_is_real_output():
    before, after = re.findall(r"```rules\n(.*?)```", (ROOT / "docs" / "fmt.md").read_text(encoding="utf-8"), re.S)
    assert format_text(before) == after and before != after


PIECES = st.sampled_from(["a", "b:c", "½D", "1:2", "gap", "errata", "gapx", '"q"', '"q\\"s"', '"two\n  lines"',
                          ",", ":", "§", "{", "}", "{}", "\n", "\n", "\n", "\n\n\n", "\r\n", " ", "\t", "# c", "#"])
GLUE = st.sampled_from(["", " ", " ", "\n", "\n    "])
TEXT = st.lists(st.tuples(PIECES, GLUE), max_size=40).map(lambda parts: "".join(p + g for p, g in parts))


@settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(TEXT)
def test_generated_text_that_parses_formats_idempotently(text):
    """Every text the grammar accepts formats, once and for all (``format_text`` itself checks that
    the tree is unchanged)."""
    if reader.read(text if text.endswith("\n") else text + "\n", "t.rules") is None:
        return
    formatted = format_text(text)
    assert format_text(formatted) == formatted
