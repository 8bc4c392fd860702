"""House rules that change the sequence of play: overrides and removes of phases and steps.

An ``override sequence`` that replaces a phase keeps it in its place (a new phase goes at the
end); ``override phase``/``override step`` merge into the phase or step where it stands, and
``remove phase``/``remove step`` delete it wherever it is.  Names that match nothing, or more
than one phase or step, are positioned errors.
"""

import textwrap
from pathlib import Path

import pytest

from warbook.dsl.loader import load_rulebook, load_with_diagnostics
from warbook.dsl.model import Rulebook
from warbook.interpreter.game import Game

BASE = '''
rulebook "Base"
side blue "Blue"
side red "Red"
sequence turn "Turn" {
    phase opening "Opening" {
        side first
        do move force
    }
    phase middle "Middle" {
        mutual
        step prepare "Prepare" {
            do move force
        }
        step act "Act" {
            do move force
        }
    }
    phase closing "Closing" {
        side second
        do return refitted units
    }
}
'''

MINI = Path(__file__).resolve().parents[1] / "interpreter" / "fixtures" / "mini"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def house(tmp_path: Path, text: str, base: str = BASE) -> Path:
    """``house.rules`` extending ``base.rules``: line 1 is the ``extends``, line 2 blank, then ``text``."""
    write(tmp_path, "base.rules", base)
    return write(tmp_path, "house.rules", 'extends "base.rules"\n' + textwrap.dedent(text))


def phases(rb: Rulebook) -> list[str]:
    (sequence,) = rb.of_kind("sequence")
    return [p.name for p in sequence.children]


def steps(rb: Rulebook, phase: str) -> list[str]:
    return [s.name for s in rb.get("phase", phase).children]


def texts(decl, name: str) -> list[str]:
    return [p.text for p in decl.all(name)]


def errors(path: Path) -> list[tuple[str, int, int, str, str | None]]:
    _, diagnostics = load_with_diagnostics(path)
    return [(d.code, d.span.line, d.span.column, d.message, d.hint) for d in diagnostics]


# --- override sequence: a replaced phase keeps its place ---------------------------------


def test_override_sequence_replaces_a_phase_in_its_place_and_appends_a_new_one(tmp_path):
    rb = load_rulebook(house(tmp_path, '''
        override sequence turn {
            phase middle "Middle, house rule" {
                side first
                do move force
            }
            phase extra "Extra" {
                mutual
                do move force
            }
        }
        '''))
    assert phases(rb) == ["opening", "middle", "closing", "extra"]
    middle = rb.get("phase", "middle")
    # Replaced whole: the base's steps and 'mutual' are gone.
    assert middle.label == "Middle, house rule" and steps(rb, "middle") == []
    assert texts(middle, "side") == ["side first"] and not middle.has("mutual")


def test_override_sequence_keeps_the_first_phase_first(tmp_path):
    rb = load_rulebook(house(tmp_path, '''
        override sequence turn {
            phase opening {
                side second
                do return refitted units
            }
        }
        '''))
    assert phases(rb) == ["opening", "middle", "closing"]
    assert texts(rb.get("phase", "opening"), "do") == ["do return refitted units"]


# --- override phase / override step: merged in place -------------------------------------


def test_override_phase_merges_into_the_phase_where_it_stands(tmp_path):
    rb = load_rulebook(house(tmp_path, '''
        override phase closing "Closing, house rule" {
            side first
        }
        '''))
    assert phases(rb) == ["opening", "middle", "closing"]
    closing = rb.get("phase", "closing")
    assert closing.label == "Closing, house rule"
    assert texts(closing, "side") == ["side first"]                    # named: replaced
    assert texts(closing, "do") == ["do return refitted units"]        # not named: kept
    assert closing.span.path.endswith("base.rules")                   # still the base's phase


def test_override_step_merges_into_the_nested_step_where_it_stands(tmp_path):
    rb = load_rulebook(house(tmp_path, '''
        override step prepare "Prepare, house rule" {
            do return refitted units
            optional
        }
        '''))
    assert phases(rb) == ["opening", "middle", "closing"]
    assert steps(rb, "middle") == ["prepare", "act"]
    prepare = rb.get("step", "prepare")
    assert prepare.label == "Prepare, house rule"
    assert texts(prepare, "do") == ["do return refitted units"] and prepare.has("optional")
    assert texts(rb.get("step", "act"), "do") == ["do move force"]


