"""Skirmish written by hand: the baseline of the playout-overhead benchmark.

``benchmarks/games/skirmish.rules`` played by warbook's generic interpreter and this
module must be the same game, decision for decision: the same side is asked the
same kind of question with the same options in the same order, and the dice come
from the same counter-based stream (``interpreter.rng.roll(seed, n, 6)``, the
n-th roll of the game).  So one random agent's choices drive both, and
``tests/benchmarks/test_handwritten.py`` and the benchmark itself check the legal
actions at every step.

This is what a programmer would write for this one game: the rules are Python
(terrain costs, the CRT, the order of play), the state is mutable, the map is
lists of neighbours built once, a move is a small Dijkstra.  Only the map rows and
the set-up are read from the scenario's TOML files, which are data.  Nothing here
imports the interpreter except the dice.

Readings it shares with the interpreter (each from ``interpreter/procedures/*.py``):

- **Orders**: each side in player order declares ``dig`` (foot units only) one unit at
  a time until ``done``; a dug-in unit does not move and its zone reaches 2 hexes.
- **Movement**: every unit that may move, Blue's first, then by id; its owner picks
  ``move UNIT CELL`` (cells by number) or ``stay UNIT``.  Enemy cells are barred, a cell
  in an enemy zone of control ends the move, at most 2 units of a side end in a cell.
  A unit that could only stay is not asked.
- **Combat**: the first side in player order with a unit that may attack chooses among
  ``attack CELL with ALL-ADJACENT…``, ``attack CELL with ONE``, ``pass UNIT`` and
  ``done``, until it is done or has nothing left; then the next side.  Odds are rounded
  for the defender; terrain multiplies each defender's factor.
- **Results**: retreats are chosen hex by hex among adjacent free hexes outside enemy
  zones (else the unit is eliminated); ``EX`` halves both sides, rounding up, each
  owner choosing its losses; every unit eliminated scores 1 VP for the other side.
- **Scoring**: each town held by one side's units alone scores that side 1 VP a turn.
"""

from __future__ import annotations

import heapq
import math
import tomllib
from fractions import Fraction
from pathlib import Path

from warbook.interpreter.rng import roll

Option = tuple[str, ...]
"""An action as words: ``("move", "B1", "0305")``; ``" ".join`` gives warbook's text."""

ELIMINATED = "eliminated"

# --- the rules, by hand ------------------------------------------------------------------

COST = {"clear": 1, "wood": 2, "hill": 3, "town": 1}
"""Movement points to enter; terrain not listed (lake) may not be entered."""
DEFENCE = {"clear": 1, "wood": 2, "hill": 3, "town": 2}
OBJECTIVES = {"town"}
STACK_LIMIT = 2

# type: (attack, defence, move, is foot)
TYPES = {
    "b_infantry": (2, 3, 3, True),
    "b_armour": (5, 3, 5, False),
    "b_recon": (1, 1, 6, False),
    "r_infantry": (3, 3, 3, True),
    "r_armour": (4, 2, 5, False),
    "r_recon": (1, 1, 6, False),
}
SHORT = {"blue": "B", "red": "R"}
SIDES = ("blue", "red")

ODDS = (Fraction(1, 2), Fraction(1), Fraction(2), Fraction(3), Fraction(4))
CRT = (
    ("NE", "DR", "DR", "DE", "DE"),
    ("AR", "EX", "DR", "DR", "DE"),
    ("AR", "NE", "EX", "DR", "DE"),
    ("AE", "AR", "NE", "EX", "DR"),
    ("AE", "AR", "AR", "NE", "EX"),
    ("AE", "AE", "AR", "AR", "NE"),
)
LEVELS = ((0, 1, "Draw", True), (2, 100, "Victory", False))


def option_key(option: Option) -> tuple:
    """How options are ordered: by verb, then word by word with numbers as numbers."""
    return (option[0], tuple((0, int(a), "") if a.isdigit() else (1, 0, a) for a in option[1:]))


