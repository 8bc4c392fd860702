"""Victory: points awarded as they occur or in scoring phases, sudden death, and the final level.

Reads the rulebook's (or the scenario overlay's) ``victory`` and ``award``
declarations.  With ``victory { by vp margin; level … }`` the side with more
points wins at the level whose range holds the margin (its total less the
other side's); with ``by vp total``, at the level whose range holds its own
total.  A level named ``draw``, a score no level holds, or equal totals make a
draw, unless ``draws won by SIDE``: then that side wins, at the drawn level's label.  A
sudden-death lead is a margin under either form.

Sudden death is immediate: every change of the victory resource (``gain``) checks it, and once a
side leads by the ``sudden death lead`` the game ends there (``GameEnds``), whatever procedure
was running; the flow then decides the result.  A resource that is ``never lost`` takes no
negative change (a loss, a price): the change is narrated and not made.
"""

from __future__ import annotations

from fractions import Fraction

from attrs import evolve

from ..dsl.compiled.scoring import Award
from .cells import distances_from
from .citations import because
from .context import Context
from .rules import Rules
from .state import Unit
from .victory_forms import check_control, threshold_met


class GameEnds(Exception):
    """Raised inside a procedure when the game ends there (a sudden-death lead was reached):
    ``interpreter.flow.play`` stops the turn and decides the result.  Not an error."""


def victory_resource(ctx: Context) -> str | None:
    """The resource the ``victory`` is decided ``by`` (``None`` without a victory declaration)."""
    return ctx.rules.victory.resource if ctx.rules.victory is not None else None


def _shown(ctx: Context, side: str) -> str:
    known = ctx.rules.side_rules.get(side)
    return known.label if known is not None else side


def gains_multiplier(ctx: Context, side: str, resource: str) -> int:
    """The product of the side's ``gains:RESOURCE`` turn modifiers (1 when there are none).

    Set by an event's ``multiply gains RESOURCE by N this turn`` (an event doubling the VP both
    sides receive); they last until the end of the turn.
    """
    factor = 1
    for who, what, amount in ctx.state.turn_modifiers:
        if who == side and what == f"gains:{resource}":
            factor *= amount
    return factor


def gain(ctx: Context, side: str, resource: str, amount: Fraction, reason: str) -> None:
    """Add to a side's resource within its cap; negative amounts spend (never below the minimum).

    A positive amount is first multiplied by the side's ``gains:RESOURCE`` turn modifiers
    (``gains_multiplier``); spending is never multiplied.
    """
    track = ctx.rules.resources.get(resource)
    before = ctx.state.resource(side, resource)
    if amount < 0 and track is not None and track.never_lost:
        shown = _shown(ctx, side)
        ctx.say(f"{shown}: {resource} is never lost; {resource} stays {before} ({reason})", kind="resource",
                side=side, resource=resource, value=str(before))
        return
    if amount > 0:
        multiplier = gains_multiplier(ctx, side, resource)
        if multiplier != 1:
            amount *= multiplier
            reason = f"{reason}, x{multiplier} this turn"
    after = before + amount
    if track is not None and track.cap is not None:
        after = min(after, track.cap)
    if track is not None and track.minimum is not None:
        after = max(after, track.minimum)
    if after != before:
        ctx.state = ctx.state.with_resource(side, resource, after)
        shown = _shown(ctx, side)
        sign = "+" if after > before else "-"
        ctx.say(f"{shown}: {sign}{abs(after - before)} {resource}, now {after} ({reason})",
                kind="resource", side=side, resource=resource, value=str(after))
        if resource == victory_resource(ctx) and not ctx.state.over and check_sudden_death(ctx):
            raise GameEnds(f"sudden death: {resource} lead")
        if not ctx.state.over and threshold_met(ctx, resource) is not None:
            raise GameEnds(f"threshold: {resource}")


def change_within(ctx: Context, side: str, resource: str, amount: int, floor: int | None, why: str) -> None:
    """An effect's ``gain``/``lose``: ``gain`` with a loss stopped at ``floor`` (an effect's
    ``minimum N``), and a line narrated even when nothing changes (so the log says why)."""
    before = ctx.state.resource(side, resource)
    if floor is not None and amount < 0:
        amount = -min(-amount, max(before - floor, 0))
    shown = _shown(ctx, side)
    if amount == 0:
        ctx.say(f"{shown}: no change to {resource} ({why})", kind="resource", side=side, resource=resource)
        return
    gain(ctx, side, resource, Fraction(amount), why)
    if ctx.state.resource(side, resource) == before:
        ctx.say(f"{shown}: {resource} stays {before} ({why})", kind="resource", side=side, resource=resource)


