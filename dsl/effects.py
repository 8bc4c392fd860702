"""Effect lines compiled: one typed record per verb, and the places each may be carried out.

An ``effect …`` line of a result, an event, a counter or an option is read once, when a
rulebook is compiled, into an ``Effect``: a frozen record of its verb's own class (``Eliminate``,
``Gain``, ``Reveal`` …) with the values the verb's pattern (``dsl.vocabulary.EFFECTS``) read, its
role and its ``when`` condition parsed.  The interpreter dispatches on the class
(``interpreter.effects``) and never reads the line's words again.

Where a line is carried out (``Where``) follows from what declares it:

- ``RESULT``: a combat result's lines, and an event's that a cell of a table rolled in combat
  names, carried out against the engagement when the result is rolled;
- ``EVENT``: an event's lines, carried out when the event happens (a random event, or a
  ``roll … on`` of another event or of a counter);
- ``MOMENT``: a counter's lines whose condition names a moment (``when revealed``, ``when combat
  round ends`` …), carried out by the counter when that moment happens;
- ``STANDING``: a counter's lines without a moment, read by a mechanic while the counter is in
  play (a roll modifier, a column shift, supply, a stop, a trap's attack);
- ``OPTION``: a scenario option's lines, carried out once at set-up when the option is chosen.

Each class says where it is valid (``VALID``).  The linter reports a line in a place its verb is
not valid (E220, E222), and the interpreter has an implementation for every (class, place) pair
valid here (``tests/interpreter/test_effect_registry.py``), so a line the linter accepts is
carried out.
"""

from __future__ import annotations

import enum
from typing import ClassVar

from attrs import frozen

from .conditions import Condition, ConditionError, Names, read_condition
from .model import Declaration, Property
from .vocabulary import ROLES


class Where(enum.Enum):
    """Where an effect line is carried out (module docstring)."""

    RESULT = "a combat result"
    EVENT = "an event"
    MOMENT = "a counter's moment"
    STANDING = "a counter in play"
    OPTION = "a scenario option"


_ANYWHERE = frozenset({Where.RESULT, Where.EVENT, Where.MOMENT, Where.OPTION})
_HAPPENING = frozenset({Where.EVENT, Where.MOMENT})


@frozen
class Effect:
    """One compiled effect line: its verb's class, role and condition, and the line as written."""

    line: Property
    """The line as written: position, citations and words for narration."""
    role: str | None
    """The first of ``dsl.vocabulary.ROLES`` after the verb and before the condition."""
    condition: Condition | None
    """The ``when`` condition, parsed; ``None`` without one (or when it cannot be read)."""
    condition_error: ConditionError | None
    """Why the condition could not be read (W508; the game stops with E805 if it is reached)."""

    VERB: ClassVar[str] = ""
    VALID: ClassVar[frozenset[Where]] = frozenset()

    @property
    def moment(self) -> str | None:
        """The kind of moment the condition waits for (``revealed`` …), if any."""
        return self.condition.moment.kind if self.condition is not None and self.condition.moment else None

    @property
    def text(self) -> str:
        """The line's words after ``effect`` and before ``when``, for narration."""
        words = self.line.get("condition") or ()
        end = len(self.line.words) - len(words) - (1 if words else 0)
        return " ".join(w.text for w in self.line.words[1:end])


@frozen
class Losses(Effect):
    """``eliminate|refit (all | half | N) [other] ROLE [of SELECTOR…]``."""

    portion: str | None
    """``all`` or ``half``; ``None`` when ``count`` says how many."""
    count: int
    other: bool
    """Only counters no earlier part of the result has affected."""
    what: tuple[str, ...]


@frozen
class Eliminate(Losses):
    """Removes that many of the role's counters from play (into the box that ``holds eliminated``), per side; ``half`` rounds up; the owner chooses unless the combat says ``losses chosen by opponent|random``; scores ``award … on eliminated``."""

    VERB = "eliminate"
    VALID = frozenset({Where.RESULT})


@frozen
class Refit(Losses):
    """Puts that many of the role's counters in BOX (the side's own for a box ``per side``), chosen as for ``eliminate``; scores ``award … on refitted``."""

    VERB = "refit"
    VALID = frozenset({Where.RESULT})
    box: str | None


@frozen
class Retreat(Effect):
    """Each of the role's units retreats N hexes, its owner (or whom the combat's ``retreat chosen by`` names) choosing each hex (one step further away, enterable, no enemy counter, no zone that ``blocks retreat``), offered only hexes from which the retreat can be completed; a unit that cannot complete one is eliminated."""

    VERB = "retreat"
    VALID = frozenset({Where.RESULT})
    distance: int


