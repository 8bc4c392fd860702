"""The invariants every game keeps after every step, for the conformance tests and the soak.

- every unit is in exactly one place, and that place is a map cell or a holding area (a
  rulebook box, the turn track, eliminated, off the map);
- no cell holds units (markers aside) of two sides when the rulebook forbids enemy cells, and
  none outside a battle when a phase ends in a game of operations;
- every unit on the map stands where its type may be (its side's ``never enters`` included);
- resources stay within their declared minimum and cap;
- every stacking limit ``checked always`` holds (a move stopped short, by a hidden booby trap
  say, may not leave a stack over it);
- control (``GameState.control``) lists each cell once, in order, only cells the rulebook's
  ``control`` declaration controls, each held by a side; once set-up is over, a cell where real
  units of one side alone stand is held by that side or by none;
and at the end of every phase, every stacking limit holds.
"""

from functools import cache
from pathlib import Path

from warbook.interpreter.control import controlled_cells
from warbook.interpreter.costs import cost_table
from warbook.interpreter.game import Game
from warbook.interpreter.rules import ELIMINATED
from warbook.interpreter.scenario import Scenario, load_scenario
from warbook.interpreter.stacking import enemy_cells_forbidden, problem, stack_rules
from warbook.interpreter.state import OFFMAP


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
    if state.control or rules.control is not None:
        held = [cell for cell, _ in state.control]
        assert held == sorted(set(held)), "control lists a cell twice or out of order"
        tracked = controlled_cells(rules, board)
        assert all(cell in tracked and side in rules.sides for cell, side in state.control), state.control
        if state.phase != "setup":
            for cell, here in cells.items():
                sides = {u.side for u in here if u.type in facts.units and not u.dummy}
                if cell in tracked and len(sides) == 1:
                    assert state.controller(cell) in (*sides, None), f"{cell} held by {state.controller(cell)}"
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


ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted(ROOT.glob("scenarios/*.toml")) + sorted(
    path for pattern in ("tests/gallery/*/*.toml", "examples/*/*.toml") for path in ROOT.glob(pattern)
    if "[scenario]" in path.read_text(encoding="utf-8"))
"""Every scenario that must play to the end: the shipped ones, each mechanics gallery game
(issue 13: conformance runs over every gallery game too) and each example game."""


@cache
def variants() -> tuple[tuple[Path, bool, str], ...]:
    """Each shipped scenario as shipped and, where its rulebook declares optional rules, with every
    one of them on (the players' agreement, ``Scenario.agree``): ``(path, options on, name)``."""
    out = []
    for path in SCENARIOS:
        out.append((path, False, path.stem))
        if loaded(path).rulebook.of_kind("option"):
            out.append((path, True, f"{path.stem}-options-on"))
    return tuple(out)


@cache
def loaded(path: Path) -> Scenario:
    """A scenario loaded once per test process: collection asks each one for its options and every
    game of it reuses its compiled rules (a ``Scenario`` is frozen; ``Game.new`` never changes it)."""
    return load_scenario(path)


def load_variant(path: Path, options_on: bool) -> Scenario:
    scenario = loaded(path)
    if options_on:
        scenario = scenario.agree({d.name: True for d in scenario.rulebook.of_kind("option")})
        assert scenario.rulebook.of_kind("option") and all(
            d.first("default").has("on") for d in scenario.rulebook.of_kind("option"))
    return scenario

# --- the conformance games, shared with the soak, which plays on where the default run stops ------

GAMES = {"long": {"random": 4, "greedy": 2, "pair": 1}, "short": {"random": 20, "greedy": 4, "pair": 1}}
"""Conformance games of each kind per variant in the default run, bounded so that it stays short
(issue 17 item 16: under ~8 CPU-minutes in all; a greedy agent's game of operations takes seconds).
Every scenario and variant still plays each kind, greedy on each side in turn."""
FAST_GAMES = {"long": {"random": 3, "greedy": 1, "pair": 1}, "short": {"random": 10, "greedy": 2, "pair": 1}}
"""``FAST=1``: fewer, for a quick local run; CI plays ``GAMES``."""
SOAK_CONFORMANCE_GAMES = {"long": {"random": 8, "greedy": 6, "pair": 2}, "short": {"random": 40, "greedy": 20, "pair": 4}}
"""How far the soak goes on with the same numbered conformance games (at least as far as the
default run once went: random 8 and 40, greedy 3 and 10, pair 1 and 2)."""


def length(scenario) -> str:
    """``"long"`` for a game of operations (Sea Lords: a game takes seconds), else ``"short"``."""
    return "long" if Path(scenario.path).stem.startswith("sea_lords") else "short"


def random_agents(seed: int):
    """``agents_for`` of a random game: every side random."""
    from warbook.interpreter.agents import RandomAgent
    from warbook.interpreter.rng import choice_rng

    return lambda game: {s: RandomAgent(choice_rng(seed, s)) for s in game.ctx.rules.sides}


def greedy_against_random(scenario, n: int):
    """``(seed, agents_for)`` of the ``n``-th greedy-against-random game: greedy on each side in turn."""
    from warbook.interpreter.agents import GreedyAgent, RandomAgent
    from warbook.interpreter.rng import choice_rng

    seed, sides = 1000 + n, scenario.player_order
    greedy_side = sides[n % len(sides)]
    return seed, lambda game: {s: GreedyAgent(choice_rng(seed, s), game) if s == greedy_side
                               else RandomAgent(choice_rng(seed, s)) for s in game.ctx.rules.sides}


def greedy_against_greedy(n: int):
    """``(seed, agents_for)`` of the ``n``-th greedy-against-greedy game."""
    from warbook.interpreter.agents import GreedyAgent
    from warbook.interpreter.rng import choice_rng

    return 2000 + n, lambda game: {s: GreedyAgent(choice_rng(n, s), game) for s in game.ctx.rules.sides}
