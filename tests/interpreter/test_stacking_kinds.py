"""``stacking.within_every_rule`` keeps its answers by the kinds of counters the stacking rules
tell apart, not by their types in order: the answers must be those of the rules themselves,
whatever the order and whatever counters no rule counts (worked out by hand from the text)."""

import pytest

from warbook.dsl.loader import load_rulebook
from warbook.interpreter.rules import Rules
from warbook.interpreter.stacking import within_every_rule
from warbook.interpreter.state import Unit

RULES = """
rulebook "Kinds" {
    players 2
}
dice d6
side blue "Blue"
side red "Red"
tag armour "Armour"
terrain clear "Clear"
unit rifle "Rifle" {
    side blue
}
unit scout "Scout" {
    side blue
}
unit tank "Tank" {
    side blue
    tags armour
}
marker flag "Flag" {
    side blue
    counts for stacking no
}
marker mine "Mine" {
    side blue
    counts for stacking no
    one per cell
}
stacking limits "Stacking" {
    limit 3
    limit 1 for armour
    one per cell mine
    checked at end of phases
}
"""


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    path = tmp_path_factory.mktemp("kinds") / "kinds.rules"
    path.write_text(RULES, encoding="utf-8")
    return Rules(load_rulebook(path))


def stack(*types: str) -> list[Unit]:
    return [Unit(f"B{n}", t, "blue", "0101") for n, t in enumerate(types)]


@pytest.mark.parametrize(("types", "fits"), [
    (("rifle", "scout", "rifle"), True),           # three against `limit 3`
    (("rifle", "scout", "rifle", "scout"), False),  # a fourth arriving
    (("scout", "rifle", "rifle", "scout"), False),  # the same stack, in another order
    (("rifle", "flag", "scout", "flag", "rifle"), True),  # flags count against nothing
    (("rifle", "scout", "rifle", "scout", "flag"), True),  # over the limit, but a flag arriving breaks nothing
    (("tank", "rifle", "tank"), False),            # `limit 1 for armour`
    (("tank", "rifle"), True),
    (("mine", "rifle", "mine"), False),            # one mine per cell
    (("mine", "flag", "rifle"), True),
])
def test_the_answer_is_the_rules_whatever_was_asked_before(rules, types, fits):
    assert within_every_rule(rules, stack(*types)) is fits


def test_stacks_alike_to_the_rules_are_kept_once(rules):
    within_every_rule(rules, stack("rifle", "scout", "rifle"))
    within_every_rule(rules, stack("scout", "flag", "rifle", "scout"))
    within_every_rule(rules, stack("rifle", "rifle", "scout", "flag", "scout"))
    # rifle and scout count alike; the flag counts for nothing: one stack of three, then of four.
    memo = rules.derived["within every stacking rule"]
    assert {key for key in memo if len(key[0]) in (3, 4) and key[1] == "rifle"} == {
        (("rifle",) * 3, "rifle"), (("rifle",) * 4, "rifle")}
