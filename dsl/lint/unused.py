"""W4xx: declarations nothing refers to.

"Used" means referred to from another declaration: by a name in any property
(selectors, ``table``, ``do``/``effect`` bindings, ``requires option`` …), as
dice in an effect (``gain cp d6``), as a result or event in a table cell
(each part of a compound ``K+B+A``), as a row key of a table keyed by names,
as a column heading of a table looked up by key, or as a word in a ``when``
condition or a similar free-word binding.  ``references`` collects all of
them once; every check here asks it one question.

Limits: the linter does not read scenario files, so a unit type, marker or
box that only a scenario places may look unused; use is not transitive (a
table used only by an unused combat counts as used); and a free word that
happens to equal a name counts as a use, so W4 errs towards silence.
"""

from __future__ import annotations

from typing import Any, Iterator

from attrs import frozen

from ..diagnostics import Diagnostic, diagnostic
from . import check
from .names import index, per_rulebook
from ..model import Declaration, Rulebook
from ..patterns import Ref
from ..values import Dice

_NOT_REFERENCES = frozenset({"effect", "procedure", "labels", "names", "text", "level"})
"""Binding keys whose words name no other declaration: the verb, column headings, aliases, a level's own name."""


@frozen
class References:
    """Everything a rulebook refers to: typed ``(kind, name)`` pairs and free words."""

    typed: frozenset[tuple[str, str]]
    words: frozenset[str]

    def uses(self, decl: Declaration) -> bool:
        return (decl.kind, decl.name) in self.typed or decl.name in self.words


def _collect(value: Any, own: tuple[str, str], typed: set, words: set) -> None:
    if isinstance(value, Ref):
        typed.update((kind, value.name) for kind in value.kinds if (kind, value.name) != own)
    elif isinstance(value, Dice):
        typed.add(("dice", str(value)))
    elif isinstance(value, str):
        if value != own[1]:
            words.add(value)
    elif isinstance(value, tuple):
        for item in value:
            _collect(item, own, typed, words)


def collect_references(rb: Rulebook) -> References:
    """Every reference in ``rb`` (a declaration referring to itself does not count)."""
    idx = index(rb)
    typed: set[tuple[str, str]] = set()
    words: set[str] = set()
    for decl in idx.declarations:
        own = (decl.kind, decl.name)
        for prop in decl.properties:
            for key, value in prop.values:
                if key not in _NOT_REFERENCES:
                    _collect(value, own, typed, words)
    for view in idx.tables:
        for row in view.rows:
            if view.row_keys == "names":
                words.update(w.text for w in row.key_words)
            for cell in row.cells:
                if view.cells_are == "results":
                    typed.add(("result", cell.text))
                    typed.update(("result", part) for part in cell.text.split("+"))
                elif view.cells_are == "events":
                    typed.add(("event", cell.text))
                elif view.cells_are == "text":
                    words.add(cell.text)
        if view.lookup == "key":
            words.update(c.label for c in view.columns)
    return References(frozenset(typed), frozenset(words))


references = per_rulebook(collect_references)
"""The references of a rulebook, collected once per lint run."""


def _unused(rb: Rulebook, kind: str, code: str, hint: str) -> Iterator[Diagnostic]:
    refs = references(rb)
    for decl in index(rb).of_kind(kind):
        if not refs.uses(decl):
            yield diagnostic(code, decl.name_span, f"{kind} {decl.name!r} is never used", hint)


