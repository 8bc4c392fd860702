"""Statements to declarations: the schema step of loading.

Guarantees to the next step: every declaration has a known kind, a header that
matched, and properties whose words matched their pattern, with values read.
References (``Ref``) are not yet checked; ``dsl.resolve`` does that once every
file is loaded.  Problems become diagnostics; a statement that cannot be built
is dropped, never half-built.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .ast import Statement, Word
from .diagnostics import Diagnostic, diagnostic, did_you_mean, rename_fix
from .model import Declaration, Property, Provenance, Row
from .patterns import Match, Pattern, compile_pattern
from .schema import DIRECTIVES, KINDS, KindSpec
from .vocabulary import EFFECTS, find_procedure, PROCEDURES
from .values import MAX_DIGITS, has_long_number, shorten


def _values(match: Match) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(match.bindings.items()))


def _flags(words: tuple[Word, ...], literals: frozenset[str], name: Any) -> frozenset[str]:
    """The keywords of a declaration's header line (``name`` aside)."""
    return frozenset(w.text for w in words[1:] if not w.quoted and w.text in literals and w.text != name)


def mismatch(code: str, words: tuple[Word, ...], match: Match, pattern: Pattern, what: str) -> Diagnostic:
    """The diagnostic for words that do not match a pattern: positioned at the first word that
    fails, with what the pattern expected there (the loader's directives use it too)."""
    index = match.failed_at or 0
    if index < len(words):
        word = words[index]
        span, message = word.span, f"unexpected {shorten(str(word))!r} in {what}"
        if has_long_number(str(word)):
            message = f"number {shorten(str(word))!r} in {what} has more than {MAX_DIGITS} digits"
    else:
        last = words[-1].span
        span = type(last)(last.path, last.end_line, last.end_column, last.end_line, last.end_column + 1)
        message = f"{what} is incomplete"
    expected = ", ".join(match.expected or [])
    return diagnostic(code, span, message, f"expected {expected}; the form is: {pattern}")


