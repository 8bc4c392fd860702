"""``warbook lint --format full`` against golden files: each ``tests/lint/full/NAME.rules`` linted
from its folder, stdout then stderr, as ``NAME.expected`` (``pytest --update-goldens`` rewrites)."""

from pathlib import Path

import pytest

from warbook.interpreter.cli import main

HERE = Path(__file__).resolve().parent / "full"


@pytest.mark.parametrize("path", sorted(HERE.glob("*.rules")), ids=lambda p: p.stem)
def test_full_format_matches_its_golden(path, capsys, monkeypatch, golden):
    monkeypatch.chdir(HERE)
    code = main(["lint", path.name, "--format", "full"])
    out, err = capsys.readouterr()
    assert code == 1
    golden(path.with_suffix(".expected"), f"{out}--- stderr ---\n{err}")
