"""Shared test helpers: golden files (``--update-goldens``) and Hypothesis profiles (``FAST=1``)."""

import os
from pathlib import Path

import pytest
from hypothesis import settings

# No deadline anywhere: a test never depends on wall-clock time (CI machines are loaded, and a
# deadline that one slow example misses fails a run that is right).  Derandomized: every run tries
# the same examples, so a run's verdict is the code's, not the draw's (HYPOTHESIS_RANDOM=1 explores).
_random = os.environ.get("HYPOTHESIS_RANDOM") == "1"
settings.register_profile("fast", max_examples=10, deadline=None, derandomize=not _random)
settings.register_profile("full", max_examples=100, deadline=None, derandomize=not _random)
settings.load_profile("fast" if os.environ.get("FAST") == "1" else "full")


def pytest_addoption(parser):
    parser.addoption("--update-goldens", action="store_true", help="rewrite golden files from actual output")


@pytest.fixture
def golden(request):
    """``golden(path, actual)``: assert ``actual`` equals the file, or rewrite it under ``--update-goldens``."""
    update = request.config.getoption("--update-goldens")

    def compare(path: Path, actual: str) -> None:
        if update:
            path.write_text(actual, encoding="utf-8")
            return
        assert path.is_file(), f"no golden {path}; run pytest --update-goldens to create it"
        expected = path.read_text(encoding="utf-8")
        assert actual == expected, f"{path.name} differs (pytest --update-goldens rewrites it)"

    return compare
