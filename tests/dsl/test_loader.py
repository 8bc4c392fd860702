"""Loading: include, extends, override, remove, confinement, cycles and name resolution."""

import textwrap
from pathlib import Path

import pytest

from warbook.dsl.diagnostics import RulesError
from warbook.dsl.loader import MAX_DEPTH, load_rulebook, load_with_diagnostics

BASE = '''
rulebook "Base game" {
    alias base-game
}
side blue "Blue"
tag mech "Mech"
terrain clear "Clear" {
    cost 1
    defence x1
}
terrain jungle "Jungle" {
    cost 3
    defence x3
    defence x1 for mech
}
result D "Defender eliminated" {
    effect eliminate all defenders
}
result A "Attacker eliminated" {
    effect eliminate all attackers
}
table crt "CRT" {
    lookup by odds
    columns 1:1 2:1
    1: A D
    2: A A
}
'''


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def codes(path: Path) -> list[tuple[str, int]]:
    _, diagnostics = load_with_diagnostics(path)
    return [(d.code, d.span.line) for d in diagnostics]


def test_extends_override_merges_properties_and_rows(tmp_path):
    write(tmp_path, "base.rules", BASE)
    house = write(tmp_path, "house.rules", '''
        extends "base.rules"
        override terrain jungle {
            cost 4
        }
        override table crt {
            2: D D
        }
        ''')
    rb = load_rulebook(house)
    jungle = rb.get("terrain", "jungle")
    assert [p.text for p in jungle.all("cost")] == ["cost 4"]
    assert [p.text for p in jungle.all("defence")] == ["defence x3", "defence x1 for mech"]
    crt = rb.get("table", "crt")
    assert [(r.key_text, [c.text for c in r.cells]) for r in crt.rows] == [("1", ["A", "D"]), ("2", ["D", "D"])]


def test_remove_and_targets_that_do_not_exist(tmp_path):
    write(tmp_path, "base.rules", BASE)
    house = write(tmp_path, "house.rules", '''
        extends "base.rules"
        remove terrain clear
        remove terrain swamp
        override terrain jungel {
            cost 2
        }
        ''')
    rb, diagnostics = load_with_diagnostics(house)
    assert rb.get("terrain", "clear") is None
    found = {(d.code, d.span.line, d.hint) for d in diagnostics}
    assert ("E108", 4, None) in found
    assert ("E107", 5, "did you mean 'jungle'?") in found


def test_duplicate_declaration_points_at_override(tmp_path):
    write(tmp_path, "base.rules", BASE)
    house = write(tmp_path, "house.rules", 'extends "base.rules"\nterrain clear "Clear again"\n')
    _, diagnostics = load_with_diagnostics(house)
    (d,) = diagnostics
    assert d.code == "E102" and d.span.line == 2 and "override terrain clear" in d.hint


def test_extends_must_come_first(tmp_path):
    write(tmp_path, "base.rules", BASE)
    house = write(tmp_path, "house.rules", 'side red "Red"\nextends "base.rules"\n')
    assert codes(house) == [("E008", 2)]


def test_include_relative_to_including_file(tmp_path):
    write(tmp_path, "parts/sides.rules", 'side red "Red"\n')
    write(tmp_path, "parts/all.rules", 'include "sides.rules"\n')
    main = write(tmp_path, "main.rules", 'include "parts/all.rules"\nside blue "Blue"\n')
    rb = load_rulebook(main)
    assert [d.name for d in rb.of_kind("side")] == ["red", "blue"]


def test_include_cycle_and_missing_file(tmp_path):
    write(tmp_path, "a.rules", 'include "b.rules"\n')
    write(tmp_path, "b.rules", 'include "a.rules"\ninclude "nowhere.rules"\n')
    found = codes(tmp_path / "a.rules")
    assert ("E005", 1) in found and ("E004", 2) in found


def test_include_depth_is_bounded(tmp_path):
    for i in range(MAX_DEPTH + 2):
        write(tmp_path, f"f{i}.rules", f'include "f{i + 1}.rules"\n')
    write(tmp_path, f"f{MAX_DEPTH + 2}.rules", 'side s "S"\n')
    assert ("E006", 1) in codes(tmp_path / "f0.rules")


def test_paths_may_not_escape_the_rulebook_folder(tmp_path):
    write(tmp_path, "outside.rules", 'side s "S"\n')
    inner = write(tmp_path, "book/main.rules", 'include "../outside.rules"\n')
    _, diagnostics = load_with_diagnostics(inner)
    (d,) = diagnostics
    assert d.code == "E007" and "extends" in d.hint


def test_extends_a_shipped_rulebook_by_name_or_alias(tmp_path, monkeypatch):
    shelf = tmp_path / "shelf"
    write(shelf, "base_game.rules", BASE)
    monkeypatch.setenv("WARBOOK_PATH", str(shelf))
    by_stem = write(tmp_path, "elsewhere/a.rules", 'extends "base_game"\nside red "Red"\n')
    by_alias = write(tmp_path, "elsewhere/b.rules", 'extends "base-game"\n')
    assert load_rulebook(by_stem).get("side", "red") is not None
    assert load_rulebook(by_alias).get("terrain", "jungle") is not None
    unknown = write(tmp_path, "elsewhere/c.rules", 'extends "base_gme"\n')
    _, diagnostics = load_with_diagnostics(unknown)
    assert diagnostics[0].code == "E004" and diagnostics[0].hint == "did you mean 'base_game'?"


def test_unknown_names_kinds_and_properties(tmp_path):
    path = write(tmp_path, "x.rules", '''
        tag mech "Mech"
        terain clear
        terrain clear {
            cots 1
            cost 1 for mehc
            cost fast
        }
        ''')
    _, diagnostics = load_with_diagnostics(path)
    got = [(d.code, d.span.line, d.hint) for d in diagnostics]
    assert ("E103", 3, "did you mean 'terrain'?") in got
    assert ("E104", 5, "did you mean 'cost'?") in got
    assert ("E101", 6, "did you mean 'mech'?") in got
    assert any(code == "E105" and line == 7 for code, line, _ in got)


def test_load_rulebook_raises_rules_error_with_every_diagnostic(tmp_path):
    path = write(tmp_path, "x.rules", "terain a\nterrain b {\n  cots 1\n}\n")
    with pytest.raises(RulesError) as info:
        load_rulebook(path)
    assert [d.code for d in info.value.diagnostics] == ["E103", "E104"]


def test_unreadable_files_are_diagnostics(tmp_path):
    (tmp_path / "bin.rules").write_bytes(b"\xff\xfe\x00bad")
    _, diagnostics = load_with_diagnostics(tmp_path / "bin.rules")
    assert diagnostics[0].code == "E004" and "UTF-8" in diagnostics[0].message
    _, diagnostics = load_with_diagnostics(tmp_path / "missing.rules")
    assert diagnostics[0].code == "E004"
    _, diagnostics = load_with_diagnostics(tmp_path)
    assert diagnostics[0].code == "E004"


def test_model_is_frozen_and_hash_changes_with_text(tmp_path):
    a = load_rulebook(write(tmp_path, "a.rules", 'side s "S"\n'))
    b = load_rulebook(write(tmp_path, "b.rules", 'side s "T"\n'))
    with pytest.raises(AttributeError):
        a.declarations[0].name = "x"  # type: ignore[misc]
    assert a.hash != b.hash
