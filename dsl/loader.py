"""Files to a ``Rulebook``: includes, ``extends``, overrides, then name resolution.

The steps run in this order (sqlglot's ``RULES`` tuple idea):

1. read and parse each file (``dsl.parser``);
2. follow ``extends`` (first statement, once) and ``include`` (anywhere at top
   level), relative to the including file, never outside the root rulebook's
   folder and the project's search paths (``dsl.config``; only ``.rules`` files
   through those), with cycles and depth bounded; each file is read once however often
   it is included, and only regular files within the bounds of ``dsl.sources``
   (the size of a file, the number and size of all files) are read;
3. build declarations from statements (``dsl.build``) and apply ``override``
   (merge: each property named in the override replaces all lines of that
   property; rows replace rows with the same key; a nested declaration replaces
   the one of that kind and name whole, in its place, and a new one goes at the
   end) and ``remove``;
4. resolve names (``dsl.resolve``).

``override`` and ``remove`` of a kind declared only inside others (``phase``,
``step``) find the one declaration of that name wherever it is nested and act
on it in place; none, or more than one, is an error (E107, E108) whose hint
lists what there is.

``extends "name"`` without a ``.rules`` suffix or a slash looks the name up
in the project's search paths, then among shipped rulebooks (by file stem or a
header ``alias``), so a house rule kept anywhere can build on a shipped game,
and a house-rules folder on a designer's own game in the folder beside it.

Limits: an override of a sequence or phase replaces a nested phase or step
whole; to merge into one, override it by its own kind.  The engine runs a
phase's ``do`` lines and steps in the order of their lines (``interpreter.flow``),
which says nothing about order across files: a merge whose lines would run in
another order than it means is rejected (E313) rather than played out of order.
"""

from __future__ import annotations

import os
from pathlib import Path
from collections.abc import Callable, Mapping, Sequence
from typing import Iterator

from attrs import evolve

from .ast import RulesFile, Span, Statement
from .build import Builder, mismatch
from .collector import full_collections_paused
from .diagnostics import Diagnostic, RulesError, Severity, diagnostic, did_you_mean
from .model import Declaration, Property, Provenance, Rulebook
from .parser import parse_text
from .resolve import resolve
from .schema import DIRECTIVES, KINDS
from . import sources as source_files
from .rulebook_paths import find_rulebook, search_path, shipped_rulebooks_dir
from .sources import SourceError, read_source
from .values import shorten

MAX_DEPTH = 16
"""How deep includes and extends may nest."""
_display_path = source_files.display_path


Parse = Callable[[str, str], RulesFile]
"""Text and its shown path to a syntax tree (``parser.parse_text``, or a linter's cached one)."""


