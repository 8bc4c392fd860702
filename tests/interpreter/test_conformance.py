"""Conformance: every shipped scenario plays to the end, and the invariants hold after every step.

OpenSpiel's ``random_sim_test`` for each scenario: seeded random games and greedy-versus-random
games (greedy on each side in turn) — 200 and 50 for the small tactical scenarios, 100 and 20
for the operational ones (whose games are much longer) — as shipped and, for a rulebook with
optional rules, again with every one of them on.  After every step:

- every unit is in exactly one place, and that place is a map cell or a holding area (a
  rulebook box, the turn track, eliminated, off the map);
- no cell holds units (markers aside) of two sides when the rulebook forbids enemy cells, and
  none outside a battle when a phase ends in a game of operations;
- every unit on the map stands where its type may be (its side's ``never enters`` included);
- resources stay within their declared minimum and cap;
- every stacking limit ``checked always`` holds (a move stopped short, by a hidden booby trap
  say, may not leave a stack over it);
and at the end of every phase, every stacking limit holds.

``FAST=1`` plays fewer games for a quick local run; CI plays them all.
"""

import os
from pathlib import Path

import pytest

from warbook.interpreter.agents import GreedyAgent, RandomAgent
from warbook.interpreter.game import Game
from warbook.interpreter.costs import cost_table
from warbook.interpreter.stacking import enemy_cells_forbidden, problem, stack_rules
from warbook.interpreter.rng import choice_rng
from warbook.interpreter.scenario import load_scenario
from warbook.interpreter.rules import ELIMINATED
from warbook.interpreter.state import OFFMAP

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))
FAST = os.environ.get("FAST") == "1"
def games(scenario, kind: str) -> int:
    """How many games of a kind to play: operational scenarios (Sea Lords) play fewer, longer games."""
    long = Path(scenario.path).stem.startswith("sea_lords")
    # Bounded by count so the whole CI run stays under 20 minutes on 2 cores (Sea Lords at 100 and
    # 20 took 21 minutes: a Zumwalt random game is about 3 s).
    full = {"random": 40, "greedy": 10, "pair": 2} if long else {"random": 200, "greedy": 50, "pair": 5}
    fast = {"random": 6, "greedy": 2, "pair": 1} if long else {"random": 20, "greedy": 4, "pair": 2}
    return (fast if FAST else full)[kind]


class Facts:
    """What the invariants need from a game's rules, read once per game."""

    def __init__(self, game: Game):
        rules = game.ctx.rules
        self.boxes = {d.name for d in game.scenario.rulebook.of_kind("box")}
        self.units = {name for name, t in rules.unit_types.items() if t.kind == "unit"}
        self.alternating = any(d.has("alternate") for d in rules.rulebook.walk() if d.kind == "phase")
        self.forbidding = enemy_cells_forbidden(rules) is not None
        self.stacking = (*stack_rules(rules), *(s for s in rules.stackings if s.checked == "end"))
        self.always = tuple(s for s in rules.stackings if s.checked == "always")
        self.limits = []
        for side, name, _ in game.state.resources:
            decl = game.scenario.rulebook.get("resource", name)
            floor, cap = decl.first("minimum"), decl.first("cap")
            self.limits.append((side, name, floor.get("value") if floor else None, cap.get("value") if cap else None))


def check_invariants(game: Game, phase_ended: bool) -> None:
    state, board = game.state, game.ctx.board
    rules = game.ctx.rules  # the rules the game is played with: options chosen at set-up included
    facts = getattr(game, "_facts", None)
    if facts is None:
        facts = game._facts = Facts(game)
    ids = [u.id for u in state.units]
    assert len(ids) == len(set(ids)), "a unit is in two places"
    cells: dict[str, list] = {}
    for unit in state.units:
        where = unit.location
        if where in board.graph:
            cells.setdefault(where, []).append(unit)
            if unit.type in facts.units:
                assert where in cost_table(rules, board, unit.type, state.turn).cost, \
                    f"{unit.id} ({unit.type}) stands in {where}, where its type may not be"
        else:
            assert (where in (ELIMINATED, OFFMAP) or where in facts.boxes
                    or (where.startswith("turn_track:") and where.split(":", 1)[1].isdigit())), \
                f"{unit.id} is nowhere: {where!r}"
    operation = game.ctx.operation
    if facts.forbidding or facts.alternating:
        for cell, here in cells.items():
            sides = {u.side for u in here if u.type in facts.units}
            if len(sides) < 2:
                continue
            # Games of operations (Sea Lords 11.8): enemy units share a cell only during its battle.
            assert facts.alternating and operation is not None and operation.cell == cell, \
                f"units of {sorted(sides)} share {cell} on turn {state.turn} ({state.phase})"
    for side, name, floor, cap in facts.limits:
        value = state.resource(side, name)
        assert floor is None or value >= floor, f"{side} {name} below minimum"
        assert cap is None or value <= cap, f"{side} {name} above cap"
    stacking = facts.stacking if phase_ended else facts.always
    if stacking:
        when = f"at the end of {state.phase}" if phase_ended else f"in {state.phase} (checked always)"
        # A unit the enemy may fire at as it enters a cell (WATCH) is walking its path: it passes
        # through the friendly stack there ("Units may move through friendly units"), not into it.
        decision = game.decision
        passing = {o.args[1] for o in decision.options if o.kind == "watch-fire"} if decision else set()
        for cell, here in cells.items():
            if len(here) < 2:
                continue  # one counter breaks no limit (every limit is at least 1)
            for side in {u.side for u in here}:
                together = [u for u in here if u.side == side and u.id not in passing]
                for rule in stacking:
                    assert problem(rule, together, together) is None, \
                        f"{side} over-stacked in {cell} {when} on turn {state.turn}"


