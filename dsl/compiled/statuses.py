"""Statuses compiled: what a ``status`` (disrupted, disorganised) forbids, the factors it changes,
and the phase at whose end units recover (``interpreter.status_effects``)."""

from __future__ import annotations

from fractions import Fraction

from attrs import field, frozen

from ..model import Declaration


@frozen
class Status:
    """One ``status`` declaration, every line of it read."""

    name: str
    label: str
    decl: Declaration = field(repr=False)
    forbids: frozenset[str]
    """``move``, ``attack``."""
    factors: tuple[tuple[str, Fraction], ...]
    """(factor, multiplier) for each ``factor F xM`` line, in order."""
    recovers_at: str | None
    """The phase or step at whose end units recover (``None``: never)."""

    def multiplier(self, factor: str) -> Fraction:
        """The product of the status's multipliers of ``factor`` (1 when it changes none)."""
        out = Fraction(1)
        for name, value in self.factors:
            if name == factor:
                out *= value
        return out


def compile_status(decl: Declaration) -> Status:
    """One ``status`` declaration as a ``Status``."""
    recovers = decl.first("recovers")
    return Status(
        name=decl.name, label=decl.display, decl=decl,
        forbids=frozenset(w for p in decl.all("forbids") for w in ("move", "attack") if p.has(w)),
        factors=tuple((str(p.get("factor")), Fraction(p.get("multiplier"))) for p in decl.all("factor")),
        recovers_at=str(recovers.get("phase")) if recovers is not None else None,
    )