class _Loader:
    def __init__(self, parse: Parse = parse_text, texts: Mapping[Path, str] | None = None,
                 search_paths: Sequence[Path] = ()) -> None:
        self.parse = parse
        self.search_paths = tuple(search_paths)
        """The project's search paths, resolved: the only folders read besides the rulebook's own."""
        self.texts = texts or {}
        """Texts to read instead of the files at these resolved paths (an editor's unsaved buffers)."""
        self.builder = Builder()
        self.sources: dict[str, str] = {}
        self.loaded: dict[tuple[Path, Path], list[Declaration]] = {}
        """Each file's declarations by (resolved path, root): a file included twice is read once."""
        self.files_read = 0
        self.bytes_read = 0

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return self.builder.diagnostics

    def error(self, code: str, span: Span, message: str, hint: str | None = None) -> None:
        self.diagnostics.append(diagnostic(code, span, message, hint))

    def load_file(self, path: Path, root: Path, stack: tuple[Path, ...], span: Span | None) -> list[Declaration]:
        shown = _display_path(path)
        where = span or Span.point(shown)
        if path in stack:
            chain = " -> ".join(_display_path(p) for p in (*stack, path))
            self.error("E005", where, f"include cycle: {chain}")
            return []
        if len(stack) >= MAX_DEPTH:
            self.error("E006", where, f"includes nested more than {MAX_DEPTH} deep at {shown!r}")
            return []
        if (path, root) in self.loaded:
            return list(self.loaded[path, root])
        text = self.read(path, shown, where, span)
        if text is None:
            return []
        self.sources[shown] = text
        try:
            parsed = self.parse(text, shown)
        except RulesError as exc:
            self.diagnostics.extend(exc.diagnostics)
            return []
        decls = self.statements(parsed.statements, path, root, (*stack, path))
        self.loaded[path, root] = list(decls)
        return decls

    def read(self, path: Path, shown: str, where: Span, span: Span | None) -> str | None:
        """The text of one more file of the rulebook; ``None``, with an E004, when it cannot be
        read or would take the rulebook past ``MAX_FILES`` files or ``MAX_TOTAL_BYTES`` (a bound
        on what a folder of includes can make the loader read and parse)."""
        if self.files_read >= source_files.MAX_FILES:
            self.error("E004", where, f"cannot read {shown!r}: the rulebook would be made of more than "
                       f"{source_files.MAX_FILES} files", "include fewer, larger files")
            return None
        try:
            text = self.texts[path] if path in self.texts else read_source(path)
        except SourceError as exc:
            if exc.missing:
                known = [p.stem for p in sorted(shipped_rulebooks_dir().glob("*.rules"))]
                hint = None if span else (did_you_mean(path.stem, known)
                                          or f"shipped rulebooks, by name: {', '.join(known)}")
                self.error("E004", where, f"no such rules file {shown!r}", hint)
            else:
                self.error("E004", where, f"cannot read {shown!r}: {exc.reason}")
            return None
        self.files_read += 1
        self.bytes_read += len(text.encode("utf-8"))
        if self.bytes_read > source_files.MAX_TOTAL_BYTES:
            self.error("E004", where, f"cannot read {shown!r}: the rulebook's files would hold more than "
                       f"{source_files.megabytes(source_files.MAX_TOTAL_BYTES)} together")
            return None
        return text

    def statements(self, statements: tuple[Statement, ...], path: Path, root: Path,
                   stack: tuple[Path, ...]) -> list[Declaration]:
        decls = _Declarations()
        for index, st in enumerate(statements):
            head = st.head.text if not st.head.quoted else ""
            if head in DIRECTIVES and not st.is_row:
                match = DIRECTIVES[head].match(st.words)
                if not match.ok:
                    self.diagnostics.append(mismatch("E105", st.words, match, DIRECTIVES[head], head))
                    continue
                if head == "extends":
                    if index != 0 or decls:
                        self.error("E008", st.span, "'extends' must be the first statement of a file, and only once")
                        continue
                    decls.extend(self.extends(match.bindings["base"], path, root, stack))
                elif head == "include":
                    target = self.confined(match.bindings["path"], path, root)
                    if target is not None:
                        for decl in self.load_file(target, root, stack, match.bindings["path"].span):
                            self.add(decls, decl)
                elif head == "override":
                    self.override(decls, st, match.bindings)
                else:
                    self.remove(decls, st, match.bindings)
                continue
            decl = self.builder.declaration(st)
            if decl is not None:
                self.add(decls, decl)
        return decls

    def confined(self, text, path: Path, root: Path) -> Path | None:
        """The file an ``include`` or ``extends`` path names, if it is inside ``root`` (E007 if
        not) and the system can name it at all (E004 for a NUL or an over-long path)."""
        try:
            target = (path.parent / text.text).resolve()
        except (OSError, ValueError) as exc:
            reason = "the path holds a NUL character" if isinstance(exc, ValueError) else (exc.strerror or str(exc))
            self.error("E004", text.span, f"cannot read {shorten(text.text)!r}: {reason}")
            return None
        if target.is_relative_to(root) or (target.suffix == ".rules" and any(
                target.is_relative_to(folder) for folder in self.search_paths)):
            return target
        hint = ('to build on a shipped rulebook, name it: extends "NAME" (its file name without .rules); on your '
                "own, add its folder to search-paths in warbook.toml (docs/config.md)")
        self.error("E007", text.span, f"{text.text!r} is outside the rulebook folder {_display_path(root)!r}"
                   + (" and the project's search paths" if self.search_paths else ""), hint)
        return None

    def extends(self, base, path: Path, root: Path, stack) -> list[Declaration]:
        found = self.base_file(base, path, root)
        return [] if found is None else self.load_file(*found, stack, base.span)

    def base_file(self, base, path: Path, root: Path) -> tuple[Path, Path] | None:
        """The file an ``extends`` names and the root its own includes stay in: a shipped (or
        search path) rulebook by name, else a path confined to ``root``; ``None`` with an E004
        or E007 when there is none."""
        name = base.text
        if "/" not in name and "\\" not in name and not name.endswith(".rules"):
            found = find_rulebook(name, self.search_paths)
            if found is None:
                known = [p.stem for d in search_path(self.search_paths) if d.is_dir() for p in d.glob("*.rules")]
                self.error("E004", base.span, f"no {'' if self.search_paths else 'shipped '}rulebook called {name!r}",
                           did_you_mean(name, known) or "to extend a rulebook of your own by name, add its folder "
                           "to search-paths in warbook.toml (docs/config.md)")
                return None
            found = found.resolve()
            return found, found.parent
        target = self.confined(base, path, root)
        return None if target is None else (target, root)

    def add(self, decls: list[Declaration], decl: Declaration) -> None:
        existing = _find(decls, decl.kind, decl.name)
        if existing is not None:
            self.error("E102", decl.name_span, f"{decl.kind} {decl.name!r} is already declared",
                       f"first declared at {existing.name_span}; to change it, use: override {decl.kind} {decl.name}")
            return
        decls.append(decl)

    def override(self, decls: "_Declarations", st: Statement, bindings) -> None:
        kind, name = bindings["kind"], bindings["name"]
        spec = KINDS.get(kind)
        if spec is not None and not spec.top_level:
            chain = self.nested_target("E107", "override", decls, st, kind, name)
            if chain is None:
                return
        else:
            target = _find(decls, kind, name)
            if target is None or spec is None:
                names = [d.name for d in decls if d.kind == kind]
                self.error("E107", st.span, f"override of {kind} {name!r} matches nothing declared before it",
                           did_you_mean(name, names) or did_you_mean(kind, KINDS))
                return
            chain = (target,)
        target = chain[-1]
        header = tuple(w for w in target_header_words(target, spec, st))
        patch = self.builder.declaration(Statement(st.span, header, None, st.annotations, st.block), spec)
        if patch is None:
            return
        replaced = {p.name for p in patch.properties}
        row_keys = {r.key_text for r in patch.rows}
        merged = evolve(
            target,
            label=bindings.get("label") and str(bindings["label"]) or target.label,
            provenance=_merge_provenance(target.provenance, patch.provenance),
            properties=tuple(p for p in target.properties if p.name not in replaced) + patch.properties,
            rows=_merge_rows(target.rows, patch.rows, row_keys),
            children=_merge_children(target.children, patch.children),
        )
        if "do" in spec.properties:
            self.check_run_order(st, chain, patch, merged)
        decls.replace(chain[0], _rebuilt(chain, merged))

    def remove(self, decls: "_Declarations", st: Statement, bindings) -> None:
        kind, name = bindings["kind"], bindings["name"]
        spec = KINDS.get(kind)
        if spec is not None and not spec.top_level:
            chain = self.nested_target("E108", "remove", decls, st, kind, name)
            if chain is not None:
                decls.replace(chain[0], _rebuilt(chain, None))
            return
        target = _find(decls, kind, name)
        if target is None:
            names = [d.name for d in decls if d.kind == kind]
            self.error("E108", st.span, f"remove of {kind} {name!r} matches nothing declared before it",
                       did_you_mean(name, names))
            return
        decls.remove(target)

    def nested_target(self, code: str, verb: str, decls: list[Declaration], st: Statement, kind: str,
                      name: str) -> tuple[Declaration, ...] | None:
        """The one nested declaration of ``kind`` called ``name``, as the chain of declarations that
        leads to it from the top level; ``None``, with a diagnostic, when there is none or more."""
        chains = list(_chains(decls))
        found = [c for c in chains if c[-1].kind == kind and c[-1].name == name]
        if len(found) == 1:
            return found[0]
        if not found:
            declared = list(dict.fromkeys(c[-1].name for c in chains if c[-1].kind == kind))
            other = next((c[-1].kind for c in chains
                          if c[-1].name == name and not KINDS[c[-1].kind].top_level), None)
            hint = (did_you_mean(name, declared)
                    or (other and f"{name!r} is a {other}: {verb} {other} {name}")
                    or (f"{kind}s declared before it: {', '.join(declared)}" if declared
                        else f"no {kind} is declared before it"))
            self.error(code, st.span, f"{verb} of {kind} {name!r} matches nothing declared before it", hint)
            return None
        places = ", ".join(f"{c[-1].name_span} in {c[-2].kind} {c[-2].name}" for c in found)
        hint = f"{kind}s called {name!r}: {places}; give each its own name"
        parents = {(c[-2].kind, c[-2].name) for c in found}
        if verb == "override" and len(parents) == len(found):
            through = " or ".join(sorted({kind for kind, _ in parents}))
            hint += f", or change one through its {through}: override {through} NAME {{ {kind} {name} {{ … }} }}"
        self.error(code, st.span, f"{verb} of {kind} {name!r} is ambiguous: {len(found)} {kind}s are called {name!r}",
                   hint)
        return None

    def check_run_order(self, st: Statement, chain: tuple[Declaration, ...], patch: Declaration,
                        merged: Declaration) -> None:
        """E313 when ``merged`` would run its ``do`` lines and steps in another order than the
        override means: the target's, in their order, with each step the override names in its
        place (its ``do`` lines gone if the override gives new ones), then the override's own."""
        target = chain[-1]
        new_do = any(p.name == "do" for p in patch.properties)
        substitutes = _substitutes(patch.children)
        meant: list[Property | Declaration] = []
        for item in _run_order(target):
            if isinstance(item, Declaration):
                key = (item.kind, item.name)
                if key not in substitutes:
                    meant.append(item)
                elif all(m is not substitutes[key] for m in meant):
                    meant.append(substitutes[key])
            elif not new_do:
                meant.append(item)
        meant += [item for item in _run_order(patch) if all(m is not item for m in meant)]
        alternate = merged.first("alternate")
        alternated = str(alternate.get("step")) if alternate else None

        def runs(items) -> list[Property | Declaration]:
            return [i for i in items if not (isinstance(i, Declaration) and i.name == alternated)]

        actual, meant = runs(_run_order(merged)), runs(meant)
        if [id(i) for i in actual] == [id(i) for i in meant]:
            return
        where = f"{chain[0].kind} {chain[0].name} {{ {chain[1].kind} {chain[1].name} {{ … }} }}" if len(chain) > 1 \
            else f"{target.kind} {target.name} {{ … }}"
        whole = chain[1] if len(chain) > 1 else target
        self.error("E313", st.span,
                   f"after this override, {target.kind} {target.name!r} would run {_describe(actual)} "
                   f"(the order of their lines), not {_describe(meant)}",
                   f"write the whole {whole.kind} in one place: override {where}")


