"""What events and counters do: their effect lines carried out, and the moments counters meet.

An event's lines are carried out when it happens (``run_event``: a random event, or a ``roll …
on`` of another event or of a counter); a counter's lines that wait for a moment are carried out
when that moment happens (``happen``).  Each line goes through ``interpreter.effects.carry_out``;
this module registers the implementations of the verbs of events and moments:

- ``reveal ROLE [units] in one cell``: the side chooses a cell holding face-down counters of
  that role (only units with ``units``) and they are turned face up; ``in this cell``: the
  counters a happening concerns (the force that entered), or else every such counter in the cell;
  ``in N cells``: every such counter within N cells.
- ``roll DICE on TABLE``: a nested roll; the cell names an event, carried out in the same scope.
- ``return N [of SELECTOR…] ROLE to BOX``: the role's owner chooses N of its units on the map
  matching the selectors and puts them in BOX.
- ``score AWARD``: the award is scored for the counter (``victory.score_award``).
- ``remove self [to BOX]``: the counter leaves the map (to BOX, else out of play); its later
  effects are not carried out.
- ``no effect``: logged.

Elsewhere: ``gain``/``lose``/``reduce income``/``multiply gains`` (``interpreter.resource_effects``),
``pick reinforcement free`` (``interpreter.procedures.reinforcements``), ``attack`` (``interpreter.
procedures.combat``).  Roles: ``owner``/``self`` are the event's or counter's side,
``opponent``/``enemy`` the other sides, ``both`` every side; an event's side is its ``side`` line
(``dsl.compiled.events``), else the side that rolled or triggered it.

Counters act at **moments** their conditions name (``dsl.conditions``): ``happen`` carries out,
for each counter given, the effects whose condition's moment is the happening and whose clauses
hold.  Other procedures call the hooks: ``entered`` (a force entered a cell), ``fired`` (a side
conducts combat in a cell), ``revealed`` (markers turned face up), ``round_ended`` (a combat
round in a cell ends).

``do trigger MARKER…`` (``procedures.combat.trigger``) calls ``trigger_moments``: after a move,
every marker of those types in a cell the operation's force entered (``ctx.operation.path``
after its first cell) meets ``SIDE force enters``, the force being the operation's; in a battle,
every face-up marker of those types in the contested cell not yet revealed in this operation
meets ``revealed`` (so in the recon step of the first round, after ``spot`` turned it up); units
there with effects ``when revealed`` (deception units) meet it first, as they were turned up with
the markers and the markers' conditions are about what stays.  What each operation's hooks have
done is remembered per operation, so a counter meets a moment once.

Readings: a counter's standing effects (``modify … roll``, ``shift``, ``supply``, ``stop``) are read
by the mechanics they change, not carried out here.  A condition that fails at its moment is
logged with the effect it stops ("does not hold"), which tells the players nothing the counters
on the map do not.  An event's line that waits for a moment is refused before play (E222).

Limits: a sensor's reveal of a force that passed through its cell finds it gone; markers face up
in the contested cell before the operation began meet ``revealed`` again in a new operation.
"""

from __future__ import annotations

import weakref

from attrs import evolve

from ..dsl.effects import Effect, NoEffect, RemoveSelf, ReturnUnits, Reveal, RollOn, Score, Where
from ..dsl.model import Declaration
from .actions import Action
from .citations import because
from .combat import roll_on_table, table_view
from .condition_lines import effect_condition
from .conditions import Happening, Scope, holds
from .context import Context, Flow
from .effects import Target, carries_out, carry_out, sides_for
from .rules import Rules
from .state import Unit
from .victory import score_award

_DONE: dict[int, tuple[weakref.ref, dict[str, set]]] = {}
"""Per operation (``ctx.operation``, by identity: operations compare by value): the counter
moments already carried out, so a hook and the ``trigger`` after it, or two recon steps of one
battle, never carry out one moment twice.  Entries go when their operation does."""


