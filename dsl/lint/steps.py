"""Checks of multi-step counters: the ``step`` lines of a unit type, and the effects and procedure
that take or give back steps (E138, E226, W511).

Limits: W511 compares each reduced step with the step before, factor by factor, and does not weigh
one factor against another (a reduced side with less attack and more defence is reported for its
defence).  E226 asks whether any unit type the line may apply to has steps; it does not follow
which units a scenario sets up.
"""

from __future__ import annotations

from typing import Iterator

from ..compiled.units import compile_unit, step_pairs, tag_parents
from ..conditions import Names
from ..diagnostics import Diagnostic, diagnostic
from ..effects import Restore, StepLoss, compile_effects
from ..model import Declaration, Rulebook
from ..values import read_number
from . import check
from .lookups import per_rulebook
from .names import describe


@per_rulebook
def _unit_types(rb: Rulebook) -> tuple:
    """Every unit type compiled, once per lint run (two checks read them)."""
    parents = tag_parents(rb)
    return tuple(compile_unit(rb, parents, decl) for decl in rb.of_kind("unit"))


def _points_factors(rb: Rulebook) -> set[str]:
    """The factors movement classes count points by (read once per unit type, never per step)."""
    out = set()
    for movement in rb.of_kind("movement"):
        points = movement.first("points")
        factor = points.get("factor") if points is not None else None
        if factor is not None:
            out.add(str(factor))
    return out


@check("E138", "bad-step-line")
def bad_step_line(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a unit's `step N FACTOR VALUE …` line that cannot be read: steps not numbered 2, 3 …
    in the order written, words that do not pair up as a factor and a number, a factor that is
    not declared, that the unit does not print (and has no default), that it prints as `none`
    or `all`, or the factor its movement class counts points by.

    ## Why is this bad?
    The counter's reduced side would show factors the rules did not print: a step missed or
    counted twice, a value dropped. A movement allowance is read per unit type, never per step,
    so a reduced side that moved differently would silently move as the full side.

    ## Example
    ```
    unit brigade "Brigade" {
        attack 6
        step 3 attack 3
    }
    ```
    Use instead: `step 2 attack 3` (the printed factors are step 1).
    """
    factors = {f.name for f in rb.of_kind("factor")}
    defaults = {f.name for f in rb.of_kind("factor") if f.has("default")}
    points = _points_factors(rb)
    for unit in rb.of_kind("unit"):
        printed = {p.name.split(":", 1)[1]: p for p in unit.properties if p.name.startswith("factor:")}
        for expected, line in enumerate(unit.all("step"), start=2):
            number = line.get("number")
            if number != expected:
                yield diagnostic("E138", line.words[1].span, f"unit {unit.name!r}: step {number} written where "
                                 f"step {expected} is next", "number the steps 2, 3 … in order (step 1 is the "
                                 "printed side)")
            pairs, even = step_pairs(line)
            if not even:
                yield diagnostic("E138", line.words[-1].span, f"unit {unit.name!r}: step {number} does not pair "
                                 "its words as a factor and a number", "write 'step N FACTOR VALUE …'")
            for name, value, at in pairs:
                yield from _pair_problems(unit, line, name, value, at, factors, points, printed, defaults)


def _pair_problems(unit: Declaration, line, name: str, value, at: int, factors: set[str], points: set[str],
                   printed: dict, defaults: set[str]) -> Iterator[Diagnostic]:
    where = f"unit {unit.name!r}: step {line.get('number')}"
    if name not in factors:
        yield diagnostic("E138", line.words[at].span, f"{where} names {name!r}, which is not a declared factor",
                         "declare it first: factor NAME \"Label\"")
    elif name in points:
        yield diagnostic("E138", line.words[at].span, f"{where} changes {name!r}, the factor its movement class "
                         "counts points by, which is read per unit type", "a step keeps the full side's movement")
    elif name not in printed and name not in defaults:
        yield diagnostic("E138", line.words[at].span, f"{where} changes {name!r}, which the unit does not print "
                         "and which has no default", f"print it on the unit ('{name} N') first")
    elif name in printed and read_number(printed[name].words[1].text) is None:
        yield diagnostic("E138", line.words[at].span, f"{where} changes {name!r}, which the unit prints as "
                         f"{printed[name].words[1].text!r}", "a step changes numbers only")
    if value is None:
        yield diagnostic("E138", line.words[at + 1].span, f"{where}: {line.words[at + 1].text!r} is not a number "
                         f"for {name!r}", "give a number (3, 1/2)")


@check("W511", "reduced-step-stronger")
def reduced_step_stronger(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a unit's reduced step that shows a factor higher than the step before it.

    ## Why is this bad?
    Losing a step should weaken a counter; a higher value is usually the full and reduced sides
    swapped, or a misread counter.

    ## Example
    ```
    unit brigade "Brigade" {
        attack 3
        step 2 attack 6
    }
    ```
    Use instead: the full side's factors on the unit, the reduced side's on `step 2`.
    """
    for unit_type in _unit_types(rb):
        before = dict(unit_type.factors)
        for line, step in zip(unit_type.decl.all("step"), unit_type.steps):
            after = dict(step)
            for name, value, at in step_pairs(line)[0]:
                old = before.get(name)
                if value is not None and isinstance(old, type(value)) and value > old:
                    yield diagnostic("W511", line.words[at + 1].span,
                                     f"unit {unit_type.name!r}: step {line.get('number')} shows {name} {value}, "
                                     f"more than the {old} of the step before",
                                     "a reduced side is weaker than the side before it")
            before = after


@check("E226", "step-effect-on-single-step-type")
def step_effect_on_single_step_type(rb: Rulebook) -> Iterator[Diagnostic]:
    """## What it does
    Reports a `step loss` or `restore` effect, or a `do replace steps` line, that can only ever
    apply to unit types with one step: its `of` selectors name no type with `step` lines, or
    (without `of`) no unit type of the rulebook has any.

    ## Why is this bad?
    A step loss on a one-step type is an elimination written as something else, and restoring
    or replacing steps of one-step types never does anything: the line reads as a rule the game
    does not have.

    ## Example
    ```
    unit rifles "Rifles" {
        attack 2
    }
    result DS "Defender step loss" {
        effect step loss 1 defenders of rifles
    }
    ```
    Use instead: `effect eliminate 1 defenders of rifles`, or give `rifles` a `step 2 …` line.
    """
    stepped = [t for t in _unit_types(rb) if t.steps]
    names = Names(rb)

    def reaches_steps(what) -> bool:
        selectors = [str(w) for w in what or ()]
        return any(not selectors or t.matches(selectors) for t in stepped)

    for kind in ("result", "event", "unit", "marker", "option"):
        for decl in rb.of_kind(kind):
            for effect in compile_effects(decl, names):
                if isinstance(effect, (StepLoss, Restore)) and not reaches_steps(effect.what):
                    yield diagnostic("E226", effect.line.words[1].span, f"effect {effect.text!r} of "
                                     f"{describe(decl)} can only apply to unit types with one step",
                                     _hint(effect.what))
    for decl in rb.walk():
        if decl.kind in ("phase", "step"):
            for line in decl.all("do"):
                if str(line.get("procedure")) == "replace steps" and not reaches_steps(line.get("what")):
                    yield diagnostic("E226", line.words[1].span, f"'do replace steps' of {describe(decl)} can only "
                                     "apply to unit types with one step", _hint(line.get("what")))


def _hint(what) -> str:
    return ("none of the types its selectors name has a 'step 2 …' line" if what
            else "no unit type of the rulebook has a 'step 2 …' line")
