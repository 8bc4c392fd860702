"""Procedure calls (``dsl.compiled.calls``): every ``do`` form has a typed record, read once.

The flow hands a procedure its line compiled; these tests hold the records to the patterns of
``dsl.vocabulary.PROCEDURES`` (every capture is a field, every other field a literal word the
pattern can match) and read a few lines by hand.
"""

import attrs
import pytest

from warbook.dsl.compiled.calls import CALLS, Call
from warbook.dsl.loader import load_rulebook
from warbook.dsl.vocabulary import PROCEDURES
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