def target_header_words(target: Declaration, spec, st: Statement):
    """Header words for building an override's patch: ``KIND NAME`` taken from the override line."""
    words = st.words[1:3]
    if spec.header.match(words).ok:
        return words
    # Kinds whose header takes more than a name (``size name "label"``): reuse the override's words.
    return st.words[1:]


def _substitutes(new: tuple[Declaration, ...]) -> dict[tuple[str, str], Declaration]:
    """The first nested declaration of each kind and name in an override: the one that replaces
    the target's declaration of that kind and name."""
    out: dict[tuple[str, str], Declaration] = {}
    for child in new:
        out.setdefault((child.kind, child.name), child)
    return out


def _merge_children(old: tuple[Declaration, ...], new: tuple[Declaration, ...]) -> tuple[Declaration, ...]:
    """Nested declarations after an override: each the override names replaces the first of that
    kind and name in its place (any later ones of that name go with it); the others go at the end."""
    substitutes = _substitutes(new)
    out: list[Declaration] = []
    used: set[tuple[str, str]] = set()
    for child in old:
        key = (child.kind, child.name)
        if key not in substitutes:
            out.append(child)
        elif key not in used:
            out.append(substitutes[key])
            used.add(key)
    out.extend(c for c in new if not ((c.kind, c.name) in used and c is substitutes[(c.kind, c.name)]))
    return tuple(out)


