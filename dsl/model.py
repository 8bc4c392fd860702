"""The resolved rulebook: the only thing the interpreter and the linter see.

Everything is frozen.  A ``Declaration`` keeps the kind, name and label from
its header, its provenance, its properties with their values already read into
typed values (``Fraction``, ``Dice``, ``Range``, ``Ref`` …), table rows as
written, and nested declarations (phases of a sequence).  Every node keeps a
``Span`` so runtime errors can point back into the rules file.
"""

from __future__ import annotations

import functools
from typing import Any, Iterator

import attrs
from attrs import field, frozen

from .ast import Annotation, Span, Word


@frozen
class Provenance:
    """Where a rule comes from: section cites, gaps (provisional values) and errata."""

    sections: tuple[Annotation, ...] = ()
    gaps: tuple[Annotation, ...] = ()
    errata: tuple[Annotation, ...] = ()

    @classmethod
    def from_annotations(cls, annotations: tuple[Annotation, ...]) -> "Provenance":
        if not annotations:  # most statements: one shared empty provenance
            return _NO_PROVENANCE
        if all(a.kind == "section" for a in annotations):
            return cls(annotations)
        return cls(
            tuple(a for a in annotations if a.kind == "section"),
            tuple(a for a in annotations if a.kind == "gap"),
            tuple(a for a in annotations if a.kind == "errata"),
        )

    def __bool__(self) -> bool:
        return bool(self.sections or self.gaps or self.errata)

    @property
    def section_names(self) -> tuple[str, ...]:
        return tuple(a.text for a in self.sections)


_NO_PROVENANCE = Provenance()


@frozen
class Property:
    """One property line, its words as written and its values as read by the schema pattern."""

    name: str
    span: Span
    words: tuple[Word, ...]
    values: tuple[tuple[str, Any], ...]
    provenance: Provenance = Provenance()

    def get(self, key: str, default: Any = None) -> Any:
        for k, v in self.values:
            if k == key:
                return v
        return default

    def has(self, word: str) -> bool:
        """Whether a literal word appears (``cost no entry`` has ``no``)."""
        return any(not w.quoted and w.text == word for w in self.words[1:])

    @property
    def text(self) -> str:
        return " ".join(str(w) for w in self.words)


@frozen
class Row:
    """A table row as written: key words, then cells."""

    span: Span
    key: tuple[Word, ...]
    cells: tuple[Word, ...]
    provenance: Provenance = Provenance()

    @property
    def key_text(self) -> str:
        return " ".join(w.text for w in self.key)


@frozen
class Declaration:
    """A declared thing: ``terrain clear "Clear" §"…" { … }``."""

    kind: str
    name: str
    label: str | None
    span: Span
    name_span: Span
    provenance: Provenance = Provenance()
    properties: tuple[Property, ...] = ()
    rows: tuple[Row, ...] = ()
    children: tuple["Declaration", ...] = ()
    header: tuple[tuple[str, Any], ...] = ()
    flags: frozenset[str] = frozenset()
    """Keywords written on the declaration line itself (``section "1.0" "Intro" prose``)."""

    @property
    def display(self) -> str:
        """The label as printed, or the name when there is none."""
        return self.label or self.name

    def all(self, name: str) -> tuple[Property, ...]:
        return tuple(p for p in self.properties if p.name == name)

    def first(self, name: str) -> Property | None:
        return next((p for p in self.properties if p.name == name), None)

    def has(self, name: str) -> bool:
        return any(p.name == name for p in self.properties)

    def header_value(self, key: str, default: Any = None) -> Any:
        for k, v in self.header:
            if k == key:
                return v
        return default

    def walk(self) -> Iterator["Declaration"]:
        yield self
        for child in self.children:
            yield from child.walk()


@frozen
class Rulebook:
    """A loaded rulebook: declarations in order after includes and overlays, and the sources they came from."""

    path: str
    declarations: tuple[Declaration, ...]
    sources: tuple[tuple[str, str], ...] = field(repr=False, default=())
    """(path, text) of every file read, for carets, suppressions and the hash."""

    @functools.cached_property
    def _index(self) -> tuple[dict[str, tuple[Declaration, ...]], dict[tuple[str, str], Declaration]]:
        by_kind: dict[str, list[Declaration]] = {}
        by_name: dict[tuple[str, str], Declaration] = {}
        for decl in self.walk():
            by_kind.setdefault(decl.kind, []).append(decl)
            by_name.setdefault((decl.kind, decl.name), decl)
        return {k: tuple(v) for k, v in by_kind.items()}, by_name

    def of_kind(self, kind: str) -> tuple[Declaration, ...]:
        """Every declaration of a kind, nested ones included, in order (built once, then a lookup)."""
        return self._index[0].get(kind, ())

    def get(self, kind: str, name: str) -> Declaration | None:
        return self._index[1].get((kind, name))

    def find(self, name: str, kinds: tuple[str, ...]) -> Declaration | None:
        """The first declaration called ``name`` among ``kinds`` (selectors may name several kinds)."""
        for kind in kinds:
            found = self.get(kind, name)
            if found is not None:
                return found
        return None

    def walk(self) -> Iterator[Declaration]:
        for decl in self.declarations:
            yield from decl.walk()

    @property
    def title(self) -> str:
        header = self.get("rulebook", "rulebook")
        return header.display if header else self.path

    def source_text(self, path: str) -> str | None:
        return next((t for p, t in self.sources if p == path), None)

    def digests(self) -> dict[str, str]:
        """A short digest of each declaration (``"kind name"``, nested ones too), of what it says
        and not where it stands: a save records them, so a replay under a changed rulebook can
        name the declarations that changed rather than report a bare hash mismatch."""
        import hashlib  # here, not at the top: a lint run makes no digest, and OpenSSL loads slowly

        out: dict[str, str] = {}
        for decl in self.walk():
            key = f"{decl.kind} {decl.name}"
            if key not in out:
                out[key] = hashlib.sha256(content_text(decl).encode()).hexdigest()[:10]
        return out

    @property
    def hash(self) -> str:
        """A content hash of every source file, for save files and replays."""
        import hashlib

        digest = hashlib.sha256()
        for _, text in self.sources:
            digest.update(text.encode())
            digest.update(b"\0")
        return digest.hexdigest()[:16]


def content_text(value: Any) -> str:
    """A canonical text of a model value with every ``Span`` left out (positions are not content):
    what ``Rulebook.digests`` hashes, and what ``dsl.diff`` compares."""
    if isinstance(value, Span):
        return ""
    if attrs.has(type(value)):
        parts = (content_text(getattr(value, f.name)) for f in attrs.fields(type(value)))
        return f"{type(value).__name__}({','.join(parts)})"
    if isinstance(value, tuple | list):
        return f"[{','.join(map(content_text, value))}]"
    if isinstance(value, frozenset | set):
        return f"{{{','.join(sorted(map(content_text, value)))}}}"
    if isinstance(value, dict):
        return f"{{{','.join(f'{content_text(k)}:{content_text(v)}' for k, v in value.items())}}}"
    return repr(value)
