"""The strategic procedures: income, reinforcements, refits, reclaiming markers and supply.

``do gain income RESOURCE``
    The acting side (every side, in a mutual phase) gains its scenario income of the resource
    (``[scenario.income.SIDE]``) plus this turn's ``income:RESOURCE`` turn modifiers (set by
    events such as ``reduce income``), never less than 0, within the resource's cap.

``do reinforce from BOX paying ACTION``
    Runs only when the action's ``side`` is the acting side (or the action names none).  From a
    box that says ``draw at random`` the side chooses ``draw`` (paying the action's price) or
    ``done``, again and again: each draw picks one of the side's counters in the box with a roll
    of ``d<N>`` (N counters, in id order), and the owner places it before deciding to draw again.
    From any other box the side chooses which counter to take (``take ID``, one option per unit
    type), priced by the action's line for that type; types the action does not price are not
    offered (an action priced for one marker type places only those, not others waiting beside them).
    ``draw_reinforcement`` is one draw, for events that give a free pick.

``do refit from BOX paying ACTION delay DICE``
    The side picks counters in its ``BOX`` one at a time (``refit ID``, one option per unit type,
    or ``done``), pays the action's line for the unit's type, rolls the delay and puts the unit on
    ``VIA:N`` (``VIA`` is the box's ``returns via`` box, ``N`` the turn plus the roll).  A unit due
    after the scenario's last turn stays there: it is never received, and its price is spent.

``do return refitted units``
    The acting side's counters due this turn (``VIA:TURN``) are placed as reinforcements, free.

``do reclaim markers MARKER…``
    The acting side's markers of these types that were committed are made available again: those
    still on the map go to the box their placement puts them in (``to BOX``), and those in that
    box lose the ``committed`` turn flag.

``do check supply [except WHO…] paying ACTION else to BOX``
    Every unit (not marker, not dummy) of the acting side on the map, except those ``except``
    names, must be in supply: its cell's terrain ``supplies`` its side, or a counter in its cell
    has ``effect supply self`` (its own side; ``opponent``/``enemy`` for the others, ``both``
    for all).  A counter with ``effect supply … once`` supplies every unit in its cell and is
    then revealed and removed from play (to ``eliminated``, scoring nothing); it is used only
    when a unit other than itself needs it, and when counters of several types could be used the
    owner picks which.  Each unit still out of supply is then ``pay ID`` (the action's price) or
    ``send ID BOX`` (the owner's choice; ``send`` alone when the side cannot pay).  Being sent
    scores nothing: it is not a result of combat.

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

Prices (``cost`` lines of an action): a line with ``from YEAR`` applies from that scenario year,
``until YEAR`` up to it; a scenario with no year uses the lines with no year, else the first
line.  A unit pays the line ``Rules.line_for`` gives its type; a random draw, whose unit is not
known yet, pays the first line with no ``for``.  A side may not pay more than it has above the
resource's ``minimum`` (0 when none is declared).

Hidden information: a draw from a box whose ``draws shown to opponent`` does not name the side is
logged without the counter's id or type (``kind="draw"``, ``shown=False``), and its placement
with the id alone, as any counter on the map (``unit_type`` is logged only for a shown draw placed
face up); the placing side's decision prompts name it, and only that side sees its decisions.

Limits: placing never breaks a stacking limit even where the rules check stacking only at the end
of a phase (a square already full is not offered); a ``per unit`` price is read as its plain
amount and ``times N transport`` lines are not read; a refit whose unit cannot be placed on its return turn goes where
the track box's ``unplaced to`` says, costing nothing more.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from attrs import evolve

from ...dsl.diagnostics import RulesError, diagnostic
from ...dsl.effects import PickReinforcement, Supply, Where
from ...dsl.model import Declaration, Property
from ...dsl.values import Dice, read_dice
from ..actions import Action
from ..caches import rules_cache
from ..cells import cell_selectors
from ..conditions import Scope, effect_condition, holds
from ..context import Context, Flow
from ..costs import cost_table
from ..effects import Target, carries_out, reads, sides_for
from ..flags import COMMITTED
from ..flow import procedure
from ..grid import parse_cell_id
from ..rules import Rules, UnitType
from ..stacking import StackRule
from ..state import Unit
from ..victory import gain

# --- small readings of the rulebook ---------------------------------------------------------


def _names(value: Iterable | None) -> tuple[str, ...]:
    return tuple(str(v) for v in value or ())


def _display(ctx: Context, kind: str, name: str) -> str:
    decl = ctx.rulebook.get(kind, name)
    return decl.display if decl is not None else name


def _hides(ctx: Context, side: str) -> bool:
    """Whether the side's counters are placed face down (``counters face down``)."""
    decl = ctx.rulebook.get("side", side)
    counters = decl.first("counters") if decl is not None else None
    return bool(counters is not None and counters.has("down"))


