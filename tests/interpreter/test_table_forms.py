"""Tables and combats past their edges, compound cells, and fights of many rounds, played in a
neutral fixture ("Outpost", written below).

Reference: ``above last column use last`` / ``below first column use first`` / ``rolls outside
use nearest row`` (a fight past the table reads its last or first column, or nearest row; unsaid,
the same reading, logged as the engine's), ``combines with +`` (only such results split out of a
compound cell; E224 refuses any other compound) and ``recycle until one side remains`` (a fight
goes on round after round until one side is left; a battle of ``resolve fire`` outlasts its
first round only then).  Expected values are worked out by hand from the tables below.
"""

from fractions import Fraction
from pathlib import Path

import pytest

from driving import do_call, drive
from warbook.interpreter.actions import Action
from warbook.dsl.diagnostics import RulesError
from warbook.dsl.tables import combined_parts, result_parts
from warbook.interpreter import columns
from warbook.interpreter.context import Context
from warbook.interpreter.game import Game
from warbook.interpreter.operation import Operation
from warbook.interpreter.procedures import PROCEDURES, load_procedures
from warbook.interpreter.rules import ELIMINATED
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.state import GameState, Unit

RULES = '''
rulebook "Outpost" {
    players 2
}
side blue "Blue"
side red "Red"
dice d6
factor attack "Attack"
factor defence "Defence"
terrain clear "Clear" {
    cost 1
    defence x1
}
movement foot "Foot" {
    points 2
}
unit scout "Scout" {
    side blue
    movement foot
    attack 1
    defence 1
}
unit brute "Brute" {
    side blue
    movement foot
    attack 9
    defence 9
}
unit picket "Picket" {
    side red
    movement foot
    attack 1
    defence 1
}
result NE "No effect" {
    effect no effect
    worth 0
    combines with +
}
result AE "Attackers eliminated" {
    effect eliminate all attackers
    worth -2
    AE_COMBINES
}
result DE "Defenders eliminated" {
    effect eliminate all defenders
    worth 2
    combines with +
}
table crt "CRT" {
    roll d6
    lookup by odds
    columns 1:1 2:1
    better for roller right
    higher rolls better for roller
    EDGES
    1-2: NE NE
    3-4: AE NE
    5-6: NE DE
}
table fire_table "Fire" {
    roll d6
    lookup by attack
    columns 1+
    1-6: NE
}
combat assault "Assault" {
    table crt
    compare odds
    adjacent
    attack factor attack
    defence factor defence
    ASSAULT
}
combat volley "Volley" {
    table fire_table
    compare total
    attack factor attack
}
combat siege "Siege" {
    table fire_table
    compare total
    attack factor attack
    recycle until one side remains
}
resource vp "Victory points"
victory {
    by vp margin
    level draw 0..0 "Draw"
    level win 1..100 "Victory"
}
sequence {
    phase battle "Battle" {
        mutual
        do fight assault
    }
    SEQUENCE
}
'''

FIRE_STEPS = '''phase operations "Operations" {
        mutual
        alternate operation until all pass
        step operation "Operation" {
            step volley_round "Volley" {
                do resolve fire with volley
            }
            step siege_round "Siege" {
                repeat until only one side remains in the contested square
                do resolve fire with siege
            }
        }
    }'''

SAID = ("above last column use last\n    below first column use first\n"
        "    rolls outside use nearest row")

MAP = '''[map]
name = "Outpost"
grid = "hex"
width = 4
height = 3
rows = ["....", "....", "...."]
[map.legend]
"." = "clear"
'''

SCENARIO = '''[scenario]
name = "Outpost"
rules = "outpost.rules"
map = "map.toml"
turns = 1
player_order = ["blue", "red"]

[[setup]]
side = "blue"
unit = "scout"
count = 1
at = "0202"

[[setup]]
side = "red"
unit = "picket"
count = 1
at = "0302"
'''


