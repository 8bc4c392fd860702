"""Random events and the effects of events and markers: ``do roll events on TABLE`` and the marker moments.

``roll events on TABLE`` (the acting side's Random Events Phase): the side rolls the table's dice
and reads the column named after it (``columns blue red``), or the first column of a
table with one.  The event's printed ``text`` is logged for both players, then its ``effect``
lines are carried out in order (``run_event``).

Effects an event or a marker may have, and what this module does with each:

- ``gain|lose RESOURCE N|DICE [to ROLE] [minimum N]``: ``victory.gain`` (caps, the resource's own
  minimum, and this turn's gains multiplier); the dice are rolled only when the effect applies.
- ``reduce income RESOURCE N|DICE``: a turn modifier ``(side, "income:RESOURCE", -n)`` that the
  income procedure adds to this turn's income, which it never lets go below 0; so ``minimum 0``
  is what every reduction gets, and another floor cannot be said.
- ``multiply gains RESOURCE by N this turn [for ROLE]``: a turn modifier ``(side,
  "gains:RESOURCE", N)``, read by ``victory.gain``.
- ``reveal ROLE [units] in one cell``: the side chooses a cell holding face-down counters of
  that role (only units with ``units``) and they are turned face up; ``in this cell``: the
  counters a happening concerns (the force that entered), or else every such counter in the cell.
- ``roll DICE on TABLE``: a nested roll; the cell names an event, carried out in the same scope.
- ``pick reinforcement free [for ROLE] [from BOX]``: the strategic procedures'
  ``draw_reinforcement(ctx, side, BOX, free=True)``; without ``from``, the rulebook's box that
  is drawn ``at random``.
- ``return N [of SELECTOR…] ROLE to BOX``: the role's owner chooses N of its units on the map
  matching the selectors and puts them in BOX.
- ``score AWARD``: the award is scored for the marker (``victory.score_award``).
- ``remove self [to BOX]``: the marker leaves the map (to BOX, else out of play); a marker's
  later effects are not carried out.
- ``attack ROLE [of SELECTOR…] with N [ignoring terrain] [no return fire] [losses to lowest
  FACTOR]``: the marker attacks the role's units of the selectors in its cell with strength N
  (``combat.resolve``, no attacking units); with ``losses to lowest FACTOR`` the unit with the
  lowest factor (ties at random) is the target and so takes the loss.
- ``no effect``: logged.

Roles: ``owner``/``self`` are the event's or marker's side, ``opponent``/``enemy`` the other
sides, ``both`` every side.  Effects of other verbs are not event effects (combat and movement
carry them out) and are logged as not carried out here.

Markers act at **moments** their conditions name (``dsl.conditions``): ``happen`` carries out,
for each marker in the given cells, the effects whose condition's moment is the happening and
whose clauses hold.  Other procedures call the hooks: ``entered`` (a force entered a cell),
``fired`` (a side conducts combat in a cell), ``revealed`` (markers turned face up).

``do trigger MARKER…`` (``procedures.combat.trigger``) calls ``trigger_moments``: after a move,
every marker of those types in a cell the operation's force entered (``ctx.operation.path``
after its first cell) meets ``SIDE force enters``, the force being the operation's; in a battle,
every face-up marker of those types in the contested cell not yet revealed in this operation
meets ``revealed`` (so in the recon step of the first round, after ``spot`` turned it up); units
there with effects ``when revealed`` (deception units) meet it first, as they were turned up with
the markers and the markers' conditions are about what stays.  What
each operation's hooks have done is remembered per operation, so a marker meets a moment once.

Readings: a marker's standing effects (``modify recon roll``, ``shift … when defending``,
``supply``) and its effects at other moments (``when first combat round ends``) belong to combat
and logistics, and are left alone here.  A condition that fails is logged with the effect it
stops ("does not hold"), which tells the players nothing the counters on the map do not.

Limits: ``losses to lowest FACTOR`` makes one unit the target, so a result that eliminates two
units costs one (at a minefield's strength of 3 the CRT has no such result); a sensor's reveal of
a force that passed through its cell finds it gone; markers face up in the contested cell before
the operation began meet ``revealed`` again in a new operation.
"""

from __future__ import annotations

import weakref
from fractions import Fraction

from attrs import evolve

from ...dsl.model import Declaration, Property
from ...dsl.values import Dice
from ..actions import Action
from ..combat import resolve, roll_on_table, table_view
from ..conditions import Happening, Scope, condition_of, holds
from ..context import Context, Flow
from ..flow import procedure
from ..state import Unit
from ..victory import change_within, score_award

