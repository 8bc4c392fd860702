"""``dsl.diff``: a semantic diff is empty for a reformatted or reordered rulebook (hypothesis over
the shipped ones), and shows hand-made changes exactly, aspect by aspect."""

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from layout import mutated_layout
from warbook.dsl.diff import Change, compare_digests, diff_rulebooks, iter_line_edits
from warbook.dsl.fmt import format_text
from warbook.dsl.loader import load_with_diagnostics
from warbook.dsl.parser import parse_text
from warbook.dsl.schema import DIRECTIVES

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted({*ROOT.glob("rulebooks/*.rules"), *ROOT.glob("scenarios/*.rules"),
                  *ROOT.glob("examples/**/*.rules"), *ROOT.glob("tests/gallery/*/*.rules")})
KLICKS = ROOT / "rulebooks" / "several_klicks.rules"


def load(path: Path, text: str | None = None):
    """The rulebook at ``path``, read from ``text`` when given (as an editor's unsaved buffer)."""
    rulebook, diagnostics = load_with_diagnostics(path, texts={path.resolve(): text} if text is not None else None)
    assert rulebook is not None and not [d for d in diagnostics if d.severity.name == "ERROR"], diagnostics
    return rulebook


def edited(old: str, new: str, text: str | None = None) -> str:
    """Several Klicks' text with one exact piece replaced (the piece must be there once)."""
    text = KLICKS.read_text(encoding="utf-8") if text is None else text
    assert text.count(old) == 1, old
    return text.replace(old, new)


def klicks_diff(text: str):
    return diff_rulebooks(load(KLICKS), load(KLICKS, text))


def summary(found) -> list[tuple]:
    """Each declaration's status, kind, name and changes, as plain tuples to compare by hand."""
    return [(d.status, d.kind, d.name, d.parent, [(c.aspect, c.name, c.column, c.old, c.new) for c in d.changes])
            for d in found.declarations]


def reordered(text: str, path: str, rng: random.Random) -> str:
    """``text`` with its top-level declarations in another order; directives (``extends``,
    ``include``, ``override``, ``remove``) stay where they are, and so does the text between
    statements (comments, blank lines)."""
    statements = parse_text(text, path).statements
    lines = text.splitlines(keepends=True)
    spans = [(st.span.line, st.span.end_line) for st in statements]
    assert all(a[1] < b[0] for a, b in zip(spans, spans[1:])), "one statement per line in a shipped file"
    movable = [i for i, st in enumerate(statements) if st.head.text not in DIRECTIVES]
    order = list(range(len(statements)))
    shuffled = rng.sample(movable, len(movable))
    for place, index in zip(movable, shuffled):
        order[place] = index
    out, cursor = [], 1
    for place, (line, end) in enumerate(spans):
        out += lines[cursor - 1:line - 1]
        first, last = spans[order[place]]
        block = "".join(lines[first - 1:last])
        out.append(block if block.endswith("\n") else block + "\n")
        cursor = end + 1
    out += lines[cursor - 1:]
    return "".join(out)


SLOW = settings(deadline=None, max_examples=12, suppress_health_check=[HealthCheck.too_slow])


@SLOW
@given(st.sampled_from(SHIPPED), st.randoms(use_true_random=False))
def test_a_reformatted_rulebook_says_the_same(path, rng):
    """Layout mutated, then ``warbook fmt``ed: both say what the original says."""
    text = path.read_text(encoding="utf-8")
    mutated = mutated_layout(text, rng, True)
    original = load(path)
    assert diff_rulebooks(original, load(path, mutated)).is_empty
    assert diff_rulebooks(original, load(path, format_text(mutated, str(path)))).is_empty


@SLOW
@given(st.sampled_from(SHIPPED), st.randoms(use_true_random=False))
def test_a_rulebook_with_its_declarations_reordered_says_the_same(path, rng):
    text = path.read_text(encoding="utf-8")
    shuffled = reordered(text, str(path), rng)
    rulebook = load(path, shuffled)
    assert sorted(shuffled.splitlines()) == sorted(text.splitlines())  # the same lines, moved
    assert diff_rulebooks(load(path), rulebook).is_empty