def _chains(decls) -> Iterator[tuple[Declaration, ...]]:
    """Every declaration, nested ones too, as the chain of declarations from the top level to it."""
    def walk(path: tuple[Declaration, ...]):
        yield path
        for child in path[-1].children:
            yield from walk((*path, child))

    for decl in decls:
        yield from walk((decl,))


def _rebuilt(chain: tuple[Declaration, ...], new: Declaration | None) -> Declaration | None:
    """The top-level declaration of ``chain`` with the chain's last link replaced by ``new`` in its
    place, or taken out when ``new`` is ``None``."""
    node = new
    for parent, child in zip(chain[-2::-1], chain[:0:-1]):
        children = tuple(node if c is child else c for c in parent.children if node is not None or c is not child)
        node = evolve(parent, children=children)
    return node


def _run_order(decl: Declaration) -> list[Property | Declaration]:
    """A phase's or step's ``do`` lines and nested steps in the order the engine runs them: the
    order of their lines (``interpreter.flow``)."""
    return sorted([*decl.all("do"), *decl.children], key=lambda item: (item.span.line, item.span.column))


def _describe(items) -> str:
    return ", ".join(i.text if isinstance(i, Property) else f"{i.kind} {i.name}" for i in items) or "nothing"


def _merge_rows(old, new, keys):
    out = []
    replaced = {r.key_text: r for r in new}
    for row in old:
        out.append(replaced.pop(row.key_text) if row.key_text in replaced else row)
    out.extend(r for r in new if r.key_text in replaced)
    return tuple(out)


