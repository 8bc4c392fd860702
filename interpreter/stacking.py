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

Guarantees: the compiled ``Stacking`` (``dsl.compiled.stacking``) keeps which line each type
counts against; ``stacks_badly`` answers as ``stacking_problem`` would, without the words.
Limits: ``enemy cells forbidden`` is read here (``enemy_cells_forbidden``) but applied by the
search (``interpreter.movement``); stacking checked at other times (set-up, end of phase) is the
business of the procedures that name it (``interpreter.setup``, ``interpreter.flow``).
"""

from __future__ import annotations

import math

from collections.abc import Iterable

from ..dsl.compiled.stacking import Stacking
from .caches import rules_cache
from .citations import because
from .rules import Rules
from .state import Unit
from .world import World


def enemy_cells_forbidden(rules: Rules) -> Stacking | None:
    """The ``stacking`` that says ``enemy cells forbidden``, if any."""
    return next((s for s in rules.stackings if s.enemy_cells_forbidden is not None), None)


def stack_rules(rules: Rules) -> tuple[Stacking, ...]:
    """The stacking rules checked where a move ends (``checked always``/``during movement``/unsaid)."""
    return rules.stackings_on_moves


def problem(rule: Stacking, together: list[Unit], arriving: list[Unit]) -> str | None:
    """Why ``together`` (``arriving`` among them) break this rule, in words, or ``None``."""
    if len(together) <= rule.safe_size:
        return None
    return _problem(rule, together, arriving, True)


def is_broken(rule: Stacking, together: list[Unit], arriving: list[Unit]) -> bool:
    """Whether ``problem`` would find one (without putting it into words: searches ask often)."""
    return len(together) > rule.safe_size and _problem(rule, together, arriving, False) is not None


def _problem(rule: Stacking, together: list[Unit], arriving: list[Unit], wording: bool) -> str | None:
    line_of = rule.line_of
    counts = [0] * len(rule.limits)
    for unit in together:
        index = line_of.get(unit.type)
        if index is not None:
            counts[index] += 1
    for index, line in enumerate(rule.limits):
        if counts[index] > line.value and any(line_of.get(u.type) == index for u in arriving):
            if not wording:
                return ""
            who = f" for {' '.join(line.who)}" if line.who else ""
            return because(f"stacking limit {line.value}{who}: {counts[index]} counters would end "
                           "there", rule.decl, line.source, f"stacking '{rule.name}'")
    for one in rule.one_per_cell:
        same = [u for u in together if one.name in rule.one_names.get(u.type, ())]
        if len(same) > 1 and any(u in same for u in arriving):
            if not wording:
                return ""
            return because(f"one {one.name} per cell", rule.decl, one.source, f"stacking '{rule.name}'")
    return None


def stacking_problem(world: World, side: str, cell: str, arriving: Iterable[Unit],
                     leaving: Iterable[str] = ()) -> str | None:
    """Why ``arriving`` may not end a move in ``cell`` beside the side's counters there, or ``None``."""
    arriving = list(arriving)
    gone = {u.id for u in arriving} | set(leaving)
    here = [u for u in world.state.units_at(cell) if u.side == side and u.id not in gone]
    return _stack_problem(world.rules, [*here, *arriving], arriving)


def safe_stack_size(rules: Rules) -> float:
    """So many counters or fewer together break no stacking rule checked on moves (``safe_size``)."""
    return min((r.safe_size for r in stack_rules(rules)), default=math.inf)


def stacks_badly(rules: Rules, together: list[Unit], arriving: list[Unit]) -> bool:
    """Whether ``_stack_problem`` would find a problem (for searches, which need no words)."""
    return any(is_broken(rule, together, arriving) for rule in stack_rules(rules))


def within_every_rule(rules: Rules, together: list[Unit]) -> bool:
    """Whether the last of ``together`` (counters of one side) may join the others under every
    stacking rule, wherever the rulebook checks it (set-up and placement hold to them all).

    Decided by how many counters of each kind the rules tell apart (``_stacking_kind``) are
    together, and the last one's kind (``problem`` counts and matches types), so kept per rules by
    those: set-up asks it of every occupied cell of a zone for every counter.  (Keyed by the types
    themselves, in order, the largest shipped scenario's set-up kept 1,566 stacks, 216 KiB, for
    one ``one per cell`` rule; keyed by kinds, 114.)"""
    kind_of = rules_cache(rules).setdefault("stacking kinds", {})
    last = together[-1].type
    arriving_kind = kind_of[last] if last in kind_of else _stacking_kind(rules, kind_of, last)
    if arriving_kind is None:
        return True  # a counter that counts against no line nor name breaks no rule by arriving
    kinds = []
    for unit in together:
        kind = kind_of[unit.type] if unit.type in kind_of else _stacking_kind(rules, kind_of, unit.type)
        if kind is not None:
            kinds.append(kind)
    key = (tuple(sorted(kinds)), arriving_kind)
    memo = rules_cache(rules).setdefault("within every stacking rule", {})
    found = memo.get(key)
    if found is None:
        arriving = [together[-1]]
        found = memo[key] = all(problem(rule, together, arriving) is None for rule in rules.stackings)
    return found


def _stacking_kind(rules: Rules, kind_of: dict[str, str | None], type_name: str) -> str | None:
    """The first type met that every stacking rule counts and names as it does ``type_name`` (so
    the two are alike to ``problem``), or ``None`` for a type no rule counts nor names."""
    sign = tuple((rule.line_of.get(type_name), rule.one_names.get(type_name, frozenset()))
                 for rule in rules.stackings)
    alike = kind_of.setdefault(("sign", sign), type_name)
    kind_of[type_name] = None if all(line is None and not names for line, names in sign) else alike
    return kind_of[type_name]


def _stack_problem(rules: Rules, together: list[Unit], arriving: list[Unit]) -> str | None:
    for rule in stack_rules(rules):
        found = problem(rule, together, arriving)
        if found is not None:
            return found
    return None
