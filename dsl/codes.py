"""The one table of diagnostic codes, as ruff's ``codes.rs``: every code warbook has ever had.

Each row is a code (letter, family digit, number), its stable kebab-case name,
and, for a code no lint check reports, the documentation ``warbook lint
--explain`` prints.  A lint check documents its code with its docstring
(``dsl.lint.check``), so its row has no text of its own.  The letter gives the
severity: ``E`` error, ``W`` warning, ``I`` information.

The table is data only: importing it imports no other part of warbook, so
``dsl.diagnostics.CODES`` is complete as soon as that module is imported.  The
modules that report a code verify it against the table when they are imported
(``dsl.diagnostics.verify_code``, ``dsl.lint.check``): a code or a name that is
not here is a ``ValueError`` there, not a second definition.

A code that is no longer reported stays in the table with ``retired=True`` and
its name: a retired code is never reused for another meaning, and nothing may
report it.  No code has been retired yet.

``RULES`` are the codes of the rules pipeline (``warbook lint RULEBOOK``: syntax,
loading, lint checks), one fixture each in ``tests/lint/fixtures``; ``DATA``
are those of the files and choices of play (maps, scenarios, saves, scripts).
"""

from __future__ import annotations

import enum
import inspect
import re
from typing import Iterable

from attrs import field, frozen


class Severity(enum.IntEnum):
    """How bad a finding is; ordered so that ``>=`` compares with a fail level."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    @property
    def label(self) -> str:
        return self.name.lower()


LETTERS = {"E": Severity.ERROR, "W": Severity.WARNING, "I": Severity.INFO}
"""A code's first letter → its severity."""

_CODE = re.compile(r"[EWI][0-9]{3}")
_NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")


def _cleandoc(text: str | None) -> str | None:
    return None if text is None else inspect.cleandoc(text)


@frozen
class CodeInfo:
    """One diagnostic code: a row of the table.

    >>> info = CODES_BY_CODE["E101"]
    >>> info.name, info.severity.label
    ('unknown-name', 'error')
    """

    code: str
    """``E101``: the letter gives the severity, the digit the family."""
    name: str
    """The stable kebab-case name (``unknown-name``), shown by ``--explain`` and in JSON output."""
    text: str | None = field(default=None, converter=_cleandoc, repr=False)
    """The documentation written in the table; ``None`` for a lint check, whose docstring it is."""
    retired: bool = False
    """No longer reported, kept so that the code is never reused."""

    @property
    def severity(self) -> Severity:
        return LETTERS[self.code[0]]

    @property
    def doc(self) -> str:
        """The documentation written in the table; empty for a lint check, which documents itself
        (``dsl.lint.explain`` gives either)."""
        return self.text or ""


def index(rows: Iterable[CodeInfo]) -> dict[str, CodeInfo]:
    """The rows by code, after checking that codes and names are well formed and unique.

    Raises:
        ValueError: on a malformed code or name, or a code or name given twice (retired ones too:
            a retired code or name is never reused).
    """
    out: dict[str, CodeInfo] = {}
    names: dict[str, str] = {}
    for row in rows:
        if not _CODE.fullmatch(row.code):
            raise ValueError(f"malformed diagnostic code {row.code!r}")
        if not _NAME.fullmatch(row.name):
            raise ValueError(f"diagnostic name {row.name!r} of {row.code} is not kebab-case")
        if row.code in out:
            raise ValueError(f"code {row.code} is in the table twice")
        if row.name in names:
            raise ValueError(f"name {row.name!r} is used by {names[row.name]} and {row.code}")
        out[row.code] = row
        names[row.name] = row.code
    return out