@check("W401", "unused-result")
def unused_result(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `result` that no table cell gives, alone or as part of a compound (`K+B+A`).

    ## Why is this bad?
    Its effects never apply. Usually a table cell misspells it, or the result was renamed.

    ## Example
    ```
    result DR "Defender retreats"
    table crt {
        1: DE D_R
    }
    ```
    Use instead: `1: DE DR`.
    """
    return _unused(rb, "result", "W401", "no table cell gives it")


@check("W402", "unused-table")
def unused_table(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `table` that no combat, procedure (`do roll events on …`), effect
    (`effect roll d6 on …`) or other rule names.

    ## Why is this bad?
    Nothing ever rolls on it, so its results never happen.

    ## Example
    A `table crt2` left over after the combat was changed to use `table crt`: remove it,
    or name it where it is rolled.
    """
    return _unused(rb, "table", "W402", "name it in a combat, a 'do' or an 'effect roll … on'")


@check("W403", "unused-tag")
def unused_tag(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `tag` that no declaration carries (`tags …`), no rule selects (`for …`,
    `of …`) and no other tag is `within`.

    ## Why is this bad?
    A tag exists so rules can name a category; one nobody names is dead, or the rule that
    should name it misspells it.

    ## Example
    `tag mech "Mechanised"` with `cost 2 for mechanized` → one spelling for both.
    """
    return _unused(rb, "tag", "W403", "give it to units or terrain with 'tags', or select it in a rule")


@check("W404", "unused-factor")
def unused_factor(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `factor` that no rule reads: no combat (`attack factor`, `defence factor`,
    `column shift by`), movement class (`points factor`), ordering (`order by`), table
    (`lookup by`) or condition names it. Printing values on counters does not count.

    ## Why is this bad?
    The numbers on the counters are never used; usually the rule that should read them
    names another factor.

    ## Example
    `factor motivation "Motivation"` with no `order by motivation` or
    `column shift by motivation difference …` anywhere.
    """
    return _unused(rb, "factor", "W404", "name it in a combat, movement class, ordering or table lookup")


@check("W405", "unused-event")
def unused_event(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports an `event` that no events table (`cells are events`) lists.

    ## Why is this bad?
    No roll can bring it about.

    ## Example
    `event ambush` with `1: ambsh` in the events table → `1: ambush`.
    """
    return _unused(rb, "event", "W405", "list it in a table with 'cells are events'")


@check("W406", "unused-mode")
def unused_mode(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `mode` that no procedure declares (`do declare MODE`) and no rule names.

    ## Why is this bad?
    Units can never be put in the mode, so what it allows and forbids never applies.

    ## Example
    `mode watch` → add `do declare watch` to a phase.
    """
    return _unused(rb, "mode", "W406", "add 'do declare NAME' to a phase")


@check("W407", "unused-dice")
def unused_dice(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports `dice` that no table, spotting rule, procedure or effect rolls.

    ## Why is this bad?
    Usually the tables name another die by mistake (`d6` declared, `d10` rolled).

    ## Example
    `dice d10` with every table saying `roll d6` → remove `dice d10`, or roll it where meant.
    """
    return _unused(rb, "dice", "W407", "roll it in a table ('roll NAME'), a procedure or an effect")


@check("W408", "unused-movement")
def unused_movement(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `movement` class that no unit has and no rule names.

    ## Why is this bad?
    Its costs and restrictions never apply; usually a unit names another class by mistake.

    ## Example
    `movement river` with every boat saying `movement boat` by mistake.
    """
    return _unused(rb, "movement", "W408", "give it to units with 'movement NAME'")


@check("W409", "unused-resource")
def unused_resource(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `resource` that nothing gains, spends, scores or wins by.

    ## Why is this bad?
    A track nobody moves is dead weight on the players' record sheet.

    ## Example
    `resource cp "Command Points"` with no `cost cp …`, `gain cp …` or `gain income cp`.
    """
    return _unused(rb, "resource", "W409", "spend it in an action, gain it in an effect or win by it")


@check("W410", "unused-box")
def unused_box(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `box` that no procedure, effect, stacking rule or other box names.

    ## Why is this bad?
    Units can never enter or leave it.

    ## Example
    `box refit "Refit Box"` with results saying `effect return 1 targets to refitbox`.
    """
    return _unused(rb, "box", "W410", "name it in a procedure ('reinforce from', 'refit from') or an effect")


@check("W411", "unused-option")
def unused_option(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports an `option` that no declaration `requires`.

    ## Why is this bad?
    Switching it on or off changes nothing.

    ## Example
    `option night "Night turns"` → add `requires option night` to the rules it governs.
    """
    return _unused(rb, "option", "W411", "add 'requires option NAME' to the rules it governs")


@check("W412", "unused-combat")
def unused_combat(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `combat` that no phase runs (`do fight`, `do bombard with`,
    `do resolve fire with`).

    ## Why is this bad?
    The sequence of play never fights with it.

    ## Example
    `combat assault` → add `do fight assault` to the combat phase.
    """
    return _unused(rb, "combat", "W412", "run it from a phase with 'do fight NAME'")


@check("W413", "unused-nationality")
def unused_nationality(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `nationality` that no unit has and no rule names.

    ## Why is this bad?
    Usually units name the side instead and lose the colour and rules of their nationality.

    ## Example
    `nationality navy "Navy"` with no unit saying `nationality navy`.
    """
    return _unused(rb, "nationality", "W413", "give it to units with 'nationality NAME'")
