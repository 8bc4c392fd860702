"""Fixes as data (``dsl.diagnostics.Fix``) and their application (``dsl.fixes.apply_fixes``):
which renames are safe, and edits applied only where the text reads as expected, never
overlapping, in the right file."""

from warbook.dsl.ast import Span
from warbook.dsl.diagnostics import Edit, Fix, rename_fix
from warbook.dsl.fixes import apply_fixes
from warbook.dsl.lint import lint_report


def span(line, column, end_column, path="a.rules"):
    return Span(path, line, column, line, end_column)


def rename(line, column, old, new, safe=True, path="a.rules"):
    return Fix(f"rename {old!r} to {new!r}", (Edit(span(line, column, column + len(old), path), old, new),), safe)


def here(path):
    return path == "a.rules"


def test_a_rename_is_safe_only_when_one_candidate_is_close():
    assert rename_fix("grond", ["ground", "boat"], span(1, 1, 6)).safe is True
    several = rename_fix("foot", ["foot1", "foot2", "boat"], span(1, 1, 5))
    assert several.safe is False and several.edits[0].new == "foot2"  # difflib's pick among equals
    assert rename_fix("zzz", ["ground"], span(1, 1, 4)) is None


def test_edits_apply_where_the_text_reads_as_expected():
    text = 'tag a "A" {\n    within grond\n}\n'
    assert apply_fixes(text, [rename(2, 12, "grond", "ground")], here) == ('tag a "A" {\n    within ground\n}\n', 1)
    changed = text.replace("grond", "gronk")  # the file changed since it was linted: left alone
    assert apply_fixes(changed, [rename(2, 12, "grond", "ground")], here) == (changed, 0)


def test_a_quoted_name_stays_quoted_and_a_name_with_a_space_is_quoted():
    text = 'x "grond"\ny grond\n'
    fixes = [Fix("r", (Edit(span(1, 3, 10), "grond", "ground"),), True), rename(2, 3, "grond", "open ground")]
    assert apply_fixes(text, fixes, here) == ('x "ground"\ny "open ground"\n', 2)


def test_overlapping_fixes_wait_for_the_next_pass_and_other_files_are_untouched():
    text = "abcdef\n"
    first = Fix("one", (Edit(span(1, 1, 4), "abc", "xyz"),), True)
    overlapping = Fix("two", (Edit(span(1, 3, 6), "cde", "123"),), True)
    elsewhere = rename(1, 4, "def", "uvw", path="b.rules")
    assert apply_fixes(text, [overlapping, first, elsewhere], here) == ("xyzdef\n", 1)


def test_line_breaks_are_kept_as_written():
    text = "a\r\nb grond\r\n"
    assert apply_fixes(text, [rename(2, 3, "grond", "ground")], here) == ("a\r\nb ground\r\n", 1)


def test_misspelt_keywords_and_names_carry_their_fix(tmp_path):
    path = tmp_path / "house.rules"
    path.write_text('tag ground "Ground"\ntga sea "Sea"\ntag foot "Foot" {\n    withn ground\n}\n', encoding="utf-8")
    fixes = {d.code: d.fix for d in lint_report(path).diagnostics if d.fix is not None}
    assert {code: (fix.edits[0].old, fix.edits[0].new, fix.safe) for code, fix in fixes.items()} == {
        "E103": ("tga", "tag", True), "E104": ("withn", "within", True)}
