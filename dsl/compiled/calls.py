"""Procedure calls compiled: each ``do …`` line of a phase as a typed record of its arguments.

A ``do`` line names one of ``dsl.vocabulary.PROCEDURES`` and the loader has matched it to that
procedure's pattern.  Here it becomes an instance of the procedure's ``Call`` class below, whose
fields are the pattern's captures and flag words, read once: a name as ``str`` (``None`` when an
optional part is left out), a list of names as ``tuple[str, ...]``, a literal word such as
``descending`` as ``bool`` (whether it is written), a ``when`` condition parsed (``Condition``,
with its error when the grammar cannot read it).  The interpreter's procedure for ``do NAME``
(``interpreter.procedures``) receives the call; nothing at play reads the line's words.

Each class's docstring says, in one paragraph, what the interpreter does with the line (who acts,
what is offered, rolled, changed and logged, and what each option changes); ``dsl.meanings.meaning``
reads it for ``docs/reference.md``, beside the form and the class's ``example``.  A procedure
carried out elsewhere says so, and stays in step with that module's docstring.

>>> from warbook.dsl.model import Property
>>> from warbook.dsl.ast import Span
>>> from warbook.dsl.conditions import Names
>>> from warbook.dsl.model import Rulebook
>>> line = Property("do", Span("x", 1, 1, 1, 9), (), (("procedure", "move"), ("factor", "speed")))
>>> compile_call(line, Names(Rulebook("x", ())))
Move(only=(), using=None, factor='speed', descending=False, bringing=False)
"""

from __future__ import annotations

from typing import Any, ClassVar, Optional

import attrs
from attrs import field, frozen

from ..conditions import Condition, ConditionError, Names, read_condition
from ..model import Property
from .lines import as_names


@frozen
class Call:
    """A ``do`` line: which procedure it runs (``procedure``) and the line as written (``source``,
    for citations and positioned errors)."""

    procedure: ClassVar[str] = ""
    example: ClassVar[str] = ""
    """A neutral ``do`` line that writes the form's options, shown in the reference (none for a
    form without options)."""
    source: Property = field(repr=False, eq=False, kw_only=True)


CALLS: dict[str, type[Call]] = {}
"""Procedure name (``dsl.vocabulary.PROCEDURES``) to the class of its calls."""


def _call(name: str):
    """Register a ``Call`` class as the record of ``do NAME …`` lines."""

    def register(cls: type[Call]) -> type[Call]:
        cls.procedure = name
        attrs.resolve_types(cls, globals())
        CALLS[name] = cls
        return cls

    return register


# --- the calls, in the order of dsl.vocabulary.PROCEDURES -----------------------------------


@_call("declare")
@frozen
class Declare(Call):
    """The acting side (each side in player order, in a mutual phase) puts its units on MODE's
    orders, one at a time: it is offered ``declare UNIT MODE`` for each of its units on the map
    without orders that the mode's ``side`` and ``for`` allow (never a marker or a dummy), and
    ``done``.  Each order is narrated and logged; the mode's lines (what it forbids, its roll
    modifier, its spot range …) then apply to the unit until the end of the turn, when every
    unit's orders are cleared."""

    mode: str


