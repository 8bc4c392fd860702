"""E3xx: the sequence of play and the combats it runs.

Loading checks that every ``do`` names a known procedure with the right words
(E301, E302), that every effect verb is known (E303), and that an override of a
phase or step leaves its lines to run in the order it means (E313, ``dsl.loader``).
These checks ask
whether the sequence as a whole can run: that there is one, that each phase
does something, that a phase is run for one side, each side or both, and
that each combat has a table it can read.

It also refuses the lines of a phase that could not be carried out there: an ``order by``
(E315), a ``repeat until`` outside an operation (E316), ``optional`` with no side to decide (E317).

Limits: the linter does not evaluate ``repeat until`` or ``when`` conditions.
"""

from __future__ import annotations

from typing import Iterator

from ..diagnostics import Diagnostic, diagnostic
from . import check
from .names import describe, index, ref_of
from ..model import Declaration, Rulebook
from ..tables import TableView
from ..vocabulary import REPEAT_CONDITION


def _phases(rb: Rulebook) -> list[Declaration]:
    """Phases and steps in the order they are written."""
    return [d for d in index(rb).declarations if d.kind in ("phase", "step")]


@check("E304", "no-sequence")
def no_sequence(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a rulebook (a file with a `rulebook` header) that declares no `sequence` of play.
    Files without a header are parts meant to be included and are not checked.

    ## Why is this bad?
    The sequence is what the engine runs; without it nothing happens in a turn.

    ## Example
    ```
    sequence "Sequence of Play" {
        phase movement {
            for each side
            do move
        }
    }
    ```
    """
    idx = index(rb)
    header = idx.get("rulebook", "rulebook")
    if header is not None and not idx.of_kind("sequence"):
        yield diagnostic("E304", header.name_span, f"rulebook {header.display!r} declares no sequence of play",
                         "add a 'sequence' block with its phases")


@check("E305", "empty-phase")
def empty_phase(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a phase or step that neither runs a procedure (`do …`), nor alternates a step
    (`alternate …`), nor holds steps.

    ## Why is this bad?
    The phase does nothing when the engine reaches it; usually its `do` line was forgotten.

    ## Example
    ```
    phase combat "Combat Phase" {
        for each side
    }
    ```
    Use instead: add `do fight assault`.
    """
    for decl in _phases(rb):
        if not decl.children and not decl.has("do") and not decl.has("alternate"):
            yield diagnostic("E305", decl.name_span, f"{decl.kind} {decl.name!r} does nothing",
                             "add 'do PROCEDURE', 'alternate STEP until …' or steps")


@check("E306", "alternate-foreign-step")
def alternate_foreign_step(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports `alternate STEP until …` naming a step that is not one of the phase's own steps.

    ## Why is this bad?
    Players alternate the steps of the phase they are in; a step from another phase would
    run out of its place in the sequence.

    ## Example
    ```
    phase operations {
        alternate operation until all pass
    }
    phase logistics {
        step operation {
            do move force
        }
    }
    ```
    Use instead: declare `step operation` inside `phase operations`.
    """
    for decl in _phases(rb):
        own = {c.name for c in decl.children if c.kind == "step"}
        for prop in decl.all("alternate"):
            step = prop.get("step")
            if step is not None and step.name not in own:
                yield diagnostic("E306", step.span, f"{decl.kind} {decl.name!r} alternates step {step.name!r}, "
                                 "which is not one of its steps",
                                 f"declare 'step {step.name}' inside {decl.kind} {decl.name!r}")


@check("E307", "conflicting-phase-sides")
def conflicting_phase_sides(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a phase or step that says more than one of `for each side`, `side …` and
    `mutual`.

    ## Why is this bad?
    They contradict each other: run once per side, for one side only, or once for both
    together. The engine cannot honour two of them.

    ## Example
    ```
    phase movement {
        for each side
        side first
    }
    ```
    Use instead: keep one of the lines.
    """
    for decl in _phases(rb):
        said = [p for p in decl.properties if p.name in ("for", "side", "mutual")]
        if len(said) > 1:
            words = " and ".join(repr(p.text) for p in said)
            yield diagnostic("E307", said[1].span, f"{decl.kind} {decl.name!r} says both {words}",
                             "keep one: 'for each side', 'side …' or 'mutual'")


@check("E308", "combat-without-table")
def combat_without_table(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `combat` with no `table` line.

    ## Why is this bad?
    Totals and odds become a column of a results table; without one the combat has no
    results.

    ## Example
    ```
    combat assault {
        compare odds
    }
    ```
    Use instead: add `table crt`.
    """
    for combat in index(rb).of_kind("combat"):
        if not combat.has("table"):
            yield diagnostic("E308", combat.name_span, f"combat {combat.name!r} has no table",
                             "add 'table NAME' naming its results table")


def _combat_tables(rb: Rulebook) -> Iterator[tuple[Declaration, TableView]]:
    """Each combat with the view of the table it names (combats naming no table are skipped)."""
    idx = index(rb)
    views = {view.name: view for view in idx.tables}
    for combat in idx.of_kind("combat"):
        view = views.get(ref_of(combat, "table", "table") or "")
        if view is not None:
            yield combat, view


@check("E309", "combat-table-mismatch")
def combat_table_mismatch(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a combat whose way of finding a column does not match its table: `compare odds`
    or `fixed odds` needs a table looked up `by odds`; `compare total` needs one looked up
    by value or by a factor.

    ## Why is this bad?
    An odds ratio cannot be found among firepower headings, nor a total among odds.

    ## Example
    ```
    table crt {
        lookup by value
        columns 1-2 3-4 5+
    }
    combat assault {
        table crt
        compare odds
    }
    ```
    Use instead: `compare total`, or a table with odds headings.
    """
    for combat, view in _combat_tables(rb):
        lookup = view.lookup if view.lookup in ("odds", "value", "key") else "factor"
        compare = combat.first("compare")
        wants = None
        if combat.has("fixed") or (compare is not None and compare.words[-1].text == "odds"):
            wants, prop = "odds", combat.first("fixed") or compare
        elif compare is not None:
            wants, prop = "total", compare
        if wants == "odds" and lookup != "odds":
            how = "is fought at fixed odds" if prop.name == "fixed" else "compares odds"
            yield diagnostic("E309", prop.span, f"combat {combat.name!r} {how} but table {view.name!r} "
                             f"is looked up by {lookup}", "add 'lookup by odds' to the table, or 'compare total'")
        elif wants == "total" and lookup not in ("value", "factor"):
            yield diagnostic("E309", prop.span, f"combat {combat.name!r} compares totals but table {view.name!r} "
                             f"is looked up by {lookup}", "add 'lookup by value' to the table, or 'compare odds'")


@check("E310", "duplicate-phase")
def duplicate_phase(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports two phases or steps with the same name anywhere in the sequence of play.

    ## Why is this bad?
    Actions (`during PHASE`), awards (`scored during PHASE`) and `alternate` name phases
    and steps; with two of the same name the rule applies to whichever is found first.

    ## Example
    Two `step reinforcement` in different phases → `step blue_reinforcement`,
    `step red_reinforcement`.
    """
    seen: dict[str, Declaration] = {}
    for decl in _phases(rb):
        first = seen.setdefault(decl.name, decl)
        if first is not decl:
            yield diagnostic("E310", decl.name_span,
                             f"{decl.kind} name {decl.name!r} is already used by a {first.kind}",
                             f"first used at line {first.name_span.line}; give each phase and step its own name")


@check("E311", "combat-without-factor")
def combat_without_factor(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a combat that cannot compute what it compares: `compare odds` needs an
    `attack factor` and a `defence factor` (unless the combat has `fixed odds`); `compare
    total` needs an `attack factor`.

    ## Why is this bad?
    Without the factor the engine does not know which number on the counters to add up.

    ## Example
    ```
    combat assault {
        table crt
        compare odds
        attack factor attack
    }
    ```
    Use instead: add `defence factor defence`.
    """
    for combat in index(rb).of_kind("combat"):
        compare = combat.first("compare")
        if compare is None or combat.has("fixed"):
            continue
        odds = compare.words[-1].text == "odds"
        needed = ("attack", "defence") if odds else ("attack",)
        missing = [f"{role} factor" for role in needed if not combat.has(role)]
        if missing:
            yield diagnostic("E311", compare.span, f"combat {combat.name!r} compares {'odds' if odds else 'totals'} "
                             f"but has no {' or '.join(repr(m) for m in missing)}",
                             f"add '{missing[0]} NAME' naming a declared factor")


@check("E312", "fixed-odds-not-on-table")
def fixed_odds_not_on_table(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a combat with `fixed odds` that its odds table has no column for.

    ## Why is this bad?
    The combat is always fought at those odds; with no such column it can never be resolved.

    ## Example
    `fixed odds 2:1` with `columns 1:1 3:1` → add a `2:1` column or fix the odds.
    """
    for combat, view in _combat_tables(rb):
        fixed = combat.first("fixed")
        odds = fixed.get("odds") if fixed is not None else None
        if odds is None or view.lookup != "odds":
            continue
        if odds.ratio not in {c.odds.ratio for c in view.columns if c.odds is not None}:
            yield diagnostic("E312", fixed.words[-1].span, f"combat {combat.name!r} is fought at {odds.text} "
                             f"but table {view.name!r} has no such column")


def _with_ancestors(decl: Declaration, above: tuple[str, ...] = ()) -> Iterator[tuple[Declaration, tuple[str, ...]]]:
    """Every phase and step under ``decl``, with the names of itself and the phases around it."""
    for child in decl.children:
        if child.kind in ("phase", "step"):
            names = (*above, child.name)
            yield child, names
            yield from _with_ancestors(child, names)


@check("E314", "action-outside-its-phase")
def action_outside_its_phase(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `do …` line that pays for an action (`paying ACTION`) in a phase or step that the
    action's `during PHASE…` does not name (neither the step itself nor a phase around it).

    ## Why is this bad?
    `during` says when the action may be taken; a procedure that offers it elsewhere takes
    it out of its phase, against the rule the line states.

    ## Example
    ```
    action refit "Refit" {
        cost cp 1
        during refit_phase
    }
    sequence {
        phase movement {
            do reinforce from pool paying refit
        }
    }
    ```
    Use instead: take it in its phase, or name this one in `during`.
    """
    idx = index(rb)
    for sequence in idx.of_kind("sequence"):
        for decl, names in _with_ancestors(sequence):
            for line in decl.all("do"):
                named = [line.get("action"), *(line.get("actions") or ())]
                for name in (str(n) for n in named if n is not None):
                    action = idx.get("action", name)
                    during = action.first("during") if action is not None else None
                    phases = [str(p) for p in during.get("phases") or ()] if during is not None else []
                    if phases and not set(phases) & set(names):
                        yield diagnostic("E314", line.span, f"{describe(decl)} pays for action {name!r}, which is "
                                         f"taken during {', '.join(phases)}",
                                         f"take it in {' or '.join(phases)}, or add {decl.name!r} to its 'during'")


def _runs(decl: Declaration, in_operation: bool = False,
          for_side: bool = False) -> Iterator[tuple[Declaration, bool, bool]]:
    """Every phase and step under ``decl`` with whether it is inside an operation (a step that an
    ``alternate`` runs, strictly inside) and whether its runs are for a side (``interpreter.flow``)."""
    alternated = {str(p.get("step")) for p in decl.all("alternate")}
    for child in decl.children:
        if child.kind not in ("phase", "step"):
            continue
        if child.has("for") or child.has("side"):
            side = True
        elif child.has("mutual") or child.kind == "phase":
            side = False  # a phase with no side line is mutual
        else:
            side = for_side or child.name in alternated  # the acting side: each side in turn if alternated
        yield child, in_operation, side
        yield from _runs(child, in_operation or child.name in alternated, side)


def _sequence_runs(rb: Rulebook) -> Iterator[tuple[Declaration, bool, bool]]:
    for sequence in index(rb).of_kind("sequence"):
        yield from _runs(sequence)


@check("E315", "order-on-phase")
def order_on_phase(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports `order by FACTOR ascending|descending` on a phase or step.

    ## Why is this bad?
    The order units act in belongs to the procedure that moves or fights them, one at a time:
    `do move order by …` and a combat's `order by` are read there. A phase's own procedures
    (income, scoring, supply …) act on no units one by one, so the line would be ignored.

    ## Example
    ```
    phase movement {
        mutual
        order by morale descending
        do move
    }
    ```
    Use instead: `do move order by morale descending`.
    """
    for decl, _, _ in _sequence_runs(rb):
        for line in decl.all("order"):
            yield diagnostic("E315", line.span, f"{describe(decl)} says {line.text!r}: a phase or step has no order "
                             "of its own", "write it on the procedure: 'do move order by …', or the combat's 'order by'")


@check("E316", "repeat-outside-operation")
def repeat_outside_operation(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports `repeat until …` on a phase, or on a step that is not inside a step that an
    `alternate` runs (an operation).

    ## Why is this bad?
    The condition a repeat can wait for, `only one side remains in the contested square`, is
    about the battle of an operation. Anywhere else no battle is ever on, the condition always
    holds, and the phase or step would never run at all.

    ## Example
    ```
    phase battle {
        mutual
        repeat until only one side remains in the contested square
        do resolve fire with fire_combat
    }
    ```
    Use instead: put the repeating step inside the step an `alternate` runs.
    """
    for decl, in_operation, _ in _sequence_runs(rb):
        line = decl.first("repeat")
        if line is not None and not in_operation:
            yield diagnostic("E316", line.span, f"{describe(decl)} repeats where no battle of an operation is on when "
                             "it starts: it would never run", "put it inside a step that an 'alternate' runs")


@check("E317", "optional-without-side")
def optional_without_side(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports `optional` on a phase or step that runs for no side: a `mutual` one, a phase with
    no `side` or `for each side`, or a step inside one that no `alternate` runs.

    ## Why is this bad?
    The side a run is for decides whether to skip it. With no such side nobody can be asked,
    and the phase would always be played although it says it may be skipped.

    ## Example
    ```
    phase supply {
        mutual
        optional
        do check supply paying supply else to reserve
    }
    ```
    Use instead: `for each side` (each side decides for its own run) or `side NAME`.
    """
    for decl, _, for_side in _sequence_runs(rb):
        line = decl.first("optional")
        if line is not None and not for_side:
            yield diagnostic("E317", line.span, f"{describe(decl)} is optional but runs for no side: nobody can "
                             "skip it", "add 'for each side' or 'side …', or remove 'optional'")


@check("E319", "unsupported-repeat-condition")
def unsupported_repeat_condition(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `repeat until` whose condition is not one the engine evaluates.

    ## Why is this bad?
    The condition is read when the step first ends: a game would stop there, mid-play, with an
    error, instead of the rulebook being refused before play. The one condition is
    `only one side remains in the contested square`.

    ## Example
    ```
    step firefight {
        repeat until no attacks remain
        do resolve fire with firefight
    }
    ```
    Use instead: `repeat until only one side remains in the contested square`.
    """
    for decl, _, _ in _sequence_runs(rb):
        line = decl.first("repeat")
        words = " ".join(str(w) for w in line.get("condition") or ()) if line is not None else None
        if words is not None and words != REPEAT_CONDITION:
            yield diagnostic("E319", line.span, f"{describe(decl)} repeats until {words!r}, a condition the "
                             "engine does not evaluate", f"write: repeat until {REPEAT_CONDITION}")


MAX_TURNS = 1000
"""The longest game a rulebook's ``turns N`` may give (a scenario's ``turns`` has the same bound)."""


@check("E318", "turns-out-of-range")
def turns_out_of_range(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a sequence's `turns N` below 1 or above 1000.

    ## Why is this bad?
    `turns N` is how many turns a game lasts unless its scenario says otherwise: a game of no
    turns ends before anything happens, and a board game never runs to thousands.

    ## Example
    ```
    sequence {
        turns 0
    }
    ```
    Use instead: `turns 8`, or `turns per scenario`.
    """
    for sequence in index(rb).of_kind("sequence"):
        line = sequence.first("turns")
        count = line.get("count") if line is not None else None
        if count is not None and not 1 <= count <= MAX_TURNS:
            yield diagnostic("E318", line.span, f"the sequence lasts {count} turns",
                             f"give from 1 to {MAX_TURNS} turns, or 'turns per scenario'")


@check("E320", "held-bombardment-never-made")
def held_bombardment_never_made(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports `do bombard with COMBAT held for fire at aircraft` with no `do fire at aircraft` after
    it in the sequence of play.

    ## Why is this bad?
    A held bombardment of units that fly to their target is made by the turn's next `do fire at
    aircraft`, after its fire; with none after it, the bombardment is declared and never made.

    ## Example
    ```
    phase bombardment {
        do bombard with barrage held for fire at aircraft
    }
    ```
    Use instead: a later phase with `do fire at aircraft with flak`, or `do bombard with barrage`.
    """
    lines = [line for decl, _, _ in _sequence_runs(rb) for line in decl.all("do")]
    for n, line in enumerate(lines):
        if line.get("procedure") == "bombard" and line.has("held") and \
                not any(later.get("procedure") == "fire at aircraft" for later in lines[n + 1:]):
            yield diagnostic("E320", line.span, "a bombardment held for fire at aircraft, but no 'do fire at "
                             "aircraft' comes after it in the sequence: it would never be made",
                             "add a later 'do fire at aircraft with TABLE', or drop 'held for fire at aircraft'")
