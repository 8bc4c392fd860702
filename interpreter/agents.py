"""Agents: who answers a ``Decision`` — a random player, a one-ply greedy one, a person, a script.

An agent is one method (OpenSpiel's ``Bot``)::

    class Agent(Protocol):
        def choose(self, observation: dict, decision: Decision) -> Action: ...

It sees only ``Game.observe(side)`` — its own units in full, enemy counters
face down as ``type: None`` — never the game state, so hidden information
stays hidden (DESIGN: "hidden info respected").  Every random choice comes
from an injected ``random.Random``; the command line seeds it from the game
seed with ``rng.choice_rng(seed, purpose)``, a stream apart from the dice, so
the same seed and agents give the same game and an agent never shifts a roll.

``iter_play(game, agents)`` runs a game to the end with one agent per side and
yields each log entry as it happens; the command line and the examples use it.

>>> from warbook.interpreter.actions import Action, Decision
>>> import random
>>> RandomAgent(random.Random(1)).choose({}, Decision("blue", "demo", "pick", (Action("a"), Action("b"))))
Action(kind='a', args=())

Limits:

- ``GreedyAgent`` looks one choice ahead and no further: it scores each option
  on its own (see its docstring) and cannot plan a sequence of moves.
- Against face-down counters it guesses their types from the scenario's
  set-up counts (public: both players know the order of battle); it does not
  track what earlier combat revealed.

A person at a terminal answers through ``interpreter.human.HumanAgent``.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path
from typing import Iterable, Iterator, Mapping, Protocol, Sequence

from ..dsl.ast import Span
from ..dsl.diagnostics import WarbookError, diagnostic
from ..dsl.sources import SourceError, read_source
from .actions import Action, Decision, parse_choice


ATTACK_VERBS = frozenset({"attack", "assault", "fire", "watch-fire", "bombard", "shoot"})
"""Action kinds the greedy agent scores as combat: the verbs the engine's combat and fire procedures
use.  An action whose kind is the name of a rulebook ``combat`` is scored the same way."""

LOSS_VERBS = frozenset({"lose", "eliminate", "excess"})
"""Action kinds that pick a unit to lose (or to send off the map over a stacking limit): greedy
gives up the one with the smallest factors."""

RESTORE_VERBS = frozenset({"restore", "rebuild"})
"""Action kinds that give a step back to an own counter (``restore``, ``do replace steps``): greedy
restores the one with the largest factors."""

ORIGIN_VERBS = frozenset({"operate", "react", "strike"})
"""Action kinds that name the cell a force is formed in, not where it goes: greedy scores them 0,
like passing, and judges the move when it is offered.  A strike by support markers alone names its
target, but one ply cannot weigh its price against an operation's, so it scores 0 too (scored
as a cell, it would win every time and spend every point on strikes)."""

ADJACENT_ENEMY = Fraction(1)
"""Greedy's bonus for a cell next to an enemy counter (seen or face down)."""

PER_CELL_CLOSER = Fraction(1, 10)
"""Greedy's bonus for each cell nearer to the nearest objective or enemy counter."""

ON_MAP = Fraction(1, 10)
"""What greedy counts a unit on the map worth beyond its cell's value when it weighs an exit: an
exit that scores nothing is never taken over staying."""

EXCHANGE_WEIGHT = Fraction(1, 100)
"""How much greedy weighs each point of strength an attack is expected to take from either side
(``interpreter.exchange``) beside the rulebook's ``worth`` of its results: enough to prefer, between
attacks the worth rates alike, the one that risks less of its own side (supporting units are immune)
and takes more of the enemy's, and to rate attacks whose results carry no ``worth``."""

HIDDEN_GUESSES = 64
"""Greedy enumerates at most this many type assignments for face-down defenders; beyond that it assumes
each remaining one is the most common type."""


class Agent(Protocol):
    """Answers decisions from what its side may see."""

    def choose(self, observation: dict, decision: Decision) -> Action:
        """One of ``decision.options``."""
        ...


class InputEnded(WarbookError):
    """The person at the terminal closed the input (end of file): the game is abandoned, not broken."""