def play_checked(scenario, seed: int, agents_for) -> Game:
    game = Game.new(scenario, seed=seed)
    agents = agents_for(game)
    check_invariants(game, phase_ended=True)
    steps = 0
    while not game.is_over():
        phase = (game.state.turn, game.state.phase)
        side = game.current_player()
        game.apply(agents[side].choose(game.observe(side), game.decision))
        check_invariants(game, phase_ended=(game.state.turn, game.state.phase) != phase)
        steps += 1
        assert steps < 20_000, "a game that does not end"
    check_invariants(game, phase_ended=True)
    assert game.result() is not None and "level" in game.result()
    return game


def _variants() -> list:
    """Each scenario as shipped and, where its rulebook declares optional rules, with every one of
    them on (the players' agreement, ``Scenario.agree``): rules are played with and without them."""
    out = []
    for path in SCENARIOS:
        out.append(pytest.param((path, False), id=path.stem))
        if load_scenario(path).rulebook.of_kind("option"):
            out.append(pytest.param((path, True), id=f"{path.stem}-options-on"))
    return out


@pytest.fixture(scope="module", params=_variants())
def scenario(request):
    path, options_on = request.param
    scenario = load_scenario(path)
    if options_on:
        scenario = scenario.agree({d.name: True for d in scenario.rulebook.of_kind("option")})
        assert scenario.rulebook.of_kind("option") and all(
            d.first("default").has("on") for d in scenario.rulebook.of_kind("option"))
    return scenario


def test_random_games_play_to_the_end(scenario):
    results = set()
    for seed in range(games(scenario, "random")):
        game = play_checked(scenario, seed, lambda g: {s: RandomAgent(choice_rng(seed, s)) for s in g.ctx.rules.sides})
        results.add(game.result()["level"])
    assert results, "no game finished"


def test_greedy_against_random_plays_to_the_end(scenario):
    sides = scenario.player_order
    for n in range(games(scenario, "greedy")):
        seed = 1000 + n
        greedy_side = sides[n % len(sides)]

        def agents(game, seed=seed, greedy_side=greedy_side):
            return {s: GreedyAgent(choice_rng(seed, s), game) if s == greedy_side else RandomAgent(choice_rng(seed, s))
                    for s in game.ctx.rules.sides}

        play_checked(scenario, seed, agents)


def test_greedy_against_greedy_plays_to_the_end(scenario):
    for seed in range(games(scenario, "pair")):
        play_checked(scenario, 2000 + seed,
                     lambda game, seed=seed: {s: GreedyAgent(choice_rng(seed, s), game) for s in game.ctx.rules.sides})


def test_a_limit_checked_always_is_checked_after_every_step():
    """Five allied units on one hex, where ``stacks`` allows 4 ``checked always``, fail the check
    in the middle of a phase as well as at its end (issue 17 item 5a: the check was phase-end only)."""
    from attrs import evolve

    game = Game.new(ROOT / "scenarios" / "klicks_firebase_night.toml", seed=0)
    infantry = sorted(u for u in game.state.units if u.side == "allies" and u.type in ("us_marines", "arvn"))[:5]
    assert len(infantry) == 5
    game.ctx.state = game.state.with_units([evolve(u, location="1106") for u in infantry])
    with pytest.raises(AssertionError, match="over-stacked in 1106 in .* \\(checked always\\)"):
        check_invariants(game, phase_ended=False)
