"""Small files kept in the user's cache folder (``dsl.cache_dir``), and the configurations kept
parsed there (``dsl.config.parsed_config``)."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from warbook.dsl.cache_dir import keep, read_kept
from warbook.dsl.config import KEPT_CONFIGS, parsed_config
from warbook.dsl.diagnostics import RulesError
from warbook.dsl.toml_text import parse_toml


class Counting:
    """``parse_toml``, counting its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, text: str, shown: str, code: str) -> dict:
        self.calls += 1
        return parse_toml(text, shown, code)


def test_kept_values_are_read_back_and_damage_reads_as_nothing(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "kept.marshal"
    assert keep(path, {"a": [1, 2.5, "x"], "b": {"c": True}})
    assert read_kept(path) == {"a": [1, 2.5, "x"], "b": {"c": True}}
    assert not list(path.parent.glob("*.partial"))
    path.write_bytes(b"\xfe broken")
    assert read_kept(path) is None and read_kept(tmp_path / "none") is None and read_kept(None) is None
    assert not keep(tmp_path / "other.marshal", {"when": datetime.date(2026, 1, 1)})  # not plain data
    assert not (tmp_path / "other.marshal").exists() and not list(tmp_path.glob("*.partial"))


def test_a_configuration_read_before_is_not_parsed_again(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("WARBOOK_CACHE_DIR", str(tmp_path))
    parse = Counting()
    text = '[lint]\nselect = ["E", "W4"]\n'
    assert parsed_config(text, "warbook.toml", parse) == {"lint": {"select": ["E", "W4"]}}
    assert parsed_config(text, "warbook.toml", parse) == {"lint": {"select": ["E", "W4"]}}
    assert parse.calls == 1
    assert parsed_config(text + "ignore = []\n", "warbook.toml", parse)["lint"]["ignore"] == []
    assert parse.calls == 2


def test_bad_toml_is_reported_every_time_and_dates_are_parsed_every_time(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("WARBOOK_CACHE_DIR", str(tmp_path))
    parse = Counting()
    for _ in range(2):
        with pytest.raises(RulesError) as raised:
            parsed_config("[lint\n", "warbook.toml", parse)
        assert raised.value.diagnostics[0].code == "E009"
    dated = "when = 2026-01-01\n"
    assert parsed_config(dated, "warbook.toml", parse) == parsed_config(dated, "warbook.toml", parse)
    assert parse.calls == 4


def test_only_the_most_recent_configurations_are_kept(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("WARBOOK_CACHE_DIR", str(tmp_path))
    parse = Counting()
    texts = [f"n = {n}\n" for n in range(KEPT_CONFIGS + 2)]
    for text in texts:
        parsed_config(text, "warbook.toml", parse)
    (path,) = tmp_path.glob("configs-*.marshal")
    assert list(read_kept(path)) == texts[-KEPT_CONFIGS:]
    parsed_config(texts[-1], "warbook.toml", parse)
    parsed_config(texts[0], "warbook.toml", parse)
    assert parse.calls == len(texts) + 1


def test_with_caching_off_every_read_parses(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("WARBOOK_CACHE_DIR", "")
    parse = Counting()
    parsed_config("n = 1\n", "warbook.toml", parse)
    parsed_config("n = 1\n", "warbook.toml", parse)
    assert parse.calls == 2 and not list(tmp_path.iterdir())
