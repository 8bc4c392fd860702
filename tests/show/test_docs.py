"""The docs cannot drift: the generated reference is current and every ```rules example loads.

Each ```rules block in docs/reference.md and docs/tutorial.md is parsed and then loaded on its
own. Snippets are allowed to name things declared elsewhere (E101) and files or shipped games
that are not beside them (E004, and the override/remove targets those would declare: E107,
E108); any other diagnostic means the example no longer fits the language. The reference must
also show every declaration kind, effect verb and procedure in at least one example.
"""

import importlib.util
import re
from pathlib import Path

import pytest

from warbook.dsl.loader import load_with_diagnostics
from warbook.dsl.parser import parse_text
from warbook.dsl.patterns import Ref
from warbook.dsl.schema import DIRECTIVES, KINDS
from warbook.dsl.vocabulary import EFFECTS, PROCEDURES

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
REFERENCE = DOCS / "reference.md"
TUTORIAL = DOCS / "tutorial.md"
HOUSE_RULE = ROOT / "examples" / "house_rules" / "klicks_jungle_fighting.rules"

ALLOWED_IN_SNIPPETS = {"E101", "E004", "E107", "E108"}

_FENCE = re.compile(r"^```rules\n(.*?)^```$", re.M | re.S)


def rules_blocks(path: Path) -> list[tuple[int, str]]:
    """(line number, text) of every ```rules block in a Markdown file."""
    text = path.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 2, m.group(1)) for m in _FENCE.finditer(text)]


def _generator():
    spec = importlib.util.spec_from_file_location("generate_reference", DOCS / "generate_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_section_is_current():
    generator = _generator()
    text = REFERENCE.read_text(encoding="utf-8")
    assert generator.splice(text, generator.generate()) == text, \
        "docs/reference.md is stale: run python docs/generate_reference.py"


def test_generator_check_mode_reports_a_stale_section(tmp_path, capsys):
    generator = _generator()
    stale = tmp_path / "reference.md"
    stale.write_text(f"intro\n{generator.BEGIN}\nSTALE TEXT\n{generator.END}\nend\n", encoding="utf-8")
    assert generator.main(["--check", str(stale)]) == 1
    assert generator.main([str(stale)]) == 0
    assert generator.main(["--check", str(stale)]) == 0
    text = stale.read_text(encoding="utf-8")
    assert text.startswith("intro\n") and text.endswith("end\n") and "STALE TEXT" not in text
    capsys.readouterr()


def test_generated_section_names_every_kind_effect_and_procedure():
    section = _generator().generate()
    for kind in KINDS:
        assert f"### `{kind}`" in section
    for pattern in [*EFFECTS.values(), *PROCEDURES.values()]:
        assert f"- `{str(pattern).split(' ')[0]}" in section


SNIPPETS = [(path, line, text) for path in (REFERENCE, TUTORIAL) if path.exists()
            for line, text in rules_blocks(path)]
SNIPPET_TEXTS = [(line, text) for _, line, text in SNIPPETS]


@pytest.mark.parametrize("path,line,text", SNIPPETS, ids=[f"{p.name}:{n}" for p, n, _ in SNIPPETS])
def test_rules_example_parses_and_loads(tmp_path, path, line, text):
    parse_text(text, f"{path.name}:{line}")
    snippet = tmp_path / "snippet.rules"
    snippet.write_text(text, encoding="utf-8")
    _, diagnostics = load_with_diagnostics(snippet)
    unexpected = [str(d) for d in diagnostics if d.code not in ALLOWED_IN_SNIPPETS]
    assert not unexpected, f"example at {path.name}:{line}: {unexpected}"


def _literal_words(node) -> set[str]:
    """Every keyword of a pattern (its literal words), walking groups of any shape."""
    if hasattr(node, "word"):
        return {node.word}
    found: set[str] = set()
    for child in (*getattr(node, "items", ()), *getattr(node, "options", ()), getattr(node, "item", None)):
        if child is None:
            continue
        for part in child if isinstance(child, tuple) else (child,):
            found |= _literal_words(part)
    return found


def _keywords_of(decl, prop) -> set[str]:
    spec = KINDS[decl.kind].properties.get(prop.name)
    words = _literal_words(spec.pattern) if spec else set()
    values = dict(prop.values)
    if values.get("effect") in EFFECTS:
        words |= _literal_words(EFFECTS[values["effect"]])
    if values.get("procedure") in PROCEDURES:
        words |= _literal_words(PROCEDURES[values["procedure"]])
    return words


def _ref_count(value, name: str) -> int:
    if isinstance(value, Ref):
        return int(value.name == name)
    if isinstance(value, tuple):
        return sum(_ref_count(v, name) for v in value)
    return 0


def test_examples_never_read_a_keyword_as_a_name(tmp_path):
    """An unknown name that is a keyword of its own line's form means the line was misread."""
    misread = []
    for index, (line, text) in enumerate(SNIPPET_TEXTS):
        snippet = tmp_path / f"snippet{index}.rules"
        snippet.write_text(text, encoding="utf-8")
        rulebook, diagnostics = load_with_diagnostics(snippet)
        unknown = {(d.span.line, d.message.rsplit(" ", 1)[-1].strip("'")) for d in diagnostics if d.code == "E101"}
        for decl in rulebook.walk() if rulebook else ():
            for prop in decl.properties:
                for name in (n for row, n in unknown if row == prop.span.line):
                    # A keyword also used as a name is written twice (do roll events on events); a
                    # keyword read as a name is written once, and that once is taken as the name.
                    written = sum(1 for w in prop.words if w.text == name)
                    if name in _keywords_of(decl, prop) and written == _ref_count(prop.values, name):
                        misread.append(f"{line + prop.span.line - 1}: {prop.text!r} reads {name!r} as a name")
    assert not misread


def test_reference_shows_every_kind_effect_procedure_and_directive(tmp_path):
    kinds, effects, procedures, directives = set(), set(), set(), set()
    for index, (_, text) in enumerate(rules_blocks(REFERENCE)):
        directives.update(st.head.text for st in parse_text(text).statements)
        snippet = tmp_path / f"snippet{index}.rules"
        snippet.write_text(text, encoding="utf-8")
        rulebook, _ = load_with_diagnostics(snippet)
        for decl in rulebook.walk() if rulebook else ():
            if Path(decl.span.path).name != snippet.name:
                continue  # declared by a base this snippet extends
            kinds.add(decl.kind)
            for prop in decl.properties:
                values = dict(prop.values)
                effects.add(values.get("effect"))
                procedures.add(values.get("procedure"))
    assert set(KINDS) - kinds == set(), "kinds with no example in docs/reference.md"
    assert set(EFFECTS) - effects == set(), "effects with no example in docs/reference.md"
    assert set(PROCEDURES) - procedures == set(), "procedures with no example in docs/reference.md"
    assert set(DIRECTIVES) - directives == set(), "directives with no example in docs/reference.md"


def test_reference_points_to_the_lint_code_list():
    text = REFERENCE.read_text(encoding="utf-8")
    assert "warbook lint --list" in text and "--explain" in text


def test_tutorial_ends_with_the_example_house_rule():
    """The finished file in the tutorial is, word for word, the shipped example."""
    blocks = [text for _, text in rules_blocks(TUTORIAL)]
    assert HOUSE_RULE.read_text(encoding="utf-8") in blocks
