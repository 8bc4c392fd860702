"""Placement: where a counter entering play may go, and putting it there (``place``).

Placement (``placement`` declarations, docs/reference.md): a unit may go to any cell that some
placement naming its type and side allows (several placements are alternatives), or to the box a
placement names with ``to``.  A placement's ``on`` lines (cell terrain and tags), ``with`` lines
(a friendly counter in the cell), ``in TRACE`` lines (the side can trace it from the cell,
``interpreter.tracing``) and ``at map edge`` line must all hold; ``anywhere`` allows every cell.
The cell must also be one the unit could enter (its movement class's cost table; a marker
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

from collections.abc import Callable, Iterable

from attrs import evolve

from ...dsl.compiled.boxes import Holding, Placement
from ..actions import Action
from ..caches import map_memos, share
from ..cells import cell_selectors
from ..context import Context, Flow
from ..costs import cost_table
from ..grid import parse_cell_id
from ..stacking import within_every_rule
from ..state import Unit
from ..tracing import traced_cells


def _hides(ctx: Context, side: str) -> bool:
    """Whether the side's counters are placed face down (``counters face down``)."""
    known = ctx.rules.side_rules.get(side)
    return known is not None and known.face_down


def placements_for(ctx: Context, unit: Unit) -> tuple[Placement, ...]:
    """The placements that place a unit of this type and side."""
    return ctx.rules.placements_for(unit.type, unit.side)


def _static_cells(ctx: Context, placement: Placement) -> frozenset[str] | None:
    """The cells a placement's ``on``/``at``/``anywhere`` lines allow (``None``: it places in a box)."""
    if placement.box_only:
        return None
    cache = map_memos(ctx.rules, ctx.board).placement_cells
    if placement.name not in cache:
        selectors = cell_selectors(ctx.rules, ctx.board)
        cells = set(ctx.board.cells)
        for wanted in placement.on:
            cells = {c for c in cells if selectors[c].intersection(wanted)}
        if placement.edges is not None:
            cells = {c for c in cells if _on_edge(ctx, c, placement.edges)}
        cache[placement.name] = share(ctx.rules, ctx.board, frozenset(cells))
    return cache[placement.name]


def _on_edge(ctx: Context, cell: str, edges: frozenset[str]) -> bool:
    where = parse_cell_id(cell)
    if where is None:
        return False
    column, row = where
    return (("west" in edges and column == 1) or ("east" in edges and column == ctx.board.width)
            or ("north" in edges and row == 1) or ("south" in edges and row == ctx.board.height))


def _holding(ctx: Context, side: str, line: Holding) -> set[str]:
    """Cells holding a friendly real counter that the ``with`` line names (``of``: and that too)."""
    named = ctx.rules.types_matching(line.who)
    if line.of:
        named = named & ctx.rules.types_matching(line.of)
    return {u.location for u in ctx.state.units_on_map().get(side, ()) if not u.dummy and u.type in named}


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
        table = cost_table(ctx.rules, ctx.board, unit.type, ctx.state.turn, ctx.state.weather)
        if cell not in table.cost or (table.must_end is not None and cell not in table.must_end):
            return False
    elif ctx.rules.terrain_cost(ctx.board.terrain(cell), unit_type, ctx.board.tags(cell)) is None:
        return False
    return _stands_with(ctx, unit, unit_type, cell, no_enemy)


def _stands_with(ctx: Context, unit: Unit, unit_type, cell: str, no_enemy: bool) -> bool:
    """``may_stand`` in a cell the counter may enter: no enemy it sees (``no_enemy``), within
    one per cell and stacking."""
    if no_enemy and _enemy_seen(ctx, unit.side, cell):
        return False
    here = [u for u in ctx.state.units_at(cell) if u.side == unit.side and u.id != unit.id]
    if unit_type.one_per_cell and any(u.type == unit.type for u in here):
        return False
    return within_every_rule(ctx.rules, [*here, unit])


def _may_stand_here(ctx: Context, unit: Unit, no_enemy: bool) -> Callable[[Iterable[str]], set[str]]:
    """``may_stand`` for one unit, over many cells at once (those of them it may stand in): a
    unit's cost table is read once, and every cell it may enter where no counter stands gets the
    same answer (nothing there to see, stack with or count against one per cell), worked out once."""
    if ctx.rules.unit_type(unit.type).kind != "unit":
        return lambda cells: {c for c in cells if may_stand(ctx, unit, c, no_enemy=no_enemy)}
    table = cost_table(ctx.rules, ctx.board, unit.type, ctx.state.turn, ctx.state.weather)
    costs, must_end, occupied = table.cost, table.must_end, ctx.state.units_by_cell()
    unit_type = ctx.rules.unit_type(unit.type)
    empty: list[bool] = []

    def fitting(cells: Iterable[str]) -> set[str]:
        entered = [c for c in cells if c in costs and (must_end is None or c in must_end)]
        # (the table, the one ``may_stand`` reads, has let these in)
        found = {c for c in entered if c in occupied and _stands_with(ctx, unit, unit_type, c, no_enemy)}
        unoccupied = [c for c in entered if c not in occupied]
        if unoccupied:
            if not empty:
                empty.append(_stands_with(ctx, unit, unit_type, unoccupied[0], no_enemy))
            if empty[0]:
                found.update(unoccupied)
        return found

    return fitting


def placement_options(ctx: Context, unit: Unit, source: str) -> list[str]:
    """Where a counter entering play from ``source`` may go: cells, then boxes, in order."""
    box = ctx.rules.boxes.get(source)
    no_enemy = box is not None and box.never_placed_with_enemy
    cells: set[str] = set()
    boxes: set[str] = set()
    fitting = _may_stand_here(ctx, unit, no_enemy)
    for placement in placements_for(ctx, unit):
        if placement.to is not None:
            boxes.add(placement.to)
        allowed = _static_cells(ctx, placement)
        if allowed is None:
            continue
        candidates = set(allowed)
        for line in placement.holding:
            candidates &= _holding(ctx, unit.side, line)
        for name in placement.traced:
            candidates &= traced_cells(ctx, ctx.rules.traces[name], unit.side)
        cells |= fitting([c for c in candidates if c not in cells])
    boxes.discard(source)
    return [*sorted(cells, key=lambda c: (len(c), c)), *sorted(boxes)]


def _unplaced_box(ctx: Context, source: str, default: str) -> str:
    box = ctx.rules.boxes.get(source)
    return box.unplaced_to if box is not None and box.unplaced_to is not None else default


def place(ctx: Context, unit: Unit, source: str, *, why: str, shown: bool = True, back_to: str | None = None,
          progress=None) -> Flow:
    """Put a counter entering play from ``source`` where its placements allow; returns the new unit.

    The owner chooses among several options.  With none, the counter goes to the source box's
    ``unplaced to`` box (else ``back_to``, else stays in ``source``) and ``None`` is returned.
    ``progress``: the caller's, which makes the choice resumable (``Context.choose``).
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
                                       [Action("place", (unit.id, o)) for o in options],
                                       resume=progress is not None, progress=progress)
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
