"""The compile stage (``dsl.compiled``): each kind read once into records that say what its lines mean.

One small neutral rulebook; each test reads the records the interpreter plays from and checks
them against the rule the reference states for that kind (the values are worked out by hand
from the text below).
"""

from fractions import Fraction

import pytest

from warbook.dsl.loader import load_rulebook
from warbook.interpreter.rules import Rules

RULES = """
rulebook "Compiled" {
    players 2
}
dice d6
side blue "Blue" {
    counters face down
    dummies up to units
    never enters swamp unless option dry_season
}
side red "Red" {
    short X
}
option dry_season "Dry season" {
    default off
}
tag vehicle "Vehicle"
tag armour "Armour" {
    within vehicle
}
factor move "Move"
factor lift "Lift"
factor bulk "Bulk"
terrain clear "Clear"
terrain swamp "Swamp" {
    cost 3
    cost 1 for hover
    cost no entry for wheels
    defence x2
    defence 1L for armour when red defending
    spot 1..3 on d6
    supplies red
}
movement wheels "Wheels" {
    points factor move
    enters only clear within 1
    stops on entering enemy zone
    stops on entering mine
}
movement hover "Hover" {
    points unlimited
    transported by wheels
    needs transport
    board cost 1/2
    carried with lift against bulk
}
unit jeep "Jeep" {
    side blue
    movement wheels
    tags vehicle
    move 4
}
unit tank "Tank" {
    side blue
    movement wheels
    tags armour
    move 2
}
unit skiff "Skiff" {
    side red
    movement hover
    bulk 1
}
marker mine "Mine" {
    side red
    counts for stacking no
    one per cell
}
marker decoy "Decoy" {
    side blue
    dummy
}
stacking limits "Stacking" {
    limit 3
    limit 1 for armour
    exempt vehicle
    one per cell mine
    checked at end of phases
    excess to pool
}
box pool "Pool" {
    draw at random
    draws shown to opponent for red
    unplaced to pool
}
resource cp "Command points" {
    minimum 1
    carry over no
}
resource vp "Victory points" {
    never lost
    open
}
action buy "Buy" {
    side blue
    cost cp 2 until 1967
    cost cp 3 from 1968
    cost cp 1 for armour
}
result NE "No effect"
table fire "Fire" {
    roll d6
    lookup by value
    columns 1
    1..6: NE
}
mode watch "Watch" {
    side blue
    for vehicle
    forbids move transport
    spot range 2 for armour
    roll modifier -1 on fire
}
spotting sight "Sight" {
    range 1
    range 3 in watch
    roll d6 against terrain
}
award hold "Hold" {
    to blue
    on held
    cells swamp except vehicle
    points 2
    points 5 for swamp
}
award extra "Extra" {
    requires option dry_season
    to blue
    on eliminated
    points 1
}
victory {
    by vp margin
    level win 3+ "Win"
    sudden death lead 9 wins win
}
"""


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    path = tmp_path_factory.mktemp("compiled") / "compiled.rules"
    path.write_text(RULES, encoding="utf-8")
    return Rules(load_rulebook(path))


def test_unit_types_carry_their_selectors_with_tag_parents(rules):
    assert rules.unit_type("tank").selectors == {"tank", "blue", "wheels", "armour", "vehicle"}
    assert rules.unit_type("mine").one_per_cell and rules.unit_type("mine").counts_for_stacking is False


def test_a_for_line_overrides_the_general_line_wherever_it_stands(rules):
    swamp = rules.terrains["swamp"]
    assert rules.terrain_cost("swamp", rules.unit_type("skiff")) == 1      # `for hover`
    assert rules.terrain_cost("swamp", rules.unit_type("jeep")) is None    # `no entry for wheels`
    assert rules.terrain_cost("clear", rules.unit_type("jeep")) == 1       # no cost line: 1
    assert swamp.multiplier_for(rules.unit_type("jeep").selectors) == 2
    shift = [line.value for line in swamp.defence if line.value.shift is not None]
    assert [(d.shift.text, d.defending) for d in shift] == [("1L", "red")]
    assert swamp.spot.text == "1..3" and swamp.spot_dice == "d6" and swamp.supplies == {"red"}


