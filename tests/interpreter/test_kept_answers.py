"""Answers the interpreter keeps between decisions must be those it would work out afresh.

Random Sea Lords games are played with each kept answer checked, at every ask, against the same
question answered from scratch: a cell's one-unit operation costs (kept while the types of the
side's movable counters there are the same), a mixed force's common paths (kept with the situation) and whether a force may
carry one more unit (kept by the counters' types, steps and statuses).  Whether a force may move
(``Force.can_move``, which stops its search early) is checked the same way against its destinations.
"""

from pathlib import Path

import pytest

from warbook.interpreter import carrying, forces
from warbook.interpreter.forces import Force, can_afford
from warbook.interpreter.game import Game
from warbook.interpreter.procedures import operations
from warbook.interpreter.rng import choice_rng
from warbook.interpreter.scenario import load_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def play(scenario, seed: int) -> None:
    game = Game.new(scenario, seed)
    rng = choice_rng(seed, "playout")
    while not game.is_over():
        options = game.legal_actions()
        game.apply(options[rng.randrange(len(options))])


@pytest.mark.parametrize("name, seeds", [("sea_lords_game_warden", (0, 1)), ("sea_lords_tet", (0, 1))])
def test_kept_answers_equal_fresh_ones(monkeypatch, name, seeds):
    asked = {"could operate": [], "common paths": 0, "may carry": [], "can move": []}
    kept_could_operate = operations._could_operate

    def could_operate(ctx, actions, side, cell, airlifters=None):
        kept = kept_could_operate(ctx, actions, side, cell, airlifters)
        costs = operations._operation_costs(ctx, actions, side, cell, ctx.state.units_at(cell),
                                            operations._Designation(ctx, side))
        assert kept == any(can_afford(ctx, side, resource, amount) for resource, amount in costs)
        asked["could operate"].append(kept)
        return kept

    kept_paths = Force._kept_common_paths

    def common_paths(self, sit):
        kept = kept_paths(self, sit)
        assert kept == self._common_paths(sit)
        asked["common paths"] += 1
        return kept

    kept_may_carry = carrying.may_carry

    def may_carry(ctx, force, unit, available, whole=None):
        kept = kept_may_carry(ctx, force, unit, available, whole)
        if forces.is_carried(forces.class_of(ctx, unit)):  # (others may always be added, unkept)
            assert kept == carrying._may_carry(ctx, force, unit, available)
            asked["may carry"].append(kept)
        return kept

    can_move = Force.can_move

    def checked_can_move(self):
        quick = can_move(self)
        movers = self.movers or self.joiners
        fresh = Force(self.ctx, self.units)
        assert quick == bool(movers and fresh._destinations(movers, forces.situation(self.ctx, movers[0].side)))
        asked["can move"].append(quick)
        return quick

    monkeypatch.setattr(operations, "_could_operate", could_operate)
    monkeypatch.setattr(Force, "can_move", checked_can_move)
    monkeypatch.setattr(Force, "_kept_common_paths", common_paths)
    monkeypatch.setattr(carrying, "may_carry", may_carry)
    scenario = load_scenario(SCENARIOS / f"{name}.toml")
    for seed in seeds:
        play(scenario, seed)
    # Each kept answer was asked again and again, and both ways.
    assert {True, False} <= set(asked["could operate"]) and len(asked["could operate"]) > 100
    assert asked["common paths"] > 5
    assert len(asked["can move"]) > 50  # (a Sea Lords force with somewhere to end may always move)
    assert True in asked["may carry"]


def test_forgetting_kept_answers_changes_no_play(monkeypatch):
    """``may_carry`` and ``force_fits`` keep at most so many answers, then forget them all: with
    room for only a few (forgotten again and again), a Zumwalt game, the most carrying one, plays
    out as it does with room for all, and no memo grows past its room."""
    from warbook.interpreter.caches import map_memos

    scenario = load_scenario(SCENARIOS / "sea_lords_zumwalt.toml")

    def played():
        game = Game.new(scenario, 4)
        game.ctx.rules.derived.pop("may carry", None)  # (kept from games before: shared by the rules)
        map_memos(game.ctx.rules, game.ctx.board).force_fits.clear()
        rng = choice_rng(4, "playout")
        biggest = 0
        while not game.is_over():
            options = game.legal_actions()
            game.apply(options[rng.randrange(len(options))])
            ctx = game.ctx
            biggest = max(biggest, len(ctx.rules.derived.get("may carry", {})),
                          len(map_memos(ctx.rules, ctx.board).force_fits))
        return game.log, biggest

    roomy, _ = played()
    monkeypatch.setattr(carrying, "MAY_CARRY_KEPT", 3)
    monkeypatch.setattr(forces, "FORCE_FITS_KEPT", 3)
    tight, biggest = played()
    assert biggest <= 3
    assert tight == roomy


def test_kept_answers_keep_no_counters_for_the_collector_to_walk():
    """What ``may_carry`` and a cell's operation costs keep outlives the game: their keys are of
    strings and numbers alone (untracked by the garbage collector once it has looked at them), and
    they keep no counter of the game alive."""
    import gc

    from warbook.interpreter.caches import map_memos
    from warbook.interpreter.state import Unit

    scenario = load_scenario(SCENARIOS / "sea_lords_zumwalt.toml")
    game = Game.new(scenario, 4)
    rng = choice_rng(4, "playout")
    while not game.is_over():
        options = game.legal_actions()
        game.apply(options[rng.randrange(len(options))])
    for _ in range(4):  # (a collection untracks a tuple once what it holds is untracked: one depth a time)
        gc.collect()
    carried = game.ctx.rules.derived["may carry"]
    assert carried and not any(gc.is_tracked(key) for key in carried)
    costs = map_memos(game.ctx.rules, game.ctx.board).could_operate
    assert costs and not any(isinstance(part, Unit) or isinstance(part, tuple) and any(isinstance(u, Unit) for u in part)
                             for value in costs.values() for part in value)
