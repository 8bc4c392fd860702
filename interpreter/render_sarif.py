"""Diagnostics as a SARIF 2.1.0 log (``warbook lint --output-format sarif``), for code-scanning services.

One run of one tool (``warbook``): the rules are the codes found, each with its name, the first
paragraph of its documentation as short description and all of it as full description and help;
each result a diagnostic, its location the file (a relative URI against ``%SRCROOT%``, the
folder warbook ran in) and the region of its span, its fix (if any) as SARIF ``fixes``.
Columns count Unicode code points (``columnKind``), as warbook's spans do.

Limits: tests validate the output against the official schema (tests/lint/sarif/); the log
names no ``originalUriBaseIds``, so a consumer resolves ``%SRCROOT%`` itself (GitHub's upload
action takes the checkout).
"""

from __future__ import annotations

import json
from pathlib import PurePath
from typing import Iterable
from urllib.parse import quote

from ..dsl.diagnostics import CODES, Diagnostic, Severity
from ..dsl.ast import Span

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
"""The schema the log declares (the OASIS standard's, with its errata)."""
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
"""SARIF's level of each severity."""


def as_sarif(diagnostics: Iterable[Diagnostic], version: str, explain=lambda code: "") -> str:
    """The SARIF log of ``diagnostics`` by warbook ``version``; ``explain(code)`` documents a code."""
    diagnostics = list(diagnostics)
    codes = sorted({d.code for d in diagnostics})
    index = {code: i for i, code in enumerate(codes)}
    rules = [_rule(code, explain(code)) for code in codes]
    results = [_result(d, index[d.code]) for d in diagnostics]
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "warbook", "version": version, "rules": rules}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }
    return json.dumps(log, indent=2, ensure_ascii=False)


def _rule(code: str, doc: str) -> dict:
    info = CODES[code]
    short = _first_paragraph(doc) or info.name.replace("-", " ")
    rule = {"id": code, "name": info.name, "shortDescription": {"text": short},
            "defaultConfiguration": {"level": LEVELS[info.severity]}}
    if doc.strip():
        rule["fullDescription"] = {"text": doc.strip()}
        rule["help"] = {"text": doc.strip()}
    return rule


def _first_paragraph(doc: str) -> str:
    """The first paragraph of ``## What it does``, on one line."""
    text = doc.split("## What it does", 1)[-1].split("##", 1)[0].strip()
    return " ".join(text.split("\n\n", 1)[0].split())


def _result(d: Diagnostic, rule_index: int) -> dict:
    message = d.message + (f" (help: {d.hint})" if d.hint else "")
    result = {
        "ruleId": d.code,
        "ruleIndex": rule_index,
        "level": LEVELS[d.severity],
        "message": {"text": message},
        "locations": [{"physicalLocation": {"artifactLocation": _artifact(d.span.path), "region": _region(d.span)}}],
    }
    if d.fix is not None:
        result["fixes"] = [{
            "description": {"text": d.fix.title},
            "artifactChanges": [{
                "artifactLocation": _artifact(edit.span.path),
                "replacements": [{"deletedRegion": _region(edit.span), "insertedContent": {"text": edit.new}}],
            } for edit in d.fix.edits],
        }]
    return result


def _artifact(path: str) -> dict:
    """A file as SARIF names it: a relative URI against ``%SRCROOT%``, else a ``file:`` URI."""
    pure = PurePath(path)
    if pure.is_absolute():
        return {"uri": pure.as_uri()}
    return {"uri": quote(pure.as_posix()), "uriBaseId": "%SRCROOT%"}


def _region(span: Span) -> dict:
    line = max(span.line, 1)
    return {"startLine": line, "startColumn": max(span.column, 1),
            "endLine": max(span.end_line, line), "endColumn": max(span.end_column, 1)}
