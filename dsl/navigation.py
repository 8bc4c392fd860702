"""Questions an editor asks about a rules file: what is declared where, and what is at a position.

Two kinds of answer, for two states of the text:

- ``outline``, ``reference_at`` and ``declarations_named`` read a parsed file or a loaded
  rulebook (``dsl.model``), so they see ``extends`` and ``include``: a name used in a house rule
  is found where the base rulebook declares it;
- ``word_at`` and ``context_at`` read the raw text, because the text in an editor is mid-edit
  and often does not parse: they find the word under the cursor and the blocks around it with
  the grammar's own terminals (``dsl.reader``), not with the parser.

Positions are the syntax tree's: 1-based lines and columns counted in characters (``Span``).
An editor's own units (LSP's UTF-16 code units) are the editor side's business.

Limits: ``context_at`` reads braces and words, not the meaning of a line, so an unknown word
before a ``{`` makes a block of no kind; a multi-line string before the cursor that holds a
brace is read as a string, as the grammar does, but an unclosed one is read to the end of its
line.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Iterator

from attrs import frozen

from .ast import RulesFile, Span
from .build import Builder
from .model import Declaration, Rulebook
from .patterns import Ref, iter_refs
from .reader import ATOM, STRING
from .schema import DIRECTIVES, KINDS


@frozen
class Symbol:
    """One entry of a file's outline: a declaration, or a directive (``extends``, ``override``)."""

    kind: str
    """The declaration's kind, or the directive's word."""
    name: str
    label: str | None
    span: Span
    """The whole statement, block included."""
    name_span: Span
    """The word that names it (the kind itself for a declaration without a name)."""
    children: tuple["Symbol", ...] = ()


def outline(tree: RulesFile) -> tuple[Symbol, ...]:
    """The declarations and directives of one parsed file, in order, nested ones inside theirs.

    A declaration whose header the schema refuses is left out (its diagnostic says why); the
    outline shows what the file declares, not what a base rulebook it extends declares.
    """
    builder = Builder()
    out = []
    for st in tree.statements:
        if st.is_row or st.head.quoted:
            continue
        head = st.head.text
        if head in DIRECTIVES:
            rest = st.words[1:]
            name = " ".join(w.text for w in rest) or head
            out.append(Symbol(head, name, None, st.span, rest[-1].span if rest else st.head.span))
            continue
        if head in KINDS and KINDS[head].top_level:
            decl = builder.declaration(st)
            if decl is not None:
                out.append(_symbol(decl))
    return tuple(out)


def _symbol(decl: Declaration) -> Symbol:
    return Symbol(decl.kind, decl.name, decl.label, decl.span, decl.name_span, tuple(map(_symbol, decl.children)))


def iter_references(rulebook: Rulebook) -> Iterator[Ref]:
    """Every name a declaration refers to (``Ref``), in its header, properties and effects."""
    for decl in rulebook.walk():
        for _, value in decl.header:
            yield from iter_refs(value)
        for prop in decl.properties:
            for _, value in prop.values:
                yield from iter_refs(value)


def is_same_file(a: str, b: str | os.PathLike) -> bool:
    """Whether two paths as written (a span's, relative to the working folder, and an editor's)
    name the same file."""
    return os.path.normcase(os.path.abspath(a)) == os.path.normcase(os.path.abspath(b))


def _contains(span: Span, line: int, column: int) -> bool:
    return (span.line, span.column) <= (line, column) < (span.end_line, span.end_column)


def reference_at(rulebook: Rulebook, path: str | os.PathLike, line: int, column: int) -> Ref | None:
    """The name written at ``line``/``column`` of the file ``path`` where the schema expects a
    declaration's name, with the kinds it may be (``None`` where there is none)."""
    for ref in iter_references(rulebook):
        if _contains(ref.span, line, column) and is_same_file(ref.span.path, path):
            return ref
    return None


def declarations_named(rulebook: Rulebook, name: str, kinds: tuple[str, ...] = ()) -> tuple[Declaration, ...]:
    """The declarations called ``name`` (of ``kinds`` when given, in that order of preference),
    nested ones included, wherever in the rulebook's files they are."""
    found = [d for d in rulebook.walk() if d.name == name and (not kinds or d.kind in kinds)]
    if kinds:
        found.sort(key=lambda d: kinds.index(d.kind))
    return tuple(found)


def declaration_at(rulebook: Rulebook, path: str | os.PathLike, line: int, column: int) -> Declaration | None:
    """The declaration whose name is written at ``line``/``column`` of ``path`` (its own header)."""
    for decl in rulebook.walk():
        if _contains(decl.name_span, line, column) and is_same_file(decl.name_span.path, path):
            return decl
    return None


# Reading raw text -------------------------------------------------------------------------------

