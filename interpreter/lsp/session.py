"""What an editor asks about the rules files it has open, answered in warbook's terms.

``Session`` keeps one ``dsl.Linter`` (parsed files kept by digest, so re-linting a house rule as
it is typed parses only the buffer, not the base rulebook it extends) and, per open file, the
last rulebook that loaded: while the text does not parse, hover, definition and completion
answer from it.  Positions are the syntax tree's (1-based lines and character columns);
``interpreter.lsp.server`` converts them.

Limits: a file is linted with its own buffer only; another file open with unsaved edits (a base
rulebook) is read from disk.  Diagnostics are reported for the file linted, not for the files it
includes or extends (those are reported when they are open themselves).
"""

from __future__ import annotations

import os
from pathlib import Path

from attrs import frozen

from ...dsl.ast import Span
from ...dsl.diagnostics import Diagnostic, RulesError
from ...dsl.keywords import describe, line_words, property_words, schema_keywords
from ...dsl.lint.linter import Linter
from ...dsl.model import Declaration, Rulebook
from ...dsl.navigation import (RawWord, Symbol, context_at, declaration_at, declarations_named, file_named,
                               is_cite, is_same_file, iter_names, outline, reference_at, word_at)
from ...dsl.schema import DIRECTIVES, KINDS


@frozen
class Completion:
    """One thing completion offers."""

    label: str
    role: str
    """``"kind"``, ``"directive"``, ``"property"``, ``"keyword"`` or ``"name"`` (a declared name)."""
    detail: str | None = None
    """The form of a keyword, or the kind and label of a name."""
    documentation: str | None = None


@frozen
class Lookup:
    """What the word at a position is."""

    word: RawWord
    declarations: tuple[Declaration, ...] = ()
    """The declarations the word names, best first."""
    keyword: tuple[str, str] | None = None
    """(its form, what it means), when the word is a keyword where it stands."""


@frozen
class Target:
    """Where a definition is: a span in a file, or the start of a whole file."""

    path: str
    span: Span | None = None
    text: str | None = None
    """The file's text, when the rulebook holds it (to convert the span's columns)."""


def shown_path(path: str | os.PathLike) -> str:
    """The path the loader writes in spans and diagnostics for a file: relative to the working folder."""
    resolved = Path(path).resolve()
    try:
        return os.path.relpath(resolved)
    except ValueError:  # another drive on Windows
        return str(resolved)