_DONE: dict[int, tuple[weakref.ref, dict[str, set]]] = {}
"""Per operation (``ctx.operation``, by identity: operations compare by value): the marker
moments already carried out, so a hook and the ``trigger`` after it, or two recon steps of one
battle, never carry out one moment twice.  Entries go when their operation does."""


# --- roll events -------------------------------------------------------------------------------


@procedure("roll events")
def roll_events(ctx: Context, prop: Property) -> Flow:
    """The acting side rolls on its own column of the table and the event happens (6.3-style)."""
    side = ctx.acting
    if side is None:
        return
    table = str(prop.get("table"))
    view = table_view(ctx, table)
    labels = [c.label for c in view.columns]
    column = labels.index(side) if side in labels else 0
    roll, name = roll_on_table(ctx, table, reason=f"{_side(ctx, side)} random event", column=column)
    yield from run_event(ctx, name, Scope(side), roll=roll, table=view.decl.display)


def run_event(ctx: Context, name: str, scope: Scope, *, roll: int | None = None, table: str | None = None) -> Flow:
    """Log an event (its printed text) and carry out its effect lines in order."""
    event = ctx.rulebook.get("event", name)
    if event is None:
        ctx.say(f"{table or 'table'}: {name!r} names no event; nothing happens", kind="event")
        return
    rolled = f"rolled {roll} on {table}: " if roll is not None else ""
    texts = " ".join(str(p.get("text")) for p in event.all("text"))
    ctx.say(f"{_side(ctx, scope.side)} {rolled}{event.display}" + (f" — {texts}" if texts else ""),
            kind="random event", event=name, side=scope.side, roll=roll)
    yield from apply_effects(ctx, event, scope)


def apply_effects(ctx: Context, decl: Declaration, scope: Scope) -> Flow:
    """Carry out a declaration's effect lines in order; stop after a ``remove self``."""
    for prop in decl.all("effect"):
        removed = yield from apply_effect(ctx, prop, scope, decl)
        if removed:
            return


def applies(ctx: Context, prop: Property, scope: Scope, decl: Declaration) -> bool:
    """Whether an effect line's condition holds; a failed clause is logged (a moment not
    happening is not: such a line belongs to another moment)."""
    condition = condition_of(ctx, prop)
    if scope.happening is not None and (condition is None or condition.moment is None):
        return False  # a marker's standing effects (modifiers, shifts) are carried out by combat
    if condition is None:
        return True
    if condition.moment is not None and scope.happening is None:
        return False
    if holds(ctx, condition, scope):
        return True
    if condition.moment is None or holds(ctx, evolve(condition, clauses=()), scope):
        ctx.say(f"{decl.display}: '{' '.join(condition.words)}' does not hold; '{_effect_text(prop)}' does "
                "not apply", kind="effect", effect=prop.get("effect"), applied=False)
    return False


def apply_effect(ctx: Context, prop: Property, scope: Scope, decl: Declaration) -> Flow:
    """One effect line (module docstring); returns whether the marker removed itself."""
    if not applies(ctx, prop, scope, decl):
        return False
    verb = prop.get("effect")
    if verb in ("gain", "lose"):
        for side in _sides(ctx, prop, scope):
            amount = _amount(ctx, prop, f"{decl.display}: {verb} {prop.get('resource')}")
            change_within(ctx, side, str(prop.get("resource")), amount if verb == "gain" else -amount, prop.get("floor"),
                  decl.display)
    elif verb == "reduce":
        amount = _amount(ctx, prop, f"{decl.display}: reduce income")
        resource = str(prop.get("resource"))
        _modify(ctx, scope.side, f"income:{resource}", -amount)
        ctx.say(f"{_side(ctx, scope.side)}: {resource} income this turn reduced by {amount} ({decl.display})",
                kind="effect", effect="reduce", side=scope.side, amount=amount)
    elif verb == "multiply":
        resource, factor = str(prop.get("resource")), prop.get("factor")
        for side in _sides(ctx, prop, scope):
            _modify(ctx, side, f"gains:{resource}", factor)
            ctx.say(f"{_side(ctx, side)}: {resource} gains x{factor} this turn ({decl.display})", kind="effect",
                    effect="multiply", side=side, factor=factor)
    elif verb == "reveal":
        yield from _reveal(ctx, prop, scope, decl)
    elif verb == "roll":
        table = str(prop.get("table"))
        where = f" in {scope.cell}" if scope.cell is not None else ""
        roll, name = roll_on_table(ctx, table, reason=f"{decl.display}{where}", dice=str(prop.get("dice")))
        # The cell's event is carried out now, whatever moment led to the roll.
        yield from run_event(ctx, name, evolve(scope, happening=None), roll=roll,
                             table=table_view(ctx, table).decl.display)
    elif verb == "pick":
        yield from _pick_free(ctx, prop, scope, decl)
    elif verb == "return":
        yield from _return(ctx, prop, scope, decl)
    elif verb == "score":
        if scope.unit is not None:
            score_award(ctx, ctx.rulebook.get("award", str(prop.get("award"))), ctx.state.unit(scope.unit.id))
    elif verb == "remove":
        return _remove_self(ctx, prop, scope, decl)
    elif verb == "attack":
        yield from _attack(ctx, prop, scope, decl)
    elif verb == "no":
        ctx.say(f"{decl.display}: no effect", kind="effect", effect="no")
    else:
        ctx.say(f"{decl.display}: '{_effect_text(prop)}' is not carried out by events", kind="effect",
                effect=verb, applied=False)
    return False


