"""A linter that lints again and again (an editor's on-save hook, a language server).

``Linter`` keeps each file's syntax tree by the digest of its text, so linting a house rule
again after an edit parses only the file that changed, not the base rulebook it extends; and
it lints an unsaved buffer (``lint(path, text=…)``) as if it were the file.  Parsing is most of
loading, so a warm re-lint costs the model and the checks.  The trees kept are bounded
(``max_files``, least recently used first out).
"""

from __future__ import annotations

import hashlib
import os
from collections import OrderedDict
from pathlib import Path

from ..ast import RulesFile
from ..diagnostics import Diagnostic, RulesError
from ..parser import parse_text
from . import LintReport, lint_report


class Linter:
    """``Linter().lint(path)`` is ``dsl.lint.lint_report(path)``, with parsed files kept between calls."""

    def __init__(self, max_files: int = 256):
        self.max_files = max_files
        self._trees: OrderedDict[tuple[str, str], RulesFile | tuple[Diagnostic, ...]] = OrderedDict()
        self.parsed = 0
        """How many texts this linter has parsed (the others came from what it keeps)."""

    def parse(self, text: str, shown: str) -> RulesFile:
        """``parser.parse_text``, answered from the trees kept when the same file had the same text."""
        key = (shown, hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest())
        found = self._trees.get(key)
        if found is None:
            self.parsed += 1
            try:
                found = parse_text(text, shown)
            except RulesError as exc:
                found = tuple(exc.diagnostics)
            self._trees[key] = found
            while len(self._trees) > self.max_files:
                self._trees.popitem(last=False)
        else:
            self._trees.move_to_end(key)
        if isinstance(found, tuple):
            raise RulesError(list(found))
        return found

    def lint(self, path: str | os.PathLike, text: str | None = None) -> LintReport:
        """Load and lint the rulebook at ``path`` (read as ``text`` when given: an unsaved buffer);
        never raises for bad input."""
        return lint_report(path, self.parse, {Path(path).resolve(): text} if text is not None else None)
