"""The game state's indexes: what ``with_units`` hands on must equal what a fresh state builds."""

from attrs import evolve
from hypothesis import given, settings
from hypothesis import strategies as st

from warbook.interpreter.state import GameState, Unit, replace

CELLS = ("0101", "0102", "0201", "eliminated", "offmap")
SIDES = ("blue", "red")


def fresh(state: GameState) -> GameState:
    """The same state with no index built yet."""
    return GameState(state.turn, state.phase, state.units, state.resources, state.turn_modifiers, state.rolls,
                     state.over)


def indexes(state: GameState) -> tuple:
    cells = {*CELLS, *(u.location for u in state.units)}
    return ({u.id: state.unit(u.id) for u in state.units}, {c: state.units_at(c) for c in cells},
            {s: tuple(state.units_of(s)) for s in SIDES}, {s: tuple(state.units_of(s, on_map=False)) for s in SIDES})


changes = st.lists(st.tuples(st.integers(0, 7), st.sampled_from(CELLS), st.sampled_from(SIDES), st.booleans()),
                   max_size=12)


@given(st.lists(st.tuples(st.sampled_from(CELLS), st.sampled_from(SIDES)), min_size=1, max_size=8), changes)
def test_indexes_handed_on_equal_fresh_ones(placed, steps):
    units = tuple(Unit(f"U{n}", "t", side, cell) for n, (cell, side) in enumerate(placed))
    state = GameState(units=units)
    indexes(state)  # built, so with_units has them to hand on
    for pick, cell, side, flag in steps:
        old = state.units[pick % len(state.units)]
        changed = replace(old, location=cell, side=side, spent=frozenset({"moved"}) if flag else frozenset())
        before = state
        state = state.with_unit(changed)
        assert state.units == tuple(changed if u.id == old.id else u for u in before.units)
        assert indexes(state) == indexes(fresh(state))
        if flag:  # a change that keeps the units keeps (shares) their indexes
            state = replace(state, rolls=state.rolls + 1)
            assert indexes(state) == indexes(fresh(state))


def test_with_units_replaces_by_id_and_keeps_order():
    a, b, c = (Unit(i, "t", "blue", "0101") for i in ("A1", "A2", "A3"))
    state = GameState(units=(a, b, c))
    moved = state.with_units([replace(c, location="0102"), replace(a, mode="dig")])
    assert [u.id for u in moved.units] == ["A1", "A2", "A3"]
    assert moved.unit("A3").location == "0102" and moved.unit("A1").mode == "dig"
    assert moved.units_at("0101") == (moved.unit("A1"), b)
    assert state.with_unit(Unit("Z9", "t", "red", "0101")).units == state.units  # no such id: unchanged


def test_replace_is_evolve():
    unit = Unit("A1", "t", "blue", "0101", hidden=True)
    assert replace(unit, location="0202", mode="dig") == evolve(unit, location="0202", mode="dig")
    state = GameState(units=(unit,), turn=3)
    assert replace(state, phase="combat") == evolve(state, phase="combat")


@given(st.lists(st.tuples(st.sampled_from(CELLS), st.sampled_from(SIDES)), min_size=1, max_size=12),
       st.integers(0, 12))
def test_indexes_handed_on_as_units_are_added_equal_fresh_ones(placed, built_after):
    """Set-up adds counters one by one: each new state's indexes are the old ones plus the unit."""
    state = GameState()
    for n, (cell, side) in enumerate(placed):
        if n == built_after:
            indexes(state)  # the indexes exist from here on, and are handed on
        state = state.with_added_unit(Unit(f"U{n:02d}", "t", side, cell))
        assert indexes(state) == indexes(fresh(state))
    assert [u.id for u in state.units] == [f"U{n:02d}" for n in range(len(placed))]


@given(st.lists(st.tuples(st.sampled_from(CELLS), st.sampled_from(SIDES)), min_size=1, max_size=8), changes,
       st.integers(0, 12))
