"""The condition language of ``when …`` and ``repeat until …``: a small grammar over words.

Conditions are written as plain words at the end of an ``effect``, ``do``, ``shift`` or
``repeat until`` line.  This module reads them into a typed ``Condition`` (what the
interpreter evaluates, ``interpreter.conditions``) and says precisely what is wrong with one
it cannot read (the linter reports that as W508).  Names are checked against the rulebook:
sides, resources, factors, phases and selectors are whatever it declares; nothing here names
a game.

Grammar (``|`` alternatives, ``[ ]`` optional, ``+`` one or more)::

    condition  := moment [ "and" clauses | "without" counters [ "and" clauses ] ]
                | clauses
    clauses    := clause ( "and" clause )*
    moment     := "revealed"                          this counter is turned face up
                | WHO "force" "enters"                a force of WHO enters this counter's cell
                | WHO "fires" place                   WHO fires (conducts combat) in the cell
                | [ "first" ] "combat" "round" "ends"
                | PHASE ( "phase" | "step" ) "ends"  a phase or step of the sequence ends
    clause     := quantity COMPARISON quantity        vp lead >= 25, firers attack exceeds targets attack
                | "only" "one" "side" [ "remains" ] place
                | ( "all" | "any" ) ROLE "across" FEATURE+   all attackers across river: each attacker's
                                                      cell and the cell fought over share a side or
                                                      corner with such a feature (or its tag)
                | [ WHO ] "defending"                 the side is the defender of the battle
                | "weather" "is" WEATHER ( "or" WEATHER )*   the game's weather now is one of these
                | "without" counters                  no such counter in the cell
                | [ "no" ] counters place             own unit or raider adjacent to capital
                | "in" TRACE | "out" "of" TRACE        the cell in question traces (or not) to a source
                | WHO [ "not" ] STATE                  the side is (not) in a lasting state: enemy demoralised
    quantity   := INT | [ WHO ] RESOURCE [ "lead" ] | ROLE FACTOR | "turn"
    counters   := group ( "or" group )*               a counter matching any group
    group      := ( WHO | SELECTOR | NOUN )+          a counter matching every word of the group
    place      := "in" [ "the" | "this" ] [ "contested" ] ( "cell" | "square" )
                | "in" SELECTOR+                      a cell the selectors name (terrain, tags, places)
                | "adjacent" "to" SELECTOR+           next to such a cell
    WHO        := "own" | "self" | "owner" | "opponent" | "enemy" | SIDE
    NOUN       := "unit" | "units" | "marker" | "markers" | "counter" | "counters"
    ROLE       := "attackers" | "defenders" | "firers" | "targets"
    TRACE      := a declared ``trace`` (``in supply``: the own side can trace ``supply`` from the cell)
    STATE      := a declared ``state`` (``own demoralised``: the own side has entered it)
    COMPARISON := ">" | ">=" | "<" | "<=" | "=" | "exceeds" | "at least" | "at most" | "below" | "equals"

Who ``own`` is depends on where the condition is written: an event's side (the side whose
table it is on, or the side rolling), a marker's side.  ``opponent``/``enemy`` are the other
sides.  ``RESOURCE lead`` is the side's total less the largest other side's.  ``ROLE FACTOR``
totals a printed factor over the units of an engagement's role; ``turn`` is the game turn (``turn
>= 3``).  ``weather is mud`` holds while the game's weather (``interpreter.turns``) is ``mud``.
A moment says *when* the effect is carried out; the clauses say whether it then applies.

Limits: ``and`` joins clauses, ``or`` only joins counter groups (and the names of ``weather is``); there is no ``not`` (write
``no …`` or ``without …``) and no parentheses.
"""

from __future__ import annotations

from collections.abc import Iterable

from attrs import frozen

from .model import Rulebook
from .values import read_int

WHO_WORDS = {"own": "own", "self": "own", "owner": "own", "opponent": "opponent", "enemy": "opponent"}
"""Words for sides relative to the condition's own side."""
NOUNS = {"unit": "unit", "units": "unit", "marker": "marker", "markers": "marker",
         "counter": "counter", "counters": "counter"}
"""Words for kinds of counter: ``unit`` (a unit, not a marker), ``marker``, ``counter`` (either)."""
ROLES = ("attackers", "defenders", "firers", "targets")
"""An engagement's roles, for ``ROLE FACTOR`` totals."""
COMPARISONS = {">": ">", ">=": ">=", "<": "<", "<=": "<=", "=": "=", "exceeds": ">", "at least": ">=",
               "at most": "<=", "below": "<", "equals": "="}
