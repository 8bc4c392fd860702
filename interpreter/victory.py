"""Victory: points awarded as they occur or in scoring phases, sudden death, and the final level.

Reads the rulebook's (or the scenario overlay's) ``victory`` and ``award``
declarations.  With ``victory { by vp margin; level … }`` the side with more
points wins at the level whose range holds the margin (its total less the
other side's); with ``by vp total``, at the level whose range holds its own
total.  A level named ``draw``, a score no level holds, or equal totals make a
draw.  A sudden-death lead is a margin under either form.

Sudden death is immediate: every change of the victory resource (``gain``) checks it, and once a
side leads by the ``sudden death lead`` the game ends there (``GameEnds``), whatever procedure
was running; the flow then decides the result.  A resource that is ``never lost`` takes no
negative change (a loss, a price): the change is narrated and not made.
"""

from __future__ import annotations

from fractions import Fraction

from attrs import evolve

from .context import Context
from .rules import Rules
from .state import Unit


class GameEnds(Exception):
    """Raised inside a procedure when the game ends there (a sudden-death lead was reached):
    ``interpreter.flow.play`` stops the turn and decides the result.  Not an error."""


def _victory(ctx: Context):
    found = ctx.rulebook.of_kind("victory")
    return found[0] if found else None


def _victory_resource(ctx: Context) -> str | None:
    decl = _victory(ctx)
    prop = decl.first("by") if decl else None
    return str(prop.get("resource")) if prop else None


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
    decl = ctx.rulebook.get("resource", resource)
    cap = decl.first("cap") if decl else None
    floor = decl.first("minimum") if decl else None
    before = ctx.state.resource(side, resource)
    if amount < 0 and decl is not None and decl.has("never"):
        side_decl = ctx.rulebook.get("side", side)
        shown = side_decl.display if side_decl else side
        ctx.say(f"{shown}: {resource} is never lost; {resource} stays {before} ({reason})", kind="resource",
                side=side, resource=resource, value=str(before))
        return
    if amount > 0:
        multiplier = gains_multiplier(ctx, side, resource)
        if multiplier != 1:
            amount *= multiplier
            reason = f"{reason}, x{multiplier} this turn"
    after = before + amount
    if cap is not None:
        after = min(after, cap.get("value"))
    if floor is not None:
        after = max(after, floor.get("value"))
    if after != before:
        ctx.state = ctx.state.with_resource(side, resource, after)
        side_decl = ctx.rulebook.get("side", side)
        shown = side_decl.display if side_decl else side
        sign = "+" if after > before else "-"
        ctx.say(f"{shown}: {sign}{abs(after - before)} {resource}, now {after} ({reason})",
                kind="resource", side=side, resource=resource, value=str(after))
        if resource == _victory_resource(ctx) and not ctx.state.over and check_sudden_death(ctx):
            raise GameEnds(f"sudden death: {resource} lead")


def change_within(ctx: Context, side: str, resource: str, amount: int, floor: int | None, why: str) -> None:
    """An effect's ``gain``/``lose``: ``gain`` with a loss stopped at ``floor`` (an effect's
    ``minimum N``), and a line narrated even when nothing changes (so the log says why)."""
    before = ctx.state.resource(side, resource)
    if floor is not None and amount < 0:
        amount = -min(-amount, max(before - floor, 0))
    side_decl = ctx.rulebook.get("side", side)
    shown = side_decl.display if side_decl else side
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
    for award in ctx.rulebook.of_kind("award"):
        on = award.first("on")
        if on is None or not on.has(how):
            continue
        of = award.first("of")
        if of is not None and not Rules.unit_matches(unit_type, of.get("who") or ()):
            continue
        score_for(ctx, award, unit)


def score_award(ctx: Context, award, unit: Unit) -> None:
    """Score one award for one counter (an effect's ``score AWARD``), saying so when it is worth nothing."""
    if not score_for(ctx, award, unit):
        ctx.say(f"{award.display}: {ctx.label(unit)} scores nothing", kind="resource", award=award.name)


def score_for(ctx: Context, award, unit: Unit) -> bool:
    """Score an award's points for one counter's type; whether anything was scored.

    The award's ``to`` scores (else the counter's enemy); ``resource`` or the victory resource is scored.
    """
    to = award.first("to")
    side = str(to.get("side")) if to else next(s for s in ctx.rules.sides if s != unit.side)
    points = _points(ctx, award, ctx.rules.unit_type(unit.type))
    resource = award.first("resource")
    name = str(resource.get("resource")) if resource else _victory_resource(ctx)
    if not (points and name):
        return False
    gain(ctx, side, name, Fraction(points), f"{award.display}: {ctx.label(unit)}")
    return True


def _points(ctx: Context, award, unit_type) -> int:
    line = Rules.line_for(award.all("points"), unit_type)
    return line.get("value") if line is not None else 0


