"""Two rulebooks compared by what they say, not by how they are written: ``warbook diff``.

Declarations are matched by kind and name (nested ones too: a ``phase`` inside a
``sequence``), and found changed by the same digests a save file records
(``Rulebook.digests``), so a reformatted or reordered rulebook has no difference, and a
replay refused because "the rulebook has changed" and ``warbook diff`` name the same
declarations.  A changed declaration is then described aspect by aspect:

- ``label``, ``header`` (other words of the declaration line), ``flags`` and ``provenance``
  (its ``§``, ``gap`` and ``errata``);
- ``property``: the lines of one property name, old and new (``cost 3`` → ``cost 4``);
  lines of one name are compared in their order;
- ``cell``: one table cell, by row key and column label (``6 × 1:4: A → ½A``); a column
  added or removed shows as its cells and the ``columns`` line;
- ``row``: a row added or removed, or the provenance of a row;
- ``nested``: the nested declarations kept, now in another order (the phases of a
  sequence); those added, removed or changed are entries of their own;
- ``order``: lines of different names, or table rows, in another order (the digest differs, and the
  engine reads most properties by name, but a phase runs its ``do`` lines in order).

>>> from warbook.dsl.loader import load_rulebook
>>> rb = load_rulebook("tests/interpreter/fixtures/mini/mini.rules")
>>> diff_rulebooks(rb, rb).is_empty
True

Limits: a declaration whose own lines are unchanged and whose nested declarations changed
is not listed itself (its nested ones are); two declarations of one kind and name (which
the loader refuses) compare by the first.  Option switches (``requires option``) are
compared as written, not as a game with some options on would play.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Iterator, Mapping

from attrs import frozen

from .model import Declaration, Property, Provenance, Rulebook, content_text

STATUSES = ("changed", "added", "removed")
ASPECTS = ("label", "header", "flags", "provenance", "property", "cell", "row", "nested", "order")


@frozen
class DigestChanges:
    """The declarations (``"kind name"`` keys) that differ between two sets of digests."""

    changed: tuple[str, ...]
    added: tuple[str, ...]
    removed: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.changed or self.added or self.removed)


def compare_digests(old: Mapping[str, str], new: Mapping[str, str]) -> DigestChanges:
    """Which declarations changed, were added or were removed, in the order of ``new`` (then of
    ``old`` for those removed): the one comparison behind a replay's refusal and ``warbook diff``.

    >>> compare_digests({"table crt": "a1", "phase move": "b2"}, {"table crt": "ff", "unit tank": "c3"})
    DigestChanges(changed=('table crt',), added=('unit tank',), removed=('phase move',))
    """
    return DigestChanges(tuple(k for k in new if k in old and old[k] != new[k]),
                         tuple(k for k in new if k not in old),
                         tuple(k for k in old if k not in new))


@frozen
class Change:
    """One thing a declaration says differently."""

    aspect: str
    """One of ``ASPECTS``."""
    name: str
    """The property name, header key, provenance kind (``§``, ``gap``, ``errata``) or row key."""
    old: tuple[str, ...]
    """The lines as the old rulebook has them (a cell: one cell, or none when it had none)."""
    new: tuple[str, ...]
    column: str | None = None
    """The column label of a ``cell`` change."""

    def to_dict(self) -> dict:
        if self.aspect == "cell":
            return {"aspect": "cell", "row": self.name, "column": self.column,
                    "old": self.old[0] if self.old else None, "new": self.new[0] if self.new else None}
        return {"aspect": self.aspect, "name": self.name, "old": list(self.old), "new": list(self.new)}


@frozen
class DeclarationDiff:
    """A declaration added, removed or changed, by kind and name."""

    status: str
    """One of ``STATUSES``."""
    kind: str
    name: str
    label: str | None
    parent: str | None
    """``"kind name"`` of the declaration it is nested in, or ``None`` at top level."""
    changes: tuple[Change, ...] = ()

    @property
    def key(self) -> str:
        return f"{self.kind} {self.name}"

    def to_dict(self) -> dict:
        return {"status": self.status, "kind": self.kind, "name": self.name, "label": self.label,
                "parent": self.parent, "changes": [c.to_dict() for c in self.changes]}


@frozen
class RulebookDiff:
    """What differs between two rulebooks, declaration by declaration, sorted by kind and name."""

    old: str
    new: str
    declarations: tuple[DeclarationDiff, ...]

    @property
    def is_empty(self) -> bool:
        return not self.declarations

    def count(self, status: str) -> int:
        return sum(1 for d in self.declarations if d.status == status)

    def to_dict(self) -> dict:
        """The ``--json`` shape (docs/diff.md): plain lists, strings and ``None``."""
        return {"old": self.old, "new": self.new, "equal": self.is_empty,
                "declarations": [d.to_dict() for d in self.declarations]}


def diff_rulebooks(old: Rulebook, new: Rulebook) -> RulebookDiff:
    """The semantic difference of two loaded rulebooks (see the module docstring)."""
    found = compare_digests(old.digests(), new.digests())
    old_index, new_index = _index(old), _index(new)
    out = [_entry("added", *new_index[k]) for k in found.added]
    out += [_entry("removed", *old_index[k]) for k in found.removed]
    for key in found.changed:
        (before, parent), (after, _) = old_index[key], new_index[key]
        changes = tuple(iter_changes(before, after)) or _reordering(before, after)
        if changes:
            out.append(_entry("changed", after, parent, changes))
    return RulebookDiff(old.path, new.path, tuple(sorted(out, key=lambda d: (d.kind, d.name))))


def iter_changes(old: Declaration, new: Declaration) -> Iterator[Change]:
    """What ``new`` says differently from ``old`` (the same kind and name), aspect by aspect."""
    if old.label != new.label:
        yield Change("label", "label", _some(old.label), _some(new.label))
    old_header, new_header = _header(old), _header(new)
    for key in _union(old_header, new_header):
        if old_header.get(key) != new_header.get(key):
            yield Change("header", key, _some(old_header.get(key)), _some(new_header.get(key)))
    if old.flags != new.flags:
        yield Change("flags", "flags", tuple(sorted(old.flags)), tuple(sorted(new.flags)))
    yield from _provenance_changes(old.provenance, new.provenance)
    old_lines, new_lines = _lines(old.properties), _lines(new.properties)
    for name in _union(old_lines, new_lines):
        if old_lines.get(name, ()) != new_lines.get(name, ()):
            yield Change("property", name, old_lines.get(name, ()), new_lines.get(name, ()))
    yield from _row_changes(old, new)
    kept_old = [c for c in _child_keys(old) if c in set(_child_keys(new))]
    kept_new = [c for c in _child_keys(new) if c in set(_child_keys(old))]
    if kept_old != kept_new:
        yield Change("nested", "order", tuple(kept_old), tuple(kept_new))


def _reordering(old: Declaration, new: Declaration) -> tuple[Change, ...]:
    """What is left when no aspect differs but the declaration's own digest does: the same lines
    (or rows) in another order."""
    if _own(old) == _own(new):
        return ()
    old_rows, new_rows = tuple(r.key_text for r in old.rows), tuple(r.key_text for r in new.rows)
    if old_rows != new_rows:
        return (Change("order", "rows", old_rows, new_rows),)
    return (Change("order", "lines", tuple(p.name for p in old.properties), tuple(p.name for p in new.properties)),)


def iter_line_edits(change: Change) -> Iterator[tuple[str | None, str | None]]:
    """The lines of a ``property`` change as (old, new) pairs: a line replaced one for one, or a
    line removed (new ``None``) or added (old ``None``); lines both sides keep are left out."""
    matcher = difflib.SequenceMatcher(a=change.old, b=change.new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if tag == "replace" and i2 - i1 == j2 - j1:
            yield from zip(change.old[i1:i2], change.new[j1:j2])
            continue
        yield from ((line, None) for line in change.old[i1:i2])
        yield from ((None, line) for line in change.new[j1:j2])


def line_text(prop: Property) -> str:
    """A property line as it reads, quoted texts in double quotes, with its provenance."""
    return " ".join([*(_word(w) for w in prop.words), *_annotations(prop.provenance)])


def _entry(status: str, decl: Declaration, parent: Declaration | None,
           changes: tuple[Change, ...] = ()) -> DeclarationDiff:
    return DeclarationDiff(status, decl.kind, decl.name, decl.label,
                           f"{parent.kind} {parent.name}" if parent is not None else None, changes)


def _index(rulebook: Rulebook) -> dict[str, tuple[Declaration, Declaration | None]]:
    """Every declaration by ``"kind name"`` (the first, as ``Rulebook.digests`` keeps), with its parent."""
    out: dict[str, tuple[Declaration, Declaration | None]] = {}

    def visit(decl: Declaration, parent: Declaration | None) -> None:
        out.setdefault(f"{decl.kind} {decl.name}", (decl, parent))
        for child in decl.children:
            visit(child, decl)

    for decl in rulebook.declarations:
        visit(decl, None)
    return out


def _own(decl: Declaration) -> str:
    """What a declaration says itself, nested declarations left out (they are compared on their own)."""
    return content_text((decl.label, decl.header, decl.flags, decl.provenance, decl.properties, decl.rows))


def _child_keys(decl: Declaration) -> list[str]:
    return [f"{c.kind} {c.name}" for c in decl.children]


def _union(first: Iterable[str], second: Iterable[str]) -> list[str]:
    """The keys of both, each once, in the order first seen."""
    return list(dict.fromkeys([*first, *second]))


def _some(value: str | None) -> tuple[str, ...]:
    return () if value is None else (value,)


def _header(decl: Declaration) -> dict[str, str]:
    """The declaration line's values other than its name and label, as text."""
    return {k: _value_text(v) for k, v in decl.header if k not in ("name", "label")}