@_call("move")
@frozen
class Move(Call):
    """Every counter that may move this phase moves once, one at a time: the acting side's units
    and dummies on the map (every side's, in a mutual phase), except a type that never moves or
    has no points, one whose mode or status forbids ``move``, and one in an enemy zone that
    ``locks units in it`` as the phase begins.  Its owner chooses ``move UNIT CELL`` among the
    cells it may reach, or ``stay UNIT``; the unit walks its path cell by cell and stops early on
    entering a cell with a marker that stops it (flagged for ``do trigger``), or when it is
    eliminated or retreated by an adjacent enemy unit whose mode ``fires during enemy movement``
    (its owner chooses ``watch-fire WATCHER UNIT`` or ``hold WATCHER``, once a phase per
    watcher); a carrier's move is a series of legs with pickups and set-downs.  Each move is narrated and logged, and a counter
    whose move ends in the cells of an ``award … on infiltrated`` scores it.  ``only WHO…`` moves
    only the counters it names; ``using CLASS`` moves each as that movement class for the phase
    (a carrier then carries nothing); ``order by FACTOR ascending|descending`` moves them in
    batches of equal FACTOR (counters without it last, and a dummy may ``wait UNIT`` for a later
    batch); within a batch, and without ``order by``, they move in player order, then by id.  With
    ``bringing in arrivals``, once the counters on the map have moved, each of the side's scenario
    arrivals due now enters: at an entry cell it may enter, with no enemy counter and room to
    stack, paying that cell's cost from its allowance (the owner choosing ``arrive UNIT CELL``
    among several, with no choice to stay off), then moving on with what is left; with every
    entry cell blocked it is delayed to the next phase that brings arrivals in (narrated)."""

    example = "do move only infantry using road order by speed descending bringing in arrivals"
    only: tuple[str, ...]
    """``only WHO…``: the counters that move in this phase (empty: every counter that may move)."""
    using: Optional[str]
    """``using CLASS``: they move as that movement class this phase, instead of their own."""
    factor: Optional[str]
    """``order by FACTOR``: the order the side's units move in (``None``: the side picks)."""
    descending: bool
    bringing: bool = False
    """``bringing in arrivals``: the scenario's arrivals due now enter in this phase, paying the entry
    cell's cost from their allowance (``interpreter.procedures.entering``)."""


@_call("bombard")
@frozen
class Bombard(Call):
    """The acting side (each side in player order, in a mutual phase) bombards until it says
    ``done``: for each cell holding an enemy target that its units reach it is offered ``bombard
    CELL with ID…`` with every unit reaching it, and with each of them alone (with COMBAT's ``any
    combination of attackers``, with every group of them).  A unit reaches the
    cells within its COMBAT ``range factor``, or, without one, every cell when its movement class
    has ``unlimited distance`` (it flies there and back: it stays where it is, and its turn flags
    record the cell, for ``do fire at aircraft``); it needs no defence factor and bombards once a
    phase.  Each bombardment is narrated and resolved on COMBAT's table against the targets in
    the cell, round after round while both sides remain when COMBAT says ``recycle until one side
    remains``.  With ``held for fire at aircraft``, units that fly to their target only declare
    their bombardment here: the turn's next ``do fire at aircraft`` resolves it after its fire,
    unless a result there made them ``abandon mission``; other units fire at once."""

    example = "do bombard with bombardment held for fire at aircraft"

    combat: str
    held: bool
    """``held for fire at aircraft``: a bombardment by units that fly to their target is resolved
    by the turn's next ``do fire at aircraft`` step, after its fire (``interpreter.procedures.combat``)."""


@_call("fire at aircraft")
@frozen
class FireAtAircraft(Call):
    """Units whose turn flags say they bombarded, picked up or set down units this turn
    are fired on where they did it, with every other unit of their side and movement class in
    that cell as escort; each such cell is one engagement.  The enemy units in the cell or next to
    it fire (the acting side's; every other side's, in a mutual phase), without any decision:
    not dummies or markers, not units of the targets' movement classes, not units whose mode or
    status forbids ``attack``.  A firing engagement rolls once on TABLE and its result is carried
    out with the firers as attackers and the fired-on units as defenders (``break off targets``
    keeps them out of the rest of the turn); an engagement without fire is logged only as "no
    ground fire".  With ``when CONDITION`` they fire only where it holds, read with the
    engagement's roles: ``when firers attack exceeds targets attack``.  Then the bombardments a
    ``do bombard … held for fire at aircraft`` declared are made by the units still on the map and
    not made to ``abandon mission``."""

    example = "do fire at aircraft with ground_fire when firers attack exceeds targets attack"
    table: str
    condition: Optional[Condition]
    condition_error: Optional[ConditionError] = field(eq=False)