# --- the effects ------------------------------------------------------------------------------


def _effect_text(prop: Property) -> str:
    return " ".join(w.text for w in prop.words[1:])


def _side(ctx: Context, side: str) -> str:
    decl = ctx.rulebook.get("side", side)
    return decl.display if decl else side


def _role_word(prop: Property) -> str | None:
    from ...dsl.vocabulary import ROLES

    for word in prop.words[2:]:
        if word.text == "when" and not word.quoted:
            return None  # the condition's words are not the effect's role
        if not word.quoted and word.text in ROLES:
            return word.text
    return None


def _sides(ctx: Context, prop: Property, scope: Scope) -> list[str]:
    """The sides an effect's role names (``owner``/``self`` by default)."""
    role = _role_word(prop)
    if role in ("opponent", "enemy"):
        return [s for s in ctx.rules.sides if s != scope.side]
    if role == "both":
        return list(ctx.rules.sides)
    return [scope.side]


def _amount(ctx: Context, prop: Property, reason: str) -> int:
    dice = prop.get("roll")
    return ctx.roll(dice, reason) if dice is not None else int(prop.get("amount"))


def _modify(ctx: Context, side: str, what: str, amount: int) -> None:
    ctx.state = evolve(ctx.state, turn_modifiers=tuple(sorted([*ctx.state.turn_modifiers, (side, what, amount)])))


def _reveal(ctx: Context, prop: Property, scope: Scope, decl: Declaration) -> Flow:
    sides = _sides(ctx, prop, scope)
    units_only = prop.has("units")

    def hidden_in(cell: str) -> list[Unit]:
        return [u for u in ctx.state.units_at(cell) if u.hidden and u.side in sides
                and (not units_only or ctx.rules.unit_type(u.type).kind == "unit")]

    if prop.has("one"):
        # Every cell with face-down counters of those sides is offered, whatever they are: offering
        # only cells that hold units would tell the side which face-down stacks are markers alone.
        cells = sorted({u.location for u in ctx.state.units if u.on_map and u.hidden and u.side in sides},
                       key=lambda c: (len(c), c))
        if not cells:
            ctx.say(f"{decl.display}: no face-down counters to reveal", kind="effect", effect="reveal")
            return
        action = yield from ctx.choose(scope.side, "reveal", f"{decl.display}: reveal the counters in one cell",
                                       [Action("reveal", (c,)) for c in cells])
        targets = hidden_in(action.args[0])
    elif prop.has("this"):
        targets = [u for u in hidden_in(scope.cell) if not scope.units or u.id in scope.units] \
            if scope.cell is not None else []
    else:
        cells = ctx.board.within(scope.cell, prop.get("range")) if scope.cell is not None else set()
        targets = [u for c in sorted(cells) for u in hidden_in(c)]
    if not targets:
        ctx.say(f"{decl.display}: nothing face down to reveal", kind="effect", effect="reveal")
    for unit in targets:
        shown = evolve(unit, hidden=False)
        ctx.update_unit(shown)
        ctx.say(f"{decl.display}: {ctx.label(shown)} in {unit.location} is revealed", kind="reveal", unit=unit.id,
                unit_type=unit.type, cell=unit.location)