def write(folder: Path, *, edges: str = "", assault: str = "", ae_combines: str = "combines with +",
          sequence: str = "") -> Path:
    """The Outpost rulebook with its placeholders filled, and its scenario; returns the scenario."""
    text = (RULES.replace("EDGES", edges).replace("ASSAULT", assault).replace("AE_COMBINES", ae_combines)
            .replace("SEQUENCE", sequence))
    (folder / "outpost.rules").write_text(text, encoding="utf-8")
    (folder / "map.toml").write_text(MAP, encoding="utf-8")
    (folder / "outpost.toml").write_text(SCENARIO, encoding="utf-8")
    return folder / "outpost.toml"


def make(path: Path, *units: Unit) -> Context:
    load_procedures()
    ctx = Context(load_scenario(path), seed=0)
    ctx.state = GameState(turn=1, phase="battle", units=tuple(sorted(units)))
    return ctx


def do_line(ctx, procedure: str, combat_name: str | None = None):
    return do_call(ctx.rules, procedure, *([combat_name] if combat_name else []))


def fight(ctx, attack: str) -> None:
    """Run ``do fight assault``: blue makes ``attack``, then every side is done."""
    flow = PROCEDURES["fight"](ctx, do_line(ctx, "fight"))
    answers = [Action.parse(attack)]
    try:
        decision = next(flow)
        while True:
            answer = answers.pop(0) if answers else Action("done")
            assert answer in decision.options, (str(answer), [str(o) for o in decision.options])
            decision = flow.send(answer)
    except StopIteration:
        pass


def said(ctx) -> list[str]:
    return [e["text"] for e in ctx.events if e["type"] == "event"]


def notes(ctx) -> list[str]:
    return [t for t in said(ctx) if "the engine's reading" in t]


# --- past the columns ---------------------------------------------------------------------------


def test_odds_past_the_columns_round_to_whole_odds_as_the_table_rounds(tmp_path):
    """Columns 1:1 2:1.  5 to 2 (2.5:1): 2:1 for the defender, 3:1 (above) for the attacker;
    2 to 3 (1:1.5): 1:2 (below) for the defender, 1:1 for the attacker; 1 to 0: above."""
    view = make(write(tmp_path)).rules.tables["crt"]
    edge = columns.odds_edge
    assert edge(view, Fraction(5), Fraction(2), "for defender") is None
    assert edge(view, Fraction(5), Fraction(2), "for attacker") == "above"
    assert edge(view, Fraction(2), Fraction(3), "for defender") == "below"
    assert edge(view, Fraction(2), Fraction(3), "for attacker") is None
    assert edge(view, Fraction(1), Fraction(0), "down") == "above"
    assert edge(view, Fraction(0), Fraction(3), "down") == "below"  # no strength at all (attack … with 0)


def test_odds_above_the_last_column_use_it_and_the_log_says_the_table_does_not_say(tmp_path, dice):
    """Brute (attack 9) against a picket (defence 1): 9:1, above 2:1; the 2:1 column, a 5: DE."""
    ctx = make(write(tmp_path), Unit("B1", "brute", "blue", "0202"), Unit("R1", "picket", "red", "0302"))
    dice += [(6, 5)]
    fight(ctx, "attack 0302 with B1")
    assert ctx.state.unit("R1").location == ELIMINATED
    assert notes(ctx) == ["attack on 0302: table 'crt' does not say what is read above its last column; "
                          "column 2:1 is used (the engine's reading)"]


def test_a_table_that_says_so_uses_its_last_column_as_its_own_rule(tmp_path, dice):
    ctx = make(write(tmp_path, edges=SAID), Unit("B1", "brute", "blue", "0202"), Unit("R1", "picket", "red", "0302"))
    assert ctx.rules.tables["crt"].above_last.text == "above last column use last"
    dice += [(6, 5)]
    fight(ctx, "attack 0302 with B1")
    assert ctx.state.unit("R1").location == ELIMINATED
    assert notes(ctx) == []


