"""The compiled matcher (``Pattern.match``) against the backtracking generators it replaced,
kept as ``Pattern.explain`` for diagnostics: on any words, the same bindings, in the same order,
or the same failure position and expectations."""

from hypothesis import given, settings
from hypothesis import strategies as st

from warbook.dsl.ast import Span, Word
from warbook.dsl.patterns import Alternatives, Capture, Literal, Match, Optional, Pattern, compile_pattern
from warbook.dsl.schema import KINDS
from warbook.dsl.vocabulary import EFFECTS, PROCEDURES

LITERALS = ("a", "b", "c")
CAPTURES = ("<x:NAME>", "<x:NAME>+", "<y:WORD>*", "<n:INT>", "<n:INT>+", "<t:TEXT>",
            "<r:REF(tag)>+", "<y:WORD>")
TEXTS = ("a", "b", "c", "1", "2", "x1", '"a"', '"q"')


def sequences(depth: int):
    item = st.one_of(st.sampled_from(LITERALS), st.sampled_from(CAPTURES))
    if depth > 0:
        inner = sequences(depth - 1)
        group = st.lists(inner, min_size=1, max_size=3).map(lambda options: "( " + " | ".join(options) + " )")
        item = st.one_of(
            item, item,
            inner.map(lambda seq: f"[ {seq} ]"),
            group,
            st.tuples(group, st.sampled_from("+*")).map("".join))
    return st.lists(item, min_size=1, max_size=3).map(" ".join)


def to_words(texts) -> tuple[Word, ...]:
    return tuple(Word(Span("w", 1, 2 * i + 1, 1, 2 * i + 2), t.strip('"'), t.startswith('"'))
                 for i, t in enumerate(texts))


def same(pattern: Pattern, words: tuple[Word, ...]) -> Match:
    fast, oracle = pattern.match(words), pattern.explain(words)
    assert fast == oracle
    if fast.ok:
        assert list(fast.bindings) == list(oracle.bindings)  # the same insertion order too
    return fast


SAMPLES = {"NAME": ("a", "b", "x1"), "WORD": ("a", "c", "1", '"a"'), "INT": ("1", "2"), "TEXT": ('"q"',)}


def written(items, draw) -> list[str]:
    """Words that follow one way through ``items`` (so that most draws match)."""
    out: list[str] = []
    for item in items:
        if isinstance(item, Literal):
            out.append(item.word)
        elif isinstance(item, Capture):
            low = 1 if item.repeat != "*" else 0
            count = 1 if not item.repeat else draw(st.integers(low, 3))
            out += [draw(st.sampled_from(SAMPLES.get(item.type, ("a", "b")))) for _ in range(count)]
        elif isinstance(item, Optional):
            out += written(item.items, draw) if draw(st.booleans()) else []
        elif isinstance(item, Alternatives):
            out += written(draw(st.sampled_from(item.options)), draw)
        else:
            for _ in range(draw(st.integers(item.minimum, 2))):
                out += written(draw(st.sampled_from(item.item.options)), draw)
    return out


@settings(max_examples=400, deadline=None)
@given(sequences(2), st.data())
def test_the_compiled_matcher_answers_as_the_backtracking_one(source, data):
    """Words written to the pattern, sometimes with one changed, and words at random."""
    pattern = compile_pattern(source)
    texts = written(pattern.items, data.draw)
    if texts and data.draw(st.booleans()):
        texts[data.draw(st.integers(0, len(texts) - 1))] = data.draw(st.sampled_from(TEXTS))
    same(pattern, to_words(texts[:8]))
    same(pattern, to_words(data.draw(st.lists(st.sampled_from(TEXTS), max_size=6))))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_every_schema_pattern_matches_as_the_backtracking_one(data):
    """Words drawn from a shipped pattern's own keywords and some values of each type."""
    patterns = sorted({p.source for spec in KINDS.values() for p in (spec.header, *(
        q.pattern for q in spec.properties.values()))} | {p.source for p in EFFECTS.values()}
        | {p.source for p in PROCEDURES.values()})
    pattern = compile_pattern(data.draw(st.sampled_from(patterns)))
    pool = sorted(pattern.literals) + ["3", "1/2", "d6", "3:1", "1L", "x2", "+1", "2-4", '"t"', "mech"]
    head = [pattern.items[0].word] if hasattr(pattern.items[0], "word") else []
    texts = head + data.draw(st.lists(st.sampled_from(pool), max_size=8))
    same(pattern, to_words(texts))


def test_a_match_found_after_backtracking_keeps_the_earlier_choice_order():
    """``<x:NAME>+`` takes the longest run first, but gives back one word for the literal after
    it; a name bound twice keeps its first place among the bindings, with the later value."""
    p = compile_pattern("<x:NAME>+ b [<n:INT>] <x:NAME>")
    m = same(p, to_words(["a", "c", "b", "2", "c"]))
    assert m.ok and list(m.bindings) == ["x", "n"] and m.bindings["x"] == "c" and m.bindings["n"] == 2
    m = same(compile_pattern("( a | a b )+ b"), to_words(["a", "b", "a", "b"]))
    assert m.ok and m.bindings == {}


def test_a_failed_match_is_explained_by_the_backtracking_matcher():
    m = same(compile_pattern("a ( b | <n:INT> )+ c"), to_words(["a", "b", "1", "x"]))
    assert not m.ok and m.failed_at == 3 and m.expected == ["'b'", "'c'", "a whole number"]