@_call("fight")
@frozen
class Fight(Call):
    """The acting side's units (every side's, in a mutual phase; none of a side whose state
    forbids attacks) attack enemy counters in adjacent cells (in their own cell when COMBAT is not
    ``adjacent``), each unit at most once a phase.  Again and again, the units that may still attack
    and rank first by COMBAT's ``order by`` factor lead (player order breaks a tie between sides),
    and their side chooses ``attack CELL with ID…`` (every unit of the side that may still attack
    and reaches CELL), ``attack CELL with ID`` (a leader alone), ``pass ID`` or ``done``.  A unit
    may attack when it is real, on the map, has COMBAT's attack factor above 0 (and its defence
    factor, when COMBAT declares one), no mode or status that forbids ``attack``, and a target.
    Each attack is narrated and resolved on COMBAT's table, round after round with ``recycle until
    one side remains``, then followed by ``advance after combat`` when COMBAT says so; COMBAT's
    ``any combination of attackers``, ``each defender attacked once per phase``, ``minimum
    odds``, ``mandatory attack …`` and ``attacks declared before any is resolved`` lines change
    what is offered and when the attacks are fought."""

    combat: str


@_call("roll events")
@frozen
class RollEvents(Call):
    """The acting side rolls TABLE's dice and reads its own column (the one named after the
    side, else the first); the event the cell names happens: its printed text is logged for both
    players and its ``effect`` lines are carried out in order for its owner (the event's ``side``,
    else the side that rolled).  In a mutual phase, with no acting side, nothing is rolled."""

    table: str


@_call("gain income")
@frozen
class GainIncome(Call):
    """The acting side (each side, in a mutual phase) gains its scenario income of RESOURCE
    (``[scenario.income.SIDE]``) plus this turn's changes to it (``reduce income`` effects, each
    narrated), never less than 0, multiplied by this turn's ``multiply gains`` and within the
    resource's cap; the gain is logged with the line's sections."""

    resource: str


@_call("reinforce")
@frozen
class Reinforce(Call):
    """Runs for the acting side (each side, in a mutual phase) when ACTION is its to take
    (the action's ``side``, or any side when it names none).  From a box that says ``draw at
    random`` the side chooses ``draw`` (paying ACTION's price) or ``done``, again and again: a roll
    picks one of its counters in BOX, which it places before drawing again.  From any other box it
    chooses ``take ID`` (one option per unit type that ACTION prices, that it can pay for and can
    place) or ``done``, paying ACTION's line for that type.  A ``once per turn`` action gives one
    draw or one counter a turn; counters are placed by their ``placement`` lines, and a draw is
    logged without its id or type unless the box's ``draws shown to opponent for`` names the
    drawing side."""

    box: str
    action: str


@_call("refit")
@frozen
class Refit(Call):
    """Runs for the sides ACTION is taken by, as ``do reinforce`` does.  The side picks its
    counters in BOX one at a time (``refit ID``, one option per unit type it can pay for, or
    ``done``), paying ACTION's price for the counter's type; DICE is rolled for each and the
    counter waits on the track of the box's ``returns via`` box until this turn plus the roll,
    when ``do return refitted units`` brings it back (narrated and logged; a counter due after the
    last turn is never received, its price spent).  A ``once per turn`` action refits one counter a
    turn."""

    box: str
    action: str
    dice: str


@_call("return refitted units")
@frozen
class ReturnRefitted(Call):
    """The acting side's counters (every side's, in a mutual phase) that ``do refit`` put
    on a track for this turn enter play at no cost, placed as reinforcements by their
    ``placement`` lines; one that cannot be placed goes where the track box's ``unplaced to``
    says."""


@_call("reclaim markers")
@frozen
class ReclaimMarkers(Call):
    """The acting side's markers (every side's, in a mutual phase) of these types become
    available again: one still on the map goes back to the box its placement puts it in, and one
    lying committed in that box loses its ``committed`` turn flag; each is narrated and logged."""

    markers: tuple[str, ...]