# --- the map and the set-up, from the scenario's data files --------------------------------


class Skirmish:
    """The scenario, read once: the map as neighbour lists and terrain, the set-up, the turns."""

    def __init__(self, scenario: str | Path):
        path = Path(scenario)
        head = tomllib.loads(path.read_text(encoding="utf-8"))
        spec = tomllib.loads((path.parent / head["scenario"]["map"]).read_text(encoding="utf-8"))["map"]
        width, height = spec["width"], spec["height"]
        digits = 2 if max(width, height) <= 99 else 3
        self.terrain: dict[str, str] = {}
        for r, line in enumerate(spec["rows"], start=1):
            for c, char in enumerate(line, start=1):
                self.terrain[f"{c:0{digits}d}{r:0{digits}d}"] = spec["legend"][char]
        self.neighbours: dict[str, tuple[str, ...]] = {}
        for cell in self.terrain:
            c, r = int(cell[:digits]), int(cell[digits:])
            beside = (r, r + 1) if c % 2 == 0 else (r - 1, r)
            around = [(c, r - 1), (c, r + 1), *((s, b) for s in (c - 1, c + 1) for b in beside)]
            ids = (f"{x:0{digits}d}{y:0{digits}d}" for x, y in around)
            self.neighbours[cell] = tuple(sorted(i for i in ids if i in self.terrain))
        self.near: dict[str, frozenset[str]] = {}
        """Cells within 2 hexes, the cell itself excluded (a dug-in unit's zone)."""
        for cell, around in self.neighbours.items():
            ring = {n2 for n in around for n2 in self.neighbours[n]} | set(around)
            ring.discard(cell)
            self.near[cell] = frozenset(ring)
        self.cost = {cell: COST[t] for cell, t in self.terrain.items() if t in COST}
        """Each cell's entry cost; a cell not here may not be entered."""
        self.objectives = tuple(c for c, t in self.terrain.items() if t in OBJECTIVES)
        self.turns = head["scenario"]["turns"]
        self.player_order = tuple(head["scenario"]["player_order"])
        self.setup: list[tuple[str, str, str]] = []
        for entry in head["setup"]:
            if "at" not in entry:
                raise ValueError("the hand-written Skirmish places units only at fixed cells")
            self.setup += [(entry["side"], entry["unit"], entry["at"])] * entry.get("count", 1)


class Unit:
    """One counter, mutable: where it is, whether it is dug in, whether it has attacked this phase."""

    __slots__ = ("at", "attack", "attacked", "defence", "dug_in", "foot", "id", "move", "side", "type")

    def __init__(self, uid: str, type_name: str, side: str, at: str):
        self.id, self.type, self.side, self.at = uid, type_name, side, at
        self.dug_in = False
        self.attacked = False
        self.attack, self.defence, self.move, self.foot = TYPES[type_name]


# --- one game ----------------------------------------------------------------------------------