@frozen
class Stand(Effect):
    """The role's units stay where they are (narrated)."""

    VERB = "stand"
    VALID = frozenset({Where.RESULT})


@frozen
class BreakOff(Effect):
    """The role's counters leave the fight: to the places the combat's ``break off …`` lines allow, else they are flagged ``broke off`` for the calling procedure."""

    VERB = "break"
    VALID = frozenset({Where.RESULT})


@frozen
class AbandonMission(Effect):
    """The role's air units abandon this turn's missions: each unit a carrier among them set down
    this turn is carried back to the cell it boarded in, the carrier with it (a unit that may not
    stand there again, an enemy or the stacking limit in the way, stays); a bombardment of theirs
    held for fire against aircraft (``do bombard … held for fire at aircraft``) is not made; and
    they are no longer exposed to fire this turn."""

    VERB = "abandon"
    VALID = frozenset({Where.RESULT})


@frozen
class Change(Effect):
    """``gain|lose RESOURCE (N | DICE) [to ROLE] [minimum N]``.

    Each side the role names gains (or loses) the amount, the dice rolled once per side, within
    the resource's caps and minimum and this turn's gains multiplier; ``minimum N`` stops a loss
    at N."""

    VERB = "gain"
    VALID = _ANYWHERE
    resource: str
    amount: int | None
    dice: object | None
    """Dice to roll for the amount (``dsl.values.Dice``), when no fixed amount is written."""
    floor: int | None
    sign: int
    """+1 for ``gain``, -1 for ``lose``."""


@frozen
class ReduceIncome(Effect):
    """This turn's income of RESOURCE for the event's side falls by the amount (never below 0)."""

    VERB = "reduce"
    VALID = _HAPPENING
    resource: str
    amount: int | None
    dice: object | None


@frozen
class MultiplyGains(Effect):
    """Every gain of RESOURCE this turn, for each side the role names, is multiplied by N."""

    VERB = "multiply"
    VALID = _HAPPENING
    resource: str
    factor: int


@frozen
class Reveal(Effect):
    """``reveal ROLE [units] in (one cell | this cell | N cells)``.

    Turns face up the role's face-down counters (units only, with ``units``): in one cell the
    side chooses, in this cell (the counters a moment concerns, else all there), or within N
    cells."""

    VERB = "reveal"
    VALID = _HAPPENING
    units_only: bool
    reach: str
    """``one``, ``this`` or ``range``."""
    range: int | None


@frozen
class RollOn(Effect):
    """Rolls DICE on TABLE and carries out the cell: in a result, its result or event against the same roles; elsewhere, its event in the same scope."""

    VERB = "roll"
    VALID = frozenset({Where.RESULT, Where.EVENT, Where.MOMENT})
    dice: str
    table: str


@frozen
class PickReinforcement(Effect):
    """Each side the role names draws a reinforcement at no cost, from BOX or else the box drawn ``at random``."""

    VERB = "pick"
    VALID = _HAPPENING
    box: str | None


@frozen
class ReturnUnits(Effect):
    """Each side the role names chooses N of its units on the map (of the selectors) and puts them in BOX."""

    VERB = "return"
    VALID = _HAPPENING
    count: int
    what: tuple[str, ...]
    box: str


@frozen
class Attack(Effect):
    """``attack ROLE [of SELECTOR…] (at ODDS | with N) [ignoring terrain] [no return fire] [losses to lowest F]``.

    The counter attacks the role's units (of the selectors) in its cell with no attacking units:
    at a moment, those units (with ``losses to lowest F``, the lowest alone); standing, those a
    ``do trigger`` finds stopped in its cell by it."""

    VERB = "attack"
    VALID = frozenset({Where.MOMENT, Where.STANDING})
    what: tuple[str, ...]
    odds: object | None
    strength: object | None
    ignoring_terrain: bool
    lowest: str | None
    """The factor whose lowest unit takes the loss."""


@frozen
class ModifyRoll(Effect):
    """While the counter is in a cell, adds the modifier to the WHAT roll (``recon``, ``fire``) of the sides its role names there; ``once`` spends it for the turn."""

    VERB = "modify"
    VALID = frozenset({Where.STANDING})
    what: str
    modifier: int
    once: bool


@frozen
class Shift(Effect):
    """While the counter takes part in a combat (among its counters or in its cell), shifts the column of the fire of the sides its role names, when its condition holds (``own`` is the counter's side)."""

    VERB = "shift"
    VALID = frozenset({Where.STANDING})
    shift: object
    """A ``dsl.values.Shift`` (columns and text)."""


