"""Citations: the sections of the source a rule comes from, for messages that name their rule.

Every reason the engine gives a player ("0102 is jungle: … (§MOVEMENT)") ends with the rule it
applies, read from the provenance the rulebook gives each declaration and line (``§"8.4"``).
Guarantees: a line's own sections win over its declaration's; a rule without any gives an empty
citation, and ``because`` then leaves the parentheses out.  Limits: only section names are cited,
not errata or gaps, nor the file and line of the rule.
"""

from __future__ import annotations

from ..dsl.model import Declaration, Property


def cite(decl: Declaration | None, prop: Property | None = None) -> str:
    """The sections a rule comes from, as ``§A, §B`` (the line's own, else its declaration's)."""
    names: tuple[str, ...] = ()
    if prop is not None:
        names = prop.provenance.section_names
    if not names and decl is not None:
        names = decl.provenance.section_names
    return ", ".join(f"§{n}" for n in names)


def because(text: str, decl: Declaration | None, prop: Property | None = None, inside: str = "") -> str:
    """``text (inside, §SECTION)``: a reason followed by the rule that gives it."""
    parts = [p for p in (inside, cite(decl, prop)) if p]
    return f"{text} ({', '.join(parts)})" if parts else text


def cite_first(decl: Declaration | None, name: str) -> str:
    """The citation of a declaration's first ``name`` line (its own sections, else the
    declaration's), else the declaration's name: what a message about that line ends with."""
    prop = decl.first(name) if decl is not None else None
    return cite(decl, prop) or (decl.name if decl is not None else "")
