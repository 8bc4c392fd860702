"""Every form the language accepts is carried out, or is known not to be.

The effect registry (``tests/interpreter/test_effect_registry.py``) guards one form, ``effect``
lines.  This test guards every other: each property of each declaration kind
(``dsl.schema.KINDS``, the ``COMMON`` properties once), each file-level directive
(``dsl.schema.DIRECTIVES``) and each procedure (``dsl.vocabulary.PROCEDURES``) has an entry in
``tests/form_coverage.toml`` that names

- ``read_by``: the functions that carry it out (``module:qualname``, imported here), and
- ``played_by``: tests that play it (``path::function``, found by parsing the test file), or
  ``metadata = true`` with a ``reason`` (text the interpreter rightly never reads), or
  ``refused = "E…"``: the code that stops the form before play;

or is listed under ``gaps``: a form accepted and then ignored, or never played by a test.
``KNOWN_GAPS`` below must equal that list, so closing a gap (or opening one) changes this file
as well as the data file.

Form keys come from the schema's own names: ``KIND.PROPERTY`` (the property's first word, as
``KindSpec.properties`` keys it: ``movement.never`` covers ``never enters`` and ``never moves``),
``KIND.<factor>`` for the factor lines of kinds that take them (``attack 2``), ``KIND.<rows>``
for table rows, ``common.PROPERTY``, ``directive.NAME`` and ``procedure.NAME``.

Limits: the test checks that the named functions and tests exist, not that they read the form
or play it; that was checked by hand when each entry was written (by grepping the interpreter
for ``.first("…")``/``.all("…")``/``.has("…")`` and the tests for rulebooks using the form).
"""

from __future__ import annotations

import ast
import functools
import importlib
import tomllib
from pathlib import Path

import pytest

from warbook.dsl.codes import CODES_BY_CODE as CODES
from warbook.dsl.schema import COMMON, DIRECTIVES, KINDS
from warbook.dsl.vocabulary import PROCEDURES

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = HERE / "form_coverage.toml"

KNOWN_GAPS: frozenset[str] = frozenset()
"""No form is accepted and then ignored: every one is carried out, metadata, or refused."""


def iter_forms():
    """Every form key, from the schema and vocabulary themselves (module docstring)."""
    for name in COMMON:
        yield f"common.{name}"
    for kind, spec in KINDS.items():
        for name, prop in spec.properties.items():
            if prop is not COMMON.get(name):
                yield f"{kind}.{name}"
        if spec.factors:
            yield f"{kind}.<factor>"
        if spec.rows is not None:
            yield f"{kind}.<rows>"
    for name in DIRECTIVES:
        yield f"directive.{name}"
    for name in PROCEDURES:
        yield f"procedure.{name}"


@functools.cache
def coverage() -> dict:
    with DATA.open("rb") as f:
        return tomllib.load(f)


FORMS = tuple(iter_forms())
ENTRIES = coverage().get("forms", {})
GAPS = coverage().get("gaps", {})


def test_the_forms_are_enumerated_once_each():
    assert len(FORMS) == len(set(FORMS))
    assert "terrain.cost" in FORMS and "procedure.recon" in FORMS and "common.text" in FORMS


def test_every_form_has_an_entry_or_a_gap():
    missing = [key for key in FORMS if key not in ENTRIES and key not in GAPS]
    assert missing == [], f"forms with no entry in {DATA.name}: {missing}"


def test_every_entry_names_a_form_that_exists():
    known = set(FORMS)
    stale = sorted(key for key in (*ENTRIES, *GAPS) if key not in known)
    assert stale == [], f"entries in {DATA.name} for forms the schema no longer has: {stale}"


def test_no_form_is_both_covered_and_a_gap():
    assert sorted(set(ENTRIES) & set(GAPS)) == []


def test_the_gap_list_is_exactly_the_known_gaps():
    """Closing a gap means moving it to ``forms`` in the data file and out of ``KNOWN_GAPS`` here."""
    assert set(GAPS) - KNOWN_GAPS == set(), "new gaps: add them to KNOWN_GAPS (and report them)"
    assert KNOWN_GAPS - set(GAPS) == set(), "gaps closed or renamed: take them out of KNOWN_GAPS"
    assert all(isinstance(v, str) and v.strip() for v in GAPS.values())


def _resolve(target: str):
    module_name, _, qualname = target.partition(":")
    assert module_name and qualname, f"{target!r} is not 'module:function'"
    obj = importlib.import_module(module_name)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


@pytest.mark.parametrize("key", sorted(ENTRIES))
def test_each_entry_names_functions_that_exist_and_one_kind_of_evidence(key):
    entry = ENTRIES[key]
    assert set(entry) <= {"read_by", "played_by", "metadata", "reason", "refused"}, key
    read_by = entry.get("read_by") or []
    assert read_by, f"{key}: no read_by"
    for target in read_by:
        try:
            found = _resolve(target)
        except (ImportError, AttributeError) as error:
            pytest.fail(f"{key}: read_by {target!r} does not exist ({error})")
        assert callable(found) or isinstance(found, property), f"{key}: read_by {target!r} is not a function"
    evidence = [k for k in ("played_by", "metadata", "refused") if k in entry]
    assert len(evidence) == 1, f"{key}: give exactly one of played_by, metadata or refused"
    if "metadata" in entry:
        assert entry["metadata"] is True and entry.get("reason", "").strip(), f"{key}: metadata needs a reason"
    if "refused" in entry:
        assert entry["refused"] in CODES, f"{key}: {entry['refused']!r} is not a registered code"
    if "played_by" in entry:
        assert entry["played_by"], f"{key}: empty played_by"
        for node in entry["played_by"]:
            assert _test_exists(node), f"{key}: played_by {node!r} names no test"


@functools.cache
def _test_names(path: str) -> frozenset[str]:
    """``function`` and ``Class::method`` names of the tests defined in a file."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names.update(f"{node.name}::{n.name}" for n in node.body
                         if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
    return frozenset(names)


def _test_exists(node: str) -> bool:
    path, sep, name = node.partition("::")
    name = name.split("[", 1)[0]
    if not sep or not name.split("::")[-1].startswith("test") or not (ROOT / path).is_file():
        return False
    return name in _test_names(path)


def test_the_procedures_played_are_registered_with_the_interpreter():
    """A procedure with ``played_by`` has an implementation; one without is ``refused`` (E805)."""
    from warbook.interpreter.procedures import PROCEDURES as REGISTERED, load_procedures

    load_procedures()
    for name in PROCEDURES:
        entry = ENTRIES.get(f"procedure.{name}", {})
        if "played_by" in entry:
            assert name in REGISTERED, f"procedure {name!r} is marked played but has no implementation"
        if "refused" in entry:
            assert name not in REGISTERED, f"procedure {name!r} is implemented now: say what plays it"
