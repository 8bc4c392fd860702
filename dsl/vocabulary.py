"""The verbs of effects and procedures: generic mechanics the interpreter knows.

Results, events and markers say what they do with ``effect …`` lines; phases
say what happens in them with ``do …`` lines.  Both are checked against these
registries, whose patterns use the ``dsl.patterns`` notation.  Adding a
mechanic means adding a verb here (and teaching the interpreter it), never
naming a game.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from .patterns import Pattern, compile_pattern
from .schema import SEL


class Patterns(Mapping[str, Pattern]):
    """A registry of patterns by name, each compiled when first read (``compile_pattern`` keeps it):
    a rulebook uses a few of the verbs, and a lint process compiles only those."""

    def __init__(self, sources: dict[str, str]) -> None:
        self.sources = sources
        """Each name's pattern as written."""

    def __getitem__(self, name: str) -> Pattern:
        return compile_pattern(self.sources[name])

    def __iter__(self) -> Iterator[str]:
        return iter(self.sources)

    def __len__(self) -> int:
        return len(self.sources)


def leading_source_words(source: str) -> str:
    """The literal words a pattern's text starts with, read without compiling it (as
    ``leading_words`` reads them from the compiled pattern)."""
    words = []
    for word in source.split():
        if word[0] in "<[(|)]":
            break
        words.append(word)
    return " ".join(words)


ROLES = ("attackers", "defenders", "firers", "targets", "owner", "opponent", "both", "self", "enemy")
"""Who an effect applies to, relative to the table roll or event that produced it."""
_ROLE = "(" + " | ".join(ROLES) + ")"
_COUNT = "(all | half | <count:INT>)"
_AMOUNT = "(<amount:INT> | <roll:DICE>)"
_WHEN = "[when <condition:WORD>+]"
"""A condition, read by ``dsl.conditions`` (its grammar is in that module's docstring)."""

EFFECTS: Mapping[str, Pattern] = Patterns({
    source.split(maxsplit=1)[0]: source
    for source in [
        f"eliminate {_COUNT} [other] {_ROLE} [of <what:{SEL}>+] {_WHEN}",
        f"refit {_COUNT} [other] {_ROLE} [of <what:{SEL}>+] [to <box:REF(box)>] {_WHEN}",
        f"retreat {_ROLE} <distance:INT> {_WHEN}",
        f"stand {_ROLE}",
        f"break off {_ROLE} {_WHEN}",
        f"abandon mission {_ROLE} {_WHEN}",
        f"gain <resource:REF(resource)> {_AMOUNT} [to {_ROLE}] {_WHEN}",
        f"lose <resource:REF(resource)> {_AMOUNT} [to {_ROLE}] [minimum <floor:INT>] {_WHEN}",
        f"reduce income <resource:REF(resource)> {_AMOUNT} [minimum <floor:INT>] {_WHEN}",
        f"multiply gains <resource:REF(resource)> by <factor:INT> this turn [for {_ROLE}] {_WHEN}",
        f"reveal {_ROLE} [units] in (one cell | this cell | <range:INT> cells) {_WHEN}",
        f"roll <dice:REF(dice)> on <table:REF(table)> {_WHEN}",
        f"pick reinforcement free [for {_ROLE}] [from <box:REF(box)>] {_WHEN}",
        f"return <count:INT> [of <what:{SEL}>+] {_ROLE} to <box:REF(box)> {_WHEN}",
        f"attack {_ROLE} [of <what:{SEL}>+] (at <odds:ODDS> | with <strength:INT>) [ignoring terrain] [no return fire]"
        f" [losses to lowest <factor:REF(factor)>] {_WHEN}",
        f"modify <what:WORD> roll <modifier:MOD> [for {_ROLE}] [once] {_WHEN}",
        f"shift <shift:SHIFT> [for {_ROLE}] {_WHEN}",
        f"supply {_ROLE} [once] {_WHEN}",
        f"remove self [to <box:REF(box)>] {_WHEN}",
        f"score <award:REF(award)> {_WHEN}",
        f"stop {_ROLE} [of <what:{SEL}>+] {_WHEN}",
        f"step loss <count:INT> [other] {_ROLE} [of <what:{SEL}>+] {_WHEN}",
        f"strength loss {_ROLE} <factor:REF(factor)> (<amount:INT>"
        f" | at least (attackers | defenders | firers | targets) <measure:REF(factor)> lost) {_WHEN}",
        f"restore <count:INT> (step | steps) [to] {_ROLE} [of <what:{SEL}>+] {_WHEN}",
        f"mark {_ROLE} <status:REF(status)> {_WHEN}",
        f"set weather <weather:REF(weather)> {_WHEN}",
        "no effect",
    ]
})
"""Each effect verb (its first word) to its pattern."""

