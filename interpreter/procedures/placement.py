"""Placement: where a counter entering play may go, and putting it there (``place``).

Placement (``placement`` declarations, docs/reference.md): a unit may go to any cell that some
placement naming its type and side allows (several placements are alternatives), or to the box a
placement names with ``to``.  A placement's ``on`` lines (cell terrain and tags), ``with`` lines
(a friendly counter in the cell) and ``at map edge`` line must all hold; ``anywhere`` allows every
cell.  The cell must also be one the unit could enter (its movement class's cost table; a marker
may go on any terrain that has no general ``no entry``), where a move of its class may end
(``must end on``), within every ``stacking`` declaration's limits and ``one per cell`` lines,
free of a same-type ``one per cell`` marker, and, when the box the unit comes from says
``never placed with enemy``, free of enemy counters the placing side could take for units (any
face-down counter, any face-up unit).  With one option the unit is placed without a decision;
with none it goes to the source box's ``unplaced to`` box (else stays where it was) and what was
paid is spent.  Units of a side whose ``counters`` are ``face down`` are placed face down.

Hidden information: a placement is logged with the counter's id when it goes on the map, as any
counter there, or when it was drawn shown (``shown``); its ``unit_type`` only when it was drawn
shown and lies face up (``interpreter.procedures.reinforcements`` says which draws are shown); a
counter that is not received is logged with neither when it was drawn hidden or lies face down.

Limits: placing never breaks a stacking limit even where the rules check stacking only at the end
of a phase (a square already full is not offered).
"""

from __future__ import annotations

from attrs import evolve

from ...dsl.model import Declaration, Property
from ..actions import Action
from ..caches import rules_cache
from ..cells import cell_selectors
from ..context import Context, Flow
from ..costs import cost_table
from ..forces import names_of
from ..grid import parse_cell_id
from ..rules import Rules
from ..stacking import StackRule
from ..state import Unit


def _hides(ctx: Context, side: str) -> bool:
    """Whether the side's counters are placed face down (``counters face down``)."""
    decl = ctx.rulebook.get("side", side)
    counters = decl.first("counters") if decl is not None else None
    return bool(counters is not None and counters.has("down"))


def placements_for(ctx: Context, unit: Unit) -> tuple[Declaration, ...]:
    """The ``placement`` declarations that place a unit of this type and side."""
    cache = rules_cache(ctx.rules).setdefault("placements", {})
    key = (unit.type, unit.side)
    if key not in cache:
        unit_type = ctx.rules.unit_type(unit.type)
        found = []
        for decl in ctx.rulebook.of_kind("placement"):
            side = decl.first("side")
            if side is not None and str(side.get("side")) != unit.side:
                continue
            units = decl.first("units")
            if units is None or not Rules.unit_matches(unit_type, units.get("who") or ()):
                continue
            if Rules.unit_matches(unit_type, units.get("except") or ()):
                continue
            found.append(decl)
        cache[key] = tuple(found)
    return cache[key]


def _static_cells(ctx: Context, decl: Declaration) -> frozenset[str] | None:
    """The cells a placement's ``on``/``at``/``anywhere`` lines allow (``None``: it places in a box)."""
    cache = rules_cache(ctx.rules, ctx.board).setdefault("placement_cells", {})
    if decl.name not in cache:
        if decl.has("to") and not (decl.has("on") or decl.has("with") or decl.has("at") or decl.has("anywhere")):
            cache[decl.name] = None
        else:
            selectors = cell_selectors(ctx.rules, ctx.board)
            cells = set(ctx.board.cells)
            for line in decl.all("on"):
                wanted = set(names_of(line.get("where")))
                cells = {c for c in cells if selectors[c] & wanted}
            edge = decl.first("at")
            if edge is not None:
                cells = {c for c in cells if _on_edge(ctx, c, edge)}
            cache[decl.name] = frozenset(cells)
    return cache[decl.name]


def _on_edge(ctx: Context, cell: str, line: Property) -> bool:
    where = parse_cell_id(cell)
    if where is None:
        return False
    column, row = where
    return ((line.has("west") and column == 1) or (line.has("east") and column == ctx.board.width)
            or (line.has("north") and row == 1) or (line.has("south") and row == ctx.board.height))


def _holding(ctx: Context, side: str, line: Property) -> set[str]:
    """Cells holding a friendly real counter that the ``with`` line names (``of``: and that too)."""
    who, of = line.get("who") or (), line.get("of") or ()
    cells = set()
    for unit in ctx.state.units:
        if unit.side != side or not unit.on_map or unit.dummy:
            continue
        unit_type = ctx.rules.unit_type(unit.type)
        if Rules.unit_matches(unit_type, who) and (not of or Rules.unit_matches(unit_type, of)):
            cells.add(unit.location)
    return cells


