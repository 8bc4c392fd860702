"""``warbook list`` and ``warbook show``: what is shipped, and a rulebook's resolved declarations."""

from __future__ import annotations

import argparse

from .common import EXIT_CLEAN


def register(sub) -> None:
    listing = sub.add_parser("list", help="list the shipped rulebooks and scenarios, by name")
    listing.add_argument("--json", action="store_true", help="machine-readable output")
    listing.set_defaults(run=run_list)

    show = sub.add_parser("show", help="print resolved declarations of a rulebook")
    show.add_argument("rulebook", help="a rules file, or a shipped rulebook by name")
    show.add_argument("name", nargs="?", help="a declaration name (KIND:NAME when ambiguous)")
    show.add_argument("--json", action="store_true", help="machine-readable output")
    show.set_defaults(run=run_show)


def run_show(args: argparse.Namespace) -> int:
    from ..catalogue import rulebook_argument
    from ..show import show

    args.rulebook = rulebook_argument(args.rulebook)
    return show(args)


def run_list(args: argparse.Namespace) -> int:
    import json

    from ..catalogue import iter_rulebooks, iter_scenarios

    rulebooks, scenarios = list(iter_rulebooks()), list(iter_scenarios())
    if args.json:
        print(json.dumps({"rulebooks": [{"name": r.name, "aliases": list(r.aliases), "title": r.title}
                                        for r in rulebooks],
                          "scenarios": [{"name": s.name, "title": s.title, "game": s.game, "turns": s.turns,
                                         "sides": [{"name": side, "label": label} for side, label in s.sides],
                                         "first": s.sides[0][0] if s.sides else None} for s in scenarios]},
                         indent=2, ensure_ascii=False))
        return EXIT_CLEAN
    print("Rulebooks (warbook lint NAME, warbook show NAME, extends \"NAME\"):")
    print(_columns([(r.name, r.title, f"aliases: {', '.join(r.aliases)}" if r.aliases else "") for r in rulebooks]))
    print("\nScenarios (warbook play NAME --side SIDE=human):")
    print(_columns([(s.name, s.title, s.game, f"{s.turns} turns" if s.turns else "", _order(s.sides))
                    for s in scenarios]))
    return EXIT_CLEAN


def _order(sides: tuple[tuple[str, str], ...]) -> str:
    """``a (A) first, then b (B), c (C)``: the sides in player order, labels beside names."""
    named = [f"{side} ({label})" if label != side else side for side, label in sides]
    return f"{named[0]} first, then {', '.join(named[1:])}" if len(named) > 1 else "".join(named)


def _columns(rows: list[tuple[str, ...]]) -> str:
    """Rows as left-aligned columns two spaces apart, indented."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))] if rows else []
    return "\n".join("  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows)
