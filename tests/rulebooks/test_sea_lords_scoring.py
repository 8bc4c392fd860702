"""Sea Lords territorial VP: each side scores its own VP squares once a turn, in its own phase
(issue 14, item 1).

The two phases are run as the rulebook writes them (``first_territorial_vp``, ``side first``;
``second_territorial_vp``, ``side second``; both ``do score com_city com_town fw_base``) on the
shipped map, with a state built by hand: a Communist main force battalion alone in Can Tho (city,
2 VP) and one in Tay Ninh (town, 1 VP), a US infantry battalion alone in Base Area 470 (Communist
base, 3 VP).  No cadre or CI team is on the map, so no square's VP are doubled (16.2, 16.3).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from warbook.interpreter.context import Context
from warbook.interpreter.flow import run_phase
from warbook.interpreter.procedures import load_procedures
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.state import GameState, Unit

ROOT = Path(__file__).resolve().parents[2]
SEED = Path("/work/shared/seeds/000_1665db6584a31974.txt")
FW, COM = "free_world", "communist"
load_procedures()

# The sentences the test follows, verbatim from the source.
QUOTES = (
    # 6.2, the sequence of play
    "VIII. First Player Territorial Victory Point Phase IX. Second Player Territorial Victory Point Phase",
    # 6.7 Territorial Victory Points Phase
    "Check to see if your units have undisputed occupation of VP squares on the map. If so, you "
    "receive the number of VP indicated for them.",
    # VP Table, Communist VP
    "Each city square solely occupied by Communist units.\t2\tScored during each Communist Victory "
    "Check Phase.",
    "Each town square solely occupied by Communist units.\t1\tScored during each Communist Victory "
    "Check Phase. Cambodian towns count as 0.",
    # VP Table, Free World VP
    "Each printed Communist Base square solely occupied by Free World units\t3\tScored during each "
    "Free World Victory Check Phase.",
)

UNITS = (
    Unit("C1", "main_force_bn", COM, "1820"),  # Can Tho: city, South Vietnam
    Unit("C2", "main_force_bn", COM, "2106"),  # Tay Ninh: town, South Vietnam
    Unit("F1", "us_infantry_bn", FW, "2015"),  # Base Area 470 (Plain of Reeds): Communist base
)


def vp_gains(ctx: Context) -> list[tuple[str, str, str]]:
    """(phase, side, new total) of every VP gain logged."""
    return [(e["phase"], e["side"], e["value"]) for e in ctx.events
            if e.get("kind") == "resource" and e.get("resource") == "vp"]


def test_the_quoted_sentences_are_in_the_source():
    if not SEED.is_file():
        pytest.skip(f"the source text is not here: {SEED}")
    seed = SEED.read_text(encoding="utf-8")
    for quote in QUOTES:
        assert quote in seed, quote


@pytest.mark.parametrize("scenario, first, second", [
    ("sea_lords_game_warden.toml", COM, FW),  # 24.2: the Communist player is the first player
    ("sea_lords_zumwalt.toml", FW, COM),      # 26.2: the Free World player is
])
def test_each_side_scores_its_own_squares_once_in_its_own_territorial_phase(scenario, first, second):
    """6.7: "Check to see if your units have undisputed occupation of VP squares on the map. If
    so, you receive the number of VP indicated for them."  The VP Table: cities and towns held
    by Communist units are "Scored during each Communist Victory Check Phase."; Communist bases
    held by Free World units "Scored during each Free World Victory Check Phase."  6.2 gives each
    player one such phase a turn: "VIII. First Player Territorial Victory Point Phase IX.
    Second Player Territorial Victory Point Phase".

    So in one turn the Communist player scores Can Tho and Tay Ninh (2 + 1) once, in his own
    phase, and the Free World player Base Area 470 (3) once, in his; whoever is first.  (Scoring
    every award in both phases gave each side 6 a turn.)"""
    ctx = Context(load_scenario(ROOT / "scenarios" / scenario), seed=0)
    assert tuple(ctx.player_order) == (first, second)
    ctx.state = GameState(turn=1, phase="test", units=tuple(sorted(UNITS)), resources=())
    rulebook = ctx.rulebook
    for name in ("first_territorial_vp", "second_territorial_vp"):
        for _ in run_phase(ctx, rulebook.get("phase", name)):
            raise AssertionError(f"{name} asked for a decision")
    own = {COM: [(COM, "2"), (COM, "3")], FW: [(FW, "3")]}  # city then town; the base
    assert vp_gains(ctx) == [*(("first_territorial_vp", *gain) for gain in own[first]),
                             *(("second_territorial_vp", *gain) for gain in own[second])]
    assert ctx.state.resource(COM, "vp") == 3 and ctx.state.resource(FW, "vp") == 3
