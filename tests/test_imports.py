"""The import rules of DESIGN.md's layers, checked by scanning the engine's source (ast, not import).

- ``dsl`` (text to a checked model) never imports ``interpreter``: data flows one way.
- No module imports another module's private (``_name``) names, at top level or inside a
  function: what another module needs is public, with a docstring.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(p for folder in ("dsl", "interpreter") for p in (ROOT / folder).rglob("*.py"))


def imports(path: Path):
    """(line, absolute module, names) of every ``from … import …`` in a module."""
    package = list(path.relative_to(ROOT).parent.parts)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            yield node.lineno, module, [a.name for a in node.names]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_private_name_is_imported_across_modules(path):
    found = [f"{path.relative_to(ROOT)}:{line}: {name} from {module}" for line, module, names in imports(path)
             for name in names if name.startswith("_") and name != "__version__" and module != "__future__"]
    assert found == []


@pytest.mark.parametrize("path", [p for p in MODULES if p.relative_to(ROOT).parts[0] == "dsl"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_the_language_never_imports_the_interpreter(path):
    found = [f"{path.relative_to(ROOT)}:{line}: {module}" for line, module, _ in imports(path)
             if module == "interpreter" or module.startswith("interpreter.")]
    assert found == []