RULES: tuple[CodeInfo, ...] = (
    # E0 syntax (dsl/parser.py) and files and includes (dsl/loader.py)
    CodeInfo("E001", "syntax-error", """
        ## What it does
        Reports a line the parser cannot read: a stray ``}``, a ``:`` in the wrong place,
        annotations (``§``, ``gap``, ``errata``) before the words of a statement.
        ## Example
        ``table crt { }}`` — use one closing brace per block.
    """),
    CodeInfo("E002", "unexpected-character", """
        ## What it does
        Reports a character that cannot start any word, usually an unterminated ``"`` string
        or a ``§`` with no section after it; and, anywhere in a file, a character that other
        tools show as a line break but the rules language does not (U+2028, U+2029, U+0085,
        a vertical tab, a form feed, U+001C to U+001E, a carriage return not before a newline).
        ## Why is this bad?
        After a ``#`` such a character would hide the rest of the file in one comment: the
        rulebook would mean nothing and still lint clean.
        ## Example / Use instead
        ``text "Roll a die`` → ``text "Roll a die"``.
    """),
    CodeInfo("E003", "unclosed-block", """
        ## What it does
        Reports a file that ends inside a ``{ … }`` block, at the ``{`` left open (the last
        one no ``}`` closes; braces in comments and quoted texts do not count).
        ## Why is this bad?
        Everything after the missing ``}`` would belong to the wrong declaration.
    """),
    CodeInfo("E004", "unreadable-file", """
        ## What it does
        Reports a rules, scenario or map file that does not exist, is not a regular file (a
        folder, a FIFO, a device), has a path the system refuses (too long, a NUL character),
        is larger than 1 MB, or is not UTF-8 text; and a rulebook whose includes and extends
        would take it past 256 files or 4 MB of text together.
        ## Why is this bad?
        A FIFO or a device never ends, and a huge file takes minutes and gigabytes to parse:
        warbook refuses them rather than hang.
    """),
    CodeInfo("E005", "include-cycle", """
        ## What it does
        Reports an `include` or `extends` that leads back to a file already being loaded.
    """),
    CodeInfo("E006", "include-too-deep", """
        ## What it does
        Reports includes or extends nested more than 16 deep (usually a cycle through
        differently written paths).
    """),
    CodeInfo("E007", "path-outside-root", """
        ## What it does
        Reports an `include` or `extends` path that leaves the folder of the rulebook being loaded
        and the project's search paths (`search-paths` in `warbook.toml`, docs/config.md).
        ## Why is this bad?
        A rulebook must be self-contained so it can be shared as a folder, and loading it must read
        no file outside the folders its project names. To build on a shipped game, use its name:
        `extends "NAME"`, where NAME is the rulebook's file name without `.rules`; to build on a
        rulebook of your own in another folder, add that folder to `search-paths` and extend it by
        name or by a path into it.
    """),
    CodeInfo("E008", "misplaced-extends", """
        ## What it does
        Reports `extends` that is not the first statement of a file, or appears twice.
    """),
    # E1 names: dsl/resolve.py, dsl/loader.py, dsl/build.py; checks in dsl/lint/names.py
    CodeInfo("E101", "unknown-name", """
        ## What it does
        Reports a name that no declaration of the expected kind defines: a terrain's `cost … for mech`
        when no tag, unit or class is called `mech`, a `combat`'s table that is not declared.
        ## Example / Use instead
        `defence x1 for mehc` → `defence x1 for mech`.
    """),
    CodeInfo("E102", "duplicate-declaration", """
        ## What it does
        Reports two declarations of the same kind with the same name.
        ## Example / Use instead
        In a house rule, change a declaration of the base with `override KIND NAME { … }`.
    """),
    CodeInfo("E103", "unknown-kind", """
        ## What it does
        Reports a top-level statement whose first word is not a kind of declaration
        (`terrain`, `unit`, `table` …) or a directive (`include`, `extends`, `override`, `remove`).
        ## Example / Use instead
        `terain clear` → `terrain clear`.
    """),
    CodeInfo("E104", "unknown-property", """
        ## What it does
        Reports a line in a declaration's block that the kind does not understand. For units and
        markers, a property may also be any declared `factor`.
        ## Example / Use instead
        `terrain clear { cots 1 }` → `terrain clear { cost 1 }`.
    """),
    CodeInfo("E105", "bad-arguments", """
        ## What it does
        Reports a line whose words do not fit the property's pattern: a missing value, a word where
        a number belongs, a stray extra word. The hint shows the pattern.
        ## Example / Use instead
        `cost fast` → `cost 2` or `cost no entry`.
    """),
    CodeInfo("E107", "override-without-target", """
        ## What it does
        Reports an `override` whose kind and name match nothing declared before it.
        ## Why is this bad?
        The house rule would silently change nothing, usually because of a typo.
    """),
    CodeInfo("E108", "remove-without-target", """
        ## What it does
        Reports a `remove` whose kind and name match nothing declared before it.
    """),
    CodeInfo("E109", "duplicate-property", """
        ## What it does
        Reports a property given twice where only one is allowed.
        ## Why is this bad?
        Only one of the two values could apply; which one was meant is unclear.
    """),
    CodeInfo("E111", "misplaced-row", """
        ## What it does
        Reports a table row (`key: cells`) outside a `table` block, or a row-like line elsewhere.
        ## Example / Use instead
        Put rows inside `table name { … }`.
    """),
    CodeInfo("E112", "unexpected-block", """
        ## What it does
        Reports a `{ … }` block after a property or declaration that does not take one.
    """),
    CodeInfo("E121", "unknown-section-cite"),
    CodeInfo("E122", "unit-without-side"),
    CodeInfo("E123", "unit-without-movement"),
    CodeInfo("E124", "bad-dice-name"),
    CodeInfo("E125", "tag-cycle"),
    CodeInfo("E126", "factor-all-not-allowed"),
    CodeInfo("E127", "unit-side-conflict"),
    CodeInfo("E128", "two-eliminated-boxes"),
    CodeInfo("E129", "player-count-mismatch"),
    CodeInfo("E130", "award-scored-outside-its-phases"),
    CodeInfo("E131", "size-rank-unread"),
    CodeInfo("E132", "once-per-turn-not-counted"),
    CodeInfo("E135", "requires-option-not-honoured"),
    CodeInfo("E136", "requires-option-named-in-force"),
    CodeInfo("E137", "deferring-terrain-effect"),
    CodeInfo("E138", "bad-step-line"),
    CodeInfo("E139", "crossing-cost-off-edges"),
    # E140-E144 after combat: checks in dsl/lint/after_combat.py
    CodeInfo("E140", "advance-from-a-distance"),
    CodeInfo("E141", "advance-never-fought"),
    CodeInfo("E142", "after-combat-count-below-one"),
    CodeInfo("E143", "conflicting-retreat-lines"),
    CodeInfo("E144", "status-factor-unread"),
    # control, tracing and victory by control: checks in dsl/lint/control.py
    CodeInfo("E145", "control-without-declaration"),
    CodeInfo("E146", "trace-without-source"),
    CodeInfo("E147", "unknown-victory-level"),
    CodeInfo("E148", "second-control"),
    CodeInfo("E149", "end-score-not-cells"),
    CodeInfo("E150", "condition-not-of-weather-or-turn"),
    CodeInfo("E155", "factor-points-for-cells"),
    CodeInfo("E156", "exit-without-box"),
    CodeInfo("E157", "exit-never-offered"),
    CodeInfo("E163", "second-terrains"),  # checked in dsl/lint/hexsides.py
    # E2 tables: checks in dsl/lint/tables.py, rows.py, cells.py and contexts.py
    CodeInfo("E201", "bad-column-heading"),
    CodeInfo("E202", "duplicate-column"),
    CodeInfo("E203", "wrong-cell-count"),
    CodeInfo("E204", "unknown-result"),
    CodeInfo("E205", "uncovered-die-roll"),
    CodeInfo("E206", "overlapping-rows"),
    CodeInfo("E207", "unreachable-row"),
    CodeInfo("E208", "overlapping-columns"),
    CodeInfo("E209", "gap-between-columns"),
    CodeInfo("E210", "columns-out-of-order"),
    CodeInfo("E211", "unknown-event"),
    CodeInfo("E212", "table-without-columns"),
    CodeInfo("E213", "empty-table"),
    CodeInfo("E214", "unknown-shifted-column"),
    CodeInfo("E215", "bad-row-key"),
    CodeInfo("E216", "unexplained-provisional-cell"),
    CodeInfo("E217", "duplicate-row-key"),
    CodeInfo("E218", "non-numeric-cell"),
    CodeInfo("E219", "rolls-without-dice"),
    CodeInfo("E220", "effect-not-in-combat"),
    CodeInfo("E221", "condition-not-in-combat"),
    CodeInfo("E222", "effect-not-valid-here"),
    CodeInfo("E223", "effect-names-no-box"),
    CodeInfo("E224", "compound-cell-not-combining"),
    CodeInfo("E225", "recycle-mismatch"),
    CodeInfo("E226", "step-effect-on-single-step-type"),
    # E230-E233 combat model: checks in dsl/lint/combat_model.py
    CodeInfo("E230", "minimum-odds-never-read"),
    CodeInfo("E231", "mandatory-attack-without-zone"),
    CodeInfo("E232", "combat-model-never-fought"),
    CodeInfo("E233", "mandatory-adjacent-not-adjacent"),
    # lasting side states: checks in dsl/lint/control.py
    CodeInfo("E235", "state-condition-with-moment"),
    CodeInfo("E236", "state-without-condition"),
    # fire at range (a minimum range, line of fire, supporting fire), attacks on several hexes: checks in dsl/lint/combat_model.py
    CodeInfo("E240", "range-fire-without-range-factor"),
    CodeInfo("E241", "assault-line-not-adjacent"),
    # E3 sequence of play: dsl/build.py, dsl/loader.py; checks in dsl/lint/sequence.py
    CodeInfo("E301", "unknown-procedure", """
        ## What it does
        Reports a `do …` line in the sequence of play that names no procedure the interpreter knows.
        ## Why is this bad?
        The phase would do nothing. See docs/reference.md, "Procedures", for the list.
    """),
    CodeInfo("E302", "bad-procedure-arguments", """
        ## What it does
        Reports a `do …` line naming a known procedure with missing or wrong parameters,
        e.g. `do fight` without the combat to use.
    """),
    CodeInfo("E303", "unknown-effect", """
        ## What it does
        Reports an `effect …` line whose verb the interpreter does not know, or whose words do not
        fit that verb's pattern.
        ## Example / Use instead
        `effect kill all defenders` → `effect eliminate all defenders`.
    """),
    CodeInfo("E304", "no-sequence"),
    CodeInfo("E305", "empty-phase"),
    CodeInfo("E306", "alternate-foreign-step"),
    CodeInfo("E307", "conflicting-phase-sides"),
    CodeInfo("E308", "combat-without-table"),
    CodeInfo("E309", "combat-table-mismatch"),
    CodeInfo("E310", "duplicate-phase"),
    CodeInfo("E311", "combat-without-factor"),
    CodeInfo("E312", "fixed-odds-not-on-table"),
    CodeInfo("E314", "action-outside-its-phase"),
    CodeInfo("E315", "order-on-phase"),
    CodeInfo("E316", "repeat-outside-operation"),
    CodeInfo("E317", "optional-without-side"),
    CodeInfo("E318", "turns-out-of-range"),
    CodeInfo("E319", "unsupported-repeat-condition"),
    CodeInfo("E320", "held-bombardment-never-made"),
    CodeInfo("E325", "bad-turn-record"),
    CodeInfo("E331", "drop-off-without-unlimited-distance"),  # checked in dsl/lint/forces.py
    CodeInfo("E313", "override-out-of-order", """
        ## What it does
        Reports an `override` of a phase or step after which the engine would not run its `do`
        lines and steps in the order the override means: a nested step replaced in its place, the
        kept ones, then the override's new `do` lines and steps.
        ## Why is this bad?
        A phase's `do` lines and steps run in the order of their lines. An override in another file
        (a house rule) mixes its lines with the base's, and line numbers of two files say nothing
        about which comes first: the phase would run in an order nobody wrote.
        ## Example
        ```
        extends "base"
        override phase operations {
            step fire {
                do resolve fire with assault
            }
        }
        ```
        Use instead: write the whole phase in one place, `override sequence turn { phase operations
        { … } }` (a phase replaced in a sequence keeps its place), or override only the step,
        `override step fire { … }`, when it holds `do` lines alone.
    """),
    # W4 unused or unreachable: checks in dsl/lint/unused.py; W490 in dsl/lint/__init__.py
    CodeInfo("W401", "unused-result"),
    CodeInfo("W402", "unused-table"),
    CodeInfo("W403", "unused-tag"),
    CodeInfo("W404", "unused-factor"),
    CodeInfo("W405", "unused-event"),
    CodeInfo("W406", "unused-mode"),
    CodeInfo("W407", "unused-dice"),
    CodeInfo("W408", "unused-movement"),
    CodeInfo("W409", "unused-resource"),
    CodeInfo("W410", "unused-box"),
    CodeInfo("W411", "unused-option"),
    CodeInfo("W412", "unused-combat"),
    CodeInfo("W413", "unused-nationality"),
    CodeInfo("W414", "unused-trace"),  # checked in dsl/lint/control.py
    CodeInfo("W417", "unused-weather"),
    CodeInfo("W421", "go-on-past-no-markers"),  # checked in dsl/lint/forces.py
    CodeInfo("W490", "unknown-suppression", """
        ## What it does
        Reports a `# lint: ignore[…]` comment naming a code that does not exist.
        ## Why is this bad?
        A misspelt code suppresses nothing, so the warning it meant to silence still shows,
        or worse, a later real code is silenced by accident.
    """),
    # W5 table sanity: checks in dsl/lint/sanity.py (W509 in tables.py, W510 in rows.py)
    CodeInfo("W501", "row-out-of-order"),
    CodeInfo("W502", "column-out-of-order"),
    CodeInfo("W503", "result-without-worth"),
    CodeInfo("W504", "result-without-effect"),
    CodeInfo("W505", "victory-levels-gap"),
    CodeInfo("W506", "unit-missing-factor"),
    CodeInfo("W507", "resource-cap-below-minimum"),
    CodeInfo("W508", "unknown-condition"),
    CodeInfo("W509", "off-table-column-unsaid"),
    CodeInfo("W510", "off-table-roll-unsaid"),
    CodeInfo("W511", "reduced-step-stronger"),
    # W512-W514 after combat: checks in dsl/lint/after_combat.py
    CodeInfo("W512", "advance-zones-moot"),
    CodeInfo("W513", "retreat-extension-unused"),
    CodeInfo("W514", "status-never-given"),
    # W515 locking zones: checks in dsl/lint/combat_model.py
    CodeInfo("W515", "locking-zone-passable"),
    CodeInfo("W519", "distance-points-shadowed"),  # checked in dsl/lint/awards.py
    # I6 gaps, errata and coverage: checks in dsl/lint/coverage.py
    CodeInfo("I601", "provisional-value"),
    CodeInfo("I602", "errata"),
    CodeInfo("I603", "uncited-section"),
    CodeInfo("I604", "provisional-cells"),
    CodeInfo("I605", "uncited-declaration"),
)
"""The rules pipeline's codes: what ``warbook lint RULEBOOK`` can report."""

