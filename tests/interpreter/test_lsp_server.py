"""``warbook lsp`` in a real LSP session: a pygls client starts ``python -m warbook lsp`` and speaks
JSON-RPC to it over its stdin and stdout, as an editor does.

A neutral base rulebook and a house rule that extends it are written to a temporary folder;
every expected position is worked out here from the text (LSP's UTF-16 code units counted by
encoding the text, not by the server's own routine)."""

import asyncio
import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types  # noqa: E402
from lsprotocol.converters import get_converter  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402

from warbook.dsl.fmt import format_text  # noqa: E402

BASE = """\
rulebook "Test Base" {
    players 2
}

section "1.0" "Terrain"
section "2.0" "Combat"

side red "Red" §"1.0"
side blue "Blue" §"1.0"

dice d6 §"2.0"

tag wet "Wet" §"1.0"

terrain marsh "Marsh" §"1.0" gap "the source gives no cost for marsh" errata "printed as 'mrash'" {
    cost 2
    tags wet
}

result ½D "Half defenders" §"2.0" {
    effect eliminate half defenders
}

table crt "Combat" §"2.0" {
    roll d6
    lookup by odds
    columns 1:1 2:1
    1..3: ½D ½D
    4..6: ½D ½D
}

sequence {
    phase battle "Battle" {
        mutual
    }
    phase recovery "Recovery" {
        mutual
    }
}
"""

HOUSE = """\
extends "base.rules"

override terrain marsh {
    cost 3 for wet
}
"""

converter = get_converter()
TIMEOUT = 60
"""Seconds before a wait is given up (a guard against a hang, not a measurement)."""


def utf16(text: str) -> int:
    """LSP's ``character``: UTF-16 code units, counted by encoding."""
    return len(text.encode("utf-16-le")) // 2


def position_of(text: str, needle: str, occurrence: int = 1) -> types.Position:
    """The LSP position of the start of the ``occurrence``-th ``needle`` in ``text``."""
    at = -1
    for _ in range(occurrence):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at)
    line_start = text.rfind("\n", 0, at) + 1
    return types.Position(line, utf16(text[line_start:at]))


class Session:
    """One client, one server process, one event loop, for the module's tests."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.loop = asyncio.new_event_loop()
        self.client = LanguageClient("warbook-test", "1")
        self.diagnostics: dict[str, list[types.PublishDiagnosticsParams]] = {}

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:
            self.diagnostics.setdefault(params.uri, []).append(params)

        self.run(self.client.start_io(sys.executable, "-m", "warbook", "lsp", cwd=str(folder)))
        self.init = self.run(self.client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=from_fs_path(str(folder)))))
        self.client.initialized(types.InitializedParams())
        self.versions: dict[str, int] = {}

    def run(self, coroutine):
        return self.loop.run_until_complete(asyncio.wait_for(coroutine, TIMEOUT))

    def uri(self, name: str) -> str:
        return from_fs_path(str(self.folder / name))

    def open(self, name: str, text: str) -> list[types.Diagnostic]:
        """Open a document (its text need not be on disk) and wait for its diagnostics."""
        uri = self.uri(name)
        self.versions[uri] = 1
        published = len(self.diagnostics.get(uri, ()))
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri, language_id="warbook", version=1, text=text)))
        return self.wait_diagnostics(uri, 1, published)

    def change(self, name: str, text: str) -> list[types.Diagnostic]:
        """Replace a document's whole text, as an editor does while typing, and wait for its diagnostics."""
        uri = self.uri(name)
        self.versions[uri] += 1
        published = len(self.diagnostics.get(uri, ()))
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            [types.TextDocumentContentChangeWholeDocument(text=text)]))
        return self.wait_diagnostics(uri, self.versions[uri], published)

    def wait_diagnostics(self, uri: str, version: int, published: int) -> list[types.Diagnostic]:
        """The diagnostics of ``version`` published after the first ``published`` publications."""
        async def wait():
            while True:
                for params in self.diagnostics.get(uri, [])[published:]:
                    if params.version == version:
                        return params.diagnostics
                await asyncio.sleep(0.01)

        return self.run(wait())

    def doc(self, name: str) -> types.TextDocumentIdentifier:
        return types.TextDocumentIdentifier(uri=self.uri(name))

    def close(self) -> None:
        self.run(self.client.shutdown_async(None))
        self.client.exit(None)
        self.run(self.client.stop())
        self.loop.close()


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lsp")
    (folder / "base.rules").write_text(BASE, encoding="utf-8")
    (folder / "house.rules").write_text(HOUSE, encoding="utf-8")
    session = Session(folder)
    yield session
    session.close()


