"""Play on the growth benchmark's tiled Skirmish: the options kept between decisions are the ones
read afresh (issue 18 item 2 keeps answers while what they depend on is unchanged)."""

from __future__ import annotations

import random

from benchmarks.growth import BORDER, tiled
from warbook.interpreter.game import Game
from warbook.interpreter.procedures.orders import may_take
from warbook.interpreter.scenario import load_scenario


def _fresh_declare_options(game: Game, side: str, mode_name: str) -> list[str]:
    """The ``declare`` options read from the state as it is: every unit of ``side`` that may go
    on the mode's orders now, by id, then ``done``."""
    ctx = game.ctx
    mode = ctx.rules.mode(mode_name)
    ids = sorted(u.id for u in ctx.state.units if u.side == side and u.on_map and may_take(ctx, mode, u))
    return [f"declare {uid} {mode_name}" for uid in ids] + ["done"]


def test_declaring_orders_offers_exactly_the_units_still_without_orders(tmp_path):
    scenario = load_scenario(tiled(tmp_path, 4, 2, 8))
    checked = declared = 0
    for seed in range(3):
        game, rng = Game.new(scenario, seed), random.Random(seed)
        while not game.is_over():
            options = game.legal_actions()
            pending = game.decision
            if pending.kind.startswith("declare "):
                mode = pending.kind.removeprefix("declare ")
                assert [str(a) for a in options] == _fresh_declare_options(game, pending.side, mode)
                checked += 1
                # Declare most of the time, so that long declarations (the kept options) are played.
                action = options[rng.randrange(len(options) - 1)] if rng.random() < 0.9 else options[-1]
                declared += action.kind == "declare"
            else:
                action = options[rng.randrange(len(options))]
            game.apply(action)
    assert declared >= 20 and checked > declared


def _tile(cell: str) -> tuple[int, int]:
    """Which tile of the growth map a cell is in (tiles of 8 + 2 by 6 + 2 cells)."""
    return (int(cell[:2]) - 1) // (8 + BORDER), (int(cell[2:]) - 1) // (6 + BORDER)


def test_units_stay_in_their_own_tile_and_fight_only_there(tmp_path):
    """The lake border parts the tiles: no unit ever stands in another tile or on the border, and
    every attack is made on a cell of the attackers' own tile (the 8x game is 8 copies of one)."""
    scenario = load_scenario(tiled(tmp_path, 4, 2, 8))
    attacks = 0
    for seed in range(2):
        game, rng = Game.new(scenario, seed), random.Random(seed)
        home = {u.id: _tile(u.location) for u in game.state.units}
        assert len(set(home.values())) == 8
        while not game.is_over():
            options = game.legal_actions()
            action = options[rng.randrange(len(options))]
            if action.kind == "attack":
                cell, ids = action.args[0], action.args[2:]
                assert {home[i] for i in ids} == {_tile(cell)}
                attacks += 1
            game.apply(action)
            for unit in game.state.units:
                if unit.on_map:
                    assert _tile(unit.location) == home[unit.id], unit
                    assert scenario.board.graph.nodes[unit.location]["terrain"] != "lake"
    assert attacks >= 8
