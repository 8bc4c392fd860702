"""A decision made fast (``actions.decision``, through the slots' descriptors) equals one made by
attrs' ``__init__``."""

import attrs

from warbook.interpreter.actions import Action, Decision, decision


def test_a_decision_made_through_the_slots_equals_one_made_by_its_init():
    options = (Action("move", ("B1", "0102")), Action("stay", ("B1",)))

    def why_not(action):
        return "no"

    fast = decision("blue", "move", "move B1", options, why_not)
    made = Decision("blue", "move", "move B1", options, why_not)
    assert fast == made and type(fast) is Decision and fast.why_not is why_not
    assert (fast.side, fast.kind, fast.prompt, fast.options) == ("blue", "move", "move B1", options)
    assert decision("red", "attack", "p", ()).why_not is None
    assert decision("red", "attack", "p", ()) != decision("red", "attack", "q", ())
    # ``decision`` sets these fields and no others: a field added to Decision must be added there too
    assert [a.name for a in attrs.fields(Decision)] == ["side", "kind", "prompt", "options", "why_not"]
