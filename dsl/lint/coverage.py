"""I6xx: provenance and coverage: gaps, errata, and sections nothing encodes.

These are information, not faults: a rulebook that encodes a real game keeps
a record of every value the source does not give (``gap``), every printed
mistake it corrects (``errata``) and every section of the source it has not
encoded.  The I6 family prints that record, so ``warbook lint --select I6``
is the list a reviewer checks against the source.

Limits: a section counts as cited when a cite names it or one of its
subsections (``§"11.2"`` covers ``section 11``, and ``section 11.0`` when
chapters are numbered so); prose in a section that is cited is assumed
encoded.
"""

from __future__ import annotations

import re
from typing import Iterator

from ..diagnostics import Diagnostic, diagnostic
from . import check
from .names import describe, index, iter_provenance
from ..model import Declaration, Rulebook

_CHAPTER = re.compile(r"(\d+)\.\d")
"""A numbered cite (``11.2``) and its chapter (``11``), whose heading may be declared as ``11.0``."""


def _sentence(text: str) -> str:
    """A designer's note as the tail of a message: one line, no trailing period."""
    return " ".join(text.split()).rstrip(".")


@check("I601", "provisional-value")
def provisional_value(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Lists every `gap "…"`: a value the source does not give, encoded provisionally.

    ## Why is this bad?
    It is not: gaps are honest. The list is what a reviewer or a player with the printed
    components should confirm or correct.

    ## Example
    `cost 2 gap "the terrain chart is not in the source"`.
    """
    for decl, prov in index(rb).provenance:
        for gap in prov.gaps:
            yield diagnostic("I601", gap.span, f"provisional value in {describe(decl)}: {_sentence(gap.text)}")


@check("I602", "errata")
def errata(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Lists every `errata "…"`: a place where the printed source is wrong and the rulebook
    encodes a corrected reading.

    ## Why is this bad?
    It is not: the list lets a reader see every place the encoding departs from the print.

    ## Example
    `errata "the legend swaps A and D; the table implies A = attackers removed"`.
    """
    for decl, prov in index(rb).provenance:
        for note in prov.errata:
            yield diagnostic("I602", note.span, f"errata in {describe(decl)}: {_sentence(note.text)}")


def _is_prose(section: Declaration) -> bool:
    """Whether the section says ``prose``, in its block or after its header (``section 1 "Intro" prose``)."""
    return section.has("prose") or "prose" in section.flags


@check("I603", "uncited-section")
def uncited_section(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a declared `section` that no rule cites with `§`, unless it is marked `prose`
    (nothing to encode) or says where it is `encoded in`.

    ## Why is this bad?
    It is a section of the source the rulebook may have missed.

    ## Example
    ```
    section 11.8 "Recycling"
    ```
    Cite it on the rule that encodes it (`combat fire "Fire" §"11.8"`, whose block says
    `recycle until one side remains`), or mark it `prose`.
    """
    idx = index(rb)
    cited: set[int] = set()
    for _, prov in idx.provenance:
        for cite in prov.sections:
            cited.update(id(found) for found in idx.cited_sections(cite.text))
            # A chapter numbered "11.0" is the heading of 11.1, 11.2 …
            if (chapter := _CHAPTER.match(cite.text)) and (heading := idx.sections.get(f"{chapter[1]}.0")):
                cited.add(id(heading))
    for section in idx.of_kind("section"):
        if id(section) in cited or section.has("encoded") or _is_prose(section):
            continue
        yield diagnostic("I603", section.name_span, f"section {section.name!r} is cited by no rule",
                         "cite it with §, or mark it 'prose' or 'encoded in \"…\"'")


@check("I604", "provisional-cells")
def provisional_cells(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a table with provisional cells (ending in `?`), with their count.

    ## Why is this bad?
    It is not, if the `gap` says why; but a game played on the table rests on values the
    source does not give, and the count shows how much.

    ## Example
    `2: A? A? K?` — three provisional cells.
    """
    for view in index(rb).tables:
        count = sum(cell.provisional for row in view.rows for cell in row.cells)
        if count:
            total = sum(len(row.cells) for row in view.rows)
            yield diagnostic("I604", view.decl.name_span,
                             f"table {view.name!r} has {count} provisional cell{'s' if count > 1 else ''} of {total}")


@check("I605", "uncited-declaration")
def uncited_declaration(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a declaration with no `§` cite on it, on any of its lines, or on the declaration
    it is nested in, when the rulebook declares sections.

    ## Why is this bad?
    A reader cannot check the rule against the source without knowing where it comes from.

    ## Example
    `terrain jungle "Jungle"` → `terrain jungle "Jungle" §"Terrain table"`.
    """
    idx = index(rb)
    if not idx.of_kind("section"):
        return

    def visit(decl: Declaration, inherited: bool) -> Iterator[Diagnostic]:
        cited = inherited or any(p.sections for p in iter_provenance(decl))
        if not cited and decl.kind not in ("rulebook", "section"):
            yield diagnostic("I605", decl.name_span, f"{describe(decl)} cites no section",
                             'add §"…" naming the section it encodes')
        for child in decl.children:
            yield from visit(child, cited)

    for decl in rb.declarations:
        yield from visit(decl, False)