def _paying_sides(ctx: Context, action: Declaration | None) -> list[str]:
    """The sides a ``… paying ACTION`` line runs for: the action's side when it is acting, else none."""
    sides = [ctx.acting] if ctx.acting else list(ctx.player_order)
    owner = action.first("side") if action is not None else None
    if owner is None:
        return sides
    return [s for s in sides if s == str(owner.get("side"))]


def _year_lines(ctx: Context, action: Declaration) -> list[Property]:
    """The action's ``cost <resource> <amount>`` lines that apply in the scenario's year."""
    lines = [p for p in action.all("cost") if p.get("amount") is not None]
    year = getattr(ctx.scenario, "year", None)
    if year is None:
        undated = [p for p in lines if p.get("year") is None]
        return undated or lines
    out = []
    for line in lines:
        limit = line.get("year")
        if limit is None or (line.has("from") and year >= limit) or (line.has("until") and year <= limit):
            out.append(line)
    return out


def price(ctx: Context, action: Declaration, unit_type: UnitType | None = None) -> tuple[str, Fraction] | None:
    """What the action costs: ``(resource, amount)`` for a unit of ``unit_type``, or for a blind pick
    (the first line with no ``for``) when ``unit_type`` is ``None``; ``None`` when no line applies."""
    lines = _year_lines(ctx, action)
    if unit_type is None:
        line = next((p for p in lines if not p.get("who")), None)
    else:
        line = Rules.line_for(lines, unit_type)
    if line is None:
        return None
    return str(line.get("resource")), Fraction(line.get("amount"))


def can_pay(ctx: Context, side: str, cost: tuple[str, Fraction] | None) -> bool:
    """Whether the side has the price to spend, above the resource's ``minimum`` (0 when none)."""
    if cost is None:
        return False
    resource, amount = cost
    decl = ctx.rulebook.get("resource", resource)
    floor = decl.first("minimum") if decl is not None else None
    return ctx.state.resource(side, resource) - amount >= (floor.get("value") if floor is not None else 0)


def _pay(ctx: Context, side: str, cost: tuple[str, Fraction], reason: str) -> None:
    if cost[1]:
        gain(ctx, side, cost[0], -cost[1], reason)


def _in_box(ctx: Context, side: str, box: str) -> list[Unit]:
    return [u for u in ctx.state.units_at(box) if u.side == side]


def _one_per_type(units: Iterable[Unit]) -> list[Unit]:
    """The lowest-id counter of each type: counters of one type are interchangeable choices."""
    seen: dict[str, Unit] = {}
    for unit in sorted(units):
        seen.setdefault(unit.type, unit)
    return sorted(seen.values())


# --- placement ------------------------------------------------------------------------------


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
                wanted = set(_names(line.get("where")))
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
        ctx.say(f"{what} is not received: no square may take it; it goes to the {_display(ctx, 'box', target)} "
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
            f"{where if on_map else _display(ctx, 'box', where)} ({why})",
            kind="place", side=placed.side, location=where, **shown_data)
    return placed


# --- income ---------------------------------------------------------------------------------


@procedure("gain income")
def gain_income(ctx: Context, prop: Property) -> Flow:
    """The scenario's income plus this turn's ``income:RESOURCE`` modifiers, never below 0."""
    resource = str(prop.get("resource"))
    income = getattr(ctx.scenario, "income", ()) or ()
    for side in [ctx.acting] if ctx.acting else list(ctx.player_order):
        base = sum(Fraction(a) for s, r, a in income if s == side and r == resource)
        change = sum(a for s, what, a in ctx.state.turn_modifiers if s == side and what == f"income:{resource}")
        amount = max(Fraction(0), base + change)
        if change:
            ctx.say(f"{_display(ctx, 'side', side)}: income of {base} {resource} changed by {change} this turn",
                    kind="income", side=side, resource=resource, base=str(base), change=str(change))
        if amount:
            gain(ctx, side, resource, amount, f"income ({_cite(prop)})")
    return
    yield  # a generator that needs no decision


def _cite(prop: Property) -> str:
    names = prop.provenance.section_names
    return ", ".join(f"§{n}" for n in names) or "income"


# --- reinforcements -------------------------------------------------------------------------


def _random_box(ctx: Context) -> str | None:
    return next((b.name for b in ctx.rulebook.of_kind("box") if b.has("draw")), None)