@_call("check supply")
@frozen
class CheckSupply(Call):
    """Every unit (no marker or dummy) on the map of the sides ACTION is taken by (the
    acting side, or each side in a mutual phase) must be in supply, except those ``except``
    names: its cell's terrain ``supplies`` its side, a counter in its cell has an ``effect
    supply`` for its side, or, with ``by TRACE``, its side can trace TRACE from the cell.  A
    counter that supplies ``once`` is used up doing so (revealed and removed from play; its owner
    picks which when several types could serve).  Each unit still out of supply is then ``pay
    ID`` (ACTION's price for its type) or ``send ID BOX``, its owner's choice, and is sent without
    asking when the side cannot pay; being sent scores nothing.  Each counter used up, payment
    and unit sent is narrated and logged."""

    example = "do check supply except airborne by supply_line paying resupply else to depot"
    exempt: tuple[str, ...]
    action: str
    box: str
    trace: Optional[str] = None
    """``by TRACE``: a unit that can trace it from its cell is in supply too (``interpreter.tracing``)."""


@_call("score")
@frozen
class Score(Call):
    """Scores each listed award that is scored ``on held`` or ``on controlled``: every cell the
    award names that only its side (``to``) occupies, or that its side controls, adds the cell's
    points to that side (doubled in a held cell by a unit that ``doubled with`` names), logged as
    a gain.  In a phase for one side only the awards that side receives are scored (an award
    without ``to`` scores nothing there); a mutual phase scores every listed one.  Awards scored
    on other events are not scored here."""

    awards: tuple[str, ...]


@_call("designate force")
@frozen
class DesignateForce(Call):
    """In an operation step that the phase alternates between the sides, the acting
    side chooses a cell where it can form a force to ``operate CELL`` from, a cell to ``strike CELL``
    (with one of the ACTIONs that says ``strike with MARKER…``: those markers alone attack it), or
    ``pass``.  For an operation it adds units one at a time (``add UNIT``; a carried unit may call
    carriers from elsewhere on the map), then ``go``, paying the listed ACTIONs' price for the
    force (a ``led by`` action when a leader goes, else a ``per unit`` one summed, else a flat
    one), or ``redeploy`` one carried unit by a ``between cells with …`` action; the force is
    narrated and logged, and ``do move force`` moves it.  During a battle the line instead lets a
    side send a reaction force of classes that ``react from or to cells with …`` into the
    contested cell.  An action taken ``once per turn`` is offered once a turn."""

    actions: tuple[str, ...]


@_call("move force")
@frozen
class MoveForce(Call):
    """The force the acting side designated in this operation moves: the side chooses ``move
    CELL`` among the cells the whole force may end in, and it takes its path there, stopping early
    on entering a cell with face-up enemy markers that stop it or where enemy units whose zone it
    enters intercept it (their owner choosing and paying for them); a face-down counter the side
    cannot identify is offered as an enemy counter, so a path never passes one.  With ``dropping
    off SELECTOR…`` the move is a series of legs: where a leg ends with no battle the owner may
    ``drop UNIT`` (units the selectors name, never one the force's action is ``led by``, only where
    it may end a move and no enemy counter stands), then ``move CELL`` the rest on or ``stop``; a
    class that ``may go on past markers`` turns face up the markers alone in the cell where a leg
    ends (they meet ``revealed``) and may go on.  A force designated to redeploy is offered
    ``redeploy ID CELL`` among the cells its action allows and goes there directly.  The move is
    narrated and logged; a force that ends with enemy counters in its cell starts a battle there,
    and one that does not ends its units' moves, scoring ``award … on infiltrated`` as ``do move``
    does.  A force every unit of which an ``exit`` names is offered ``exit NAME`` beside its moves
    (after a leg, on the terms of moving on): it walks to the exit cell where each mover keeps the
    exit's cost and, unless stopped on the way, the units still in the force step off into the
    exit's box, scoring ``on exited``.  During a battle the line moves the reaction forces
    designated into the contested cell."""

    example: ClassVar[str] = "do move force dropping off infantry"

    drop: tuple[str, ...]
    """``dropping off SELECTOR…``: the units a moving force may leave behind on its way (empty: the
    force moves whole); never a unit the force's action is ``led by``."""


