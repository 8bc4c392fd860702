"""A scenario file's TOML as typed entries (cattrs), and where each key stands in the text.

``tomllib`` reads the text; one cattrs converter (``CONVERTER``) structures the tables into the
entry records below, which mirror the file's keys (docs/scenarios.md): ``[scenario]`` is a
``ScenarioTable``, each ``[[setup]]`` a ``SetupEntry``, each ``[[draw]]`` a ``DrawEntry`` with
its ``[[draw.place]]`` as ``DrawPlace``, each ``[[turn_modifier]]`` a ``TurnModifierEntry``.
The converter checks the shape only (a key the format does not know, a key missing, a value of
the wrong type, a whole number below 1 or past its bound: ``MAX_COUNT`` counters or turns,
``MAX_WHOLE`` for resources, so that a typo cannot make set-up run for minutes); names of the
rulebook and the map are checked by ``interpreter.scenario_resolve``.  Every problem becomes an E704
diagnostic from ``ScenarioText``, placed at the offending key.

Limits: ``tomllib`` keeps no positions, so ``TomlPositions`` finds keys by reading the text
line by line: table headers (``[a.b]``, ``[[a]]``, counted in order), then ``key =`` (or a
dotted ``key.sub =``) in the table's lines, then ``sub =`` further along the same line (an
inline table).  An array of tables written inline (``setup = [{...}]``) or a key split over
lines is placed at the nearest table or key found; the path (``$.setup[3].zone``) is then in
the message.
"""

from __future__ import annotations

import types
from typing import Any, ClassVar, NewType, TypeVar, Union, get_args, get_origin

import attrs
from attrs import field, frozen
from cattrs import ClassValidationError, ForbiddenExtraKeysError
from cattrs.gen import make_dict_structure_fn, override
from cattrs.preconf.tomllib import make_converter

from ..dsl.ast import Span
from ..dsl.diagnostics import Diagnostic, did_you_mean, diagnostic
from ..dsl.toml_text import Failure, KeyPath, TomlPositions, iter_failures, show_path, toml_key, value_at
from ..dsl.values import read_range, shorten

T = TypeVar("T")

MAX_COUNT = 1000
"""The largest count of counters, turns or counters per cell a key may give."""
MAX_WHOLE = 10**9
"""The largest size of a whole number (a resource, a modifier), either sign."""

Whole = NewType("Whole", int)
"""A whole number (not a boolean, not a float)."""
Count = NewType("Count", int)
"""A whole number from 1 to ``MAX_COUNT``."""
Year = NewType("Year", int)
"""A calendar year, from 1 to 9999."""
Names = NewType("Names", tuple)
"""A list of names; a single name stands for a list of one."""
NameList = NewType("NameList", tuple)
"""A list of names, written as a list."""
TurnSpan = NewType("TurnSpan", tuple)
"""``(first, last)`` from a turn (``2``, ``"2"``) or a range (``"1-3"``)."""
CellSpan = NewType("CellSpan", tuple)
"""``(low, high)`` columns or rows from a range (``"4-12"``)."""
Entries = NewType("Entries", tuple)
"""An array of tables (``[[setup]]``), each left as a mapping to be structured on its own."""

DESCRIPTIONS: dict[Any, str] = {
    str: "a string",
    bool: "true or false",
    Whole: "a whole number",
    Count: "a whole number of at least 1",
    Year: "a whole number (a year)",
    Names: "a list of names",
    NameList: "a list of names",
    TurnSpan: 'a turn or a range such as "1-3"',
    CellSpan: 'a range such as "4-12"',
    Entries: "an array of tables",
}
"""What a value of each type must be, for the messages ("'turns' must be a whole number of at least 1")."""


def _means(text: str, toml: str | None = None) -> dict:
    """Field metadata: what the key must be (overrides the type's description), its TOML name."""
    return {"means": text, "toml": toml}


@frozen
class ZoneTable:
    """A ``zone = { ... }`` of a set-up entry or a ``[[draw.place]]``, as written."""

    WHAT: ClassVar[str] = "a zone"
    cells: Names = ()
    places: Names = ()
    terrain: Names = ()
    columns: CellSpan | None = None
    rows: CellSpan | None = None
    tags: Names = ()
    not_tags: Names = ()
    edge: Names = ()
    holding: Names = ()


ZONE = _means('a table such as { terrain = ["town"] }')


@frozen
class SetupEntry:
    """A ``[[setup]]`` table as written."""

    WHAT: ClassVar[str] = "a set-up entry"
    side: str
    unit: str
    count: Count | None = None
    at: str | None = None
    places: NameList | None = field(default=None, metadata=_means("a list of place names or cells"))
    box: str | None = None
    zone: ZoneTable | None = field(default=None, metadata=ZONE)
    one_each: bool = False
    per_cell: Count | None = None
    group: str = ""
    group_per_cell: Count | None = None
    may_hold: str | None = None
    requires_option: str | None = None
    note: str = ""


