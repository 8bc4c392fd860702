"""When a combat result's line applies, and which cells a combat's selectors name.

``interpreter.results.apply_result`` carries out each effect line of a result (or of an event
that a cell of a table rolled in combat names) against an ``Engagement``.  Before it does,
``applies`` says whether the line is carried out:

- A line the linter rejects in a combat result (``dsl.lint.contexts.combat_effect_problems``:
  E220, a verb a result cannot carry out; E221, a condition waiting for a moment) stops the game
  with that positioned diagnostic (``RulesError``): never an internal error, never a line skipped.
- A ``when`` condition is read by ``interpreter.conditions`` in the engagement's ``Scope``: ``own``
  is the side that rolled (the firing side), ``opponent``/``enemy`` the other sides; "in cell" is
  the cell fought over (the battle's cell, else the cell of the units fired at); ``ROLE FACTOR``
  totals the role's counters still in the fight when the line is carried out (the attackers too
  when the combat says ``attackers unharmed``); ``[WHO] defending`` holds for the side fired at
  (in a battle, the battle's defending side).  A line whose condition does not hold is logged
  and not carried out; dice it would roll are not rolled.

``gain``/``lose`` in a result (``interpreter.resource_effects``) change the resource of each side
the role names (``interpreter.effects.sides_for``): ``attackers``/``firers``, ``owner``/``self``
and no ``to`` mean the side that rolled; ``defenders``/``targets`` the sides of the counters fired
at; ``opponent``/``enemy`` every other side; ``both`` the side that rolled and the sides fired at.

``names_cell`` answers for a combat's ``shift … for SELECTOR`` lines whether a selector names a cell
(its terrain, a tag of its terrain, one of its own tags from the map, or its place name).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..dsl.diagnostics import RulesError
from ..dsl.effects import Effect
from ..dsl.lint.contexts import combat_effect_problems
from ..dsl.model import Declaration
from .condition_lines import effect_condition
from .conditions import Scope, holds
from .context import Context

_CONDITION_ROLES = ("attackers", "firers", "defenders", "targets")


def applies(ctx: Context, part: Declaration, effect: Effect, engagement: Any) -> bool:
    """Whether combat carries out this effect line of ``part`` now (module docstring).

    Raises:
        RulesError: (E220, E221) for a line combat cannot carry out; (E805) for a condition that
            cannot be read.
    """
    problems = _problems(ctx, part, effect)
    if problems:
        raise RulesError(problems)
    condition = effect_condition(effect)
    if condition is None or holds(ctx, condition, scope(ctx, engagement)):
        return True
    ctx.say(f"{engagement.reason}: '{condition}' does not hold; '{effect.text}' does not apply",
            kind="combat", effect=str(effect.line.get("effect")), applied=False)
    return False


def scope(ctx: Context, engagement: Any) -> Scope:
    """Where a combat line's condition is read: the side that rolled, the cell, the roles."""
    roles = {role: tuple(engagement.units(role, struck=False)) for role in _CONDITION_ROLES}
    fired_at = sorted({ctx.state.unit(i).side for i in engagement.defenders})
    battle = engagement.battle
    defending = battle.defending_side if battle is not None else (fired_at[0] if fired_at else None)
    return Scope(engagement.attacker_side or "", cell=engagement.cell, roles=roles, defending=defending)


def names_cell(ctx: Context, selectors: Iterable[Any], cell: str | None) -> bool:
    """Whether any selector names ``cell``: its terrain, a tag of that terrain, a tag the map gives
    the cell, or its place name.  ``None`` or a cell off the map: no."""
    if cell is None or cell not in ctx.board.graph:
        return False
    named = ctx.rules.cell_selectors(ctx.board.terrain(cell), ctx.board.tags(cell))
    place = ctx.board.graph.nodes[cell].get("place")
    return any(str(s) in named or str(s) == place for s in selectors)


def _problems(ctx: Context, part: Declaration, effect: Effect) -> list:
    """The line's E220/E221 diagnostics, worked out once per line and kept with the compiled rules."""
    cache = ctx.rules.derived.setdefault("combat effect problems", {})
    found = cache.get(id(effect))
    if found is None or found[0] is not effect:
        found = cache[id(effect)] = (effect, combat_effect_problems(ctx.rulebook, part, effect.line, ctx.rules.names))
    return found[1]