@frozen
class Supply(Effect):
    """Supplies the units of the sides its role names in the counter's cell (``check supply``); ``once``: the counter is used up doing so."""

    VERB = "supply"
    VALID = frozenset({Where.STANDING})
    once: bool


@frozen
class RemoveSelf(Effect):
    """The counter leaves the map, to BOX or out of play; its later lines are not carried out."""

    VERB = "remove"
    VALID = frozenset({Where.MOMENT, Where.EVENT})
    box: str | None


@frozen
class Score(Effect):
    """Scores AWARD for the counter."""

    VERB = "score"
    VALID = frozenset({Where.MOMENT, Where.EVENT})
    award: str


@frozen
class Stop(Effect):
    """``stop ROLE [of SELECTOR…]``: units of the sides its role names (those the selectors name,
    when given) must stop moving on entering the counter's cell."""

    VERB = "stop"
    VALID = frozenset({Where.STANDING})
    what: tuple[str, ...] = ()


@frozen
class StepLoss(Effect):
    """``step loss N [other] ROLE [of SELECTOR…]``.

    Each side among the role's counters loses N steps, one at a time, the owner choosing the
    counter (unless the combat says ``losses chosen by opponent|random``): a counter with a step
    left flips to it, one at its last step (or of a one-step type) is eliminated and scores
    ``award … on eliminated``."""

    VERB = "step"
    VALID = frozenset({Where.RESULT})
    count: int
    other: bool
    what: tuple[str, ...]


@frozen
class StrengthLoss(Effect):
    """``strength loss ROLE FACTOR (N | at least ROLE MEASURE lost)``.

    Each side among the role's counters loses steps, one at a time and chosen as for ``step
    loss``, until the FACTOR points it has lost (a step's drop in FACTOR; a counter's whole FACTOR
    when it is eliminated) reach N, or what the other role's counters lost so far in this result,
    counted in MEASURE; only counters whose loss counts are offered, and when none is left the
    side has lost what it could."""

    VERB = "strength"
    VALID = frozenset({Where.RESULT})
    factor: str
    amount: int | None
    measured_role: str | None
    """The role whose losses set the amount (``at least defenders defence lost``)."""
    measure: str | None


@frozen
class Restore(Effect):
    """``restore N (step | steps) [to] ROLE [of SELECTOR…]``.

    Each side the role names chooses, N times, one of its reduced counters on the map (of the
    selectors) and turns it back one step."""

    VERB = "restore"
    VALID = _HAPPENING
    count: int
    what: tuple[str, ...]


@frozen
class Mark(Effect):
    """``mark ROLE STATUS``.

    Each of the role's units on the map takes the status (a ``status`` declaration: what it forbids,
    the factors it changes) until it recovers at the end of the phase the status names."""

    VERB = "mark"
    VALID = frozenset({Where.RESULT})
    status: str


@frozen
class SetWeather(Effect):
    """``set weather NAME``: the game's weather is NAME from now on (narrated, logged), until a turn of
    the turn record that gives a weather starts or another line sets it."""

    VERB = "set"
    VALID = frozenset({Where.EVENT, Where.MOMENT, Where.OPTION})
    weather: str


@frozen
class NoEffect(Effect):
    """Nothing; narrated."""

    VERB = "no"
    VALID = frozenset({Where.RESULT, Where.EVENT, Where.MOMENT, Where.OPTION})


EFFECT_CLASSES: tuple[type[Effect], ...] = (
    Eliminate, Refit, Retreat, Stand, BreakOff, AbandonMission, Change, ReduceIncome, MultiplyGains, Reveal, RollOn,
    PickReinforcement, ReturnUnits, Attack, ModifyRoll, Shift, Supply, RemoveSelf, Score, Stop, StepLoss,
    StrengthLoss, Restore, NoEffect, Mark, SetWeather,
)
"""Every effect verb's class; ``lose`` shares ``Change`` with ``gain``."""

_BY_VERB = {cls.VERB: cls for cls in EFFECT_CLASSES} | {"lose": Change}


def effect_class(verb: str) -> type[Effect]:
    """The class an effect verb compiles to (``lose`` is ``Change``).

    >>> effect_class("lose").__name__
    'Change'

    Raises:
        KeyError: for a verb ``dsl.vocabulary.EFFECTS`` does not know.
    """
    return _BY_VERB[verb]


def role_of(line: Property) -> str | None:
    """The role word of an effect line: the first of ``ROLES`` after the verb and before ``when``
    (the ``opponent`` of ``when opponent vp lead >= 25`` is not the line's role)."""
    condition = line.get("condition") or ()
    words = line.words[2:len(line.words) - len(condition)]
    return next((w.text for w in words if not w.quoted and w.text in ROLES), None)