@frozen
class DrawPlace:
    """A ``[[draw.place]]`` table: the zone some unit types of the draw are placed in."""

    WHAT: ClassVar[str] = "a draw's place"
    zone: ZoneTable = field(metadata=ZONE)
    units: Names = ()
    note: str = ""


@frozen
class DrawEntry:
    """A ``[[draw]]`` table as written (``from`` is ``mix``: ``from`` is a Python keyword)."""

    WHAT: ClassVar[str] = "a draw"
    side: str
    count: Count
    mix: dict[str, Count] = field(metadata=_means("a table of unit type = number of counters", "from"))
    rest: str | None = None
    rest_count: Whole | None = None
    place: tuple[DrawPlace, ...] = field(default=(), metadata=_means("[[draw.place]] tables with 'units' and 'zone'"))
    per_cell: Count | None = None
    note: str = ""


@frozen
class TurnModifierEntry:
    """A ``[[turn_modifier]]`` table as written."""

    WHAT: ClassVar[str] = "a turn modifier"
    turns: TurnSpan
    side: str
    what: str
    amount: Whole
    note: str = ""


@frozen
class ArrivalEntry:
    """An ``[[arrival]]`` table as written: counters that enter play on a turn (``interpreter.arrivals``)."""

    WHAT: ClassVar[str] = "an arrival"
    side: str
    unit: str
    turn: Count
    count: Count = Count(1)
    at: NameList | None = field(default=None, metadata=_means("a list of place names or cells"))
    edge: str | None = None
    box: str | None = None
    note: str = ""


@frozen
class WithdrawalEntry:
    """A ``[[withdrawal]]`` table as written: counters that leave play on a turn (``interpreter.arrivals``)."""

    WHAT: ClassVar[str] = "a withdrawal"
    side: str
    unit: str
    turn: Count
    count: Count = Count(1)
    penalty: dict[str, Whole] = field(factory=dict, metadata=_means("a table of resource = whole number"))
    note: str = ""


SIDE_VALUES = _means("a table per side of resource = whole number")


@frozen
class ScenarioTable:
    """The ``[scenario]`` table as written."""

    WHAT: ClassVar[str] = "[scenario]"
    map: str
    player_order: NameList
    turns: Count | None = None
    """``None``: the rulebook's ``sequence`` gives the game's length (``turns N``), or it is missing."""
    name: str | None = None
    rules: str | None = None
    rulebook: str | None = None
    setup_order: NameList | None = None
    note: str = ""
    year: Year | None = None
    unplaced: str = "offmap"
    resources: dict[str, dict[str, Whole]] = field(factory=dict, metadata=SIDE_VALUES)
    income: dict[str, dict[str, Whole]] = field(factory=dict, metadata=SIDE_VALUES)
    options: dict[str, bool] = field(factory=dict, metadata=_means("a table of option = true or false"))
    choose: dict[str, str] = field(factory=dict, metadata=_means("a table of option = side"))
    control: dict[str, NameList] = field(factory=dict, metadata=_means("a table of side = list of cells or places"))
    """``[scenario.control]``: cells each side holds when set-up ends (``interpreter.control``)."""


@frozen
class ScenarioFile:
    """The whole file: ``[scenario]`` and the arrays of tables, each entry still a mapping."""

    WHAT: ClassVar[str] = "the file"
    scenario: ScenarioTable
    setup: Entries = field(default=(), metadata=_means("[[setup]] tables"))
    draw: Entries = field(default=(), metadata=_means("[[draw]] tables"))
    turn_modifier: Entries = field(default=(), metadata=_means("[[turn_modifier]] tables"))
    arrival: Entries = field(default=(), metadata=_means("[[arrival]] tables"))
    withdrawal: Entries = field(default=(), metadata=_means("[[withdrawal]] tables"))


def _strict(kind: type, check=lambda v: True):
    def structure(value: Any, _: Any) -> Any:
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)) or not check(value):
            raise ValueError(f"not {DESCRIPTIONS.get(kind, kind.__name__)}")
        return value
    return structure


class OutOfBounds(ValueError):
    """A whole number of the right type outside the bounds its key allows."""

    def __init__(self, low: int, high: int):
        super().__init__(f"not from {low} to {high}")
        self.low, self.high = low, high


def _bounded(low: int, high: int, at_least_one: bool = False):
    """A whole number from ``low`` to ``high``; below 1 a plain type error when the key is a
    count (its description already says "at least 1")."""
    strict = _strict(int, (lambda v: v >= 1) if at_least_one else (lambda v: True))

    def structure(value: Any, _: Any) -> int:
        number = strict(value, _)
        if not low <= number <= high:
            raise OutOfBounds(low, high)
        return number
    return structure


