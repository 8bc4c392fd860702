"""Options made fast: a force's ``move`` options skip ``choose``'s sort only when their text order is its
order too; set-up's place options made in a batch equal those made one by one."""

from hypothesis import given, settings
from hypothesis import strategies as st

from warbook.interpreter.actions import Action
from warbook.interpreter.context import options_in_order
from warbook.interpreter.procedures import move_force

cells = st.lists(st.one_of(st.integers(0, 99999).map(str), st.integers(0, 9999).map(lambda n: f"{n:04d}"),
                           st.sampled_from(["box", "pool", "a1"])), unique=True, max_size=40)


@settings(deadline=None, max_examples=300)
@given(cells)
def test_cells_said_to_be_in_order_are_in_choose_order(given_cells):
    ends = sorted(given_cells)
    moves = [Action("move", (c,)) for c in ends]
    if move_force._numbered_alike(ends):
        assert options_in_order(moves) == tuple(moves)


def test_widths_or_names_that_text_order_gets_wrong_are_sorted_again():
    assert move_force._numbered_alike(["0101", "0102", "1201"])
    for ends in (["10", "9"], ["0101", "box"], ["101", "99"]):
        ends = sorted(ends)
        assert not move_force._numbered_alike(ends)
    moves = [Action("move", (c,)) for c in sorted(["10", "9"])]
    assert options_in_order(moves) != tuple(moves)  # ("10" before "9" as text, not as numbers)


def test_actions_made_in_a_batch_equal_those_made_one_by_one():
    made = Action.batch("place", "C07", ["0101", "0102", "1201"])
    one_by_one = [Action("place", ("C07", c)) for c in ["0101", "0102", "1201"]]
    assert made == one_by_one and [hash(a) for a in made] == [hash(a) for a in one_by_one]
    assert [str(a) for a in made] == ["place C07 0101", "place C07 0102", "place C07 1201"]
    assert Action.batch("place", "C07", []) == []
