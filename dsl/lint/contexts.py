"""E22x: effects in a context that cannot carry them out ("not valid here"); E135/E136: optional
rules (``requires option``) where being out of force has no meaning, or would leave a reference
dangling; E137: a terrain that takes its effects from the cell's other terrain and gives some itself.

E220/E221 check combat results; E222 every other place an effect line is carried out
(``dsl.effects.Where``: an event, a counter's moment, a counter in play, an option), against
the places each verb's class says it is valid in; E223 an effect that names no box it needs.

An effect line is checked against what the context that carries it out can do:
a combat result's effects (a ``result``'s, and an ``event``'s that a cell of a
table rolled in combat names) may only use the verbs combat carries out, and no
``when`` moment, since a result is carried out when it is rolled.
``combat_effect_problems`` is shared with the interpreter
(``interpreter.combat_effects``): a game that reaches a line it reports stops
with the same diagnostic, and ``Game`` refuses to start under rules with lint
errors, so such a game never starts.
"""

from __future__ import annotations

from typing import Iterator

from ..compiled.lines import OPTIONAL_KINDS, required_option
from ..conditions import ConditionError, Names, parse_condition
from ..diagnostics import Diagnostic, diagnostic
from ..effects import (EFFECT_CLASSES, Effect, ModifyRoll, PickReinforcement, Refit, Stop, Where, compile_effects,
                       places_of)
from ..patterns import Ref
from ..model import Declaration, Property, Rulebook
from ..tables import result_parts
from . import check
from .lookups import per_rulebook
from .names import Index, describe, index, ref_of


COMBAT_VERBS = (*(cls.VERB for cls in EFFECT_CLASSES if Where.RESULT in cls.VALID), "lose")
"""The effect verbs a combat result carries out (the classes valid in ``Where.RESULT``, and ``lose``
of ``Change``); the other verbs of ``dsl.vocabulary.EFFECTS`` belong to events and markers."""

_COMBAT_HINT = ("a combat result may eliminate, refit, retreat, stand, break off, abandon mission, gain, lose, "
                "take a step loss or a strength loss, mark a status, roll … on or have no effect")


def _rolled_on(decl: Declaration) -> list[str]:
    return [str(p.get("table")) for p in decl.all("effect") if p.get("effect") == "roll" and p.get("table") is not None]


def combat_effect_lines(rb: Rulebook) -> Iterator[tuple[Declaration, Property]]:
    """Every effect line a combat carries out, with its declaration: each ``result``'s (results are
    carried out only by combat), then each event's that a cell of a table rolled in combat names
    (the table of a ``combat``, of a ``do fire at aircraft with``, or of a ``roll … on`` among
    these lines)."""
    idx = index(rb)
    views = {view.name: view for view in idx.tables}
    results = idx.of_kind("result")
    pending = [ref_of(c, "table", "table") for c in idx.of_kind("combat")]
    pending += [str(p.get("table")) for d in idx.declarations if d.kind in ("phase", "step") for p in d.all("do")
                if p.get("procedure") == "fire at aircraft" and p.get("table") is not None]
    pending += [t for r in results for t in _rolled_on(r)]
    events: dict[str, Declaration] = {}
    seen: set[str] = set()
    while pending:
        name = pending.pop()
        if name is None or name in seen or name not in views:
            continue
        seen.add(name)
        for row in views[name].rows:
            for cell in row.cells:
                if result_parts(idx, cell.text) is not None:  # type: ignore[arg-type]
                    continue  # a result, as combat reads a cell first
                event = idx.get("event", cell.text)
                if event is not None and event.name not in events:
                    events[event.name] = event
                    pending += _rolled_on(event)
    for decl in (*results, *sorted(events.values(), key=lambda d: (d.span.path, d.span.line))):
        for prop in decl.all("effect"):
            yield decl, prop


