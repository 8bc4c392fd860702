"""interpreter.drafts: an instance made from a draft is an instance of the frozen class like any
other (equal, hashed alike, frozen), and a class whose layout a draft cannot take is refused."""

import attrs
import pytest

from warbook.interpreter.actions import Action, Decision, action, decision
from warbook.interpreter.drafts import draft_of
from warbook.interpreter.state import GameState, Unit, replace, unit_moved_to


@attrs.frozen(weakref_slot=False)
class Point:
    x: int
    y: int = 0


def test_a_draft_filled_becomes_an_instance_of_the_class():
    draft = draft_of(Point)
    made = object.__new__(draft)
    made.x, made.y = 3, 4
    made.__class__ = Point
    assert type(made) is Point and made == Point(3, 4) and hash(made) == hash(Point(3, 4))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        made.x = 5


def test_a_class_with_a_weakref_slot_is_refused():
    @attrs.frozen
    class Weak:
        x: int

    with pytest.raises(TypeError):
        draft_of(Weak)


def test_units_states_actions_and_decisions_made_from_drafts_are_the_classes_own():
    unit = Unit("A1", "infantry", "allies", "0101", mode="watch")
    moved = unit_moved_to(unit, "0102", frozenset({"moved"}))
    assert type(moved) is Unit
    assert moved == Unit("A1", "infantry", "allies", "0102", mode="watch", spent=frozenset({"moved"}))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        moved.location = "0103"
    state = replace(GameState(units=(unit,)), turn=2)
    assert type(state) is GameState and state == GameState(turn=2, units=(unit,))
    assert state.with_unit(moved).unit("A1") is moved
    stay = action("stay", ("A1",))
    assert type(stay) is Action and stay == Action("stay", ("A1",)) and hash(stay) == hash(Action("stay", ("A1",)))
    asked = decision("allies", "move", "move A1", (stay,))
    assert type(asked) is Decision and asked == Decision("allies", "move", "move A1", (stay,))


def test_a_class_no_draft_can_become_is_still_copied_field_by_field():
    from warbook.interpreter import state

    @attrs.frozen
    class Weak:
        x: int
        y: int = 0

    assert state._field_setter(Weak, "y")(Weak(1), 5) == Weak(1, 5)
    assert state._replacer(Weak)(Weak(1, 2), x=3) == Weak(3, 2)


def test_a_unit_made_for_set_up_is_the_unit_attrs_makes():
    from warbook.interpreter.state import new_unit

    made = new_unit("B2", "armour", "blue", "0104", True, False)
    assert type(made) is Unit and made == Unit("B2", "armour", "blue", "0104", hidden=True)
    assert made.spent is Unit("B2", "armour", "blue", "0104").spent  # (the defaults themselves)
