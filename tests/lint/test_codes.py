"""The one static table of diagnostic codes (``dsl/codes.py``, ruff's ``codes.rs``).

The table is complete on import, whatever else was imported; the modules that report a
code only verify it against the table; every code the source reports is in it; retired
codes are never reported nor reused; ``--explain`` documents every code in a fresh
interpreter.
"""

import inspect
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from warbook.dsl import codes, diagnostics
from warbook.dsl.ast import Span
from warbook.dsl.codes import TABLE, CodeInfo, index
from warbook.dsl.diagnostics import CODES, RETIRED, diagnostic, register, verify_code
from warbook.dsl.lint import CHECKS, check, explain, load_checks
from warbook.dsl.loader import MAX_DEPTH

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(p for folder in ("dsl", "interpreter") for p in (ROOT / folder).rglob("*.py"))
REPORTED = re.compile(r"""\bdiagnostic\(\s*["']([EWI][0-9]{3})["']""")
SPAN = Span("x.rules", 1, 1, 1, 2)


def reported_codes() -> dict[str, list[str]]:
    """Code → the places in the engine's source that pass it to ``diagnostic(...)`` as a literal."""
    found: dict[str, list[str]] = {}
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        for m in REPORTED.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            found.setdefault(m.group(1), []).append(f"{path.relative_to(ROOT)}:{line}")
    return found


def test_every_reported_code_is_in_the_table():
    found = reported_codes()
    assert len(found) >= 60
    missing = {code: places for code, places in found.items() if code not in CODES and code not in RETIRED}
    assert missing == {}, "add these codes to dsl/codes.py"


def test_no_retired_code_is_reported():
    found = reported_codes()
    assert {code: found[code] for code in RETIRED if code in found} == {}


def test_names_are_unique_kebab_case_and_the_letter_gives_the_severity():
    names = [info.name for info in TABLE]
    assert len(set(names)) == len(names) == len(TABLE) == len(CODES) + len(RETIRED)
    for info in TABLE:
        assert re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", info.name), info
        assert info.severity is codes.LETTERS[info.code[0]]
    assert CODES["W401"].severity.label == "warning" and CODES["I601"].severity.label == "info"


def test_the_table_is_complete_on_import_without_the_modules_that_report_codes():
    script = ("import sys, json; from warbook.dsl.diagnostics import CODES; "
              "print(json.dumps([sorted(CODES), sorted(m for m in sys.modules if m.startswith('warbook'))]))")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    known, modules = json.loads(done.stdout)
    assert known == sorted(CODES) and set(known) >= {"E001", "E220", "E701", "E704", "W705", "E811"}
    assert not [m for m in modules if m.startswith("warbook.interpreter")]
    assert not [m for m in modules if m.startswith("warbook.dsl.lint.")]


def test_explain_documents_every_code_in_a_fresh_interpreter():
    """``--explain`` after importing only ``dsl.diagnostics`` and the CLI: no module imported to register."""
    script = """if True:
        import contextlib, io, json
        from warbook.dsl.diagnostics import CODES
        from warbook.interpreter.cli import main
        out = {}
        for code in sorted(CODES):
            text = io.StringIO()
            with contextlib.redirect_stdout(text):
                status = main(["lint", "--explain", code.lower()])
            out[code] = [status, text.getvalue()]
        print(json.dumps(out))
    """
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    explained = json.loads(done.stdout)
    assert sorted(explained) == sorted(CODES)
    for code, (status, text) in explained.items():
        info = CODES[code]
        head, _, doc = text.partition("\n\n")
        assert status == 0 and head == f"{code} {info.name} ({info.severity.label})", code
        assert "## What it does" in doc and doc.strip() == explain(code).strip(), code


def test_lint_checks_are_the_codes_the_table_leaves_undocumented():
    load_checks()
    assert {c for c, info in CODES.items() if info.text is None} == set(CHECKS)
    assert all(explain(c) == inspect.getdoc(CHECKS[c].function) for c in CHECKS)


def test_the_table_states_the_include_depth_the_loader_enforces():
    assert f"more than {MAX_DEPTH} deep" in explain("E006")


def test_register_and_check_verify_against_the_table():
    assert register("E704", "bad-scenario", "ignored") is CODES["E704"]
    with pytest.raises(ValueError, match="not in the table"):
        register("E999", "no-such-code", "")
    with pytest.raises(ValueError, match="called 'unknown-name'"):
        verify_code("E101", "unknown-names")
    with pytest.raises(ValueError, match="called 'unused-result'"):
        check("W401", "unused-results")
    with pytest.raises(ValueError, match="documented in the table"):
        check("E101", "unknown-name")


RETIRED_ROW = CodeInfo("E199", "old-name", "## What it does\nNothing any more.", retired=True)


def test_a_retired_code_is_never_reported_nor_reused(monkeypatch):
    table = index([*TABLE, RETIRED_ROW])
    monkeypatch.setattr(diagnostics, "CODES_BY_CODE", table)
    monkeypatch.setattr(diagnostics, "RETIRED", {"E199": RETIRED_ROW})
    with pytest.raises(KeyError, match="retired diagnostic code 'E199'"):
        diagnostic("E199", SPAN, "something")
    with pytest.raises(ValueError, match="retired"):
        verify_code("E199", "old-name")
    assert RETIRED_ROW.doc.startswith("## What it does") and RETIRED_ROW.severity.label == "error"


@pytest.mark.parametrize("rows, message", [
    ([RETIRED_ROW, CodeInfo("E199", "new-name")], "twice"),
    ([RETIRED_ROW, CodeInfo("E198", "old-name")], "old-name"),
    ([CodeInfo("E19", "short")], "malformed"),
    ([CodeInfo("X199", "letter")], "malformed"),
    ([CodeInfo("E199", "Not_Kebab")], "kebab-case"),
])
def test_the_table_rejects_reused_and_malformed_rows(rows, message):
    with pytest.raises(ValueError, match=message):
        index(rows)