def _shown(ctx: Context, box: str, side: str) -> bool:
    decl = ctx.rulebook.get("box", box)
    line = decl.first("draws") if decl is not None else None
    if decl is None or not decl.has("draw"):
        return True
    return line is not None and side in _names(line.get("sides"))


def draw_reinforcement(ctx: Context, side: str, box: str | None = None, *, free: bool = False,
                       action: Declaration | None = None) -> Flow:
    """One blind pick from ``box`` (default: the box that says ``draw at random``), then its placement.

    ``free``: nothing is paid (an event's free pick); otherwise ``action``'s price for a blind pick
    is paid first.  Returns the drawn unit (as placed, or where it went when it could not be), or
    ``None`` when the box holds none of the side's counters or the side cannot pay.
    """
    box = box or _random_box(ctx)
    if box is None:
        return None
    pool = sorted(_in_box(ctx, side, box))
    if not pool:
        return None
    if not free:
        cost = price(ctx, action, None) if action is not None else None
        if not can_pay(ctx, side, cost):
            return None
        _pay(ctx, side, cost, f"{action.display}")
    index = ctx.roll(Dice(1, len(pool)), f"draw from the {_display(ctx, 'box', box)} ({len(pool)} counters)")
    unit = pool[index - 1]
    shown = _shown(ctx, box, side)
    side_name = _display(ctx, "side", side)
    how = "free" if free else "paid"
    if shown:
        ctx.say(f"{side_name} draws {ctx.label(unit, side)} from the {_display(ctx, 'box', box)} ({how})",
                kind="draw", side=side, box=box, shown=True, unit=unit.id, unit_type=unit.type)
    else:
        ctx.say(f"{side_name} draws a counter from the {_display(ctx, 'box', box)} ({how})",
                kind="draw", side=side, box=box, shown=False)
    placed = yield from place(ctx, unit, box, why="reinforcement", shown=shown)
    return placed if placed is not None else ctx.state.unit(unit.id)


@procedure("reinforce")
def reinforce(ctx: Context, prop: Property) -> Flow:
    """Draw from a random box, or take from another, paying the action (module docstring)."""
    box = str(prop.get("box"))
    action = ctx.rulebook.get("action", str(prop.get("action")))
    box_decl = ctx.rulebook.get("box", box)
    for side in _paying_sides(ctx, action):
        if box_decl is not None and box_decl.has("draw"):
            yield from _draw_loop(ctx, side, box, action)
        else:
            yield from _take_loop(ctx, side, box, action)


def _draw_loop(ctx: Context, side: str, box: str, action: Declaration) -> Flow:
    while _in_box(ctx, side, box):
        cost = price(ctx, action, None)
        if not can_pay(ctx, side, cost):
            return
        choice = yield from ctx.choose(side, "reinforce", f"pay {cost[1]} {cost[0]} to draw from the "
                                       f"{_display(ctx, 'box', box)} ({action.display})",
                                       [Action("draw"), Action("done")])
        if choice.kind == "done":
            return
        yield from draw_reinforcement(ctx, side, box, action=action)


def _take_loop(ctx: Context, side: str, box: str, action: Declaration) -> Flow:
    yield from _paid_picks(ctx, side, box, action, "reinforce", "take",
                           f"{action.display}: take a counter from the {_display(ctx, 'box', box)}",
                           lambda unit: place(ctx, unit, box, why=action.display),
                           allowed=lambda unit: bool(placement_options(ctx, unit, box)))


def _paid_picks(ctx: Context, side: str, box: str, action: Declaration, kind: str, verb: str, prompt: str,
                then, allowed=None) -> Flow:
    """Offer ``side`` one counter of each type in ``box`` that it can pay ``action``'s price for (and
    that ``allowed`` lets through), as ``VERB ID`` or ``done``; pay for the one picked, carry out
    ``then(unit)`` (a flow, or ``None``), and ask again until it is done or nothing is left."""
    while True:
        options = [Action(verb, (u.id,)) for u in _one_per_type(_in_box(ctx, side, box))
                   if can_pay(ctx, side, price(ctx, action, ctx.rules.unit_type(u.type)))
                   and (allowed is None or allowed(u))]
        if not options:
            return
        choice = yield from ctx.choose(side, kind, prompt, [*options, Action("done")])
        if choice.kind == "done":
            return
        unit = ctx.state.unit(choice.args[0])
        _pay(ctx, side, price(ctx, action, ctx.rules.unit_type(unit.type)), f"{action.display}: {ctx.label(unit)}")
        flow = then(unit)
        if flow is not None:
            yield from flow


# --- refits ---------------------------------------------------------------------------------


