"""Procedure calls compiled: each ``do …`` line of a phase as a typed record of its arguments.

A ``do`` line names one of ``dsl.vocabulary.PROCEDURES`` and the loader has matched it to that
procedure's pattern.  Here it becomes an instance of the procedure's ``Call`` class below, whose
fields are the pattern's captures and flag words, read once: a name as ``str`` (``None`` when an
optional part is left out), a list of names as ``tuple[str, ...]``, a literal word such as
``descending`` as ``bool`` (whether it is written), a ``when`` condition parsed (``Condition``,
with its error when the grammar cannot read it).  The interpreter's procedure for ``do NAME``
(``interpreter.procedures``) receives the call; nothing at play reads the line's words.

>>> from warbook.dsl.model import Property
>>> from warbook.dsl.ast import Span
>>> from warbook.dsl.conditions import Names
>>> from warbook.dsl.model import Rulebook
>>> line = Property("do", Span("x", 1, 1, 1, 9), (), (("procedure", "move"), ("factor", "speed")))
>>> compile_call(line, Names(Rulebook("x", ())))
Move(only=(), using=None, factor='speed', descending=False, bringing=False)
"""

from __future__ import annotations

from typing import Any, ClassVar, Optional

import attrs
from attrs import field, frozen

from ..conditions import Condition, ConditionError, Names, read_condition
from ..model import Property
from .lines import as_names


@frozen
class Call:
    """A ``do`` line: which procedure it runs (``procedure``) and the line as written (``source``,
    for citations and positioned errors)."""

    procedure: ClassVar[str] = ""
    source: Property = field(repr=False, eq=False, kw_only=True)


CALLS: dict[str, type[Call]] = {}
"""Procedure name (``dsl.vocabulary.PROCEDURES``) to the class of its calls."""


def _call(name: str):
    """Register a ``Call`` class as the record of ``do NAME …`` lines."""

    def register(cls: type[Call]) -> type[Call]:
        cls.procedure = name
        attrs.resolve_types(cls, globals())
        CALLS[name] = cls
        return cls

    return register


# --- the calls, in the order of dsl.vocabulary.PROCEDURES -----------------------------------


@_call("declare")
@frozen
class Declare(Call):
    mode: str


@_call("move")
@frozen
class Move(Call):
    only: tuple[str, ...]
    """``only WHO…``: the counters that move in this phase (empty: every counter that may move)."""
    using: Optional[str]
    """``using CLASS``: they move as that movement class this phase, instead of their own."""
    factor: Optional[str]
    """``order by FACTOR``: the order the side's units move in (``None``: the side picks)."""
    descending: bool
    bringing: bool = False
    """``bringing in arrivals``: the scenario's arrivals due now enter in this phase, paying the entry
    cell's cost from their allowance (``interpreter.procedures.entering``)."""


@_call("bombard")
@frozen
class Bombard(Call):
    combat: str


@_call("fire at aircraft")
@frozen
class FireAtAircraft(Call):
    table: str
    condition: Optional[Condition]
    condition_error: Optional[ConditionError] = field(eq=False)


@_call("fight")
@frozen
class Fight(Call):
    combat: str


@_call("roll events")
@frozen
class RollEvents(Call):
    table: str


@_call("gain income")
@frozen
class GainIncome(Call):
    resource: str


@_call("reinforce")
@frozen
class Reinforce(Call):
    box: str
    action: str


@_call("refit")
@frozen
class Refit(Call):
    box: str
    action: str
    dice: str


@_call("return refitted units")
@frozen
class ReturnRefitted(Call):
    pass


@_call("reclaim markers")
@frozen
class ReclaimMarkers(Call):
    markers: tuple[str, ...]


@_call("check supply")
@frozen
class CheckSupply(Call):
    exempt: tuple[str, ...]
    action: str
    box: str
    trace: Optional[str] = None
    """``by TRACE``: a unit that can trace it from its cell is in supply too (``interpreter.tracing``)."""


@_call("score")
@frozen
class Score(Call):
    awards: tuple[str, ...]


@_call("designate force")
@frozen
class DesignateForce(Call):
    actions: tuple[str, ...]


@_call("move force")
@frozen
class MoveForce(Call):
    drop: tuple[str, ...]
    """``dropping off SELECTOR…``: the units a moving force may leave behind on its way (empty: the
    force moves whole); never a unit the force's action is ``led by``."""


@_call("recon")
@frozen
class Recon(Call):
    dice: str
    factor: Optional[str]
    combat: Optional[str]


@_call("commit support")
@frozen
class CommitSupport(Call):
    markers: tuple[str, ...]
    """The marker types it commits (empty: every support marker)."""
    action: Optional[str]
    each: bool
    """``by each side``: both sides commit, the attacker first; otherwise the acting side."""


@_call("resolve fire")
@frozen
class ResolveFire(Call):
    combat: str


@_call("check stacking")
@frozen
class CheckStacking(Call):
    stacking: str


@_call("spot")
@frozen
class Spot(Call):
    spotting: str


@_call("trigger")
@frozen
class Trigger(Call):
    markers: tuple[str, ...]


@_call("replace steps")
@frozen
class ReplaceSteps(Call):
    action: str
    what: tuple[str, ...]
    """The counters it may restore (empty: any with steps)."""
    box: Optional[str]
    """``returning to BOX``: an eliminated counter may come back there, on its last step."""
    trace: Optional[str] = None
    """``in TRACE``: a counter is restored in place only where its side can trace it (``interpreter.tracing``)."""


@_call("arrivals")
@frozen
class Arrivals(Call):
    pass


@_call("withdrawals")
@frozen
class Withdrawals(Call):
    pass


# --- reading ----------------------------------------------------------------------------


def _argument(line: Property, name: str, kind: Any) -> Any:
    """One field of a call read from its line, by the field's type (module docstring)."""
    if kind is bool:
        return line.has(name)
    if kind == tuple[str, ...]:
        return as_names(line.get(name))
    value = line.get(name)
    if kind is str:
        return str(value)
    return None if value is None else str(value)  # Optional[str]


def compile_call(line: Property, names: Names) -> Call:
    """The typed record of one ``do`` line (the loader has matched it to its procedure's pattern).

    Raises:
        KeyError: for a line naming no procedure (the loader refuses those, E301).
    """
    cls = CALLS[line.get("procedure")]
    values: dict[str, Any] = {}
    for f in attrs.fields(cls):
        if f.name == "source":
            continue
        if f.name == "condition":
            values["condition"], values["condition_error"] = read_condition(line.get("condition"), names)
        elif f.name != "condition_error":
            values[f.name] = _argument(line, f.name, f.type)
    return cls(source=line, **values)
