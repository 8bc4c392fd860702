"""``flow.changed_cells``: the cells a stacking check at the end of a phase looks at again, given the
units the last check left (every other cell was left within every limit).  Hand-built unit
tuples; the checks themselves are played in test_alternating.py."""

from attrs import evolve

from warbook.interpreter.flow import changed_cells
from warbook.interpreter.state import Unit

A = Unit("B1", "launch", "blue", "0101")
B = Unit("B2", "launch", "blue", "0101")
C = Unit("R1", "junk", "red", "0401")


def test_no_earlier_check_or_fewer_units_means_every_cell():
    assert changed_cells(None, (A, B)) is None
    assert changed_cells((A, B, C), (A, B)) is None


def test_the_same_units_change_no_cell():
    assert changed_cells((A, B, C), (A, B, C)) == set()


def test_a_moved_unit_changes_the_cell_it_left_and_the_one_it_entered():
    assert changed_cells((A, B, C), (A, evolve(B, location="0201"), C)) == {"0101", "0201"}


def test_a_unit_changed_in_place_changes_its_cell_only():
    assert changed_cells((A, B, C), (A, B, evolve(C, step=2))) == {"0401"}


def test_units_added_after_the_others_change_their_cells():
    arrived = Unit("R2", "junk", "red", "0301")
    assert changed_cells((A, B), (A, B, C, arrived)) == {"0401", "0301"}
