"""warbook's rules language: parse, load and lint ``.rules`` files.

Public API: ``load_rulebook(path) -> Rulebook`` and ``lint(path) -> list[Diagnostic]``
(``dsl.lint`` is the linter package, callable as a function).
"""

from . import lint
from .diagnostics import Diagnostic, RulesError, Severity
from .loader import load_rulebook

__all__ = ["Diagnostic", "RulesError", "Severity", "lint", "load_rulebook"]
