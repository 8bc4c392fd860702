"""How a map picture looks: a colour for each terrain, a fill pattern for each cell tag, a line
style for each feature, a colour for each side.

Nothing here knows a game.  A colour is read from the words of a terrain's name, label and tags
(``WORDS``: the cartographer's conventions every wargame map follows: water blue, woods green,
hills brown, towns grey), else taken in turn from a palette; terrains that read as the same word
get lighter and darker shades of it, so no two terrains of a map share a colour.  Sides are
coloured by the words of their names when those name a colour, else in turn.

>>> terrain_colours([("clear", "Clear", ()), ("jungle", "Jungle", ()), ("lake", "Lake", ())])
{'clear': '#eef0d8', 'jungle': '#3f7f3a', 'lake': '#7fb2e0'}
>>> side_colours(["red", "blue"])
{'red': '#c0392b', 'blue': '#1f5fbf'}
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

WORDS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("sea", "ocean", "seas", "lake", "water", "bay"), "#7fb2e0"),
    (("coast", "coastal", "shore", "beach"), "#b5d3e8"),
    (("river", "stream", "canal", "ford", "creek"), "#5b9bd5"),
    (("swamp", "marsh", "bog", "mangrove", "wetland"), "#7fb8a4"),
    (("jungle", "forest", "wood", "woods", "trees"), "#3f7f3a"),
    (("grass", "scrub", "brush", "bush", "heath"), "#a9cf78"),
    (("paddy", "paddies", "rice", "field", "fields", "farm", "crops"), "#d6e28a"),
    (("mountain", "mountains", "peak", "alpine"), "#8d6e58"),
    (("hill", "hills", "rough", "upland", "ridge", "broken"), "#c9a878"),
    (("city", "urban"), "#8c8c96"),
    (("town", "village", "hamlet", "settlement"), "#b8a8a0"),
    (("road", "track", "highway", "bridge", "rail", "railway"), "#e0c9a0"),
    (("sand", "desert", "dune"), "#ecd9a0"),
    (("base", "bunker", "fort", "fortress", "camp"), "#8a8f5a"),
    (("landing", "lz", "airfield", "airstrip", "port"), "#d9d2c4"),
    (("clear", "open", "plain", "plains", "land", "flat"), "#eef0d8"),
)
"""Words (whole words of a terrain's name, label or tags) and the colour they read as, first match wins."""

PALETTE = ("#f0a6c8", "#c9a6f0", "#f0d36b", "#f2a36b", "#9fe0c8", "#e07a7a", "#b0b0b0", "#7ad0f0")
"""Colours for terrains no word names, in turn: hues the words leave free (pink, lavender, gold …)."""

MIN_DISTANCE = 20.0
"""How far apart (in RGB) two terrains' colours must be; a closer one takes its next shade."""

SIDE_WORDS = {"blue": "#1f5fbf", "red": "#c0392b", "green": "#2e8b57", "black": "#333333", "white": "#f4f4f4",
              "yellow": "#d4ac0d", "grey": "#7f8c8d", "gray": "#7f8c8d", "orange": "#d35400", "purple": "#7d3c98",
              "brown": "#8b5a2b"}
SIDE_PALETTE = ("#1f5fbf", "#c0392b", "#2e8b57", "#7d3c98", "#d35400", "#5d6d7e")
"""Sides whose names name no colour take these in turn (the first side blue, the second red)."""

PATTERNS = ("hatch", "dots", "waves", "cross", "backhatch", "rings", "vertical")
"""Fill patterns for cell tags, in turn (``picture.pattern_defs`` draws them)."""

FEATURE_WORDS: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (("river", "stream", "canal", "water", "creek", "link"), "#1f6fc0", ""),
    (("rail", "railway", "railroad"), "#222222", "5 3"),
    (("road", "track", "highway", "trail"), "#8b4513", ""),
    (("wall", "cliff", "escarpment", "ridge"), "#5a3a1a", "2 2"),
)
"""Features by word: line colour and dash pattern; others are drawn dark grey, dashed."""


def words(*texts: str) -> set[str]:
    """The lower-case words of texts (``major_river`` and ``Major River`` give ``major``, ``river``)."""
    return {w for text in texts for w in re.split(r"[^a-z0-9]+", text.lower()) if w}


