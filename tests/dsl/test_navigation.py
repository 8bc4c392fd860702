"""The language's own answers to an editor (``dsl.navigation``, ``dsl.keywords``): the outline of
a file, the word and the blocks at a position of text that may not parse, references and
declarations in a rulebook loaded across ``extends``."""

from pathlib import Path

from warbook.dsl.keywords import describe, line_words, property_words, schema_keywords
from warbook.dsl.loader import load_rulebook
from warbook.dsl.navigation import (context_at, declaration_at, declarations_named, file_named, is_cite, outline,
                                    reference_at, word_at)
from warbook.dsl.parser import parse_text
from warbook.dsl.schema import KINDS

TEXT = '''
extends "base.rules"

tag wet "Wet" §"1.0"

terrain marsh "Marsh" {
    cost 2 for wet
    tags wet
}

sequence {
    phase battle "Battle" {
        mutual
    }
}
'''


def test_the_outline_is_the_files_kinds_and_names_with_nested_ones():
    symbols = outline(parse_text(TEXT, "f.rules"))
    assert [(s.kind, s.name, s.label) for s in symbols] == [
        ("extends", "base.rules", None), ("tag", "wet", "Wet"), ("terrain", "marsh", "Marsh"),
        ("sequence", "sequence", None)]
    marsh = symbols[2]
    assert (marsh.span.line, marsh.span.end_line, marsh.name_span.line, marsh.name_span.column) == (6, 9, 6, 9)
    assert [(c.kind, c.name, c.name_span.line) for c in symbols[3].children] == [("phase", "battle", 12)]


def test_the_context_is_read_from_text_that_does_not_parse():
    broken = 'terrain t "x {" {\n    cost 2 for "unclosed\n    ta\n'
    found = context_at(broken, 3, 7)
    assert (found.blocks, found.before, found.prefix) == (("terrain",), (), "ta")
    middle = context_at(broken, 2, 15)
    assert (middle.blocks, middle.before, middle.prefix) == (("terrain",), ("cost", "2"), "for")
    top = context_at("side a {\n}\n", 2, 2)
    assert top.at_top_level and top.kind is None
    unknown = context_at("frob x {\n  \n", 2, 3)
    assert unknown.blocks == (None,) and unknown.kind is None and not unknown.at_top_level
    override = context_at("override terrain marsh {\n    \n", 2, 5)
    assert override.kind == "terrain"
    nested = context_at(TEXT, 13, 9)
    assert nested.blocks == ("sequence", "phase")
    assert context_at("side a # co", 1, 12).in_text and context_at('side a "Al', 1, 11).in_text
    assert not context_at('side a "A" ', 1, 12).in_text and not context_at("side a # c\n  ", 2, 3).in_text


def test_a_cite_is_the_word_after_a_section_mark():
    line = 'side red "Red" § "1.0" gap "2.0"'
    assert is_cite(line, word_at(line, 1, 19)) and not is_cite(line, word_at(line, 1, 30))
    assert not is_cite(line, word_at(line, 1, 11))


def test_the_word_at_a_position_is_an_atom_or_a_string_never_a_marker_or_comment():
    line = 'terrain marsh "Marsh" gap "why" {  # note'
    assert word_at(line, 1, 9).text == "marsh"
    assert word_at(line, 1, 14).text == "marsh"  # just after the word
    assert word_at(line, 1, 16).value == "Marsh" and word_at(line, 1, 16).quoted
    assert word_at(line, 1, 23) is None  # on 'gap'
    assert word_at(line, 1, 38) is None  # in the comment
    assert word_at(line, 2, 1) is None


def test_references_and_declarations_across_extends(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("base.rules").write_text('side red "Red"\ntag dry "Dry"\n', encoding="utf-8")
    Path("f.rules").write_text(TEXT, encoding="utf-8")
    rulebook = load_rulebook("f.rules")
    ref = reference_at(rulebook, "f.rules", 7, 17)  # 'wet' in 'cost 2 for wet'
    assert ref is not None and ref.name == "wet" and "tag" in ref.kinds
    assert reference_at(rulebook, "other.rules", 7, 17) is None
    (wet,) = declarations_named(rulebook, "wet", ref.kinds)
    assert (wet.kind, wet.name_span.path, wet.name_span.line) == ("tag", "f.rules", 4)
    assert declarations_named(rulebook, "red")[0].name_span.path == "base.rules"
    assert declaration_at(rulebook, tmp_path / "f.rules", 6, 10).name == "marsh"
    assert file_named("f.rules", "base.rules") == Path("base.rules")
    assert file_named("f.rules", "missing.rules") is None
    assert file_named("f.rules", "several_klicks").name == "several_klicks.rules"


def test_keywords_are_the_schemas():
    keywords = schema_keywords()
    assert set(keywords.kinds) == {k for k, s in KINDS.items() if s.top_level}
    assert keywords.nested_kinds == ("phase", "step")
    assert "cost" in keywords.properties and "half" in keywords.words and "+" not in keywords.all()
    assert "cost" in property_words("terrain") and "phase" in property_words("sequence")
    assert {"no", "entry", "for", "when"} <= set(line_words("terrain", "cost"))
    assert "eliminate" in line_words("result", "effect") and "fight" in line_words("phase", "do")
    assert describe("terrain", "cost")[0].startswith("cost (no entry")
    assert describe(None, "cost") is None and describe("terrain", "phase") is None
    assert describe("sequence", "phase")[0] == "phase <name:NAME> [<label:TEXT>]"