def _merge_provenance(a: Provenance, b: Provenance) -> Provenance:
    return Provenance(a.sections + b.sections, a.gaps + b.gaps, a.errata + b.errata)


class _Declarations(list):
    """A file's declarations in order, indexed by (kind, name): finding one for a duplicate check,
    an override or a remove costs the same however long the file is (lint stays linear)."""

    def __init__(self) -> None:
        super().__init__()
        self._index: dict[tuple[str, str], Declaration] = {}

    def append(self, decl: Declaration) -> None:
        super().append(decl)
        self._index.setdefault((decl.kind, decl.name), decl)

    def extend(self, decls) -> None:
        for decl in decls:
            self.append(decl)

    def remove(self, decl: Declaration) -> None:
        super().remove(decl)
        self._reindex(decl.kind, decl.name)

    def replace(self, old: Declaration, new: Declaration) -> None:
        self[self.index(old)] = new
        self._reindex(old.kind, old.name)

    def _reindex(self, kind: str, name: str) -> None:
        self._index.pop((kind, name), None)
        found = next((d for d in self if d.kind == kind and d.name == name), None)
        if found is not None:
            self._index[(kind, name)] = found


def _find(decls: list[Declaration], kind: str, name: str) -> Declaration | None:
    if isinstance(decls, _Declarations):
        return decls._index.get((kind, name))
    return next((d for d in decls if d.kind == kind and d.name == name), None)