def test_reordering_does_move_declarations():
    """The reordering above is not the identity: the model's top-level order changes."""
    text = KLICKS.read_text(encoding="utf-8")
    shuffled = load(KLICKS, reordered(text, str(KLICKS), random.Random(1)))
    assert [d.name for d in shuffled.declarations] != [d.name for d in load(KLICKS).declarations]


def test_a_table_cell_shows_by_row_and_column():
    found = klicks_diff(edited("    3: A  A   ½D½A ½D½A D½A  D    D\n",
                               "    3: A  A   ½D½A ½D   D½A  D    D\n"))
    assert summary(found) == [("changed", "table", "crt", None, [("cell", "3", "1:1", ("½D½A",), ("½D",))])]


def test_a_terrain_cost_shows_as_its_line():
    found = klicks_diff(edited('    text "Jungle | 3 | 3 (1 mech) | 1-2"\n    cost 3\n',
                               '    text "Jungle | 3 | 3 (1 mech) | 1-2"\n    cost 4\n'))
    assert summary(found) == [("changed", "terrain", "jungle", None, [("property", "cost", None, ("cost 3",),
                                                                        ("cost 4",))])]


def test_added_and_removed_declarations():
    removed = edited('terrain village "Village" §"TERRAIN TABLE" {\n    text "Village | 1 | 2 (1 mech) | 1-3"\n'
                     '    cost 1\n    defence x2\n    defence x1 for mech\n    spot 1-3\n}\n', "")
    text = removed + '\nterrain swamp "Swamp" {\n    cost 2\n}\n'
    assert summary(klicks_diff(text)) == [("added", "terrain", "swamp", None, []),
                                          ("removed", "terrain", "village", None, [])]


def test_label_provenance_and_a_row_annotation():
    text = edited('terrain jungle "Jungle" §"TERRAIN TABLE" {', 'terrain jungle "Deep jungle" §"TERRAIN TABLE" '
                  'gap "our reading" {')
    six = "    6: A  A   ½A   ½A   ½D½A ½D½A D½A"
    text = edited(six + "\n", six + ' §"X"\n', text)
    assert summary(klicks_diff(text)) == [
        ("changed", "table", "crt", None, [("row", "6", None, ("",), ('§"X"',))]),
        ("changed", "terrain", "jungle", None, [("label", "label", None, ("Jungle",), ("Deep jungle",)),
                                               ("provenance", "gap", None, (), ("our reading",))])]


def test_a_row_added_and_a_column_removed():
    six = "    6: A  A   ½A   ½A   ½D½A ½D½A D½A\n"
    text = edited(six, six + "    7: A A A A A A A\n")
    assert summary(klicks_diff(text)) == [("changed", "table", "crt", None,
                                          [("row", "7", None, (), ("A A A A A A A",))])]
    mini = ('rulebook "T" {\n    players 2\n}\ndice d6\ntable t {\n    roll d6\n    columns a b\n'
            '    1: x y\n    2: z w\n}\n')
    path = ROOT / "t.rules"  # never written: the texts are read from memory
    fewer = mini.replace("columns a b", "columns a").replace("1: x y", "1: x").replace("2: z w", "2: z")
    assert summary(diff_rulebooks(load(path, mini), load(path, fewer))) == [
        ("changed", "table", "t", None, [("property", "columns", None, ("columns a b",), ("columns a",)),
                                         ("cell", "1", "b", ("y",), ()), ("cell", "2", "b", ("w",), ())])]


def test_nested_declarations_change_on_their_own_and_their_order_shows_on_the_parent():
    text = KLICKS.read_text(encoding="utf-8")
    first = text.index("    phase bombardment_phase")
    second = text.index("    phase air_defence_phase")
    third = text.index("    phase combat_phase")
    swapped = text[:first] + text[second:third] + text[first:second] + text[third:]
    swapped = edited('phase bombardment_phase "Bombardment Phase" {\n',
                     'phase bombardment_phase "Bombardment Phase" {\n        note "n"\n', swapped)
    assert summary(klicks_diff(swapped)) == [
        ("changed", "phase", "bombardment_phase", "sequence turn", [("property", "note", None, (),
                                                                     ('note "n"',))]),
        ("changed", "sequence", "turn", None, [("nested", "order", None,
                                                ("phase watch_orders", "phase patrol_orders", "phase move_phase",
                                                 "phase bombardment_phase", "phase air_defence_phase",
                                                 "phase combat_phase"),
                                                ("phase watch_orders", "phase patrol_orders", "phase move_phase",
                                                 "phase air_defence_phase", "phase bombardment_phase",
                                                 "phase combat_phase"))])]