class HandGame:
    """One game of Skirmish, paused at a decision: ``legal_actions()``, ``apply()``, ``is_over()``."""

    def __init__(self, skirmish: Skirmish, seed: int):
        self.map = skirmish
        self.seed = seed
        self.rolls = 0
        self.vp = {side: 0 for side in SIDES}
        self.units: list[Unit] = []
        self.result: dict | None = None
        self.side: str | None = None
        self.kind = ""
        self.options: tuple[Option, ...] = ()
        self._flow = self._play()
        self._pending = next(self._flow, None)

    # --- the driver's side ---

    def legal_actions(self) -> tuple[Option, ...]:
        return self.options if self._pending else ()

    def is_over(self) -> bool:
        return self._pending is None

    def apply(self, option: Option) -> None:
        if option not in self.options:
            raise ValueError(f"illegal action {' '.join(option)!r}")
        try:
            self._pending = self._flow.send(option)
        except StopIteration:
            self._pending = None

    def _ask(self, side: str, kind: str, options: list[Option], ordered: bool = False):
        """Wait for ``side``'s choice among ``options`` (already in order when ``ordered``)."""
        self.side, self.kind = side, kind
        self.options = tuple(options) if ordered else tuple(sorted(set(options), key=option_key))
        return (yield True)

    # --- the state ---

    def enemy_cells(self, side: str) -> set[str]:
        return {u.at for u in self.units if u.side != side and u.at != ELIMINATED}

    def enemy_zone(self, side: str) -> set[str]:
        zone: set[str] = set()
        for u in self.units:
            if u.side != side and u.at != ELIMINATED:
                zone |= self.map.near[u.at] if u.dug_in else set(self.map.neighbours[u.at])
        return zone

    # --- the game ---

    def _play(self):
        count = {side: sum(1 for s, _, _ in self.map.setup if s == side) for side in SIDES}
        numbers = {side: 0 for side in SIDES}
        for side, type_name, at in self.map.setup:
            numbers[side] += 1
            self.units.append(Unit(f"{SHORT[side]}{numbers[side]:0{len(str(count[side]))}d}", type_name, side, at))
        self.units.sort(key=lambda u: u.id)
        for _turn in range(1, self.map.turns + 1):
            for side in self.map.player_order:
                yield from self._orders(side)
            yield from self._movement()
            yield from self._combat()
            for u in self.units:
                u.attacked = False
            self._score()
            for u in self.units:
                u.dug_in = False
        self._final()

    def _orders(self, side: str):
        while True:
            eligible = [u for u in self.units if u.side == side and u.at != ELIMINATED and u.foot and not u.dug_in]
            if not eligible:
                return
            choice = yield from self._ask(side, "declare dig",
                                          [("declare", u.id, "dig") for u in eligible] + [("done",)],
                                          ordered=True)
            if choice[0] == "done":
                return
            next(u for u in self.units if u.id == choice[1]).dug_in = True

    def _movement(self):
        order = self.map.player_order
        movers = sorted((u for u in self.units if u.at != ELIMINATED and not u.dug_in),
                        key=lambda u: (order.index(u.side), u.id))
        for unit in movers:
            ends = self.reachable(unit)
            if not ends:
                continue
            choice = yield from self._ask(unit.side, "move",
                                          [("move", unit.id, cell) for cell in ends] + [("stay", unit.id)],
                                          ordered=True)
            if choice[0] == "move":
                unit.at = choice[2]

    def reachable(self, unit: Unit) -> list[str]:
        """Cells the unit may end its move in, in id order: Dijkstra over entry costs, stopping in enemy zones."""
        blocked = self.enemy_cells(unit.side)
        stop = self.enemy_zone(unit.side)
        cost, neighbours = self.map.cost, self.map.neighbours
        start, budget = unit.at, unit.move
        dist = {start: 0}
        heap = [(0, start)]
        done = set()
        while heap:
            d, cell = heapq.heappop(heap)
            if cell in done:
                continue
            done.add(cell)
            if cell in stop and cell != start:
                continue
            for n in neighbours[cell]:
                step = cost.get(n)
                if step is None or n in done or n in blocked:
                    continue
                nd = d + step
                if nd <= budget and nd < dist.get(n, budget + 1):
                    dist[n] = nd
                    heapq.heappush(heap, (nd, n))
        full = self.full_cells(unit)
        return sorted(cell for cell in dist if cell != start and cell not in full)

    def full_cells(self, unit: Unit) -> set[str]:
        """Cells where the unit's side already has ``STACK_LIMIT`` other units."""
        count: dict[str, int] = {}
        for u in self.units:
            if u.side == unit.side and u is not unit and u.at != ELIMINATED:
                count[u.at] = count.get(u.at, 0) + 1
        return {cell for cell, n in count.items() if n >= STACK_LIMIT}

    def _targets(self, cell: str, side: str) -> list[Unit]:
        return [u for u in self.units if u.at == cell and u.side != side]

    def _combat(self):
        sides = self.map.player_order
        finished: set[str] = set()
        while True:
            side, ready = None, {}
            for s in sides:
                if s in finished:
                    continue
                for u in self.units:
                    if u.side == s and u.at != ELIMINATED and not u.attacked:
                        enemies = self.enemy_cells(s)
                        cells = [c for c in self.map.neighbours[u.at] if c in enemies]
                        if cells:
                            ready[u.id] = (u, cells)
                if ready:
                    side = s
                    break
            if side is None:
                return
            options: list[Option] = []
            for cell in sorted({c for _, cells in ready.values() for c in cells}):
                group = [uid for uid, (_, cells) in ready.items() if cell in cells]
                options.append(("attack", cell, "with", *group))
                options.extend(("attack", cell, "with", uid) for uid in group)
            options.extend(("pass", uid) for uid in ready)
            options.append(("done",))
            choice = yield from self._ask(side, "attack", options)
            if choice[0] == "done":
                finished.add(side)
            elif choice[0] == "pass":
                ready[choice[1]][0].attacked = True
            else:
                attackers = [ready[uid][0] for uid in choice[3:]]
                for u in attackers:
                    u.attacked = True
                yield from self._resolve(attackers, self._targets(choice[1], side), side)

    def _resolve(self, attackers: list[Unit], defenders: list[Unit], side: str):
        cell = defenders[0].at
        attack = sum(u.attack for u in attackers)
        defence = sum(u.defence for u in defenders) * DEFENCE[self.map.terrain[cell]]
        ratio = Fraction(attack, defence)
        column = max((i for i, odds in enumerate(ODDS) if odds <= ratio), default=0)
        die = roll(self.seed, self.rolls, 6)
        self.rolls += 1
        result = CRT[die - 1][column]
        if result == "DE":
            self._eliminate(defenders)
        elif result == "AE":
            self._eliminate(attackers)
        elif result == "DR":
            yield from self._retreat(defenders)
        elif result == "AR":
            yield from self._retreat(attackers)
        elif result == "EX":
            for group in (defenders, attackers):
                left = sorted((u for u in group if u.at != ELIMINATED), key=lambda u: u.id)
                count = math.ceil(len(left) / 2)
                lost = []
                if count >= len(left):
                    lost = left
                while len(lost) < count:
                    choice = yield from self._ask(left[0].side, "losses", [("lose", u.id) for u in left])
                    pick = next(u for u in left if u.id == choice[1])
                    lost.append(pick)
                    left.remove(pick)
                self._eliminate(lost)

    def _eliminate(self, units: list[Unit]) -> None:
        for unit in sorted(units, key=lambda u: u.id):
            if unit.at == ELIMINATED:
                continue
            unit.at = ELIMINATED
            unit.dug_in = False
            self.vp["red" if unit.side == "blue" else "blue"] += 1

    def _retreat(self, units: list[Unit]):
        for unit in sorted(units, key=lambda u: u.id):
            if unit.at == ELIMINATED:
                continue
            barred = self.enemy_cells(unit.side) | self.enemy_zone(unit.side) | self.full_cells(unit)
            cells = [c for c in self.map.neighbours[unit.at] if c not in barred and c in self.map.cost]
            if not cells:
                self._eliminate([unit])
                continue
            choice = yield from self._ask(unit.side, "retreat", [("retreat", unit.id, c) for c in cells], ordered=True)
            unit.at = choice[2]

    def _score(self) -> None:
        for side in SIDES:
            held = 0
            for cell in self.map.objectives:
                here = [u.side for u in self.units if u.at == cell]
                if here and all(s == side for s in here):
                    held += 1
            self.vp[side] += held

    def _final(self) -> None:
        totals = sorted(((v, s) for s, v in self.vp.items()), reverse=True)
        margin = totals[0][0] - totals[-1][0]
        label, draw = "Draw", True
        for low, high, name, is_draw in LEVELS:
            if low <= margin <= high:
                label, draw = name, is_draw
        winner = None if margin == 0 or draw else totals[0][1]
        self.result = {"winner": winner, "level": label, "margin": margin,
                       "totals": {s: str(v) for v, s in totals}}