def load_with_diagnostics(path: str | os.PathLike, parse: Parse = parse_text,
                          texts: Mapping[Path, str] | None = None,
                          search_paths: Sequence[Path] | None = None) -> tuple[Rulebook | None, list[Diagnostic]]:
    """Load a rulebook, returning it (``None`` if it could not be read or parsed) and every diagnostic.

    ``parse`` turns each file's text into its syntax tree (``dsl.lint.Linter`` keeps them);
    ``texts`` are read instead of the files at those resolved paths; ``search_paths`` are the
    project's (``None``: those of the configuration that governs ``path``, whose problems are
    diagnostics too).  Never raises for bad input.
    """
    problems: list[Diagnostic] = []
    if search_paths is None:
        from .config import config_for  # here, not at the top: the configuration imports cattrs

        config, problems = config_for(path)
        search_paths = config.search_paths
    with full_collections_paused():
        rulebook, diagnostics = _load_with_diagnostics(path, parse, texts, search_paths)
    return rulebook, [*problems, *diagnostics]


def _load_with_diagnostics(path: str | os.PathLike, parse: Parse, texts: Mapping[Path, str] | None,
                           search_paths: Sequence[Path]) -> tuple[Rulebook | None, list[Diagnostic]]:
    loader = _Loader(parse, texts, search_paths)
    path = Path(path)
    resolved = path.resolve()
    decls = loader.load_file(resolved, resolved.parent, (), None)
    if not loader.sources:
        return None, loader.diagnostics
    rulebook = Rulebook(_display_path(resolved), tuple(decls), tuple(loader.sources.items()))
    if any(d.code in {"E001", "E002", "E003"} for d in loader.diagnostics) and not decls:
        return None, loader.diagnostics
    return rulebook, [*loader.diagnostics, *resolve(rulebook)]


def extended_base(path: str | os.PathLike) -> tuple[Path | None, list[Diagnostic]]:
    """The rules file that the file at ``path`` extends, found as loading finds it, or ``None``
    when its first statement is no ``extends`` (``warbook diff HOUSE.rules`` compares a house rule
    with its base).  Never raises for bad input: what stops the search is in the diagnostics."""
    from .config import config_for  # here, not at the top: the configuration imports cattrs

    config, problems = config_for(path)
    if problems:
        return None, problems
    loader = _Loader(search_paths=config.search_paths)
    resolved = Path(path).resolve()
    text = loader.read(resolved, _display_path(resolved), Span.point(str(path)), None)
    if text is None:
        return None, loader.diagnostics
    try:
        statements = parse_text(text, _display_path(resolved)).statements
    except RulesError as exc:
        return None, exc.diagnostics
    first = statements[0] if statements else None
    if first is None or first.is_row or first.head.quoted or first.head.text != "extends":
        return None, []
    match = DIRECTIVES["extends"].match(first.words)
    if not match.ok:
        return None, [mismatch("E105", first.words, match, DIRECTIVES["extends"], "extends")]
    found = loader.base_file(match.bindings["base"], resolved, resolved.parent)
    return (found[0] if found else None), loader.diagnostics


def load_rulebook(path: str | os.PathLike) -> Rulebook:
    """Load and resolve a rulebook.

    Raises:
        RulesError: with every error-level diagnostic, if any.
    """
    rulebook, diagnostics = load_with_diagnostics(path)
    errors = [d for d in diagnostics if d.severity >= Severity.ERROR]
    if errors or rulebook is None:
        raise RulesError(errors or diagnostics)
    return rulebook