def _value_text(value) -> str:
    text = getattr(value, "text", None)
    return text if isinstance(text, str) else str(value)


def _lines(properties: tuple[Property, ...]) -> dict[str, tuple[str, ...]]:
    """Each property name's lines as they read, in their order."""
    out: dict[str, list[str]] = {}
    for prop in properties:
        out.setdefault(prop.name, []).append(line_text(prop))
    return {k: tuple(v) for k, v in out.items()}


def _word(word) -> str:
    return json.dumps(word.text, ensure_ascii=False) if word.quoted else word.text


def _annotations(provenance: Provenance) -> list[str]:
    return [f"{mark}{json.dumps(a.text, ensure_ascii=False)}"
            for mark, items in (("§", provenance.sections), ("gap ", provenance.gaps), ("errata ", provenance.errata))
            for a in items]


def _provenance_changes(old: Provenance, new: Provenance) -> Iterator[Change]:
    for name, field in (("§", "sections"), ("gap", "gaps"), ("errata", "errata")):
        before = tuple(a.text for a in getattr(old, field))
        after = tuple(a.text for a in getattr(new, field))
        if before != after:
            yield Change("provenance", name, before, after)


def _columns(decl: Declaration, width: int) -> list[str]:
    """The column labels of a table's rows (its ``columns`` line), ``#N`` past them or without one."""
    prop = decl.first("columns")
    labels = [w.text for w in prop.words[1:]] if prop is not None else []
    if len(set(labels)) != len(labels):
        labels = []
    return [*labels[:width], *(f"#{i + 1}" for i in range(len(labels), width))]


