"""Stacking: how many counters of a side may end a move together in one cell, and why not.

- **Stacking** is per side and per cell.  A unit counts against the first
  ``limit … for WHO`` line naming it, else (unless ``exempt``) against the general
  ``limit``; a marker counts only with ``counts for stacking yes``, a dummy unless
  it says ``no``.  Only where a move ends is checked (MOVEMENT: "You may drop off
  or pick up units on the way"), and only when ``checked always`` or ``during
  movement`` (or when ``checked`` is not given): those are ``stack_rules``.
- A stack breaks a rule only when a counter *arriving* counts against the line it
  overfills: counters already there over a limit do not stop others from leaving
  or from arriving under another line.

Guarantees: ``StackRule`` reads the types alone, never the state, and keeps which line each type
counts against; ``stacks_badly`` answers as ``stacking_problem`` would, without the words.
Limits: ``enemy cells forbidden`` is read here (``enemy_cells_forbidden``) but applied by the
search (``interpreter.movement``); stacking checked at other times (set-up, end of phase) is the
business of the procedures that name it (``interpreter.setup``, ``interpreter.flow``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from ..dsl.model import Declaration
from .caches import rules_cache
from .citations import because
from .rules import Rules, UnitType, as_names
from .state import Unit
from .world import World


def stacking_rules(rules: Rules) -> tuple[Declaration, ...]:
    """Every ``stacking`` declaration, in rulebook order (whenever it is checked)."""
    return rules.rulebook.of_kind("stacking")


def enemy_cells_forbidden(rules: Rules) -> Declaration | None:
    """The ``stacking`` that says ``enemy cells forbidden``, if any."""
    cache = rules_cache(rules)
    if "forbidding" not in cache:
        cache["forbidding"] = next((d for d in stacking_rules(rules)
                                    if any(p.has("forbidden") for p in d.all("enemy"))), None)
    return cache["forbidding"]


class StackRule:
    """A ``stacking`` declaration, read: its limits and which line each type counts against."""

    def __init__(self, rules: Rules, decl: Declaration):
        self.rules = rules
        self.decl = decl
        self.limits = decl.all("limit")
        self.counts = tuple(line.get("count") for line in self.limits)
        self.one = tuple((name, line) for line in decl.all("one") for name in as_names(line.get("who")))
        checked = decl.first("checked")
        self.on_moves = checked is None or checked.has("always") or checked.has("during")
        self._lines: dict[str, int | None] = {}
        self.safe_size = min([*self.counts, *((1,) if self.one else ())], default=math.inf)
        """So many counters or fewer together break no line of this rule (no limit below it)."""

    def line_of(self, type_name: str) -> int | None:
        """Which ``limit`` line a type counts against (its index), or ``None``."""
        if type_name not in self._lines:
            self._lines[type_name] = self._line(self.rules.unit_type(type_name))
        return self._lines[type_name]

    def _line(self, unit_type: UnitType) -> int | None:
        decl = self.rules.rulebook.get(unit_type.kind, unit_type.name)
        counts = decl.first("counts") if decl is not None else None
        if unit_type.kind != "unit":
            if not ((counts is not None and counts.has("yes"))
                    or (unit_type.dummy and not (counts and counts.has("no")))):
                return None
        elif counts is not None and counts.has("no"):
            return None
        line = Rules.line_for(self.limits, unit_type)
        if line is not None and line.get("who"):
            return self.limits.index(line)
        if any(Rules.unit_matches(unit_type, line.get("who") or ()) for line in self.decl.all("exempt")):
            return None
        return None if line is None else self.limits.index(line)

    def problem(self, together: list[Unit], arriving: list[Unit]) -> str | None:
        """Why ``together`` (``arriving`` among them) break this rule, in words, or ``None``."""
        if len(together) <= self.safe_size:
            return None
        return self._problem(together, arriving, True)

    def is_broken(self, together: list[Unit], arriving: list[Unit]) -> bool:
        """Whether ``problem`` would find one (without putting it into words: searches ask often)."""
        return len(together) > self.safe_size and self._problem(together, arriving, False) is not None

    def _problem(self, together: list[Unit], arriving: list[Unit], wording: bool) -> str | None:
        counts = [0] * len(self.limits)
        for unit in together:
            index = self.line_of(unit.type)
            if index is not None:
                counts[index] += 1
        for index, line in enumerate(self.limits):
            if counts[index] > self.counts[index] and any(self.line_of(u.type) == index for u in arriving):
                if not wording:
                    return ""
                who = f" for {' '.join(as_names(line.get('who')))}" if line.get("who") else ""
                return because(f"stacking limit {self.counts[index]}{who}: {counts[index]} counters would end "
                               "there", self.decl, line, f"stacking '{self.decl.name}'")
        for name, line in self.one:
            same = [u for u in together if Rules.unit_matches(self.rules.unit_type(u.type), [name])]
            if len(same) > 1 and any(u in same for u in arriving):
                if not wording:
                    return ""
                return because(f"one {name} per cell", self.decl, line, f"stacking '{self.decl.name}'")
        return None


def stack_rules(rules: Rules) -> tuple[StackRule, ...]:
    """The stacking rules checked where a move ends (``checked always``/``during movement``/unsaid)."""
    cache = rules_cache(rules)
    if "stacks" not in cache:
        cache["stacks"] = tuple(r for r in (StackRule(rules, d) for d in stacking_rules(rules)) if r.on_moves)
    return cache["stacks"]


def stacking_problem(world: World, side: str, cell: str, arriving: Iterable[Unit],
                     leaving: Iterable[str] = ()) -> str | None:
    """Why ``arriving`` may not end a move in ``cell`` beside the side's counters there, or ``None``."""
    arriving = list(arriving)
    gone = {u.id for u in arriving} | set(leaving)
    here = [u for u in world.state.units_at(cell) if u.side == side and u.id not in gone]
    return _stack_problem(world.rules, [*here, *arriving], arriving)


def safe_stack_size(rules: Rules) -> float:
    """So many counters or fewer together break no stacking rule checked on moves (``safe_size``)."""
    cache = rules_cache(rules)
    found = cache.get("safe_stack_size")
    if found is None:
        found = cache["safe_stack_size"] = min((r.safe_size for r in stack_rules(rules)), default=math.inf)
    return found


def stacks_badly(rules: Rules, together: list[Unit], arriving: list[Unit]) -> bool:
    """Whether ``_stack_problem`` would find a problem (for searches, which need no words)."""
    return any(rule.is_broken(together, arriving) for rule in stack_rules(rules))


def _stack_problem(rules: Rules, together: list[Unit], arriving: list[Unit]) -> str | None:
    for rule in stack_rules(rules):
        found = rule.problem(together, arriving)
        if found is not None:
            return found
    return None
