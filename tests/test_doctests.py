"""The engine's docstring examples run as tests (sqlglot's ``test_docs.py``, python-chess's README doctest).

They run through the installed ``warbook`` package, as a user imports it, one test
per module, from the checkout's root (examples name fixture files by relative path).
"""

import doctest
import importlib
import io
import pkgutil
from pathlib import Path

import pytest

import warbook.dsl
import warbook.interpreter

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(info.name for package in (warbook.dsl, warbook.interpreter)
                 for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."))


def test_every_engine_module_is_collected():
    assert {"warbook.dsl.loader", "warbook.dsl.lint.tables", "warbook.interpreter.game",
            "warbook.interpreter.procedures.move"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name, monkeypatch):
    monkeypatch.chdir(ROOT)
    module = importlib.import_module(name)
    report = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in doctest.DocTestFinder().find(module, name):
        runner.run(test, out=report.write)
    assert runner.failures == 0, report.getvalue()
