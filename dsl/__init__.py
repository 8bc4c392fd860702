"""warbook's rules language: parse, load and lint ``.rules`` files.

Public API: ``load_rulebook(path) -> Rulebook`` and ``lint(path) -> list[Diagnostic]``
(``dsl.lint`` is the linter package, callable as a function); ``Linter`` lints again and again,
keeping parsed files (an editor, a language server).
"""

from . import lint
from .diagnostics import Diagnostic, RulesError, Severity
from .lint.linter import Linter
from .loader import load_rulebook

__all__ = ["Diagnostic", "Linter", "RulesError", "Severity", "lint", "load_rulebook"]
