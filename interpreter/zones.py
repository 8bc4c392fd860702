"""Zones of control: which cells each counter holds, and the cells in zones exerted by a side's enemies.

Readings of the rules language (each a choice where the language leaves one):

- **Zones of control.**  A zone reaches ``range`` cells (default 1) into cells its
  ``into`` names (every cell without ``into``); a mode's ``zone range +N`` adds N,
  and the added reach also covers the other cells up to N cells away: ZONE OF
  CONTROL's "2 in road and clear hexes, 1 in non-clear" for range 1 and +1.
  Distances are graph hops.  A zone with ``stops movement`` (or any zone, for a
  class that ``stops on entering enemy zone``) ends the move of a unit entering
  it.  ``zone to zone uses all points``: a unit that starts its move in an enemy
  zone may step to an adjacent cell in an enemy zone by spending all its points
  (the step must still be affordable), which ends its move; or it may leave
  through cells outside enemy zones as usual, stopping again on entering one.
  Mid-move a zone-to-zone step cannot happen, since entering a zone stops.
  (What stops a move, and the zone-to-zone step, are the search's: ``interpreter.movement``.)
- **Dummies and hidden information.**  Legal moves are computed from what the
  moving side knows.  A face-down enemy counter the side cannot identify
  (``unidentified``: a unit, a dummy or a marker such as a trap) could be a unit,
  so it exerts a zone like one; a revealed dummy or marker exerts none (a dummy
  "only hides real units").  Otherwise a unit's legal moves would tell its owner
  which counters are dummies or traps.

Guarantees: a unit's zone is read once per (type, cell, mode, zone) and rules and map; the enemy
zones of a side are read again only when the other sides' units on the map change.  Limits: a zone
with ``requires option`` is in force when that option is (``interpreter.options``); a zone never
depends on the state beyond the exerting unit's type, cell and mode (not on terrain it stands in,
nor on the units around it).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from ..dsl.compiled.zones import ZoneRule
from .caches import map_memos, rules_cache
from .cells import adjacency, cell_selectors, within
from .rules import Rules, UnitType
from .state import GameState, Unit
from .world import World


def zone_rules(rules: Rules) -> tuple[ZoneRule, ...]:
    """The ``zone`` declarations in force (``requires option``), read, in rulebook order."""
    return rules.zones


def is_counter(unit_type: UnitType) -> bool:
    """A unit, or a dummy standing in for one: what occupies a cell and may exert a zone."""
    return unit_type.kind == "unit" or unit_type.dummy


def unidentified(rules: Rules, side: str, unit: Unit) -> bool:
    """Whether ``side`` cannot tell what ``unit`` is: another side's counter, face down, on the map,
    before a side that does not ``inspects enemy stacks``.

    Such a counter is, for everything the side is offered, an enemy counter of unknown type: it
    holds its cell, exerts zones, may be attacked; what it really is counts only when an action
    is carried out (a marker found by a move springs, a dummy or marker attacked is revealed)."""
    if not unit.hidden or unit.side == side or not unit.on_map:
        return False
    inspects = rules_cache(rules).get("inspects_stacks")
    if inspects is None:
        inspects = rules_cache(rules)["inspects_stacks"] = frozenset(
            name for name, rule in rules.side_rules.items() if rule.inspects_stacks)
    return side not in inspects


def occupies(rules: Rules, side: str, unit: Unit, *, omniscient: bool = False) -> bool:
    """Whether another side's ``unit`` holds its cell against ``side``: a unit or a dummy (which
    looks like one), or any counter ``side`` cannot identify (``unidentified``; ``omniscient``
    identifies them all, so a marker then holds nothing)."""
    return counter_types(rules)[unit.type] or (not omniscient and unidentified(rules, side, unit))


def zone_extra(rules: Rules, unit: Unit, unit_type: UnitType) -> int:
    """The ``zone range +N`` of the unit's mode (the first line naming it, else the general one)."""
    mode = rules.mode(unit.mode)
    return mode.zone_extra(unit_type.selectors) if mode is not None else 0


def zone_of(world: World, unit: Unit, zone: ZoneRule) -> Collection[str]:
    """The cells ``unit`` holds in ``zone`` (not its own cell), or nothing when it does not exert it:
    read by membership and iteration only (a tuple for a few cells, else a frozenset: ``_zone_of``)."""
    cache = map_memos(world.rules, world.board).zone_of
    key = (unit.type, unit.location, unit.mode, zone.decl.name)
    found = cache.get(key)
    if found is None:
        found = cache[key] = _zone_of(world, unit, zone)
    return found


NOWHERE: tuple[str, ...] = ()
"""The zone of a counter that exerts none where it stands: the one empty tuple, where each
``frozenset()`` was an object of its own (200 bytes; 28 of the 86 zones a played game of the
smallest shipped scenario kept were empty)."""

FEW_CELLS = 4
"""Zones of at most so many cells are kept as tuples, in id order: a frozenset is 200 bytes however
few its cells (a tuple of 2, 56), and most zones hold one to four cells (47 of the 58 others that
game kept: 16 -> 9 KiB); a longer one stays a set, whose lookup beats a pass."""


def _zone_of(world: World, unit: Unit, zone: ZoneRule) -> Collection[str]:
    unit_type = world.rules.unit_type(unit.type)
    if zone.exerted_by is not None and not Rules.unit_matches(unit_type, zone.exerted_by):
        return NOWHERE
    extra = zone_extra(world.rules, unit, unit_type)
    if zone.into is None and not extra and zone.range == 1:  # (the commonest zone: the cells next to it)
        return _kept_zone(set(adjacency(world.board)[unit.location]))
    selectors = cell_selectors(world.rules, world.board)
    out = set()
    for cell, distance in within(world.board, [unit.location], zone.range + extra).items():
        if distance == 0:
            continue
        if zone.into is None or selectors[cell] & zone.into:
            if distance <= zone.range + extra:
                out.add(cell)
        elif distance <= extra:
            out.add(cell)
    return _kept_zone(out)


