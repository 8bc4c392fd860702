"""A scenario's schedule: ``[[arrival]]`` and ``[[withdrawal]]`` entries, read and checked.

An arrival brings ``count`` counters of a type into play on turn ``turn``: onto one of the entry
cells ``at`` names (cell ids or place names) or any cell of a map ``edge``, or into a ``box``
(available there from that turn).  A withdrawal takes ``count`` counters of a type off the map on
its turn; for each it cannot take, every other side gains the ``penalty`` (``{ vp = 2 }``).  The
procedures ``do arrivals`` and ``do withdrawals`` carry them out (``interpreter.procedures.arrivals``).

Problems are positioned diagnostics at the key: names and cells as for ``[[setup]]`` (E704); an
arrival with none or more than one of ``at``, ``edge`` and ``box``, an entry cell the type may
never stand in, or two arrivals of one side and type on one turn (E711); a turn after the game's
last (E712); a side's schedule no phase of the rulebook carries out for that side (E713).
"""

from __future__ import annotations

from attrs import frozen

from ..dsl.ast import Span
from ..dsl.compiled.calls import Call, Move
from ..dsl.diagnostics import diagnostic
from .costs import allowance, cost_table
from .rules import Rules
from .scenario_records import EDGES, Zone
from .scenario_resolve import EntryReader
from .scenario_toml import ArrivalEntry, KeyPath, ScenarioText, WithdrawalEntry


@frozen
class Arrival:
    """Counters that enter play on ``turn``: onto one of ``cells``, or into ``box``."""

    side: str
    unit: str
    count: int
    turn: int
    cells: tuple[str, ...]
    box: str | None
    line: int

    @property
    def waiting(self) -> str:
        """Where its counters wait until they enter play: the turn track, at their turn."""
        return waiting_place(self.turn)


@frozen
class Withdrawal:
    """Counters of ``unit`` that leave the map on ``turn``; ``penalty`` to the other sides for each missing."""

    side: str
    unit: str
    count: int
    turn: int
    penalty: tuple[tuple[str, int], ...]
    line: int


def waiting_place(turn: int) -> str:
    """The holding place of counters due on ``turn``: ``turn_track:N``."""
    return f"turn_track:{turn}"


def _problem(source: ScenarioText, code: str, path: KeyPath, message: str, hint: str | None = None) -> None:
    source.problems.append(diagnostic(code, source.span(path), message, hint))


def read_arrival(reader: EntryReader, entry: ArrivalEntry, path: KeyPath) -> Arrival | None:
    """One ``[[arrival]]`` as an ``Arrival``, or ``None`` (reported)."""
    source, board, rules = reader.source, reader.board, reader.rules
    if not reader.unit(entry.side, entry.unit, path, (*path, "unit")):
        return None
    given = [k for k in ("at", "edge", "box") if getattr(entry, k) is not None]
    if len(given) != 1:
        _problem(source, "E711", path, f"an arrival gives {' and '.join(given) or 'none'} of at, edge and box",
                 "give one: the entry cells (at), a map edge (edge) or the box it is available in (box)")
        return None
    cells: list[str] = []
    box = None
    if entry.at is not None:
        for where in entry.at:
            cell = reader.cell(where, (*path, "at"))
            if cell is None:
                return None
            cells.append(cell)
    elif entry.edge is not None:
        if entry.edge not in EDGES:
            reader.report((*path, "edge"), f"unknown map edge {entry.edge!r}", f"edges: {', '.join(EDGES)}")
            return None
        zone = Zone(edge=(entry.edge,))
        cells = [c for c in sorted(board.cells) if zone.admits(board, c, None)]
    else:
        box = reader.box(str(entry.box), (*path, "box"))
        if box is None:
            return None
    if cells and rules.unit_type(entry.unit).kind == "unit":
        allowed = cost_table(rules, board, entry.unit).cost
        barred = [c for c in cells if c not in allowed]
        if barred and len(barred) == len(cells):
            _problem(source, "E711", (*path, entry.edge and "edge" or "at"),
                     f"{entry.unit!r} may stand in none of its entry cells ({', '.join(barred)})",
                     "name cells whose terrain its movement class may enter")
            return None
        cells = [c for c in cells if c in allowed]
    return Arrival(entry.side, entry.unit, entry.count, entry.turn, tuple(dict.fromkeys(cells)), box,
                   source.line_of(path))


