"""The distribution carries the whole of warbook: every package, the grammar, the shipped games, the licence.

The source keeps the design card's layout (``dsl/``, ``interpreter/``, ``rulebooks/``,
``scenarios/`` at the top); ``pyproject.toml`` maps the repository root to the one
import package ``warbook``.  These tests build the wheel as ``pip`` would and read
its file list, so a folder or data file left out of the configuration fails here
rather than on a user's machine.
"""

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

import warbook

ROOT = Path(__file__).resolve().parents[1]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
DATA = (("rulebooks", "*.rules"), ("scenarios", "*.toml"), ("scenarios", "*.rules"), ("scenarios/maps", "*.toml"))


def source_files() -> set[str]:
    """What the wheel must hold, as ``warbook/…`` paths: the code, the grammar and the games."""
    code = [p for folder in ("dsl", "interpreter") for p in (ROOT / folder).rglob("*.py")]
    data = [ROOT / "dsl" / "grammar.lark", ROOT / "__init__.py", ROOT / "__main__.py"]
    data += [p for folder, pattern in DATA for p in (ROOT / folder).glob(pattern)]
    return {f"warbook/{p.relative_to(ROOT).as_posix()}" for p in (*code, *data) if "__pycache__" not in p.parts}


def test_every_package_folder_is_listed_in_the_configuration():
    listed = set(CONFIG["tool"]["setuptools"]["packages"])
    folders = {p.parent for folder in ("dsl", "interpreter") for p in (ROOT / folder).rglob("__init__.py")}
    packages = {"warbook." + ".".join(f.relative_to(ROOT).parts) for f in folders}
    assert packages | {"warbook"} <= listed
    assert {"warbook.rulebooks", "warbook.scenarios", "warbook.scenarios.maps"} <= listed


def test_the_version_is_one_string():
    assert CONFIG["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "warbook.__version__"}
    assert warbook.__version__.count(".") == 2


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    (built,) = out.glob("warbook-*.whl")
    return zipfile.ZipFile(built)


def test_the_wheel_carries_every_module_grammar_rulebook_scenario_and_map(wheel):
    names = set(wheel.namelist())
    missing = source_files() - names
    assert not missing, f"left out of the wheel: {sorted(missing)}"
    assert {"warbook/rulebooks/sea_lords.rules", "warbook/scenarios/maps/sea_lords_delta.toml",
            "warbook/interpreter/procedures/move.py", "warbook/dsl/grammar.lark"} <= names


def test_the_wheel_carries_nothing_else_and_has_its_licence_and_command(wheel):
    names = set(wheel.namelist())
    package = {n for n in names if not n.startswith("warbook-")}
    assert package == source_files(), f"unexpected in the wheel: {sorted(package - source_files())}"
    info = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "warbook = warbook.interpreter.cli:run" in wheel.read(info).decode()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert f"Version: {warbook.__version__}" in wheel.read(next(n for n in names if n.endswith("METADATA"))).decode()
