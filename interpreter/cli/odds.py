"""``warbook odds``: the exact chances of one attack's results, or of a whole combat results table.

``warbook odds RULEBOOK COMBAT --attack A --defence D [--terrain T]… [--defender TYPE] [--shift 1L]
[--drm -1] [--json]`` prints where the attack lands and each result's chance as a fraction;
``--table`` prints every column of the combat's table instead.  The numbers come from
``interpreter.odds``, which reads the compiled rules with play's own column and row functions.
An attack below the combat's ``minimum odds`` is refused (exit 2): play never makes it.  Units
supporting from range are added into ``--attack``; an attack on several hexes gives ``--defence``
already multiplied by each hex's terrain (see ``interpreter.odds``).

Exit codes: 0 answered, 1 a rulebook with errors (diagnostics on stderr), 2 a usage error (a
combat, terrain or unit type the rulebook does not declare, a bad number or shift).
"""

from __future__ import annotations

import argparse
from fractions import Fraction

from .common import EXIT_CLEAN, EXIT_FINDINGS, print_diagnostics, usage


def register(sub) -> None:
    odds = sub.add_parser("odds", help="the exact chances of an attack's results, or of a whole CRT")
    odds.add_argument("rulebook", help="a rules file, or a shipped rulebook by name")
    odds.add_argument("combat", help="the combat's name (`warbook show RULEBOOK` lists them)")
    odds.add_argument("--attack", type=_number, metavar="A", help="the attack total (or the firing total, "
                      "for a table looked up by value); fractions such as 5/2 are fine")
    odds.add_argument("--defence", "--defense", type=_number, metavar="D", default=None,
                      help="the defence total before terrain (for a table looked up by odds)")
    odds.add_argument("--terrain", metavar="T", action="append", default=[],
                      help="the defenders' terrain: its multiplier or its column shift; repeat for a cell of "
                      "several terrains (the first first), combined as the rulebook's `terrains` says")
    odds.add_argument("--defender", metavar="TYPE", help="the defending unit type, for terrain lines "
                      "`for` some types only")
    odds.add_argument("--shift", type=_shift, action="append", default=[], metavar="S",
                      help="a column shift that holds (1L, 2R); repeat for several")
    odds.add_argument("--drm", type=_modifier, action="append", default=[], metavar="N",
                      help="a die roll modifier that holds (-1, +2); repeat for several")
    odds.add_argument("--table", action="store_true", help="every column of the combat's table instead of "
                      "one attack")
    odds.add_argument("--json", action="store_true", help="machine-readable output (fractions as text)")
    odds.set_defaults(run=run_odds)


def _number(text: str) -> Fraction:
    from ...dsl.values import read_number

    value = read_number(text)
    if value is None or value < 0:
        raise argparse.ArgumentTypeError(f"expected a number of 0 or more (such as 7 or 5/2), not {text!r}")
    return value


def _shift(text: str) -> tuple[int, str]:
    from ...dsl.values import read_shift

    shift = read_shift(text.strip().upper())
    if shift is None:
        raise argparse.ArgumentTypeError(f"a shift is a number of columns and L or R (such as 1L), not {text!r}")
    return shift.columns, f"--shift {shift.text}"