def test_odds_below_the_first_column_use_it(tmp_path, dice):
    """A scout (attack 1) against two pickets (defence 2): 1:2, below 1:1; the 1:1 column, a 3: AE."""
    ctx = make(write(tmp_path), Unit("B1", "scout", "blue", "0202"), Unit("R1", "picket", "red", "0302"),
               Unit("R2", "picket", "red", "0302"))
    dice += [(6, 3)]
    fight(ctx, "attack 0302 with B1")
    assert ctx.state.unit("B1").location == ELIMINATED
    assert notes(ctx) == ["attack on 0302: table 'crt' does not say what is read below its first column; "
                          "column 1:1 is used (the engine's reading)"]
    ctx = make(write(tmp_path, edges=SAID), Unit("B1", "scout", "blue", "0202"), Unit("R1", "picket", "red", "0302"),
               Unit("R2", "picket", "red", "0302"))
    assert ctx.rules.tables["crt"].below_first is not None
    dice += [(6, 3)]
    fight(ctx, "attack 0302 with B1")
    assert ctx.state.unit("B1").location == ELIMINATED and notes(ctx) == []  # the table's own rule


# --- past the rows --------------------------------------------------------------------------------


def test_a_modified_roll_past_the_rows_reads_the_nearest_row(tmp_path, dice):
    """``roll modifier +2``: a 6 is 8, past row 5-6; read as 5-6 (at 1:1, NE), the log saying so."""
    ctx = make(write(tmp_path, assault="roll modifier +2"), Unit("B1", "scout", "blue", "0202"),
               Unit("R1", "picket", "red", "0302"))
    dice += [(6, 6)]
    fight(ctx, "attack 0302 with B1")
    assert any("rolled 6 modified to 8, row 5-6: NE" in t for t in said(ctx))
    assert notes(ctx) == ["attack on 0302: table 'crt' does not say what is read for a roll past its rows; "
                          "row 5-6 is used (the engine's reading)"]


def test_rolls_outside_use_nearest_row_makes_the_reading_the_tables(tmp_path, dice):
    ctx = make(write(tmp_path, edges=SAID, assault="roll modifier +2"), Unit("B1", "scout", "blue", "0202"),
               Unit("R1", "picket", "red", "0302"))
    assert ctx.rules.tables["crt"].rolls_nearest is not None
    dice += [(6, 6)]
    fight(ctx, "attack 0302 with B1")
    assert notes(ctx) == []


# --- compound cells --------------------------------------------------------------------------------


def test_only_results_that_combine_split_out_of_a_compound_cell(tmp_path):
    rulebook = make(write(tmp_path, ae_combines="")).rulebook
    assert [d.name for d in combined_parts(rulebook, "DE+NE")] == ["DE", "NE"]
    assert [d.name for d in result_parts(rulebook, "DE+AE")] == ["DE", "AE"]  # as written
    assert combined_parts(rulebook, "DE+AE") is None  # AE does not combine
    assert [d.name for d in combined_parts(rulebook, "AE")] == ["AE"]  # alone, any result


def test_a_compound_cell_applies_parts_that_combine_and_one_that_does_not_is_refused(tmp_path, dice):
    """At 2:1 the 3-4 cell made DE+NE: a 3 eliminates the picket (DE), then NE.  Made DE+AE, with AE
    not saying it combines, the rulebook is refused before play (E224)."""
    path = write(tmp_path, ae_combines="")
    rules = tmp_path / "outpost.rules"
    text = rules.read_text()
    rules.write_text(text.replace("3-4: AE NE", "3-4: AE DE+NE"))
    ctx = make(path, Unit("B1", "brute", "blue", "0202"), Unit("R1", "picket", "red", "0302"))
    dice += [(6, 3)]
    fight(ctx, "attack 0302 with B1")
    assert ctx.state.unit("R1").location == ELIMINATED
    rules.write_text(text.replace("3-4: AE NE", "3-4: AE DE+AE"))
    with pytest.raises(RulesError) as caught:
        Game.new(path, seed=1)
    assert [d.code for d in caught.value.diagnostics] == ["E224"]


