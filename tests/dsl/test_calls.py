"""Procedure calls (``dsl.compiled.calls``): every ``do`` form has a typed record, read once.

The flow hands a procedure its line compiled; these tests hold the records to the patterns of
``dsl.vocabulary.PROCEDURES`` (every capture is a field, every other field a literal word the
pattern can match) and read a few lines by hand.  Each record's docstring is what
``docs/reference.md`` says the interpreter does with the line, so every procedure must have one,
in neutral words, and its example must be a line of its form.
"""

import inspect
import re

import attrs
import pytest

from warbook.dsl.compiled.calls import CALLS, Call
from warbook.dsl.effects import effect_class
from warbook.dsl.loader import load_rulebook
from warbook.dsl.meanings import meaning
from warbook.dsl.patterns import Alternatives, Optional, Repeat
from warbook.dsl.reader import read
from warbook.dsl.vocabulary import EFFECTS, PROCEDURES, find_procedure
from warbook.interpreter.rules import Rules

RULES = """
rulebook "Calls" {
    players 2
}
dice d6
side blue "Blue"
side red "Red"
factor speed "Speed"
factor attack "Attack"
combat clash "Clash" {
    table checks
    compare odds
    attack factor attack
    defence factor attack
}
sequence {
    phase moving {
        side blue
        do move order by speed descending
        do fight clash
    }
    phase air {
        do fire at aircraft with checks when firers attack exceeds targets attack
    }
}
table checks "Checks" {
    roll d6
    columns "Result"
    1-6: no_effect
}
result no_effect "No effect" {
    effect no effect
}
"""


@pytest.mark.parametrize("name", sorted(PROCEDURES))
def test_every_procedure_form_has_a_call_record_with_its_captures(name):
    cls = CALLS[name]
    assert issubclass(cls, Call) and cls.procedure == name
    pattern = PROCEDURES[name]
    fields = {f.name for f in attrs.fields(cls)} - {"source", "condition_error"}
    captures = {c.name for c in pattern.captures}
    assert captures <= fields
    assert fields - captures <= pattern.literals  # flags: whether the word is written


def plans(tmp_path):
    path = tmp_path / "calls.rules"
    path.write_text(RULES)
    rules = Rules(load_rulebook(path))
    return {plan.decl.name: plan for plan in rules.phase_plans()}


def test_a_do_line_is_read_into_its_fields_once(tmp_path):
    found = plans(tmp_path)
    move, fight = found["moving"].runs
    assert (move.procedure, move.factor, move.descending) == ("move", "speed", True)
    assert (fight.procedure, fight.combat) == ("fight", "clash")
    written = RULES.splitlines().index("        do move order by speed descending") + 1
    assert move.source.span.line == written  # the line as written, for citations


def test_a_condition_is_parsed_with_its_line(tmp_path):
    (fire,) = plans(tmp_path)["air"].runs
    assert fire.table == "checks" and fire.condition_error is None
    (clause,) = fire.condition.clauses
    assert (clause.left.role, clause.left.name, clause.op, clause.right.role) == ("firers", "attack", ">", "targets")


GAME_WORDS = ("klick", "huey", "cidg", "nva", "arvn", "sea lords", "saigon", "mekong", "pbr", "guerrilla")
"""The words the project's hook refuses in the engine: the shipped games' own names."""


def names_a_game(text: str) -> list[str]:
    return [w for w in GAME_WORDS if re.search(rf"\b{w}", text, re.IGNORECASE)]


def test_names_a_game_finds_a_game_word_in_running_text():
    assert names_a_game("units of the ARVN side, and guerrillas") == ["arvn", "guerrilla"]
    assert names_a_game("a canvas of panels, a hue") == []


@pytest.mark.parametrize("name", sorted(PROCEDURES))
def test_every_procedure_says_in_one_neutral_paragraph_what_the_interpreter_does(name):
    cls = CALLS[name]
    text = meaning(cls)
    assert len(text.split()) >= 12, f"do {name}: its Call class needs a docstring saying what the interpreter does"
    assert "\n\n" not in inspect.cleandoc(cls.__doc__), f"do {name}: one paragraph"
    assert names_a_game(f"{text} {cls.example}") == []


@pytest.mark.parametrize("verb", sorted(EFFECTS))
def test_no_effect_meaning_names_a_game(verb):
    assert names_a_game(meaning(effect_class(verb))) == []


def _has_options(items) -> bool:
    return any(isinstance(i, (Optional, Alternatives)) or (isinstance(i, Repeat) and _has_options((i.item,)))
               for i in items)


@pytest.mark.parametrize("name", sorted(PROCEDURES))
def test_a_form_with_options_has_an_example_that_writes_them_all(name):
    pattern, example = PROCEDURES[name], CALLS[name].example
    if not _has_options(pattern.items):
        assert example == ""
        return
    (statement,) = read(example + "\n", "example")
    words = statement.words
    assert words[0].text == "do" and find_procedure([w.text for w in words[1:]])[0] == name
    match = pattern.match(words[1:])
    assert match.ok, example
    assert {c.name for c in pattern.captures} <= set(match.bindings), f"{example!r} leaves an option out"


def test_a_class_without_its_own_docstring_has_no_meaning():
    @attrs.frozen
    class Silent(Call):
        pass

    assert meaning(Silent) == ""


def test_each_verb_and_procedure_is_named_as_its_compiled_pattern_reads() -> None:
    """The registries name their patterns from the text, without compiling them (``Patterns``):
    the names are those the compiled patterns' leading words give."""
    from warbook.dsl.patterns import compile_pattern
    from warbook.dsl.vocabulary import leading_words, procedure_name

    for verb, pattern in EFFECTS.items():
        assert verb == pattern.items[0].word
    for name, pattern in PROCEDURES.items():
        assert procedure_name(leading_words(pattern)) == name and pattern == compile_pattern(pattern.source)
        assert find_procedure(name.split(" ")) == (name, pattern)
