"""A combat result's lines beyond losses and movement: ``when`` conditions, resources, cells named.

``interpreter.combat.apply_effect`` carries out each effect line of a result (or of an event that
a cell of a table rolled in combat names) against an ``Engagement``.  Before it does, ``applies``
says whether the line is carried out:

- A line the linter rejects in a combat result (``dsl.lint.tables.combat_effect_problems``: E220,
  a verb a result cannot carry out; E221, a condition waiting for a moment) stops the game with
  that positioned diagnostic (``RulesError``): never an internal error, never a line skipped.
- A ``when`` condition is read by ``interpreter.conditions`` in the engagement's ``Scope``: ``own``
  is the side that rolled (the firing side), ``opponent``/``enemy`` the other sides; "in cell" is
  the cell fought over (the battle's cell, else the cell of the units fired at); ``ROLE FACTOR``
  totals the role's counters still in the fight when the line is carried out (the attackers too
  when the combat says ``attackers unharmed``); ``[WHO] defending`` holds for the side fired at
  (in a battle, the battle's defending side).  A line whose condition does not hold is logged
  and not carried out; dice it would roll are not rolled.

``gain``/``lose RESOURCE N|DICE [to ROLE] [minimum N]`` (``carry_out``) changes the resource of
each side the role names through ``victory.gain`` (caps, the resource's minimum, this turn's gains
multiplier): ``attackers``/``firers``, ``owner``/``self`` and no ``to`` mean the side that rolled;
``defenders``/``targets`` the sides of the counters fired at; ``opponent``/``enemy`` every other
side; ``both`` the side that rolled and the sides fired at.  ``minimum N`` stops a loss at N, as in
events.  The dice are rolled once per side, as an event rolls them.

``names_cell`` answers for a combat's ``shift … for SELECTOR`` lines whether a selector names a cell
(its terrain, a tag of its terrain, one of its own tags from the map, or its place name).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..dsl.conditions import Names
from ..dsl.diagnostics import RulesError
from ..dsl.lint.contexts import combat_effect_problems
from ..dsl.model import Declaration, Property
from ..dsl.vocabulary import ROLES
from .conditions import Scope, condition_of, holds
from .context import Context
from .victory import change_within

_ROLLER = (None, "attackers", "firers", "owner", "self")
_FIRED_AT = ("defenders", "targets")
_CONDITION_ROLES = ("attackers", "firers", "defenders", "targets")


def applies(ctx: Context, part: Declaration, prop: Property, engagement: Any) -> bool:
    """Whether combat carries out this effect line of ``part`` now (module docstring).

    Raises:
        RulesError: (E220, E221) for a line combat cannot carry out.
    """
    problems = _problems(ctx, part, prop)
    if problems:
        raise RulesError(problems)
    condition = condition_of(ctx, prop)
    if condition is None or holds(ctx, condition, scope(ctx, engagement)):
        return True
    ctx.say(f"{engagement.reason}: '{condition}' does not hold; '{_effect_text(prop)}' does not apply",
            kind="combat", effect=prop.get("effect"), applied=False)
    return False


def scope(ctx: Context, engagement: Any) -> Scope:
    """Where a combat line's condition is read: the side that rolled, the cell, the roles."""
    roles = {role: tuple(engagement.units(role, struck=False)) for role in _CONDITION_ROLES}
    fired_at = _fired_at(ctx, engagement)
    battle = engagement.battle
    defending = battle.defending_side if battle is not None else (fired_at[0] if fired_at else None)
    return Scope(engagement.attacker_side or "", cell=engagement.cell, roles=roles, defending=defending)


def carry_out(ctx: Context, part: Declaration, prop: Property, engagement: Any) -> None:
    """``gain``/``lose`` for the sides the line's role names (module docstring).

    Raises:
        RulesError: (E220) for any other verb, which combat does not carry out.
    """
    verb = prop.get("effect")
    if verb not in ("gain", "lose"):
        problems = _problems(ctx, part, prop)  # reported by applies() already, unless a verb drifted
        if not problems:
            raise AssertionError(f"combat dispatches no effect {verb!r}, yet COMBAT_VERBS names it")
        raise RulesError(problems)
    resource = str(prop.get("resource"))
    why = f"{part.display}, {engagement.reason}"
    for side in sides(ctx, engagement, role(prop)):
        dice = prop.get("roll")
        amount = ctx.roll(dice, f"{why}: {verb} {resource}") if dice is not None else int(prop.get("amount"))
        change_within(ctx, side, resource, amount if verb == "gain" else -amount, prop.get("floor"), why)


def sides(ctx: Context, engagement: Any, role: str | None) -> list[str]:
    """The sides a role names in a combat result, in order, each once."""
    roller = engagement.attacker_side
    fired_at = _fired_at(ctx, engagement)
    if role in _ROLLER:
        found = [roller]
    elif role in _FIRED_AT:
        found = fired_at or [s for s in ctx.rules.sides if s != roller]
    elif role in ("opponent", "enemy"):
        found = [s for s in ctx.rules.sides if s != roller]
    else:  # both
        found = [roller, *fired_at]
    return [s for s in dict.fromkeys(found) if s is not None]


def role(prop: Property) -> str | None:
    """The role word of an effect line: the first of ``dsl.vocabulary.ROLES`` before its condition
    (the ``opponent`` of ``when opponent vp lead >= 25`` is not the line's role)."""
    condition = prop.get("condition") or ()
    words = prop.words[2:len(prop.words) - len(condition)]
    return next((w.text for w in words if not w.quoted and w.text in ROLES), None)


def names_cell(ctx: Context, selectors: Iterable[Any], cell: str | None) -> bool:
    """Whether any selector names ``cell``: its terrain, a tag of that terrain, a tag the map gives
    the cell, or its place name.  ``None`` or a cell off the map: no."""
    if cell is None or cell not in ctx.board.graph:
        return False
    named = ctx.rules.cell_selectors(ctx.board.terrain(cell), ctx.board.tags(cell))
    place = ctx.board.graph.nodes[cell].get("place")
    return any(str(s) in named or str(s) == place for s in selectors)


# --- helpers -------------------------------------------------------------------------------------


def _problems(ctx: Context, part: Declaration, prop: Property) -> list:
    """The line's E220/E221 diagnostics, worked out once per line and kept with the compiled rules."""
    derived = ctx.rules.derived
    cache = derived.setdefault("combat effect problems", {})
    found = cache.get(id(prop))
    if found is None or found[0] is not prop:
        names = derived.get("condition names")
        if names is None:
            names = derived["condition names"] = Names(ctx.rulebook)
        found = cache[id(prop)] = (prop, combat_effect_problems(ctx.rulebook, part, prop, names))
    return found[1]


def _fired_at(ctx: Context, engagement: Any) -> list[str]:
    return sorted({ctx.state.unit(i).side for i in engagement.defenders})


def _effect_text(prop: Property) -> str:
    """The line's words after ``effect`` and before ``when``."""
    condition = prop.get("condition") or ()
    end = len(prop.words) - len(condition) - (1 if condition else 0)
    return " ".join(w.text for w in prop.words[1:end])