def _modifier(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a roll modifier is a whole number (such as -1), not {text!r}") from None


def run_odds(args: argparse.Namespace) -> int:
    from ...dsl.diagnostics import RulesError
    from ...dsl.loader import load_rulebook
    from ..catalogue import rulebook_argument
    from ..game import lint_errors
    from ..odds import OddsError, attack_odds, combat_rule, table_odds
    from ..rules import Rules

    try:
        rulebook = load_rulebook(rulebook_argument(args.rulebook))
        errors = lint_errors(rulebook)
        if errors:
            raise RulesError(list(errors))
    except RulesError as exc:
        print_diagnostics(exc.diagnostics)
        return EXIT_FINDINGS
    rules = Rules(rulebook)
    drm = sum(args.drm)
    try:
        if args.table:
            if args.attack is not None or args.defence is not None or args.terrain or args.shift:
                return usage("--table shows every column: it takes no --attack, --defence, --terrain or --shift")
            found = table_odds(rules, args.combat, roll_modifier=drm)
            return _show_table(found, args.json)
        combat = combat_rule(rules, args.combat)
        by_odds = combat.fixed_odds is None and rules.tables[combat.table].lookup == "odds"
        if args.attack is None and combat.fixed_odds is None:
            return usage("--attack is needed (or --table for the whole table)")
        if args.defence is None and by_odds:
            return usage(f"table {combat.table!r} is looked up by odds: --defence is needed")
        found = attack_odds(rules, args.combat, args.attack or Fraction(0), args.defence or Fraction(0),
                            terrain=args.terrain, defender=args.defender, shifts=args.shift, roll_modifier=drm)
    except OddsError as exc:
        return usage(f"{exc.message}" + (f" ({exc.hint})" if exc.hint else ""))
    return _show_attack(found, args.json)


def attack_json(found) -> dict:
    """The answer of ``odds`` as JSON (fractions as text: exact, and readable)."""
    rolls: dict[str, list[int]] = {}
    for line in found.outcome.rolls:
        rolls.setdefault(line.result, []).append(line.roll)
    return {
        "combat": found.combat, "table": found.table, "dice": found.dice,
        "attack": str(found.attack), "defence": str(found.defence),
        "base_column": found.base, "column": found.column, "edge": found.edge,
        "shifts": [{"columns": columns, "why": why} for columns, why in found.shifts],
        "roll_modifier": found.outcome.roll_modifier,
        "results": [{"result": result, "chance": str(chance), "probability": float(chance),
                     "rolls": rolls[result]} for result, chance in found.outcome.results],
        "rolls": [{"roll": line.roll, "modified": line.modified, "row": line.row, "result": line.result,
                   "chance": str(line.chance)} for line in found.outcome.rolls],
        "expected_worth": None if found.worth is None else str(found.worth),
        "not_counted": list(found.conditional),
        "totals": list(found.totals),
    }


def _show_attack(found, as_json: bool) -> int:
    if as_json:
        import json

        print(json.dumps(attack_json(found), indent=2, ensure_ascii=False))
        return EXIT_CLEAN
    from rich.table import Table

    from .consoles import console, percent

    out = console()
    shifts = ", ".join(f"{'+' if columns > 0 else ''}{columns} ({why})" for columns, why in found.shifts)
    strength = f"attack {found.attack} against defence {found.defence}" if found.by_odds else f"total {found.attack}"
    out.print(f"{found.combat}: {strength} on table {found.table} "
              f"({found.dice}): {found.base}" + (f", shifted {shifts}" if shifts else "") + f" → column {found.column}"
              + (f" (past the table's {'last' if found.edge == 'above' else 'first'} column)" if found.edge else ""))
    if found.outcome.roll_modifier:
        out.print(f"roll modifier {found.outcome.roll_modifier:+d}")
    table = Table("Result", "Chance", "%", "Rolls")
    rolls: dict[str, list[str]] = {}
    for line in found.outcome.rolls:
        rolls.setdefault(line.result, []).append(str(line.roll))
    for result, chance in found.outcome.results:
        table.add_row(result, str(chance), percent(chance), ", ".join(rolls[result]))
    out.print(table)
    if found.worth is not None:
        out.print(f"expected worth for the attacker: {found.worth} ({float(found.worth):+.3f})")
    for note in found.totals:
        out.print(f"count in the totals: {note}")
    if found.conditional:
        fold = "; fold a strength line into --attack or --defence" \
            if any(line.startswith("strength ") for line in found.conditional) else ""
        out.print(f"not counted (pass --shift or --drm when they hold{fold}): " + "; ".join(found.conditional))
    return EXIT_CLEAN


def table_json(found) -> dict:
    """The whole table's probabilities as JSON: per column, each result's chance."""
    return {"combat": found.combat, "table": found.table, "dice": found.dice,
            "roll_modifier": found.columns[0].roll_modifier if found.columns else 0,
            "columns": [{"column": column.column,
                         "results": {result: str(chance) for result, chance in column.results}}
                        for column in found.columns]}


def _show_table(found, as_json: bool) -> int:
    if as_json:
        import json

        print(json.dumps(table_json(found), indent=2, ensure_ascii=False))
        return EXIT_CLEAN
    from rich.table import Table

    from .consoles import console

    out = console(width=40 + 8 * len(found.columns))
    modifier = found.columns[0].roll_modifier if found.columns else 0
    out.print(f"{found.combat}: table {found.table} ({found.dice})"
              + (f", roll modifier {modifier:+d}" if modifier else "") + ": the chance of each result per column")
    table = Table("Result", *(column.column for column in found.columns))
    chances = [dict(column.results) for column in found.columns]
    for result in found.results:
        table.add_row(result, *(str(c[result]) if result in c else "-" for c in chances))
    out.print(table)
    return EXIT_CLEAN
