"""The procedures a phase's ``do …`` lines name, one registry: ``PROCEDURES``.

Each module of this package carries out some of ``dsl.vocabulary.PROCEDURES`` and registers its
generators with ``@procedure(NAME)``: each receives the context and the ``do`` line compiled as
its typed call (``dsl.compiled.calls``); ``load_procedures`` imports every module of the package
once (``interpreter.flow`` does before a game), so the registry is complete whoever asks first.
The registry lives here, below the flow that runs it, so that a procedure never imports the flow.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from typing import Callable

from ...dsl.compiled.calls import Call
from ..context import Context, Flow

Procedure = Callable[[Context, Call], Flow]
PROCEDURES: dict[str, Procedure] = {}


def procedure(name: str) -> Callable[[Procedure], Procedure]:
    """Register the generator that carries out ``do NAME …``."""

    def register(function: Procedure) -> Procedure:
        PROCEDURES[name] = function
        return function

    return register


@functools.cache
def load_procedures() -> None:
    """Import every module of this package (each registers its procedures), once."""
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")


def missing_procedures(rules) -> list[Call]:
    """``do`` lines of the phases in force that this interpreter cannot carry out (reported before a
    game starts)."""
    load_procedures()
    return [run for plan in rules.phase_plans() for run in plan.runs
            if isinstance(run, Call) and run.procedure not in PROCEDURES]