class Session:
    """The open rules files of one editor, and the answers about them."""

    def __init__(self, linter: Linter | None = None):
        self.linter = linter or Linter()
        self.rulebooks: dict[str, Rulebook] = {}
        """The last rulebook that loaded with declarations, by the file's path as the editor gave it."""
        self.outlines: dict[str, tuple[Symbol, ...]] = {}
        """The last outline of each file that parsed."""

    def close(self, path: str) -> None:
        self.rulebooks.pop(path, None)
        self.outlines.pop(path, None)

    def lint(self, path: str, text: str) -> tuple[Diagnostic, ...]:
        """The diagnostics of the file at ``path`` holding ``text``, as ``warbook lint`` reports them
        (codes, spans, suppressions), less those positioned in other files."""
        report = self.linter.lint(path, text=text)
        if report.rulebook is not None and report.rulebook.declarations:
            self.rulebooks[path] = report.rulebook
        self.symbols(path, text)  # the outline while the text parses (the linter keeps the tree)
        return tuple(d for d in report.diagnostics if is_same_file(d.span.path, path))

    def symbols(self, path: str, text: str) -> tuple[Symbol, ...]:
        """The file's outline; the last one that parsed while the text has a syntax error."""
        try:
            tree = self.linter.parse(text, shown_path(path))
        except RulesError:
            return self.outlines.get(path, ())
        self.outlines[path] = outline(tree)
        return self.outlines[path]

    def format(self, path: str, text: str) -> str | None:
        """The text in the canonical layout (``warbook fmt``); ``None`` while it has a syntax error."""
        from ...dsl.fmt import format_text

        try:
            return format_text(text, shown_path(path))
        except RulesError:
            return None

    def lookup(self, path: str, text: str, line: int, column: int) -> "Lookup | None":
        """The word at a position and what it is: a keyword of the line's form, or a name and the
        declarations it may mean (the kinds its place allows first); ``None`` off any word."""
        word = word_at(text, line, column)
        if word is None:
            return None
        context = context_at(text, line, word.column)
        rulebook = self.rulebooks.get(path)
        if is_cite(text, word) and rulebook is not None:
            return Lookup(word, declarations_named(rulebook, word.value, ("section",)))
        if not context.before and not word.quoted and (context.kind or context.at_top_level):
            keyword = describe(context.kind, word.text)
            if keyword is not None:
                return Lookup(word, keyword=keyword)
        if rulebook is None or word.quoted:
            return Lookup(word)
        own = declaration_at(rulebook, path, line, column)
        if own is not None and own.name == word.text:
            return Lookup(word, (own,))
        if context.before[:1] in (("override",), ("remove",)) and len(context.before) == 2:
            return Lookup(word, declarations_named(rulebook, word.text, (context.before[1],)))
        ref = reference_at(rulebook, path, line, column)
        if ref is not None and ref.name == word.text:
            return Lookup(word, declarations_named(rulebook, ref.name, ref.kinds))
        return Lookup(word, declarations_named(rulebook, word.text))

    def hover(self, path: str, text: str, line: int, column: int) -> tuple[str, Span] | None:
        """Markdown about the name or keyword at the position, and the span of the word; ``None``
        where there is nothing to say."""
        found = self.lookup(path, text, line, column)
        if found is None or not (found.keyword or found.declarations):
            return None
        word = found.word
        span = Span(path, word.line, word.column, word.line, word.end_column)
        if found.keyword is not None:
            form, doc = found.keyword
            return f"```\n{form}\n```\n\n{doc}", span
        return "\n\n---\n\n".join(describe_declaration(d) for d in found.declarations), span

    def definition(self, path: str, text: str, line: int, column: int) -> tuple[Target, ...]:
        """Where the name at the position is declared (in this file or any it includes or extends),
        or the file an ``include``/``extends`` string names."""
        found = self.lookup(path, text, line, column)
        if found is None:
            return ()
        word = found.word
        context = context_at(text, line, word.column)
        if word.quoted and context.at_top_level and context.before in (("include",), ("extends",)):
            target = file_named(path, word.value)
            return (Target(str(target)),) if target is not None else ()
        rulebook = self.rulebooks.get(path)
        return tuple(Target(d.name_span.path, d.name_span, rulebook.source_text(d.name_span.path) if rulebook else None)
                     for d in found.declarations)

    def completions(self, path: str, text: str, line: int, column: int) -> tuple[Completion, ...]:
        """What may be written at the position: keywords of the schema where the line starts,
        else the words of the line's form and the declared names."""
        context = context_at(text, line, column)
        rulebook = self.rulebooks.get(path)
        if context.in_text:
            return ()
        if not context.before:
            if context.at_top_level:
                keywords = schema_keywords()
                return (*(_keyword(None, k, "kind") for k in keywords.kinds),
                        *(_keyword(None, d, "directive") for d in keywords.directives))
            if context.kind is not None:
                spec = KINDS[context.kind]
                out = [_keyword(context.kind, w, "property" if w in spec.properties else "kind")
                       for w in property_words(context.kind)]
                if spec.factors and rulebook is not None:
                    out.extend(_name(d) for d in rulebook.of_kind("factor"))
                return tuple(out)
            return ()
        head = context.before[0]
        if head in ("override", "remove") and context.at_top_level:
            if len(context.before) == 1:
                return tuple(_keyword(None, k, "kind") for k in KINDS)
            if len(context.before) == 2 and rulebook is not None:
                return tuple(_name(d) for d in rulebook.of_kind(context.before[1]))
            return ()
        words = line_words(context.kind, head) if context.kind or context.at_top_level else ()
        names = tuple(_name(d) for d in iter_names(rulebook)) if rulebook is not None else ()
        return (*(Completion(w, "keyword") for w in words), *names)


def _keyword(kind: str | None, word: str, role: str) -> Completion:
    described = describe(kind, word) if role != "directive" else (str(DIRECTIVES[word]), None)
    form, doc = described if described is not None else (None, None)
    return Completion(word, role, form, doc)


def _name(decl: Declaration) -> Completion:
    return Completion(decl.name, "name", f"{decl.kind} {decl.name}" + (f' "{decl.label}"' if decl.label else ""))


def describe_declaration(decl: Declaration) -> str:
    """A declaration as Markdown: kind, name and label, its section cites, gaps and errata, where it
    is declared, and what its kind is."""
    title = f"**{decl.kind}** `{decl.name}`" + (f" — {decl.label}" if decl.label else "")
    parts = [title]
    if decl.provenance.sections:
        parts.append(" · ".join(f"§ {a.text}" for a in decl.provenance.sections))
    parts.extend(f"**gap:** {a.text}" for a in decl.provenance.gaps)
    parts.extend(f"**errata:** {a.text}" for a in decl.provenance.errata)
    parts.append(f"declared at `{decl.name_span}`")
    spec = KINDS.get(decl.kind)
    if spec is not None:
        parts.append(f"*{spec.doc}*")
    return "\n\n".join(parts)
