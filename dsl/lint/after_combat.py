"""Checks of what follows a combat: a combat's ``advance after combat`` line and its ``retreat …``
lines (E140, E141, E142, E143, W512, W513), and the statuses results give (E144, W514).

Limits: E141 reads the sequence's ``do`` lines by their words (``fight COMBAT``, ``bombard with
COMBAT``, ``resolve fire with COMBAT``); it does not follow scenario overlays that add phases.
"""

from __future__ import annotations

from typing import Iterator

from ..diagnostics import Diagnostic, diagnostic
from ..model import Declaration, Rulebook
from . import check

_OTHER_PROCEDURES = (("bombard", "with"), ("resolve", "fire", "with"))
"""``do`` lines that fight a combat and never advance after it (the word before the combat's name)."""


def _combats_run(rb: Rulebook) -> tuple[set[str], dict[str, str]]:
    """(combats some ``do fight`` names, combat → the first other ``do`` line fighting it, as written)."""
    fought: set[str] = set()
    other: dict[str, str] = {}
    for decl in rb.walk():
        if decl.kind not in ("phase", "step"):
            continue
        for line in decl.all("do"):
            words = tuple(w.text for w in line.words[1:])
            if len(words) == 2 and words[0] == "fight":
                fought.add(words[1])
            for head in _OTHER_PROCEDURES:
                if words[:len(head)] == head and len(words) > len(head):
                    other.setdefault(words[len(head)], line.text)
    return fought, other


def _advance(combat: Declaration):
    return combat.first("advance")


