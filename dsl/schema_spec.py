"""The machinery of the language's vocabulary: what a declaration kind and a property are.

``dsl.schema`` holds the registry of kinds (``KINDS``) and the kinds of rules about units, results,
tables and the sequence of play; ``dsl.schema_map`` the kinds of the map and of moving on it.  Both
write their kinds with ``kind_spec`` and the ``dsl.patterns`` notation here.
"""

from __future__ import annotations

from attrs import Factory, field, frozen

from .patterns import Pattern, compile_pattern

SEL = "REF(side,nationality,tag,unit,marker,movement,size,terrain)"
"""Capture type for a selector: anything a rule may apply to."""


@frozen
class PropertySpec:
    """One property: its pattern, whether it may repeat, and what it means."""

    source: str
    """The pattern as written, compiled on first use (``pattern``)."""
    doc: str
    repeat: bool = False
    name: str = field(init=False, default=Factory(lambda self: self.source.split(maxsplit=1)[0], takes_self=True))
    """The pattern's first word, its keyword (read without compiling the pattern)."""

    @property
    def pattern(self) -> Pattern:
        """The compiled pattern (``compile_pattern`` keeps it): compiled when first asked for, since a
        rulebook uses few of the schema's properties and a lint process compiles only those."""
        return compile_pattern(self.source)


@frozen
class KindSpec:
    """One declaration kind: ``header`` matches the declaration line, ``properties`` its block."""

    kind: str
    doc: str
    header_source: str
    """The header's pattern as written, compiled on first use (``header``)."""
    properties: dict[str, PropertySpec]
    rows: str | None = None
    """What table rows in the block mean, or ``None`` if rows are not allowed."""
    children: tuple[str, ...] = ()
    """Kinds that may be declared inside this one (a sequence holds phases, a phase steps)."""
    factors: bool = False
    """Whether properties may also name a declared ``factor`` (``attack 2``)."""
    singleton: bool = False
    """At most one per rulebook; the name may be omitted."""
    top_level: bool = True

    @property
    def header(self) -> Pattern:
        """The header's compiled pattern, compiled when first asked for (as ``PropertySpec.pattern``)."""
        return compile_pattern(self.header_source)


def props(*specs: tuple) -> dict[str, PropertySpec]:
    out: dict[str, PropertySpec] = {}
    for spec in specs:
        source, doc, *flags = spec
        prop = PropertySpec(source, doc, repeat="repeat" in flags)
        if prop.name in out:
            # Several patterns for one property: keep them as alternatives.
            prev = out[prop.name]
            prop = PropertySpec(_alternatives(prev.source, source), f"{prev.doc} {doc}",
                                repeat=prev.repeat or prop.repeat)
        out[prop.name] = prop
    return out


def _alternatives(a: str, b: str) -> str:
    head_a, rest_a = a.split(" ", 1) if " " in a else (a, "")
    head_b, rest_b = b.split(" ", 1) if " " in b else (b, "")
    assert head_a == head_b
    return f"{head_a} ( {_strip(rest_a)} | {_strip(rest_b)} )"


def _strip(rest: str) -> str:
    rest = rest.strip()
    if rest.startswith("( ") and rest.endswith(" )") and rest.count("(") == 1:
        return rest[2:-2]
    return rest


COMMON = props(
    ("text <text:TEXT>", "The rule's printed wording, shown to players.", "repeat"),
    ("note <text:TEXT>", "A remark for designers; not shown in play.", "repeat"),
    ("requires option <option:REF(option)>",
     "Only in force when the named optional rule is on. With the option off an action is not offered, a "
     "combat not fought, a phase or step skipped, an event does nothing, an award, placement, spotting, "
     "stacking or zone does not apply; other kinds refuse the line (E135)."),
)


def kind_spec(kind: str, doc: str, header: str, *properties: tuple, **kw) -> KindSpec:
    """A kind's spec: its header pattern and its properties (with the common ones)."""
    return KindSpec(kind, doc, header, {**COMMON, **props(*properties)}, **kw)


NAMED = "<name:NAME> [<label:TEXT>]"
"""A named declaration's header after its kind: a name and an optional label."""
