"""Reading a scenario's or map's TOML: the file's text, then its tables, every failure a diagnostic.

``tomllib`` raises more than ``TOMLDecodeError``: a whole number past Python's 4,300-digit
limit on converting text to ``int`` is a bare ``ValueError``, and arrays or tables nested a
few thousand deep exhaust the recursion limit.  ``parse_toml`` turns each into a diagnostic
of the caller's code at the line it can find, and ``read_toml_text`` reads the file as the
rules loader does (``dsl.sources``: regular files of bounded size only).

Limits: ``tomllib`` gives no position for the digit limit, so the line is that of the first
run of more than 4,300 digits; nesting too deep is placed on the first line.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path
from typing import Any

from ..dsl.ast import Span
from ..dsl.diagnostics import RulesError, diagnostic
from ..dsl.sources import SourceError, read_source

_DIGIT_LIMIT = sys.get_int_max_str_digits() or 4300
_LONG_NUMBER = re.compile(rf"[0-9A-Fa-f_]{{{_DIGIT_LIMIT},}}")


def read_toml_text(path: str | Path, what: str) -> str:
    """The text of a TOML file (``what`` names it in messages: ``scenario``, ``map``).

    Raises:
        RulesError: E004 when the file is missing, is not a regular file, is too large or is
            not UTF-8 text.
    """
    shown = str(path)
    try:
        return read_source(path)
    except SourceError as exc:
        message = f"no such {what} file {shown!r}" if exc.missing else f"cannot read {what} {shown!r}: {exc.reason}"
        raise RulesError([diagnostic("E004", Span.point(shown), message)]) from None


def parse_toml(text: str, shown: str, code: str) -> dict[str, Any]:
    """The tables of a TOML text.

    Raises:
        RulesError: ``code`` (E701 maps, E704 scenarios) at the line of the first problem.
    """
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None) or 1
        raise RulesError([diagnostic(code, Span.point(shown, line), f"not valid TOML: {exc}")]) from None
    except RecursionError:
        raise RulesError([diagnostic(code, Span.point(shown), "not valid TOML: arrays or tables nested too deep",
                                     "nest arrays and inline tables a few levels at most")]) from None
    except ValueError:
        found = _LONG_NUMBER.search(text)
        line = text.count("\n", 0, found.start()) + 1 if found else 1
        column = found.start() - text.rfind("\n", 0, found.start()) if found else 1
        raise RulesError([diagnostic(code, Span(shown, line, column, line, column + 1),
                                     f"a number has more than {_DIGIT_LIMIT} digits",
                                     "write numbers of a few digits")]) from None