def combat_effect_problems(rb: Rulebook | Index, decl: Declaration, prop: Property,
                           names: Names) -> list[Diagnostic]:
    """Why combat cannot carry out one effect line of ``decl`` (E220, E221); empty when it can.

    ``names`` are the rulebook's (``dsl.conditions.Names``).  A condition the grammar cannot read
    is W508's business, not reported here.
    """
    verb = prop.get("effect")
    text = " ".join(w.text for w in prop.words[1:])
    out = []
    if verb not in COMBAT_VERBS:
        why = "; this event is a cell of a table rolled in combat" if decl.kind == "event" else ""
        out.append(diagnostic("E220", prop.words[1].span, f"effect {text!r} of {describe(decl)} cannot be carried "
                              "out in a combat result", _COMBAT_HINT + why))
    elif verb == "roll":
        table = rb.get("table", str(prop.get("table")))
        cells = table.first("cells") if table is not None else None
        if cells is not None and cells.words[-1].text not in ("results", "events"):
            out.append(diagnostic("E220", prop.words[1].span, f"effect {text!r} of {describe(decl)} rolls on table "
                                  f"{table.name!r}, whose cells are {cells.words[-1].text}: combat carries out "
                                  "only results and events", "roll on a table whose cells are results or events"))
    condition = prop.get("condition")
    if condition:
        words = prop.words[len(prop.words) - len(condition):]
        try:
            parsed = parse_condition([w.text for w in words], names)
        except ConditionError:
            parsed = None
        if parsed is not None and parsed.moment is not None:
            out.append(diagnostic("E221", words[0].span, f"condition {' '.join(w.text for w in words)!r} of "
                                  f"{describe(decl)} waits for a moment, but a combat result is carried out when "
                                  "it is rolled", "drop the moment; totals, resources, counters "
                                  "and 'defending' are read when the result is carried out"))
    return out


@per_rulebook
def _every_combat_problem(rb: Rulebook) -> tuple[Diagnostic, ...]:
    """E220 and E221 for every effect line combat carries out, found once per lint run."""
    names = Names(rb)
    return tuple(problem for decl, prop in combat_effect_lines(rb)
                 for problem in combat_effect_problems(index(rb), decl, prop, names))


def _combat_problems(rb: Rulebook, code: str) -> Iterator[Diagnostic]:
    return (d for d in _every_combat_problem(rb) if d.code == code)


