"""Fixtures shared by the interpreter tests."""

import pytest

from warbook.interpreter import rng


@pytest.fixture
def dice(monkeypatch):
    """Scripted dice: append ``(faces, value)``; every roll must be scripted and every script used."""
    script: list[tuple[int, int]] = []

    def roll(seed, n, faces, count=1):
        assert script, f"unexpected roll of d{faces}"
        want_faces, value = script.pop(0)
        assert faces == want_faces and count == 1
        return value

    monkeypatch.setattr(rng, "roll", roll)
    yield script
    assert script == [], "scripted rolls left unused"
