"""One registry of effect implementations: (effect class, place) → the function that carries it out.

``dsl.effects`` compiles every ``effect`` line into a typed record and says where each verb is
valid (``Where``).  Each implementation registers here with ``@carries_out(Class, *places)`` in
the module whose mechanic it is (losses and retreats in ``interpreter.results``, resources in
``interpreter.resource_effects``, reveals and returns in ``interpreter.event_effects`` …), and
``carry_out`` is the one place an effect is dispatched from: a result, an event, a counter's
moment and a scenario option all go through it.

Effects that are *standing* (a counter's ``modify … roll``, ``shift``, ``supply``, ``stop``, a
trap's ``attack``) are not carried out at a moment but read by the mechanic they change; their
readers register with ``@reads(Class)`` so that the registry knows every verb is read by someone
(``tests/interpreter/test_effect_registry.py`` checks that every (class, place) that
``dsl.effects`` calls valid has an implementation or a reader).

Guarantees: ``carry_out`` never skips an effect silently; a pair with no implementation (which
the linter reports before play as E220/E222) stops the game with that positioned diagnostic.

Limits: the registry is filled by importing the modules ``IMPLEMENTED_IN`` names, by name, as
the procedures' registry is; an implementation that asks players a question of a procedure
(drawing a reinforcement) lives with that procedure, so some of them are procedure modules.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from typing import Any

from attrs import define, field

from ..dsl.diagnostics import RulesError, diagnostic
from ..dsl.effects import Effect, Where
from ..dsl.model import Declaration
from .conditions import Scope
from .context import Context, Flow

Implementation = Callable[[Context, Any, "Target"], Flow]
IMPLEMENTATIONS: dict[tuple[type[Effect], Where], Implementation] = {}
READERS: dict[type[Effect], str] = {}
"""Standing effect class → the function (``module.name``) that reads it."""

IMPLEMENTED_IN = ("results", "step_effects", "status_effects", "resource_effects", "event_effects", "situation",
                  "procedures.roll_modifiers", "procedures.combat", "procedures.reinforcements", "procedures.supply",
                  "procedures.missions", "turns")
"""The modules of ``interpreter`` that register implementations or readers, imported (once) before
an effect is first carried out, whatever the caller imported."""


@define
class Target:
    """What an effect line acts for, where it is carried out."""

    where: Where
    decl: Declaration
    """The declaration whose line it is (result part, event, counter type, option)."""
    side: str
    """The side the line is for: the side that rolled (a result), the event's or counter's side,
    the side that chose the option; ``owner``/``self`` and no role mean this side."""
    why: str
    """What narration says the line comes from."""
    scope: Scope | None = None
    """Where the line's condition is read, and the counter and cell of an event or a moment."""
    engagement: Any = None
    """The ``combat.Engagement`` a result is carried out against."""
    affected: set[str] = field(factory=set)
    """Units an earlier line of the same result part affected (``other``)."""


def carries_out(cls: type[Effect], *places: Where) -> Callable[[Implementation], Implementation]:
    """Register the generator that carries out ``cls`` lines in ``places``."""

    def register(function: Implementation) -> Implementation:
        for place in places:
            IMPLEMENTATIONS[(cls, place)] = function
        return function

    return register


def reads(cls: type[Effect]) -> Callable[[Callable], Callable]:
    """Mark the function that reads a standing effect (module docstring)."""

    def register(function: Callable) -> Callable:
        READERS[cls] = f"{function.__module__}.{function.__qualname__}"
        return function

    return register


def carry_out(ctx: Context, effect: Effect, target: Target) -> Flow:
    """Carry out one effect line whose condition holds; returns what the implementation returns
    (``True`` from ``remove self``: the counter's later lines are not carried out).

    Raises:
        RulesError: (E222) for an effect with no implementation in this place.
    """
    load_implementations()
    implementation = IMPLEMENTATIONS.get((type(effect), target.where))
    if implementation is None:
        raise RulesError([diagnostic(
            "E222", effect.line.span, f"effect {effect.text!r} of {target.decl.kind} {target.decl.name!r} cannot be "
            f"carried out in {target.where.value}", f"'{effect.VERB}' is valid in "
            + ", ".join(sorted(p.value for p in effect.VALID)))])
    done = yield from implementation(ctx, effect, target)
    return done


@functools.cache
def load_implementations() -> None:
    """Import every module in ``IMPLEMENTED_IN`` (each registers what it carries out), once."""
    package = __name__.rsplit(".", 1)[0]
    for module in IMPLEMENTED_IN:
        importlib.import_module(f"{package}.{module}")


def sides_for(ctx: Context, role: str | None, target: Target) -> list[str]:
    """The sides an effect's role names, in order, each once.

    ``owner``/``self``/``attackers``/``firers`` and no role: the target's side; ``opponent``/
    ``enemy``: every other side; ``defenders``/``targets``: the sides fired at (in a result; else
    the other sides); ``both``: in a result, the side that rolled and the sides fired at, elsewhere
    every side in the rulebook's order.
    """
    engagement = target.engagement
    fired_at = sorted({ctx.state.unit(i).side for i in engagement.defenders}) if engagement is not None else []
    if role in (None, "owner", "self", "attackers", "firers"):
        found = [target.side]
    elif role in ("defenders", "targets"):
        found = fired_at or list(ctx.enemies(target.side))
    elif role in ("opponent", "enemy"):
        found = list(ctx.enemies(target.side))
    elif engagement is not None:  # both
        found = [target.side, *fired_at]
    else:
        found = list(ctx.rules.sides)
    return [s for s in dict.fromkeys(found) if s]