def test_override_phase_replaces_a_nested_step_in_place_and_appends_a_new_one(tmp_path):
    # One file, so the override's lines come after the base's: replacing the last step and
    # adding one, the order of their lines (the order the engine runs them) is the order meant.
    path = write(tmp_path, "one.rules", BASE + '''
override phase middle {
    step act "Act again" {
        do return refitted units
    }
    step wrap_up "Wrap up" {
        do move force
    }
}
''')
    rb, diagnostics = load_with_diagnostics(path)
    assert diagnostics == []
    assert steps(rb, "middle") == ["prepare", "act", "wrap_up"]
    assert rb.get("step", "act").label == "Act again"
    assert texts(rb.get("step", "act"), "do") == ["do return refitted units"]
    assert texts(rb.get("step", "prepare"), "do") == ["do move force"]
    assert rb.get("phase", "middle").has("mutual")


def test_override_phase_that_the_engine_would_run_out_of_order_is_an_error(tmp_path):
    # The base's steps stand on lines 12 and 15 of base.rules; the replaced 'act' on line 4 of
    # house.rules would run before 'prepare' (the engine runs a phase's lines in order).
    path = house(tmp_path, '''
        override phase middle {
            step act {
                do return refitted units
            }
        }
        ''')
    ((code, line, column, message, hint),) = errors(path)
    assert (code, line, column) == ("E313", 3, 1)
    assert "phase 'middle'" in message and "step act, step prepare" in message
    assert "step prepare, step act" in message
    assert hint == "write the whole phase in one place: override sequence turn { phase middle { … } }"


# --- remove phase / remove step ----------------------------------------------------------


def test_remove_phase_and_remove_step_delete_them_wherever_they_are(tmp_path):
    rb = load_rulebook(house(tmp_path, '''
        remove phase opening
        remove step act
        '''))
    assert phases(rb) == ["middle", "closing"]
    assert steps(rb, "middle") == ["prepare"]
    assert rb.get("phase", "opening") is None and rb.get("step", "act") is None


def test_remove_then_override_sequence_adds_the_phase_back_at_the_end(tmp_path):
    rb = load_rulebook(house(tmp_path, '''
        remove phase opening
        override sequence turn {
            phase opening {
                side first
                do move force
            }
        }
        '''))
    assert phases(rb) == ["middle", "closing", "opening"]


# --- names that match nothing, or more than one ------------------------------------------


def test_override_or_remove_of_a_missing_phase_or_step(tmp_path):
    path = house(tmp_path, '''
        override phase midle {
            side first
        }
        remove phase nowhere
        override step prepare_all {
            optional
        }
        remove phase act
        ''')
    assert errors(path) == [
        ("E107", 3, 1, "override of phase 'midle' matches nothing declared before it", "did you mean 'middle'?"),
        ("E108", 6, 1, "remove of phase 'nowhere' matches nothing declared before it",
         "phases declared before it: opening, middle, closing"),
        ("E107", 7, 1, "override of step 'prepare_all' matches nothing declared before it",
         "did you mean 'prepare'?"),
        ("E108", 10, 1, "remove of phase 'act' matches nothing declared before it",
         "'act' is a step: remove step act"),
    ]