class ScriptError(WarbookError):
    """A scripted agent's file cannot be read or has run out; ``diagnostic`` says where."""

    def __init__(self, diag):
        self.diagnostic = diag
        super().__init__(str(diag))


# --- choosing from text, as Game.parse_action does ------------------------------------


# --- random ---------------------------------------------------------------------------


class RandomAgent:
    """Chooses uniformly among the legal options (OpenSpiel's ``UniformRandomBot``)."""

    def __init__(self, rng):
        self.rng = rng

    def choose(self, observation: dict, decision: Decision) -> Action:
        return self.rng.choice(decision.options)


# --- greedy ---------------------------------------------------------------------------


class GreedyAgent:
    """One-ply greedy: scores every option and takes the best, breaking ties with its ``rng``.

    Scores, all exact fractions so that play is deterministic:

    - **Combat** (an option whose kind is an attack verb, ``ATTACK_VERBS``, or the name of a
      ``combat`` declaration): the expected ``worth`` of the rulebook's own results, from
      ``interpreter.combat.expected_worth`` — attackers are the option's own units (or, when it
      names none, every own unit next to the target), defenders the enemy units it names or that
      stand on the cells it names.  Face-down defenders are guessed
      from the scenario's set-up counts.  Units of the option not next to the hexes attacked
      support it from range (``supporting fire from range``): their fire counts, no result touches
      them.  Plus ``EXCHANGE_WEIGHT`` times the strength the attack is expected to take from the
      enemy less what it takes from the attackers, unit by unit (``interpreter.exchange``).
      When the combat module is absent or cannot score the option, it scores 0, so greedy falls
      back to a random choice.
    - **Cells** (any other option naming a map cell: moves, placements): the value of the last cell
      named, minus the value of where the unit stands now.  A cell's value is the points of every
      ``award … on held`` whose ``cells`` it matches (for either side: holding denies the enemy),
      plus the points of every ``award … on controlled`` and one per victory ``control … of`` line
      whose cells it matches, when the side does not control it already (``observation["control"]``),
      plus ``ADJACENT_ENEMY`` if an enemy counter is next to it (or, when no combat is declared
      ``adjacent``, so that units fight where they meet, if an enemy counter is in it), minus
      ``PER_CELL_CLOSER`` per cell to the nearest objective or enemy counter.
    - **Exits** (``exit UNIT NAME`` in ``do move``, ``exit NAME`` for an operation's force): for
      each unit stepping off, what the exit's ``on exited`` awards score for the side (as the
      rulebook's points read for that counter), less what the unit is worth on the map (its cell's
      value, at least 0, plus ``ON_MAP``).
    - **Losses** (``LOSS_VERBS``: which unit to lose, or to lose a step): minus the sum of the
      unit's numeric factors as it shows them (at its step), so the weakest counter goes first.
    - **Restoring** (``RESTORE_VERBS``): plus that sum, so the strongest counter regains a step first.
    - Anything else (orders, ``done``, ``pass``, the cell a force is formed in or a strike's target:
      ``ORIGIN_VERBS``): 0.

    Only ``observation`` and the scenario's public data (rulebook, map, set-up counts) are read;
    the game passed in is used for its ``scenario`` alone, never its state.
    """

    def __init__(self, rng, game):
        self.rng = rng
        self.scenario = game.scenario
        self.rules = self.scenario.rules  # compiled once per scenario, shared by every game of it
        self.board = self.scenario.board
        self._objectives = self._objective_points()
        self._to_control = self._control_points()
        combats = tuple(self.rules.combats.values())
        self._combats = tuple(c.name for c in combats)
        self._combat_titles = tuple((c.name, c.label) for c in combats)
        self._same_cell_combat = bool(combats) and not any(c.adjacent for c in combats)
        self._context = None
        self._valued: tuple[dict | None, dict[str, Fraction], frozenset[str], frozenset[str]] = \
            (None, {}, frozenset(), frozenset())
        """(observation, each cell's value, enemy cells, goals) while one ``choose`` scores its options."""

    def choose(self, observation: dict, decision: Decision) -> Action:
        self._valued = (None, {}, frozenset(), frozenset())  # an observation's values hold for one choice
        scored = [(self.score(observation, decision, option), option) for option in decision.options]
        best = max(score for score, _ in scored)
        return self.rng.choice([option for score, option in scored if score == best])

    # The scoring terms.

    def score(self, observation: dict, decision: Decision, option: Action) -> Fraction:
        """How good ``option`` looks one choice ahead (see the class docstring)."""
        if option.kind in ATTACK_VERBS or option.kind in self._combats:
            return self._combat_score(observation, decision, option)
        if option.kind in LOSS_VERBS:
            return -self._strength(observation, option)
        if option.kind in RESTORE_VERBS:
            return self._strength(observation, option)
        if option.kind in ORIGIN_VERBS:
            return Fraction(0)
        if option.kind == "exit":
            return self._exit_score(observation, option)
        cells = [a for a in option.args if a in self.board.graph]
        if not cells:
            return Fraction(0)
        side = observation.get("side")
        unit = next((u for u in observation.get("units", ()) if u["id"] in option.args and u["side"] == side), None)
        here = unit["location"] if unit and unit["location"] in self.board.graph else None
        value = self.cell_value(observation, cells[-1])
        return value - self.cell_value(observation, here) if here else value

    def _exit_score(self, observation: dict, option: Action) -> Fraction:
        """An ``exit``: for each unit that steps off (the one ``exit UNIT NAME`` names, or the
        operation's force for ``exit NAME``), the points the awards ``on exited`` give its side (less
        those they give another) minus what it is worth on the map: the value of its cell, at
        least 0, plus ``ON_MAP``."""
        from .victory import counter_points, scoring_side

        side = observation.get("side")
        name = option.args[-1]
        rule = next((r for r in self.rules.exits if r.name == name), None)
        ids = set(option.args[:-1]) or set(observation.get("force", ()))
        leaving = [u for u in observation.get("units", ()) if u["id"] in ids and u["side"] == side]
        if rule is None or not leaving:
            return Fraction(0)
        ctx = self._public_context(observation)
        running = frozenset({observation.get("phase", "")})
        total = Fraction(0)
        for seen in leaving:
            unit = _unit(seen, seen["type"], self.rules)
            total -= max(self.cell_value(observation, unit.location), Fraction(0)) + ON_MAP
            if unit.dummy:
                continue  # a dummy that exits is removed and scores nothing
            selectors = self.rules.unit_type(unit.type).selectors
            for award in self.rules.awards.values():
                if award.on == "exited" and award.counts(selectors) and award.scores_in(running):
                    points = counter_points(ctx, award, unit)
                    total += points if scoring_side(self.rules, award, unit) == side else -points
        return total

    def _strength(self, observation: dict, option: Action) -> Fraction:
        """The sum of the numeric factors of the own units an option names (a dummy's count nothing)."""
        side = observation.get("side")
        total = Fraction(0)
        for unit in observation.get("units", ()):
            if unit["id"] in option.args and unit["side"] == side and unit["type"] and not unit.get("dummy"):
                unit_type = self.rules.unit_type(unit["type"])
                values = (unit_type.factor(n, step=unit.get("step", 1)) for n, _ in unit_type.factors)
                total += sum((v for v in values if isinstance(v, Fraction)), Fraction(0))
        return total

    def cell_value(self, observation: dict, cell: str) -> Fraction:
        """What holding ``cell`` is worth to the side observing (the class docstring's **Cells**);
        worked out once per cell while one ``choose`` scores its options (a move decision asks it
        for every cell offered, each against every goal)."""
        seen, values, enemy_cells, goals = self._valued
        if observation is not seen:
            side, held = observation.get("side"), observation.get("control", {})
            enemy_cells = frozenset(u["location"] for u in observation.get("units", ())
                                    if u["side"] != side and u["location"] in self.board.graph)
            goals = enemy_cells | set(self._objectives) | {c for c in self._to_control if held.get(c) != side}
            values = {}
            self._valued = (observation, values, enemy_cells, goals)
        found = values.get(cell)
        if found is None:
            found = values[cell] = self._cell_value(observation, cell, enemy_cells, goals)
        return found

    def _cell_value(self, observation: dict, cell: str, enemy_cells: frozenset[str],
                    goals: frozenset[str]) -> Fraction:
        side = observation.get("side")
        value = self._objectives.get(cell, Fraction(0))
        held = observation.get("control", {})
        if self._to_control and held.get(cell) != side:
            value += self._to_control.get(cell, Fraction(0))
        if self._same_cell_combat:
            if cell in enemy_cells:  # where the enemy is, the force fights (a combat not ``adjacent``)
                value += ADJACENT_ENEMY
        elif enemy_cells & set(self.board.neighbours(cell)):
            value += ADJACENT_ENEMY
        if goals:
            value -= PER_CELL_CLOSER * min(self.board.distance(cell, g) for g in goals)
        return value

    def _objective_points(self) -> dict[str, Fraction]:
        """Cells named by ``award … on held``, with the points they score per turn."""
        points: dict[str, Fraction] = {}
        for award in self.rules.awards.values():
            if award.on != "held" or award.cells is None:
                continue
            wanted = set(award.cells)
            value = sum((Fraction(line.value) for line in award.points if not line.who), Fraction(0))
            for cell in self.board.cells:
                selectors = self.rules.cell_selectors(self.board.terrain(cell), self.board.tags(cell))
                if wanted & selectors or self.board.graph.nodes[cell].get("place") in wanted:
                    points[cell] = points.get(cell, Fraction(0)) + value
        return points

    def _control_points(self) -> dict[str, Fraction]:
        """Cells worth controlling: those ``award … on controlled`` names (its points) and those a
        victory ``control … of`` line names (1 each)."""
        from .control import controlled_cells, named_cells

        points: dict[str, Fraction] = {}
        if self.rules.control is None:
            return points
        tracked, victory = controlled_cells(self.rules, self.board), self.rules.victory
        wanted = [(a.cells, sum((Fraction(line.value) for line in a.points if not line.who), Fraction(0)))
                  for a in self.rules.awards.values() if a.on == "controlled" and a.cells is not None]
        wanted += [(line.where, Fraction(1)) for line in (victory.by_control if victory is not None else ())]
        for names, value in wanted:
            for cell in named_cells(self.rules, self.board, names) & tracked:
                points[cell] = points.get(cell, Fraction(0)) + value
        return points

    def _combat_score(self, observation: dict, decision: Decision, option: Action) -> Fraction:
        try:
            from .combat import expected_worth, roll_results
            from .exchange import expected_exchange
            from .procedures.range_support import split_support
        except ImportError:
            return Fraction(0)
        side = observation.get("side")
        units = {u["id"]: u for u in observation.get("units", ())}
        attackers = [units[a] for a in option.args if a in units and units[a]["side"] == side]
        named = [units[a] for a in option.args if a in units and units[a]["side"] != side]
        cells = {a for a in option.args if a in self.board.graph}
        defenders = named or [u for u in units.values() if u["side"] != side and u["location"] in cells]
        combat = self._combat_for(decision, option)
        if not defenders or combat is None:
            return Fraction(0)
        if not attackers:  # the option names only its target: count every own unit beside it
            around = set(self.board.neighbours(defenders[0]["location"])) \
                if defenders[0]["location"] in self.board.graph else set()
            attackers = [u for u in units.values() if u["side"] == side and u["location"] in around]
        ctx = self._public_context(observation)
        rule = self.rules.combats[combat]
        hexes = sorted({d["location"] for d in defenders if d["location"] in self.board.graph})
        mine = [_unit(a, a["type"], self.rules) for a in attackers]
        total, weight = Fraction(0), 0
        for guess, odds in self._guesses(defenders):
            ctx.state = _state_from(observation, guess, self.rules)
            assault, support = split_support(ctx, rule, hexes, mine) if hexes else (mine, [])
            against = [_unit(d, guess[d["id"]], self.rules) for d in defenders]
            try:
                rolls = roll_results(ctx, combat, assault, against, support=support)
                worth = expected_worth(ctx, combat, assault, against, support=support, rolls=rolls)
                worth += EXCHANGE_WEIGHT * expected_exchange(ctx, combat, assault, against, rolls=rolls)
            except (KeyError, ValueError, NotImplementedError, ZeroDivisionError):  # a combat it cannot score
                return Fraction(0)
            total += Fraction(worth) * odds
            weight += odds
        return total / weight if weight else Fraction(0)

    def _combat_for(self, decision: Decision, option: Action) -> str | None:
        """The ``combat`` declaration an option refers to: named (or titled) in it or in the decision,
        or the only one."""
        words = {option.kind, *option.args, *decision.kind.split(), *decision.prompt.replace(":", " ").split()}
        named = [c for c in self._combats if c in words]
        if not named:
            named = [c for c, title in self._combat_titles if decision.prompt.startswith(f"{title}:")]
        if named:
            return named[0]
        return self._combats[0] if len(self._combats) == 1 else None

    def _public_context(self, observation: dict):
        """A context of the scenario's own (never the game's): its state is rebuilt from observations."""
        if self._context is None:
            from .context import Context

            self._context = Context(self.scenario, 0)
        return self._context

    def _guesses(self, defenders: Sequence[dict]) -> Iterator[tuple[dict[str, str], int]]:
        """Type assignments for the defenders with their weights: seen types as they are, face-down ones
        from the set-up counts of their side."""
        known = {d["id"]: d["type"] for d in defenders if d["type"] is not None}
        hidden = [d for d in defenders if d["type"] is None]
        priors = [self._prior(d["side"]) for d in hidden]
        if not hidden:
            yield known, 1
            return
        combos = 1
        enumerated = 0
        for prior in priors:
            if combos * len(prior) > HIDDEN_GUESSES:
                break
            combos *= len(prior)
            enumerated += 1
        rest = {d["id"]: max(prior, key=lambda t: (prior[t], t)) for d, prior in zip(hidden[enumerated:],
                                                                                     priors[enumerated:])}
        choices = [sorted(prior.items()) for prior in priors[:enumerated]]
        for combo in itertools.product(*choices):
            weight = 1
            guess = dict(known)
            guess.update(rest)
            for defender, (type_name, count) in zip(hidden, combo):
                guess[defender["id"]] = type_name
                weight *= count
            yield guess, weight

    def _prior(self, side: str) -> dict[str, int]:
        counts: dict[str, int] = {}
        for placement in self.scenario.setup:
            if placement.side == side:
                counts[placement.unit] = counts.get(placement.unit, 0) + placement.count
        return counts or {t.name: 1 for t in self.rules.unit_types.values() if t.side == side}