_TOKEN = re.compile(rf'({STRING})|("[^\n]*)|(#[^\n]*)|([{{}}])|(\n)|(gap\b|errata\b|§)|({ATOM})|([^\n])')
"""A closed string (it may go on over lines), an unclosed one (to the end of its line), a comment,
a brace, a line break, a provenance marker, an atom, or one character of anything else."""
_CLOSED, _UNCLOSED, _COMMENT, _BRACE, _NEWLINE, _MARKER, _ATOM = range(1, 8)


@frozen
class RawWord:
    """A word of raw text and where it is on its line (1-based columns, end exclusive)."""

    text: str
    """As written, quotes included for a string."""
    line: int
    column: int
    end_column: int

    @property
    def quoted(self) -> bool:
        return self.text.startswith('"')

    @property
    def value(self) -> str:
        """The word without its quotes."""
        if not self.quoted:
            return self.text
        return self.text[1:-1] if len(self.text) > 1 and self.text.endswith('"') else self.text[1:]


@frozen
class Context:
    """What surrounds a position in raw text: the blocks it is in and the line up to it."""

    blocks: tuple[str | None, ...]
    """The kind of each enclosing block, outermost first (``None`` for a block of no known kind)."""
    before: tuple[str, ...]
    """The words of the statement before the position, not counting a word the position is in."""
    prefix: str
    """The part of the word the position is in (or just after) that comes before it."""
    in_text: bool = False
    """Whether the position is inside a quoted string or a comment (where no keyword or name goes)."""

    @property
    def kind(self) -> str | None:
        """The kind whose block the position is in; ``None`` at the top level or in a block of no known kind."""
        return self.blocks[-1] if self.blocks else None

    @property
    def at_top_level(self) -> bool:
        return not self.blocks


def _offset(text: str, line: int, column: int) -> int:
    """The index in ``text`` of a 1-based line and column (clamped to the line's end)."""
    start = 0
    for _ in range(line - 1):
        found = text.find("\n", start)
        if found < 0:
            return len(text)
        start = found + 1
    end = text.find("\n", start)
    end = len(text) if end < 0 else end
    return min(start + column - 1, end)


def _block_kind(words: list[str]) -> str | None:
    if words and words[0] == "override" and len(words) > 1:
        return words[1] if words[1] in KINDS else None
    return words[0] if words and words[0] in KINDS else None


def context_at(text: str, line: int, column: int) -> Context:
    """The blocks around a 1-based position of ``text`` and the words of its line before it, read
    without parsing (the text may be mid-edit).

    >>> context_at('terrain t {\\n    co\\n}\\n', 2, 7)
    Context(blocks=('terrain',), before=(), prefix='co', in_text=False)
    """
    upto = text[: _offset(text, line, column)]
    blocks: list[str | None] = []
    words: list[str] = []
    in_text = False
    for token in _TOKEN.finditer(upto):
        kind = token.lastindex
        in_text = kind in (_UNCLOSED, _COMMENT) and token.end() == len(upto)
        if kind == _NEWLINE:
            words = []
        elif kind == _BRACE:
            if token[0] == "{":
                blocks.append(_block_kind(words))
            elif blocks:
                blocks.pop()
            words = []
        elif kind in (_CLOSED, _UNCLOSED, _ATOM):
            words.append(token[0])
    prefix = ""
    if words and re.fullmatch(ATOM, words[-1]) and upto.endswith(words[-1]):
        prefix = words.pop()
    return Context(tuple(blocks), tuple(words), prefix, in_text)


def word_at(text: str, line: int, column: int) -> RawWord | None:
    """The atom or string at (or just before) a 1-based position of ``text``, on its line; ``None``
    in a comment, in space, or past the end."""
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return None
    found = None
    for token in _TOKEN.finditer(lines[line - 1]):
        if token.lastindex == _COMMENT or token.start() + 1 > column:
            break
        if token.lastindex in (_CLOSED, _UNCLOSED, _ATOM) and column <= token.end() + 1:
            found = RawWord(token[0], line, token.start() + 1, token.end() + 1)
            if column <= token.end():
                break
    return found


def is_cite(text: str, word: RawWord) -> bool:
    """Whether ``word`` is the section a ``§`` cites (``§"8.4"``, ``§ 8.4``)."""
    line = text.split("\n")[word.line - 1]
    return line[: word.column - 1].rstrip().endswith("§")


def iter_names(rulebook: Rulebook) -> Iterator[Declaration]:
    """Every named declaration, nested ones included, once per kind and name (what completion offers)."""
    seen = set()
    for decl in rulebook.walk():
        if (decl.kind, decl.name) not in seen and not KINDS[decl.kind].singleton:
            seen.add((decl.kind, decl.name))
            yield decl


def file_named(including: str | os.PathLike, written: str) -> Path | None:
    """The file an ``include``/``extends`` string names from the file ``including``: a shipped or
    searched rulebook by name, else a path relative to the including file; ``None`` if there is none."""
    from .rulebook_paths import find_rulebook

    if "/" not in written and "\\" not in written and not written.endswith(".rules"):
        return find_rulebook(written)
    target = Path(including).parent / written
    return target if target.is_file() else None
