"""Spans point where the text is. Every input starts with a blank line, so a node wrongly put on line 1 shows."""

from warbook.dsl.ast import Span
from warbook.dsl.parser import parse_text

TEXT = '''
terrain  jungle "Jungle" §"Terrain table" {
    cost 3
    # a comment line
    defence x3   gap "why"
}
table crt {
    columns 1:2 2:1
    1: ½A  D
}
'''


def test_declaration_words_have_exact_spans():
    (terrain, table) = parse_text(TEXT, "p.rules").statements
    assert terrain.head.span == Span("p.rules", 2, 1, 2, 8)
    assert (terrain.span.end_line, terrain.span.end_column) == (6, 2), "a declaration ends at its closing brace"
    assert terrain.words[1].span == Span("p.rules", 2, 10, 2, 16)
    assert terrain.words[2].span == Span("p.rules", 2, 17, 2, 25)
    assert terrain.words[2].text == "Jungle" and terrain.words[2].quoted
    (section,) = terrain.annotations
    assert (section.kind, section.text, section.span.line, section.span.column) == ("section", "Terrain table", 2, 27)


def test_block_lines_keep_their_own_lines_across_comments():
    terrain = parse_text(TEXT, "p.rules").statements[0]
    cost, defence = terrain.block
    assert cost.span.line == 3 and cost.span.column == 5
    assert defence.span.line == 5
    assert defence.annotations[0].kind == "gap" and defence.annotations[0].span.column == 22


def test_row_cells_and_unicode_columns():
    table = parse_text(TEXT, "p.rules").statements[1]
    row = table.block[1]
    assert row.is_row and row.words[0].text == "1"
    assert [c.text for c in row.cells] == ["½A", "D"]
    assert row.cells[0].span == Span("p.rules", 9, 8, 9, 10)
    assert row.cells[1].span == Span("p.rules", 9, 12, 9, 13)


def test_multiline_string_moves_following_lines():
    text = '\nevent e "E" {\n    text "two\nlines"\n    effect no effect\n}\n'
    event = parse_text(text, "m.rules").statements[0]
    assert event.block[0].words[1].text == "two\nlines"
    assert event.block[1].span.line == 5