@_call("recon")
@frozen
class Recon(Call):
    """A battle's first step: each run begins a new round (logged).  The counters in the
    contested cell are turned face up (those with ``… when revealed`` lines meet that moment);
    then each side, the attacker first, picks one of its units in the battle (``recon ID``; a lone
    candidate is taken without asking) and rolls DICE, adding the unit's FACTOR (with ``adding
    FACTOR``; a marker printing FACTOR may then be picked too), the terrain's ``recon
    attacker|defender`` modifier, and its ``modify recon roll`` markers and turn modifiers.  The
    higher total has the bounce, a tie going to the side COMBAT's ``first fire by … ties to``
    names (the defender when it names none; without ``for COMBAT``, the first combat that says
    ``first fire by``); that side chooses ``fire first`` or, where it can, ``break off``, which
    leaves the first fire to the other side.  A strike by markers alone rolls nothing: the
    striker fires first."""

    example = "do recon with d6 adding scouting for firefight"
    dice: str
    factor: Optional[str]
    combat: Optional[str]


@_call("commit support")
@frozen
class CommitSupport(Call):
    """A battle's support step: the acting side (the step's ``side``, else ACTION's), or
    with ``by each side`` the attacker and then each defender, commits support markers lying in
    their ``support from BOX`` box into the contested cell, one at a time (``commit ID``, one per
    marker type, or ``done``), paying ACTION's price for each (nothing without ``paying``; a
    marker the side cannot pay for is not offered).  ``of MARKER…`` limits the types offered, and
    each marker's ``support only into …`` and ``support never …`` lines where it may go.  A
    committed marker is turned face up, used once a turn, fights with its side and goes back to
    its box when the battle ends (or where its ``remove self to BOX when combat round ends``
    sends it); each is narrated and logged."""

    example = "do commit support of artillery paying fire_mission by each side"
    markers: tuple[str, ...]
    """The marker types it commits (empty: every support marker)."""
    action: Optional[str]
    each: bool
    """``by each side``: both sides commit, the attacker first; otherwise the acting side."""


@_call("resolve fire")
@frozen
class ResolveFire(Call):
    """A battle's fire step: the side with first fire (settled at recon, else the attacker)
    fires, its losses taken at once, then the other side fires with what it has left.  A side
    fires the total of COMBAT's ``attack factor`` of its counters in the battle on COMBAT's table,
    adding its ``modify fire roll`` markers and turn modifiers; terrain shifts apply only to fire
    at the defender, and a side with no firepower does not fire (narrated).  Markers in the cell
    meet ``SIDE fires in cell`` after each fire, and the counters there ``[first] combat round
    ends`` after the round.  The battle is over after one round unless COMBAT says ``recycle until
    one side remains`` (the step around it repeats); a COMBAT whose ``fire is simultaneous`` stops
    the game with E805."""

    combat: str


@_call("check stacking")
@frozen
class CheckStacking(Call):
    """Not carried out by this interpreter: a game whose sequence of play has this line is
    refused before it starts (E805).  A ``stacking`` declaration ``checked at end of phases`` is
    enforced at the end of every phase instead: each side's excess in a cell goes to its ``excess
    to`` box, its owner choosing which units go."""

    stacking: str


@_call("spot")
@frozen
class Spot(Call):
    """Turns face-down enemy counters face up as SPOTTING says, without any decision.  With
    ``hide again when enemy leaves``, revealed counters with no enemy unit in their cell first
    turn face down again; with ``reveal on entering with enemy``, hidden counters sharing a cell
    with an enemy unit are revealed.  Then the acting side (each side, in a mutual phase) tries
    once every face-down counter of another side on the map within spotting range of one of its
    units (the most specific ``range N [in MODE] [for WHO]`` line for that unit): the counter's
    terrain's ``spot auto`` reveals it, ``spot A-B`` rolls the terrain's or SPOTTING's dice and
    reveals it on a roll in the range, and a terrain without ``spot`` hides it from range.  Each
    roll and reveal is narrated and logged; a spotted dummy is removed from the map, scoring
    nothing."""

    spotting: str


