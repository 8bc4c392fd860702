"""Editor support kept in step with the language: the TextMate grammar covers every keyword of the
schema (each recognised in the role it plays on a line), and the VS Code extension's manifest
names that grammar and starts ``warbook lsp``.

The grammar's regular expressions are run here with Python's ``re``, which reads the constructs
they use (look-behind of one character, alternatives, classes) as Oniguruma does."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from warbook.dsl.keywords import schema_keywords
from warbook.interpreter.cli import build_parser
from warbook.interpreter.lsp.textmate import grammar_json

ROOT = Path(__file__).resolve().parents[1]
GRAMMAR_FILE = ROOT / "editors" / "textmate" / "warbook.tmLanguage.json"
VSCODE = ROOT / "editors" / "vscode"


@pytest.fixture(scope="module")
def grammar():
    return json.loads(GRAMMAR_FILE.read_text(encoding="utf-8"))


def rules(grammar, name):
    """The match rules of one repository entry (a single rule or a list of ``patterns``)."""
    entry = grammar["repository"][name]
    return entry.get("patterns", [entry])


def scopes_at(grammar, name, line, word):
    """The scope names a repository entry gives ``word``'s first occurrence in ``line`` (what a
    TextMate engine paints there), or ``set()``."""
    at = line.index(word)
    found = set()
    for rule in rules(grammar, name):
        for m in re.finditer(rule["match"], line):
            if "name" in rule and m.start() == at and m.end() == at + len(word):
                found.add(rule["name"])
            for group, capture in rule.get("captures", {}).items():
                if m.group(int(group)) == word and m.start(int(group)) == at:
                    found.add(capture["name"])
    return found


def test_the_grammar_file_is_generated_from_the_schema(golden):
    golden(GRAMMAR_FILE, grammar_json())


def test_every_kind_is_coloured_as_a_declaration_with_its_name(grammar):
    keywords = schema_keywords()
    for kind in keywords.kinds:
        line = f'{kind} some_name "Label" {{'
        assert scopes_at(grammar, "declaration", line, kind) == {"storage.type.declaration.warbook"}, kind
        assert scopes_at(grammar, "declaration", line, "some_name") == {"entity.name.type.warbook"}, kind
    for kind in keywords.nested_kinds:
        line = f"    {kind} some_name {{"
        assert scopes_at(grammar, "declaration", line, kind) == {"storage.type.declaration.warbook"}, kind


def test_every_directive_and_property_is_coloured_at_the_start_of_a_line(grammar):
    keywords = schema_keywords()
    assert set(keywords.directives) == {"include", "extends", "override", "remove"}
    for directive in keywords.directives:
        assert scopes_at(grammar, "directive", f"{directive} x", directive), directive
    for prop in (*keywords.properties, *keywords.kinds):  # a kind's word is a property inside a block
        assert scopes_at(grammar, "property", f"    {prop} 2", prop) == {"keyword.other.property.warbook"}, prop


def test_every_word_of_a_form_is_coloured_inside_a_line(grammar):
    for word in schema_keywords().all():
        assert scopes_at(grammar, "keyword", f"    x {word} y", word) == {"keyword.other.warbook"}, word


def test_keywords_are_whole_words_and_numbers_are_the_languages_notations(grammar):
    assert scopes_at(grammar, "keyword", "    x my_cost y", "cost") == set()
    assert scopes_at(grammar, "declaration", "terrainx t", "terrainx") == set()
    assert scopes_at(grammar, "declaration", "terrain-x t", "terrain") == set()
    for number in ("3", "-1", "+2", "1/2", "½", "1..3", "4-5", "27+", "d6", "2d6", "3:1", "1L", "x2", "x1/2"):
        assert scopes_at(grammar, "number", f"    roll {number} x", number) == {"constant.numeric.warbook"}, number
    assert scopes_at(grammar, "number", "    1: ½D½A x", "½") == set()  # a result code, not a number
    assert scopes_at(grammar, "provenance", 'cost 2 gap "why"', "gap") == {"keyword.other.provenance.warbook"}
    assert scopes_at(grammar, "provenance", 'terrain t §"8.4"', "§") == {"keyword.other.section.warbook"}
    assert scopes_at(grammar, "directive", "override terrain marsh {", "marsh") == {"entity.name.type.warbook"}


def test_the_vscode_manifest_names_the_grammar_and_starts_the_server(grammar):
    manifest = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    (language,) = manifest["contributes"]["languages"]
    assert language["extensions"] == [".rules"] and f"onLanguage:{language['id']}" in manifest["activationEvents"]
    (contributed,) = manifest["contributes"]["grammars"]
    assert contributed["language"] == language["id"] and contributed["scopeName"] == grammar["scopeName"]
    assert json.loads((VSCODE / contributed["path"]).read_text(encoding="utf-8")) == grammar
    json.loads((VSCODE / language["configuration"]).read_text(encoding="utf-8"))
    assert (VSCODE / manifest["main"]).is_file()
    assert "vscode-languageclient" in manifest["dependencies"]
    command = manifest["contributes"]["configuration"]["properties"]["warbook.server.command"]["default"]
    assert command[0] == "warbook" and build_parser().parse_args(command[1:]).command == "lsp"
    script = (VSCODE / manifest["main"]).read_text(encoding="utf-8")
    assert 'require("vscode-languageclient/node")' in script
    assert 'get("server.command", ["warbook", "lsp"])' in script


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_extension_script_is_valid_javascript():
    subprocess.run(["node", "--check", str(VSCODE / "extension.js")], check=True)
