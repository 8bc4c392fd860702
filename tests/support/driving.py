"""Driving warbook in a test: a procedure (answer its decisions in order and keep what it asked),
a whole game (random agents, ``played``), or the command line (its exit code and output).

Shared by the procedure tests, which import it by name (``pythonpath = ["tests/support"]`` in
pyproject.toml puts this folder on the import path).
"""

from warbook.interpreter.actions import Action
from warbook.interpreter.agents import RandomAgent, iter_play
from warbook.interpreter.cli import main
from warbook.interpreter.game import Game
from warbook.interpreter.rng import choice_rng


def played(where, seed: int = 3, steps: int | None = None) -> Game:
    """A game of ``where`` played by random agents (seeded by ``seed``) to its end, or until
    ``steps`` decisions have been made."""
    game = Game.new(where, seed)
    agents = {side: RandomAgent(choice_rng(seed, side)) for side in game.ctx.rules.sides}
    for _ in iter_play(game, agents):
        if steps is not None and len(game.choices) >= steps:
            break
    return game


def drive(flow, answers=()) -> list:
    """Run a procedure's flow to its end, answering each decision with the next answer, which must
    be one of its options; every answer must be used.  Returns the decisions asked."""
    decisions, left = [], list(answers)
    try:
        decision = next(flow)
        while True:
            decisions.append(decision)
            assert left, f"unexpected decision ({decision.kind}) {decision.prompt}: {options(decision)}"
            action = Action.parse(left.pop(0))
            assert action in decision.options, (str(action), options(decision))
            decision = flow.send(action)
    except StopIteration:
        pass
    assert not left, f"answers left unused: {left}"
    return decisions


def options(decision) -> list[str]:
    """A decision's options as text."""
    return [str(o) for o in decision.options]


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of one ``warbook`` command (argparse's usage errors and
    ``--version`` exit through SystemExit)."""
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def do_call(rules, procedure: str, *words: str, step: str | None = None):
    """The first ``do`` line running ``procedure`` (inside the phase or step ``step`` when given,
    with ``words`` among its words), compiled as the flow hands it to its procedure."""
    from warbook.dsl.compiled.calls import Call

    for decl in rules.rulebook.walk():
        if decl.kind not in ("phase", "step") or step is not None and decl.name != step:
            continue
        for run in rules.phase_plan(decl).runs:
            if isinstance(run, Call) and run.procedure == procedure and \
                    set(words) <= {w.text for w in run.source.words}:
                return run
    raise AssertionError(f"no do line {procedure} {' '.join(words)}" + (f" in {step}" if step else ""))