def _names(value: Any, _: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    return _name_list(value, _)


def _name_list(value: Any, _: Any) -> tuple[str, ...]:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise ValueError("not a list of names")


def _span(value: Any, _: Any) -> tuple[int, int]:
    found = read_range(str(value))
    if found is None or found.low is None or found.high is None:
        raise ValueError("not a range")
    return found.low, found.high


def _entries(value: Any, _: Any) -> tuple[Any, ...]:
    if isinstance(value, list) and all(isinstance(v, dict) for v in value):
        return tuple(value)
    raise ValueError("not an array of tables")


def make_scenario_converter():
    """The converter for scenario files: strict about types, no unknown keys."""
    converter = make_converter(forbid_extra_keys=True)
    converter.register_structure_hook(str, _strict(str))
    converter.register_structure_hook(bool, _strict(bool))
    converter.register_structure_hook(Whole, _bounded(-MAX_WHOLE, MAX_WHOLE))
    converter.register_structure_hook(Count, _bounded(1, MAX_COUNT, at_least_one=True))
    converter.register_structure_hook(Year, _bounded(1, 9999, at_least_one=True))
    converter.register_structure_hook(Names, _names)
    converter.register_structure_hook(NameList, _name_list)
    converter.register_structure_hook(TurnSpan, _span)
    converter.register_structure_hook(CellSpan, _span)
    converter.register_structure_hook(Entries, _entries)
    converter.register_structure_hook(DrawEntry, make_dict_structure_fn(
        DrawEntry, converter, _cattrs_forbid_extra_keys=True, mix=override(rename="from")))
    return converter


for _record in (ZoneTable, SetupEntry, DrawPlace, DrawEntry, TurnModifierEntry, ArrivalEntry, WithdrawalEntry,
                ScenarioTable, ScenarioFile):
    attrs.resolve_types(_record)

CONVERTER = make_scenario_converter()
"""The one converter scenario files are read with."""

def describe(kind: Any, metadata: Any = None) -> str:
    """What a value of the type must be, for a message."""
    if metadata and metadata.get("means"):
        return metadata["means"]
    args = [a for a in get_args(kind) if a is not type(None)]
    if get_origin(kind) in (Union, types.UnionType) and len(args) == 1:
        return describe(args[0])
    if get_origin(kind) is dict:
        return f"a table of name = {describe(args[1]).removeprefix('a ')}"
    if attrs.has(kind):
        return "a table"
    return DESCRIPTIONS.get(kind, getattr(kind, "__name__", str(kind)))


class ScenarioText:
    """A scenario file's text: entries structured with ``CONVERTER``, problems kept as E704
    diagnostics placed at the offending key."""

    def __init__(self, shown: str, text: str):
        self.shown, self.text = shown, text
        self.positions = TomlPositions(text)
        self.problems: list[Diagnostic] = []

    def span(self, path: KeyPath) -> Span:
        """Where the value at ``path`` is written (its key, or its table's header)."""
        line, column, width = self.positions.locate(path)
        return Span(self.shown, line, column, line, column + width)

    def line_of(self, path: KeyPath) -> int:
        return self.positions.locate(path)[0]

    def report(self, path: KeyPath, message: str, hint: str | None = None) -> None:
        """An E704 at the value at ``path``."""
        self.problems.append(diagnostic("E704", self.span(path), message, hint))

    def report_line(self, line: int, message: str, hint: str | None = None) -> None:
        """An E704 on a line (a problem of several entries, reported at the first)."""
        self.problems.append(diagnostic("E704", Span.point(self.shown, line), message, hint))

    def structure(self, raw: Any, cls: type[T], path: KeyPath) -> T | None:
        """``raw`` as a ``cls``; ``None`` when it is not one (every problem reported)."""
        if not isinstance(raw, dict):
            self.report(path, f"{show_path(path)} must be a table, not {raw!r}")
            return None
        try:
            return CONVERTER.structure(raw, cls)
        except (ClassValidationError, ForbiddenExtraKeysError) as error:
            for failure in iter_failures(error, cls, path):
                self.report_failure(failure, value_at(raw, failure.path[len(path):]))
            return None

    def report_failure(self, failure: Failure, value: Any) -> None:
        """The diagnostic of one cattrs failure: an unknown key, a missing key or a wrong value."""
        exc, where = failure.error, failure.path
        if isinstance(exc, ForbiddenExtraKeysError):
            known = [toml_key(exc.cl, a.name) for a in attrs.fields(exc.cl)]
            for key in sorted(exc.extra_fields):
                if exc.cl is ScenarioFile:
                    self.report((*where, key), f"unknown table {key!r}", did_you_mean(key, known))
                else:
                    self.report((*where, key), f"unknown key {key!r} in {exc.cl.WHAT}",
                                did_you_mean(key, known) or f"{exc.cl.WHAT} takes: {', '.join(known)}")
        elif isinstance(exc, KeyError):
            self.report(where[:-1], f"missing key {where[-1]!r} in {failure.owner.WHAT}",
                        f"{where[-1]!r} is {describe(failure.kind, failure.metadata)}")
        elif isinstance(exc, OutOfBounds):
            shown = repr(where[-1]) if isinstance(where[-1], str) else show_path(where)
            self.report(where, f"{shown} must be from {exc.low} to {exc.high}, not {value!r}",
                        "a scenario gives counts and values a board game can hold")
        else:
            shown = repr(where[-1]) if isinstance(where[-1], str) else show_path(where)
            self.report(where, f"{shown} must be {describe(failure.kind, failure.metadata)}, "
                        f"not {shorten(repr(value), 60)}")