def _rows(decl: Declaration) -> dict[str, tuple[dict[str, str], tuple[str, ...]]]:
    """Each row by its key (``key (2)`` for a key written twice): its cells by column label, and
    its provenance."""
    width = max((len(r.cells) for r in decl.rows), default=0)
    labels = _columns(decl, width)
    out: dict[str, tuple[dict[str, str], tuple[str, ...]]] = {}
    for row in decl.rows:
        key, seen = row.key_text, 1
        while key in out:
            seen += 1
            key = f"{row.key_text} ({seen})"
        out[key] = ({labels[i]: w.text for i, w in enumerate(row.cells)}, tuple(_annotations(row.provenance)))
    return out


def _row_changes(old: Declaration, new: Declaration) -> Iterator[Change]:
    old_rows, new_rows = _rows(old), _rows(new)
    for key in _union(old_rows, new_rows):
        if key not in new_rows or key not in old_rows:
            before, after = old_rows.get(key), new_rows.get(key)
            yield Change("row", key, _row_line(before), _row_line(after))
            continue
        (before, old_notes), (after, new_notes) = old_rows[key], new_rows[key]
        for column in _union(before, after):
            if before.get(column) != after.get(column):
                yield Change("cell", key, _some(before.get(column)), _some(after.get(column)), column)
        if old_notes != new_notes:
            yield Change("row", key, (" ".join(old_notes),), (" ".join(new_notes),))


def _row_line(row: tuple[dict[str, str], tuple[str, ...]] | None) -> tuple[str, ...]:
    if row is None:
        return ()
    cells, notes = row
    return (" ".join([*cells.values(), *notes]),)