@_call("trigger")
@frozen
class Trigger(Call):
    """For each marker of these types on the map, the enemy counters that a move stopped in its
    cell this phase (``do move``) are attacked by each of the marker's ``attack`` effects that waits for
    no moment and whose condition holds, its role and selectors naming who: the marker is turned face up
    and the attack narrated and resolved on the first combat comparing odds (or totals, for
    ``attack … with N``), with no attacking unit, so a result against attackers falls on nobody.
    The marker stays.  During an operation the markers' ``… when SIDE force enters`` and ``… when
    revealed`` effects are carried out too."""

    markers: tuple[str, ...]


@_call("replace steps")
@frozen
class ReplaceSteps(Call):
    """Each side ACTION is taken by (the acting side, or each side in a mutual phase)
    spends ACTION's price one step at a time: it is offered ``restore ID`` for each of its reduced
    counters on the map (of the selectors, with ``of``) that it can pay for, turning it back one
    step in place, and ``done``, and is asked again until it says ``done`` or can pay for nothing
    more.  With ``returning to BOX`` it is also offered ``rebuild ID`` for its eliminated counters
    of a type with steps, which go into BOX on their last step (a reinforcement or refit then
    brings them on the map); with ``in TRACE`` a counter is restored in place only in a cell from
    which its side can trace TRACE.  The price is ACTION's line for the counter's type; each step
    is narrated and logged."""

    example = "do replace steps paying replacement of infantry returning to depot in supply_line"
    action: str
    what: tuple[str, ...]
    """The counters it may restore (empty: any with steps)."""
    box: Optional[str]
    """``returning to BOX``: an eliminated counter may come back there, on its last step."""
    trace: Optional[str] = None
    """``in TRACE``: a counter is restored in place only where its side can trace it (``interpreter.tracing``)."""


@_call("arrivals")
@frozen
class Arrivals(Call):
    """Brings in the scenario's ``[[arrival]]`` counters of the acting side (each side in player
    order, in a mutual phase) whose turn has come, in the order written: a counter with a ``box``
    becomes available there; one with entry cells enters one that it may enter now, where no enemy
    counter stands and stacking allows it, its owner choosing among several (``arrive ID CELL``).
    With every entry cell blocked it is delayed until the next ``do arrivals``; each arrival and
    delay is narrated and logged."""


@_call("withdrawals")
@frozen
class Withdrawals(Call):
    """Takes off the map, out of play, the acting side's counters (every side's, in a mutual
    phase) that the scenario's ``[[withdrawal]]`` entries say leave this turn: the owner chooses
    which of its counters of the type go (``withdraw ID``) when it has more than it must give.
    For each it cannot give, every other side gains the withdrawal's ``penalty``.  A withdrawn
    counter leaves play without loss: it scores no ``award … on eliminated``."""


# --- reading ----------------------------------------------------------------------------


def _argument(line: Property, name: str, kind: Any) -> Any:
    """One field of a call read from its line, by the field's type (module docstring)."""
    if kind is bool:
        return line.has(name)
    if kind == tuple[str, ...]:
        return as_names(line.get(name))
    value = line.get(name)
    if kind is str:
        return str(value)
    return None if value is None else str(value)  # Optional[str]


def compile_call(line: Property, names: Names) -> Call:
    """The typed record of one ``do`` line (the loader has matched it to its procedure's pattern).

    Raises:
        KeyError: for a line naming no procedure (the loader refuses those, E301).
    """
    cls = CALLS[line.get("procedure")]
    values: dict[str, Any] = {}
    for f in attrs.fields(cls):
        if f.name == "source":
            continue
        if f.name == "condition":
            values["condition"], values["condition_error"] = read_condition(line.get("condition"), names)
        elif f.name != "condition_error":
            values[f.name] = _argument(line, f.name, f.type)
    return cls(source=line, **values)