def test_the_server_says_what_it_can_do(session):
    capabilities = session.init.capabilities
    assert session.init.server_info.name == "warbook"
    assert capabilities.position_encoding == types.PositionEncodingKind.Utf16
    assert capabilities.hover_provider and capabilities.definition_provider
    assert capabilities.document_symbol_provider and capabilities.document_formatting_provider
    assert capabilities.completion_provider is not None


def test_a_mistake_is_a_diagnostic_at_its_range_in_utf16_units(session):
    # A non-ASCII printed result (½, one UTF-16 unit but two UTF-8 bytes) and a character outside
    # the Basic Multilingual Plane (𝄞, two UTF-16 units but one character) stand before the errors.
    text = BASE.replace("    4..6: ½D ½D", "    4..6: ½D Z9").replace(
        'side blue "Blue"', 'side blue "Blue 𝄞" oops')
    found = session.open("mistakes.rules", text)
    by_code = {d.code: d for d in found}
    assert set(by_code) >= {"E204", "E105"}, [(d.code, d.message) for d in found]

    unknown = by_code["E204"]
    start = position_of(text, "Z9")
    assert unknown.range == types.Range(start, types.Position(start.line, start.character + 2))
    assert unknown.range.start.character == 13  # "    4..6: ½D " is 13 UTF-16 units (and 14 UTF-8 bytes)
    assert unknown.severity == types.DiagnosticSeverity.Error and unknown.source == "warbook"
    assert "unknown result 'Z9'" in unknown.message

    header = by_code["E105"]
    start = position_of(text, "oops")
    assert start.character == len('side blue "Blue 𝄞" ') + 1  # the clef is two units
    assert header.range == types.Range(start, types.Position(start.line, start.character + 4))
    assert "help: expected" in header.message


def test_diagnostics_follow_the_buffer_as_it_is_typed(session):
    clean = sorted(d.code for d in session.open("typing.rules", BASE))
    assert "E104" not in clean
    found = session.change("typing.rules", BASE.replace("    cost 2\n", "    cots 2\n"))
    assert sorted(d.code for d in found) == sorted([*clean, "E104"])
    typo = next(d for d in found if d.code == "E104")
    assert typo.message == "unknown property 'cots' in a terrain\nhelp: did you mean 'cost'?"
    assert sorted(d.code for d in session.change("typing.rules", BASE)) == clean
    broken = session.change("typing.rules", BASE.replace("    tags wet\n}", "    tags wet\n"))
    assert "E003" in [d.code for d in broken]


def test_hover_shows_the_declaration_its_section_gap_and_errata(session):
    session.open("house.rules", HOUSE)
    hover = session.run(session.client.text_document_hover_async(types.HoverParams(
        session.doc("house.rules"), position_of(HOUSE, "marsh"))))
    text = hover.contents.value
    assert "**terrain** `marsh` — Marsh" in text
    assert "§ 1.0" in text
    assert "the source gives no cost for marsh" in text and "printed as 'mrash'" in text
    assert "base.rules:15:9" in text
    start = position_of(HOUSE, "marsh")
    assert hover.range == types.Range(start, types.Position(start.line, start.character + 5))


def test_hover_on_a_keyword_shows_its_form(session):
    session.open("house.rules", HOUSE)
    hover = session.run(session.client.text_document_hover_async(types.HoverParams(
        session.doc("house.rules"), position_of(HOUSE, "cost"))))
    assert hover.contents.value.startswith("```\ncost (no entry | <amount:NUM>)")


def test_definition_crosses_extends_into_the_base_rulebook(session):
    session.open("house.rules", HOUSE)
    for needle in ("marsh", "wet"):  # the override's name, and a tag named in a property
        found = session.run(session.client.text_document_definition_async(types.DefinitionParams(
            session.doc("house.rules"), position_of(HOUSE, needle))))
        assert len(found) == 1, needle
        start = position_of(BASE, f"{'terrain' if needle == 'marsh' else 'tag'} {needle}")
        start = types.Position(start.line, start.character + len("terrain " if needle == "marsh" else "tag "))
        assert found[0].uri == session.uri("base.rules")
        assert found[0].range == types.Range(start, types.Position(start.line, start.character + len(needle)))


def test_definition_of_the_extends_string_is_the_file(session):
    session.open("house.rules", HOUSE)
    found = session.run(session.client.text_document_definition_async(types.DefinitionParams(
        session.doc("house.rules"), position_of(HOUSE, "base.rules"))))
    assert [(loc.uri, loc.range.start) for loc in found] == [(session.uri("base.rules"), types.Position(0, 0))]


