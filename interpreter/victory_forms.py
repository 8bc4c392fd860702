"""Victory forms beyond points: control of cells, and thresholds that win at once.

The ``victory`` declaration's ``control … of WHERE (at end | after turn N | at once)`` lines
(``dsl.compiled.scoring.ControlWin``) and ``first to N RESOURCE`` lines (``Threshold``):

- a control line is met by the side controlling every cell its selectors name (or at least its
  count of them; cells the ``control`` declaration does not control count for no side); when
  several sides meet it, the one controlling more of its cells; equal counts meet it for none;
- ``at end`` lines are read when the game ends (``victory.final_result``), ``after turn N`` when
  turn N ends, ``at once`` when each phase ends (``interpreter.flow``); the first line met decides;
- a threshold is met by a side whose total of the resource reaches its value, checked at every
  change of a resource (``victory.gain``), which then ends the game at once.

A decided game keeps its result in ``Context.decided`` until ``victory.final_result`` logs it.
"""

from __future__ import annotations

from attrs import evolve

from ..dsl.compiled.scoring import ControlWin, Threshold, Victory
from .citations import because
from .control import controlled_cells, held, named_cells
from .context import Context

DEFAULT_LEVEL = "Victory"
"""The label of a win whose line names no level."""


def _label(victory: Victory, level: str | None) -> str:
    found = victory.level(level) if level is not None else None
    return found.shown if found is not None else DEFAULT_LEVEL


def decide(ctx: Context, side: str, level: str | None, why: str) -> None:
    """The game is won by ``side`` at ``level`` (its label) for ``why``: it ends now."""
    victory = ctx.rules.victory
    assert victory is not None
    ctx.decided = {"winner": side, "level": _label(victory, level), "margin": 0}
    ctx.say(f"{ctx.shown('side', side)} wins: {why}", kind="victory", side=side)
    ctx.state = evolve(ctx.state, over=True)


def line_cells(ctx: Context, line: ControlWin) -> frozenset[str]:
    """The controlled cells a control line names."""
    return named_cells(ctx.rules, ctx.board, line.where) & controlled_cells(ctx.rules, ctx.board)


def control_winner(ctx: Context, line: ControlWin) -> str | None:
    """The side that meets a control line now (module docstring), or ``None``."""
    cells = line_cells(ctx, line)
    need = len(cells) if line.count is None else line.count
    if not cells or need > len(cells):
        return None
    counts = sorted(((held(ctx.state, side, cells), side) for side in ctx.rules.sides), reverse=True)
    best, side = counts[0]
    if best < need or (len(counts) > 1 and counts[1][0] == best):
        return None
    return side


def check_control(ctx: Context, when: str) -> bool:
    """Read the control lines of ``when`` (``end``, ``turn``: the turn just ended, ``once``);
    whether one decided the game."""
    victory = ctx.rules.victory
    if victory is None or ctx.decided is not None or ctx.rules.control is None:
        return False
    for line in victory.by_control:
        if line.when != when or (when == "turn" and line.turn != ctx.state.turn):
            continue
        side = control_winner(ctx, line)
        if side is not None:
            what = "all" if line.count is None else f"{line.count}"
            decide(ctx, side, line.level,
                   because(f"it controls {what} of {' '.join(line.where)}", victory.decl, line.source))
            return True
    return False


def threshold_met(ctx: Context, resource: str) -> Threshold | None:
    """The first ``first to N RESOURCE`` line a side's total now reaches (deciding the game), or ``None``."""
    victory = ctx.rules.victory
    if victory is None or ctx.decided is not None:
        return None
    for line in victory.thresholds:
        if line.resource != resource:
            continue
        for side in ctx.rules.sides:
            if ctx.state.resource(side, resource) >= line.value:
                decide(ctx, side, line.level, because(f"first to {line.value} {resource}", victory.decl,
                                                      line.source))
                return line
    return None
