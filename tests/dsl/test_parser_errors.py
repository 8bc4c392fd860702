"""Syntax errors become positioned diagnostics; the parser resumes at the next line."""

import pytest

from warbook.dsl.diagnostics import RulesError
from warbook.dsl.parser import MAX_ERRORS, parse_text


def errors(text: str) -> list[tuple[int, int, str, str]]:
    with pytest.raises(RulesError) as info:
        parse_text(text, "e.rules")
    return [(d.span.line, d.span.column, d.code, d.message) for d in info.value.diagnostics]


def test_stray_closing_brace():
    assert errors("\nside a\n}\n") == [(3, 1, "E001", "unexpected '}'")]


def test_unterminated_string_is_an_unexpected_character():
    assert errors('\ntext "open\n') == [(2, 6, "E002", "unexpected character '\"'")]


def test_unclosed_block_is_reported_at_its_opening_brace_and_stops():
    (only,) = errors("\nterrain clear {\n    cost 1\n")
    assert only == (2, 15, "E003", "file ends inside a '{' block")


def test_unclosed_block_is_the_last_brace_left_open_braces_in_comments_and_text_aside():
    text = 'side a {\n    text "{"  # {\n}\nside b {\n    x {\n    }\n    y\n'
    assert errors(text) == [(4, 8, "E003", "file ends inside a '{' block")]


def test_provenance_before_words_gets_a_hint():
    with pytest.raises(RulesError) as info:
        parse_text('\n§"8.4" terrain x\n', "e.rules")
    (d,) = info.value.diagnostics
    assert d.code == "E001" and "provenance goes after the words" in d.hint


def test_several_errors_in_one_file_are_all_reported():
    text = "\nside a }\nside b\nx: y: z\nside c\n}\n"
    assert [(line, code) for line, _, code, _ in errors(text)] == [(2, "E001"), (4, "E001"), (6, "E001")]


def test_gives_up_after_max_errors():
    text = "\n" + "}\n" * (MAX_ERRORS + 5)
    assert len(errors(text)) == MAX_ERRORS


def test_valid_text_with_bom_and_no_final_newline():
    parsed = parse_text("\ufeffside a \"A\"", "b.rules")
    assert parsed.statements[0].words[1].text == "a"


def test_escapes_in_strings():
    parsed = parse_text('\nnote "say \\"hi\\"\\n"\n', "s.rules")
    assert parsed.statements[0].words[1].text == 'say "hi"\n'