def test_completion_offers_schema_keywords_and_declared_names(session):
    text = HOUSE.replace("    cost 3 for wet\n", "    cost 3 for wet\n    \n")
    session.open("complete.rules", text)
    inside = types.Position(position_of(text, "cost").line + 1, 4)
    items = session.run(session.client.text_document_completion_async(types.CompletionParams(
        session.doc("complete.rules"), inside))).items
    labels = {i.label for i in items}
    assert {"cost", "defence", "tags", "text"} <= labels and "terrain" not in labels
    cost = next(i for i in items if i.label == "cost")
    assert cost.kind == types.CompletionItemKind.Property and cost.detail.startswith("cost (no entry")

    top = session.run(session.client.text_document_completion_async(types.CompletionParams(
        session.doc("complete.rules"), types.Position(1, 0)))).items
    assert {"terrain", "table", "override", "include"} <= {i.label for i in top}

    after = position_of(text, "wet")
    names = session.run(session.client.text_document_completion_async(types.CompletionParams(
        session.doc("complete.rules"), after))).items
    by_label = {i.label: i for i in names}
    assert by_label["wet"].kind == types.CompletionItemKind.Reference and by_label["wet"].detail == 'tag wet "Wet"'
    assert {"red", "blue", "marsh", "crt", "when"} <= set(by_label)


def test_document_symbols_are_the_outline_of_kinds_and_names(session):
    session.open("base.rules", BASE)
    symbols = session.run(session.client.text_document_document_symbol_async(types.DocumentSymbolParams(
        session.doc("base.rules"))))
    names = [(s.name, s.detail) for s in symbols]
    assert names[:3] == [("rulebook", "rulebook Test Base"), ("1.0", "section Terrain"), ("2.0", "section Combat")]
    assert ("marsh", "terrain Marsh") in names and ("crt", "table Combat") in names
    sequence = symbols[-1]
    assert sequence.detail == "sequence" and [c.name for c in sequence.children] == ["battle", "recovery"]
    marsh = next(s for s in symbols if s.name == "marsh")
    start = position_of(BASE, "terrain marsh")
    assert marsh.range.start == start and marsh.range.end == types.Position(start.line + 3, 1)
    assert marsh.selection_range.start == types.Position(start.line, start.character + len("terrain "))


def test_formatting_is_warbook_fmt(session):
    messy = "side   red   \"Red\"\nterrain marsh \"Marsh\" {\ncost 2\n   tags wet\n}\n"
    session.open("messy.rules", messy)
    edits = session.run(session.client.text_document_formatting_async(types.DocumentFormattingParams(
        session.doc("messy.rules"), types.FormattingOptions(tab_size=4, insert_spaces=True))))
    assert len(edits) == 1
    assert edits[0].new_text == format_text(messy) != messy
    assert edits[0].range == types.Range(types.Position(0, 0), types.Position(messy.count("\n"), 0))
    formatted = session.run(session.client.text_document_formatting_async(types.DocumentFormattingParams(
        session.doc("house.rules"), types.FormattingOptions(tab_size=4, insert_spaces=True))))
    assert list(formatted) == []  # already formatted: nothing to change
    session.open("unclosed.rules", "terrain marsh {\n    cost 2\n")
    unclosed = session.run(session.client.text_document_formatting_async(types.DocumentFormattingParams(
        session.doc("unclosed.rules"), types.FormattingOptions(tab_size=4, insert_spaces=True))))
    assert unclosed is None  # a syntax error is left for its diagnostic, as warbook fmt refuses it


def test_while_the_text_does_not_parse_answers_come_from_the_last_rulebook_that_loaded(session):
    session.open("editing.rules", HOUSE)
    broken = HOUSE.replace("    cost 3 for wet\n}", "    cost 3 for wet\n    ta")  # mid-edit: the block is open
    assert "E003" in [d.code for d in session.change("editing.rules", broken)]
    hover = session.run(session.client.text_document_hover_async(types.HoverParams(
        session.doc("editing.rules"), position_of(broken, "wet"))))
    assert hover.contents.value.startswith("**tag** `wet` — Wet")
    end = types.Position(broken.count("\n"), len("    ta"))
    items = session.run(session.client.text_document_completion_async(types.CompletionParams(
        session.doc("editing.rules"), end))).items
    assert "tags" in {i.label for i in items}
    symbols = session.run(session.client.text_document_document_symbol_async(types.DocumentSymbolParams(
        session.doc("editing.rules"))))
    assert [s.name for s in symbols] == ["base.rules", "terrain marsh"]  # the outline before the edit


