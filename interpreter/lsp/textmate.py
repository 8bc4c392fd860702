"""The TextMate grammar for syntax colouring (``editors/textmate/warbook.tmLanguage.json``), built
from the schema's keywords (``dsl.keywords``) so that it cannot drift from the language.

The checked-in file is this module's ``grammar()`` as JSON (``grammar_json()``);
``tests/test_editors.py`` compares the two and rewrites the file under ``--update-goldens``.
VS Code, Sublime Text, TextMate, GitHub's linguist and Shiki read it; Neovim and Helix colour
with tree-sitter, not TextMate, and take the language server's diagnostics alone
(``docs/editors.md``).

What it colours, by the grammar's terminals (``dsl/grammar.lark``): comments, strings,
provenance (``§``, ``gap``, ``errata``), numbers in the language's notations (dice, ranges,
odds, fractions, shifts, multipliers, modifiers), braces, the ``:`` of a table row; and by the
schema: a declaration's kind and name at the start of an unindented line, a nested kind (``phase``,
``step``) or a property at the start of any line, a directive, and every other word of a form.

Limits: colouring is by line, as TextMate works, with no knowledge of the enclosing block: an
unindented line is read as a declaration, an indented one as a property, which is how
``warbook fmt`` lays a file out.
"""

from __future__ import annotations

import json

from ...dsl.keywords import pattern_words, schema_keywords

ATOM_CHAR = r'[^\s{}#",:§]'
"""A character an atom may hold (``dsl/grammar.lark``'s ``ATOM``, less its inner ``:``)."""
BEFORE = r'(?<![^\s{}#",:§])'
"""No atom character just before: the word starts an atom."""
AFTER = r'(?![^\s{}#",:§])'
"""No atom character just after: the word ends its atom."""
NUMBER = (r"(?:\d+:\d+|[+-]?\d+(?:/\d+)?(?:\.\.\d+|-\d+|\+)?|\d*d\d+(?:[+-]\d+)?|\d+[LR]|x\d+(?:/\d+)?"
          r"|[½¼¾⅓⅔])")
"""The notations of ``dsl.values``: 3, -1, 1/2, 1..3, 4-5, 27+, d6, 2d6, 3:1, 1L, x2, ½."""


def _alternatives(words) -> str:
    """Words as one regular-expression group, longest first (so no word is cut short by a prefix)."""
    return "(" + "|".join(sorted(set(words), key=lambda w: (-len(w), w))) + ")"


def grammar() -> dict:
    """The grammar as the JSON object TextMate reads."""
    keywords = schema_keywords()
    name = rf"(?:[ \t]+({ATOM_CHAR}+))?"
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "warbook rules",
        "scopeName": "source.warbook",
        "fileTypes": ["rules"],
        "comment": "Generated from the schema by warbook.interpreter.lsp.textmate; do not edit by hand.",
        "patterns": [{"include": f"#{part}"} for part in (
            "comment", "string", "provenance", "declaration", "directive", "property", "number", "keyword",
            "punctuation")],
        "repository": {
            "comment": {"name": "comment.line.number-sign.warbook", "match": "#.*$"},
            "string": {
                "name": "string.quoted.double.warbook", "begin": '"', "end": '"',
                "patterns": [{"name": "constant.character.escape.warbook", "match": r"\\."}],
            },
            "provenance": {"patterns": [
                {"match": rf'(§)[ \t]*({ATOM_CHAR}+)?',
                 "captures": {"1": {"name": "keyword.other.section.warbook"},
                              "2": {"name": "string.unquoted.section.warbook"}}},
                {"match": rf"{BEFORE}(gap|errata){AFTER}", "name": "keyword.other.provenance.warbook"},
            ]},
            "declaration": {"patterns": [
                {"match": rf"^{_alternatives(keywords.kinds)}{AFTER}{name}",
                 "captures": {"1": {"name": "storage.type.declaration.warbook"},
                              "2": {"name": "entity.name.type.warbook"}}},
                {"match": rf"^[ \t]*{_alternatives(keywords.nested_kinds)}{AFTER}{name}",
                 "captures": {"1": {"name": "storage.type.declaration.warbook"},
                              "2": {"name": "entity.name.type.warbook"}}},
            ]},
            "directive": {"patterns": [
                {"match": rf"^[ \t]*(include|extends){AFTER}",
                 "captures": {"1": {"name": "keyword.control.import.warbook"}}},
                {"match": rf"^[ \t]*(override|remove){AFTER}"
                          rf"(?:[ \t]+{_alternatives((*keywords.kinds, *keywords.nested_kinds))}{AFTER}{name})?",
                 "captures": {"1": {"name": "keyword.control.directive.warbook"},
                              "2": {"name": "storage.type.declaration.warbook"},
                              "3": {"name": "entity.name.type.warbook"}}},
            ]},
            "property": {"match": rf"^[ \t]*{_alternatives((*keywords.properties, *keywords.kinds))}{AFTER}",
                         "captures": {"1": {"name": "keyword.other.property.warbook"}}},
            "number": {"match": rf"{BEFORE}{NUMBER}{AFTER}", "name": "constant.numeric.warbook"},
            "keyword": {"match": rf"{BEFORE}{_alternatives(pattern_words())}{AFTER}",
                        "name": "keyword.other.warbook"},
            "punctuation": {"patterns": [
                {"match": r"\{", "name": "punctuation.section.block.begin.warbook"},
                {"match": r"\}", "name": "punctuation.section.block.end.warbook"},
                {"match": r":(?=\s|$)", "name": "punctuation.separator.row.warbook"},
                {"match": ",", "name": "punctuation.separator.comma.warbook"},
            ]},
        },
    }


def grammar_json() -> str:
    """The grammar as the checked-in file holds it: indented JSON, keys in the order written, a final newline."""
    return json.dumps(grammar(), indent=2, ensure_ascii=False) + "\n"