def run_event(ctx: Context, name: str, scope: Scope, *, roll: int | None = None, table: str | None = None) -> Flow:
    """Log an event (its printed text) and carry out its effect lines in order, for its owner: the
    event's ``side``, else the side of ``scope`` (the side that rolled or triggered it)."""
    rule = ctx.rules.events.get(name)
    if rule is None:
        ctx.say(f"{table or 'table'}: {name!r} names no event; nothing happens", kind="event")
        return
    event = rule.decl
    rolled = f"rolled {roll} on {table}: " if roll is not None else ""
    texts = rule.text
    owner = rule.owner(scope.side)
    whose = f" ({ctx.shown('side', owner)}'s event)" if owner != scope.side else ""
    ctx.say(f"{ctx.shown('side', scope.side)} {rolled}{rule.label}{whose}" + (f" — {texts}" if texts else ""),
            kind="random event", event=name, side=scope.side, roll=roll)
    yield from apply_effects(ctx, event, scope if owner == scope.side else evolve(scope, side=owner))


def apply_effects(ctx: Context, decl: Declaration, scope: Scope) -> Flow:
    """Carry out a declaration's effect lines in order (an event's, or a counter's at the scope's
    happening); stop after a ``remove self``."""
    where = Where.EVENT if scope.happening is None else Where.MOMENT
    target = Target(where, decl, scope.side, decl.display, scope=scope)
    for effect in ctx.rules.effects(decl):
        if applies(ctx, effect, scope, decl):
            removed = yield from carry_out(ctx, effect, target)
            if removed:
                return


def applies(ctx: Context, effect: Effect, scope: Scope, decl: Declaration) -> bool:
    """Whether an effect line is carried out now: at a happening, the lines waiting for it whose
    clauses hold; in an event, the lines whose condition holds.  A failed clause is logged (a
    moment not happening is not: such a line belongs to another moment)."""
    condition = effect_condition(effect)
    if scope.happening is not None and (condition is None or condition.moment is None):
        return False  # a counter's standing effects are read by the mechanics they change
    if condition is None:
        return True
    if condition.moment is not None and scope.happening is None:
        return False  # refused before play (E222): an event does not wait for a moment
    if holds(ctx, condition, scope):
        return True
    if condition.moment is None or holds(ctx, evolve(condition, clauses=()), scope):
        ctx.say(f"{decl.display}: '{' '.join(condition.words)}' does not hold; '{effect.text}' does "
                "not apply", kind="effect", effect=str(effect.line.get("effect")), applied=False)
    return False


# --- the verbs of events and moments ------------------------------------------------------------


@carries_out(NoEffect, Where.EVENT, Where.MOMENT, Where.OPTION)
def _no_effect(ctx: Context, effect: NoEffect, target: Target) -> Flow:
    ctx.say(f"{target.why}: no effect", kind="effect", effect="no")
    yield from ()


@carries_out(RollOn, Where.EVENT, Where.MOMENT)
def _roll_on(ctx: Context, effect: RollOn, target: Target) -> Flow:
    scope = target.scope
    where = f" in {scope.cell}" if scope.cell is not None else ""
    roll, name = roll_on_table(ctx, effect.table, reason=f"{target.why}{where}", dice=effect.dice)
    # The cell's event is carried out now, whatever moment led to the roll.
    yield from run_event(ctx, name, evolve(scope, happening=None), roll=roll,
                         table=table_view(ctx, effect.table).decl.display)


@carries_out(Score, Where.EVENT, Where.MOMENT)
def _score(ctx: Context, effect: Score, target: Target) -> Flow:
    if target.scope.unit is not None:
        score_award(ctx, ctx.rules.awards[effect.award], ctx.state.unit(target.scope.unit.id))
    yield from ()


@carries_out(Reveal, Where.EVENT, Where.MOMENT)
def _reveal(ctx: Context, effect: Reveal, target: Target) -> Flow:
    scope, why = target.scope, target.why
    sides = sides_for(ctx, effect.role, target)

    def hidden_in(cell: str) -> list[Unit]:
        return [u for u in ctx.state.units_at(cell) if u.hidden and u.side in sides
                and (not effect.units_only or ctx.rules.unit_type(u.type).kind == "unit")]

    if effect.reach == "one":
        # Every cell with face-down counters of those sides is offered, whatever they are: offering
        # only cells that hold units would tell the side which face-down stacks are markers alone.
        cells = sorted({u.location for u in ctx.state.units if u.on_map and u.hidden and u.side in sides},
                       key=lambda c: (len(c), c))
        if not cells:
            ctx.say(f"{why}: no face-down counters to reveal", kind="effect", effect="reveal")
            return
        action = yield from ctx.choose(scope.side, "reveal", f"{why}: reveal the counters in one cell",
                                       [Action("reveal", (c,)) for c in cells])
        targets = hidden_in(action.args[0])
    elif effect.reach == "this":
        targets = [u for u in hidden_in(scope.cell) if not scope.units or u.id in scope.units] \
            if scope.cell is not None else []
    else:
        cells = ctx.board.within(scope.cell, effect.range) if scope.cell is not None else set()
        targets = [u for c in sorted(cells) for u in hidden_in(c)]
    if not targets:
        ctx.say(f"{why}: nothing face down to reveal", kind="effect", effect="reveal")
    for unit in targets:
        shown = evolve(unit, hidden=False)
        ctx.update_unit(shown)
        ctx.say(f"{why}: {ctx.label(shown)} in {unit.location} is revealed", kind="reveal", unit=unit.id,
                unit_type=unit.type, cell=unit.location)


