"""Suppression comments are found without splitting the text into lines (``dsl.lint``), numbered
as ``str.splitlines`` numbers the lines, whatever ends them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from warbook.dsl.lint import _lines_naming_lint

PIECES = ["lint:", "# lint: ignore[W4]", "x", " ", "\n", "\r\n", "\r", "\f", "\v", "\x1c", "\x85", "\u2028",
          "lint", ":", "]"]


def splitlines_reference(text: str) -> list[tuple[int, str]]:
    return [(n, line) for n, line in enumerate(text.splitlines(), start=1) if "lint:" in line]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_the_lines_found_are_those_splitlines_gives(text):
    assert list(_lines_naming_lint(text)) == splitlines_reference(text)


def test_line_numbers_and_texts_with_crlf_and_a_last_line_without_newline():
    text = "a\r\nb # lint: ignore[W401]\r\n\r\nc\nlint: twice lint: on one line"
    assert list(_lines_naming_lint(text)) == [(2, "b # lint: ignore[W401]"), (5, "lint: twice lint: on one line")]
    assert list(_lines_naming_lint("no comment\n" * 3)) == []
