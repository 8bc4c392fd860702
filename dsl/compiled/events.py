"""Events compiled: whose event each one is.

``event NAME { side SIDE … }`` becomes an ``EventRule``.  Its ``effect`` lines are compiled by
``dsl.effects`` (``Rules.effects``) and its ``text`` is read at play, for the log; the ``side``
line is read here, once.
"""

from __future__ import annotations

from attrs import field, frozen

from ..model import Declaration


@frozen
class EventRule:
    """One event: its printed text and its owner."""

    name: str
    label: str
    decl: Declaration = field(repr=False)
    text: str
    """Its ``text`` lines joined, for the log (empty without one)."""
    side: str | None
    """``side SIDE``: whose event it is, the side its effects call ``owner``/``own`` (``opponent`` is
    the other); ``None``: no line, so the event is the side's that rolled or triggered it."""

    def owner(self, roller: str) -> str:
        """The side the event's effects are carried out for, when ``roller`` rolled or triggered it."""
        return self.side if self.side is not None else roller


def compile_event(decl: Declaration) -> EventRule:
    """One ``event`` declaration as an ``EventRule``."""
    side = decl.first("side")
    return EventRule(name=decl.name, label=decl.display, decl=decl,
                     text=" ".join(str(p.get("text")) for p in decl.all("text")),
                     side=str(side.get("side")) if side is not None else None)
