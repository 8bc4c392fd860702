"""Check that every name a rulebook uses is declared: the last step of loading.

Guarantees: every ``Ref`` in a property names a declaration of one of the
kinds it allows, and every factor line on a unit or marker names a declared
``factor``.  Reports unknown names with "did you mean".
"""

from __future__ import annotations

from .diagnostics import Diagnostic, diagnostic, did_you_mean, rename_fix
from .model import Rulebook
from .patterns import Ref, iter_refs
from .schema import KINDS


def resolve(rulebook: Rulebook) -> list[Diagnostic]:
    """Every unresolved name in ``rulebook``, as diagnostics."""
    names: dict[str, set[str]] = {}
    for decl in rulebook.walk():
        names.setdefault(decl.kind, set()).add(decl.name)
    factors = names.get("factor", set())
    out: list[Diagnostic] = []
    for decl in rulebook.walk():
        for prop in decl.properties:
            if prop.name.startswith("factor:"):
                factor = prop.name.split(":", 1)[1]
                if factor not in factors:
                    candidates = [*factors, *KINDS[decl.kind].properties]
                    out.append(diagnostic(
                        "E104", prop.span, f"unknown property or factor {factor!r} in {decl.kind} {decl.name!r}",
                        did_you_mean(factor, candidates) or "declare it first: factor NAME \"Label\""))
                continue
            for _, value in prop.values:
                for ref in iter_refs(value):
                    if not any(ref.name in names.get(kind, ()) for kind in ref.kinds):
                        out.append(_unknown(ref, names))
    return out


def _unknown(ref: Ref, names: dict[str, set[str]]) -> Diagnostic:
    candidates = [n for kind in ref.kinds for n in names.get(kind, ())]
    kinds = " or ".join(ref.kinds) if len(ref.kinds) <= 3 else "selector"
    return diagnostic("E101", ref.span, f"unknown {kinds} {ref.name!r}", did_you_mean(ref.name, candidates),
                      rename_fix(ref.name, candidates, ref.span))


def declared_names(rulebook: Rulebook, kind: str) -> list[str]:
    return [d.name for d in rulebook.of_kind(kind)]