_PROCEDURE_SOURCES = [
    "declare <mode:REF(mode)>",
    f"move [only <only:{SEL}>+] [using <using:REF(movement)>] [order by <factor:REF(factor)> (ascending | descending)]"
    " [bringing in arrivals]",
    "bombard with <combat:REF(combat)> [held for fire at aircraft]",
    "fire at aircraft with <table:REF(table)> [when <condition:WORD>+]",
    "fight <combat:REF(combat)>",
    "roll events on <table:REF(table)>",
    "gain income <resource:REF(resource)>",
    "reinforce from <box:REF(box)> paying <action:REF(action)>",
    "refit from <box:REF(box)> paying <action:REF(action)> delay <dice:REF(dice)>",
    "return refitted units",
    "reclaim markers <markers:REF(marker)>+",
    f"check supply [except <exempt:{SEL}>+] [by <trace:REF(trace)>] paying <action:REF(action)>"
    " else to <box:REF(box)>",
    "score <awards:REF(award)>+",
    "designate force paying <actions:REF(action)>+",
    f"move force [dropping off <drop:{SEL}>+]",
    "recon with <dice:REF(dice)> [adding <factor:REF(factor)>] [for <combat:REF(combat)>]",
    "commit support [of <markers:REF(marker)>+] [paying <action:REF(action)>] [by each side]",
    "resolve fire with <combat:REF(combat)>",
    "check stacking <stacking:REF(stacking)>",
    "spot with <spotting:REF(spotting)>",
    "trigger <markers:REF(marker)>+",
    f"replace steps paying <action:REF(action)> [of <what:{SEL}>+]"
    " [returning to <box:REF(box)>] [in <trace:REF(trace)>]",
    "arrivals",
    "withdrawals",
]


def leading_words(pattern: Pattern) -> str:
    """The literal words a pattern starts with (``pick reinforcement free``, ``roll events on``)."""
    words = []
    for item in pattern.items:
        if not hasattr(item, "word"):
            break
        words.append(item.word)
    return " ".join(words)


def procedure_name(leading: str) -> str:
    """A procedure's name (``roll events``) from the literal words its pattern starts with
    (``roll events on``)."""
    name = leading
    for joiner in (" on", " with", " from", " paying", " <"):
        if name.endswith(joiner):
            name = name[: -len(joiner)]
    return name



REPEAT_CONDITION = "only one side remains in the contested square"
"""The one condition a ``repeat until`` may wait for (``interpreter.flow`` evaluates it; lint
E319 refuses any other)."""

PROCEDURES: Mapping[str, Pattern] = Patterns({procedure_name(leading_source_words(source)): source
                                                 for source in _PROCEDURE_SOURCES})
"""Procedure name (its leading words) to its pattern."""


def find_procedure(words: list[str]) -> tuple[str, Pattern] | None:
    """The procedure whose name is the longest prefix of ``words``."""
    best = None
    for name in PROCEDURES:
        parts = name.split(" ")
        if words[: len(parts)] == parts and (best is None or len(parts) > len(best.split(" "))):
            best = name
    return None if best is None else (best, PROCEDURES[best])