def _pick_free(ctx: Context, prop: Property, scope: Scope, decl: Declaration) -> Flow:
    box = prop.get("box")
    if box is None:
        box = next((b.name for b in ctx.rulebook.of_kind("box") if b.has("draw")), None)
    try:
        from .strategic import draw_reinforcement
    except ImportError:
        draw_reinforcement = None
    for side in _sides(ctx, prop, scope):
        if draw_reinforcement is None or box is None:
            ctx.say(f"{decl.display}: {_side(ctx, side)} may pick a reinforcement free, but drawing "
                    "reinforcements is not available", kind="effect", effect="pick", applied=False)
            continue
        ctx.say(f"{decl.display}: {_side(ctx, side)} picks a reinforcement at no cost", kind="effect",
                effect="pick", side=side)
        yield from draw_reinforcement(ctx, side, str(box), free=True)


def _return(ctx: Context, prop: Property, scope: Scope, decl: Declaration) -> Flow:
    from ..rules import Rules

    box = str(prop.get("box"))
    what = prop.get("what") or ()
    for side in _sides(ctx, prop, scope):
        for _ in range(prop.get("count")):
            candidates = [u for u in ctx.state.units_of(side) if not u.dummy
                          and ctx.rules.unit_type(u.type).kind == "unit"
                          and (not what or Rules.unit_matches(ctx.rules.unit_type(u.type), what))]
            if not candidates:
                ctx.say(f"{decl.display}: {_side(ctx, side)} has no {' '.join(map(str, what)) or 'unit'} on the "
                        "map to return", kind="effect", effect="return", side=side)
                break
            action = yield from ctx.choose(side, "return", f"{decl.display}: choose a unit to put in {box}",
                                           [Action("return", (u.id,)) for u in candidates])
            unit = ctx.state.unit(action.args[0])
            ctx.update_unit(evolve(unit, location=box, mode=None))
            ctx.say(f"{decl.display}: {ctx.label(unit)} leaves {unit.location} for the {_box(ctx, box)}",
                    kind="effect", effect="return", unit=unit.id, side=side, box=box)


def _box(ctx: Context, box: str) -> str:
    decl = ctx.rulebook.get("box", box)
    return decl.display if decl else box


def _remove_self(ctx: Context, prop: Property, scope: Scope, decl: Declaration) -> bool:
    if scope.unit is None:
        return False
    unit = ctx.state.unit(scope.unit.id)
    if not unit.on_map:
        return True
    box = prop.get("box")
    where = str(box) if box is not None else ctx.rules.eliminated_box
    ctx.update_unit(evolve(unit, location=where))
    to = f"to the {_box(ctx, where)}" if box is not None else "from play"
    ctx.say(f"{ctx.label(unit)} in {unit.location} is removed {to}", kind="effect", effect="remove", unit=unit.id,
            cell=unit.location, box=where)
    return True


def _attack(ctx: Context, prop: Property, scope: Scope, decl: Declaration) -> Flow:
    from .combat import combat_for
    from ..rules import Rules

    if scope.unit is None or scope.cell is None:
        return
    sides = _sides(ctx, prop, scope)
    what = prop.get("what") or ()
    targets = [u for u in ctx.state.units_at(scope.cell) if u.side in sides and not u.dummy
               and ctx.rules.unit_type(u.type).kind == "unit"
               and (not what or Rules.unit_matches(ctx.rules.unit_type(u.type), what))]
    if not targets:
        ctx.say(f"{decl.display} in {scope.cell}: no unit to attack", kind="effect", effect="attack")
        return
    factor = prop.get("factor")
    if factor is not None:
        targets = [_lowest(ctx, targets, str(factor), decl)]
    marker = ctx.state.unit(scope.unit.id)
    ctx.say(f"{decl.display} in {scope.cell} attacks {', '.join(ctx.label(u) for u in targets)}", kind="attack",
            cell=scope.cell, units=[u.id for u in targets], marker=marker.id)
    combat = combat_for(ctx, prop)
    yield from resolve(ctx, combat.name, (), targets, reason=f"{decl.display} at {scope.cell}",
                       attacker_side=marker.side, fixed_odds=prop.get("odds"), ignore_terrain=prop.has("ignoring"),
                       strength=prop.get("strength"))


def _lowest(ctx: Context, units: list[Unit], factor: str, decl: Declaration) -> Unit:
    """The unit with the lowest printed factor; ties at random (one roll of a die with as many faces)."""
    def value(unit: Unit) -> Fraction:
        v = ctx.rules.unit_type(unit.type).factor(factor)
        return v if isinstance(v, Fraction) else Fraction(0)

    low = min(value(u) for u in units)
    tied = sorted((u for u in units if value(u) == low), key=lambda u: u.id)
    if len(tied) == 1:
        return tied[0]
    pick = ctx.roll(Dice(1, len(tied)), f"{decl.display}: which of {', '.join(u.id for u in tied)} (lowest {factor} "
                                        f"{low}) takes the loss")
    return tied[pick - 1]


