"""Lasting side states: a side becomes demoralised (``state NAME { when …; forbids attack }``).

At the end of every phase (``interpreter.flow``) each ``state`` (``dsl.compiled.control.StateRule``)
is read for each side it may apply to that has not entered it: when its ``when`` condition holds
(``own`` being that side, no cell), the side enters it, for the rest of the game
(``GameState.side_states``), and the change is narrated.  Conditions read it (``own demoralised``,
``enemy not demoralised``, ``interpreter.conditions``); ``forbids attack`` stops the side's units
from attacking (``procedures.combat``).  Every side's observation lists the states entered (public).

Raises (from ``enter_states``):
    RulesError: (E805) for a ``when`` condition the grammar could not read (the linter reports W508).
"""

from __future__ import annotations

from attrs import evolve

from .citations import because
from .condition_lines import line_condition
from .conditions import Scope, holds
from .context import Context


def in_state(ctx: Context, side: str, name: str) -> bool:
    return (side, name) in ctx.state.side_states


def forbids_attack(ctx: Context, side: str) -> bool:
    """Whether a state the side has entered forbids its attacks."""
    entered = ctx.state.side_states
    return bool(entered) and any(rule.forbids_attack and (side, rule.name) in entered
                                 for rule in ctx.rules.states.values())


def enter_states(ctx: Context) -> None:
    """Each side whose state's condition now holds enters it (module docstring)."""
    for rule in ctx.rules.states.values():
        if rule.source is None:
            continue  # no ``when``: never entered (lint E236)
        condition = line_condition(rule)
        for side in rule.sides if rule.sides is not None else ctx.rules.sides:
            if (side, rule.name) in ctx.state.side_states or not holds(ctx, condition, Scope(side)):
                continue
            ctx.state = evolve(ctx.state, side_states=tuple(sorted((*ctx.state.side_states, (side, rule.name)))))
            ctx.say(because(f"{ctx.shown('side', side)} is now {rule.decl.display}: {condition}", rule.decl,
                            rule.source), kind="state", side=side, state=rule.name)
