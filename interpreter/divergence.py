"""Where two games of one scenario and seed first part ways: ``warbook diff --scenario``.

Two rulebooks (an old one and a new one, or a base and a house rule) are played on the
same scenario with the same seed and the same kind of agents.  Every roll comes from the
one seeded stream and every agent from its own seeded stream (``rng.choice_rng``), so
games under rules that say the same thing write the same log entry for entry; the first
entry where the logs differ is where the change of rules first shows in play: a decision
with other options, another roll, a different result.

The two games are stepped in lockstep and stopped at the first difference, so a change
that shows on the first turn costs one turn of play, not two games.

Limits: a game is compared as the agents play it: a change the agents never meet (a
table row no roll reaches in this game) shows as no divergence, which says only that
this game plays identically.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from itertools import zip_longest

from attrs import frozen

from ..dsl.diagnostics import RulesError
from .actions import IllegalActionError
from .agents import Agent, ScriptError, iter_play


@frozen
class Divergence:
    """The first log entry at which two games differ, and what each log says there."""

    entry: int
    """Its 1-based position in the logs."""
    decisions: int
    """How many decisions both games made alike before it."""
    turn: int | None
    """The turn of the last entry both logs share (``None`` before the first turn)."""
    phase: str | None
    """Its phase."""
    old: Mapping | None
    """The old game's entry there; ``None`` when its log ended before."""
    new: Mapping | None


def iter_entries(game, agents: Mapping[str, Agent]) -> Iterator[Mapping]:
    """The log of ``game`` played to its end by ``agents``, entry by entry; a choice the game
    refuses (a script written for other rules) ends it with a ``{"type": "stopped"}`` entry that
    says why, rather than an exception, so that it can be compared like any other entry."""
    try:
        yield from iter_play(game, agents)
    except (ScriptError, IllegalActionError) as exc:
        yield {"type": "stopped", "text": exc.diagnostic.message}
    except RulesError as exc:  # rules that load but cannot be carried out at this point
        yield {"type": "stopped", "text": "; ".join(d.message for d in exc.diagnostics)}


def first_divergence(old: Iterable[Mapping], new: Iterable[Mapping]) -> Divergence | None:
    """The first entry at which two logs differ, or ``None`` when they are the same throughout.

    >>> shared = [{"type": "decision", "choice": "a"}, {"type": "event", "turn": 1, "phase": "p"}]
    >>> found = first_divergence([*shared, {"type": "roll", "value": 3}], [*shared, {"type": "roll", "value": 5}])
    >>> found.entry, found.decisions, found.turn, found.phase, found.old["value"], found.new["value"]
    (3, 1, 1, 'p', 3, 5)
    """
    decisions, turn, phase = 0, None, None
    for number, (before, after) in enumerate(zip_longest(old, new), start=1):
        if before != after:
            return Divergence(number, decisions, turn, phase, before, after)
        decisions += before.get("type") == "decision"
        turn, phase = before.get("turn", turn), before.get("phase", phase)
    return None


def compare_plays(old_game, new_game, old_agents: Mapping[str, Agent],
                  new_agents: Mapping[str, Agent]) -> Divergence | None:
    """Play two games side by side until their logs first differ (see the module docstring)."""
    return first_divergence(iter_entries(old_game, old_agents), iter_entries(new_game, new_agents))