def _via(ctx: Context, box: str) -> str:
    decl = ctx.rulebook.get("box", box)
    line = decl.first("returns") if decl is not None else None
    return str(line.get("box")) if line is not None else box


@procedure("refit")
def refit(ctx: Context, prop: Property) -> Flow:
    """Pay for chosen counters of the box and put each on the turn it returns (module docstring)."""
    box = str(prop.get("box"))
    action = ctx.rulebook.get("action", str(prop.get("action")))
    dice = prop.get("dice")
    via = _via(ctx, box)

    def put_on_track(unit: Unit) -> None:
        delay = ctx.roll(_dice(ctx, dice), f"refit delay for {ctx.label(unit)}")
        due = ctx.state.turn + delay
        ctx.update_unit(evolve(unit, location=f"{via}:{due}"))
        if due > ctx.scenario.turns:
            ctx.say(f"{ctx.label(unit)} would return on turn {due}, after the last turn "
                    f"({ctx.scenario.turns}): it is never received", kind="refit", unit=unit.id, side=unit.side,
                    due=due, received=False)
        else:
            ctx.say(f"{ctx.label(unit)} will return on turn {due}", kind="refit", unit=unit.id, side=unit.side,
                    due=due, received=True)

    for side in _paying_sides(ctx, action):
        yield from _paid_picks(ctx, side, box, action, "refit", "refit",
                               f"refit a counter from the {_display(ctx, 'box', box)} ({action.display})",
                               put_on_track)


def _dice(ctx: Context, dice) -> Dice:
    """The dice a ``delay DICE`` names (a ``dice`` declaration such as ``d6``)."""
    if isinstance(dice, Dice):
        return dice
    parsed = read_dice(str(dice))
    assert parsed is not None, dice  # the loader resolved the name to a dice declaration
    return parsed


@procedure("return refitted units")
def return_refitted(ctx: Context, prop: Property) -> Flow:
    """Counters waiting in ``BOX:TURN`` for this turn enter play from ``BOX`` (module docstring)."""
    boxes = {b.name for b in ctx.rulebook.of_kind("box")}
    origins: dict[str, str] = {}
    for box in ctx.rulebook.of_kind("box"):
        line = box.first("returns")
        if line is not None:
            origins.setdefault(str(line.get("box")), box.name)
    suffix = f":{ctx.state.turn}"
    for side in [ctx.acting] if ctx.acting else list(ctx.player_order):
        due = sorted(u for u in ctx.state.units
                     if u.side == side and u.location.endswith(suffix) and u.location[: -len(suffix)] in boxes)
        for unit in due:
            via = unit.location[: -len(suffix)]
            yield from place(ctx, ctx.state.unit(unit.id), via, why="refitted", back_to=origins.get(via, via))


# --- reclaiming committed markers -----------------------------------------------------------


@procedure("reclaim markers")
def reclaim_markers(ctx: Context, prop: Property) -> Flow:
    """Committed markers of the named types become available again (module docstring)."""
    types = set(_names(prop.get("markers")))
    for side in [ctx.acting] if ctx.acting else list(ctx.player_order):
        for unit in sorted(u for u in ctx.state.units if u.side == side and u.type in types):
            homes = [str(d.first("to").get("box")) for d in placements_for(ctx, unit) if d.has("to")]
            home = homes[0] if homes else None
            if unit.on_map and home is not None:
                ctx.update_unit(evolve(unit, location=home, turn_flags=unit.turn_flags - {COMMITTED}))
            elif COMMITTED in unit.turn_flags and unit.location == home:
                ctx.update_unit(evolve(unit, turn_flags=unit.turn_flags - {COMMITTED}))
            else:
                continue
            ctx.say(f"{ctx.label(unit)} reclaimed for reuse ({_cite(prop)})", kind="reclaim", unit=unit.id,
                    side=side)
    return
    yield  # a generator that needs no decision


# --- supply ---------------------------------------------------------------------------------


@reads(Supply)
def _supplies(ctx: Context, source: Unit, side: str) -> tuple[bool, bool]:
    """(whether ``source`` supplies the side's units in its cell, whether it is used up doing so):
    its first ``supply ROLE [once]`` effect whose role names the side and whose condition holds."""
    if source.dummy or not source.on_map:
        return False, False
    unit_type = ctx.rules.unit_type(source.type)
    decl = ctx.rulebook.get(unit_type.kind, unit_type.name)
    for effect in ctx.rules.effects_of(unit_type):
        if not isinstance(effect, Supply):
            continue
        target = Target(Where.STANDING, decl, source.side, decl.display)
        if side in sides_for(ctx, effect.role, target) and \
                holds(ctx, effect_condition(effect), Scope(source.side, source.location, source)):
            return True, effect.once
    return False, False