def read_withdrawal(reader: EntryReader, entry: WithdrawalEntry, path: KeyPath) -> Withdrawal | None:
    """One ``[[withdrawal]]`` as a ``Withdrawal``, or ``None`` (reported)."""
    if not reader.unit(entry.side, entry.unit, path, (*path, "unit")):
        return None
    resources = [r.name for r in reader.rulebook.of_kind("resource")]
    for name in entry.penalty:
        if name not in resources:
            reader.report((*path, "penalty", name), f"unknown resource {name!r}",
                          f"resources: {', '.join(resources)}" if resources else "the rulebook declares none")
            return None
    return Withdrawal(entry.side, entry.unit, entry.count, entry.turn, tuple(sorted(entry.penalty.items())),
                      reader.source.line_of(path))


def check_schedule(source: ScenarioText, rules: Rules, turns: int, arrivals: list[Arrival],
                   withdrawals: list[Withdrawal], player_order: tuple[str, ...] = ()) -> None:
    """What needs the whole schedule: its turns within the game (E712), one arrival per side, type
    and turn (E711), and a procedure that carries it out (E713)."""
    seen: set[tuple[str, str, int]] = set()
    for key, entries in (("arrival", arrivals), ("withdrawal", withdrawals)):
        for entry in entries:
            where = _line_span(source, entry.line)
            if entry.turn > turns:
                source.problems.append(diagnostic(
                    "E712", where, f"{key} on turn {entry.turn}, after the game's last turn ({turns})",
                    "give a turn the game plays, or make the game longer"))
            if key == "arrival":
                if (entry.side, entry.unit, entry.turn) in seen:
                    source.problems.append(diagnostic(
                        "E711", where, f"a second arrival of {entry.side}'s {entry.unit!r} on turn {entry.turn}",
                        "write one entry, with every entry cell its counters may use"))
                seen.add((entry.side, entry.unit, entry.turn))
    for key, entries, procedure in (("arrival", arrivals, "arrivals"), ("withdrawal", withdrawals, "withdrawals")):
        for entry in entries:
            if entry.side not in _sides_doing(rules, procedure, player_order or rules.sides, entry):
                source.problems.append(diagnostic(
                    "E713", _line_span(source, entry.line), f"the scenario schedules {key}s of {entry.side}, but no "
                    f"phase of the rulebook does {procedure} for {entry.side}",
                    f"add 'do {procedure}' to a phase run for each side, for {entry.side} or for no side (mutual)"
                    + (", or 'bringing in arrivals' to a 'do move' that moves the type" if key == "arrival" else "")))


def _sides_doing(rules: Rules, procedure: str, order: tuple[str, ...], entry: Arrival | Withdrawal) -> set[str]:
    """The sides a ``do PROCEDURE`` line of the rulebook runs for (for ``entry``): every side for a phase
    run for each side, for none (mutual: every side's, in player order) or a step run for the acting
    side; the one side of a ``side first|second|NAME`` one."""
    out: set[str] = set()
    for plan in rules.phase_plans():
        if not any(_does(rules, run, procedure, entry) for run in plan.runs):
            continue
        sides = plan.sides
        if sides is None or sides == () or sides == (None,):
            out.update(order)
        elif type(sides) is int:
            out.update(order[sides:sides + 1])
        else:
            out.update(s for s in sides if s is not None)
    return out


def _does(rules: Rules, run, procedure: str, entry: Arrival | Withdrawal) -> bool:
    """Whether a phase's run carries ``procedure`` out for ``entry``: its ``do`` line, or for an arrival
    a ``do move … bringing in arrivals`` (that moves the arrival's type, unless it goes into a box)."""
    if not isinstance(run, Call):
        return False
    if run.procedure == procedure:
        return True
    if procedure != "arrivals" or not isinstance(run, Move) or not run.bringing:
        return False
    return isinstance(entry, Arrival) and (entry.box is not None or _moves_in(rules, run, entry.unit))


def _moves_in(rules: Rules, run: Move, type_name: str) -> bool:
    """Whether a counter of ``type_name`` moves in the phase of ``run`` (``MovePhase.type_moves``, read
    from the rules alone): ``only`` names it, and it has points as the type it moves as."""
    unit_type = rules.unit_type(type_name)
    if unit_type.dummy:
        return True  # it moves as itself or as its side's unit types (``movement.proxies``)
    if unit_type.kind != "unit" or (run.only and not unit_type.matches(run.only)):
        return False
    moved = type_name if run.using is None else rules.moving_as.get((type_name, run.using))
    return moved is not None and allowance(rules, rules.unit_type(moved)) != 0


def _line_span(source: ScenarioText, line: int) -> Span:
    return Span.point(source.shown, line)
