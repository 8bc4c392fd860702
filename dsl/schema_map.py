"""The vocabulary of the map and of moving on it: terrain, map features, movement classes, zones
of control, spotting, stacking, control of cells and traced paths.

Written as ``dsl.schema`` writes its kinds (``dsl.schema_spec``); ``dsl.schema`` puts them in its
registry, after the resources.  Nothing here names a game.
"""

from __future__ import annotations

from .schema_spec import NAMED, SEL, KindSpec, kind_spec

MAP_KINDS: tuple[KindSpec, ...] = (
    kind_spec(
        "terrain", "A terrain type: movement costs, defence, recon and spotting effects.", f"terrain {NAMED}",
        ("cost (no entry | <amount:NUM>) [for <who:" + SEL + ">+] [when <condition:WORD>+]",
         "Movement points to enter; `no entry` forbids it. A `for` line overrides the general cost. A `when` line "
         "(`cost 2 when weather is mud`) holds only while its condition does, and then overrides the lines without "
         "one; its condition may read only the weather and the turn (E150).", "repeat"),
        ("defence (<multiplier:MULT> | <shift:SHIFT> | no effect) [for <who:" + SEL + ">+]"
         " [when <side:REF(side)> defending]",
         "Defence multiplier (x2) or a shift of the firer's column (1L).", "repeat"),
        ("recon (no effect | <role:WORD> <modifier:MOD>)", "Modifier to a recon roll (attacker +1)."),
        ("spot (auto | <roll:RANGE>) [on <dice:REF(dice)>]", "Roll needed to spot a hidden unit here."),
        ("tags <tags:REF(tag)>+", "Categories of the terrain (city, water, coastal…).", "repeat"),
        ("effects from other terrain",
         "Has no effect of its own: in a cell, the cost, defence, recon and spot lines of the cell's other "
         "terrain apply (the terrain its map legend entry names after it: `\"b\" = [\"base\", \"coastal\"]`; "
         "with none, the defaults). Its tags and `supplies` lines still hold."),
        ("supplies <sides:REF(side)>+", "Units of these sides in such a cell are in supply (a printed base)."),
        ("entered only across <features:REF(feature,tag)>+",
         "A cell of this terrain may be entered only by a step across a side or corner with one of these "
         "features (or features with these tags): a road through woods; leaving it is free."),
    ),
    kind_spec(
        "terrains", "How the terrains of one cell combine: a cell whose map legend entry names a second terrain "
        "after the first (`\"P\" = [\"town\", \"coastal\"]`) has the effects of both, combined as these lines say.",
        "terrains [<name:NAME>] [<label:TEXT>]",
        ("cost (primary | highest | sum)",
         "Movement cost: `primary`, the first terrain's alone; `highest`, the dearest; `sum`, the costs of the "
         "terrains that have a cost line for the unit added up (none: 1). A terrain barring the unit (`no entry`) "
         "bars the cell under `highest` and `sum`. Without the line: primary."),
        ("defence (primary | multiply | best for defender)",
         "Defence multipliers (`defence x2`): `primary`, the first terrain's alone; `multiply`, all of them "
         "multiplied; `best for defender`, the highest. Without the line: primary."),
        ("shifts (primary | sum | best for defender)",
         "Column shifts of terrain (`defence 1L`): `primary`, the first terrain's alone; `sum`, every terrain's "
         "shift added up; `best for defender`, the one that helps the firer least (a terrain with none counts as "
         "no shift). Without the line: primary."),
        ("recon (primary | sum | best for defender)",
         "Recon roll modifiers (`recon attacker +1`): `primary`, the first terrain's alone; `sum`, every "
         "terrain's modifier for the roller's role added up; `best for defender`, the one terrain's line best "
         "for the defender (a defender's bonus, else no modifier, else the smallest attacker's bonus). Without the "
         "line: primary."),
        singleton=True,
    ),
    kind_spec(
        "feature", "A map feature on cell sides or corners, or along a path of cells (rivers, water links, roads).",
        f"feature {NAMED}",
        ("on (sides | corners | cells)+",
         "Where the feature lies: on the sides or corners its map path steps across, and/or on the path's "
         "cells. A map path stepping across an edge of a kind it is not on (and not `on cells`) is refused "
         "(E707). Without the line: on sides and corners."),
        ("tags <tags:REF(tag)>+",
         "Categories of the feature: what it lies on is named by them as by its name (a cell selector names a "
         "cell it lies on, `crosses only` an edge).", "repeat"),
        ("cost (no entry | <extra:MOD> | <amount:NUM>) [for <who:" + SEL + ">+]",
         "What stepping across a side or corner it lies on costs: `N` is the step's whole cost whatever the "
         "cell's terrain and the edge's other features (a road; a road across a river is a bridge; the cheapest "
         "such feature counts), else `no entry` bars the crossing and `+N` adds N to the cost of the cell "
         "entered (a river; several add up). A `for` line overrides the general line for those units. Only on "
         "a feature drawn `on sides` or `corners` (E139).", "repeat"),
    ),
    kind_spec(
        "movement", "A movement class: how far, where, and when a unit must stop.", f"movement {NAMED}",
        ("points (unlimited | none | factor <factor:REF(factor)> | <count:INT>)", "Movement allowance."),
        ("enters only <where:" + SEL + ">+ [within <distance:INT>]",
         "Only these cells may be entered (`within 1` also allows cells that near them).", "repeat"),
        ("never enters <where:" + SEL + ">+ [unless <exceptions:" + SEL + ">+]",
         "These cells are forbidden.", "repeat"),
        ("must end on <where:" + SEL + ">+", "A move must end on one of these."),
        ("crosses only <features:REF(feature,tag)>+",
         "Moves only across sides or corners with these features (or features with these tags)."),
        ("stops on entering (enemy | enemy zone | <markers:REF(marker)>+)", "Must stop on entering such a cell.",
         "repeat"),
        ("may go on past markers",
         "A force (`move force`) that stops on entering a cell for markers its `stops on entering` names, "
         "where no enemy unit stands, turns those markers face up; they meet `revealed` there, and then the "
         "force may move on from that cell (it is not stopped by them again in that move) or stay."),
        ("ignores enemy", "May move through enemy-occupied cells without stopping."),
        ("needs transport", "Cannot move by itself; moves only when carried."),
        ("never moves", "Static: never moves once placed."),
        ("transported by <classes:REF(movement)>+", "Movement classes that may carry it.", "repeat"),
        ("board cost <points:NUM>", "Movement points a carried unit spends to board."),
        ("diagonals (yes | no)", "On a square grid, whether corner-to-corner moves are allowed."),
        ("combines with <classes:REF(movement)>+ [only in <where:" + SEL + ">+]",
         "May form one force with these classes (where).", "repeat"),
        ("joins any force", "May join a force of any movement class."),
        ("carried with <capacity:REF(factor)> against <cost:REF(factor)>",
         "Carried units: the carriers' `capacity` factor, summed, must cover the carried units' `cost` factor "
         "(each carried unit is charged under its own class's line: carried classes whose lines name different "
         "capacity factors draw on each separately)."),
        ("reacts from or to cells with <who:" + SEL + ">+",
         "May move during a battle into its cell (a reaction move) when the move starts or ends in a cell "
         "holding a friendly unit of these."),
        ("unlimited distance", "No movement-point limit; restricted only by where it may go and stop."),
        ("cell cost <points:NUM>",
         "Every cell entered costs this many points, whatever its terrain and its `cost` lines (a rail or road "
         "march: with `points 20`, a limit of 20 cells); terrain with no entry still bars it."),
        ("avoids (cells next to enemy | enemy zones)",
         "A move may not start in, enter or pass through a cell holding or next to an enemy counter (`cells next "
         "to enemy`), or a cell in an enemy zone of control that does not ignore the class (`enemy zones`); "
         "counters are those the side sees on the map, face-down ones included.", "repeat"),
        ("allowance (at most <count:INT> | <multiplier:MULT>) [for <who:" + SEL + ">+] when <condition:WORD>+",
         "While the condition holds, the allowance of the class's units (those `for` names) is capped (`allowance "
         "at most 1 when weather is snow`) or multiplied (`allowance x1/2 …`, rounded down to a whole point), "
         "in the order written; the condition may read only the weather and the turn (E150).", "repeat"),
    ),
    kind_spec(
        "zone", "A zone of control: where it extends and what it does to movement.", f"zone {NAMED}",
        ("into <where:" + SEL + ">+", "Cells the zone extends into."),
        ("range <range:INT>", "How far it extends."),
        ("stops movement", "A unit entering it must stop."),
        ("zone to zone uses all points", "Moving from one enemy zone to another takes the whole allowance."),
        ("blocks retreat", "Units may not retreat through it."),
        ("exerted by <who:" + SEL + ">+", "Only these units exert it."),
        ("ignored by <who:" + SEL + ">+", "These units move as if it were not there."),
        ("intercepts <who:" + SEL + ">+ paying <action:REF(action)>",
         "An enemy force with one of these entering the zone (by its own move, not a break-off) may be "
         "intercepted: the zone's owner picks units exerting it there, paying the action for each; the "
         "force stops in that cell, they move in, and a battle follows with the mover attacking."),
        ("locks units in it", "An enemy unit standing in it when `do move` begins does not move (it leaves "
         "only by a retreat, a break-off or an advance)."),
    ),
    kind_spec(
        "spotting", "How hidden units are found.", f"spotting {NAMED}",
        ("range <range:INT> [in <mode:REF(mode)>] [for <who:" + SEL + ">+]", "Distance from a friendly unit.",
         "repeat"),
        ("roll <dice:REF(dice)> against terrain", "Roll the terrain's `spot` number to reveal."),
        ("unspotted may be attacked", "A hidden counter may be attacked without being spotted."),
        ("reveal on entering with enemy", "Moving into a cell with hidden units reveals them."),
        ("hide again when enemy leaves", "Revealed counters are hidden again when the enemy leaves."),
    ),
    kind_spec(
        "stacking", "How many units may share a cell, and when that is checked.", f"stacking {NAMED}",
        ("limit <count:INT> [for <who:" + SEL + ">+]", "Units per cell per side.", "repeat"),
        ("exempt <who:" + SEL + ">+", "Do not count against the limit.", "repeat"),
        ("checked (always | at end of phases | during movement)", "When the limit applies."),
        ("excess to <box:REF(box)>", "Where units over the limit go."),
        ("one per cell <who:" + SEL + ">+", "At most one of each of these per cell.", "repeat"),
        ("enemy cells (forbidden | allowed)", "Whether units may enter cells holding enemy units."),
    ),
    kind_spec(
        "control", "Which side controls each cell of the map, and how control changes hands.",
        "control [<name:NAME>] [<label:TEXT>]",
        ("by (last occupant | presence)",
         "`last occupant`: a cell is the side's whose real unit (not a marker or dummy) last stood in it alone (entering "
         "it, passing through, placed, retreating or advancing there), and stays so after the units leave until an enemy "
         "unit enters; `presence`: the side's only while its units alone stand there. A cell holding units of several "
         "sides keeps its controller. Without the line: last occupant."),
        ("cells (all | <where:" + SEL + ">+)", "Which cells are controlled: every cell, or those with these terrains or "
         "tags (a map legend entry's extra tags mark single cells). Without the line: every cell."),
        ("initially (by set-up | none)", "`by set-up`: once set-up ends, each cell a side's real units alone stand in is "
         "that side's; `none`, or no line: no cell is controlled until a unit enters it. A scenario's "
         "`[scenario.control]` table (side = list of cells or place names) gives further cells at the start."),
        singleton=True,
    ),
    kind_spec(
        "trace", "A path traced through the map to a source: a supply line, a line of communication.",
        f"trace {NAMED}",
        ("length <count:INT> (hexes | points as <unit:REF(unit)>)",
         "How long the path may be: `hexes`, at most that many cells entered (the start not counted, the source "
         "counted); `points as UNIT`, at most that many movement points as that unit type pays to enter each cell (a "
         "cell it may not enter is never on the path). Without the line: any length."),
        ("to (map edge (north | south | east | west)+ | cells <where:" + SEL + ">+ | units <who:" + SEL + ">+"
         " | controlled cells) [for <side:REF(side)>]",
         "A source the path may end at: a cell on one of these map edges, with these terrains or tags, holding a "
         "friendly real unit these name, or that the tracing side controls (`control`); `for SIDE`: that side's "
         "source only. Several lines are alternatives.", "repeat"),
        ("never through <where:" + SEL + ">+", "Cells the path may not enter (nor end in).", "repeat"),
        ("blocked by (enemy units | enemy zones) [and (enemy units | enemy zones)]",
         "Cells the path may not enter: holding an enemy real unit, or in an enemy zone of control (every `zone`). "
         "The cell the path starts from never blocks it."),
        ("zones lifted by friendly units", "An enemy zone does not block a cell that holds a friendly real unit."),
    ),
    kind_spec(
        "exit", "A way off the map: which units may leave it, from which cells, at what cost, and where they go.",
        f"exit {NAMED}",
        ("side <side:REF(side)>", "Whose units may exit. Without the line: any side's."),
        ("units <who:" + SEL + ">+", "Which units may exit. Without the line: any unit of the side."),
        ("from (map edge (north | south | east | west)+ | cells <where:" + SEL + ">+)",
         "The cells a unit steps off the map from: on these edges of the map, or with these terrains, tags or "
         "places. Several lines are alternatives."),
        ("cost <points:NUM>",
         "The movement points stepping off the map takes, beyond those of reaching such a cell. Without the "
         "line: none."),
        ("to <box:REF(box)>", "The box an exited unit goes to (required, E156); it scores `on exited` awards."),
    ),
)