def score_held(ctx: Context, award) -> None:
    """An ``award … on held; cells …`` scores each matching cell only its side occupies.

    Its side is the award's ``to``: an award without ``to`` is received by no side and scores
    nothing.  Which awards a phase scores (its acting side's own) is ``do score``'s choice.

    A cell scores the award's first ``points N for WHERE`` line that names it (by terrain, tag or
    place), else its general ``points``; twice that with a unit of the holder that ``doubled with``
    names in the cell (a leader or political unit in the cell).
    """
    to = award.first("to")
    if to is None or award.first("cells") is None:
        return
    side = str(to.get("side"))
    name = (award.first("resource").get("resource") if award.first("resource") else None) or _victory_resource(ctx)
    doubled = award.first("doubled")
    doublers = tuple(str(w) for w in doubled.get("who") or ()) if doubled is not None else ()
    total, held = 0, 0
    for cell, points in _award_cells(ctx, award):
        real = [u for u in ctx.state.units_at(cell) if not u.dummy]
        if not real or any(u.side != side for u in real):
            continue
        held += 1
        if doublers and any(Rules.unit_matches(ctx.rules.unit_type(u.type), doublers) for u in real):
            points *= 2
        total += points
    if held and total and name:
        gain(ctx, side, str(name), Fraction(total), f"{award.display}: {held} held")


def _award_cells(ctx: Context, award) -> tuple[tuple[str, int], ...]:
    """The cells an award's ``cells`` names (by terrain, tag or place, less its ``except``), each with
    its points; found once per rules and map."""
    from .caches import rules_cache

    cache = rules_cache(ctx.rules, ctx.board).setdefault("award_cells", {})
    if award.name not in cache:
        line = award.first("cells")
        wanted = {str(w) for w in line.get("where") or ()}
        unwanted = {str(w) for w in line.get("except") or ()}
        found = []
        for cell in ctx.board.cells:
            names = {*ctx.rules.cell_selectors(ctx.board.terrain(cell), ctx.board.tags(cell))}
            place = ctx.board.graph.nodes[cell].get("place")
            if place is not None:
                names.add(place)
            if not wanted & names or unwanted & names:
                continue
            special = next((p for p in award.all("points") if p.get("who")
                            and names & {str(w) for w in p.get("who")}), None)
            general = next((p for p in award.all("points") if not p.get("who")), None)
            chosen = special or general
            found.append((cell, int(chosen.get("value")) if chosen is not None else 0))
        cache[award.name] = tuple(found)
    return cache[award.name]


def check_sudden_death(ctx: Context) -> bool:
    decl = _victory(ctx)
    prop = decl.first("sudden") if decl else None
    resource = _victory_resource(ctx)
    if prop is None or resource is None:
        return False
    lead = prop.get("lead")
    totals = sorted((ctx.state.resource(s, resource), s) for s in ctx.rules.sides)
    if totals[-1][0] - totals[0][0] >= lead:
        ctx.say(f"sudden death: {totals[-1][1]} leads by {totals[-1][0] - totals[0][0]} {resource}", kind="victory")
        ctx.state = evolve(ctx.state, over=True)
        return True
    return False


def final_result(ctx: Context) -> dict:
    """Decide and log the result: ``{"winner": side or None, "level": label, "margin": n}``."""
    decl = _victory(ctx)
    resource = _victory_resource(ctx)
    if decl is None or resource is None:
        result = {"winner": None, "level": "no victory conditions", "margin": 0}
    else:
        totals = sorted(((ctx.state.resource(s, resource), s) for s in ctx.rules.sides), reverse=True)
        margin = totals[0][0] - totals[-1][0]
        # ``by … margin`` reads the levels with the lead, ``by … total`` with the leader's own total.
        score = totals[0][0] if decl.first("by").has("total") else margin
        tied = len(totals) < 2 or totals[0][0] == totals[1][0]
        levels = decl.all("level")
        drawn = next((p for p in levels if str(p.get("level")) == "draw"), None)
        level_name, label = "draw", (str(drawn.get("label")) if drawn is not None and drawn.get("label") else "Draw")
        for prop in levels if not tied else ():
            if score in prop.get("range"):
                level_name = str(prop.get("level"))
                label = str(prop.get("label")) if prop.get("label") else level_name
        sudden = decl.first("sudden")
        named = next((p for p in levels if sudden is not None and str(p.get("level")) == str(sudden.get("level"))),
                     None)
        if named is not None and not tied and margin >= sudden.get("lead"):
            # A lead that ends the game at once wins at the level its line names, even where the
            # level table puts that margin in another level.
            level_name = str(named.get("level"))
            label = str(named.get("label")) if named.get("label") else level_name
        winner = None if tied or level_name == "draw" else totals[0][1]
        result = {"winner": winner, "level": label, "margin": int(margin),
                  "totals": {s: str(v) for v, s in totals}}
    text = f"{result['winner']} wins: {result['level']}" if result["winner"] else f"result: {result['level']}"
    ctx.say(text, kind="result", result=result)
    ctx.result = result
    return result