def _measured_role(line: Property) -> str | None:
    """The role after ``at least`` in a ``strength loss`` line."""
    words = [w.text for w in line.words if not w.quoted]
    if "least" not in words:
        return None
    return next((w for w in words[words.index("least") + 1:] if w in ROLES), None)


def _names(values) -> tuple[str, ...]:
    return tuple(str(v) for v in values or ())


def _str(value) -> str | None:
    return str(value) if value is not None else None


def compile_effect(line: Property, names: Names) -> Effect:
    """The typed record of one ``effect`` line (the loader has matched it to its verb's pattern)."""
    verb = str(line.get("effect"))
    cls = _BY_VERB[verb]
    condition, error = read_condition(line.get("condition"), names)
    common = {"line": line, "role": role_of(line), "condition": condition, "condition_error": error}
    get, has = line.get, line.has
    fields: dict = {}
    if cls in (Eliminate, Refit):
        portion = "all" if has("all") else "half" if has("half") else None
        fields = {"portion": portion, "count": get("count") or 0, "other": has("other"), "what": _names(get("what"))}
        if cls is Refit:
            fields["box"] = _str(get("box"))
    elif cls is Retreat:
        fields = {"distance": get("distance")}
    elif cls is Change:
        fields = {"resource": str(get("resource")), "amount": get("amount"), "dice": get("roll"),
                  "floor": get("floor"), "sign": -1 if verb == "lose" else 1}
    elif cls is ReduceIncome:
        fields = {"resource": str(get("resource")), "amount": get("amount"), "dice": get("roll")}
    elif cls is MultiplyGains:
        fields = {"resource": str(get("resource")), "factor": get("factor")}
    elif cls is Reveal:
        reach = "one" if has("one") else "this" if has("this") else "range"
        fields = {"units_only": has("units"), "reach": reach, "range": get("range")}
    elif cls is RollOn:
        fields = {"dice": str(get("dice")), "table": str(get("table"))}
    elif cls is PickReinforcement:
        fields = {"box": _str(get("box"))}
    elif cls is ReturnUnits:
        fields = {"count": get("count"), "what": _names(get("what")), "box": str(get("box"))}
    elif cls is Attack:
        fields = {"what": _names(get("what")), "odds": get("odds"), "strength": get("strength"),
                  "ignoring_terrain": has("ignoring"), "lowest": _str(get("factor"))}
    elif cls is ModifyRoll:
        fields = {"what": str(get("what")), "modifier": get("modifier"), "once": has("once")}
    elif cls is Shift:
        fields = {"shift": get("shift")}
    elif cls is Supply:
        fields = {"once": has("once")}
    elif cls is RemoveSelf:
        fields = {"box": _str(get("box"))}
    elif cls is Score:
        fields = {"award": str(get("award"))}
    elif cls is Stop:
        fields = {"what": _names(get("what"))}
    elif cls is StepLoss:
        fields = {"count": get("count"), "other": has("other"), "what": _names(get("what"))}
    elif cls is StrengthLoss:
        fields = {"factor": str(get("factor")), "amount": get("amount"), "measured_role": _measured_role(line),
                  "measure": _str(get("measure"))}
    elif cls is Restore:
        fields = {"count": get("count"), "what": _names(get("what"))}
    elif cls is Mark:
        fields = {"status": str(get("status"))}
    elif cls is SetWeather:
        fields = {"weather": str(get("weather"))}
    return cls(**common, **fields)


def places_of(decl: Declaration, effect: Effect, in_combat: bool) -> frozenset[Where]:
    """Where a declaration's effect line is carried out (module docstring); ``in_combat``: the
    declaration is an event that a cell of a table rolled in combat names."""
    if decl.kind == "result":
        return frozenset({Where.RESULT})
    if decl.kind == "event":
        return frozenset({Where.EVENT, Where.RESULT}) if in_combat else frozenset({Where.EVENT})
    if decl.kind == "option":
        return frozenset({Where.OPTION})
    if effect.condition is not None and effect.condition.moment is not None:
        return frozenset({Where.MOMENT})
    return frozenset({Where.STANDING})


def compile_effects(decl: Declaration, names: Names) -> tuple[Effect, ...]:
    """A declaration's effect lines, in order, compiled.

    A line no effect pattern matched (an error the linter reports, so no game starts under it)
    has no record."""
    return tuple(compile_effect(line, names) for line in decl.all("effect") if line.get("effect") in _BY_VERB)
