"""The import rules of DESIGN.md's layers, checked by scanning the engine's source (ast, not import).

- ``dsl`` (text to a checked model) never imports ``interpreter``: data flows one way.
- No module imports another module's private (``_name``) names, at top level or inside a
  function: what another module needs is public, with a docstring.
- Within ``interpreter``, no module imports one of a later layer (``LAYERS``, in DESIGN.md's
  order: core, mechanics, procedures, flow and game, agents, command line), at top level or
  inside a function.  A new module must be given its layer here.
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


LAYERS = {
    "core": ("statistics", "rules", "board", "grid", "unit_index", "state", "rng", "actions", "context", "citations", "flags",
             "drafts",
             "caches", "operation", "options", "modes", "control"),
    "mechanics": ("costs", "zones", "stacking", "situation", "cells", "world", "pathfinding", "movement", "tracing", "condition_lines", "conditions",
                  "combat",
                  "columns", "odds",
                  "line_of_fire",
                  "advance",
                  "status_effects",
                  "combat_effects", "effects", "results", "steps", "step_effects", "retreats", "resource_effects", "event_effects",
                  "victory", "victory_forms", "side_states", "resources", "infiltration", "forces", "carrying", "scenario",
                  "scenario_records", "scenario_toml", "scenario_resolve", "turns", "scenario_arrivals", "strengths",
                  "exits"),
    "procedures": ("procedures",),
    "flow and game": ("flow", "setup", "game", "savefile", "log_check", "catalogue", "checkpoint"),
    "agents": ("agents", "human", "divergence", "study_games", "study", "study_report", "study_ray", "study_pool", "exchange"),
    "command line": ("cli", "show", "render", "narrate", "scenario_lint", "lsp", "render_sarif",
                     "picture", "picture_style", "frames", "viewer", "viewer_page"),
}
"""Each ``interpreter`` module (by its first name under ``interpreter``) and its layer, lowest first."""

_LAYER_OF = {name: index for index, names in enumerate(LAYERS.values()) for name in names}
INTERPRETER = [p for p in MODULES if p.relative_to(ROOT).parts[0] == "interpreter" and p.name != "__init__.py"
               or p.relative_to(ROOT).parts[:2] == ("interpreter", "procedures")]


def _layer(module: str) -> int | None:
    parts = module.split(".")
    if parts[0] != "interpreter" or len(parts) < 2:
        return None
    return _LAYER_OF.get(parts[1], -1)


@pytest.mark.parametrize("path", INTERPRETER, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_interpreter_module_imports_a_later_layer(path):
    rel = path.relative_to(ROOT)
    own = _layer(".".join(rel.with_suffix("").parts))
    assert own is not None and own >= 0, f"{rel} has no layer in LAYERS"
    found = []
    for line, module, names in imports(path):
        targets = [f"{module}.{n}" for n in names] if module == "interpreter" else [module]
        for target in targets:
            layer = _layer(target)
            if layer is not None and layer > own:
                found.append(f"{rel}:{line}: {target} ({list(LAYERS)[layer]}) from {list(LAYERS)[own]}")
    assert found == []