@carries_out(ReturnUnits, Where.EVENT, Where.MOMENT)
def _return(ctx: Context, effect: ReturnUnits, target: Target) -> Flow:
    box, what, why = effect.box, effect.what, target.why
    for side in sides_for(ctx, effect.role, target):
        for _ in range(effect.count):
            candidates = [u for u in ctx.state.units_of(side) if not u.dummy
                          and ctx.rules.unit_type(u.type).kind == "unit"
                          and (not what or Rules.unit_matches(ctx.rules.unit_type(u.type), what))]
            if not candidates:
                ctx.say(f"{why}: {ctx.shown('side', side)} has no {' '.join(what) or 'unit'} on the "
                        "map to return", kind="effect", effect="return", side=side)
                break
            action = yield from ctx.choose(side, "return", f"{why}: choose a unit to put in {box}",
                                           [Action("return", (u.id,)) for u in candidates])
            unit = ctx.state.unit(action.args[0])
            ctx.update_unit(evolve(unit, location=box, mode=None))
            ctx.say(f"{why}: {ctx.label(unit)} leaves {unit.location} for the {ctx.shown('box', box)}",
                    kind="effect", effect="return", unit=unit.id, side=side, box=box)


@carries_out(RemoveSelf, Where.EVENT, Where.MOMENT)
def _remove_self(ctx: Context, effect: RemoveSelf, target: Target) -> Flow:
    """The counter leaves the map; returns ``True`` so that its later lines are not carried out."""
    yield from ()
    scope = target.scope
    if scope.unit is None:
        return False
    unit = ctx.state.unit(scope.unit.id)
    if not unit.on_map:
        return True
    where = effect.box if effect.box is not None else ctx.rules.eliminated_box
    ctx.update_unit(evolve(unit, location=where))
    to = f" to the {where}" if effect.box is not None else ""
    why = because(f"{target.why}: {effect.line.text}", target.decl, effect.line)
    ctx.say(f"{ctx.label(unit)} is removed from {unit.location}{to} ({why})", kind="effect", effect="remove",
            unit=unit.id, cell=unit.location, box=where)
    return True



# --- counter moments --------------------------------------------------------------------------------


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
        if unit.type in ctx.rules.meeting(moment):
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


def round_ended(ctx: Context, cell: str, *, first: bool, counters: list[Unit] | None = None) -> Flow:
    """A combat round in ``cell`` ended: its counters (or ``counters``), in id order, meet ``[first]
    combat round ends``."""
    if counters is None:
        counters = [u for u in ctx.state.units_at(cell) if u.type in ctx.rules.meeting("round ends")]
    yield from happen(ctx, Happening("round ends", first=first), sorted(counters, key=lambda u: u.id))


def phase_ended(ctx: Context, phase: str) -> Flow:
    """A phase or step ended: every counter on the map with an effect ``when PHASE phase ends``
    for it meets that moment, in id order."""
    types = ctx.rules.meeting("phase ends", phase)
    if not types:
        return
    counters = [u for u in ctx.state.units if u.on_map and u.type in types]
    yield from happen(ctx, Happening("phase ends", phase=phase), sorted(counters, key=lambda u: u.id))


def leaves_at_round_end(ctx: Context, counter: Unit) -> bool:
    """Whether a counter has a ``remove self … when [first] combat round ends`` line."""
    return any(isinstance(e, RemoveSelf) and e.moment == "round ends" for e in ctx.rules.effects(_decl(ctx, counter)))


def _decl(ctx: Context, unit: Unit) -> Declaration:
    unit_type = ctx.rules.unit_type(unit.type)
    return ctx.rulebook.get(unit_type.kind, unit_type.name)
