"""The loaded scenario's records: the set-up entries, draws and turn modifiers, and ``Scenario``.

These are what play sees, resolved against the rulebook and the map (cell ids, not place
names; zones with the cells they allow).  ``interpreter.scenario_toml`` reads the file into
its own typed entries and ``interpreter.scenario_resolve`` turns those into these records.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from attrs import evolve, frozen

from ..dsl.model import Rulebook
from .board import Board
from .options import with_options
from .rules import Rules

EDGES = ("north", "south", "east", "west")
"""Map edges a zone may name: the first or last row (north, south) or column (west, east)."""

MODIFIER_KINDS = ("roll", "income", "gains")
"""What a ``[[turn_modifier]]`` may change (``GameState.turn_modifiers``): ``roll:WHAT`` adds to a
side's WHAT rolls (``roll:recon``), ``income:RESOURCE`` to its income, ``gains:RESOURCE``
multiplies what it gains."""


@frozen
class Zone:
    """Cells a side may choose from when placing units.

    ``allowed`` is every cell passing the static conditions, found when the scenario is loaded;
    ``holding`` is checked at placement (it depends on what is already set up).
    """

    cells: tuple[str, ...] = ()
    terrain: tuple[str, ...] = ()
    columns: tuple[int, int] | None = None
    rows: tuple[int, int] | None = None
    tags: tuple[str, ...] = ()
    """The cell's terrain, a tag of its terrain or a tag of the cell is one of these."""
    not_tags: tuple[str, ...] = ()
    """None of these names the cell (terrain, terrain tag or cell tag)."""
    edge: tuple[str, ...] = ()
    """The cell is on one of these map edges."""
    holding: tuple[str, ...] = ()
    """The cell already holds a counter of the placing side that these selectors name."""
    allowed: frozenset[str] | None = None

    def contains(self, board: Board, cell: str) -> bool:
        """Whether the cell passes the zone's static conditions (``holding`` is checked at set-up)."""
        if self.allowed is not None:
            return cell in self.allowed
        return self.admits(board, cell, None)

    def admits(self, board: Board, cell: str, rules: Rules | None) -> bool:
        """Whether the cell passes the static conditions; ``tags``/``not_tags`` are checked only
        with the compiled ``rules`` (the reader passes them once, to find ``allowed``)."""
        if self.cells and cell not in self.cells:
            return False
        if self.terrain and board.terrain(cell) not in self.terrain and not (set(self.terrain) & board.tags(cell)):
            return False
        col, row = int(cell[: len(cell) // 2]), int(cell[len(cell) // 2:])
        if self.columns and not self.columns[0] <= col <= self.columns[1]:
            return False
        if self.rows and not self.rows[0] <= row <= self.rows[1]:
            return False
        if self.edge and not any((e == "west" and col == 1) or (e == "east" and col == board.width)
                                 or (e == "north" and row == 1) or (e == "south" and row == board.height)
                                 for e in self.edge):
            return False
        if (self.tags or self.not_tags) and rules is not None:
            names = rules.cell_selectors(board.terrain(cell), board.tags(cell))
            if self.tags and not names & set(self.tags):
                return False
            if names & set(self.not_tags):
                return False
        return True


@frozen
class Placement:
    """One ``[[setup]]`` entry (or the counters of a ``[[draw]]`` picked for one zone)."""

    side: str
    unit: str
    count: int
    at: str | None
    """The cell every counter goes to (a place name is resolved to its cell)."""
    zone: Zone | None
    per_cell: int | None
    """At most this many counters of the side (of any entry) in a chosen cell."""
    line: int
    box: str | None = None
    """A holding area of the rulebook the counters start in (a reserve, a pool)."""
    cells: tuple[str, ...] = ()
    """One counter on each of these cells (``places``, or ``one_each`` of a zone)."""
    group: str = ""
    """Entries sharing a group share ``group_per_cell`` (default: the entry alone)."""
    group_per_cell: int | None = None
    """At most this many counters of the group in a chosen cell."""
    may_hold: str | None = None
    """A box the owner may put a counter in instead of a cell (held back for later)."""
    requires_option: str | None = None
    """Set up only when this option is in force."""


@frozen
class Draw:
    """A ``[[draw]]``: ``count`` counters picked at random from a mix, placed by type; the rest to a box."""

    side: str
    count: int
    mix: tuple[tuple[str, int], ...]
    """Unit type and how many counters of it, in the order written."""
    zones: tuple[tuple[tuple[str, ...], Zone], ...]
    """Unit types (empty: every type not named before) and the zone they are placed in."""
    rest: str | None
    """The box the counters not picked go to (``None``: they are not used)."""
    rest_count: int | None
    """How many of the counters not picked go to ``rest`` (default: all)."""
    per_cell: int | None
    line: int

    def zone_for(self, unit: str) -> Zone | None:
        for units, zone in self.zones:
            if not units or unit in units:
                return zone
        return None


@frozen
class TurnModifier:
    """A ``[[turn_modifier]]``: ``(side, what, amount)`` in force on turns ``first`` to ``last``."""

    first: int
    last: int
    side: str
    what: str
    amount: int
    line: int


@frozen
class Scenario:
    """A loaded scenario: its rulebook (with overlay), board and set-up."""

    path: str
    name: str
    text: str
    rulebook: Rulebook
    """The rulebook with the overlay and the scenario's ``[scenario.options]`` applied."""
    board: Board
    turns: int
    """How many turns the game lasts: the scenario's ``turns``, else its rulebook's ``turns N``."""
    player_order: tuple[str, ...]
    setup_order: tuple[str, ...]
    resources: tuple[tuple[str, str, int], ...]
    setup: tuple[Placement, ...]
    note: str = ""
    income: tuple[tuple[str, str, int], ...] = ()
    """(side, resource, amount) gained each turn (``do gain income``)."""
    year: int | None = None
    """The calendar year the scenario is set in, when costs depend on it."""
    options: tuple[tuple[str, bool], ...] = ()
    """Options the scenario switches on or off, and those the players agreed (already applied to ``rulebook``)."""
    choices: tuple[tuple[str, str], ...] = ()
    """(option, side): options a side decides at the start of set-up."""
    draws: tuple[Draw, ...] = ()
    turn_modifiers: tuple[TurnModifier, ...] = ()
    unplaced: str = "offmap"
    """Where a counter goes when no cell of its zone is left for it."""
    agreed: tuple[tuple[str, bool], ...] = ()
    """Options the players switched before play (``agree``): part of ``options`` too, kept apart
    because a saved game must record them (the scenario file does not)."""
    rules_path: str = ""
    """The rules file the scenario names (its overlay or a shipped rulebook); ``rulebook.path``
    differs from it when the game is played under another rulebook (``with_rulebook``)."""
    map_path: str = ""
    map_text: str = ""
    """The map file read, kept so a saved game can carry it (``interpreter.savefile``)."""
    turns_from_rulebook: bool = False
    """The scenario gives no ``turns``: ``turns`` is the rulebook's (another rulebook, another length)."""
    control: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """``[scenario.control]``: (side, cells) each side holds when set-up ends (``interpreter.control``)."""
    arrivals: tuple = ()
    """The ``[[arrival]]`` entries (``interpreter.arrivals.Arrival``), in the order written."""
    withdrawals: tuple = ()
    """The ``[[withdrawal]]`` entries (``interpreter.arrivals.Withdrawal``), in the order written."""

    @functools.cached_property
    def rules(self) -> Rules:
        """The compiled rules, built once and shared by every game of this scenario (and its caches)."""
        return Rules(self.rulebook)

    @functools.cached_property
    def _variants(self) -> dict:
        return {}

    @functools.cached_property
    def _agreements(self) -> dict:
        return {}

    def agree(self, settings: Mapping[str, bool]) -> Scenario:
        """The scenario with options the players switched before play, on top of its own.

        Built once per set of options and kept with this scenario, so every game that agrees
        them shares one compiled ``Rules`` (and movement's caches).  The new scenario is made by
        ``evolve``, which never copies the cached ``rules``: they are compiled from its rulebook.
        A ``[scenario.choose]`` option the players settle is not asked of its side (set-up carries
        out its effects as if the side had chosen so).  Names must be declared options; others
        are ignored (``with_options``).
        """
        key = frozenset(settings.items())
        if not key:
            return self
        if key not in self._agreements:
            self._agreements[key] = evolve(self, rulebook=with_options(self.rulebook, settings),
                                           options=tuple({**dict(self.options), **settings}.items()),
                                           agreed=tuple({**dict(self.agreed), **settings}.items()))
        return self._agreements[key]

    def rules_for(self, settings: dict[str, bool]) -> tuple[Rulebook, Rules]:
        """The rulebook and compiled rules with options switched as chosen before play.

        Built once per set of choices and shared by every game that makes them, so movement's
        caches (kept per ``Rules``) are too.
        """
        key = frozenset(settings.items())
        if not key:
            return self.rulebook, self.rules
        if key not in self._variants:
            rulebook = with_options(self.rulebook, settings)
            self._variants[key] = (rulebook, Rules(rulebook) if rulebook is not self.rulebook else self.rules)
        return self._variants[key]
