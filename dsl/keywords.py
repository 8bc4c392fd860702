"""The words the language knows, read from the schema: for completion and syntax colouring.

The grammar knows only lines of words (``dsl/grammar.lark``); which words are keywords is the
schema's business (``dsl.schema``, ``dsl.schema_map``, ``dsl.vocabulary``).  This module collects
them, so that an editor's completion and the TextMate grammar (``editors/textmate/``, checked
against ``schema_keywords()`` by a test) cannot drift from what the loader accepts.

Limits: a keyword is a word of some pattern; whether it is right at a given place is the
loader's question.  Completion offers the words of the enclosing kind's properties, not a
parse of the line so far.
"""

from __future__ import annotations

import functools
import re

from attrs import frozen

from .patterns import Pattern
from .schema import DIRECTIVES, KINDS
from .vocabulary import EFFECTS, PROCEDURES

_WORD = re.compile(r"[A-Za-z][\w-]*\Z")
"""A keyword is a word; punctuation in a pattern (``+``) is not one."""


@frozen
class Keywords:
    """The schema's words, by the role they play on a line (each a sorted tuple)."""

    kinds: tuple[str, ...]
    """Declaration kinds that may stand at the top level (``terrain``, ``table`` …)."""
    nested_kinds: tuple[str, ...]
    """Kinds declared only inside another (``phase``, ``step``)."""
    directives: tuple[str, ...]
    """File-level statements the loader acts on (``include``, ``extends``, ``override``, ``remove``)."""
    properties: tuple[str, ...]
    """The first word of a property line of some kind (``cost``, ``roll``, ``effect``)."""
    words: tuple[str, ...]
    """Every other literal word of a header, property, effect or procedure pattern (``for``, ``half``)."""

    def all(self) -> frozenset[str]:
        return frozenset((*self.kinds, *self.nested_kinds, *self.directives, *self.properties, *self.words))


def _literals(patterns) -> set[str]:
    return {word for pattern in patterns for word in pattern.literals if _WORD.match(word)}


@functools.cache
def schema_keywords() -> Keywords:
    """Every keyword of the schema, grouped (a word is in the first group it fits).

    >>> "terrain" in schema_keywords().kinds and "cost" in schema_keywords().properties
    True
    """
    kinds = {k for k, spec in KINDS.items() if spec.top_level}
    nested = set(KINDS) - kinds
    directives = set(DIRECTIVES)
    properties = {name for spec in KINDS.values() for name in spec.properties} - kinds - nested - directives
    words = pattern_words() - kinds - nested - directives - properties
    return Keywords(*(tuple(sorted(group)) for group in (kinds, nested, directives, properties, words)))


@functools.cache
def pattern_words() -> frozenset[str]:
    """Every literal word of every pattern (a kind's header, a property, a directive, an effect or
    procedure), wherever it stands in its line: what syntax colouring marks inside a line."""
    patterns: list[Pattern] = [*DIRECTIVES.values(), *EFFECTS.values(), *PROCEDURES.values()]
    for spec in KINDS.values():
        patterns.append(spec.header)
        patterns.extend(p.pattern for p in spec.properties.values())
    return frozenset(_literals(patterns))


def property_words(kind: str) -> tuple[str, ...]:
    """What may begin a line inside a ``kind``'s block: its properties and the kinds nested in it."""
    spec = KINDS.get(kind)
    if spec is None:
        return ()
    return tuple(sorted({*spec.properties, *spec.children}))


def line_words(kind: str | None, head: str) -> tuple[str, ...]:
    """The literal words that may follow ``head`` on a line of a ``kind``'s block (at the top level,
    ``kind`` is ``None`` and ``head`` a kind or directive): what completion offers after the first word."""
    if kind is None:
        spec = KINDS.get(head)
        patterns = [spec.header] if spec is not None else [DIRECTIVES[head]] if head in DIRECTIVES else []
    else:
        spec = KINDS.get(kind)
        prop = spec.properties.get(head) if spec is not None else None
        patterns = [] if prop is None else [prop.pattern]
        if head == "effect":
            patterns.extend(EFFECTS.values())
        elif head == "do":
            patterns.extend(PROCEDURES.values())
        elif spec is not None and head in spec.children:
            patterns.append(KINDS[head].header)
    return tuple(sorted(_literals(patterns) - {head}))


def describe(kind: str | None, word: str) -> tuple[str, str] | None:
    """(the form, what it means) of ``word`` as the first word of a line, in a ``kind``'s block or at the
    top level (``kind`` ``None``): a kind's header, a property's pattern or a directive; ``None`` if
    the word is none of these there.

    >>> describe(None, "extends")[0]
    'extends <base:TEXT>'
    """
    spec = KINDS.get(kind) if kind is not None else None
    if spec is not None and word in spec.properties:
        prop = spec.properties[word]
        return str(prop.pattern), prop.doc
    if word in KINDS and (kind is None or spec is None or word in spec.children):
        return str(KINDS[word].header), KINDS[word].doc
    if kind is None and word in DIRECTIVES:
        return str(DIRECTIVES[word]), "A file-level statement the loader acts on (docs/reference.md)."
    return None
