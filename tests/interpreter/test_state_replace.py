"""``state.replace`` and the one-field setters make what ``attrs.evolve`` makes (issue 18).

They set a new instance's slots through the slots' own descriptors instead of calling attrs'
frozen ``__init__``; so they must give the same value, of the same class, frozen as ever, and
leave a class whose ``__init__`` does more than set its fields to ``evolve``.
"""

import attrs
import pytest
from attrs import evolve, frozen
from hypothesis import given
from hypothesis import strategies as st

from warbook.interpreter.state import GameState, Unit, replace, state_in_phase, state_with_rolls, unit_moved_to, unit_with_spent
from warbook.interpreter import state as state_module

flags = st.frozensets(st.sampled_from(["moved", "attacked", "trap"]))
unit_changes = st.fixed_dictionaries({}, optional={
    "location": st.sampled_from(["0101", "0203", "eliminated"]), "side": st.sampled_from(["blue", "red"]),
    "hidden": st.booleans(), "dummy": st.booleans(), "mode": st.sampled_from([None, "dig", "watch"]),
    "spent": flags, "turn_flags": flags, "step": st.integers(1, 4), "status": flags})


@given(unit_changes, unit_changes)
def test_replacing_a_unit_gives_what_evolve_gives(first, changes):
    unit = Unit(**{"id": "B1", "type": "infantry", "side": "blue", "location": "0102", **first})
    made = replace(unit, **changes)
    assert type(made) is Unit and made == evolve(unit, **changes)
    assert attrs.asdict(made) == {**attrs.asdict(unit), **changes}
    assert unit_with_spent(unit, frozenset({"moved"})) == evolve(unit, spent=frozenset({"moved"}))
    moved = unit_moved_to(unit, "0203", frozenset({"moved"}))
    assert attrs.asdict(moved) == {**attrs.asdict(unit), "location": "0203", "spent": frozenset({"moved"})}


def test_a_replaced_unit_and_state_stay_frozen():
    unit = replace(Unit("B1", "infantry", "blue", "0102"), location="0203")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        unit.location = "0101"
    state = replace(GameState(units=(unit,)), turn=3)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.turn = 4
    assert state == GameState(turn=3, units=(unit,)) and state.unit("B1") is unit


def test_a_state_that_keeps_its_units_keeps_their_index_and_one_that_changes_them_does_not():
    units = (Unit("B1", "infantry", "blue", "0102"), Unit("R1", "infantry", "red", "0203"))
    state = GameState(units=units)
    assert state.units_at("0102") == units[:1]  # its index built
    assert replace(state, turn=2)._indexes() is state._indexes()
    in_phase, rolled = state_in_phase(state, "combat"), state_with_rolls(state, 3)
    assert (in_phase.phase, in_phase.units, rolled.rolls) == ("combat", units, 3)
    assert in_phase == replace(state, phase="combat") and rolled == replace(state, rolls=3)
    assert rolled._indexes() is state._indexes()
    moved = replace(units[0], location="0203")
    other = replace(state, units=(moved, units[1]))
    assert other.units_at("0203") == (moved, units[1]) and other.units_at("0102") == ()


def test_a_class_whose_init_does_more_than_set_its_fields_is_left_to_evolve():
    @frozen
    class Checked:
        value: int = attrs.field(validator=attrs.validators.ge(0))
        items: list = attrs.field(factory=list)

    assert state_module._written_for(Checked) is None
    with pytest.raises(ValueError):
        state_module._replacer(Checked)(Checked(1), value=-1)  # the validator still runs
    assert state_module._field_setter(Checked, "value")(Checked(1), 2) == Checked(2)
    assert state_module._written_for(Unit) == [a.name for a in attrs.fields(Unit)]
