"""The vocabulary of the rules language: declaration kinds, their properties, and what each accepts.

The grammar (``dsl/grammar.lark``) only knows lines of words; this module says
which lines mean something.  Each kind has a header pattern and a table of
properties, each property a pattern in the ``dsl.patterns`` notation.  The
patterns are the parser *and* the reference: ``docs/reference.md`` is
generated from them (``python -m dsl.schema``), so the two cannot drift.

Nothing here names a game.  Vocabulary that a rulebook defines for itself
(sides, factors such as ``attack`` or ``firepower``, tags, result codes) is
declared in the ``.rules`` file and referred to by name.

Selectors (``SEL``) name anything a rule can apply to: a side, nationality,
tag, unit type, marker, movement class, size or terrain.

The kinds of the map and of moving on it are written in ``dsl.schema_map``, and what a kind and a
property are in ``dsl.schema_spec``; ``KINDS`` here holds them all, in the order the reference
lists them.
"""

from __future__ import annotations

from .patterns import compile_pattern
from .schema_map import MAP_KINDS
from .schema_spec import COMMON, NAMED as _NAMED, SEL, KindSpec, PropertySpec, kind_spec as _kind

__all__ = ["COMMON", "DIRECTIVES", "KINDS", "SEL", "KindSpec", "PropertySpec", "reference_markdown"]

KINDS: dict[str, KindSpec] = {}


def _add(spec: KindSpec) -> None:
    KINDS[spec.kind] = spec


_add(_kind(
    "rulebook", "What game this is, stated before any rules (title, source, version, players).",
    "rulebook <label:TEXT>",
    ("source <text:TEXT>", "Where the rules come from."),
    ("version <text:TEXT>", "Edition or version of the source."),
    ("publisher <text:TEXT>", "Who published the source."),
    ("players <count:INT>", "Number of players."),
    ("alias <names:WORD>+", "Other names accepted by `extends` and the command line.", "repeat"),
    ("scale <text:TEXT>", "Map and time scale as printed."),
    ("grid (hex | square | square with diagonals)", "The map grid the rules assume."),
    singleton=True,
))
_add(_kind(
    "section", "A numbered section or heading of the source; the linter reports sections no rule cites.",
    "section <name:WORD> [<label:TEXT>] [prose]",
    ("prose", "Nothing in the section is a rule to encode (introductions, credits)."),
    ("encoded in <where:TEXT>", "Where the section's rules live when nothing cites it directly."),
))
_add(_kind(
    "side", "A player's side.", f"side {_NAMED}",
    ("short <name:WORD>", "Short name used in logs."),
    ("counters (face up | face down)", "Whether the side's counters are hidden from the opponent."),
    ("dummies (none | up to units | <count:INT>)", "How many dummy counters the side may add."),
    ("inspects enemy (stacks | nothing)",
     "Whether the side may look at face-down enemy stacks: with `stacks` it sees the other sides' "
     "face-down counters on the map as if face up (what each is, not only where); with `nothing`, or "
     "no line, only where they are. Face-up counters are always seen whole."),
    ("never enters <where:" + SEL + ">+ [unless option <option:REF(option)>]",
     "Cells none of the side's units may enter (a unit's `may enter` excepts it); `unless option` lifts the "
     "ban while that optional rule is in force.", "repeat"),
))
_add(_kind(
    "nationality", "A nationality or service fighting for a side.", f"nationality {_NAMED}",
    ("side <side:REF(side)>", "The side it fights for."),
    ("color <text:TEXT>", "Counter background colour as printed."),
))
_add(_kind(
    "tag", "A category that rules can name (infantry, mech, city, coastal…).", f"tag {_NAMED}",
    ("within <parents:REF(tag)>+", "Everything with this tag also has these tags."),
))
_add(_kind(
    "size", "A unit size and its symbol.", "size <name:NAME> <label:TEXT> [symbol <symbol:WORD>]",
    ("rank <rank:INT>", "Refused (E131): no rule orders sizes; selectors name sizes exactly."),
))
_add(_kind(
    "dice", "A die the rules roll: d6, d10, 2d6.", "dice <name:NAME>",
))
_add(_kind(
    "factor", "A number printed on counters (attack, defence, firepower, recon…).", f"factor {_NAMED}",
    ("allows all", "The factor may be 'all' (unlimited), as for aircraft movement."),
    ("default <value:NUM>", "Value for counters that do not give one."),
))
_add(_kind(
    "resource", "A track each side keeps: command points, victory points.", f"resource {_NAMED}",
    ("minimum <value:INT>", "Cannot go below this; spending more is illegal."),
    ("cap <value:INT>", "Cannot go above this; further gains are ignored."),
    ("carry over (yes | no)", "Whether unspent points carry to the next turn."),
    ("never lost", "Gains only: nothing takes points away (VP)."),
    ("open", "Both players always know both totals."),
))
for _spec in MAP_KINDS:  # terrain, features, movement, zones, spotting, stacking, control, traces
    _add(_spec)