def _by_word(said: set[str]) -> str | None:
    for names, colour in WORDS:
        if said & set(names):
            return colour
    return None


def shade(colour: str, amount: float) -> str:
    """``colour`` lightened (``amount`` > 0) or darkened (< 0) by that share of the way to white or black."""
    channels = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    target = 255 if amount > 0 else 0
    mixed = [round(c + (target - c) * abs(amount)) for c in channels]
    return "#" + "".join(f"{c:02x}" for c in mixed)


SHADES = (0.0, -0.22, 0.3, -0.4, 0.5, -0.55)
"""How a terrain's colour is varied when another terrain already has it (or one too close)."""


def distance(a: str, b: str) -> float:
    """How far apart two colours are, in RGB."""
    return sum((int(a[i:i + 2], 16) - int(b[i:i + 2], 16)) ** 2 for i in (1, 3, 5)) ** 0.5


def terrain_colours(terrains: Iterable[tuple[str, str, Iterable[str]]]) -> dict[str, str]:
    """A colour for each terrain (name, label, tags), in the order given: by word, else the next
    palette colour, in the first shade at least ``MIN_DISTANCE`` from every colour given so far."""
    out: dict[str, str] = {}
    spare = 0
    for name, label, tags in terrains:
        base = _by_word(words(name, label)) or _by_word(words(*tags))
        if base is None:
            free = [c for c in PALETTE[spare:] + PALETTE[:spare]
                    if all(distance(c, taken) >= MIN_DISTANCE for taken in out.values())]
            base = free[0] if free else PALETTE[spare % len(PALETTE)]
            spare = (PALETTE.index(base) + 1) % len(PALETTE)
        shades = [shade(base, amount) if amount else base for amount in SHADES]
        out[name] = next((c for c in shades if all(distance(c, taken) >= MIN_DISTANCE for taken in out.values())),
                         shades[-1])
    return out


def side_colours(sides: Sequence[str]) -> dict[str, str]:
    """A colour for each side: the colour its name says, else the next of ``SIDE_PALETTE`` not taken."""
    out: dict[str, str] = {}
    for side in sides:
        named = next((SIDE_WORDS[w] for w in words(side) if w in SIDE_WORDS), None)
        if named is not None and named not in out.values():
            out[side] = named
    free = [c for c in SIDE_PALETTE if c not in out.values()]
    for side in sides:
        if side not in out:
            out[side] = free.pop(0) if free else "#555555"
    return {side: out[side] for side in sides}


def feature_style(name: str, tags: Iterable[str] = ()) -> tuple[str, str]:
    """(colour, dash array) of a feature's line, by the words of its name and tags."""
    said = words(name, *tags)
    for names, colour, dash in FEATURE_WORDS:
        if said & set(names):
            return colour, dash
    return "#444444", "6 3"


def ink_on(colour: str) -> str:
    """Text colour readable on ``colour``: light on a dark fill, dark on a light one.

    >>> ink_on("#3f7f3a"), ink_on("#eef0d8")
    ('#f0f0f0', '#555555')
    """
    red, green, blue = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return "#f0f0f0" if 0.2126 * red + 0.7152 * green + 0.0722 * blue < 0.45 else "#555555"


def possessive(name: str) -> str:
    """``Allies'`` and ``Red's``: a side's name owning its view.

    >>> possessive("Allies"), possessive("Red")
    ("Allies'", "Red's")
    """
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def tag_ink(tag: str) -> str:
    """The colour a tag's pattern is drawn in: blue for a tag that says water, else dark grey."""
    return "#1f5fa0" if words(tag) & {"river", "water", "sea", "canal", "coastal", "lake", "stream"} else "#3a3a3a"


def abbreviation(label: str, limit: int = 4) -> str:
    """A counter's short text: the initials of a label of several words, else its first letters.

    >>> abbreviation("Infantry Company"), abbreviation("Trooper"), abbreviation("Light Tank Battalion")
    ('IC', 'Troo', 'LTB')
    """
    parts = [p for p in re.split(r"[\s_\-/]+", label) if p]
    if len(parts) > 1:
        return "".join(p[0] for p in parts)[:limit].upper()
    return label[:limit]
