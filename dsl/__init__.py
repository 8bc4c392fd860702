"""warbook's rules language: parse, load and lint ``.rules`` files.

Public API: ``load_rulebook(path) -> Rulebook`` and ``lint(path) -> list[Diagnostic]``.
"""

from dsl.diagnostics import Diagnostic, RulesError, Severity
from dsl.loader import load_rulebook


def lint(path) -> "list[Diagnostic]":
    """Every diagnostic for the rulebook at ``path``: loading problems and lint checks, sorted."""
    from dsl.lint import lint_path

    return lint_path(path)


__all__ = ["Diagnostic", "RulesError", "Severity", "lint", "load_rulebook"]