def award_for_loss(ctx: Context, unit: Unit, how: str) -> None:
    """Score every ``award … on eliminated|refitted [by combat] of …`` that matches a unit leaving play."""
    unit_type = ctx.rules.unit_type(unit.type)
    if unit.dummy:
        return
    for award in ctx.rules.awards.values():
        if award.on == how and award.counts(unit_type.selectors):
            score_for(ctx, award, unit)


def score_award(ctx: Context, award: Award, unit: Unit) -> None:
    """Score one award for one counter (an effect's ``score AWARD``), saying so when it is worth nothing."""
    if not score_for(ctx, award, unit) and scores_now(ctx, award):
        ctx.say(f"{award.label}: {ctx.label(unit)} scores nothing", kind="resource", award=award.name)


def score_for(ctx: Context, award: Award, unit: Unit) -> bool:
    """Score an award's points for one counter's type; whether anything was scored.

    The award's ``to`` scores (else the counter's enemy); ``resource`` or the victory resource is scored.
    An award ``scored during PHASE…`` scores nothing at other times (``scores_now``).
    """
    if not scores_now(ctx, award):
        ctx.say(f"{award.label}: {ctx.label(unit)} scores nothing now (it is scored during "
                f"{', '.join(award.scored_during)})", kind="resource", award=award.name)
        return False
    side = scoring_side(ctx.rules, award, unit)
    points = counter_points(ctx, award, unit)
    name = award.resource or victory_resource(ctx)
    if not (points and name):
        return False
    gain(ctx, side, name, Fraction(points), f"{award.label}: {ctx.label(unit)}")
    return True


def scoring_side(rules: Rules, award: Award, unit: Unit) -> str:
    """Who an award scored on a counter goes to: its ``to``, else the counter's enemy."""
    return award.to or next(s for s in rules.sides if s != unit.side)


def counter_points(ctx: Context, award: Award, unit: Unit) -> Fraction:
    """The points an award is worth for one counter where it stands (``points factor F``: the
    factor as the counter shows it); read by play and by the greedy agent alike."""
    points = award.points_for(ctx.rules.unit_type(unit.type).selectors, cell_distance(ctx, unit.location))
    if isinstance(points, str):  # `points factor F`: the factor as the counter shows it
        value = ctx.rules.factor(unit, points)
        points = value if isinstance(value, (int, Fraction)) and not isinstance(value, bool) else 0
    return Fraction(points)


def scores_now(ctx: Context, award: Award) -> bool:
    """Whether the award scores now: ``scored during PHASE…`` only while one of them (or a step
    inside one) runs (``ctx.running``)."""
    return award.scores_in(frozenset(ctx.running))


def score_held(ctx: Context, award: Award) -> None:
    """An ``award … on held; cells …`` scores each matching cell only its side occupies.

    Its side is the award's ``to``: an award without ``to`` is received by no side and scores
    nothing.  Which awards a phase scores (its acting side's own) is ``do score``'s choice.

    A cell scores the award's first ``points N for WHERE`` line that names it (by terrain, tag or
    place), else its general ``points``; twice that with a unit of the holder that ``doubled with``
    names in the cell (a leader or political unit in the cell).
    """
    if award.to is None or award.cells is None:
        return
    side = award.to
    name = award.resource or victory_resource(ctx)
    doublers = award.doubled_with
    total, held = 0, 0
    for cell, points in _award_cells(ctx, award):
        real = [u for u in ctx.state.units_at(cell) if not u.dummy]
        if not real or any(u.side != side for u in real):
            continue
        held += 1
        if doublers and any(ctx.rules.unit_type(u.type).matches(doublers) for u in real):
            points *= 2
        total += points
    if held and total and name:
        gain(ctx, side, str(name), Fraction(total), f"{award.label}: {held} held")


def score_controlled(ctx: Context, award: Award) -> None:
    """An ``award … on controlled; cells …`` scores each matching cell its side (``to``) controls
    (``interpreter.control``), each cell its points as for ``on held``; an award without ``to``
    scores nothing."""
    if award.to is None:
        return
    name = award.resource or victory_resource(ctx)
    total, count = 0, 0
    for cell, points in _award_cells(ctx, award):
        if ctx.state.controller(cell) == award.to:
            count += 1
            total += points
    if count and total and name:
        gain(ctx, award.to, str(name), Fraction(total), f"{award.label}: {count} controlled")


def score_award_cells(ctx: Context, award: Award) -> None:
    """Score an ``on held`` or ``on controlled`` award (``do score``, ``score … at end``)."""
    if award.on == "held":
        score_held(ctx, award)
    elif award.on == "controlled":
        score_controlled(ctx, award)


