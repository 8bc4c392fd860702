"""The printed-notation readers and the property pattern matcher."""

from fractions import Fraction

from warbook.dsl.ast import Span, Word
from warbook.dsl.patterns import Ref, compile_pattern
from warbook.dsl import values


def words(*texts: str) -> tuple[Word, ...]:
    return tuple(Word(Span("w", 1, i + 1, 1, i + 2), t, t.startswith('"'))
                 if not t.startswith('"') else Word(Span("w", 1, i + 1, 1, i + 2), t.strip('"'), True)
                 for i, t in enumerate(texts))


def test_numbers_fractions_and_vulgar_fractions():
    assert values.read_number("1/2") == Fraction(1, 2)
    assert values.read_number("½") == Fraction(1, 2)
    assert values.read_number("1½") == Fraction(3, 2)
    assert values.read_number("3") == 3
    assert values.read_number("1/0") is None and values.read_number("x") is None


def test_ranges_as_printed():
    assert values.read_range("1-3") == values.Range(1, 3, "1-3")
    assert values.read_range("1..3") == values.Range(1, 3, "1..3")
    assert values.read_range("27+") == values.Range(27, None, "27+")
    assert values.read_range("<1*") == values.Range(None, 0, "<1*")
    assert values.read_range("6..1") is None and values.is_backwards_range("6..1")
    assert 28 in values.read_range("27+") and 26 not in values.read_range("27+")


def test_dice_odds_shifts_multipliers_modifiers():
    assert values.read_dice("d6") == values.Dice(1, 6)
    assert values.read_dice("2d6").high == 12
    assert values.read_odds("3:1").ratio == 3
    assert values.read_odds("0:1") is None
    assert values.read_shift("2L").columns == -2 and values.read_shift("1R").columns == 1
    assert values.read_multiplier("x2") == 2 and values.read_multiplier("x1/2") == Fraction(1, 2)
    assert values.read_modifier("-1") == -1 and values.read_modifier("+1") == 1


def test_pattern_alternatives_optionals_and_repeats():
    p = compile_pattern("cost (no entry | <amount:NUM>) [for <who:REF(tag,unit)>+]")
    m = p.match(words("cost", "1/2", "for", "mech", "armour"))
    assert m.ok and m.bindings["amount"] == Fraction(1, 2)
    assert [r.name for r in m.bindings["who"]] == ["mech", "armour"]
    assert all(isinstance(r, Ref) and r.kinds == ("tag", "unit") for r in m.bindings["who"])
    assert p.match(words("cost", "no", "entry")).ok


def test_pattern_failure_reports_furthest_position_and_expectations():
    p = compile_pattern("cost (no entry | <amount:NUM>) [for <who:REF(tag)>+]")
    m = p.match(words("cost", "fast"))
    assert not m.ok and m.failed_at == 1
    assert "'no'" in m.expected and "a number (3, 1/2, ½)" in m.expected
    m = p.match(words("cost", "1", "for"))
    assert not m.ok and m.failed_at == 3 and m.expected == ["a tag name"]


def test_text_captures_need_quotes():
    p = compile_pattern("source <text:TEXT>")
    assert p.match(words("source", '"Decision Games"')).ok
    assert not p.match(words("source", "Decision")).ok


def test_every_schema_pattern_compiles_and_starts_with_its_keyword():
    """The schema's patterns are compiled on first use (``dsl.schema_spec``), so a malformed one
    would surface only when a rulebook writes it: compile them all here.  A property's keyword is
    read from its source without compiling; it must be the compiled pattern's first literal."""
    from warbook.dsl.patterns import Literal
    from warbook.dsl.schema import KINDS

    for spec in KINDS.values():
        assert spec.header.source == spec.header_source
        for name, prop in spec.properties.items():
            first = prop.pattern.items[0]
            assert isinstance(first, Literal) and first.word == prop.name == name, (spec.kind, prop.source)
