"""Spotting: ``do spot with SPOTTING`` turns face-down enemy counters face up.

A ``spotting`` declaration may say three things; this procedure does each one it says, in
this order:

- ``hide again when enemy leaves``: a revealed counter of a face-down side with no enemy unit
  in its cell is turned face down again.
- ``reveal on entering with enemy``: a hidden counter sharing its cell with an enemy unit is
  revealed, whatever the terrain.
- ``range N [in MODE] [for WHO]`` (with a mode's ``spot range N [for WHO]`` lines read as
  ``range N in MODE [for WHO]``): a hidden counter within N cells of one of the spotting side's
  units may be spotted.  The line that applies to a unit is the most specific one that matches
  it (mode and ``for`` > mode > ``for`` > neither; the larger range among equals), so
  ``range 1`` / ``range 2 in patrol`` / ``range 3 in patrol for special_forces`` give a
  patrolling special forces unit 3, a patrolling infantry unit 2 and every other unit 1.
  The counter's terrain decides: ``spot auto`` reveals it; ``spot 1-3`` rolls the terrain's
  ``on`` dice, else the spotting's ``roll DICE against terrain`` dice, and reveals it when the
  roll is in the range.

Readings this procedure makes, because rules rarely say:

- **One attempt per counter each time the procedure runs** (once a phase), however many units
  are in range: the roll is against the counter's terrain, not the spotter.
- **Every eligible counter is tried, with no decision.**  No rule makes trying cost anything,
  so "don't try" would be a dominated option that only lengthens games.  Counters are tried in
  id order (ids of face-down sides are shuffled at set-up, so the order tells nothing).
- **Who spots**: the phase's acting side, or in a mutual phase every side in player order.
  Any of its units on the map may spot, except dummies (they are not units); the spotter need
  not take part in any attack.
- **What is spotted**: every face-down counter of another side on the map, units and markers
  alike ("the counter is revealed").
- **A spotted dummy is revealed and removed** from the map (to ``eliminated``).  It scores
  nothing: it is not a unit (``award_for_loss`` ignores dummies).
- **Revealed counters stay revealed** unless the spotting says ``hide again when enemy leaves``.

Limits: hiding again happens when spotting runs, not the moment the enemy leaves; a counter in
terrain with no ``spot`` line cannot be spotted by range (only by sharing a cell, when the
spotting says so).

Raises:
    RulesError: (E805) when a terrain's ``spot`` number must be rolled but neither the terrain
    (``spot 1-3 on d6``) nor the spotting (``roll d6 against terrain``) names the dice.
"""

from __future__ import annotations

from attrs import evolve

from ...dsl.diagnostics import RulesError, diagnostic
from ...dsl.compiled.modes import Spotting
from ...dsl.compiled.calls import Spot
from ..context import Context, Flow
from . import procedure
from ..state import Unit


@procedure("spot")
def spot(ctx: Context, call: Spot) -> Flow:
    """Hide, reveal and spot as the named ``spotting`` declaration says (module docstring)."""
    spotting = ctx.rules.spottings[call.spotting]
    if spotting.hide_again:
        _hide_again(ctx)
    if spotting.reveal_on_entering:
        _reveal_with_enemy(ctx)
    sides = [ctx.acting] if ctx.acting else list(ctx.player_order)
    for side in sides:
        spotters = _spotters(ctx, spotting, side)  # a side's units do not move while it spots
        for counter in sorted(ctx.state.units, key=lambda u: u.id):
            counter = ctx.state.unit(counter.id)
            if not (counter.hidden and counter.on_map and counter.side != side):
                continue
            if not any(ctx.board.distance(cell, counter.location) <= distance for cell, distance in spotters):
                continue
            _try_to_spot(ctx, spotting, side, counter)
    return
    yield  # a generator that needs no decision


# --- range --------------------------------------------------------------------------------


def spot_range_of(ctx: Context, spotting: Spotting, unit: Unit) -> int | None:
    """How far ``unit`` spots under ``spotting`` and its mode, or ``None`` when no line applies."""
    return spotting.range_of(ctx.rules.unit_type(unit.type).selectors, ctx.rules.mode(unit.mode))