def test_earlier_states_still_answer_for_their_own_units(placed, steps, branch_at):
    """The indexes move to each new state and are updated in place: every earlier state, and a
    second state derived from an earlier one, must still answer as a fresh state would."""
    units = tuple(Unit(f"U{n}", "t", side, cell) for n, (cell, side) in enumerate(placed))
    state = GameState(units=units)
    indexes(state)
    seen = [state]
    for n, (pick, cell, side, flag) in enumerate(steps):
        old = state.units[pick % len(state.units)]
        changed = replace(old, location=cell, side=side)
        if flag:  # two units at once (``with_units``), then a unit added, then a shared index
            other = state.units[(pick + 1) % len(state.units)]
            state = state.with_units([changed, replace(other, spent=frozenset({"moved"}))])
            state = state.with_added_unit(Unit(f"N{n}", "t", side, cell))
            state = replace(state, rolls=state.rolls + 1)
        else:
            state = state.with_unit(changed)
        indexes(state)
        seen.append(state)
        if n == branch_at:  # a second line of play from an earlier state
            twin = seen[len(seen) // 2].with_unit(replace(units[0], location="0201"))
            assert indexes(twin) == indexes(fresh(twin))
    for earlier in seen:
        assert indexes(earlier) == indexes(fresh(earlier))


@given(st.lists(st.tuples(st.sampled_from(CELLS[:3]), st.sampled_from(SIDES)), min_size=20, max_size=60),
       st.lists(st.lists(st.tuples(st.integers(0, 59), st.sampled_from(CELLS[:3]), st.booleans()), min_size=2,
                         max_size=4), max_size=6))
def test_a_few_units_changed_at_once_on_a_big_side_hand_on_indexes_equal_fresh_ones(placed, batches):
    # A few units of a side of many (a fight flagging its attackers) are found by bisection, not a pass.
    units = tuple(Unit(f"U{n}", "t", side, cell) for n, (cell, side) in enumerate(placed))
    state = GameState(units=units)
    indexes(state)
    for batch in batches:
        picked = {state.units[pick % len(state.units)].id: (cell, flag) for pick, cell, flag in batch}
        changed = [replace(state.unit(uid), location=cell, spent=frozenset({"moved"}) if flag else frozenset())
                   for uid, (cell, flag) in picked.items()]
        state = state.with_units(changed)
        assert indexes(state) == indexes(fresh(state))


@settings(deadline=None)
@given(st.lists(st.tuples(st.sampled_from(CELLS), st.sampled_from(SIDES)), min_size=1, max_size=48), changes,
       st.lists(st.integers(0, 47), max_size=12, unique=True))
def test_long_tuples_and_flags_changed_in_place_hand_on_indexes_equal_fresh_ones(placed, steps, flagged):
    """Past ``_SHORT`` units a side's tuple is searched by bisection, below it by a plain pass; and
    ``with_units_in_place`` (flags set or cleared, nobody moving) maps the indexes only: each must
    leave the indexes a fresh state builds."""
    units = tuple(Unit(f"U{n:02d}", "t", side, cell) for n, (cell, side) in enumerate(placed))
    state = GameState(units=units)
    indexes(state)
    for pick, cell, side, flag in steps:
        old = state.units[pick % len(state.units)]
        state = state.with_unit(replace(old, location=cell, side=side if flag else old.side))
        assert indexes(state) == indexes(fresh(state))
    picked = {state.units[n % len(state.units)].id for n in flagged}
    changed = [replace(u, spent=u.spent ^ {"moved"}, mode="dig") for u in state.units if u.id in picked]
    before = state
    state = state.with_units_in_place(changed)
    assert state.units == tuple(replace(u, spent=u.spent ^ {"moved"}, mode="dig") if u.id in picked else u
                                for u in before.units)
    assert indexes(state) == indexes(fresh(state))