def test_lines_of_different_names_reordered_show_as_order():
    text = edited("    cost 3\n    defence x3\n", "    defence x3\n    cost 3\n")
    assert summary(klicks_diff(text)) == [("changed", "terrain", "jungle", None, [
        ("order", "lines", None, ("text", "cost", "defence", "defence", "spot"),
         ("text", "defence", "cost", "defence", "spot"))])]


def test_an_override_in_a_house_rule_shows_against_its_base():
    house = ROOT / "examples" / "house_rules" / "klicks_jungle_fighting.rules"
    assert summary(diff_rulebooks(load(KLICKS), load(house))) == [
        ("changed", "table", "crt", None, [("cell", "6", "1:1", ("½A",), ("½D½A",)),
                                           ("cell", "6", "4:1", ("D½A",), ("D",))]),
        ("changed", "terrain", "jungle", None, [("property", "cost", None, ("cost 3",), ("cost 4",)),
                                               ("property", "note", None, (),
                                                ('note "House rule: the printed cost is 3."',))]),
        ("removed", "terrain", "mountain", None, [])]


def test_the_json_shape():
    house = ROOT / "examples" / "house_rules" / "klicks_jungle_fighting.rules"
    shape = diff_rulebooks(load(KLICKS), load(house)).to_dict()
    assert set(shape) == {"old", "new", "equal", "declarations"} and shape["equal"] is False
    table = shape["declarations"][0]
    assert table == {"status": "changed", "kind": "table", "name": "crt", "label": "Combat Results Table",
                     "parent": None, "changes": [
                         {"aspect": "cell", "row": "6", "column": "1:1", "old": "½A", "new": "½D½A"},
                         {"aspect": "cell", "row": "6", "column": "4:1", "old": "D½A", "new": "D"}]}
    assert shape["declarations"][1]["changes"][0] == {"aspect": "property", "name": "cost", "old": ["cost 3"],
                                                      "new": ["cost 4"]}


def test_the_digest_comparison_is_the_savefiles():
    """A replay's refusal names what ``warbook diff`` lists (both read ``compare_digests``)."""
    from warbook.interpreter.savefile import describe_changes

    house = ROOT / "examples" / "house_rules" / "klicks_jungle_fighting.rules"
    old, new = load(KLICKS).digests(), load(house).digests()
    assert compare_digests(old, new).changed == ("terrain jungle", "table crt")
    assert describe_changes(old, new) == "changed terrain jungle, table crt; removed terrain mountain"


@pytest.mark.parametrize(("old", "new", "edits"), [
    (("a", "b", "c"), ("a", "x", "c"), [("b", "x")]),
    (("a",), ("a", "b"), [(None, "b")]),
    (("a", "b"), ("c",), [("a", None), ("b", None), (None, "c")]),
])
def test_line_edits_leave_out_the_lines_both_keep(old, new, edits):
    assert list(iter_line_edits(Change("property", "p", old, new))) == edits


def test_words_of_the_declaration_line_show_as_header_and_flags():
    path = ROOT / "rulebooks" / "sea_lords.rules"
    text = path.read_text(encoding="utf-8")
    assert text.count('symbol XX §"2.6"') == 1 and text.count('section "2.0" "Components" prose') == 1
    text = text.replace('symbol XX §"2.6"', 'symbol XXX §"2.6"')
    text = text.replace('section "2.0" "Components" prose', 'section "2.0" "Components"')
    assert summary(diff_rulebooks(load(path), load(path, text))) == [
        ("changed", "section", "2.0", None, [("flags", "flags", None, ("prose",), ())]),
        ("changed", "size", "division", None, [("header", "symbol", None, ("XX",), ("XXX",))])]


def test_rows_in_another_order_show_as_order():
    five, six = "    5: A  A   ½A   ½D½A ½D½A ½D½A D\n", "    6: A  A   ½A   ½A   ½D½A ½D½A D½A\n"
    text = edited(five + six, six + five)
    assert summary(klicks_diff(text)) == [("changed", "table", "crt", None, [
        ("order", "rows", None, ("1", "2", "3", "4", "5", "6"), ("1", "2", "3", "4", "6", "5"))])]