DATA: tuple[CodeInfo, ...] = (
    # E7 maps (interpreter/board.py) and scenarios (interpreter/scenario.py)
    CodeInfo("E701", "bad-map-file", """
        ## What it does
        Reports a map file that is not valid TOML or lacks the `[map]` table and its required keys
        (`grid`, `width`, `height`, `rows`, `legend`), or gives them values of the wrong type
        (a feature that is not a table, a number of more than 4300 digits).
    """),
    CodeInfo("E702", "bad-map-rows", """
        ## What it does
        Reports terrain rows that do not match the declared `width` and `height`, or characters
        missing from the legend.
    """),
    CodeInfo("E703", "bad-map-cell", """
        ## What it does
        Reports a place or feature naming a cell id that is not on the map (`0312` is column 3, row 12),
        or a feature path whose consecutive cells are not adjacent.
    """),
    CodeInfo("E704", "bad-scenario", """
        ## What it does
        Reports a scenario file that is not valid TOML, lacks `[scenario]` keys (`map`, `turns`,
        `player_order`, and `rules` or `rulebook`), gives a key a value of the wrong type (a
        whole number, a name or list of names, a range such as `"1-3"`), names a map whose grid is
        not the one the rulebook's header says (`grid hex`, `grid square with diagonals`), names
        unknown sides, unit
        types, boxes, options,
        places or cells, gives a set-up entry none of `at`, `places`, `box` or `zone` (or more than
        one), a zone that holds no cell, a key the format does not know, or a unit type set up for a
        side it does not belong to.  Also a count past its bound (1000 counters in an entry, 1000
        turns; 10000 counters in the whole set-up), a resource past a billion, a number of more
        than 4300 digits, and a `rules` or `map` path outside the scenario's folder (other than a
        shipped map or rulebook): use `rulebook = "NAME"` for a shipped rulebook.
    """),
    CodeInfo("E706", "unknown-map-feature", """
        ## What it does
        Reports a `[[map.features]]` entry whose `kind` is not a `feature` the scenario's rulebook
        declares.
        ## Why is this bad?
        Nothing would know where it may be drawn or what it is: `crosses only` and selectors name
        declared features.
    """),
    CodeInfo("E707", "feature-drawn-off-its-places", """
        ## What it does
        Reports a feature whose path steps across a cell side (or corner) when the rulebook's
        `feature` is not `on sides` (`on corners`) nor `on cells`.
        ## Why is this bad?
        The map would put the feature where its rule says it is never drawn; `crosses only` would
        let units across an edge the feature cannot be on.
    """),
    CodeInfo("E708", "two-other-terrains", """
        ## What it does
        Reports a legend entry whose terrain says `effects from other terrain` and that names two or
        more other terrains after it (`"b" = ["base", "coastal", "swamp"]`).
        ## Why is this bad?
        The cell takes its costs, defence, recon and spotting from its other terrain; with two, which
        one holds is not said.  Name one; give the rest as tags that are not terrains.
    """),
    CodeInfo("E711", "bad-arrival", """
        ## What it does
        Reports a scenario's `[[arrival]]` that gives none or more than one of `at` (entry cells),
        `edge` (a map edge) and `box`, whose entry cells the unit type may stand in none of, or a
        second arrival of one side's unit type on the same turn.
        ## Why is this bad?
        The counters would have nowhere to arrive, or two entries would compete for the same
        counters waiting on the turn track: write one entry with every entry cell they may use.
    """),
    CodeInfo("E712", "schedule-after-last-turn", """
        ## What it does
        Reports an `[[arrival]]` or `[[withdrawal]]` on a turn after the game's last.
        ## Why is this bad?
        The game ends before it: the counters would never arrive or leave.
    """),
    CodeInfo("E713", "schedule-never-carried-out", """
        ## What it does
        Reports a scenario's `[[arrival]]` (or `[[withdrawal]]`) for a side that no phase of the
        rulebook does `do arrivals` (`do withdrawals`) for: none does it, or only phases run for
        another side (`side first`, `side NAME`). A `do move … bringing in arrivals` brings in the
        arrivals of the types it moves (and those going into a box).
        ## Why is this bad?
        Nothing would ever bring the counters in or take them off: the schedule would be ignored.
    """),
    # W7 scenario sanity (interpreter/scenario_lint.py)
    CodeInfo("W705", "unplaceable-counters", """
        ## What it does
        Finds a scenario's `[[setup]]` entry whose counters can never all be placed: its zone has no
        cell they may stand in, or fewer cells than `count` divided by its `per_cell` limit.
        ## Why is this bad?
        Set-up sends the counters that find no cell to the scenario's `unplaced` area (default
        `offmap`), so they silently miss the game.  Usually a zone names the wrong terrain or tag,
        or the unit's movement class may not enter the zone's terrain.
        ## Example / Use instead
        ```toml
        [[setup]]              # infantry may not enter water: no cell of this zone holds them
        side = "blue"
        unit = "infantry"
        count = 3
        zone = { terrain = ["water"] }
        ```
        Name terrain the unit may stand in, or widen the zone.
    """),
    # E8 play: actions and saves (interpreter/actions.py), scripts (interpreter/agents.py)
    CodeInfo("E801", "illegal-action", """
        ## What it does
        Reports an action that is not among the legal choices of the current decision, naming the
        rule that forbids it where one does (`river: no entry`).
    """),
    CodeInfo("E802", "ambiguous-action", """
        ## What it does
        Reports an abbreviated action (a number or a prefix) that matches more than one legal choice.
    """),
    CodeInfo("E803", "bad-save-file", """
        ## What it does
        Reports a save or log file that cannot be read, was written for another rulebook or scenario,
        or does not replay to the same rolls.
    """),
    CodeInfo("E804", "unknown-option", """
        ## What it does
        Reports an optional rule the players switched before play (`warbook play --option NAME`,
        `Game.new(..., options=...)`) that the rulebook does not declare, and lists those it does.
    """),
    CodeInfo("E805", "unsupported-procedure", """
        ## What it does
        Reports, before a game starts, a `do …` line of the rulebook's sequence of play that this
        version of the interpreter cannot carry out yet.
    """),
    CodeInfo("I806", "unfinished-log", """
        ## What it does
        Notes that a log replays but stops before the game ends: a game abandoned (the input
        ended), or stopped or killed while `warbook play --log` kept its log as it went.  Every
        line up to there replayed as it was written; the note names the line it ends at and whose
        decision comes next.
    """),
    CodeInfo("E811", "bad-script", """
        ## What it does
        Reports a scripted agent's file (`--agents script:FILE`) that cannot be read, or that runs
        out of choices before the game ends.

        ## Example
        A script of one action per line, or a warbook log whose choices are replayed:

            place R1 0302
            done
    """),
    # E0 files: the project's configuration (dsl/config.py)
    CodeInfo("E009", "bad-config", """
        ## What it does
        Reports a project configuration (`warbook.toml`, or `[tool.warbook]` in `pyproject.toml`)
        that is not valid TOML, has a key warbook does not know, or a value it cannot use: a code
        prefix no code starts with, a fail level or output format that does not exist, a search
        path that is absolute or names no folder.  See docs/config.md.
        ## Why is this bad?
        A misspelt key would otherwise be ignored, and the project linted or loaded with settings
        its designer did not mean.
        ## Example
            [lint]
            ingore = ["W4"]     # E009: unknown key 'ingore'; did you mean 'ignore'?
    """),
)
"""The codes of the files and choices of play (maps, scenarios, saves, scripts) and of the
project's configuration."""

TABLE: tuple[CodeInfo, ...] = RULES + DATA
"""Every code, in the order of the families."""

CODES_BY_CODE: dict[str, CodeInfo] = index(TABLE)
"""The table by code, retired codes included."""
