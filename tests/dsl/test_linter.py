"""``dsl.Linter``: lint again and again, parsing only what changed (issue 18, the language server's API)."""

from pathlib import Path

from warbook.dsl import Linter
from warbook.dsl.lint import lint_report

ROOT = Path(__file__).resolve().parents[2]
BASE = 'rulebook "Base" {\n  source "a test"\n}\nside blue "Blue"\nside red "Red"\n'


def write(folder: Path, base: str = BASE, house: str = 'extends "base.rules"\ntag scout "Scout"\n') -> Path:
    (folder / "base.rules").write_text(base, encoding="utf-8")
    (folder / "house.rules").write_text(house, encoding="utf-8")
    return folder / "house.rules"


def test_a_warm_lint_reports_what_a_cold_one_does_and_parses_nothing_again():
    linter = Linter()
    path = ROOT / "scenarios" / "sea_lords_tet.rules"
    first = linter.lint(path)
    parsed = linter.parsed
    assert parsed == 2  # the house rule and the rulebook it extends
    again = linter.lint(path)
    assert linter.parsed == parsed
    assert again.diagnostics == first.diagnostics == lint_report(path).diagnostics


def test_an_edited_house_rule_is_parsed_again_and_its_base_is_not(tmp_path):
    house = write(tmp_path)
    linter = Linter()
    assert "E102" not in {d.code for d in linter.lint(house).diagnostics}
    parsed = linter.parsed
    house.write_text('extends "base.rules"\ntag scout "Scout"\ntag scout "Again"\n', encoding="utf-8")
    report = linter.lint(house)
    assert linter.parsed == parsed + 1
    assert "E102" in {d.code for d in report.diagnostics}


def test_an_unsaved_buffer_is_linted_as_the_file(tmp_path):
    house = write(tmp_path)
    linter = Linter()
    report = linter.lint(house, text='extends "base.rules"\nunit ghost "Ghost" {\n  side nobody\n}\n')
    assert "E101" in {d.code for d in report.diagnostics}
    assert house.read_text(encoding="utf-8").endswith('tag scout "Scout"\n')  # the file is untouched
    assert "E101" not in {d.code for d in linter.lint(house).diagnostics}


def test_a_syntax_error_is_kept_as_well(tmp_path):
    house = write(tmp_path, house='extends "base.rules"\ntag {\n')
    linter = Linter()
    first = linter.lint(house)
    parsed = linter.parsed
    assert [d.code for d in first.diagnostics] == ["E003"]
    assert linter.lint(house).diagnostics == first.diagnostics and linter.parsed == parsed


def test_the_trees_kept_are_bounded(tmp_path):
    linter = Linter(max_files=1)
    house = write(tmp_path)
    linter.lint(house)
    linter.lint(house)
    assert linter.parsed == 4  # each lint pushes the other file out
