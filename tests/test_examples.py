"""Examples are executable: CI runs every examples/*.py and it must exit 0 (python-chess runs perft.py).

A timeout only guards against a hang (10 minutes: a loaded CI machine may run a long example slowly);
nothing here asserts a speed.
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_example_runs(example):
    assert example.read_text(encoding="utf-8").lstrip().startswith('"""'), "examples open with a titled docstring"
    done = subprocess.run([sys.executable, str(example)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr


def test_shipped_rulebooks_lint_clean_from_the_command_line():
    rulebooks = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rulebooks").glob("*.rules"))
    if not rulebooks:
        pytest.skip("no rulebooks shipped yet")
    done = subprocess.run([sys.executable, "-m", "warbook.interpreter.cli", "lint", *rulebooks], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
