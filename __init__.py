"""warbook: a declarative rules-as-data engine for board wargames.

The repository root is this package (``pyproject.toml`` maps ``warbook`` to it),
so the source keeps the design card's layout while everything installs under
one import name: ``warbook.dsl`` (text to a checked rulebook),
``warbook.interpreter`` (a rulebook and a scenario to a game), and the shipped
``rulebooks/`` and ``scenarios/`` as package data (``warbook.interpreter.catalogue``).
"""

__version__ = "0.2.0"
