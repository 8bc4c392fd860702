"""warbook's rules language: parse, load and lint ``.rules`` files.

Public API: ``load_rulebook(path) -> Rulebook`` and ``lint(path) -> list[Diagnostic]``
(``dsl.lint`` is the linter package, callable as a function); ``Linter`` lints again and again,
keeping parsed files (an editor, a language server).
"""

from . import method_cache
from .collector import gc_paused

with gc_paused():  # what importing builds (attrs, the record classes) lives long: no collection walks it
    method_cache.install()  # before any record class below is built: attrs' methods compiled once per machine

    from . import lint
    from .diagnostics import Diagnostic, RulesError, Severity
    from .loader import load_rulebook

__all__ = ["Diagnostic", "Linter", "RulesError", "Severity", "lint", "load_rulebook"]


def __getattr__(name: str):
    """``Linter`` is imported when first asked for (importing the language imports no lint check)."""
    if name == "Linter":
        from .lint.linter import Linter

        return Linter
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
