"""One registry of effects: every verb the language accepts has a compiled class, and every place
that class is valid in has an implementation (or, for a counter in play, a reader) — so a line
the linter accepts is carried out, and a line it rejects (E220, E222) stops play with the same
code instead of being skipped."""

from pathlib import Path

import pytest

from driving import drive

from warbook.dsl.conditions import Names
from warbook.dsl.diagnostics import RulesError
from warbook.dsl.effects import EFFECT_CLASSES, Change, Shift, Where, compile_effect
from warbook.dsl.loader import load_rulebook
from warbook.dsl.vocabulary import EFFECTS
from warbook.interpreter import effects
from warbook.interpreter.context import Context
from warbook.interpreter.effects import Target, carry_out
from warbook.interpreter.scenario import load_scenario

FIXTURES = Path(__file__).parent / "fixtures" / "combat_effects"


def test_every_effect_verb_has_a_class():
    verbs = {cls.VERB for cls in EFFECT_CLASSES} | {"lose"}
    assert verbs == set(EFFECTS)


def test_every_valid_place_of_every_class_is_carried_out():
    effects.load_implementations()
    missing = [(cls.__name__, place.name) for cls in EFFECT_CLASSES for place in cls.VALID
               if not ((cls, place) in effects.IMPLEMENTATIONS
                       or (place is Where.STANDING and cls in effects.READERS))]
    assert missing == []


def test_nothing_is_implemented_where_the_linter_refuses_it():
    effects.load_implementations()
    assert [(c.__name__, p.name) for c, p in effects.IMPLEMENTATIONS if p not in c.VALID] == []
    assert all(Where.STANDING in cls.VALID for cls in effects.READERS)


def test_a_line_carried_out_where_it_is_not_valid_stops_with_e222():
    """Set-up (an option) carrying out a ``shift`` line: the game stops with a positioned E222."""
    scenario = load_scenario(FIXTURES / "counters.toml")
    fort = scenario.rulebook.get("marker", "fort")
    effect = compile_effect(fort.first("effect"), scenario.rules.names)
    assert isinstance(effect, Shift)
    with pytest.raises(RulesError) as raised:
        drive(carry_out(Context(scenario, seed=0), effect, Target(Where.OPTION, fort, "red", "test")))
    (diagnostic,) = raised.value.diagnostics
    assert diagnostic.code == "E222" and diagnostic.span.line == fort.first("effect").span.line


def test_gain_and_lose_compile_to_one_class_with_a_sign():
    rulebook = load_rulebook(FIXTURES / "effects.rules")
    names = Names(rulebook)
    lines = rulebook.get("result", "VP").all("effect")
    compiled = [compile_effect(line, names) for line in lines]
    assert [(type(e), e.sign, e.amount, e.role, e.floor) for e in compiled[:2]] == [
        (Change, 1, 2, "attackers", None), (Change, -1, 1, "defenders", 0)]
    assert compiled[2].condition is not None and compiled[2].role == "owner"
