"""E1xx: names and references beyond what loading checks.

Loading already guarantees that every ``Ref`` names a declaration of a kind it
allows (E101).  These checks ask what loading cannot: whether a ``§`` cite
names a declared section, whether every unit belongs to a side and moves
somehow, whether dice are named by their notation, whether tags nest in a
circle, and whether a counter's factor may be ``all``; and forms the engine would
otherwise ignore: a ``do score`` outside its award's ``scored during`` phases, a size's
``rank``, a ``once per turn`` action paid where actions taken are not counted.

This module also holds ``index``, the lookups every family shares, built once
per rulebook so that each check stays linear in the size of the rulebook.

Limits: section cites are matched by name or label, and a cite of a
subsection (``§"11.2 (4)"``) counts as a cite of a declared ``11.2`` or ``11``.
"""

from __future__ import annotations

import functools
import re
from typing import Iterator, TypeVar

from ..diagnostics import Diagnostic, diagnostic, did_you_mean
from . import check
from ..model import Declaration, Provenance, Rulebook
from ..tables import TableView
from ..values import MAX_DICE, MAX_FACES, read_dice, shorten
from .lookups import per_rulebook

T = TypeVar("T")

SECTION_SEPARATORS = re.compile(r"[.\s/(]")
"""Where a cite may continue past a declared section's name: ``11.2`` → ``11.2.3``, ``11.2 (4)``, ``12.4/5``."""


class Index:
    """Lookups over one rulebook, built once and shared by every check.

    ``Rulebook.get`` walks every declaration; a check that called it per cell or per
    row would be quadratic.  The index answers the same questions from dictionaries,
    and has the ``get(kind, name)`` shape of ``Rulebook`` so ``dsl.tables.result_parts``
    and ``cell_worth`` accept it.
    """

    def __init__(self, rulebook: Rulebook) -> None:
        self.rulebook = rulebook
        self.declarations: list[Declaration] = list(rulebook.walk())

    def of_kind(self, kind: str) -> tuple[Declaration, ...]:
        return self.rulebook.of_kind(kind)

    def get(self, kind: str, name: str) -> Declaration | None:
        return self.rulebook.get(kind, name)

    def names(self, kind: str) -> list[str]:
        return [d.name for d in self.of_kind(kind)]

    @functools.cached_property
    def tables(self) -> list[TableView]:
        return [TableView.from_declaration(d) for d in self.of_kind("table")]

    @functools.cached_property
    def provenance(self) -> list[tuple[Declaration, Provenance]]:
        """Every provenance in the rulebook with the declaration it belongs to."""
        return [(decl, prov) for decl in self.declarations for prov in iter_provenance(decl)]

    @functools.cached_property
    def sections(self) -> dict[str, Declaration]:
        """Declared sections by name and by label, for matching cites."""
        out: dict[str, Declaration] = {}
        for decl in self.of_kind("section"):
            out.setdefault(decl.name, decl)
            if decl.label:
                out.setdefault(decl.label, decl)
        return out

    def cited_sections(self, cite: str) -> list[Declaration]:
        """The declared sections a cite names: itself, then each enclosing one (``11.2 (4)`` → 11.2, 11)."""
        candidates = [cite, *(cite[: m.start()] for m in reversed(list(SECTION_SEPARATORS.finditer(cite))))]
        return [self.sections[c] for c in candidates if c in self.sections]

def iter_provenance(decl: Declaration) -> Iterator[Provenance]:
    """The provenance of a declaration's header, of each of its properties and of each row."""
    yield decl.provenance
    for prop in decl.properties:
        yield prop.provenance
    for row in decl.rows:
        yield row.provenance




index = per_rulebook(Index)
"""The shared ``Index`` of a rulebook."""


def describe(decl: Declaration) -> str:
    """How messages name a declaration: ``table 'crt'``; an unnamed singleton by its label or as ``the sequence``."""
    if decl.name == decl.kind:
        return f"{decl.kind} {decl.label!r}" if decl.label else f"the {decl.kind}"
    return f"{decl.kind} {decl.name!r}"


def ref_of(decl: Declaration, prop: str, key: str) -> str | None:
    """The name a property's reference holds (``side`` of a unit), or ``None``."""
    found = decl.first(prop)
    value = found.get(key) if found is not None else None
    return None if value is None else str(value)