_add(_kind(
    "unit", "A unit type: side, movement class, printed factors and tags.", f"unit {_NAMED}",
    ("side <side:REF(side)>", "The owning side."),
    ("nationality <nationality:REF(nationality)>", "Nationality (counter colour)."),
    ("movement <class:REF(movement)>", "Movement class."),
    ("size <size:REF(size)>", "Unit size."),
    ("tags <tags:REF(tag)>+", "Categories.", "repeat"),
    ("abbreviation <text:WORD>", "As printed on the counter."),
    ("carries <count:INT> [units]", "Transport capacity in units."),
    ("carried as <as:REF(movement)> by <classes:REF(movement)>+",
     "Though its own class moves by itself, a unit of this type may be carried in a force (`move force`) "
     "as if of class AS, by carriers of these classes only: when every other unit of the force is a carrier "
     "of them (or carried), it is cargo under AS's `carried with` line, and carries nothing itself; "
     "otherwise it moves by its own class."),
    ("never enters <where:" + SEL + ">+", "Cells this unit may never enter, whatever else allows it.", "repeat"),
    ("may enter <where:" + SEL + ">+ [on turn <turn:INT>]",
     "Cells this unit may enter although its side's `never enters` forbids them (`on turn N`: on that game "
     "turn only).", "repeat"),
    ("eliminated after operation in <where:" + SEL + ">+",
     "At the end of each operation, such a unit standing in one of these cells is eliminated, scored as an "
     "elimination by combat (a raid that may not stay)."),
    ("effect <words:WORD>+", "What it does (see Effects): `supply self` supplies its side's units in its cell.",
     "repeat"),
    ("step <number:INT> <values:WORD>+",
     "A reduced side: `step 2 attack 3 defence 2` gives the factors the counter shows once it has lost one "
     "step (the printed factors are step 1), `step 3 …` once it has lost two, numbered in order (E138); a "
     "factor a line does not name keeps the value of the step before. A unit with step lines has that many "
     "steps: `step loss` flips it to its next step and eliminates it at its last, `restore` and `do replace "
     "steps` bring steps back. A step gives numbers only, never the factor its movement class counts points "
     "by (E138); a factor higher than on the step before is a warning (W511).", "repeat"),
    factors=True,
))
_add(_kind(
    "marker", "A marker: status, fog of war, support fire or terrain-like effects.", f"marker {_NAMED}",
    ("side <side:REF(side)>", "The owning side."),
    ("tags <tags:REF(tag)>+", "Categories.", "repeat"),
    ("one per cell", "At most one of this marker in a cell."),
    ("counts for stacking (yes | no)", "Whether it counts against stacking limits."),
    ("never moves", "Stays where placed."),
    ("dummy", "Has no effect: it only hides real units."),
    ("effect <words:WORD>+", "What it does (see Effects).", "repeat"),
    ("support (from <box:REF(box)> | only into <where:" + SEL + ">+ [within <distance:INT>]"
     " | never with friendly units | never alone | never against markers alone)",
     "Support: committed to a battle from this box (`do commit support`), it fights with its side "
     "and goes back to the box, used for the turn, when the battle ends (unless an effect sends it "
     "elsewhere first); `only into` the cells these name (or within that many cells of one); `never "
     "with friendly units`: not into a cell holding a unit of its side; `never alone`: only where a "
     "unit of its side fights; `never against markers alone`: not where the other side fights with "
     "markers alone (a strike).", "repeat"),
    ("losses (never | last | only on <results:REF(result)>+)",
     "As a combat loss: never taken; taken only when no unit (non-marker) of its side could be; or "
     "taken only for these result codes."),
    factors=True,
))
_add(_kind(
    "result", "A combat or table result code: printed text and engine effects.", "result <name:WORD> [<label:TEXT>]",
    ("effect <words:WORD>+", "What it does, applied in order (see Effects).", "repeat"),
    ("worth <value:NUM>", "How good for the roller (negative: bad); used by table-sanity checks."),
    ("combines with +", "The result may be a part of a compound cell (K+B+A), whose parts apply in order; a "
     "compound naming a result without this line is refused (E224), unless the compound is declared as a "
     "result of its own (`result K+R`)."),
))
_add(_kind(
    "event", "A random event: the printed text and its effects.", f"event {_NAMED}",
    ("side <side:REF(side)>", "Whose event it is: its effects are carried out for this side (`owner`, "
     "`own`; `opponent` is the other), whoever rolled it; without the line, for the side that rolled or "
     "triggered it."),
    ("effect <words:WORD>+", "What it does (see Effects).", "repeat"),
))
_add(_kind(
    "table", "A 2-D lookup: a CRT by odds or by value ranges, a random-event table, a cost table.",
    f"table {_NAMED}",
    ("roll <dice:REF(dice)>", "The dice rolled to pick a row."),
    ("lookup by (odds | value | key | <factor:REF(factor)>)",
     "How a column is found: an odds ratio, a total in a printed range, or a named column."),
    ("columns <labels:WORD>+", "Column headings, as printed (or names the rules look columns up by)."),
    ("printed columns <labels:TEXT>+", "Headings as printed, one per column, when `columns` gives names."),
    ("row keys (rolls | names)", "Rows are die results (default) or names."),
    ("cells are (results | events | numbers | text)", "How cells are read (default: results)."),
    ("rounding (for defender | for attacker | down | up | nearest)", "How odds or totals are rounded."),
    ("above last column use last",
     "A fight past the last column uses it: odds above the last (rounded to whole odds N:1 as the table "
     "rounds), a total above the last range (the last column a total finds), or a shift past the last "
     "column. A table that does not say is read the same way, the log saying the reading is the engine's, "
     "and lint warns where a fight can go there (W509)."),
    ("below first column use first",
     "A fight past the first column uses it (odds, a total or a shift, as for `above last column`); unsaid, "
     "the same reading, logged as the engine's, with W509."),
    ("shifted only <labels:WORD>+", "Columns used only when a shift moves into them.", "repeat"),
    ("rolls outside use nearest row",
     "A modified roll past the printed rows uses the nearest row, and only holes between rows are then "
     "uncovered rolls (E205). Unsaid, a roll past the rows reads the nearest row too, the log saying the "
     "reading is the engine's, and lint warns where a modifier can take a roll there (W510)."),
    ("better for roller (right | left)", "Which way along a row results improve for the roller."),
    ("higher rolls (better | worse) for roller", "Which way down a column results improve for the roller."),
    ("key header <text:TEXT>", "Heading of the row-key column as printed (Die Roll)."),
    ("heading <text:TEXT>", "Heading over the columns as printed (Total Firepower Attacking)."),
    rows="A row: `key: cell cell …`. Keys are die results (`1`, `1-2`) or names; a cell ending in `?` is "
         "provisional (not printed in the source) and must be explained by a `gap` on the row or table.",
))
_add(_kind(
    "action", "Something a side may pay for (a line of a CP table).", f"action {_NAMED}",
    ("side <side:REF(side)>", "Who may take it."),
    ("cost <resource:REF(resource)> <amount:NUM> [per unit] [for <who:" + SEL + ">+]"
     " [(from | until) <year:INT>]", "The price; several lines for prices that vary.", "repeat"),
    ("cost <resource:REF(resource)> times <multiple:INT> transport [for <who:" + SEL + ">+]",
     "A price that is a multiple of the transport cost.", "repeat"),
    ("printed cost <text:TEXT>", "The cost cell as printed, for display."),
    ("led by <who:" + SEL + ">+", "Taken for a force that includes one of these (its cost line is "
     "the leader's); otherwise the force pays a `per unit` action."),
    ("between cells with <who:" + SEL + ">+", "A move straight from one cell holding a friendly unit of "
     "these to another, no path traced (strategic redeployment)."),
    ("strike with <markers:REF(marker)>+", "An operation of these support markers alone, no unit taking "
     "part (`designate force` offers `strike CELL`): they attack a cell holding enemy counters without "
     "moving there; the price is paid once for any number of markers, no recon is rolled, and the "
     "battle is one round of fire."),
    ("during <phases:REF(phase,step)>+", "The phase in which it is taken (each side's own, when each has one)."),
    ("once per turn", "Each side may take it once per game turn: after a side pays for it, `do designate "
     "force`, `do reinforce` and `do refit` do not offer it again until the next turn (paid by any other "
     "procedure, refused: E132)."),
))
_add(_kind(
    "award", "A victory-point award (a line of a VP table).", f"award {_NAMED}",
    ("to <side:REF(side)>", "Who scores."),
    ("resource <resource:REF(resource)>", "What is scored (default: the rulebook's victory resource)."),
    ("on (eliminated | refitted | revealed | infiltrated | held | controlled | exited | <trigger:WORD>) [by combat]",
     "What scores: a unit or marker leaving play, being revealed, a cell being held… `controlled`: each "
     "cell its `cells` name that the award's side controls (`control`), when a `do score` or the victory's "
     "`score … at end` scores it. `exited`: a unit of its `of` stepping off the map by an `exit`."),
    ("of <who:" + SEL + ">+", "Whose units or markers it counts."),
    ("cells <where:" + SEL + ">+ [except <except:" + SEL + ">+]",
     "For `held` and `infiltrated`: which cells count (less the exceptions)."),
    ("then to <box:REF(box)>", "For `infiltrated`: where the unit goes once it has scored."),
    ("points (<value:INT> | factor <factor:REF(factor)>) [for <who:" + SEL + ">+]"
     " [at distance <distance:RANGE> from <from:" + SEL + ">+]",
     "Points; `for` lines for special cases. `factor F`: as many points as the counter that scores shows "
     "for factor F (its step's value; none for a blank factor): an award for counters only, not for cells "
     "held or controlled (E155). `at distance RANGE from WHERE…`: only where the cell scored (the counter's "
     "cell, or the cell held or controlled) is that many cells (graph steps) from the nearest cell these "
     "name (0 in one); such lines are read first, in order, then the `for` and general lines.", "repeat"),
    ("doubled with <who:" + SEL + ">+", "Points double when such a unit is in the cell."),
    ("printed points <text:TEXT>", "The points cell as printed."),
    ("scored (as they occur | during <phases:REF(phase,step)>+)",
     "When it scores. `as they occur`, or no line: whenever what it scores happens (a counter leaving "
     "play, revealed, infiltrating) or a `do score` names it. `during PHASE…`: only while one of these "
     "phases (or a step inside one) runs; what happens at other times scores nothing, and a `do score` "
     "naming it elsewhere is refused (E130). A `do score` in a phase bound to one side scores only "
     "that side's awards, so each side's own phase scores its own."),
))
_add(_kind(
    "box", "A holding area off the map: reinforcement pool, refit box, eliminated, turn track.",
    f"box {_NAMED}",
    ("per side", "Each side has its own. Every box is kept per side, written or not: a counter in a box is "
     "only ever taken out by its own side, so a box shared by the sides would play alike; the line records "
     "how the printed game lays its boxes out."),
    ("draw at random", "Units are picked blind (an opaque cup)."),
    ("draws shown to opponent for <sides:REF(side)>+", "Whose draws the opponent sees."),
    ("returns via <box:REF(box)>", "Units leave this box through another (refit returns as reinforcements)."),
    ("never placed with enemy", "Units entering play from this box may not be placed in a cell holding enemy units."),
    ("unplaced to <box:REF(box)>",
     "Where a unit from this box goes when no cell will take it (otherwise it stays in this box)."),
    ("holds eliminated",
     "Eliminated units, and counters removed from play with no box named, go to this box (at most one "
     "box says so); without one they leave play for good (the built-in `eliminated` location)."),
))
_add(_kind(
    "placement", "Where units of some types may be placed when they enter play (reinforcements, refits).",
    f"placement {_NAMED}",
    ("side <side:REF(side)>", "Whose units it places."),
    ("units <who:" + SEL + ">+ [except <except:" + SEL + ">+]",
     "The unit types it places: any the selectors name, less the exceptions."),
    ("on <where:" + SEL + ">+", "Cells with one of these terrains or tags; several `on` lines must all hold.",
     "repeat"),
    ("with <who:" + SEL + ">+ [of <of:" + SEL + ">+]",
     "Cells holding a friendly unit one of these names (and, with `of`, one of those too); several "
     "`with` lines must all hold.", "repeat"),
    ("at map edge (north | south | east | west)+", "Cells on one of these edges of the map."),
    ("anywhere", "Any cell of the map."),
    ("to <box:REF(box)>", "Placed in this box (off the map) instead of on it."),
    ("in <trace:REF(trace)>", "Cells the placing side can trace this `trace` from (a supply line to a "
     "source); several `in` lines must all hold.", "repeat"),
))
_add(_kind(
    "mode", "An order a unit may be given (watch, patrol): what it allows and forbids.", f"mode {_NAMED}",
    ("side <side:REF(side)>", "Only this side may give it."),
    ("for <who:" + SEL + ">+", "Only these units may take it."),
    ("forbids (move | attack | transport)+", "What a unit in this mode may not do.", "repeat"),
    ("zone range <modifier:MOD> [for <who:" + SEL + ">+]", "Change to the unit's zone of control range.",
     "repeat"),
    ("spot range <range:INT> [for <who:" + SEL + ">+]", "Spotting range in this mode.", "repeat"),
    ("fires during enemy movement", "May fire at any point of the enemy's move."),
    ("roll modifier <modifier:MOD> [on <table:REF(table)>] [during <phases:REF(phase,step)>+]",
     "Modifier to its combat rolls (on that table only; while one of those phases or steps runs only)."),
))
_add(_kind(
    "combat", "A combat procedure: how totals become a column, shifts, rolls and results.", f"combat {_NAMED}",
    ("table <table:REF(table)>", "The results table."),
    ("compare (odds | total)", "Odds of attack to defence, or the firer's total alone."),
    ("attack factor <factor:REF(factor)>", "Factor summed for the firers."),
    ("defence factor <factor:REF(factor)>", "Factor summed for the defenders."),
    ("terrain (multiplies defence | shifts columns | ignored)", "How terrain defence applies."),
    ("fixed odds <odds:ODDS>", "Always fought at these odds."),
    ("shift <shift:SHIFT> [for <who:" + SEL + ">+] [when <condition:WORD>+]",
     "A column shift and when it applies.", "repeat"),
    ("column shift by <factor:REF(factor)> difference (toward higher | toward lower)",
     "Shift one column per point of difference, toward the side with the higher (or lower) value."),
    ("roll modifier <modifier:MOD> [when <condition:WORD>+]", "Die modifier and when it applies.", "repeat"),
    ("strength (attack | defence) <multiplier:MULT> [for <who:" + SEL + ">+] when <condition:WORD>+",
     "The attack (or defence) factor of each attacking (defending) unit, of these when `for` names them, is "
     "multiplied while the condition holds (`strength attack x1/2 when weather is mud`); several lines that "
     "hold multiply together, before terrain; the condition is read as a `shift … when`.", "repeat"),
    ("order by <factor:REF(factor)> (ascending | descending)", "Which combats are resolved first."),
    ("first fire by <table_or_rule:WORD>+", "Who fires first (e.g. `recon roll`)."),
    ("fire is (simultaneous | sequential)", "Whether losses are taken before the other side fires."),
    ("losses chosen by (owner | opponent | random)", "Who picks the units lost."),
    ("recycle until one side remains",
     "A fight goes on, round after round, until one side is left; without it every fight is one round. "
     "`fight` and `bombard` attack again while an attacking unit stands where it attacked from and a unit "
     "attacked is still in the cell; a battle of `resolve fire` goes on after its round, the step around it "
     "repeating the round (`repeat until only one side remains in the contested square`: the two must "
     "agree, E225). An attack by a counter's effect is one round."),
    ("adjacent", "Fights units in adjacent cells (otherwise in the same cell)."),
    ("range factor <factor:REF(factor)>", "Fires at a distance up to this factor (bombardment)."),
    ("attackers unharmed", "Results against the attackers do not apply (they fire from a distance)."),
    ("break off (to adjacent | to cells with <where:" + SEL + ">+ | to <box:REF(box)> | with carried units | never)"
     " [for (markers | <who:" + SEL + ">+)]",
     "Where units breaking off may go: one adjacent cell their class may enter, any cell holding a friendly "
     "unit these name, or their side's box; `with carried units` lets carriers take carried units along "
     "(the carried class's `carried with` capacity); `never` units stay.", "repeat"),
    ("recon unit refitted first [unless <who:" + SEL + ">+]",
     "The first unit each side puts in a box by a `refit` result in a round is the one it rolled recon "
     "with (unless that one is of these)."),
    ("advance after combat [by <who:" + SEL + ">+] [up to <hexes:INT> hexes] [ignoring zones]",
     "When an attack of `do fight` leaves the hex attacked with no enemy counter, the attacking units that "
     "took part and still stand where they attacked from (of these, with `by`) may advance into it, each as "
     "its side chooses; with `up to N hexes`, on along a path a defender retreated by, N hexes in all. Each "
     "hex must be one its class may enter, with no enemy counter and room under stacking; without `ignoring "
     "zones` a unit entering an enemy zone that stops movement goes no further."),
    ("retreat chosen by (owner | attacker | victor)",
     "Who picks each hex of a `retreat` result: the retreating unit's side (as without the line), the side "
     "that attacked, or the side the retreating unit fought against.", "repeat"),
    ("retreat not through friendly units", "A retreating unit may not enter a hex holding a unit of its side.",
     "repeat"),
    ("retreat extended by <hexes:INT> when overstacked",
     "A retreating unit may pass through hexes it would overstack, and when the hex its retreat ends in "
     "would be overstacked it retreats on, at most this many hexes more; eliminated when it cannot end "
     "anywhere.", "repeat"),
    ("each defender attacked once per phase", "A unit attacked by `do fight` may not be attacked again that phase."),
    ("minimum odds <odds:ODDS>", "`do fight` offers no attack below these odds (before shifts)."),
    ("any combination of attackers", "`do fight` offers every group of the units that may attack a hex, "
     "from any hexes, not only one unit or all; `do bombard` every group of the units that reach it."),
    ("mandatory attack (by units in enemy zones | on adjacent enemies)", "A side may not pass or stop "
     "attacking while a unit in an enemy zone could attack (or an enemy unit next to its units, not yet "
     "attacked, could be attacked) at the minimum odds.", "repeat"),
    ("attacks declared before any is resolved", "`do fight`: a side declares all its attacks, then they are "
     "resolved in the order declared (without it each is resolved as it is chosen)."),
    ("fires at least <hexes:INT> hexes away", "A minimum range: fire at range (`do bombard`, supporting fire) "
     "reaches no cell nearer than this, from this many hexes up to the unit's `range factor`."),
    ("line of fire blocked by <where:REF(terrain,tag,feature)>+",
     "Fire at range needs a clear line: the line between the centres of the firer's and the target's cells, "
     "drawn with the usual epsilon nudge both ways, is blocked by a cell between them these select (terrain, "
     "tag, a feature on cells) or a side or corner it crosses holding such a feature; where it runs along a "
     "hexside (or through a corner) it is blocked when that hexside holds one, or when both cells beside it "
     "block (the firer has the benefit of a line on the boundary)."),
    ("supporting fire from range", "`do fight`: a unit with the `range factor`, not adjacent to the hex "
     "attacked and within its range (and at least as far as `fires at least`, along a clear line of fire), may add its attack "
     "factor to the attack; results against the attackers leave it unharmed, and it has attacked for the "
     "phase. Each attack offered is also offered with every unit that may support it (with `any combination "
     "of attackers`, with every group of them)."),
    ("one attack on several hexes", "`do fight` also offers one attack against two or more hexes holding enemy "
     "counters (`attack CELL CELL… with ID…`), by units each adjacent to every one of them (all of them, or "
     "a leading unit alone; with `any combination of attackers`, every group holding a leading unit): the "
     "attackers' total against the defenders' total, each defender's terrain its own, the column shifts of "
     "the hex best for the defender, the result applied to all of them. With `supporting fire from range`, "
     "units in range of every hex attacked and adjacent to none may support it."),
))
_add(_kind(
    "status", "A state a combat result puts units in (disrupted, disorganised): what it forbids, the factors "
    "it changes, and when units recover from it.", f"status {_NAMED}",
    ("forbids (move | attack)+", "A unit in this status does not move (`do move`) or attack (`do fight`, `do "
     "bombard`, fire during enemy movement or at aircraft).", "repeat"),
    ("factor <factor:REF(factor)> <multiplier:MULT>",
     "A factor a combat reads (its attack, defence, range or order factor) is multiplied while the unit is "
     "in this status (`factor attack x1/2`).", "repeat"),
    ("recovers at end of <phase:REF(phase,step)>",
     "Each time that phase or step ends, the units of the side it ran for (every side's, when it runs for "
     "none) leave this status. Without the line a unit keeps it for the rest of the game."),
))
_add(_kind(
    "victory", "How the game is won: margins, levels, sudden death.", "victory [<name:NAME>] [<label:TEXT>]",
    ("by <resource:REF(resource)> (margin | total)", "What decides the winner."),
    ("level <level:NAME> <range:RANGE> [<label:TEXT>]", "A victory level for a margin range.", "repeat"),
    ("sudden death lead <lead:INT> [wins <level:NAME>]",
     "The game ends at once when one side leads by this much (and that side wins at this level)."),
    ("draws (possible | won by <side:REF(side)>)",
     "What a drawn result is (equal totals, a `draw` level, or a score no level holds): `possible`, a draw "
     "(as without the line); `won by SIDE`, a win for that side at the drawn level's label."),
    ("ends after last turn", "The game ends after its last turn (see `sequence`'s `turns`), or earlier by "
     "`sudden death`. Every game ends so, with the line or without it: it records that the source says so."),
    ("control (all | <count:INT>) of <where:" + SEL + ">+ (at end | after turn <turn:INT> | at once)"
     " [wins <level:NAME>]",
     "Victory by control (`control`): the side that controls every one (or at least COUNT) of the cells these "
     "terrains or tags name wins, at the level named (its label; without `wins`, \"Victory\"). `at end`: read when "
     "the game ends, before any points; `after turn N`: when turn N ends; `at once`: when each phase ends (the game "
     "then ends). Sides meeting it alike: the one controlling more of the cells, equal counts decide nothing; the "
     "first line met decides.", "repeat"),
    ("first to <value:INT> <resource:REF(resource)> [wins <level:NAME>]", "A threshold: the first side whose total "
     "of the resource reaches this value wins at once (the game ends there), at the level named (as above).",
     "repeat"),
    ("score <awards:REF(award)>+ at end", "Awards scored once, when the game ends and before the result is "
     "decided (`on held` and `on controlled` awards: what each side holds or controls then)."),
    singleton=True,
))
_add(_kind(
    "state", "A lasting state a side enters when a condition first holds: demoralised, exhausted.",
    f"state {_NAMED}",
    ("sides <sides:REF(side)>+", "The sides that may enter it. Without the line: every side."),
    ("when <condition:WORD>+",
     "Entered by a side when this condition first holds for it at the end of a phase (`own` is the side; a "
     "condition with a moment is refused, E235; a state without `when` too, E236). Once entered it lasts the "
     "game; it is narrated, public, and conditions read it (`own NAME`, `enemy not NAME`)."),
    ("forbids attack", "The side's units make no attacks (`do fight`, `do bombard`) while it is in the state."),
))
_add(_kind(
    "option", "An optional rule players switch on or off.", f"option {_NAMED}",
    ("default (on | off)", "Whether it is on unless a scenario says otherwise."),
    ("effect <words:WORD>+", "What switching it on before play does (see Effects; `owner` is the side that "
     "chose it, when a scenario lets a side choose).", "repeat"),
))
_add(_kind(
    "sequence", "The sequence of play: phases in order, each with its procedures.",
    "sequence [<name:NAME>] [<label:TEXT>]",
    ("turns (per scenario | <count:INT>)",
     "How many turns a game lasts: `per scenario` (as without the line), the scenario's `turns`, which it "
     "must then give; a number (1 to 1000, E318), the game's length, which a scenario may change with its own "
     "`turns`."),
    ("turn <turn:INT> <label:TEXT> [weather <weather:REF(weather)>] [note <note:TEXT>]",
     "A row of the turn record: what the turn track prints for turn N (a date or a label, `weather` the "
     "turn's fixed weather, `note` what the track says besides), numbered 1, 2 … in order and within the "
     "game's `turns` (E325). The label and weather are narrated when the turn starts and shown by `warbook "
     "show`; a turn's weather holds from its start (a turn without one keeps the weather it has).", "repeat"),
    children=("phase",), singleton=True,
))
_add(_kind(
    "weather", "A weather or condition a turn may have (clear, mud, snow): fixed per turn by the sequence's "
    "`turn … weather NAME` lines, or set by an effect (`set weather NAME`, an event of a table a phase rolls "
    "on). Conditions read it (`when weather is NAME`) wherever a condition may be written.", f"weather {_NAMED}",
))
_PHASE_PROPS = (
    ("for each side [in player order]", "Runs once per side, in player order."),
    ("side (first | second | <side:REF(side)>)", "Runs for one player only."),
    ("mutual", "Both sides act in it: it runs once, for no side (its procedures decide who acts); on a step, "
     "even inside a phase or step run for one side."),
    ("do <words:WORD>+", "A procedure to run (see Procedures).", "repeat"),
    ("alternate <step:REF(step)> until (all pass | all pass or out of <resource:REF(resource)>)",
     "Players take turns doing a step until every player has passed."),
    ("repeat until <condition:WORD>+", "Repeat the steps until the condition holds (checked before each run "
     "too). Its one condition, `only one side remains in the contested square`, is about the battle of an "
     "operation, so only a step inside a step that an `alternate` runs may repeat (E316)."),
    ("order by <factor:REF(factor)> (ascending | descending)", "Refused (E315): the order units act in belongs "
     "to the procedure that moves or fights them: write `do move order by …` or the combat's `order by`."),
    ("optional", "The side it runs for (each side, under `for each side`) is asked first whether to play it or "
     "skip it; skipping an alternated step is passing. A phase or step run for no side cannot be optional "
     "(E317)."),
)
_add(_kind("phase", "A phase of the sequence of play.", f"phase {_NAMED}", *_PHASE_PROPS,
           children=("step",), top_level=False))
_add(_kind("step", "A sub-phase or step inside a phase.", f"step {_NAMED}", *_PHASE_PROPS,
           children=("step",), top_level=False))

DIRECTIVES = {
    "include": compile_pattern("include <path:TEXT>"),
    "extends": compile_pattern("extends <base:TEXT>"),
    "override": compile_pattern("override <kind:WORD> <name:WORD> [<label:TEXT>]"),
    "remove": compile_pattern("remove <kind:WORD> <name:WORD>"),
}
"""File-level statements that the loader acts on instead of declaring anything."""


def reference_markdown() -> str:
    """The kinds and properties as Markdown, for ``docs/reference.md``."""
    lines = ["| kind | declared as | properties |", "|---|---|---|"]
    for spec in KINDS.values():
        props = "<br>".join(f"`{p.pattern}`" + (" (repeatable)" if p.repeat else "")
                            for p in spec.properties.values() if p.name not in COMMON)
        lines.append(f"| `{spec.kind}` | `{spec.header}` | {props} |")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - docs helper
    print(reference_markdown())
