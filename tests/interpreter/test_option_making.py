"""Options made fast: a force's ``move`` options skip ``choose``'s sort only when their text order is its
order too; set-up's place options made in a batch equal those made one by one."""

from hypothesis import given, settings
from hypothesis import strategies as st

from warbook.interpreter.actions import Action, action
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
    stay = action("stay", ("C07",))
    assert stay == Action("stay", ("C07",)) and hash(stay) == hash(Action("stay", ("C07",))) and str(stay) == "stay C07"


def test_arguments_sort_numbers_first_by_value_then_words_as_text():
    from warbook.interpreter.context import arg_key

    given = ["box", "0910", "12", "", "9", "0109", "Alpha", "\x01x", "0012", "a1"]
    # By hand: 9, then 12 and 0012 (equal numbers, kept in the order given), 109, 910; then the
    # words as text: "" and "\x01x" (below every printable character), "Alpha", "a1", "box".
    assert sorted(given, key=arg_key) == ["9", "12", "0012", "0109", "0910", "", "\x01x", "Alpha", "a1", "box"]
    assert arg_key("box") is arg_key("box") and arg_key("12") == arg_key("0012")


@settings(deadline=None, max_examples=300)
@given(st.lists(st.text(max_size=4) | st.integers(0, 9999).map(str), max_size=12))
def test_argument_keys_order_as_the_number_then_word_tuples_did(args):
    from warbook.interpreter.context import arg_key

    def as_tuple(arg):  # the keys as they were: (0, number, "") for a number, (1, 0, word) for a word
        return (0, int(arg), "") if arg.isascii() and arg.isdigit() else (1, 0, arg)

    args = [a for a in args if a.isascii() or not a.isdigit()]  # (int() reads no other digits alike)
    assert sorted(args, key=arg_key) == sorted(args, key=as_tuple)


def test_many_place_options_sort_by_number_and_crowd_out_no_move_keys():
    """``place UNIT CELL`` options (a product met mostly once) are ordered as numbers without being
    kept, so that a set-up's thousands of them do not push out the keys of the cells every move offers."""
    from warbook.interpreter import context

    moves = [Action("move", (c,)) for c in ("0910", "0109")]
    assert options_in_order(moves) == (moves[1], moves[0])
    places = [Action("place", (f"U{u}", f"{c:04d}")) for u in range(60) for c in range(99, 0, -1)]
    ordered = options_in_order(places)
    assert ordered[:2] == (Action("place", ("U0", "0001")), Action("place", ("U0", "0002")))
    assert ordered[99] == Action("place", ("U1", "0001"))
    assert ("0910",) in context._ARGS_KEYS and ("U0", "0001") not in context._ARGS_KEYS


def test_declare_options_are_sorted_once_for_the_same_options():
    from warbook.interpreter.procedures import orders

    options = [Action("declare", (uid, "dig")) for uid in ("B10", "B2", "B1")] + [orders.DONE]
    sorts: dict = {}
    first = orders._in_order(options, sorts)
    assert first == options_in_order(options)
    assert [str(a) for a in first] == ["declare B1 dig", "declare B10 dig", "declare B2 dig", "done"]
    assert orders._in_order(list(options), sorts) is first and len(sorts) == 1
    assert orders._in_order(options[1:], sorts) == options_in_order(options[1:]) and len(sorts) == 2