@check("E220", "effect-not-in-combat")
def effect_not_in_combat(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports an effect line that combat carries out (a `result`'s, or an `event`'s that a cell of
    a table rolled in combat names) whose verb a combat result cannot carry out: one other than
    `eliminate`, `refit`, `retreat`, `stand`, `break off`, `abandon mission`, `gain`, `lose`, `roll
    … on` and `no effect`; or a `roll … on` a table whose cells are numbers or text.

    ## Why is this bad?
    The other verbs belong to events and markers (a turn's income, a marker removing itself,
    a standing modifier); in a combat result they have nothing to act on, and a game reaching
    one would stop.

    ## Example
    ```
    result AS "Attacker supplied" {
        effect supply attackers
    }
    ```
    Use instead: an effect a result can carry out (`effect gain cp 1 to attackers`), or put
    the effect on an event or a marker.
    """
    return _combat_problems(rb, "E220")


def _combat_line_moments(rb: Rulebook) -> Iterator[Diagnostic]:
    """A combat's ``shift … when`` or ``roll modifier … when`` line, or a ``do`` line's ``when`` (fire
    rolled on a table, ``do fire at aircraft … when``), whose condition waits for a moment."""
    names = Names(rb)
    holders = [(c, (*c.all("shift"), *c.all("roll"))) for c in rb.of_kind("combat")]
    holders += [(d, d.all("do")) for d in rb.walk() if d.kind in ("phase", "step")]
    for holder, lines in holders:
        for line in lines:
            words = line.get("condition")
            if not words:
                continue
            try:
                parsed = parse_condition([str(w) for w in words], names)
            except ConditionError:
                continue
            if parsed.moment is not None:
                span = line.words[len(line.words) - len(words)].span
                yield diagnostic("E221", span, f"condition {' '.join(map(str, words))!r} of {describe(holder)} "
                                 "waits for a moment, but "
                                 + ("a combat's lines are read when it is fought" if holder.kind == "combat"
                                    else "the fire is rolled when the procedure runs"),
                                 "drop the moment; totals, resources, counters and 'defending' are read then")


@check("E221", "condition-not-in-combat")
def condition_not_in_combat(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `when` condition on an effect line that combat carries out (a `result`'s, or an
    `event`'s that a cell of a table rolled in combat names) that begins with a **moment**
    (`revealed`, `WHO force enters`, `WHO fires in cell`, `combat round ends`, `PHASE phase
    ends`).

    ## Why is this bad?
    A combat result is carried out when it is rolled; it never waits for a moment, so the
    effect could never apply.  Its clauses (totals, resources, counters in the cell,
    `defending`) are what a result can test.

    ## Example
    ```
    result DR "Defender retreats" {
        effect retreat defenders 1 when revealed
    }
    ```
    Use instead: `effect retreat defenders 1 when attackers attack exceeds defenders defence`.
    A combat's own `shift … when` and `roll modifier … when` lines are checked the same way, and
    so is the condition of a `do` line (`do fire at aircraft with TABLE when …`).
    """
    yield from _combat_problems(rb, "E221")
    yield from _combat_line_moments(rb)


ROLLS_READ = {"recon": "recon", "fire": "resolve fire"}
"""The rolls a counter's ``modify WHAT roll`` may name, and the procedure that rolls (and reads) each
(``interpreter.procedures.roll_modifiers.roll_modifier``)."""


def _events_in_combat(rb: Rulebook) -> set[str]:
    return {decl.name for decl, _ in combat_effect_lines(rb) if decl.kind == "event"}


@per_rulebook
def _every_place_problem(rb: Rulebook) -> tuple[Diagnostic, ...]:
    """``effect_place_problems``, found once per lint run (E222 and E223 each read them)."""
    return tuple(effect_place_problems(rb))


def effect_place_problems(rb: Rulebook) -> Iterator[Diagnostic]:
    """E222 and E223 for every effect line outside combat results (module docstring)."""
    names = Names(rb)
    in_combat = _events_in_combat(rb)
    draws = any(b.has("draw") for b in rb.of_kind("box"))
    procedures = {p.get("procedure") for d in rb.walk() if d.kind in ("phase", "step") for p in d.all("do")}
    rolls = {roll for roll, procedure in ROLLS_READ.items() if procedure in procedures}
    for kind in ("event", "unit", "marker", "option", "result"):
        for decl in rb.of_kind(kind):
            for effect in compile_effects(decl, names):
                yield from _place_problems(decl, effect, places_of(decl, effect, decl.name in in_combat), draws)
                if isinstance(effect, ModifyRoll) and effect.what not in rolls:
                    read = ", ".join(f"'{r}' (by 'do {ROLLS_READ[r]}')" for r in sorted(ROLLS_READ))
                    yield diagnostic("E222", effect.line.words[2].span, f"effect {effect.text!r} of {describe(decl)} "
                                     f"modifies {effect.what!r} rolls, which no procedure of this rulebook rolls",
                                     f"the rolls a counter may modify: {read}")


def _place_problems(decl: Declaration, effect: Effect, places: frozenset[Where], draws: bool) -> Iterator[Diagnostic]:
    span = effect.line.words[1].span
    shown = f"effect {effect.text!r} of {describe(decl)}"
    for place in sorted(places - {Where.RESULT}, key=lambda p: p.value):
        if place not in effect.VALID:
            valid = ", ".join(sorted(p.value for p in effect.VALID))
            yield diagnostic("E222", span, f"{shown} cannot be carried out in {place.value}",
                             f"'{effect.VERB}' is carried out in {valid}")
    condition = effect.line.get("condition")
    if condition:
        cspan = effect.line.words[len(effect.line.words) - len(condition)].span
        if Where.OPTION in places:
            yield diagnostic("E222", cspan, f"{shown} has a condition, but an option's effects are carried out "
                             "once at set-up, when it is chosen", "drop the condition")
        elif Where.EVENT in places and Where.RESULT not in places and effect.moment is not None:
            yield diagnostic("E222", cspan, f"{shown} waits for a moment, but an event is carried out when it "
                             "happens", "drop the moment, or put the effect on a counter")
        elif isinstance(effect, Stop):
            yield diagnostic("E222", cspan, f"{shown} has a condition, but movement reads a 'stop' effect "
                             "without one", "drop the condition")
    if isinstance(effect, Refit) and effect.box is None:
        yield diagnostic("E223", span, f"{shown} names no box to refit to", "write 'refit … to BOX'")
    if isinstance(effect, PickReinforcement) and effect.box is None and not draws:
        yield diagnostic("E223", span, f"{shown} names no box to draw from, and no box is drawn 'at random'",
                         "write 'pick reinforcement free from BOX'")


@check("E222", "effect-not-valid-here")
def effect_not_valid_here(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports an effect line that is carried out where its verb has no meaning (outside combat
    results, which E220 and E221 check).  Where a line is carried out follows from what declares
    it: an event's lines when the event happens; a counter's lines that wait for a moment
    (`when revealed`, `when combat round ends` …) at that moment; a counter's other lines are
    read while it is in play by the mechanic they change (`modify … roll`, `shift`, `supply`,
    `stop`, a trap's `attack`); an option's lines once at set-up.  Also reported: a condition
    on an option's line, a moment on an event's line, a condition on a `stop`.

    ## Why is this bad?
    Nothing would carry the line out: the rule would be accepted and silently ignored.

    ## Example
    ```
    marker ambush {
        effect gain vp 2 to self
    }
    ```
    Use instead: say when it happens, `effect gain vp 2 to self when revealed`.
    """
    return (d for d in _every_place_problem(rb) if d.code == "E222")


@check("E223", "effect-names-no-box")
def effect_names_no_box(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `refit …` effect without `to BOX`, and a `pick reinforcement free` without
    `from BOX` in a rulebook where no box is drawn `at random`.

    ## Why is this bad?
    The effect has nowhere to put the counters, or nowhere to draw them from.

    ## Example
    ```
    result R "Refit" {
        effect refit 1 defenders
    }
    ```
    Use instead: `effect refit 1 defenders to refit_box`.
    """
    return (d for d in _every_place_problem(rb) if d.code == "E223")


@check("E135", "requires-option-not-honoured")
def requires_option_not_honoured(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports `requires option NAME` on a kind of declaration that cannot be out of force: a terrain,
    unit type, marker, side, table, result, box, mode, movement class, die, factor, resource… Only
    actions, awards, combats, events, phases, steps, placements, spottings, stackings and zones
    honour it (with the option off an action is not offered, a combat never fought, a phase or step
    skipped, an event does nothing, the others do not apply).

    ## Why is this bad?
    Maps, scenarios and other rules name these declarations whatever the options; the line would be
    accepted and ignored.

    ## Example
    ```
    terrain marsh {
        requires option wet_season
        cost 2
    }
    ```
    Use instead: put the optional part in a declaration that honours the line (a `zone`, an `action`),
    or describe both terrains and let the scenario's map choose.
    """
    kinds = ", ".join(sorted(OPTIONAL_KINDS))
    for decl in rb.walk():
        line = decl.first("requires")
        if line is not None and decl.kind not in OPTIONAL_KINDS:
            yield diagnostic("E135", line.span, f"a {decl.kind} cannot be out of force: "
                             f"'requires option' is not honoured on {decl.kind} {decl.name!r}",
                             f"only {kinds} honour it")


_NAMED_BY_RECORD = ("action", "combat", "spotting")
"""Kinds that other declarations name and the interpreter looks up by name: one out of force while
a declaration naming it is in force would leave the name pointing at nothing."""


def _words(value) -> Iterator[str]:
    if isinstance(value, (tuple, list)):
        for item in value:
            yield from _words(item)
    elif value is not None and not isinstance(value, (int, float, bool)):
        yield str(getattr(value, "name", value))


def _named(prop) -> set[tuple[str, tuple[str, ...] | None]]:
    """The names a line holds, each with the kinds it may name: a reference's kinds, or ``None``
    for a plain word (a ``do`` line's arguments are words until the procedure reads them)."""
    out: set[tuple[str, tuple[str, ...] | None]] = set()

    def visit(value) -> None:
        if isinstance(value, Ref):
            out.add((value.name, tuple(value.kinds)))
        elif isinstance(value, (tuple, list)):
            for item in value:
                visit(item)
        else:
            out.update((word, None) for word in _words(value))

    for _, value in prop.values:
        visit(value)
    return out


def _options_over(rb: Rulebook) -> dict[int, frozenset[str]]:
    """Each declaration's options: its own ``requires option`` and those of the declarations it sits in."""
    out: dict[int, frozenset[str]] = {}

    def visit(decl: Declaration, above: frozenset[str]) -> None:
        own = required_option(decl)
        here = above | {own} if own is not None else above
        out[id(decl)] = here
        for child in decl.children:
            visit(child, here)

    for decl in rb.declarations:
        visit(decl, frozenset())
    return out


@check("E136", "requires-option-named-in-force")
def requires_option_named_in_force(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a line naming an action, combat or spotting that `requires option NAME`, written in a
    declaration that is in force without that option (it does not require it, nor does a phase it
    sits in).

    ## Why is this bad?
    With the option off the action (combat, spotting) is out of force, but the line naming it still
    runs: it would pay for, fight or search with a rule that is not there.

    ## Example
    ```
    action intercept {
        requires option naval_zones
    }
    zone screen {
        intercepts boats paying intercept
    }
    ```
    Use instead: add `requires option naval_zones` to the zone too.
    """
    optional = {(d.kind, d.name): required_option(d) for kind in _NAMED_BY_RECORD for d in rb.of_kind(kind)
                if required_option(d) is not None}
    if not optional:
        return
    by_name: dict[str, list[tuple[str, str]]] = {}
    for kind, name in optional:
        by_name.setdefault(name, []).append((kind, name))
    over = _options_over(rb)
    for decl in rb.walk():
        for prop in decl.properties:
            if prop.name in ("text", "note", "requires"):
                continue
            for word, kinds in _named(prop):
                for key in by_name.get(word, ()):
                    option = optional[key]
                    if kinds is not None and key[0] not in kinds:
                        continue  # a reference to a declaration of another kind that has the same name
                    if key != (decl.kind, decl.name) and option not in over[id(decl)]:
                        yield diagnostic("E136", prop.span, f"{key[0]} {word!r} requires option {option!r}, but "
                                         f"{decl.kind} {decl.name!r} names it without that option",
                                         f"add 'requires option {option}' to {decl.kind} {decl.name!r}")


_TERRAIN_EFFECTS = ("cost", "defence", "recon", "spot")
"""The lines whose effect ``effects from other terrain`` hands to the cell's other terrain."""


@check("E137", "deferring-terrain-effect")
def deferring_terrain_effect(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `cost`, `defence`, `recon` or `spot` line in a terrain that says `effects from other
    terrain`.

    ## Why is this bad?
    In a cell of that terrain the cell's other terrain (the one its map legend names after it) gives
    those effects, so the line would never apply.  (With no other terrain the defaults hold: cost 1,
    no defence, recon or spotting effect.)

    ## Example
    ```
    terrain depot {
        effects from other terrain
        cost 2
    }
    ```
    Use instead: drop the line, or drop `effects from other terrain`.
    """
    for decl in rb.of_kind("terrain"):
        if decl.has("effects"):
            for prop in decl.properties:
                if prop.name in _TERRAIN_EFFECTS:
                    yield diagnostic("E137", prop.span, f"terrain {decl.name!r} takes its effects from the cell's "
                                     f"other terrain, so its {prop.name!r} line never applies",
                                     "drop the line, or 'effects from other terrain'")
