"""The procedures a phase's ``do …`` lines name, one registry: ``PROCEDURES``.

Each module of this package carries out some of ``dsl.vocabulary.PROCEDURES`` and registers its
generators with ``@procedure(NAME)``; ``load_procedures`` imports every module of the package
once (``interpreter.flow`` does before a game), so the registry is complete whoever asks first.
The registry lives here, below the flow that runs it, so that a procedure never imports the flow.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from typing import Callable

from ...dsl.model import Property
from ..context import Context, Flow

Procedure = Callable[[Context, Property], Flow]
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


def missing_procedures(rulebook) -> list[Property]:
    """``do`` lines this interpreter cannot carry out yet (reported before a game starts)."""
    load_procedures()
    out = []
    for decl in rulebook.walk():
        if decl.kind in ("phase", "step"):
            out.extend(p for p in decl.all("do") if p.get("procedure") not in PROCEDURES)
    return out
