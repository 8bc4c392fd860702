"""A side's situation: what the other sides' counters and markers put in the way of its moves.

``situation(world, side)`` reads what the other sides put in the way: cells holding enemy
counters, cells in enemy zones of control (``interpreter.zones``), cells with markers the side
can see.  It is read again only when the other sides' units change, not at each of the side's
own moves; the search (``interpreter.movement``) reads it, and ``stop_markers`` says which
markers in a cell stop a given unit.

Readings of the rules language (each a choice where the language leaves one):

- **Enemy counters.**  Every counter on the map occupies its cell, face down or
  not, dummy or not, and so does any face-down counter the side cannot identify,
  a marker such as a trap included (the mover sees a counter, not what it is:
  ``zones.unidentified``).  What an enemy cell does to a move (passed through,
  barred, stopped in) is the search's to decide.
- **Hidden information.**  The situation is what the moving side knows.  Markers
  that stop the side's units (``effect stop opponent``, a class's ``stops on
  entering MARKER``) count only when the side can see them; hidden ones are sprung
  during the move itself (``interpreter.procedures.move``).  ``omniscient`` reads
  everything, face-down counters and markers included.

Limits: the side's own counters are not part of it (a search reads them where a move could end,
from the state's index of units); when the rulebook declares markers, which any side may move, a
new state is read afresh.
"""

from __future__ import annotations

from collections.abc import Mapping

from attrs import field, frozen

from ..dsl.effects import Stop
from .caches import map_memos, rules_cache
from .effects import reads
from .rules import Rules
from .state import Unit
from .world import World
from .zones import ZoneRule, counter_types, enemy_zones, occupies, others_on_map


def stop_markers(world: World, unit: Unit, cell: str, *, known_only: bool = False) -> list[Unit]:
    """Markers in ``cell`` that stop ``unit`` on entering it (``effect stop …``, ``stops on entering M``).

    With ``known_only``, face-down markers of another side are left out: the mover cannot see them.
    """
    rules = world.rules
    unit_type = rules.unit_type(unit.type)
    mclass = rules.movement_of(unit_type)
    named = mclass.stops_on_markers if mclass else frozenset()
    out = []
    for marker in world.state.units_at(cell):
        if marker.id == unit.id:
            continue
        marker_type = rules.unit_type(marker.type)
        if marker_type.kind != "marker" or marker_type.dummy:
            continue
        if known_only and marker.hidden and marker.side != unit.side:
            continue
        if marker.type in named and marker.side != unit.side or _marker_stops(rules, marker, unit):
            out.append(marker)
    return out


@reads(Stop)
def _marker_stops(rules: Rules, marker: Unit, unit: Unit) -> bool:
    """Whether a marker's ``stop ROLE [of SELECTOR…]`` effect stops ``unit``: ``opponent``/``enemy``
    stop the other sides' units, ``owner``/``self`` its own side's, ``both`` every unit, and with
    ``of`` only units the selectors name (a ``stop`` line takes no condition: E222)."""
    for effect in rules.effects_of(rules.unit_type(marker.type)):
        if isinstance(effect, Stop) and (effect.role == "both" or (effect.role in ("opponent", "enemy"))
                                         == (unit.side != marker.side)):
            if not effect.what or rules.unit_type(unit.type).matches(effect.what):
                return True
    return False


@frozen
class Situation:
    """What the other sides' counters (and markers) put in the way of one side's moves, as that side sees it.

    It does not hold the side's own counters: a search reads them, where a move could end, from
    the state's indexes of its units.  So one reading serves every state in which the other
    sides' units are the same, and the side's own moves do not change it.
    """

    side: str
    enemy_cells: frozenset[str]
    zone: Mapping[str, ZoneRule]
    """Cells in enemy zones of control (any zone; the search keeps those that stop it), with the zone."""
    markers: frozenset[str]
    """Cells holding markers the side can see (the search asks which of them stop its unit)."""
    zone_cells: frozenset[str] = field(eq=False, repr=False)
    """The keys of ``zone``, frozen once: searches pass them on as the cells that stop a move, and
    the search memo (``interpreter.pathfinding``) then keys by them at no cost."""
    known: dict = field(factory=dict, eq=False, repr=False)
    """What searches read of this situation, kept with it (``interpreter.movement``: the cells
    whose markers stop a unit type): a situation is read afresh whenever what it reads changes."""


def situation(world: World, side: str, *, omniscient: bool = False) -> Situation:
    """Read the state for searches by ``side``: remembered while the state's units are the same
    tuple (all it reads; a state that only pays or rolls keeps them), and while the other sides'
    units are (when the rulebook has no markers, which any side may move)."""
    memo = map_memos(world.rules, world.board).situation
    state = world.state
    last = memo.get((side, omniscient))
    if last is not None and (last[0] is state or last[0].units is state.units):
        last[0] = state
        return last[2]
    others = others_on_map(state, side)
    if last is not None and last[1] == others and not last[3]:
        found = last[2]
        if last[1] is others:  # the same reading, from the same units: only the state is new
            last[0] = state
            return found
    else:
        found = _situation(world, side, omniscient, others)
    memo[side, omniscient] = [state, others, found, _has_markers(world.rules)]
    return found


def _situation(world: World, side: str, omniscient: bool, others: tuple[Unit, ...]) -> Situation:
    rules, state = world.rules, world.state
    enemy, zone, zone_cells = _enemy_reading(world, side, omniscient, others)
    markers = set()
    if _has_markers(rules):
        marker_types = rules.marker_types
        for unit in state.units:
            if unit.type in marker_types and unit.on_map and (omniscient or not unit.hidden or unit.side == side):
                markers.add(unit.location)
    return Situation(side, enemy, zone, frozenset(markers), zone_cells)


def _has_markers(rules: Rules) -> bool:
    """Whether the rulebook declares any (non-dummy) marker type; read once per ``Rules``."""
    cache = rules_cache(rules)
    found = cache.get("has_markers")
    if found is None:
        found = cache["has_markers"] = any(t.kind == "marker" and not t.dummy for t in rules.unit_types.values())
    return found


def _enemy_reading(world: World, side: str, omniscient: bool,
                   others: tuple[Unit, ...]) -> tuple[frozenset[str], Mapping[str, ZoneRule], frozenset[str]]:
    """The cells holding counters of other sides than ``side``, their zones of control (and the
    cells of those zones, frozen).

    Both depend only on the other sides' units on the map (``others``), which stay the same objects while one side
    moves unit after unit (``GameState.with_unit`` keeps the unchanged ones), so the last
    answer per side is kept on the rules/board cache and reused while the tuple of the other
    sides' units is equal (identity first) to the one it was read from.  Any change to one of
    those units (place, mode, face, flags) makes a new tuple and a fresh reading.
    """
    memo = map_memos(world.rules, world.board).enemy_reading
    last = memo.get((side, omniscient))
    if last is not None and last[0] == others:
        return last[1]
    rules = world.rules
    counters = counter_types(rules)  # (``occupies``, its first test read inline: a call a unit otherwise)
    enemy = frozenset([u.location for u in others if u.location[:1].isdigit()  # on_map
                       and (counters[u.type] or occupies(rules, side, u, omniscient=omniscient))])
    zones = enemy_zones(world, side, omniscient=omniscient, others=others)
    found = (enemy, zones, frozenset(zones))
    memo[side, omniscient] = (others, found)
    return found