def _unit(seen: dict, type_name: str, rules):
    """A unit as ``seen``; a face-down one gets ``type_name`` (a guess) and that type's dummy flag."""
    from .state import Unit

    dummy = seen.get("dummy")
    if dummy is None:
        dummy = rules.unit_type(type_name).dummy
    return Unit(seen["id"], type_name, seen["side"], seen["location"], hidden=seen["type"] is None,
                dummy=bool(dummy), mode=seen.get("mode"), step=seen.get("step", 1),
                status=frozenset(seen.get("status", ())))


def _state_from(observation: dict, guess: Mapping[str, str], rules):
    """A game state built from an observation alone, face-down counters given guessed types."""
    from .state import GameState

    units = []
    for seen in observation.get("units", ()):
        type_name = seen["type"] if seen["type"] is not None else guess.get(seen["id"])
        if type_name is not None:
            units.append(_unit(seen, type_name, rules))
    resources = []
    for key, value in sorted(observation.get("resources", {}).items()):
        side, _, name = key.partition(".")
        resources.append((side, name, Fraction(value)))
    return GameState(turn=observation.get("turn", 0), phase=observation.get("phase", ""),
                     units=tuple(sorted(units)), resources=tuple(resources),
                     control=tuple(sorted(observation.get("control", {}).items())),
                     side_states=tuple(sorted(tuple(entry) for entry in observation.get("states", ()))),
                     weather=observation.get("weather"))


