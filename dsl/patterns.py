"""A tiny pattern language for the words of a property, and its matcher.

Each property in ``dsl.schema`` has a pattern that is both its parser and its
documentation line, e.g.::

    cost (no entry | <amount:NUM>) [for <who:SEL>+]

- a bare word is a literal keyword that must appear as written;
- ``<name:TYPE>`` captures one word read as TYPE; ``+`` after it captures one
  or more, ``*`` zero or more (as a tuple);
- ``[ … ]`` is optional, ``( a | b )`` an alternative; ``( a | b )+`` one or
  more of the alternatives, ``( a | b )*`` zero or more.

The matcher backtracks (patterns are short) and, on failure, reports the
furthest word it reached and what it expected there.  Each pattern is compiled once into
linked functions (``_compile``) that find the first match the backtracking order gives
and keep no failure notes; only when they find none are the words matched again by the
generators below, which note how far each alternative got, for the diagnostic.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Callable, Iterator

from attrs import field, frozen

from . import values
from .ast import Span, Word


@frozen
class Ref:
    """A name that must resolve to a declaration of one of ``kinds`` (checked by the loader)."""

    name: str
    kinds: tuple[str, ...]
    span: Span

    def __str__(self) -> str:
        return self.name


def iter_refs(value: Any) -> Iterator[Ref]:
    """Every ``Ref`` in a value a pattern captured: the value itself, or the items of a repeated
    capture (a tuple)."""
    if isinstance(value, Ref):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from iter_refs(item)


@frozen
class Text:
    """A quoted string with where it was written."""

    text: str
    span: Span

    def __str__(self) -> str:
        return self.text


@frozen
class ValueType:
    """What a capture accepts: a description for messages and a reader."""

    description: str
    read: Callable[[Word], Any]


def _unquoted(reader: Callable[[str], Any]) -> Callable[[Word], Any]:
    return lambda w: None if w.quoted else reader(w.text)


def _name(w: Word) -> str | None:
    return None if w.quoted or not values.is_name(w.text) else w.text


TYPES: dict[str, ValueType] = {
    "INT": ValueType("a whole number", _unquoted(values.read_int)),
    "NUM": ValueType("a number (3, 1/2, ½)", _unquoted(values.read_number)),
    "DICE": ValueType("dice (d6, 2d6, d10)", _unquoted(values.read_dice)),
    "RANGE": ValueType("a number or range (3, 1..3, 4-5, 27+)", _unquoted(values.read_range)),
    "ODDS": ValueType("odds (3:1)", _unquoted(values.read_odds)),
    "SHIFT": ValueType("a column shift (1L, 2R)", _unquoted(values.read_shift)),
    "MULT": ValueType("a multiplier (x2, x1/2)", _unquoted(values.read_multiplier)),
    "MOD": ValueType("a signed modifier (+1, -1)", _unquoted(values.read_modifier)),
    "TEXT": ValueType('a quoted text ("…")', lambda w: Text(w.text, w.span) if w.quoted else None),
    "WORD": ValueType("a word", lambda w: w.text),
    "NAME": ValueType("a name", _name),
}


@frozen
class Literal:
    word: str


@frozen
class Capture:
    name: str
    type: str
    kinds: tuple[str, ...]
    repeat: str  # "", "+" or "*"
    stop_words: frozenset[str] = frozenset()
    """For a repeated name capture: keywords written later in the pattern, which end the run
    (so ``never enters swamp unless road`` does not read ``unless`` as a name)."""


@frozen
class Optional:
    items: tuple


@frozen
class Alternatives:
    options: tuple[tuple, ...]


@frozen
class Repeat:
    """``( a | b )+`` or ``( a | b )*``: the group matched ``minimum`` or more times."""

    item: Alternatives
    minimum: int


_TOKEN = re.compile(r"\s*(?:(<[^>]+>[+*]?)|([\[\]()|])|([^\s\[\]()|<]+))")
_CAPTURE = re.compile(r"<(\w+):(\w+)(?:\(([\w,]+)\))?>([+*]?)\Z")


@frozen
class Pattern:
    """A compiled pattern; ``str(pattern)`` is the source text, used in docs and hints."""

    source: str
    items: tuple
    _run: Callable | None = field(init=False, default=None, eq=False, repr=False)
    """The compiled steps, made at the first match (many patterns are only read for their words)."""
    _literals: frozenset[str] | None = field(init=False, default=None, eq=False, repr=False)

    def __str__(self) -> str:
        return self.source

    def match(self, words: tuple[Word, ...]) -> "Match":
        """Match all of ``words``; the result holds either bindings or the reason it failed."""
        run = self._run
        if run is None:
            run = _compile(self.items, _at_end)
            object.__setattr__(self, "_run", run)
        found = run(words, 0, (), None)
        if found is not None:
            return Match(_bindings(found), None, None)
        return self.explain(words)

    def explain(self, words: tuple[Word, ...]) -> "Match":
        """The backtracking match with failure notes: the same bindings as ``match`` when the
        words match, else how far the pattern got and what it expected there."""
        failure = _Failure()
        for end, bindings in _match_seq(self.items, words, 0, {}, failure):
            if end == len(words):
                return Match(bindings, None, None)
            failure.note(end, "the end of the line")
        return Match(None, failure.index, sorted(failure.expected))

    @property
    def literals(self) -> frozenset[str]:
        """Every keyword the pattern can match."""
        if self._literals is None:
            object.__setattr__(self, "_literals", frozenset(_iter_literals(self.items)))
        return self._literals

    @property
    def captures(self) -> tuple[Capture, ...]:
        return tuple(_iter_captures(self.items))


def _iter_literals(items) -> Iterator[str]:
    for item in items:
        if isinstance(item, Literal):
            yield item.word
        elif isinstance(item, Optional):
            yield from _iter_literals(item.items)
        elif isinstance(item, Alternatives):
            for option in item.options:
                yield from _iter_literals(option)
        elif isinstance(item, Repeat):
            yield from _iter_literals((item.item,))


def _iter_captures(items) -> Iterator[Capture]:
    for item in items:
        if isinstance(item, Capture):
            yield item
        elif isinstance(item, Optional):
            yield from _iter_captures(item.items)
        elif isinstance(item, Alternatives):
            for option in item.options:
                yield from _iter_captures(option)
        elif isinstance(item, Repeat):
            yield from _iter_captures((item.item,))


@frozen
class Match:
    bindings: dict[str, Any] | None
    failed_at: int | None
    expected: list[str] | None

    @property
    def ok(self) -> bool:
        return self.bindings is not None


class _Failure:
    """The furthest position any alternative reached, and what it expected there."""

    def __init__(self) -> None:
        self.index = -1
        self.expected: set[str] = set()

    def note(self, index: int, what: str) -> None:
        if index > self.index:
            self.index, self.expected = index, {what}
        elif index == self.index:
            self.expected.add(what)


def _describe(item) -> str:
    if isinstance(item, Literal):
        return repr(item.word)
    if item.kinds:
        return f"a {' or '.join(item.kinds)} name"
    return TYPES[item.type].description


def _read(capture: Capture, word: Word) -> Any:
    if capture.repeat and word.text in capture.stop_words and not word.quoted:
        return None
    if capture.kinds:
        name = _name(word)
        return None if name is None else Ref(name, capture.kinds, word.span)
    return TYPES[capture.type].read(word)


def _match_seq(items, words, i, bindings, failure) -> Iterator[tuple[int, dict]]:
    if not items:
        yield i, bindings
        return
    first, rest = items[0], items[1:]
    for j, b in _match_item(first, words, i, bindings, failure):
        yield from _match_seq(rest, words, j, b, failure)


def _match_item(item, words, i, bindings, failure) -> Iterator[tuple[int, dict]]:
    if isinstance(item, Literal):
        if i < len(words) and not words[i].quoted and words[i].text == item.word:
            yield i + 1, bindings
        else:
            failure.note(i, _describe(item))
    elif isinstance(item, Optional):
        yield from _match_seq(item.items, words, i, bindings, failure)
        yield i, bindings
    elif isinstance(item, Alternatives):
        for option in item.options:
            yield from _match_seq(option, words, i, bindings, failure)
    elif isinstance(item, Repeat):
        yield from _match_repeat(item, words, i, bindings, failure, 0)
    else:
        yield from _match_capture(item, words, i, bindings, failure)


def _match_repeat(item: Repeat, words, i, bindings, failure, count: int) -> Iterator[tuple[int, dict]]:
    """Greedy: the longest run of the group first, then shorter ones (never an empty match)."""
    for j, b in _match_item(item.item, words, i, bindings, failure):
        if j > i:
            yield from _match_repeat(item, words, j, b, failure, count + 1)
    if count >= item.minimum:
        yield i, bindings


def _match_capture(cap: Capture, words, i, bindings, failure) -> Iterator[tuple[int, dict]]:
    got = []
    j = i
    while j < len(words) and (cap.repeat or not got):
        value = _read(cap, words[j])
        if value is None:
            break
        got.append(value)
        j += 1
    if j < len(words) and (cap.repeat or not got):
        failure.note(j, _describe(cap))
    elif j == len(words) and not got:
        failure.note(j, _describe(cap))
    minimum = 0 if cap.repeat == "*" else 1
    for n in range(len(got), minimum - 1, -1):
        value = tuple(got[:n]) if cap.repeat else (got[0] if n else None)
        if not cap.repeat and n == 0:
            continue
        yield i + n, {**bindings, cap.name: value}


# The fast matcher.  Each item of a sequence is compiled into a function
# ``step(words, i, chain, k)`` that matches the item at word ``i`` and calls the next item's
# function (fixed when compiling) with the words it took and the bindings so far, as a chain
# ``(name, value, earlier chain)``, ``()`` at the start.  A step answers the chain of the
# first whole match it leads to, or ``None`` to let the step before it try its next choice,
# in the order the generators above try them.  A sequence ends in ``_at_end``, which accepts
# only the end of the words, or, inside a repeated group, in ``_back``, which calls ``k``,
# the repeat's own continuation ``k(words, j, chain)``.


def _at_end(words, i, chain, k):
    return chain if i == len(words) else None


def _back(words, i, chain, k):
    return k(words, i, chain)


def _bindings(chain: tuple) -> dict[str, Any]:
    """The bindings a chain stands for, in the order ``{**bindings, name: value}`` made them."""
    links = []
    while chain:
        links.append(chain)
        chain = chain[2]
    bindings = {}
    for name, value, _ in reversed(links):
        bindings[name] = value
    return bindings


def _compile(items: tuple, after: Callable) -> Callable:
    """The step for the sequence ``items`` followed by the step ``after``."""
    step = after
    for item in reversed(items):
        step = _compile_item(item, step)
    return step


def _compile_item(item, after: Callable) -> Callable:
    if isinstance(item, Literal):
        return _literal_step(item.word, after)
    if isinstance(item, Optional):
        inner = _compile(item.items, after)

        def optional(words, i, chain, k):
            found = inner(words, i, chain, k)
            return found if found is not None else after(words, i, chain, k)
        return optional
    if isinstance(item, Alternatives):
        return _alternatives_step(tuple(_compile(option, after) for option in item.options))
    if isinstance(item, Repeat):
        return _repeat_step(_alternatives_step(tuple(_compile(o, _back) for o in item.item.options)),
                            item.minimum, after)
    return _capture_step(item, after)


def _literal_step(word: str, after: Callable) -> Callable:
    def literal(words, i, chain, k):
        if i < len(words):
            w = words[i]
            if w.text == word and not w.quoted:
                return after(words, i + 1, chain, k)
        return None
    return literal


def _alternatives_step(options: tuple[Callable, ...]) -> Callable:
    def alternatives(words, i, chain, k):
        for option in options:
            found = option(words, i, chain, k)
            if found is not None:
                return found
        return None
    return alternatives


def _repeat_step(group: Callable, minimum: int, after: Callable) -> Callable:
    """Greedy, as ``_match_repeat``: another run of the group first (one that takes words),
    then what follows."""
    def repeat(words, i, chain, k, count=0):
        def again(words, j, got):
            return repeat(words, j, got, k, count + 1) if j > i else None
        found = group(words, i, chain, again)
        if found is None and count >= minimum:
            found = after(words, i, chain, k)
        return found
    return repeat


def _reader(cap: Capture) -> Callable[[Word], Any]:
    """``_read`` for one capture, with what depends only on the capture decided once."""
    stop = cap.stop_words if cap.repeat else frozenset()
    if cap.kinds:
        kinds, is_name = cap.kinds, values.is_name

        def ref(word: Word) -> Ref | None:
            text = word.text
            if word.quoted or text in stop or not is_name(text):
                return None
            return Ref(text, kinds, word.span)
        return ref
    read = TYPES[cap.type].read
    if not stop:
        return read
    return lambda word: None if word.text in stop and not word.quoted else read(word)


def _capture_step(cap: Capture, after: Callable) -> Callable:
    name, read = cap.name, _reader(cap)
    if not cap.repeat:

        def single(words, i, chain, k):
            if i < len(words):
                value = read(words[i])
                if value is not None:
                    return after(words, i + 1, (name, value, chain), k)
            return None
        return single
    minimum = 0 if cap.repeat == "*" else 1

    def run(words, i, chain, k):
        """The longest run of words the capture reads first, then shorter ones."""
        got = []
        for word in words[i:]:
            value = read(word)
            if value is None:
                break
            got.append(value)
        for n in range(len(got), minimum - 1, -1):
            found = after(words, i + n, (name, tuple(got[:n]), chain), k)
            if found is not None:
                return found
        return None
    return run


@functools.cache
def compile_pattern(source: str) -> Pattern:
    """Compile a pattern string.

    Raises:
        ValueError: for a malformed pattern (a bug in the schema, not in user input).
    """
    tokens = [m.group(1) or m.group(2) or m.group(3) for m in _TOKEN.finditer(source) if m.group(0).strip()]
    literals = [tok for tok in tokens if not tok.startswith("<") and tok not in "[]()|+*"]
    pos = 0
    seen = 0  # literals made so far, in reading order: a repeated name capture stops at the later ones

    def seq(stop: set[str]) -> tuple:
        nonlocal pos, seen
        items = []
        while pos < len(tokens) and tokens[pos] not in stop:
            tok = tokens[pos]
            pos += 1
            if tok == "[":
                items.append(Optional(seq({"]"})))
                pos += 1
            elif tok == "(":
                options = [seq({"|", ")"})]
                while tokens[pos] == "|":
                    pos += 1
                    options.append(seq({"|", ")"}))
                pos += 1
                group = Alternatives(tuple(options))
                if pos < len(tokens) and tokens[pos] in ("+", "*"):
                    items.append(Repeat(group, 1 if tokens[pos] == "+" else 0))
                    pos += 1
                else:
                    items.append(group)
            elif tok.startswith("<"):
                m = _CAPTURE.match(tok)
                if not m:
                    raise ValueError(f"bad capture {tok!r} in pattern {source!r}")
                name, type_, kinds, repeat = m.groups()
                if type_ != "REF" and type_ not in TYPES:
                    raise ValueError(f"unknown type {type_!r} in pattern {source!r}")
                later = frozenset(literals[seen:]) if repeat and type_ in ("NAME", "REF") else frozenset()
                items.append(Capture(name, type_, tuple(kinds.split(",")) if kinds else (), repeat, later))
            else:
                seen += 1
                items.append(Literal(tok))
        return tuple(items)

    items = seq(set())
    if pos != len(tokens):
        raise ValueError(f"unbalanced pattern {source!r}")
    return Pattern(source, items)
