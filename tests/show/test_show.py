"""``warbook show``: grids, the public JSON shape, overlays, and errors as diagnostics with exit codes.

The fixtures in ``tests/show/fixtures/`` are small rulebooks written for these tests; every
expected value below was read off those files by hand, not copied from warbook's output.
"""

import json
import re
from pathlib import Path

import pytest

from warbook.dsl.diagnostics import RulesError
from warbook.dsl.loader import load_rulebook
from warbook.interpreter.cli import main
from warbook.interpreter.show import json_value, text_width

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
ROOT = HERE.parents[1]


@pytest.fixture(autouse=True)
def in_fixtures(monkeypatch):
    """Run from the fixtures folder so printed paths are short and the same on every machine."""
    monkeypatch.chdir(FIXTURES)


def run(capsys, *argv):
    code = main(["show", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def grid_lines(out: str) -> list[str]:
    """The lines of the grid: from the headings (the line above the ``-+-`` rule) to the last row."""
    lines = out.splitlines()
    rule = next(i for i, line in enumerate(lines) if re.fullmatch(r"\s*-+(-\+-+)+", line))
    end = rule + 1
    while end < len(lines) and lines[end].strip():
        end += 1
    return lines[rule - 1:end]


# Tables as grids.

def test_table_prints_as_aligned_grid_with_headings_and_row_keys(capsys):
    code, out, err = run(capsys, "base.rules", "crt")
    assert code == 0 and err == ""
    assert grid_lines(out) == [
        "  Die Roll | 1:2 | 1:1 | 2:1 | 3:1",
        "  ---------+-----+-----+-----+----",
        "  1        | A   | ½D  | D   | D",
        "  2        | A   | A   | ½D  | D",
        "  3..5     | A   | A   | A?  | ½D",
        "  6        | A   | A   | A   | A",
    ]


def test_grid_separators_line_up_in_every_row(capsys):
    _, out, _ = run(capsys, "base.rules", "crt")
    lines = grid_lines(out)
    bars = [[i for i, ch in enumerate(line) if ch in "|+"] for line in lines]
    assert all(b == bars[0] for b in bars), lines


def test_provisional_cell_is_marked_and_explained_under_the_grid(capsys):
    _, out, _ = run(capsys, "base.rules", "crt")
    after = out.split(grid_lines(out)[-1], 1)[1]
    assert "? provisional" in after
    assert 'row 3..5: gap "rows 3 to 5 are smudged in the source"' in after


def test_table_shows_label_provenance_and_the_properties_the_grid_does_not(capsys):
    _, out, _ = run(capsys, "base.rules", "crt")
    head = out.split("Die Roll", 1)[0]
    assert head.splitlines()[0] == 'table crt "Combat Results Table"'
    assert "§6" in head and "roll d6" in head and "lookup by odds" in head
    assert "columns 1:2" not in head  # shown as the headings instead


def test_width_counts_terminal_columns():
    assert text_width("½D½A") == 4
    assert text_width("前線") == 4


# Other kinds.

def test_other_kinds_print_label_provenance_and_properties_as_written(capsys):
    code, out, _ = run(capsys, "base.rules", "forest")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == 'terrain forest "Forest"'
    assert "  section  §4.2" in lines
    body = [line.strip() for line in lines[lines.index("") + 1:]]
    assert body[:3] == ["cost 2", "defence x2", "defence x1 for mech"]
    assert re.fullmatch(r'spot 1-3 on d6 +gap "spotting roll not printed"', body[3])


def test_errata_on_a_declaration_is_shown(capsys):
    _, out, _ = run(capsys, "base.rules", "marsh")
    assert "errata   printed as 'March'" in out
    assert "cost no entry for mech" in out


def test_name_can_be_a_label_in_any_case(capsys):
    code, out, _ = run(capsys, "base.rules", "combat results table")
    assert code == 0 and out.startswith("table crt ")


def test_overview_lists_every_declaration_grouped_by_kind(capsys):
    code, out, _ = run(capsys, "base.rules")
    assert code == 0
    assert out.splitlines()[0] == "Skirmish"
    headings = [line for line in out.splitlines() if re.fullmatch(r"\w+ \(\d+\)", line)]
    # Reference order of kinds (dsl.schema.KINDS), with counts from base.rules.
    assert headings == ["side (2)", "tag (1)", "dice (1)", "terrain (3)", "result (3)", "table (1)"]
    assert re.search(r"^  forest +Forest +§4\.2, 1 gap$", out, re.M)
    assert re.search(r"^  marsh +Marsh +1 erratum$", out, re.M)


def test_output_is_deterministic(capsys):
    first = run(capsys, "house.rules")[1] + run(capsys, "house.rules", "crt", "--json")[1]
    second = run(capsys, "house.rules")[1] + run(capsys, "house.rules", "crt", "--json")[1]
    assert first == second


# The public JSON shape.

def test_table_json_contract(capsys):
    code, out, _ = run(capsys, "base.rules", "crt", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["kind"] == "table" and data["name"] == "crt"
    assert data["columns"] == ["1:2", "1:1", "2:1", "3:1"]
    assert data["rows"] == [
        {"key": "1", "cells": ["A", "½D", "D", "D"]},
        {"key": "2", "cells": ["A", "A", "½D", "D"]},
        {"key": "3..5", "cells": ["A", "A", "A", "½D"]},
        {"key": "6", "cells": ["A", "A", "A", "A"]},
    ]
    assert data["provisional"] == [[2, 2]]
    assert data["label"] == "Combat Results Table"
    assert data["sections"] == ["6"] and data["gaps"] == [] and data["errata"] == []
    assert data["key_header"] == "Die Roll"
    assert data["row_provenance"] == [{"row": 2, "sections": [], "gaps": ["rows 3 to 5 are smudged in the source"],
                                       "errata": []}]


def test_json_of_other_kinds_has_the_plain_shape(capsys):
    _, out, _ = run(capsys, "base.rules", "forest", "--json")
    data = json.loads(out)
    assert set(data) == {"kind", "name", "label", "sections", "gaps", "errata", "properties", "children"}
    assert (data["kind"], data["name"], data["label"], data["sections"]) == ("terrain", "forest", "Forest", ["4.2"])
    assert data["children"] == []
    spot = data["properties"][3]
    assert spot == {"name": "spot", "text": "spot 1-3 on d6", "values": {"roll": {"low": 1, "high": 3, "text": "1-3"},
                                                                          "dice": "d6"},
                    "sections": [], "gaps": ["spotting roll not printed"], "errata": []}
    assert data["properties"][2]["values"] == {"multiplier": 1, "who": ["mech"]}


def test_json_text_keeps_quoted_words_as_written(capsys):
    _, out, _ = run(capsys, "base.rules", "rulebook", "--json")
    source = json.loads(out)["properties"][0]
    assert source["text"] == 'source "tests/show"' and source["values"] == {"text": "tests/show"}


def test_json_without_name_lists_every_top_level_declaration(capsys):
    code, out, _ = run(capsys, "base.rules", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["rulebook"] == "Skirmish"
    assert [(d["kind"], d["name"]) for d in data["declarations"]] == [
        ("rulebook", "rulebook"), ("side", "blue"), ("side", "red"), ("dice", "d6"), ("tag", "mech"),
        ("terrain", "clear"), ("terrain", "forest"), ("terrain", "marsh"),
        ("result", "A"), ("result", "D"), ("result", "½D"), ("table", "crt"),
    ]
    crt = data["declarations"][-1]
    assert crt["columns"] == ["1:2", "1:1", "2:1", "3:1"]


def test_json_values_keep_fractions_exact():
    from fractions import Fraction

    assert json_value(Fraction(1, 2)) == "1/2"
    assert json_value(Fraction(4, 2)) == 2
    assert json_value((Fraction(3), "x")) == [3, "x"]


# Overlays: what is shown is the resolved rulebook.

def test_house_rule_override_replaces_the_row_and_keeps_the_others(capsys):
    _, out, _ = run(capsys, "house.rules", "crt")
    rows = grid_lines(out)[2:]
    assert [r.split("|")[0].strip() for r in rows] == ["1", "2", "3..5", "6"]
    assert rows[3] == "  6        | A   | A   | ½D  | D"
    data = json.loads(run(capsys, "house.rules", "crt", "--json")[1])
    assert data["rows"][3] == {"key": "6", "cells": ["A", "A", "½D", "D"]}
    assert data["rows"][0] == {"key": "1", "cells": ["A", "½D", "D", "D"]}


def test_overridden_declaration_says_which_file_changed_it(capsys):
    _, out, _ = run(capsys, "house.rules", "forest")
    assert out.splitlines()[1:3] == ["  declared at base.rules:14:1", "  changed in house.rules"]
    _, out, _ = run(capsys, "house.rules", "clear")
    assert "changed in" not in out


def test_house_rule_override_replaces_one_property_only(capsys):
    data = json.loads(run(capsys, "house.rules", "forest", "--json")[1])
    texts = [p["text"] for p in data["properties"]]
    assert [t for t in texts if t.startswith("cost")] == ["cost 3"]
    assert "defence x1 for mech" in texts


def test_removed_declaration_is_gone_from_overview_and_lookup(capsys):
    _, out, _ = run(capsys, "house.rules")
    assert "terrain (2)" in out and "marsh" not in out
    data = json.loads(run(capsys, "house.rules", "--json")[1])
    assert ("terrain", "marsh") not in [(d["kind"], d["name"]) for d in data["declarations"]]
    code, out, err = run(capsys, "house.rules", "marsh")
    assert code == 2 and out == ""


# Errors: diagnostics, exit codes, never a traceback.

DIAGNOSTIC = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<code>[EWI]\d{3}) (?P<message>.+)$", re.M)


def test_unknown_name_exits_2_with_a_did_you_mean_hint(capsys):
    code, out, err = run(capsys, "base.rules", "forset")
    assert code == 2 and out == ""
    first = DIAGNOSTIC.match(err)
    assert first and first["path"] == "base.rules" and first["code"] == "E101"
    assert "'forset'" in first["message"]
    assert "  help: did you mean 'forest'?" in err.splitlines()


def test_unknown_name_far_from_any_points_to_the_overview(capsys):
    code, _, err = run(capsys, "base.rules", "zzzzzz")
    assert code == 2
    assert "help: run 'warbook show RULEBOOK' without a NAME" in err


def test_ambiguous_name_exits_2_and_kind_colon_name_chooses(capsys):
    code, _, err = run(capsys, "ambiguous.rules", "clear")
    assert code == 2 and DIAGNOSTIC.match(err)
    assert "help: write one of: tag:clear, terrain:clear" in err
    code, out, _ = run(capsys, "ambiguous.rules", "terrain:clear")
    assert code == 0 and out.startswith('terrain clear "Clear"')
    code, out, _ = run(capsys, "ambiguous.rules", "tag:clear", "--json")
    assert code == 0 and json.loads(out)["label"] == "Open ground"


def test_kind_colon_name_errors_name_the_part_that_is_wrong(capsys):
    code, _, err = run(capsys, "ambiguous.rules", "terrain:claer")
    assert code == 2 and "help: did you mean 'terrain:clear'?" in err
    code, _, err = run(capsys, "ambiguous.rules", "terain:clear")
    assert code == 2 and "unknown kind 'terain'" in err and "did you mean 'terrain'?" in err


def test_bad_rules_file_exits_1_with_its_diagnostics(capsys):
    code, out, err = run(capsys, "bad.rules")
    assert code == 1 and out == ""
    found = DIAGNOSTIC.match(err)
    assert found and (found["path"], found["line"], found["col"], found["code"]) == ("bad.rules", "3", "5", "E104")
    assert "  help: did you mean 'cost'?" in err


def test_bad_rules_file_exits_1_even_with_a_name_or_json(capsys):
    code, out, err = run(capsys, "bad.rules", "clear", "--json")
    assert code == 1 and out == "" and "E104" in err


def test_missing_file_is_a_diagnostic(capsys):
    code, out, err = run(capsys, "no_such.rules")
    assert code == 1 and out == ""
    found = DIAGNOSTIC.match(err)
    assert found and found["code"] == "E004" and found["path"] == "no_such.rules"


def test_missing_argument_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["show"])
    assert exc.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


# The shipped rulebooks, once they exist and load (loading them cleanly is tests/test_examples.py's job).

SHIPPED = sorted((ROOT / "rulebooks").glob("*.rules"))
KLICKS = ROOT / "rulebooks" / "several_klicks.rules"


def loads_or_skip(path: Path) -> None:
    if not path.exists():
        pytest.skip(f"{path.name} is not written yet")
    try:
        load_rulebook(path)
    except RulesError as exc:
        pytest.skip(f"{path.name} does not load yet: {exc}")


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_rulebooks_show_in_text_and_json(capsys, path):
    loads_or_skip(path)
    code, out, err = run(capsys, str(path))
    assert code == 0, err
    data = json.loads(run(capsys, str(path), "--json")[1])
    for decl in data["declarations"]:
        if decl["kind"] == "table":
            code, out, err = run(capsys, str(path), f"table:{decl['name']}")
            assert code == 0, err
            assert "-+-" in out


def test_klicks_crt_columns_and_rows_are_as_printed(capsys):
    loads_or_skip(KLICKS)
    code, out, err = run(capsys, str(KLICKS), "crt", "--json")
    assert code == 0, err
    data = json.loads(out)
    # The seed's table under COMBAT PHASE: DIE ROLL 1:4 1:3 1:2 1:1 2:1 3:1 4:1, rows 1 to 6.
    assert data["columns"] == ["1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1"]
    assert [r["key"] for r in data["rows"]] == ["1", "2", "3", "4", "5", "6"]
    assert data["rows"][0]["cells"] == ["½A", "½D", "½D", "½D", "D", "D", "D"]
    assert data["rows"][5]["cells"] == ["A", "A", "½A", "½A", "½D½A", "½D½A", "D½A"]


HOUSE_RULE = ROOT / "examples" / "house_rules" / "klicks_jungle_fighting.rules"


def test_example_house_rule_shows_its_changes(capsys):
    """The tutorial's house rule: jungle costs 4, CRT row 6 reads like row 5, no mountain."""
    loads_or_skip(KLICKS)
    code, out, err = run(capsys, str(HOUSE_RULE), "crt", "--json")
    assert code == 0, err
    rows = json.loads(out)["rows"]
    assert rows[5] == {"key": "6", "cells": ["A", "A", "½A", "½D½A", "½D½A", "½D½A", "D"]}
    assert rows[5]["cells"] == rows[4]["cells"]
    jungle = json.loads(run(capsys, str(HOUSE_RULE), "terrain:jungle", "--json")[1])
    assert [p["text"] for p in jungle["properties"] if p["name"] == "cost"] == ["cost 4"]
    code, _, err = run(capsys, str(HOUSE_RULE), "terrain:mountain")
    assert code == 2 and "E101" in err


def test_example_house_rule_has_no_errors_of_its_own():
    loads_or_skip(KLICKS)
    from warbook.dsl.diagnostics import Severity
    from warbook.dsl.lint import lint_path  # not dsl.lint(): once dsl.lint is imported, the package shadows it

    own = [d for d in lint_path(HOUSE_RULE) if Path(d.span.path).name == HOUSE_RULE.name]
    assert not [str(d) for d in own if d.severity >= Severity.WARNING]