# --- a script ---------------------------------------------------------------------------


class ScriptedAgent:
    """Plays a fixed list of choices in order: for replays and tests.

    Each choice is resolved against the decision like typed input (number, words or a unique
    prefix), so a script written by hand may abbreviate.

    Raises (from ``choose``):
        ScriptError: when the script has no choice left (E811).
        IllegalActionError: when the next choice is not legal now; its span is the script line.
    """

    def __init__(self, choices: Iterable[str | Action], source: str = "<script>",
                 lines: Sequence[int] | None = None):
        self.choices = [str(c) for c in choices]
        self.source = source
        self.lines = list(lines) if lines is not None else list(range(1, len(self.choices) + 1))
        self.position = 0

    @classmethod
    def from_file(cls, path: str | Path, side: str | None = None) -> "ScriptedAgent":
        """Read one action per line (blank lines and ``#`` comments skipped), or a warbook log.

        From a log (JSON lines with a header) it takes the recorded choices, only ``side``'s when a
        side is given, so one log can drive every side of a replay.

        Raises:
            ScriptError: when the file cannot be read (E811).
        """
        shown = str(path)
        try:
            text = read_source(path)
        except SourceError as exc:
            reason = exc.reason
            raise ScriptError(diagnostic("E811", Span.point(shown), f"cannot read script {shown!r}: {reason}")) \
                from None
        choices, lines = [], []
        numbered = list(enumerate(text.splitlines(), start=1))
        first = next((line for _, line in numbered if line.strip()), "")
        if first.lstrip().startswith("{"):
            for number, line in numbered:
                if not line.strip():
                    continue
                try:
                    entry = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise ScriptError(diagnostic("E811", Span.point(shown, number),
                                                 f"line {number} of log {shown!r} is not JSON: {exc.msg}")) from None
                if isinstance(entry, dict) and entry.get("type") == "decision" and \
                        (side is None or entry.get("side") == side):
                    choices.append(str(entry.get("choice", "")))
                    lines.append(number)
        else:
            for number, line in numbered:
                text_line = line.split("#", 1)[0].strip()
                if text_line:
                    choices.append(text_line)
                    lines.append(number)
        return cls(choices, shown, lines)

    def choose(self, observation: dict, decision: Decision) -> Action:
        if self.position >= len(self.choices):
            raise ScriptError(diagnostic(
                "E811", Span.point(self.source, (self.lines[-1] + 1) if self.lines else 1),
                f"script {self.source!r} ran out after {len(self.choices)} choices; "
                f"{decision.side} must still choose: {decision.prompt}"))
        text, line = self.choices[self.position], self.lines[self.position]
        action = parse_choice(text, decision, Span.point(self.source, line))
        self.position += 1
        return action

    @property
    def remaining(self) -> int:
        return len(self.choices) - self.position


