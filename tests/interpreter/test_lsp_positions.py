"""Spans (1-based, characters) to LSP positions (0-based, code units) and back, in each encoding.

Expected units are counted by encoding the text with Python's codecs, not by the module's own
per-character rule."""

from hypothesis import given, strategies as st

from warbook.dsl.ast import Span
from warbook.interpreter.lsp.positions import UTF8, UTF16, UTF32, to_character, to_column, to_position, to_range

CODECS = {UTF8: ("utf-8", 1), UTF16: ("utf-16-le", 2), UTF32: ("utf-32-le", 4)}


def units(text: str, encoding: str) -> int:
    codec, width = CODECS[encoding]
    return len(text.encode(codec)) // width


def test_a_half_and_a_clef_before_a_word():
    line = '1: ½D "𝄞" bogus'
    column = line.index("bogus") + 1  # 1-based, in characters: 11
    assert column == 11
    assert to_character(line, column, UTF32) == 10
    assert to_character(line, column, UTF16) == 11  # the clef is a surrogate pair
    assert to_character(line, column, UTF8) == 14  # ½ is two bytes, the clef four


def test_a_span_becomes_a_range_on_its_own_lines():
    lines = ["terrain t {", "    cost ½ for 𝄞x", "}"]
    span = Span("f.rules", 2, 17, 3, 2)  # from "x" to past the closing brace
    assert to_range(span, lines, UTF16) == ((1, 17), (2, 1))
    assert to_range(span, lines, UTF8) == ((1, 20), (2, 1))


def test_positions_past_the_end_count_one_unit_each():
    assert to_character("ab", 5, UTF16) == 4
    assert to_column("ab", 4, UTF16) == 5
    assert to_range(Span("f", 9, 1, 9, 3), ["x"], UTF16) == ((8, 0), (8, 2))


def test_a_position_inside_a_surrogate_pair_is_that_character():
    assert to_column("𝄞x", 1, UTF16) == 1
    assert to_column("𝄞x", 2, UTF16) == 2
    assert to_position(["a", "𝄞x"], 1, 2, UTF16) == (2, 2)


@given(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n"), max_size=30),
       st.sampled_from([UTF8, UTF16, UTF32]))
def test_every_column_goes_there_and_back(line, encoding):
    for column in range(1, len(line) + 2):
        character = to_character(line, column, encoding)
        assert character == units(line[: column - 1], encoding)
        assert to_column(line, character, encoding) == column
