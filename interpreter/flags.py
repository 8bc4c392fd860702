"""The names of the flags procedures put on counters, in one place.

A unit's ``turn_flags`` say what it has done this turn (cleared at the end of each turn) and its
``spent`` flags what it has done this phase (cleared at the end of each phase).  Procedures set
and read them by these names only, so that one procedure's flag is another's question without a
string spelt twice.  A flag ``NAME:ARG`` carries an argument (``bombarded:0512``, ``carried:u7``).
"""

ATTACKED = "attacked"
"""Spent flag: the unit has attacked (in an assault) this phase."""
DEFENDED = "defended"
"""Spent flag: the unit was attacked by ``do fight`` this phase (kept only for a combat that says
``each defender attacked once per phase`` or ``mandatory attack on adjacent enemies``)."""
BROKE_OFF = "broke off"
"""Turn flag: the unit left a fight by a break-off result or choice."""
COMMITTED = "committed"
"""Turn flag: a support marker was committed to a battle this turn and is used up for it."""
BOMBARDED = "bombarded"
"""Spent flag: the unit has bombarded this phase; also a turn flag of an air unit that bombarded,
with ``bombarded:CELL`` naming the cell."""
BOARDED = "boarded"
"""Turn flag: a carrier took a unit aboard this turn."""
UNBOARDED = "unboarded"
"""Turn flag: a carrier set a unit down this turn."""
LANDED = "landed"
"""Turn flag (``landed:CELL``): a carrier set the unit down this turn; it had boarded in CELL."""
HELD = "held"
"""Turn flag (``held:COMBAT:CELL``): the air unit's bombardment of CELL in COMBAT waits for the
turn's fire against aircraft (``do bombard … held for fire at aircraft``)."""
CARRIED = "carried"
"""Turn flag (``carried:UNIT``): a carrier carries that unit."""
USED_ROLL = "used"
"""Turn flag (``used:WHAT roll``): a counter's ``modify WHAT roll … once`` was spent."""
TRAP = "trap"
"""Spent flag: the unit was stopped by a hidden trap marker this phase."""
WATCH_FIRED = "watch_fired"
"""Spent flag: the unit has fired during enemy movement this phase."""


def with_arg(flag: str, arg: str) -> str:
    """``flag:arg``.

    >>> with_arg(CARRIED, "u7")
    'carried:u7'
    """
    return f"{flag}:{arg}"
