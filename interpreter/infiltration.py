"""Infiltration: ``award … on infiltrated`` scores for a unit that ends a move in its cells.

One implementation for every way a unit moves: the ``move`` procedure (``do move``) calls it,
through ``standing`` and ``infiltrate_moved``, once each counter's turn to move is over, and
``move force`` with the force once it has moved (when its move starts no battle).  A unit that
ends its move in the cells of such an award (``cells WHERE [except …]``, read against the cell's
terrain and tags), and is one its ``of`` line names, is turned face up, scores the award
(``interpreter.victory.score_for``) and goes to its ``then to`` box, if it names one.  When
several awards fit (victory points or, with an option, command points), its owner chooses one
(decision ``infiltration``: ``score AWARD``).  An award whose ``requires option`` is off does not
apply.

Reading: a unit that passes through such a cell, or stays where it is, does not infiltrate.
"""

from __future__ import annotations

from attrs import evolve

from ..dsl.compiled.scoring import Award
from .actions import Action
from .citations import cite
from .context import Context, Flow
from .state import Unit


def infiltration_awards(ctx: Context) -> tuple[Award, ...]:
    """The ``award … on infiltrated`` in force (``Rules.awards`` holds only those in force); found
    once per ``Rules`` (``Rules.derived``), as every unit's turn to move asks."""
    derived = ctx.rules.derived
    found = derived.get("infiltration awards")
    if found is None:
        found = derived["infiltration awards"] = tuple(a for a in ctx.rules.awards.values() if a.on == "infiltrated")
    return found


def standing(ctx: Context, side: str) -> dict[str, str] | None:
    """Where each counter of ``side`` on the map stands, before one of them takes its turn to move
    (for ``infiltrate_moved`` after it); ``None`` when no infiltration award is in force."""
    if not infiltration_awards(ctx):
        return None
    return {u.id: u.location for u in ctx.state.units_of(side)}


def infiltrate_moved(ctx: Context, before: dict[str, str]) -> Flow:
    """``infiltrate`` the counters of ``before`` (``standing``) that now stand elsewhere on the map:
    those whose move just ended (a unit, or a carrier and the units it set down), in id order."""
    now = (ctx.state.unit(uid) for uid in before)
    yield from infiltrate(ctx, sorted((u for u in now if u.on_map and u.location != before[u.id]),
                                      key=lambda u: u.id))


def infiltrate(ctx: Context, units: list[Unit]) -> Flow:
    """Each of ``units`` (as they stand now, at the end of their move) that ends in the cells of an
    infiltration award scores it, is turned face up and goes to its ``then to`` box."""
    from .victory import score_for

    awards = infiltration_awards(ctx)
    if not awards:
        return
    for unit in units:
        if not unit.on_map:
            continue
        fitting = _fitting(ctx, awards, unit)
        if not fitting:
            continue
        cell = unit.location
        award = fitting[0]
        if len(fitting) > 1:
            choice = yield from ctx.choose(unit.side, "infiltration", f"{unit.id} infiltrates {cell}: score",
                                           [Action("score", (a.name,)) for a in fitting])
            award = next(a for a in fitting if a.name == choice.args[0])
        box = award.then_to
        shown = evolve(unit, hidden=False)
        ctx.update_unit(evolve(shown, location=box or cell))
        then_text = f" and goes to the {box}" if box else ""
        where = cite(award.decl)
        ctx.say(f"{ctx.label(shown)} infiltrates {cell}{then_text}{f' ({where})' if where else ''}",
                kind="infiltration", unit=unit.id, cell=cell, unit_type=unit.type)
        score_for(ctx, award, shown)


def _fitting(ctx: Context, awards: tuple[Award, ...], unit: Unit) -> list[Award]:
    """The awards whose ``of`` names the unit and whose ``cells`` hold the cell it stands in."""
    selectors = ctx.rules.unit_type(unit.type).selectors
    cell = unit.location
    cell_selectors = ctx.rules.cell_selectors(ctx.board.terrain(cell), ctx.board.tags(cell))
    return [a for a in awards if a.counts(selectors) and a.holds_cell(cell_selectors)]