"""Comparison words to the operator they mean."""
_CELL_WORDS = ("the", "this", "contested")
_SELECTOR_KINDS = ("side", "nationality", "tag", "unit", "marker", "movement", "size", "terrain")


class ConditionError(ValueError):
    """A condition the grammar cannot read: ``index`` is the word where reading failed."""

    def __init__(self, message: str, index: int, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.index = index
        self.hint = hint


@frozen
class Who:
    """A side relative to the condition (``own``, ``opponent``) or named (``red``)."""

    relative: str | None = None
    side: str | None = None

    def __str__(self) -> str:
        return self.side or self.relative or "own"


@frozen
class Moment:
    """When an effect is carried out: ``revealed``, ``enters``, ``fires``, ``round ends``, ``phase ends``."""

    kind: str
    who: Who | None = None
    first: bool = False
    phase: str | None = None


@frozen
class Place:
    """Where counters are looked for: ``cell`` (the cell in question), ``in`` or ``adjacent`` to selected cells."""

    kind: str
    selectors: tuple[str, ...] = ()


@frozen
class Quantity:
    """A number: ``number`` (``value``), ``resource`` or ``lead`` (``name`` of ``who``), ``total`` (``name``
    factor over ``role``)."""

    kind: str
    value: int = 0
    name: str | None = None
    who: Who | None = None
    role: str | None = None


@frozen
class Compare:
    left: Quantity
    op: str
    right: Quantity


@frozen
class Group:
    """Every part must match: sides (``who``), selectors and a counter noun."""

    who: Who | None = None
    selectors: tuple[str, ...] = ()
    noun: str | None = None


@frozen
class Presence:
    """Some counter of the groups is at the place (``negated``: none is)."""

    groups: tuple[Group, ...]
    place: Place
    negated: bool = False


@frozen
class Defending:
    who: Who


@frozen
class OneSide:
    place: Place


@frozen
class Across:
    """``(all | any) ROLE across FEATURE…``: whether every (or some) unit of the role fights across
    a side or corner of the cell fought over that has one of the features (or their tags)."""

    every: bool
    role: str
    features: tuple[str, ...]


@frozen
class Traced:
    """``in TRACE`` (``negated``: ``out of TRACE``): the own side can trace the named ``trace``
    from the cell in question."""

    trace: str
    negated: bool = False


@frozen
class InState:
    """``WHO STATE`` (``negated``: ``WHO not STATE``): a side WHO names has entered the lasting ``state``."""

    who: Who
    state: str
    negated: bool = False


@frozen
class Weather:
    """``weather is NAME [or NAME …]``: the game's weather now is one of ``names``."""

    names: tuple[str, ...]


Clause = Compare | Presence | Defending | OneSide | Across | Traced | InState | Weather


@frozen
class Condition:
    """A parsed condition: an optional moment and the clauses that must all hold."""

    words: tuple[str, ...]
    moment: Moment | None = None
    clauses: tuple[Clause, ...] = ()

    def __str__(self) -> str:
        return " ".join(self.words)


class Names:
    """What each declared name is, for the parser: built once per rulebook."""

    def __init__(self, rulebook: Rulebook):
        self.kinds: dict[str, set[str]] = {}
        for kind in (*_SELECTOR_KINDS, "resource", "factor", "phase", "step", "feature", "trace", "state", "weather"):
            for decl in rulebook.of_kind(kind):
                self.kinds.setdefault(decl.name, set()).add(kind)

    def has(self, word: str, *kinds: str) -> bool:
        return bool(self.kinds.get(word, set()) & set(kinds))

    def is_selector(self, word: str) -> bool:
        return self.has(word, *_SELECTOR_KINDS)


def parse_condition(words: Iterable[str], names: Names | Rulebook) -> Condition:
    """Read condition words into a ``Condition``.

    >>> from warbook.dsl.model import Rulebook
    >>> parse_condition(["5", ">=", "3"], Rulebook("x", ())).clauses[0].op
    '>='

    Raises:
        ConditionError: naming the word where reading failed and what was expected.
    """
    if isinstance(names, Rulebook):
        names = Names(names)
    words = tuple(str(w) for w in words)
    return _Parser(words, names).condition()


def read_condition(words: Iterable[str] | None, names: Names) -> tuple[Condition | None, ConditionError | None]:
    """A line's condition words read once, at compile time: ``(condition, None)``, or ``(None, error)``
    for words the grammar cannot read (the linter reports W508; play stops with E805 only if the line
    is reached), or ``(None, None)`` for a line without one.

    >>> from warbook.dsl.model import Rulebook
    >>> read_condition(["5", "exceeds"], Names(Rulebook("x", ())))[1].message
    'expected a number, [WHO] RESOURCE [lead] or ROLE FACTOR, found the end of the condition'
    """
    if not words:
        return None, None
    try:
        return parse_condition(words, names), None
    except ConditionError as exc:
        return None, exc


class _Parser:
    def __init__(self, words: tuple[str, ...], names: Names):
        self.words = words
        self.names = names
        self.i = 0

    # --- helpers -------------------------------------------------------------------------------

    def peek(self, offset: int = 0) -> str | None:
        j = self.i + offset
        return self.words[j] if j < len(self.words) else None

    def take(self, *expected: str) -> str:
        word = self.peek()
        if word is None or (expected and word not in expected):
            self.fail(" or ".join(repr(e) for e in expected) if expected else "a word")
        self.i += 1
        return word  # type: ignore[return-value]

    def fail(self, expected: str, hint: str | None = None):
        found = self.peek()
        where = f"{found!r}" if found is not None else "the end of the condition"
        raise ConditionError(f"expected {expected}, found {where}", self.i, hint)

    def who(self, word: str | None) -> Who | None:
        if word in WHO_WORDS:
            return Who(relative=WHO_WORDS[word])
        if word is not None and self.names.has(word, "side"):
            return Who(side=word)
        return None

    # --- condition -----------------------------------------------------------------------------

    def condition(self) -> Condition:
        if not self.words:
            self.fail("a condition")
        moment = self.moment()
        clauses: list = []
        if moment is not None:
            if self.peek() == "without":
                clauses.append(self.clause())
            if self.peek() is not None:
                self.take("and")
                clauses.extend(self.clauses())
        else:
            clauses.extend(self.clauses())
        return Condition(self.words, moment, tuple(clauses))

    def clauses(self) -> list:
        out = [self.clause()]
        while self.peek() == "and":
            self.i += 1
            out.append(self.clause())
        if self.peek() is not None:
            self.fail("'and' or the end of the condition")
        return out

    def moment(self) -> Moment | None:
        w0, w1, w2 = self.peek(), self.peek(1), self.peek(2)
        if w0 == "revealed":
            self.i += 1
            return Moment("revealed")
        who = self.who(w0)
        if who is not None and w1 == "force" and w2 == "enters":
            self.i += 3
            return Moment("enters", who=who)
        if who is not None and w1 == "fires":
            self.i += 2
            if self.place().kind != "cell":
                self.fail("the end of the moment", "write 'WHO fires in cell': the cell in question")
            return Moment("fires", who=who)
        if w0 == "first" or (w0 == "combat" and w1 == "round"):
            first = w0 == "first"
            self.i += first
            self.take("combat"), self.take("round"), self.take("ends")
            return Moment("round ends", first=first)
        if w0 is not None and w1 in ("phase", "step") and w2 == "ends":
            if not self.names.has(w0, "phase", "step"):
                self.fail("a phase or step name")
            self.i += 3
            return Moment("phase ends", phase=w0)
        return None

    # --- clauses -------------------------------------------------------------------------------

    def clause(self):
        start = self.i
        compare = self.comparison()
        if compare is not None:
            return compare
        self.i = start
        word = self.peek()
        if word in ("all", "any") and self.peek(1) in ROLES and self.peek(2) == "across":
            role = self.peek(1)
            self.i += 3
            features = []
            while self.peek() is not None and self.peek() != "and":
                if not self.names.has(self.peek(), "feature", "tag"):  # type: ignore[arg-type]
                    self.fail("a feature or tag name")
                features.append(self.take())
            if not features:
                self.fail("a feature or tag name")
            return Across(word == "all", role, tuple(features))  # type: ignore[arg-type]
        if word == "in" and self.names.has(self.peek(1) or "", "trace"):
            self.i += 2
            return Traced(self.words[self.i - 1])
        if word == "out" and self.peek(1) == "of" and self.names.has(self.peek(2) or "", "trace"):
            self.i += 3
            return Traced(self.words[self.i - 1], negated=True)
        who = self.who(word)
        if who is not None:
            negated = self.peek(1) == "not"
            name = self.peek(2 if negated else 1)
            if name is not None and self.names.has(name, "state"):
                self.i += 3 if negated else 2
                return InState(who, name, negated)
        if word == "only":
            self.take("only"), self.take("one"), self.take("side")
            if self.peek() == "remains":
                self.i += 1
            return OneSide(self.place())
        if word == "defending" or (self.who(word) is not None and self.peek(1) == "defending"):
            who = Who(relative="own") if word == "defending" else self.who(word)
            self.i += 1 if word == "defending" else 2
            return Defending(who)  # type: ignore[arg-type]
        if word == "without":
            self.i += 1
            return Presence(self.counters(), Place("cell"), negated=True)
        if word == "weather" and self.peek(1) == "is":
            return self.weather()
        negated = word == "no"
        if negated:
            self.i += 1
        groups = self.counters()
        return Presence(groups, self.place(), negated)

    def comparison(self) -> Compare | None:
        """``quantity COMPARISON quantity`` when the clause has a comparison word; else ``None``."""
        end = self.i
        while end < len(self.words) and self.words[end] != "and":
            end += 1
        ops = [j for j in range(self.i, end) if self.words[j] in COMPARISONS or
               (self.words[j] == "at" and j + 1 < end and self.words[j + 1] in ("least", "most"))]
        if not ops:
            return None
        at = ops[0]
        op_words = 2 if self.words[at] == "at" else 1
        op = COMPARISONS[" ".join(self.words[at:at + op_words])]
        left = self.quantity(self.i, at)
        self.i = at + op_words
        right = self.quantity(self.i, end)
        self.i = end
        return Compare(left, op, right)

    def quantity(self, start: int, end: int) -> Quantity:
        part = self.words[start:end]
        self.i = start
        if len(part) == 1 and (number := read_int(part[0])) is not None and not part[0].startswith("+"):
            return Quantity("number", value=number)
        if len(part) == 2 and part[0] in ROLES:
            if not self.names.has(part[1], "factor"):
                self.i = start + 1
                self.fail("a factor name", f"{part[0]} FACTOR totals a printed factor")
            return Quantity("total", name=part[1], role=part[0])
        who = self.who(part[0]) if part and len(part) > 1 else None
        rest = part[1:] if who is not None else part
        if rest and self.names.has(rest[0], "resource") and (len(rest) == 1 or rest[1:] == ("lead",)):
            kind = "lead" if len(rest) == 2 else "resource"
            return Quantity(kind, name=rest[0], who=who or Who(relative="own"))
        if part == ("turn",):
            return Quantity("turn")
        self.i = start + (1 if who is not None else 0)
        self.fail("a number, [WHO] RESOURCE [lead] or ROLE FACTOR",
                  "write e.g. 'vp lead >= 25' or 'firers attack exceeds targets attack'")
        raise AssertionError  # unreachable

    def weather(self) -> Weather:
        self.i += 2
        names = []
        while True:
            if not self.names.has(self.peek(), "weather"):  # type: ignore[arg-type]
                self.fail("a weather name", "name a declared weather: weather is NAME [or NAME …]")
            names.append(self.take())
            if self.peek() != "or":
                return Weather(tuple(names))
            self.i += 1

    def counters(self) -> tuple[Group, ...]:
        groups = [self.group()]
        while self.peek() == "or":
            self.i += 1
            groups.append(self.group())
        return tuple(groups)

    def group(self) -> Group:
        who, selectors, noun = None, [], None
        while True:
            word = self.peek()
            if word is None or word in ("or", "and", "in", "adjacent"):
                break
            if word in NOUNS and noun is None:
                noun = NOUNS[word]
            elif word in WHO_WORDS and who is None:
                who = Who(relative=WHO_WORDS[word])
            elif self.names.is_selector(word):
                selectors.append(word)
            else:
                self.fail("a side, selector or one of 'unit', 'marker', 'counter'",
                          "name counters by side (own, enemy, a side), selector and noun")
            self.i += 1
        if who is None and not selectors and noun is None:
            self.fail("a counter (own unit, enemy units, a unit type or tag …)")
        return Group(who, tuple(selectors), noun)

    def place(self) -> Place:
        word = self.peek()
        if word == "in":
            self.i += 1
            if self.peek() in (*_CELL_WORDS, "cell", "square"):
                while self.peek() in _CELL_WORDS:
                    self.i += 1
                self.take("cell", "square")
                return Place("cell")
            return Place("in", self.selectors())
        if word == "adjacent":
            self.i += 1
            self.take("to")
            return Place("adjacent", self.selectors())
        self.fail("'in cell', 'in SELECTOR' or 'adjacent to SELECTOR'")
        raise AssertionError  # unreachable

    def selectors(self) -> tuple[str, ...]:
        out = []
        while self.peek() is not None and self.peek() != "and":
            if not self.names.is_selector(self.peek()):  # type: ignore[arg-type]
                self.fail("a selector (terrain, tag, side, unit …)")
            out.append(self.take())
        if not out:
            self.fail("a selector (terrain, tag, side, unit …)")
        return tuple(out)