def test_saving_a_base_rulebook_lints_again_the_house_rule_open_beside_it(session):
    (session.folder / "base2.rules").write_text(BASE, encoding="utf-8")
    house = HOUSE.replace("base.rules", "base2.rules")
    assert "E101" not in [d.code for d in session.open("house2.rules", house)]
    without_wet = BASE.replace('tag wet "Wet" §"1.0"\n', "").replace("    tags wet\n", "")
    (session.folder / "base2.rules").write_text(without_wet, encoding="utf-8")
    session.open("base2.rules", without_wet)
    uri = session.uri("house2.rules")
    published = len(session.diagnostics[uri])
    session.client.text_document_did_save(types.DidSaveTextDocumentParams(session.doc("base2.rules")))

    async def republished():
        while len(session.diagnostics[uri]) == published:
            await asyncio.sleep(0.01)
        return session.diagnostics[uri][-1].diagnostics

    found = session.run(republished())
    assert [(d.code, d.range.start) for d in found if d.code == "E101"] == [("E101", position_of(house, "wet"))]


def test_a_section_cite_leads_to_the_section_and_strings_get_no_completion(session):
    session.open("base.rules", BASE)
    cite = position_of(BASE, '1.0"', 3)  # the cite of side red
    cite = types.Position(cite.line, cite.character - 1)  # on the opening quote
    hover = session.run(session.client.text_document_hover_async(types.HoverParams(session.doc("base.rules"), cite)))
    assert hover.contents.value.startswith("**section** `1.0` — Terrain")
    found = session.run(session.client.text_document_definition_async(types.DefinitionParams(
        session.doc("base.rules"), cite)))
    assert [loc.range.start for loc in found] == [position_of(BASE, '"1.0"')]
    text = 'side red "Red\n'
    session.open("instring.rules", text)
    items = session.run(session.client.text_document_completion_async(types.CompletionParams(
        session.doc("instring.rules"), types.Position(0, len('side red "Re')))))
    assert list(items.items) == []


def test_definition_crosses_include(session):
    (session.folder / "parts.rules").write_text('side red "Red"\n\ntag boggy "Boggy"\n', encoding="utf-8")
    text = 'include "parts.rules"\n\nterrain fen "Fen" {\n    cost 2 for boggy\n}\n'
    session.open("including.rules", text)
    found = session.run(session.client.text_document_definition_async(types.DefinitionParams(
        session.doc("including.rules"), position_of(text, "boggy"))))
    assert [(loc.uri, loc.range) for loc in found] == [
        (session.uri("parts.rules"), types.Range(types.Position(2, 4), types.Position(2, 9)))]


def test_the_exchange_shown_in_the_editors_doc_is_what_the_server_sends(session):
    doc = (Path(__file__).resolve().parents[2] / "docs" / "editors.md").read_text(encoding="utf-8")
    rules = doc.split("```rules\n", 1)[1].split("```", 1)[0]
    shown = json.loads(doc.split("```json\n", 1)[1].split("```", 1)[0])
    found = session.open("typo.rules", rules)
    assert [json.loads(json.dumps(converter.unstructure(d))) for d in found] == shown["diagnostics"]
    hover = session.run(session.client.text_document_hover_async(types.HoverParams(
        session.doc("typo.rules"), position_of(rules, "marsh"))))
    assert f"```\n{hover.contents.value}\n```" in doc


def framed(message: dict) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def test_a_client_that_prefers_utf8_gets_byte_offsets_over_raw_json_rpc(tmp_path):
    """No client library: JSON-RPC framed by hand on the server's stdin, read back from its stdout."""
    import subprocess

    uri = from_fs_path(str(tmp_path / "bytes.rules"))
    text = 'side red "R½" oops\n'
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": None, "capabilities": {"general": {"positionEncodings": ["utf-8"]}}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "warbook", "version": 1, "text": text}}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None},
        {"jsonrpc": "2.0", "method": "exit", "params": None},
    ]
    done = subprocess.run([sys.executable, "-m", "warbook", "lsp"], input=b"".join(map(framed, messages)),
                          capture_output=True, cwd=tmp_path, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr.decode()
    replies = [json.loads(part.split(b"\r\n\r\n", 1)[1]) for part in done.stdout.split(b"Content-Length: ")[1:]]
    (initialized,) = [r for r in replies if r.get("id") == 1]
    assert initialized["result"]["capabilities"]["positionEncoding"] == "utf-8"
    (published,) = [r["params"] for r in replies if r.get("method") == "textDocument/publishDiagnostics"]
    start = len('side red "R½" '.encode("utf-8"))  # 15 bytes: the ½ is two
    assert [(d["code"], d["range"]) for d in published["diagnostics"]] == [
        ("E105", {"start": {"line": 0, "character": start}, "end": {"line": 0, "character": start + 4}})]
