"""Lint and show the shipped rulebooks
=====================================

What ``warbook lint`` and ``warbook show`` do, through the public API:
``dsl.lint(path)`` for the findings, ``dsl.load_rulebook(path)`` for the
resolved rulebook, and ``interpreter.show`` to render a declaration as text or
as the public JSON shape.

For every rulebook in ``rulebooks/`` and every house rule in
``examples/house_rules/``, it prints the title, the number of findings by
severity, and the first table as a grid. A rulebook that does not load is
reported with its diagnostics and skipped. Run it from anywhere::

    python examples/lint_and_show.py

It exits 0 once every file has been tried; CI runs it to keep the example
working.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from warbook.dsl import RulesError, lint, load_rulebook
from warbook.interpreter.show import declaration_json, declaration_text

ROOT = Path(__file__).resolve().parent.parent


def rulebook_paths() -> list[Path]:
    """The shipped rulebooks, then the example house rules (which build on them)."""
    return [*sorted((ROOT / "rulebooks").glob("*.rules")),
            *sorted((ROOT / "examples" / "house_rules").glob("*.rules"))]


def report(path: Path) -> None:
    findings = lint(path)
    counts = Counter(d.severity.label for d in findings)
    print(f"== {path.relative_to(ROOT)}")
    print("   lint: " + ", ".join(f"{counts[s]} {s}{'s' if counts[s] != 1 else ''}" for s in ("error", "warning", "info")))
    try:
        rulebook = load_rulebook(path)
    except RulesError as exc:
        print("   does not load:")
        for d in exc.diagnostics[:5]:
            print(f"     {d}")
        return
    print(f"   {rulebook.title}: {sum(1 for _ in rulebook.walk())} declarations")
    table = next(iter(rulebook.of_kind("table")), None)
    if table is None:
        return
    shape = declaration_json(rulebook, table)
    print(f"   table {shape['name']!r}: {len(shape['columns'])} columns, {len(shape['rows'])} rows")
    print("\n".join("   " + line if line else "" for line in declaration_text(rulebook, table).splitlines()))


def main() -> int:
    paths = rulebook_paths()
    if not paths:
        print("no rulebooks shipped yet")
    for path in paths:
        report(path)
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