@check("E140", "advance-from-a-distance")
def advance_from_a_distance(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports `advance after combat` on a combat that is not `adjacent`, that fires at a range
    (`range factor`) or whose attackers are not touched by its results (`attackers unharmed`).

    ## Why is this bad?
    An advance moves the attackers into the hex they attacked next to them. Units fighting in
    their own cell, or firing from a distance, have no such hex to follow into: the line would
    never be carried out.

    ## Example
    ```
    combat barrage {
        range factor range
        attackers unharmed
        advance after combat
    }
    ```
    Use instead: put the advance on the combat of the assault (`adjacent`).
    """
    for combat in rb.of_kind("combat"):
        line = _advance(combat)
        if line is None:
            continue
        why = ("is not 'adjacent': its units fight in their own cell" if not combat.has("adjacent")
               else "fires at a range ('range factor')" if combat.has("range")
               else "leaves its attackers unharmed: they fire from a distance" if combat.has("attackers") else None)
        if why is not None:
            yield diagnostic("E140", line.span, f"combat {combat.name!r} advances after combat but {why}",
                             "advance after the combat of an adjacent assault")


@check("E141", "advance-never-fought")
def advance_never_fought(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports `advance after combat` on a combat that no `do fight COMBAT` line fights, or that
    `do bombard with COMBAT` or `do resolve fire with COMBAT` also fights.

    ## Why is this bad?
    Only `do fight` carries out the advance, after each attack. A bombardment or a battle's
    round of fire fought with the same combat would not advance, though the combat says it does.

    ## Example
    ```
    combat shelling {
        adjacent
        advance after combat
    }
    phase artillery {
        do bombard with shelling
    }
    ```
    Use instead: a combat of its own for the bombardment, without the advance.
    """
    fought, other = _combats_run(rb)
    for combat in rb.of_kind("combat"):
        line = _advance(combat)
        if line is None:
            continue
        if combat.name in other:
            yield diagnostic("E141", line.span, f"combat {combat.name!r} advances after combat, but "
                             f"'{other[combat.name]}' fights it, which never advances",
                             "give the bombardment or battle a combat of its own")
        elif combat.name not in fought:
            yield diagnostic("E141", line.span, f"combat {combat.name!r} advances after combat, but no "
                             f"'do fight {combat.name}' fights it", f"add 'do fight {combat.name}' to a phase, "
                             "or drop the line")


@check("E142", "after-combat-count-below-one")
def after_combat_count_below_one(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports `advance after combat … up to N hexes` or `retreat extended by N when overstacked`
    with N below 1.

    ## Why is this bad?
    An advance of no hexes is no advance, and a retreat extended by no hexes is not extended:
    the line says something the rules cannot mean.

    ## Example
    ```
    combat assault {
        adjacent
        advance after combat up to 0 hexes
    }
    ```
    Use instead: `advance after combat` (the hex attacked) or `up to 2 hexes`.
    """
    for combat in rb.of_kind("combat"):
        for line in (*combat.all("advance"), *combat.all("retreat")):
            hexes = line.get("hexes")
            if hexes is not None and int(hexes) < 1:
                yield diagnostic("E142", line.span, f"combat {combat.name!r}: '{line.text}' counts {hexes} hexes",
                                 "give 1 hex or more, or drop the line")


@check("E143", "conflicting-retreat-lines")
def conflicting_retreat_lines(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a combat's second `retreat chosen by …`, `retreat not through friendly units` or
    `retreat extended by …` line.

    ## Why is this bad?
    Only the first of each is read: a second that says something else (another chooser, another
    extension) would be dropped without a word.

    ## Example
    ```
    combat assault {
        retreat chosen by owner
        retreat chosen by victor
    }
    ```
    Use instead: one line of each.
    """
    for combat in rb.of_kind("combat"):
        seen: set[str] = set()
        for line in combat.all("retreat"):
            which = line.words[1].text
            if which in seen:
                yield diagnostic("E143", line.span, f"combat {combat.name!r} has a second 'retreat {which} …' line",
                                 "keep one")
            seen.add(which)


@check("W512", "advance-zones-moot")
def advance_zones_moot(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports `advance after combat … ignoring zones` for an advance of one hex.

    ## Why is this bad?
    A zone of control stops an advance only after the hex it enters, so an advance of one hex,
    into the hex attacked, goes as far without zones as with them. The rule probably meant a
    longer advance (`up to N hexes`).

    ## Example
    ```
    combat assault {
        adjacent
        advance after combat ignoring zones
    }
    ```
    Use instead: `advance after combat up to 2 hexes ignoring zones`, or drop `ignoring zones`.
    """
    for combat in rb.of_kind("combat"):
        line = _advance(combat)
        hexes = line.get("hexes") if line is not None else None
        if line is not None and line.has("ignoring") and (hexes is None or int(hexes) == 1):
            yield diagnostic("W512", line.span, f"combat {combat.name!r} advances one hex: ignoring zones "
                             "changes nothing", "say how far ('up to N hexes') or drop 'ignoring zones'")


@check("W513", "retreat-extension-unused")
def retreat_extension_unused(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports `retreat extended by N when overstacked` on a combat that also says `retreat not
    through friendly units`.

    ## Why is this bad?
    A retreat that never enters a hex holding its side's units never ends in one it overstacks,
    so the extension is never used: one of the two lines is probably not what the rules say.

    ## Example
    ```
    combat assault {
        retreat not through friendly units
        retreat extended by 1 when overstacked
    }
    ```
    Use instead: one of the two.
    """
    for combat in rb.of_kind("combat"):
        lines = combat.all("retreat")
        extended = next((p for p in lines if p.words[1].text == "extended"), None)
        if extended is not None and any(p.words[1].text == "not" for p in lines):
            yield diagnostic("W513", extended.span, f"combat {combat.name!r}: retreats never enter friendly "
                             "units, so none ends overstacked", "drop one of the two lines")


def _combat_factors(rb: Rulebook) -> set[str]:
    """The factors some combat reads through a unit: its attack, defence, range and order factors."""
    out = set()
    for combat in rb.of_kind("combat"):
        for name in ("attack", "defence", "range", "order"):
            line = combat.first(name)
            if line is not None and line.get("factor") is not None:
                out.add(str(line.get("factor")))
    return out


@check("E144", "status-factor-unread")
def status_factor_unread(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a status's `factor F xM` line for a factor no combat reads (its `attack factor`,
    `defence factor`, `range factor` or `order by`), or with a multiplier of 0 or less.

    ## Why is this bad?
    A status changes a factor where a combat reads it; a movement allowance is read per unit type,
    so a status halving it would be dropped. A multiplier of 0 would keep a unit in fights it can
    no longer take part in: say what the status forbids instead.

    ## Example
    ```
    status disrupted {
        factor move x1/2
    }
    ```
    Use instead: `forbids move`, or a factor a combat reads (`factor attack x1/2`).
    """
    read = _combat_factors(rb)
    for status in rb.of_kind("status"):
        for line in status.all("factor"):
            factor, multiplier = str(line.get("factor")), line.get("multiplier")
            if factor not in read:
                yield diagnostic("E144", line.span, f"status {status.name!r} changes factor {factor!r}, which no "
                                 "combat reads", "change an attack, defence, range or order factor of a combat, "
                                 "or say what the status forbids")
            elif multiplier is not None and multiplier <= 0:
                yield diagnostic("E144", line.span, f"status {status.name!r} multiplies {factor!r} by "
                                 f"{multiplier}", "use 'forbids attack' (or 'forbids move') instead")


@check("W514", "status-never-given")
def status_never_given(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `status` that no `effect mark ROLE STATUS` line gives.

    ## Why is this bad?
    No unit can be in it, so what it forbids and changes never applies: a result probably names
    another status, or lost its `mark` line.

    ## Example
    ```
    status shaken {
        forbids attack
    }
    ```
    Use instead: `result DS { effect mark defenders shaken }`.
    """
    given = {str(p.get("status")) for d in rb.walk() for p in d.all("effect") if p.get("effect") == "mark"}
    for status in rb.of_kind("status"):
        if status.name not in given:
            yield diagnostic("W514", status.name_span, f"status {status.name!r} is never given (no 'effect mark … "
                             f"{status.name}')", "give it in a result, or drop it")
