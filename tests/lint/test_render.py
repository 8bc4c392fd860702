"""Renderers: one test per output format (ruff's concise, full and JSON shapes)."""

import json

from warbook.dsl.ast import Span
from warbook.dsl.diagnostics import diagnostic
from warbook.dsl.lint import load_checks
from warbook.interpreter import render

load_checks()

SOURCE = 'tag mech "Mech"\nterrain jungle "Jungle" {\n    cost 2 for mehc\n}\n'
UNKNOWN = diagnostic("E101", Span("house.rules", 3, 16, 3, 20), "unknown selector 'mehc'", "did you mean 'mech'?")
UNUSED = diagnostic("W403", Span("house.rules", 1, 5, 1, 9), "tag 'mech' is never used")


def test_concise_is_path_line_column_code_message():
    assert render.concise(UNKNOWN) == "house.rules:3:16: E101 unknown selector 'mehc'"


def test_full_shows_the_line_a_caret_under_the_span_and_the_hint():
    shown = render.full(UNKNOWN, {"house.rules": SOURCE}.get)
    assert shown.split("\n") == [
        "house.rules:3:16: E101 unknown selector 'mehc' [unknown-name]",
        "   3 |     cost 2 for mehc",
        "                      ^^^^",
        "  help: did you mean 'mech'?",
    ]


def test_full_without_hint_or_source_keeps_the_header_line():
    header, line, caret = render.full(UNUSED, {"house.rules": SOURCE}.get).split("\n")
    assert line == '   1 | tag mech "Mech"' and caret.index("^^^^") == line.index("mech") and caret.strip() == "^^^^"
    assert render.full(UNUSED, lambda path: None) == "house.rules:1:5: W403 tag 'mech' is never used [unused-tag]"


def test_json_uses_ruffs_field_names_with_sorted_keys():
    items = json.loads(render.as_json([UNKNOWN, UNUSED]))
    assert [sorted(item) for item in items] == [
        ["code", "end_location", "filename", "fix", "hint", "location", "message", "name", "severity"]] * 2
    first, second = items
    assert first == {
        "code": "E101", "name": "unknown-name", "severity": "error", "message": "unknown selector 'mehc'",
        "hint": "did you mean 'mech'?", "filename": "house.rules",
        "location": {"row": 3, "column": 16}, "end_location": {"row": 3, "column": 20}, "fix": None,
    }
    assert second["hint"] is None and second["severity"] == "warning"
    assert render.as_json([]) == "[]"


def test_full_keeps_the_caret_under_the_span_when_the_line_is_indented_with_tabs():
    source = 'terrain jungle "Jungle" {\n\tcost 2 for mehc\n}\n'
    d = diagnostic("E101", Span("tabs.rules", 2, 13, 2, 17), "unknown selector 'mehc'")
    _, line, caret = render.full(d, {"tabs.rules": source}.get).split("\n")
    assert "\t" not in line and caret.index("^") == line.index("mehc") and caret.strip() == "^^^^"