# --- fights of many rounds ----------------------------------------------------------------------------


def test_a_recycling_fight_goes_on_until_the_defenders_are_gone(tmp_path, dice):
    """9:1 reads 2:1.  Without recycle one roll, 1 (NE), and the picket stays.  With it: rolls 1 (NE),
    3 (NE), 5 (DE): three rounds, then no picket is left."""
    units = Unit("B1", "brute", "blue", "0202"), Unit("R1", "picket", "red", "0302")
    ctx = make(write(tmp_path, edges=SAID), *units)
    assert ctx.rules.combats["assault"].recycle is None
    dice += [(6, 1)]
    fight(ctx, "attack 0302 with B1")
    assert ctx.state.unit("R1").location == "0302"
    ctx = make(write(tmp_path, edges=SAID, assault="recycle until one side remains"), *units)
    assert ctx.rules.combats["assault"].recycle is not None
    dice += [(6, 1), (6, 3), (6, 5)]
    fight(ctx, "attack 0302 with B1")
    assert ctx.state.unit("R1").location == ELIMINATED
    assert [t for t in said(ctx) if "round" in t] == [
        "Assault: both sides remain in the fight for 0302, round 2",
        "Assault: both sides remain in the fight for 0302, round 3"]


def test_a_recycling_fight_ends_when_the_attackers_are_gone(tmp_path, dice):
    """1:1: rolls 1 (NE), then 3 (AE): the scout is eliminated and the fight is over."""
    ctx = make(write(tmp_path, edges=SAID, assault="recycle until one side remains"),
               Unit("B1", "scout", "blue", "0202"), Unit("R1", "picket", "red", "0302"))
    dice += [(6, 1), (6, 3)]
    fight(ctx, "attack 0302 with B1")
    assert ctx.state.unit("B1").location == ELIMINATED
    assert ctx.state.unit("R1").location == "0302"


def battle(tmp_path, combat_name: str) -> Context:
    ctx = make(write(tmp_path, edges=SAID, sequence=FIRE_STEPS), Unit("B1", "scout", "blue", "0302"),
               Unit("R1", "picket", "red", "0302"))
    ctx.operation = Operation("blue", force=["B1"], cell="0302")
    ctx.acting = "blue"
    drive(PROCEDURES["resolve fire"](ctx, do_line(ctx, "resolve fire", combat_name)))
    return ctx


def test_a_battle_outlasts_its_round_only_when_its_combat_recycles(tmp_path, dice):
    """Both sides fire once (NE, NE) and stay.  Volley does not recycle: the battle is over; siege
    does: it goes on, for the step's repeat to fight the next round."""
    dice += [(6, 2), (6, 2)]
    ctx = battle(tmp_path, "volley")
    assert ctx.operation.ended
    assert "Volley is one round: it does not recycle until one side remains" in said(ctx)
    dice += [(6, 2), (6, 2)]
    assert not battle(tmp_path, "siege").operation.ended


# --- the shipped tables keep their readings ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["sea_lords", "several_klicks"])
def test_the_shipped_crts_say_what_a_fight_past_them_reads(name):
    """Both CRTs say all three (with gaps: neither source does); Sea Lords' fire recycles (11.8)."""
    from warbook.dsl import load_rulebook
    from warbook.dsl.rulebook_paths import find_rulebook
    from warbook.dsl.tables import TableView
    from warbook.interpreter.rules import Rules

    rulebook = load_rulebook(find_rulebook(name))
    view = TableView.from_declaration(rulebook.get("table", "crt"))
    assert all(view.says_off_table(edge) is not None for edge in ("above", "below", "rows"))
    recycling = {c.name for c in Rules(rulebook).combats.values() if c.recycle is not None}
    assert recycling == ({"fire_combat"} if name == "sea_lords" else set())