def _award_cells(ctx: Context, award: Award) -> tuple[tuple[str, int], ...]:
    """The cells an award's ``cells`` names (by terrain, tag or place, less its ``except``), each with
    its points; found once per rules and map."""
    from .caches import map_memos

    cache = map_memos(ctx.rules, ctx.board).award_cells
    if award.name not in cache:
        found = []
        for cell in ctx.board.cells:
            names = {*ctx.rules.cell_selectors(ctx.board.terrain(cell), ctx.board.tags(cell))}
            place = ctx.board.graph.nodes[cell].get("place")
            if place is not None:
                names.add(place)
            if award.holds_cell(frozenset(names)):
                found.append((cell, award.points_for(frozenset(names), cell_distance(ctx, cell))))
        cache[award.name] = tuple(found)
    return cache[award.name]


def cell_distance(ctx: Context, cell: str):
    """``distance(WHERE…)`` for an award's ``at distance`` lines: the cells from ``cell`` to the
    nearest cell WHERE names (``None`` when ``cell`` is not on the map or none is reached)."""
    if cell not in ctx.board.graph:
        return lambda names: None
    return lambda names: distances_from(ctx.rules, ctx.board, names).get(cell)


def check_sudden_death(ctx: Context) -> bool:
    victory = ctx.rules.victory
    lead = victory.sudden_death_lead if victory is not None else None
    resource = victory_resource(ctx)
    if lead is None or resource is None:
        return False
    totals = sorted((ctx.state.resource(s, resource), s) for s in ctx.rules.sides)
    if totals[-1][0] - totals[0][0] >= lead:
        ctx.say(f"sudden death: {totals[-1][1]} leads by {totals[-1][0] - totals[0][0]} {resource}", kind="victory")
        ctx.state = evolve(ctx.state, over=True)
        return True
    return False


def _at_end(ctx: Context, victory) -> None:
    """What the victory reads when the game ends: its ``score … at end`` awards, then its ``control
    … at end`` lines (``interpreter.victory_forms``).  A threshold met while scoring decides."""
    try:
        for name in victory.scored_at_end:
            award = ctx.rules.awards.get(name)
            if award is not None:
                score_award_cells(ctx, award)
    except GameEnds:
        return
    check_control(ctx, "end")


def final_result(ctx: Context) -> dict:
    """Decide and log the result: ``{"winner": side or None, "level": label, "margin": n}``."""
    victory = ctx.rules.victory
    resource = victory_resource(ctx)
    if victory is not None and ctx.decided is None:
        _at_end(ctx, victory)
    if ctx.decided is not None:
        result = dict(ctx.decided)
        if resource is not None:
            result["totals"] = {s: str(ctx.state.resource(s, resource)) for s in sorted(
                ctx.rules.sides, key=lambda s: ctx.state.resource(s, resource), reverse=True)}
    elif victory is None or resource is None:
        # A victory won only by control or a threshold that no side met is drawn.
        drawn = victory is not None and bool(victory.by_control or victory.thresholds)
        result = {"winner": None, "level": "Draw" if drawn else "no victory conditions", "margin": 0}
    else:
        totals = sorted(((ctx.state.resource(s, resource), s) for s in ctx.rules.sides), reverse=True)
        margin = totals[0][0] - totals[-1][0]
        # ``by … margin`` reads the levels with the lead, ``by … total`` with the leader's own total.
        score = totals[0][0] if victory.by_total else margin
        tied = len(totals) < 2 or totals[0][0] == totals[1][0]
        drawn = victory.level("draw")
        level_name, label = "draw", (drawn.label if drawn is not None and drawn.label else "Draw")
        for level in victory.levels if not tied else ():
            if score in level.range:
                level_name, label = level.name, level.shown
        named = victory.level(victory.sudden_death_level) if victory.sudden_death_level else None
        if named is not None and not tied and margin >= victory.sudden_death_lead:
            # A lead that ends the game at once wins at the level its line names, even where the
            # level table puts that margin in another level.
            level_name, label = named.name, named.shown
        winner = None if tied or level_name == "draw" else totals[0][1]
        if winner is None and victory.draws_won_by is not None:
            winner = victory.draws_won_by  # ``draws won by SIDE``: no drawn game, that side wins it
            ctx.say(because(f"the result is drawn, and draws are won by {_shown(ctx, winner)}", victory.decl,
                            victory.decl.first("draws")), kind="victory")
        result = {"winner": winner, "level": label, "margin": int(margin),
                  "totals": {s: str(v) for v, s in totals}}
    text = f"{result['winner']} wins: {result['level']}" if result["winner"] else f"result: {result['level']}"
    ctx.say(text, kind="result", result=result)
    ctx.result = result
    return result