def _terrain_supplies(ctx: Context, cell: str, side: str) -> bool:
    decl = ctx.rulebook.get("terrain", ctx.board.terrain(cell))
    return decl is not None and any(side in _names(p.get("sides")) for p in decl.all("supplies"))


@procedure("check supply")
def check_supply(ctx: Context, prop: Property) -> Flow:
    """Supply every unit of the acting side, or pay for it, or send it to the box (module docstring)."""
    action = ctx.rulebook.get("action", str(prop.get("action")))
    box = str(prop.get("box"))
    exempt = prop.get("exempt") or ()
    for side in _paying_sides(ctx, action):
        needing: dict[str, list[Unit]] = {}
        for unit in ctx.state.units:
            if unit.side != side or not unit.on_map or unit.dummy:
                continue
            unit_type = ctx.rules.unit_type(unit.type)
            if unit_type.kind != "unit" or Rules.unit_matches(unit_type, exempt):
                continue
            needing.setdefault(unit.location, []).append(unit)
        for cell in sorted(needing, key=lambda c: (len(c), c)):
            units = sorted(needing[cell])
            if _terrain_supplies(ctx, cell, side):
                continue
            lasting, once = [], []
            for other in ctx.state.units_at(cell):
                supplies, used_up = _supplies(ctx, other, side)
                if supplies:
                    (once if used_up else lasting).append(other)
            if lasting:
                continue
            usable = [s for s in _one_per_type(once) if any(u.id != s.id for u in units)]
            if usable:
                source = usable[0]
                if len(usable) > 1:
                    choice = yield from ctx.choose(side, "supply source", f"supply the units in {cell} with",
                                                   [Action("use", (s.id,)) for s in usable])
                    source = ctx.state.unit(choice.args[0])
                used = evolve(source, location=ctx.rules.eliminated_box, hidden=False)
                ctx.update_unit(used)
                ctx.say(f"{ctx.label(used)} supplies the units in {cell} and is removed ({_cite(prop)})",
                        kind="supply", unit=used.id, unit_type=used.type, cell=cell, side=side)
                continue
            for unit in units:
                yield from _out_of_supply(ctx, ctx.state.unit(unit.id), action, box, prop)


def _out_of_supply(ctx: Context, unit: Unit, action: Declaration, box: str, prop: Property) -> Flow:
    cost = price(ctx, action, ctx.rules.unit_type(unit.type))
    options = [Action("send", (unit.id, box))]
    if can_pay(ctx, unit.side, cost):
        options.insert(0, Action("pay", (unit.id,)))
        choice = yield from ctx.choose(unit.side, "out of supply",
                                       f"{unit.id} {ctx.rules.unit_type(unit.type).label} in {unit.location} is out "
                                       f"of supply: pay {cost[1]} {cost[0]} or send it to the "
                                       f"{_display(ctx, 'box', box)}", options)
    else:
        choice = options[0]
    if choice.kind == "pay":
        _pay(ctx, unit.side, cost, f"{action.display}: {ctx.label(unit)}")
        ctx.say(f"{ctx.label(unit)} in {unit.location} is supplied for {cost[1]} {cost[0]}", kind="supply",
                unit=unit.id, side=unit.side, paid=True)
    else:
        ctx.update_unit(evolve(unit, location=box, mode=None))
        ctx.say(f"{ctx.label(unit)} in {unit.location} is out of supply and goes to the "
                f"{_display(ctx, 'box', box)} ({_cite(prop)})", kind="supply", unit=unit.id, side=unit.side,
                box=box, paid=False)


@carries_out(PickReinforcement, Where.EVENT, Where.MOMENT)
def pick_free(ctx: Context, effect: PickReinforcement, target: Target) -> Flow:
    """``pick reinforcement free [for ROLE] [from BOX]``: each side the role names draws a
    reinforcement at no cost (``draw_reinforcement``), from BOX or else the rulebook's box drawn
    ``at random``."""
    box = effect.box
    if box is None:
        box = next((b.name for b in ctx.rulebook.of_kind("box") if b.has("draw")), None)
    for side in sides_for(ctx, effect.role, target):
        shown = ctx.rulebook.get("side", side)
        if box is None:
            raise RulesError([diagnostic("E223", effect.line.span, f"effect {effect.text!r} names no box to draw "
                                         "from, and no box is drawn 'at random'", "write 'from BOX'")])
        ctx.say(f"{target.why}: {shown.display if shown else side} picks a reinforcement at no cost",
                kind="effect", effect="pick", side=side)
        yield from draw_reinforcement(ctx, side, str(box), free=True)