# --- playing a game ---------------------------------------------------------------------


AUTOMATIC_AGENTS = ("random", "greedy")
"""The agents that play without a person or a script, by name (``warbook play --agents``, ``warbook sim``)."""


def automatic_agent(kind: str, side: str, game) -> Agent:
    """A ``random`` or ``greedy`` agent for ``side``, its choices seeded from the game's seed (a stream
    apart from the dice, ``rng.choice_rng``): the same seed and agents play the same game anywhere.

    Raises:
        ValueError: for another name.
    """
    from .rng import choice_rng

    if kind == "random":
        return RandomAgent(choice_rng(game.seed, f"random:{side}"))
    if kind == "greedy":
        return GreedyAgent(choice_rng(game.seed, f"greedy:{side}"), game)
    raise ValueError(f"unknown automatic agent {kind!r}; choose from {', '.join(AUTOMATIC_AGENTS)}")


def iter_play(game, agents: Mapping[str, Agent]) -> Iterator[dict]:
    """Play ``game`` to the end, one agent per side; yield every log entry as it is written.

    Entries already in the log (set-up done before the first decision) come first.

    Raises:
        KeyError: when a side has no agent.
        Whatever an agent raises (``InputEnded``, ``ScriptError``, ``IllegalActionError``); the game
        keeps every choice made so far.
    """
    shown = 0
    while True:
        while shown < len(game.log):
            yield game.log[shown]
            shown += 1
        if game.is_over():
            return
        side = game.current_player()
        action = agents[side].choose(game.observe(side), game.decision)
        game.apply(action)