# --- marker moments ---------------------------------------------------------------------------------


def _has_moment(ctx: Context, decl: Declaration, kind: str) -> bool:
    for prop in decl.all("effect"):
        condition = condition_of(ctx, prop)
        if condition is not None and condition.moment is not None and condition.moment.kind == kind:
            return True
    return False


def happen(ctx: Context, happening: Happening, counters: list[Unit], units: tuple[str, ...] = ()) -> Flow:
    """Carry out, counter by counter in the order given, the effects whose moment is ``happening``."""
    for counter in counters:
        counter = ctx.state.unit(counter.id)
        decl = ctx.rulebook.get(ctx.rules.unit_type(counter.type).kind, counter.type)
        if decl is None or not counter.on_map:
            continue
        scope = Scope(counter.side, counter.location, counter, units, happening=happening)
        yield from apply_effects(ctx, decl, scope)


def _counters_at(ctx: Context, cell: str, moment: str, names: set[str] | None = None,
                 kind: str = "marker") -> list[Unit]:
    """The counters of ``kind`` (of ``names``) in ``cell`` with an effect at ``moment``, in id order."""
    out = []
    for unit in ctx.state.units_at(cell):
        unit_type = ctx.rules.unit_type(unit.type)
        if unit_type.kind != kind or (names is not None and unit.type not in names):
            continue
        if _has_moment(ctx, ctx.rulebook.get(kind, unit.type), moment):
            out.append(unit)
    return sorted(out, key=lambda u: u.id)


def _done(operation, what: str) -> set:
    """What this operation's hooks have already carried out (working memory, like the operation)."""
    entry = _DONE.get(id(operation))
    if entry is None or entry[0]() is not operation:
        for key in [k for k, (ref, _) in _DONE.items() if ref() is None]:
            del _DONE[key]
        entry = _DONE[id(operation)] = (weakref.ref(operation), {})
    return entry[1].setdefault(what, set())


def entered(ctx: Context, side: str, cell: str, unit_ids) -> Flow:
    """A force of ``side`` (``unit_ids``) entered ``cell``: markers there meet ``SIDE force enters``.

    Remembered for the operation, so the ``trigger`` after the move does not act again for them.
    """
    markers = _counters_at(ctx, cell, "enters")
    if ctx.operation is not None:
        _done(ctx.operation, "enters").update((m.id, cell) for m in markers)
    yield from happen(ctx, Happening("enters", side=side), markers, tuple(unit_ids))


def fired(ctx: Context, side: str, cell: str) -> Flow:
    """``side`` conducts combat in ``cell``: markers there meet ``SIDE fires in cell``."""
    yield from happen(ctx, Happening("fires", side=side), _counters_at(ctx, cell, "fires"))


def revealed(ctx: Context, markers: list[Unit]) -> Flow:
    """Markers just turned face up meet ``revealed``."""
    if ctx.operation is not None:
        _done(ctx.operation, "revealed").update(m.id for m in markers)
    yield from happen(ctx, Happening("revealed"), markers)


def trigger_moments(ctx: Context, names: set[str]) -> Flow:
    """``do trigger MARKER…`` in an operation: the cells the force entered on its move (``SIDE
    force enters``), then the face-up markers in the contested cell not yet ``revealed`` in this
    operation (so once per battle, in its first recon)."""
    operation = ctx.operation
    if operation is None:
        return
    force = tuple(operation.force)
    entered_done = _done(operation, "enters")
    for cell in dict.fromkeys(operation.path[1:]):
        fresh = [m for m in _counters_at(ctx, cell, "enters", names) if (m.id, cell) not in entered_done]
        entered_done.update((m.id, cell) for m in fresh)
        if fresh and force:
            yield from happen(ctx, Happening("enters", side=operation.side), fresh, force)
    if operation.cell is not None:
        # Units that go when revealed (deception units) were revealed with the markers, and go
        # first: the markers' conditions ("without red units") are about what stays.
        seen = _done(operation, "revealed")
        for kind, only in (("unit", None), ("marker", names)):
            counters = [c for c in _counters_at(ctx, operation.cell, "revealed", only, kind)
                        if not c.hidden and c.id not in seen]
            if counters:
                yield from revealed(ctx, counters)