def test_movement_classes_read_every_line(rules):
    wheels, hover = rules.movement_classes["wheels"], rules.movement_classes["hover"]
    assert wheels.points == "factor move" and not wheels.stops_on_enemy and wheels.stops_on_enemy_zone
    assert wheels.stops_on_markers == {"mine"}
    assert [(c.where, c.distance) for c in wheels.confinements] == [(("clear",), 1)]
    assert hover.needs_transport and hover.transported_by == ("wheels",) and hover.board_cost == Fraction(1, 2)
    assert (hover.carried_with.capacity, hover.carried_with.cost) == ("lift", "bulk")


def test_sides_say_who_hides_how_many_dummies_and_where_none_go(rules):
    blue, red = rules.side_rules["blue"], rules.side_rules["red"]
    assert blue.face_down and blue.dummies == "up to units" and blue.short == "B"
    assert not red.face_down and red.dummies is None and red.short == "X"
    assert [(b.where, b.unless_option) for b in blue.barriers] == [(("swamp",), "dry_season")]


def test_stacking_decides_each_types_line_at_compile(rules):
    (limits,) = rules.stackings
    # `limit 1 for armour` names the tank, which wins over its vehicle exemption; the jeep is exempt;
    # the skiff counts against the general limit; a marker counts only with `counts for stacking
    # yes`, a dummy unless it says no.
    assert {name: limits.line_of[name] for name in ("tank", "jeep", "skiff", "mine", "decoy")} == {
        "tank": 1, "jeep": None, "skiff": 0, "mine": None, "decoy": 0}
    assert limits.one_names["mine"] == {"mine"} and limits.safe_size == 1
    assert limits.checked == "end" and limits.excess_box == "pool" and not limits.on_moves


def test_an_action_price_follows_the_year_then_the_for_line(rules):
    buy = rules.actions["buy"]
    tank, jeep = rules.unit_type("tank").selectors, rules.unit_type("jeep").selectors
    assert buy.price(jeep, 1966).amount == 2 and buy.price(jeep, 1968).amount == 3
    assert buy.price(tank, 1966).amount == 1                   # an undated `for` line holds every year
    assert buy.price(None, 1968).amount == 3                   # a blind pick: the first general line
    assert [c.amount for c in buy.priced(None)] == [1]         # no year known: the undated lines
    assert buy.taken_by("blue") and not buy.taken_by("red")


def test_modes_and_spotting_ranges_prefer_the_most_specific_line(rules):
    watch, sight = rules.modes["watch"], rules.spottings["sight"]
    assert watch.forbids == {"move", "transport"} and watch.roll_modifier_on("fire") == -1
    assert watch.roll_modifier_on("other") == 0
    tank, jeep = rules.unit_type("tank").selectors, rules.unit_type("jeep").selectors
    assert sight.range_of(jeep, None) == 1       # `range 1`
    assert sight.range_of(jeep, watch) == 3      # `range 3 in watch` beats the general line
    assert sight.range_of(tank, watch) == 2      # the mode's `spot range 2 for armour`: mode and
    #                                              `for` beat a mode line alone, however long
    assert sight.dice == "d6"


def test_resources_awards_and_victory(rules):
    cp, vp = rules.resources["cp"], rules.resources["vp"]
    assert cp.floor == 1 and not cp.carries_over and vp.never_lost and vp.open and vp.floor == 0
    hold = rules.awards["hold"]
    assert hold.holds_cell(frozenset({"swamp"})) and not hold.holds_cell(frozenset({"swamp", "vehicle"}))
    assert hold.points_for(frozenset({"swamp"})) == 5 and hold.points_for(frozenset({"clear"})) == 2
    assert "extra" not in rules.awards     # `requires option dry_season`, which is off
    victory = rules.victory
    assert victory.resource == "vp" and not victory.by_total
    assert victory.sudden_death_lead == 9 and victory.level("win").shown == "Win"
    pool = rules.boxes["pool"]
    assert pool.shows_draws_of("red") and not pool.shows_draws_of("blue") and pool.unplaced_to == "pool"


def test_compiled_rules_travel_to_worker_processes(rules):
    """Parallel studies share compiled rules between processes: they pickle, and come back equal."""
    import pickle

    copy = pickle.loads(pickle.dumps(rules))
    assert copy.unit_types == rules.unit_types and copy.actions["buy"].price(None, 1968).amount == 3
    assert [s.line_of for s in copy.stackings] == [s.line_of for s in rules.stackings]