@check("E121", "unknown-section-cite")
def unknown_section_cite(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `§"…"` cite that names no declared `section`, by name or label. A cite of a
    subsection (`§"11.2 (4)"`) is accepted when `11.2` or `11` is declared. Only runs when
    the rulebook declares sections at all.

    ## Why is this bad?
    Cites are how a reader checks a rule against the source, and how `I603` finds
    sections nothing encodes. A cite of an undeclared section is usually a typo and
    leaves the real section looking uncovered.

    ## Example
    ```
    section 8.4 "Retreats"
    result R §"8.5"
    ```
    Use instead: `result R §"8.4"`, or declare `section 8.5`.
    """
    idx = index(rb)
    if not idx.sections:
        return
    for _, prov in idx.provenance:
        for cite in prov.sections:
            if not idx.cited_sections(cite.text):
                yield diagnostic("E121", cite.span, f"cite of undeclared section {cite.text!r}",
                                 did_you_mean(cite.text, idx.sections) or "declare the section, or cite a declared one")


@check("E122", "unit-without-side")
def unit_without_side(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a unit with neither a `side` nor a `nationality` (which gives the side), when
    the rulebook declares more than one side.

    ## Why is this bad?
    The engine cannot tell who owns the counter: who may move it, who scores for it.

    ## Example
    ```
    unit rifle "Rifle Company" {
        attack 2
    }
    ```
    Use instead: add `side blue` or `nationality navy`.
    """
    idx = index(rb)
    sides = idx.names("side")
    if len(sides) < 2:
        return
    for unit in idx.of_kind("unit"):
        if not unit.has("side") and not unit.has("nationality"):
            yield diagnostic("E122", unit.name_span, f"unit {unit.name!r} has no side",
                             f"add 'side NAME' or 'nationality NAME' ({', '.join(sides)})")


@check("E123", "unit-without-movement")
def unit_without_movement(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a unit without a `movement` class when the rulebook declares movement classes.

    ## Why is this bad?
    Movement costs, allowed terrain and stop rules all hang on the class; a unit without
    one cannot move (a static unit should say so with a class that `never moves`).

    ## Example
    ```
    movement foot "Foot"
    unit rifle "Rifle" {
        side blue
    }
    ```
    Use instead: add `movement foot` to the unit.
    """
    idx = index(rb)
    classes = idx.names("movement")
    if not classes:
        return
    for unit in idx.of_kind("unit"):
        if not unit.has("movement"):
            yield diagnostic("E123", unit.name_span, f"unit {unit.name!r} has no movement class",
                             f"add 'movement NAME' ({', '.join(classes)})")


@check("E124", "bad-dice-name")
def bad_dice_name(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `dice` declaration whose name is not dice notation (`d6`, `2d6`, `d10`).

    ## Why is this bad?
    The name is how the engine knows what to roll: `dice six` gives it no faces, so table
    rows cannot be checked against the die and nothing can be rolled.

    ## Example
    `dice die` → `dice d6`.  A roll throws at most 100 dice of at most 1000 faces each.
    """
    for decl in index(rb).of_kind("dice"):
        if read_dice(decl.name) is None:
            yield diagnostic("E124", decl.name_span, f"dice {shorten(decl.name)!r} is not dice notation",
                             f"name dice as rolled: d6, 2d6, d10 (at most {MAX_DICE} dice of {MAX_FACES} faces)")


@check("E125", "tag-cycle")
def tag_cycle(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports tags whose `within` parents lead back to the tag itself.

    ## Why is this bad?
    `within` says "everything with this tag also has these tags"; a circle makes the
    tags mean the same thing, which is almost always a slip (the parent named the child).

    ## Example
    ```
    tag infantry "Infantry" {
        within foot
    }
    tag foot "Foot" {
        within infantry
    }
    ```
    Use instead: keep `within` on the narrower tag only.
    """
    parents: dict[str, list] = {}
    for tag in index(rb).of_kind("tag"):
        parents[tag.name] = [ref for prop in tag.all("within") for ref in prop.get("parents", ())]
    state: dict[str, int] = {}  # 1 on the path, 2 finished
    for start in parents:
        if start in state:
            continue
        path: list[str] = [start]
        state[start] = 1
        stack = [iter(parents[start])]
        while stack:
            ref = next(stack[-1], None)
            if ref is None:
                stack.pop()
                state[path.pop()] = 2
                continue
            if ref.name not in parents:
                continue
            seen = state.get(ref.name)
            if seen == 1:
                loop = path[path.index(ref.name):] + [ref.name]
                yield diagnostic("E125", ref.span, f"tag {ref.name!r} is within itself: {' -> '.join(loop)}",
                                 "remove one of the 'within' lines")
            elif seen is None:
                state[ref.name] = 1
                path.append(ref.name)
                stack.append(iter(parents[ref.name]))


@check("E126", "factor-all-not-allowed")
def factor_all_not_allowed(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a counter whose factor is `all` when the factor does not declare `allows all`.

    ## Why is this bad?
    `all` means "unlimited" (aircraft movement). For a factor the engine sums or compares
    (attack, defence) it has no value, so combat with the counter cannot be resolved.

    ## Example
    ```
    factor attack "Attack"
    unit gunship "Gunship" {
        attack all
    }
    ```
    Use instead: give a number, or declare the factor with `allows all`.
    """
    idx = index(rb)
    for decl in (*idx.of_kind("unit"), *idx.of_kind("marker")):
        for prop in decl.properties:
            if not prop.name.startswith("factor:") or prop.get("value") != "all":
                continue
            name = prop.name.split(":", 1)[1]
            factor = idx.get("factor", name)
            if factor is not None and not factor.has("allows"):
                yield diagnostic("E126", prop.words[1].span,
                                 f"factor {name!r} of {describe(decl)} is 'all' but the factor does not allow it",
                                 f"add 'allows all' to factor {name!r} or give a number")


@check("E127", "unit-side-conflict")
def unit_side_conflict(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a unit whose `side` differs from the side of its `nationality`.

    ## Why is this bad?
    The counter would belong to one side by one rule and to the other by another; which
    player owns it depends on which line the engine reads first.

    ## Example
    ```
    nationality guards "Guards" {
        side red
    }
    unit regiment "Regiment" {
        side blue
        nationality guards
    }
    ```
    Use instead: drop the `side` line; the nationality gives it.
    """
    idx = index(rb)
    for unit in idx.of_kind("unit"):
        side, nationality = ref_of(unit, "side", "side"), ref_of(unit, "nationality", "nationality")
        if side is None or nationality is None:
            continue
        owner = idx.get("nationality", nationality)
        other = ref_of(owner, "side", "side") if owner is not None else None
        if other is not None and other != side:
            yield diagnostic("E127", unit.first("side").span,
                             f"unit {unit.name!r} is on side {side!r} but its nationality {nationality!r} "
                             f"fights for {other!r}", "remove the 'side' line; the nationality gives the side")



@check("E128", "two-eliminated-boxes")
def two_eliminated_boxes(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a second `box` that says `holds eliminated`.

    ## Why is this bad?
    Eliminated units go to the one box that holds them; with two, the rulebook does not say
    which (a unit eliminated once cannot be in both).

    ## Example
    ```
    box dead "Dead pile" {
        holds eliminated
    }
    box cemetery "Cemetery" {
        holds eliminated
    }
    ```
    Use instead: one box with `holds eliminated`; move units on from it with a procedure.
    """
    holding = [d for d in index(rb).of_kind("box") if d.has("holds")]
    for decl in holding[1:]:
        yield diagnostic("E128", decl.first("holds").span, f"box {decl.name!r} holds eliminated units, and so "
                         f"does box {holding[0].name!r}", f"keep 'holds eliminated' on one box (first at "
                         f"{holding[0].first('holds').span})")


@check("E129", "player-count-mismatch")
def player_count_mismatch(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a rulebook header whose `players N` is not the number of `side` declarations.

    ## Why is this bad?
    The engine seats one player per side: the header would promise a game the rules cannot
    give (a side missing, or one too many).

    ## Example
    ```
    rulebook "Duel" {
        players 3
    }
    side blue "Blue"
    side red "Red"
    ```
    Use instead: `players 2`, or declare the third side.
    """
    sides = index(rb).of_kind("side")
    for header in index(rb).of_kind("rulebook"):
        line = header.first("players")
        if line is not None and line.get("count") != len(sides):
            yield diagnostic("E129", line.span, f"the rulebook says 'players {line.get('count')}', but declares "
                             f"{len(sides)} side{'s' if len(sides) != 1 else ''}",
                             "one player per side: make the count and the sides agree")


def _phases_around(rulebook: Rulebook) -> dict[str, frozenset[str]]:
    """Each phase or step of the sequence with the names of itself and the phases around it: what
    runs while a line of it runs (the flow's ``ctx.running`` then); a name written twice gets both
    its paths."""
    out: dict[str, frozenset[str]] = {}

    def walk(decl: Declaration, above: frozenset[str]) -> None:
        for child in decl.children:
            if child.kind in ("phase", "step"):
                names = above | {child.name}
                out[child.name] = out.get(child.name, frozenset()) | names
                walk(child, names)

    for sequence in rulebook.of_kind("sequence"):
        walk(sequence, frozenset())
    return out


@check("E130", "award-scored-outside-its-phases")
def award_scored_outside_its_phases(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `do score AWARD…` line in a phase or step that the award's `scored during PHASE…`
    does not name (neither the step itself nor a phase around it).

    ## Why is this bad?
    `scored during` says when the award scores; a `do score` elsewhere would score nothing
    there, and the line would be ignored at play.

    ## Example
    ```
    award town_held "Town held" {
        to blue
        on held
        cells town
        points 1
        scored during victory_check
    }
    sequence {
        phase movement {
            do score town_held
        }
    }
    ```
    Use instead: score it in its phase, or name this one in `scored during`.
    """
    around = _phases_around(rb)
    for decl in index(rb).declarations:
        if decl.kind not in ("phase", "step"):
            continue
        for line in decl.all("do"):
            if not line.has("score"):
                continue
            for name in (str(n) for n in line.get("awards") or ()):
                award = rb.get("award", name)
                from ..compiled.scoring import compile_award  # here: only a rulebook that scores awards needs it

                phases = (compile_award(award).scored_during or ()) if award is not None else ()
                if phases and around.get(decl.name, frozenset()).isdisjoint(phases):
                    yield diagnostic("E130", line.span, f"{decl.kind} {decl.name!r} scores award {name!r}, which "
                                     f"is scored during {', '.join(phases)}",
                                     f"score it in {' or '.join(phases)}, or add {decl.name!r} to its "
                                     "'scored during'")


@check("E131", "size-rank-unread")
def size_rank_unread(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `rank N` line on a `size`.

    ## Why is this bad?
    No mechanic orders sizes: selectors name a size exactly (`battalion` is battalions only),
    and no rule compares one size with another, so a rank would be accepted and then ignored
    at play.

    ## Example
    ```
    size battalion "battalion" symbol II {
        rank 2
    }
    ```
    Use instead: drop the line (a `note` may keep the order the source prints); name the sizes
    a rule covers in its selectors (`of company battalion`).
    """
    for decl in index(rb).of_kind("size"):
        line = decl.first("rank")
        if line is not None:
            yield diagnostic("E131", line.span, f"size {decl.name!r} has a rank, but no rule orders sizes",
                             "remove 'rank'; name the sizes a rule covers in its selectors")


COUNTED = ("designate force", "reinforce", "refit")
"""The procedures that count the actions a side takes in a turn (``once per turn``)."""


@check("E132", "once-per-turn-not-counted")
def once_per_turn_not_counted(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports an action that says `once per turn` paid for by a procedure that does not count the
    actions a side takes (only `do designate force`, `do reinforce` and `do refit` do), or by a
    zone's `intercepts … paying`.

    ## Why is this bad?
    There the action could be taken again and again in a turn: the limit would be ignored.

    ## Example
    ```
    action supply_drop "Supply drop" {
        cost cp 1
        once per turn
    }
    sequence {
        phase logistics {
            do check supply paying supply_drop else to pool
        }
    }
    ```
    Use instead: pay for it in one of those procedures, or drop `once per turn`.
    """
    once = {d.name: d for d in index(rb).of_kind("action") if d.has("once")}
    if not once:
        return
    for decl in index(rb).declarations:
        if decl.kind in ("phase", "step"):
            lines = [(line, str(line.get("procedure"))) for line in decl.all("do")]
        elif decl.kind == "zone":
            lines = [(line, "intercepts") for line in decl.all("intercepts")]
        else:
            continue
        for line, procedure in lines:
            if procedure in COUNTED:
                continue
            for name in (str(n) for n in [line.get("action"), *(line.get("actions") or ())] if n is not None):
                if name in once:
                    yield diagnostic("E132", line.span, f"action {name!r} is taken once per turn, but "
                                     f"'{procedure}' does not count the actions a side takes",
                                     f"pay for it with {', '.join(repr(p) for p in COUNTED)}, or drop "
                                     f"'once per turn' (at {once[name].first('once').span})")