def test_override_or_remove_of_an_ambiguous_step(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # positions in hints are shown relative to the working folder
    base = BASE.replace("phase closing \"Closing\" {\n",
                        "phase closing \"Closing\" {\n        step act \"Act again\" {\n"
                        "            do move force\n        }\n")
    path = house(tmp_path, '''
        override step act {
            optional
        }
        remove step act
        ''', base=base)
    # BASE's line 1 is blank: 'step act' stands on line 15 in middle, and on line 20 once
    # inserted as the first line of closing's block (line 19); 'act' starts at column 14 (eight
    # spaces of indent, then 'step ').
    where = "steps called 'act': base.rules:15:14 in phase middle, base.rules:20:14 in phase closing"
    assert errors(path) == [
        ("E107", 3, 1, "override of step 'act' is ambiguous: 2 steps are called 'act'",
         f"{where}; give each its own name, or change one through its phase: "
         "override phase NAME { step act { … } }"),
        ("E108", 6, 1, "remove of step 'act' is ambiguous: 2 steps are called 'act'",
         f"{where}; give each its own name"),
    ]
    # Nothing was changed by either.
    rb, _ = load_with_diagnostics(path)
    assert [s.name for s in rb.get("phase", "closing").children] == ["act"]
    assert not any(s.has("optional") for s in rb.of_kind("step"))


# --- a game runs the phases in the order loaded ------------------------------------------


def _mini_base(tmp_path: Path, sequence: str | None = None) -> None:
    """The mini fixture game's rules in ``tmp_path`` (its sequence named ``turn``, or replaced)."""
    rules = (MINI / "mini.rules").read_text(encoding="utf-8")
    head, _, _ = rules.partition("sequence {")
    assert head != rules
    if sequence is None:
        sequence = "sequence turn" + rules[len(head) + len("sequence"):]
    (tmp_path / "base.rules").write_text(head + textwrap.dedent(sequence), encoding="utf-8")


def _phases_run(game: Game) -> list[tuple[int, str, str | None]]:
    while not game.is_over():
        game.apply(game.legal_actions()[-1])
    return [(e["turn"], e["phase_name"], e["side"]) for e in game.log if e.get("kind") == "phase"]


def test_a_game_runs_a_replaced_phase_in_its_place(tmp_path):
    _mini_base(tmp_path)
    rules = write(tmp_path, "house.rules", '''
        extends "base.rules"
        override sequence turn {
            phase orders "Orders (blue only)" {
                side first
                do declare watch
            }
            phase recount "Recount" {
                mutual
                do score town_held
            }
        }
        ''')
    game = Game.new(rules, MINI / "mini.toml", 1)
    per_turn = [("orders", "blue"), ("scoring", None), ("recount", None)]
    assert _phases_run(game) == [(t, p, s) for t in (1, 2) for p, s in per_turn]


def test_a_game_runs_without_a_removed_phase_and_with_an_overridden_one(tmp_path):
    _mini_base(tmp_path)
    rules = write(tmp_path, "house.rules", '''
        extends "base.rules"
        remove phase scoring
        override phase orders "House orders" {
            text "Declare Watch orders."
        }
        ''')
    game = Game.new(rules, MINI / "mini.toml", 1)
    assert _phases_run(game) == [(t, "orders", s) for t in (1, 2) for s in ("blue", "red")]
    assert {e["text"] for e in game.log if e.get("kind") == "phase"} == {"House orders (blue)", "House orders (red)"}


def test_a_game_runs_an_overridden_step_in_its_place(tmp_path):
    _mini_base(tmp_path, '''
        sequence turn {
            phase orders "Orders" {
                for each side in player order
                step early "Early orders" {
                    do declare watch
                }
                step late "Late orders" {
                    do declare watch
                }
            }
            phase scoring "Scoring" {
                mutual
                do score town_held
            }
        }
        ''')
    rules = write(tmp_path, "house.rules", '''
        extends "base.rules"
        override step early "Early orders, house rule" {
            optional
        }
        remove step late
        ''')
    game = Game.new(rules, MINI / "mini.toml", 1)
    per_turn = [("orders", "blue"), ("early", "blue"), ("orders", "red"), ("early", "red"), ("scoring", None)]
    assert _phases_run(game) == [(t, p, s) for t in (1, 2) for p, s in per_turn]
    texts_run = [e["text"] for e in game.log if e.get("kind") == "phase"]
    assert texts_run[1] == "Early orders, house rule (blue)"


@pytest.mark.parametrize("directive", ["override phase orders {\n    optional\n}\n", "remove phase orders\n"])
def test_a_phase_directive_in_the_base_file_itself(tmp_path, directive):
    """Not only in a house rule: the directives act on phases declared earlier in the same file."""
    _mini_base(tmp_path)
    path = tmp_path / "base.rules"
    path.write_text(path.read_text(encoding="utf-8") + directive, encoding="utf-8")
    rb, diagnostics = load_with_diagnostics(path)
    assert diagnostics == []
    assert phases(rb) == (["orders", "scoring"] if directive.startswith("override") else ["scoring"])
