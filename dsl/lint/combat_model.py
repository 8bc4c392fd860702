"""Checks of a combat's model lines, what ``do fight`` offers (E230-E233), of its fire at range
(E240, E241), and of a locking zone of control (W515).

Limits: E232 reads the sequence's ``do fight COMBAT`` lines by their words; it does not follow
scenario overlays that add phases.
"""

from __future__ import annotations

from typing import Iterator

from ..diagnostics import Diagnostic, diagnostic
from ..model import Rulebook
from . import check

_MODEL_LINES = ("each", "minimum", "any", "mandatory", "attacks", "supporting", "one")
"""The first words of the combat lines that only ``do fight`` reads."""


@check("E230", "minimum-odds-never-read")
def minimum_odds_never_read(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports `minimum odds` on a combat that compares totals (`compare total`) or is always
    fought at `fixed odds`.

    ## Why is this bad?
    Such a combat never sets attack against defence, so no attack is ever below the minimum, or
    every attack is: the line says nothing the combat could carry out.

    ## Example
    ```
    combat fire {
        compare total
        minimum odds 1:2
    }
    ```
    Use instead: drop the line, or compare odds.
    """
    for combat in rb.of_kind("combat"):
        line = combat.first("minimum")
        if line is None:
            continue
        compare = combat.first("compare")
        why = ("compares totals" if compare is not None and compare.has("total")
               else "is fought at fixed odds" if combat.has("fixed") else None)
        if why is not None:
            yield diagnostic("E230", line.span, f"combat {combat.name!r} has a minimum odds but {why}",
                             "drop the line, or compare odds")


@check("E231", "mandatory-attack-without-zone")
def mandatory_attack_without_zone(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports `mandatory attack by units in enemy zones` in a rulebook with no `zone` declaration.

    ## Why is this bad?
    With no zone of control no unit is ever in an enemy zone: the attack it makes mandatory is
    never owed.

    ## Example
    ```
    combat assault {
        adjacent
        mandatory attack by units in enemy zones
    }
    ```
    Use instead: declare the zone, or make attacks on adjacent enemies mandatory.
    """
    if rb.of_kind("zone"):
        return
    for combat in rb.of_kind("combat"):
        for line in combat.all("mandatory"):
            if line.has("zones"):
                yield diagnostic("E231", line.span, f"combat {combat.name!r} makes units in enemy zones attack, "
                                 "but the rulebook declares no zone", "declare a zone, or write "
                                 "'mandatory attack on adjacent enemies'")


@check("E233", "mandatory-adjacent-not-adjacent")
def mandatory_adjacent_not_adjacent(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports `mandatory attack on adjacent enemies` on a combat that is not `adjacent`.

    ## Why is this bad?
    Such a combat fights the enemy in the attackers' own cell, never the units next to them: the
    attacks the line makes mandatory are never offered.

    ## Example
    ```
    combat melee {
        mandatory attack on adjacent enemies
    }
    ```
    Use instead: add `adjacent`, or drop the line.
    """
    for combat in rb.of_kind("combat"):
        if combat.has("adjacent"):
            continue
        for line in combat.all("mandatory"):
            if line.has("adjacent"):
                yield diagnostic("E233", line.span, f"combat {combat.name!r} makes attacks on adjacent enemies "
                                 "mandatory, but it is not 'adjacent': it fights in the attackers' own cell",
                                 "add 'adjacent', or drop the line")


@check("E232", "combat-model-never-fought")
def combat_model_never_fought(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports `each defender attacked once per phase`, `minimum odds`, `any combination of
    attackers`, `mandatory attack …`, `attacks declared before any is resolved`, `supporting
    fire from range` or `one attack on several hexes` on a combat
    that no `do fight COMBAT` line fights (`any combination of attackers` only when no `do
    bombard with COMBAT` line bombards with it either).

    ## Why is this bad?
    These lines say what `do fight` offers a side (`any combination of attackers` also what
    `do bombard` offers); a combat only bombarded with, or fought by a battle's round of fire,
    would never read the others.

    ## Example
    ```
    combat shelling {
        range factor range
        minimum odds 1:2
    }
    phase artillery {
        do bombard with shelling
    }
    ```
    Use instead: drop the line, or fight the combat with `do fight`.
    """
    fought, bombarded = set(), set()
    for decl in rb.walk():
        if decl.kind in ("phase", "step"):
            for line in decl.all("do"):
                words = [w.text for w in line.words[1:]]
                if len(words) == 2 and words[0] == "fight":
                    fought.add(words[1])
                elif len(words) >= 3 and words[:2] == ["bombard", "with"]:
                    bombarded.add(words[2])
    for combat in rb.of_kind("combat"):
        if combat.name in fought:
            continue
        for line in combat.properties:
            if line.name in _MODEL_LINES and not (line.name == "any" and combat.name in bombarded):
                yield diagnostic("E232", line.span, f"combat {combat.name!r}: '{line.text}' says what 'do fight' "
                                 f"offers, but no 'do fight {combat.name}' fights it",
                                 f"add 'do fight {combat.name}' to a phase, or drop the line")


@check("W515", "locking-zone-passable")
def locking_zone_passable(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `zone` that `locks units in it` but does not say `stops movement`.

    ## Why is this bad?
    A unit that stands in the zone as a move begins may not leave it, yet a unit that enters it
    during its move may walk on through and out: the zone holds only the units that stopped in
    it before, which is seldom what a locking zone of control means.

    ## Example
    ```
    zone zoc {
        range 1
        locks units in it
    }
    ```
    Use instead: add `stops movement`.
    """
    for zone in rb.of_kind("zone"):
        line = zone.first("locks")
        if line is not None and not zone.has("stops"):
            yield diagnostic("W515", line.span, f"zone {zone.name!r} locks units in it but does not stop movement: "
                             "a unit may pass through it", "add 'stops movement'")


_RANGE_LINES = ("fires", "line", "supporting")
"""The first words of the combat lines only fire at range reads."""


@check("E240", "range-fire-without-range-factor")
def range_fire_without_range_factor(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports `fires at least N hexes away`, `line of fire blocked by` or `supporting fire from range` on a combat
    with no `range factor`.

    ## Why is this bad?
    Only a unit with the combat's range factor fires at range: without one no unit ever does, and
    the line is never read (an aircraft bombarding with `unlimited distance` flies to its target).

    ## Example
    ```
    combat shelling {
        fires at least 2 hexes away
    }
    ```
    Use instead: add `range factor FACTOR`, or drop the line.
    """
    for combat in rb.of_kind("combat"):
        if combat.has("range"):
            continue
        for line in combat.properties:
            if line.name in _RANGE_LINES:
                yield diagnostic("E240", line.span, f"combat {combat.name!r}: '{line.text}' is about fire at range, "
                                 "but the combat has no 'range factor'", "add 'range factor FACTOR', or drop the line")


@check("E241", "assault-line-not-adjacent")
def assault_line_not_adjacent(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports `supporting fire from range` or `one attack on several hexes` on a combat that is not
    `adjacent`.

    ## Why is this bad?
    Both are about assaults on adjacent hexes: supporting fire adds to one from a unit not adjacent,
    an attack on several hexes is one on every hex next to its attackers.  A combat fought in the
    attackers' own cell has neither.

    ## Example
    ```
    combat melee {
        range factor range
        supporting fire from range
    }
    ```
    Use instead: add `adjacent`, or drop the line.
    """
    for combat in rb.of_kind("combat"):
        if combat.has("adjacent"):
            continue
        for line in (*combat.all("supporting"), *combat.all("one")):
            yield diagnostic("E241", line.span, f"combat {combat.name!r}: '{line.text}' is about assaults on adjacent "
                             "hexes, but the combat is not 'adjacent': it fights in the attackers' own cell",
                             "add 'adjacent', or drop the line")
