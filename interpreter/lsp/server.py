"""The pygls language server: ``interpreter.lsp.session``'s answers as LSP messages.

Diagnostics are published when a file is opened, changed (the whole buffer re-linted: a warm
re-lint parses only the buffer) and saved (every open file then, as the one saved may be the base
of another); hover, definition, completion, document symbols and
formatting answer on request.  Positions go through ``interpreter.lsp.positions`` in the
encoding agreed at initialisation (UTF-16 unless the client prefers another).

Requires pygls (``pip install warbook[lsp]``): importing this module without it raises
``ImportError``, which ``warbook lsp`` turns into a message.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from ... import __version__
from ...dsl.ast import Span
from ...dsl.codes import Severity
from ...dsl.diagnostics import Diagnostic
from ...dsl.navigation import Symbol
from .positions import UTF16, lines_of, to_position, to_range
from .session import Completion, Session, Target

SEVERITIES = {Severity.ERROR: types.DiagnosticSeverity.Error, Severity.WARNING: types.DiagnosticSeverity.Warning,
              Severity.INFO: types.DiagnosticSeverity.Information}
COMPLETION_KINDS = {"kind": types.CompletionItemKind.Class, "directive": types.CompletionItemKind.Keyword,
                    "property": types.CompletionItemKind.Property, "keyword": types.CompletionItemKind.Keyword,
                    "name": types.CompletionItemKind.Reference}
SYMBOL_KINDS = {"rulebook": types.SymbolKind.File, "section": types.SymbolKind.Namespace,
                "sequence": types.SymbolKind.Module, "phase": types.SymbolKind.Event,
                "step": types.SymbolKind.Event, "table": types.SymbolKind.Struct,
                "extends": types.SymbolKind.Package, "include": types.SymbolKind.Package,
                "override": types.SymbolKind.Object, "remove": types.SymbolKind.Object}
"""LSP symbol kinds for the outline; every other declaration kind is a ``Class``."""
TRIGGER_CHARACTERS = [" "]


class WarbookServer(LanguageServer):
    """A ``LanguageServer`` that keeps one ``Session``."""

    def __init__(self) -> None:
        super().__init__("warbook", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.session = Session()

    @property
    def encoding(self) -> str:
        return str(self.workspace.position_encoding or UTF16)

    def document(self, uri: str) -> tuple[str, str]:
        """The file path and the current text of an open document."""
        doc = self.workspace.get_text_document(uri)
        return to_fs_path(uri) or doc.path, doc.source

    def lsp_range(self, span: Span, text: str) -> types.Range:
        start, end = to_range(span, lines_of(text), self.encoding)
        return types.Range(types.Position(*start), types.Position(*end))

    def position(self, text: str, position: types.Position) -> tuple[int, int]:
        return to_position(lines_of(text), position.line, position.character, self.encoding)

    def publish(self, uri: str) -> None:
        path, text = self.document(uri)
        found = self.session.lint(path, text)
        version = self.workspace.get_text_document(uri).version
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=version, diagnostics=[self.lsp_diagnostic(d, text) for d in found]))

    def lsp_diagnostic(self, d: Diagnostic, text: str) -> types.Diagnostic:
        message = d.message if d.hint is None else f"{d.message}\nhelp: {d.hint}"
        return types.Diagnostic(range=self.lsp_range(d.span, text), message=message, severity=SEVERITIES[d.severity],
                                code=d.code, source="warbook")


def build_server() -> WarbookServer:
    """A server with every feature registered (``start_io`` runs it)."""
    server = WarbookServer()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: WarbookServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.publish(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: WarbookServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.publish(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: WarbookServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.publish(params.text_document.uri)
        for uri in list(ls.workspace.text_documents):  # a saved base rulebook changes what extends it
            if uri != params.text_document.uri:
                ls.publish(uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: WarbookServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.session.close(to_fs_path(uri) or uri)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: WarbookServer, params: types.HoverParams) -> types.Hover | None:
        path, text = ls.document(params.text_document.uri)
        found = ls.session.hover(path, text, *ls.position(text, params.position))
        if found is None:
            return None
        markdown, span = found
        return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, markdown), ls.lsp_range(span, text))

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: WarbookServer, params: types.DefinitionParams) -> list[types.Location]:
        path, text = ls.document(params.text_document.uri)
        targets = ls.session.definition(path, text, *ls.position(text, params.position))
        return [location(ls, target) for target in targets]

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=TRIGGER_CHARACTERS))
    def completion(ls: WarbookServer, params: types.CompletionParams) -> types.CompletionList:
        path, text = ls.document(params.text_document.uri)
        items = ls.session.completions(path, text, *ls.position(text, params.position))
        return types.CompletionList(is_incomplete=False, items=[completion_item(c) for c in items])

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(ls: WarbookServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
        path, text = ls.document(params.text_document.uri)
        return [document_symbol_of(ls, s, text) for s in ls.session.symbols(path, text)]

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: WarbookServer, params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
        path, text = ls.document(params.text_document.uri)
        formatted = ls.session.format(path, text)
        if formatted is None or formatted == text:
            return None if formatted is None else []
        lines = lines_of(text)
        end = Span(path, len(lines), len(lines[-1]) + 1, len(lines), len(lines[-1]) + 1)
        whole = types.Range(types.Position(0, 0), ls.lsp_range(end, text).end)
        return [types.TextEdit(whole, formatted)]

    return server


def location(ls: WarbookServer, target: Target) -> types.Location:
    uri = from_fs_path(str(Path(target.path).resolve())) or target.path
    if target.span is None:
        return types.Location(uri, types.Range(types.Position(0, 0), types.Position(0, 0)))
    text = target.text if target.text is not None else _read(target.path)
    return types.Location(uri, ls.lsp_range(target.span, text))


def _read(path: str) -> str:
    """A file's text for converting a span's columns; empty if it cannot be read (the columns
    then count one unit a character)."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def completion_item(c: Completion) -> types.CompletionItem:
    doc = types.MarkupContent(types.MarkupKind.Markdown, c.documentation) if c.documentation else None
    return types.CompletionItem(label=c.label, kind=COMPLETION_KINDS[c.role], detail=c.detail, documentation=doc)


def document_symbol_of(ls: WarbookServer, symbol: Symbol, text: str) -> types.DocumentSymbol:
    selection = ls.lsp_range(symbol.name_span, text)
    whole = ls.lsp_range(symbol.span, text)
    return types.DocumentSymbol(
        name=symbol.name, detail=" ".join(filter(None, (symbol.kind, symbol.label))),
        kind=SYMBOL_KINDS.get(symbol.kind, types.SymbolKind.Class), range=whole, selection_range=selection,
        children=[document_symbol_of(ls, child, text) for child in symbol.children])


def serve() -> None:
    """Run the server over standard input and output until the client ends it."""
    build_server().start_io()