class Builder:
    """Builds declarations from statements, collecting diagnostics."""

    def __init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []

    def declaration(self, statement: Statement, spec: KindSpec | None = None) -> Declaration | None:
        head = statement.head
        if spec is None:
            spec = KINDS.get(head.text) if not head.quoted else None
            if spec is None or not spec.top_level:
                known = [k for k, s in KINDS.items() if s.top_level] + list(DIRECTIVES)
                self.diagnostics.append(diagnostic(
                    "E103", head.span, f"unknown declaration kind {head.text!r}", did_you_mean(head.text, known),
                    rename_fix(head.text, known, head.span)))
                return None
        if statement.is_row:
            self.diagnostics.append(diagnostic("E111", statement.span, f"a row cannot declare a {spec.kind}"))
            return None
        match = spec.header.match(statement.words)
        if not match.ok:
            self.diagnostics.append(mismatch("E105", statement.words, match, spec.header, f"{spec.kind} declaration"))
            return None
        name = match.bindings.get("name") or spec.kind
        label = match.bindings.get("label")
        name_word = next((w for w in statement.words[1:] if w.text == name), statement.head)
        properties, rows, children = [], [], []
        seen: dict[str, Property] = {}
        for item in statement.block or ():
            if item.is_row:
                if spec.rows is None:
                    self.diagnostics.append(diagnostic(
                        "E111", item.span, f"table rows are not allowed in a {spec.kind}",
                        "rows (key: cells) belong in a table"))
                else:
                    rows.append(Row(item.span, item.words, item.cells, Provenance.from_annotations(item.annotations)))
                continue
            if item.head.text in spec.children and not item.head.quoted:
                child = self.declaration(item, KINDS[item.head.text])
                if child is not None:
                    children.append(child)
                continue
            prop = self.property(item, spec)
            if prop is None:
                continue
            pspec = spec.properties.get(prop.name)
            if pspec is not None and not pspec.repeat and prop.name in seen:
                self.diagnostics.append(diagnostic(
                    "E109", prop.span, f"{prop.name!r} given twice in {spec.kind} {name!r}",
                    f"first given at line {seen[prop.name].span.line}"))
                continue
            seen[prop.name] = prop
            properties.append(prop)
        return Declaration(
            kind=spec.kind, name=str(name), label=str(label) if label is not None else None,
            span=statement.span, name_span=name_word.span,
            provenance=Provenance.from_annotations(statement.annotations),
            properties=tuple(properties), rows=tuple(rows), children=tuple(children),
            header=_values(match),
            flags=_flags(statement.words, spec.header.literals, name),
        )

    def property(self, statement: Statement, spec: KindSpec) -> Property | None:
        head = statement.head
        if statement.block is not None:
            self.diagnostics.append(diagnostic(
                "E112", statement.span, f"{head.text!r} in a {spec.kind} takes no block"))
            return None
        pspec = spec.properties.get(head.text) if not head.quoted else None
        if pspec is None:
            if spec.factors and not head.quoted:
                return self._factor(statement)
            names = [*spec.properties, *spec.children]
            self.diagnostics.append(diagnostic(
                "E104", head.span, f"unknown property {head.text!r} in a {spec.kind}",
                did_you_mean(head.text, names) or f"a {spec.kind} takes: {', '.join(sorted(names))}",
                rename_fix(head.text, names, head.span)))
            return None
        match = pspec.pattern.match(statement.words)
        if not match.ok:
            self.diagnostics.append(mismatch("E105", statement.words, match, pspec.pattern, f"{head.text!r}"))
            return None
        values = _values(match)
        if pspec.name == "effect":
            values = self._verb(statement, EFFECTS, "E303", "effect") or values
        elif pspec.name == "do":
            values = self._verb(statement, PROCEDURES, "E301", "procedure") or values
        return Property(pspec.name, statement.span, statement.words, values,
                        Provenance.from_annotations(statement.annotations))

    _FACTOR = compile_pattern("<factor:NAME> (<value:NUM> | all | none)")

    def _factor(self, statement: Statement) -> Property | None:
        """``attack 2`` on a unit: checked against declared factors by ``dsl.resolve``."""
        match = self._FACTOR.match(statement.words)
        if not match.ok:
            self.diagnostics.append(mismatch("E105", statement.words, match, self._FACTOR,
                                              f"factor {statement.head.text!r}"))
            return None
        value = match.bindings.get("value")
        if value is None:
            value = "all" if statement.words[1].text == "all" else None
        return Property(f"factor:{statement.head.text}", statement.span, statement.words,
                        (("value", value),), Provenance.from_annotations(statement.annotations))

    def _verb(self, statement: Statement, registry: Mapping[str, Pattern], code: str, what: str):
        words = statement.words[1:]
        texts = [w.text for w in words]
        if registry is PROCEDURES:
            found = find_procedure(texts)
            if found is None:
                self.diagnostics.append(diagnostic(
                    "E301", words[0].span if words else statement.span,
                    f"unknown procedure {' '.join(texts[:2])!r}",
                    did_you_mean(" ".join(texts[:2]), registry) or "see docs/reference.md, Procedures"))
                return None
            name, pattern = found
            bad_code = "E302"
        else:
            pattern = registry.get(texts[0]) if texts else None
            name = texts[0] if texts else ""
            bad_code = code
            if pattern is None:
                self.diagnostics.append(diagnostic(
                    code, words[0].span if words else statement.span, f"unknown {what} {name!r}",
                    did_you_mean(name, registry) or f"known {what}s: {', '.join(sorted(registry))}"))
                return None
        match = pattern.match(words)
        if not match.ok:
            self.diagnostics.append(mismatch(bad_code, words, match, pattern, f"{what} {name!r}"))
            return None
        return ((what, name), *_values(match))