def _spotters(ctx: Context, spotting: Spotting, side: str) -> list[tuple[str, int]]:
    """(cell, range) of each of the side's units that may spot (not dummies, a line applies)."""
    out = []
    for unit in ctx.state.units_of(side):
        if unit.dummy:
            continue
        distance = spot_range_of(ctx, spotting, unit)
        if distance is not None:
            out.append((unit.location, distance))
    return out


# --- revealing ----------------------------------------------------------------------------


def _try_to_spot(ctx: Context, spotting: Spotting, side: str, counter: Unit) -> None:
    cell = counter.location
    terrain_name = ctx.board.terrain(cell)
    terrain = ctx.rules.cell_terrain(terrain_name, ctx.board.tags(cell))
    where = f"{terrain.label if terrain else terrain_name} {cell}"
    needed = terrain.spot if terrain else None
    if needed is None:
        return
    if needed == "auto":
        _reveal(ctx, counter, f"{counter.id} spotted in {where} (automatic)", side=side)
        return
    dice = terrain.spot_dice or spotting.dice
    if dice is None:
        raise RulesError([diagnostic("E805", terrain.spot_source.span,
                                     f"no dice to roll for spotting in terrain {terrain_name!r}",
                                     f"write 'spot {needed.text} on d6' or 'roll d6 against terrain' "
                                     f"in spotting {spotting.name!r}")])
    value = ctx.roll(dice, f"spot {counter.id} in {where} (needs {needed.text})")
    text = f"roll {value} on {dice}, needs {needed.text}"
    if value in needed:
        _reveal(ctx, counter, f"{counter.id} spotted in {where}: {text}", side=side)
    else:
        ctx.say(f"{counter.id} not spotted in {where}: {text}", kind="spot", unit=counter.id, cell=cell,
                spotted=False, by=side)


def _reveal(ctx: Context, counter: Unit, text: str, **data) -> None:
    """Turn a counter face up; a dummy is shown and removed from the map."""
    label = ctx.rules.unit_type(counter.type).label
    if counter.dummy:
        ctx.update_unit(evolve(counter, hidden=False, location=ctx.rules.eliminated_box))
        ctx.say(f"{text}; it is a {label}, removed from the map", kind="spot", unit=counter.id,
                cell=counter.location, spotted=True, dummy=True, **data)
    else:
        ctx.update_unit(evolve(counter, hidden=False))
        ctx.say(f"{text}; it is a {label}", kind="spot", unit=counter.id, cell=counter.location, spotted=True,
                **data)


def _face_down(ctx: Context, side: str) -> bool:
    known = ctx.rules.side_rules.get(side)
    return known is not None and known.face_down


def _enemy_in(ctx: Context, side: str, cell: str) -> bool:
    """An enemy *unit* in the cell: markers (a sensor, a trap) reveal nothing by being there."""
    return any(u.side != side and not u.dummy and ctx.rules.unit_type(u.type).kind == "unit"
               for u in ctx.state.units_at(cell))


def _reveal_with_enemy(ctx: Context) -> None:
    for counter in sorted(ctx.state.units, key=lambda u: u.id):
        if counter.hidden and counter.on_map and _enemy_in(ctx, counter.side, counter.location):
            _reveal(ctx, counter, f"{counter.id} revealed: enemy in its cell {counter.location}")


def hide_again(ctx: Context) -> None:
    """After a move: where a ``spotting`` says ``hide again when enemy leaves``, revealed counters of
    a face-down side with no enemy left in their cell go face down again (a fog-of-war rule)."""
    if any(s.hide_again for s in ctx.rules.spottings.values()):
        _hide_again(ctx)


def _hide_again(ctx: Context) -> None:
    # The face-down sides' counters on the map, from the state's index (turning one face down
    # changes nothing ``_enemy_in`` reads, so all are found first, then turned in id order).
    going = [counter for side, mine in ctx.state.units_on_map().items() if _face_down(ctx, side)
             for counter in mine if not counter.hidden and not _enemy_in(ctx, side, counter.location)]
    for counter in sorted(going, key=lambda u: u.id):
        ctx.update_unit(evolve(counter, hidden=True))
        ctx.say(f"{counter.id} is face down again: no enemy in {counter.location}", kind="spot",
                unit=counter.id, cell=counter.location, hidden=True)