def _stack_rules(ctx: Context) -> list[StackRule]:
    rules = []
    for decl in ctx.rulebook.of_kind("stacking"):
        key = ("stack rule", decl.name)
        if key not in ctx.rules.derived:
            ctx.rules.derived[key] = StackRule(ctx.rules, decl)
        rules.append(ctx.rules.derived[key])
    return rules


def _enemy_seen(ctx: Context, side: str, cell: str) -> bool:
    """Whether the side sees an enemy counter in the cell that could be a unit (for bans on entering such cells)."""
    for other in ctx.state.units_at(cell):
        if other.side == side:
            continue
        if other.hidden:
            return True
        if not other.dummy and ctx.rules.unit_type(other.type).kind == "unit":
            return True
    return False


def may_stand(ctx: Context, unit: Unit, cell: str, *, no_enemy: bool) -> bool:
    """Whether a counter may be put in a cell: enterable, within stacking and one-per-cell, and
    (``no_enemy``) with no enemy the owner can see there."""
    unit_type = ctx.rules.unit_type(unit.type)
    if unit_type.kind == "unit":
        table = cost_table(ctx.rules, ctx.board, unit.type)
        if cell not in table.cost or (table.must_end is not None and cell not in table.must_end):
            return False
    elif ctx.rules.terrain_cost(ctx.board.terrain(cell), unit_type) is None:
        return False
    if no_enemy and _enemy_seen(ctx, unit.side, cell):
        return False
    here = [u for u in ctx.state.units_at(cell) if u.side == unit.side and u.id != unit.id]
    decl = ctx.rulebook.get(unit_type.kind, unit_type.name)
    if decl is not None and decl.has("one") and any(u.type == unit.type for u in here):
        return False
    together = [*here, unit]
    return all(rule.problem(together, [unit]) is None for rule in _stack_rules(ctx))


def placement_options(ctx: Context, unit: Unit, source: str) -> list[str]:
    """Where a counter entering play from ``source`` may go: cells, then boxes, in order."""
    box = ctx.rulebook.get("box", source)
    no_enemy = bool(box is not None and any(p.has("placed") for p in box.all("never")))
    cells: set[str] = set()
    boxes: set[str] = set()
    for decl in placements_for(ctx, unit):
        to = decl.first("to")
        if to is not None:
            boxes.add(str(to.get("box")))
        allowed = _static_cells(ctx, decl)
        if allowed is None:
            continue
        candidates = set(allowed)
        for line in decl.all("with"):
            candidates &= _holding(ctx, unit.side, line)
        cells |= {c for c in candidates if c not in cells and may_stand(ctx, unit, c, no_enemy=no_enemy)}
    boxes.discard(source)
    return [*sorted(cells, key=lambda c: (len(c), c)), *sorted(boxes)]


def _unplaced_box(ctx: Context, source: str, default: str) -> str:
    box = ctx.rulebook.get("box", source)
    line = box.first("unplaced") if box is not None else None
    return str(line.get("box")) if line is not None else default


def place(ctx: Context, unit: Unit, source: str, *, why: str, shown: bool = True, back_to: str | None = None) -> Flow:
    """Put a counter entering play from ``source`` where its placements allow; returns the new unit.

    The owner chooses among several options.  With none, the counter goes to the source box's
    ``unplaced to`` box (else ``back_to``, else stays in ``source``) and ``None`` is returned.
    """
    options = placement_options(ctx, unit, source)
    hidden_from_opponent = not shown
    if not options:
        target = _unplaced_box(ctx, source, back_to or source)
        ctx.update_unit(evolve(unit, location=target))
        secret = hidden_from_opponent or unit.hidden
        what = "a counter" if secret else ctx.label(unit)
        ctx.say(f"{what} is not received: no square may take it; it goes to the {ctx.shown('box', target)} "
                f"({why})", kind="unplaced", side=unit.side, box=target,
                **({} if secret else {"unit": unit.id, "unit_type": unit.type}))
        return None
    if len(options) == 1:
        where = options[0]
    else:
        label = f"{unit.id} {ctx.rules.unit_type(unit.type).label}"
        action = yield from ctx.choose(unit.side, "place", f"place {label} ({why})",
                                       [Action("place", (unit.id, o)) for o in options])
        where = action.args[1]
    on_map = where in ctx.board.graph
    placed = evolve(unit, location=where, mode=None, hidden=_hides(ctx, unit.side) if on_map else unit.hidden)
    ctx.update_unit(placed)
    # A counter's id on the map is public; its type only when the draw was shown and it lies face up.
    shown_data = {"unit": placed.id} if on_map or not hidden_from_opponent else {}
    if not hidden_from_opponent and not placed.hidden:
        shown_data["unit_type"] = placed.type
    who = ctx.label(placed) if "unit" in shown_data else "a counter"
    ctx.say(f"{who} placed {'at' if on_map else 'in the'} "
            f"{where if on_map else ctx.shown('box', where)} ({why})",
            kind="place", side=placed.side, location=where, **shown_data)
    return placed
