"""Reading the printed notations of wargame rules into typed values.

Atoms are kept as written (``Word.text``) so tables print exactly as the source
does; these readers give them meaning when a schema pattern asks for a type.
Each reader returns ``None`` when the text is not of its kind, never raises: a run of more than
``MAX_DIGITS`` digits (past Python's limit on converting text to ``int``, or just absurd for a
printed value) is of no kind, and dice are bounded (``MAX_DICE``, ``MAX_FACES``) so a roll
stays cheap.

>>> read_range("4-5"), read_range("27+"), read_odds("3:1").ratio
(Range(low=4, high=5, text='4-5'), Range(low=27, high=None, text='27+'), Fraction(3, 1))
"""

from __future__ import annotations

import functools
import re
from fractions import Fraction
from typing import Callable, TypeVar

from attrs import frozen

MAX_DIGITS = 18
"""The most digits a number may have in a run (a 64-bit integer's worth); longer is no value."""
MAX_DICE = 100
"""The most dice one roll may throw (``100d6``)."""
MAX_FACES = 1000
"""The most faces a die may have (``d1000``)."""

_LONG_DIGITS = re.compile(rf"\d{{{MAX_DIGITS + 1}}}")
R = TypeVar("R")


def has_long_number(text: str) -> bool:
    """Whether ``text`` holds a run of more than ``MAX_DIGITS`` digits (no reader accepts it)."""
    return _LONG_DIGITS.search(text) is not None


def shorten(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis, for messages that quote a value."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _bounded(reader: Callable[[str], R | None]) -> Callable[[str], R | None]:
    """``reader``, giving ``None`` for text with an over-long number instead of converting it
    (``int()`` of more than 4,300 digits raises ``ValueError``)."""
    @functools.wraps(reader)
    def read(text: str) -> R | None:
        return None if has_long_number(text) else reader(text)
    return read


_VULGAR = {"½": Fraction(1, 2), "¼": Fraction(1, 4), "¾": Fraction(3, 4), "⅓": Fraction(1, 3), "⅔": Fraction(2, 3)}
_INT = re.compile(r"[+-]?\d+\Z")
_FRACTION = re.compile(r"(\d+)/(\d+)\Z")
_MIXED = re.compile(r"(\d*)([½¼¾⅓⅔])\Z")
_DECIMAL = re.compile(r"\d+\.\d+\Z")
_DICE = re.compile(r"(\d*)d(\d+)\Z")
_RANGE = re.compile(r"(\d+)(?:\.\.|-|–)(\d+)\Z")
_OPEN_RANGE = re.compile(r"(\d+)\s*\+\Z")
_BELOW = re.compile(r"<(\d+)\*?\Z")
_ODDS = re.compile(r"(\d+):(\d+)\Z")
_SHIFT = re.compile(r"(\d+)([LR])\Z")
_MULT = re.compile(r"[x×](\d+(?:/\d+)?|[½¼¾])\Z")
_MOD = re.compile(r"([+-])(\d+)\Z")


@frozen
class Dice:
    """A roll of ``count`` dice with ``faces`` sides each: ``d6``, ``2d6``, ``d10``."""

    count: int
    faces: int

    @property
    def low(self) -> int:
        return self.count

    @property
    def high(self) -> int:
        return self.count * self.faces

    def __str__(self) -> str:
        return f"{self.count if self.count != 1 else ''}d{self.faces}"


@frozen
class Range:
    """An inclusive range of whole numbers as printed: ``1..3``, ``4-5``, ``27+`` (open), ``<1`` (below)."""

    low: int | None
    """``None`` for "below" ranges such as ``<1``."""
    high: int | None
    """``None`` for open ranges such as ``27+``."""
    text: str

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, (int, Fraction)):
            return False
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    def overlaps(self, other: "Range") -> bool:
        lo = max(_low(self), _low(other))
        hi = min(_high(self), _high(other))
        return lo <= hi


def _low(r: Range) -> float:
    return float("-inf") if r.low is None else r.low


def _high(r: Range) -> float:
    return float("inf") if r.high is None else r.high


@frozen
class Odds:
    """An odds ratio as printed on a CRT heading: ``3:1``, ``1:2``."""

    attack: int
    defence: int
    text: str

    @property
    def ratio(self) -> Fraction:
        return Fraction(self.attack, self.defence)


@frozen
class Shift:
    """A CRT column shift: ``1L`` is ``-1``, ``2R`` is ``+2`` (left lowers the firer's power)."""

    columns: int
    text: str


@_bounded
def read_int(text: str) -> int | None:
    return int(text) if _INT.match(text) else None


@_bounded
def read_number(text: str) -> Fraction | None:
    """Whole numbers, fractions (``1/2``), vulgar fractions (``½``, ``1½``) and decimals."""
    if _INT.match(text):
        return Fraction(int(text))
    if m := _FRACTION.match(text):
        return Fraction(int(m[1]), int(m[2])) if int(m[2]) else None
    if m := _MIXED.match(text):
        return int(m[1] or 0) + _VULGAR[m[2]]
    if _DECIMAL.match(text):
        return Fraction(text)
    return None


@_bounded
def read_dice(text: str) -> Dice | None:
    if m := _DICE.match(text):
        count, faces = int(m[1] or 1), int(m[2])
        return Dice(count, faces) if 1 <= count <= MAX_DICE and 2 <= faces <= MAX_FACES else None
    return None


@_bounded
def read_range(text: str) -> Range | None:
    """A single number is a one-value range; ``a..b``/``a-b`` inclusive; ``n+`` open; ``<n`` below."""
    if _INT.match(text) and not text.startswith(("+", "-")):
        return Range(int(text), int(text), text)
    if m := _RANGE.match(text):
        low, high = int(m[1]), int(m[2])
        return Range(low, high, text) if low <= high else None
    if m := _OPEN_RANGE.match(text):
        return Range(int(m[1]), None, text)
    if m := _BELOW.match(text):
        return Range(None, int(m[1]) - 1, text)
    return None


def is_backwards_range(text: str) -> bool:
    """``6..1``: a range written high-to-low, which ``read_range`` refuses."""
    m = None if has_long_number(text) else _RANGE.match(text)
    return bool(m) and int(m[1]) > int(m[2])


@_bounded
def read_odds(text: str) -> Odds | None:
    if m := _ODDS.match(text):
        a, d = int(m[1]), int(m[2])
        return Odds(a, d, text) if a and d else None
    return None


@_bounded
def read_shift(text: str) -> Shift | None:
    if m := _SHIFT.match(text):
        n = int(m[1])
        return Shift(-n if m[2] == "L" else n, text)
    return None


@_bounded
def read_multiplier(text: str) -> Fraction | None:
    if m := _MULT.match(text):
        return read_number(m[1])
    return None


@_bounded
def read_modifier(text: str) -> int | None:
    """A signed roll or value modifier: ``+1``, ``-1``."""
    if m := _MOD.match(text):
        return int(m[2]) * (1 if m[1] == "+" else -1)
    return None


_IDENT = re.compile(r"[A-Za-z_½¼¾][\w½¼¾+\-'.*]*\Z")


def is_name(text: str) -> bool:
    """Names start with a letter, ``_`` or a vulgar fraction (``½D``) and may hold ``+ - ' . *``."""
    return bool(_IDENT.match(text)) or bool(re.match(r"\d+[A-Za-z][\w+\-]*\Z", text))