def _kept_zone(cells: set[str]) -> Collection[str]:
    """``cells`` as ``zone_of`` keeps them: ``NOWHERE``, a tuple of a few in id order, or a frozenset."""
    if not cells:
        return NOWHERE
    return tuple(sorted(cells)) if len(cells) <= FEW_CELLS else frozenset(cells)


def locking_zone(world: World, unit: Unit) -> ZoneRule | None:
    """The first zone that ``locks units in it`` exerted by an enemy of ``unit`` into the cell it
    stands in (a zone its type ignores does not count); ``None``: it is free to move."""
    zones = [z for z in zone_rules(world.rules) if z.locks]
    if not zones or not unit.on_map:
        return None
    unit_type = world.rules.unit_type(unit.type)
    others = others_on_map(world.state, unit.side)
    for zone in zones:
        if not zone.is_ignored_by(unit_type) and any(unit.location in zone_of(world, u, zone) for u in others):
            return zone
    return None


def counter_types(rules: Rules) -> dict[str, bool]:
    """``is_counter`` of every unit type, read once per ``Rules``."""
    cache = rules_cache(rules)
    found = cache.get("counter_types")
    if found is None:
        found = cache["counter_types"] = {name: is_counter(t) for name, t in rules.unit_types.items()}
    return found


def enemy_zones(world: World, side: str, *, stopping: bool | None = None, blocking_retreat: bool | None = None,
                omniscient: bool = False, others: tuple[Unit, ...] | None = None) -> Mapping[str, ZoneRule]:
    """Cells in zones exerted by enemies of ``side``, with the zone each is in (the first, in rulebook order).

    ``stopping``/``blocking_retreat`` keep only zones that (do or do not) stop movement or block retreat.
    ``omniscient`` drops face-down dummies and markers, which the moving side cannot tell from units.
    ``others``: the other sides' units on the map, when the caller has read them (``others_on_map``).
    """
    if others is None:
        others = others_on_map(world.state, side)
    return _enemy_zones_of(world, side, others, stopping, blocking_retreat, omniscient)


def others_on_map(state: GameState, side: str) -> tuple[Unit, ...]:
    """The units of every side but ``side`` on the map: all that can occupy a cell or exert a zone
    (from the state's index, so while they do not change it is the same tuple, or an equal one)."""
    found = None
    for owner, units in state.units_on_map().items():  # (a loop: no comprehension's frame, at every search)
        if owner != side:
            if found is not None:  # several other sides: theirs together, in ``units`` order
                return tuple([u for u in state.units if u.side != side and u.on_map])
            found = units
    return found if found is not None else ()


def _enemy_zones_of(world: World, side: str, others: tuple[Unit, ...], stopping: bool | None,
                    blocking_retreat: bool | None, omniscient: bool) -> Mapping[str, ZoneRule]:
    """``enemy_zones`` given the other sides' units."""
    zones = [z for z in zone_rules(world.rules)
             if (stopping is None or z.stops == stopping)
             and (blocking_retreat is None or z.blocks_retreat == blocking_retreat)]
    if not zones:
        return {}
    # The answer depends only on the other sides' units, which stay the same objects while one
    # side acts (``GameState.with_unit`` keeps unchanged units), so the last answer per question
    # is kept on the rules/board cache and reused while the tuple of those units is equal
    # (identity first) to the one it was read from; any change to one of them reads afresh.
    # Callers only read the returned mapping.
    memo = map_memos(world.rules, world.board).enemy_zones
    key = (side, stopping, blocking_retreat, omniscient)
    last = memo.get(key)
    if last is not None and last[0] == others:
        return last[1]
    out = memo[key] = (others, _enemy_zones(world, others, side, zones, omniscient))
    return out[1]


def _enemy_zones(world: World, others: tuple[Unit, ...], side: str, zones: list[ZoneRule],
                 omniscient: bool) -> dict[str, ZoneRule]:
    """The zones of ``others``, the other sides' units on the map (``others_on_map``)."""
    out: dict[str, ZoneRule] = {}
    known = map_memos(world.rules, world.board).zone_of  # zone_of's memo
    counters = counter_types(world.rules)
    one = zones[0] if len(zones) == 1 else None
    held = []  # with one zone: each unit's cells, joined at the end
    for unit in others:
        # Units exert zones; a dummy or marker only while the mover cannot tell it from a unit.
        if (unit.dummy or not counters[unit.type]) and (omniscient or not unidentified(world.rules, side, unit)):
            continue
        for zone in zones:
            cells = known.get((unit.type, unit.location, unit.mode, zone.decl.name))
            if cells is None:
                cells = zone_of(world, unit, zone)
            if one is not None:
                held.append(cells)
            elif cells:
                # The first unit and zone to reach a cell names its zone.
                out.update(dict.fromkeys([cell for cell in cells if cell not in out], zone))
    if one is not None:
        return dict.fromkeys(frozenset().union(*held), one)
    return out


def has_zone_to_zone(rules: Rules) -> bool:
    """Whether any zone in force says ``zone to zone``; read once per ``Rules``."""
    cache = rules_cache(rules)
    found = cache.get("zone_to_zone")
    if found is None:
        found = cache["zone_to_zone"] = any(z.zone_to_zone for z in zone_rules(rules))
    return found
