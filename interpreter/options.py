"""Optional rules in force: which ``option`` declarations are on in this game.

A rulebook declares ``option NAME { default on|off }`` and marks the declarations
that apply only with it by ``requires option NAME``.  A scenario may switch options
(``[scenario.options]``) and may let a side decide one before play
(``[scenario.choose]``); see ``interpreter.scenario``.

The options in force are carried by the rulebook the game is played with: each
option's ``default`` line is rewritten to say whether it is on (``with_options``).
So everything that reads an option's default (movement's zones, the ``unless
option`` exception of a side's ``never enters``, any ``requires option``) sees the
game's options without being told about scenarios, and the compiled ``Rules`` (and
the caches movement keeps per ``Rules``) are built once per set of options.

>>> from warbook.dsl import load_rulebook
>>> rb = load_rulebook("rulebooks/sea_lords.rules")
>>> option_on(rb, "naval_zoc"), option_on(with_options(rb, {"naval_zoc": True}), "naval_zoc")
(False, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from attrs import evolve

from ..dsl.ast import Word
from ..dsl.compiled.lines import required_option
from ..dsl.model import Declaration, Property, Rulebook


def _rulebook(where: Any) -> Rulebook:
    """The rulebook of a ``Context``, a ``Rules``, a ``Scenario`` or a ``Rulebook``."""
    if isinstance(where, Rulebook):
        return where
    found = getattr(where, "rulebook", None)
    if isinstance(found, Rulebook):
        return found
    raise TypeError(f"no rulebook in {where!r}")


def option_on(where: Any, name: str) -> bool:
    """Whether the optional rule ``name`` is in force (an undeclared option never is).

    ``where`` is a game's ``Context`` (``ctx``), its ``Rules``, a ``Scenario`` or a ``Rulebook``.
    """
    option = _rulebook(where).get("option", name)
    default = option.first("default") if option is not None else None
    return default is not None and default.has("on")


def in_force(where: Any, decl: Declaration) -> bool:
    """Whether a declaration applies: it has no ``requires option`` or that option is on.

    The one test of ``requires option``: ``Rules`` applies it as it compiles the kinds that honour
    the line (``dsl.compiled.lines.OPTIONAL_KINDS``), so nothing else has to ask.
    """
    needs = required_option(decl)
    return needs is None or option_on(where, needs)


def options_on(where: Any) -> frozenset[str]:
    """The names of every option in force."""
    rulebook = _rulebook(where)
    return frozenset(d.name for d in rulebook.of_kind("option") if option_on(rulebook, d.name))


def with_options(rulebook: Rulebook, settings: Mapping[str, bool]) -> Rulebook:
    """The rulebook with each named option switched on (``True``) or off: its ``default`` rewritten.

    Options not named, and names that are not declared options, are left as they are.
    """
    changed = {name: on for name, on in settings.items()
               if rulebook.get("option", name) is not None and option_on(rulebook, name) != on}
    if not changed:
        return rulebook
    return evolve(rulebook, declarations=tuple(_switched(d, changed) for d in rulebook.declarations))


def _switched(decl: Declaration, changed: Mapping[str, bool]) -> Declaration:
    if decl.kind != "option" or decl.name not in changed:
        return decl
    old = decl.first("default")
    span = old.span if old is not None else decl.span
    line = Property("default", span, (Word(span, "default"), Word(span, "on" if changed[decl.name] else "off")), ())
    properties = [p for p in decl.properties if p.name != "default"]
    return evolve(decl, properties=(line, *properties))
