"""The rulebook compiled for play: quick, typed answers to the questions the engine asks often.

``Rules`` compiles a ``dsl.model.Rulebook`` (with its options in force) once, through the compile
stage (``dsl.compiled``), and holds the records the interpreter reads: unit types, movement
classes, terrain, sides, modes, spotting, stacking, actions, resources, awards, victory, boxes,
placements, combats, zones, phase plans, tables and effect lines.  One ``Rules`` is shared by
every game of a scenario, and it pickles, for worker processes.  Nothing here knows a game; every
answer comes from declarations.

Optional rules: a declaration whose ``requires option`` names an option that is off is not in force,
and is left out of the records here (``_in_force``): an action is not offered, a combat not fought,
a phase or step skipped, a placement, spotting, stacking, zone or award not applied, an event's
effects not carried out (``dsl.compiled.lines.OPTIONAL_KINDS``).  Other kinds refuse the line
(lint E135).

Selector matching (docs/reference.md, "Selectors"): a name matches a unit when
it is the unit's type, side, nationality, movement class, size or one of its
tags (tags include their ``within`` parents); a name matches a cell when it is
the cell's terrain, one of the terrain's tags or one of the cell's own tags (which include the
name and tags of a feature drawn ``on cells`` through it, ``interpreter.board``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Iterable

from attrs import evolve

from ..dsl.compiled.actions import ActionRule, compile_action
from ..dsl.compiled.boxes import Box, Placement, compile_box, compile_placement
from ..dsl.compiled.combat import CombatRule, compile_combat
from ..dsl.compiled.control import ControlRule, StateRule, TraceRule, compile_control, compile_state, compile_trace
from ..dsl.compiled.events import EventRule, compile_event
from ..dsl.compiled.lines import ForLine, as_names
from ..dsl.compiled.modes import Mode, Spotting, compile_mode, compile_spotting
from ..dsl.compiled.movement import ExitRule, MovementClass, compile_exit, compile_movement
from ..dsl.compiled.scoring import Award, Resource, Victory, compile_award, compile_resource, compile_victory
from ..dsl.compiled.sequence import PhasePlan, SequencePlan, TurnRecord, compile_phase, compile_sequence
from ..dsl.compiled.sides import Side, compile_side
from ..dsl.compiled.stacking import Stacking, compile_stacking
from ..dsl.compiled.statuses import Status, compile_status
from ..dsl.compiled.terrain import Feature, Terrain, TerrainMix, compile_feature, compile_terrain, compile_terrain_mix
from ..dsl.compiled.units import UnitType, compile_unit, tag_closure, tag_parents
from ..dsl.compiled.zones import ZoneRule, compile_zone
from ..dsl.conditions import Names
from ..dsl.effects import Effect, compile_effects
from ..dsl.tables import TableView
from ..dsl.model import Declaration, Rulebook
from .options import in_force

__all__ = ["Rules", "UnitType", "as_names", "ELIMINATED", "EFFECT_KINDS"]

EFFECT_KINDS = ("result", "event", "unit", "marker", "option")
"""The kinds of declaration that carry ``effect`` lines."""

ELIMINATED = "eliminated"
"""Where eliminated units go when no box ``holds eliminated``: out of play, a location no procedure
takes units from."""


def _static(unit_type: UnitType, mclass: MovementClass | None) -> bool:
    """``never moves`` on the type or its class, and not ``needs transport`` (carried units move)."""
    carried = mclass is not None and mclass.needs_transport
    return (unit_type.never_moves or (mclass is not None and mclass.never_moves)) and not carried


class Rules:
    """A rulebook compiled for play (built once per rulebook and options in force)."""

    def __init__(self, rulebook: Rulebook):
        self.rulebook = rulebook
        names = Names(rulebook)
        self._parents = tag_parents(rulebook)
        self.unit_types: dict[str, UnitType] = {
            decl.name: compile_unit(rulebook, self._parents, decl)
            for decl in (*rulebook.of_kind("unit"), *rulebook.of_kind("marker"))}
        self.movement_classes: dict[str, MovementClass] = {
            d.name: compile_movement(d, names) for d in rulebook.of_kind("movement")}
        self.movement_by_type: dict[str, MovementClass | None] = {
            name: self.movement_classes.get(t.movement) if t.movement else None for name, t in self.unit_types.items()}
        """Each unit type's movement class (``None``: it names none), for loops over counters."""
        self.moving_as: dict[tuple[str, str], str] = {}
        """``(type, class)`` to the type as it moves under ``do move … using CLASS`` (``UnitType.moving_as``),
        for every class a ``do move`` line names and every type; ``unit_type`` answers for these names too,
        and ``unit_types`` (whose loops enumerate the rulebook's types) leaves them out."""
        self._moving_types: dict[str, UnitType] = {}
        for using in sorted({str(line.get("using")) for d in rulebook.walk() if d.kind in ("phase", "step")
                             for line in d.all("do") if line.get("procedure") == "move" and line.get("using")}):
            for name, unit_type in self.unit_types.items():
                own = self.movement_by_type[name]
                moved = unit_type.moving_as(using, static=own is not None and own.never_moves)
                self.moving_as[name, using] = moved.name
                self._moving_types[moved.name] = moved
                self.movement_by_type[moved.name] = self.movement_classes.get(using)
        self.static_types: frozenset[str] = frozenset(name for name, t in self.unit_types.items()
                                                      if _static(t, self.movement_by_type[name]))
        """Types that never move and are not carried either (``never moves``): they stay where placed."""
        self.force_types: frozenset[str] = frozenset(
            name for name, t in self.unit_types.items() if t.kind == "unit" and name not in self.static_types)
        """Types that may be in a force: units that are not static."""
        self.marker_types: frozenset[str] = frozenset(
            name for name, t in self.unit_types.items() if t.kind == "marker" and not t.dummy)
        """The marker types that are not dummies."""
        self.terrains: dict[str, Terrain] = {d.name: compile_terrain(d, self._parents, names)
                                             for d in rulebook.of_kind("terrain")}
        mix = rulebook.of_kind("terrains")
        self.terrain_mix: TerrainMix = compile_terrain_mix(mix[0] if mix else None)
        """How the effects of a cell's several terrains combine (``cell_terrains``)."""
        self._cell_terrains: dict[tuple[str, frozenset[str]], tuple[Terrain, ...]] = {}
        self.features: dict[str, Feature] = {d.name: compile_feature(d, self._parents)
                                             for d in rulebook.of_kind("feature")}
        """The map features, for the map reader (``interpreter.board``): where each lies, its tags."""
        self.modes: dict[str, Mode] = {d.name: compile_mode(d) for d in rulebook.of_kind("mode")}
        self.statuses: dict[str, Status] = {d.name: compile_status(d) for d in rulebook.of_kind("status")}
        self.spottings: dict[str, Spotting] = {d.name: compile_spotting(d) for d in self._in_force("spotting")}
        self.side_rules: dict[str, Side] = {d.name: compile_side(d) for d in rulebook.of_kind("side")}
        self.stackings: tuple[Stacking, ...] = tuple(
            compile_stacking(d, [*self.unit_types.values(), *self._moving_types.values()])
            for d in self._in_force("stacking"))
        self.stackings_on_moves: tuple[Stacking, ...] = tuple(s for s in self.stackings if s.on_moves)
        """The stacking rules checked where a move ends (``checked always``/``during movement``/unsaid)."""
        self.actions: dict[str, ActionRule] = {d.name: compile_action(d) for d in self._in_force("action")}
        self.resources: dict[str, Resource] = {d.name: compile_resource(d) for d in rulebook.of_kind("resource")}
        self.awards: dict[str, Award] = {d.name: compile_award(d) for d in self._in_force("award")}
        self.events: dict[str, EventRule] = {d.name: compile_event(d) for d in rulebook.of_kind("event")}
        victory = rulebook.of_kind("victory")
        self.victory: Victory | None = compile_victory(victory[0]) if victory else None
        self.sides: tuple[str, ...] = tuple(d.name for d in rulebook.of_kind("side"))
        self.boxes: dict[str, Box] = {d.name: compile_box(d) for d in rulebook.of_kind("box")}
        self.placements: tuple[Placement, ...] = tuple(compile_placement(d) for d in self._in_force("placement"))
        self._placing: dict[tuple[str, str], tuple[Placement, ...]] = {}
        self.eliminated_box: str = next((b.name for b in self.boxes.values() if b.holds_eliminated), ELIMINATED)
        """Where eliminated units go: the box that ``holds eliminated``, else out of play."""
        self.zones: tuple[ZoneRule, ...] = tuple(compile_zone(d) for d in self._in_force("zone"))
        self.exits: tuple[ExitRule, ...] = tuple(compile_exit(d) for d in rulebook.of_kind("exit"))
        """The ways off the map (``interpreter.exits``), in the order declared."""
        control = rulebook.of_kind("control")
        self.control: ControlRule | None = compile_control(control[0]) if control else None
        """Who holds each cell and how it changes hands (``interpreter.control``); ``None``: no control."""
        self.traces: dict[str, TraceRule] = {d.name: compile_trace(d) for d in rulebook.of_kind("trace")}
        """The paths traced to a source (``interpreter.tracing``), by name."""
        sequence = rulebook.of_kind("sequence")
        self.phases: tuple[Declaration, ...] = tuple(
            d for d in (sequence[0].children if sequence else ()) if in_force(rulebook, d))
        """The phases of the sequence of play in force, in order (the flow runs these)."""
        self.sequence: SequencePlan = compile_sequence(sequence[0] if sequence else None)
        self.turn_records: dict[int, TurnRecord] = {r.turn: r for r in self.sequence.record}
        """The turn record by turn (``turn N "LABEL" …`` lines of the sequence)."""
        self.weathers: dict[str, str] = {d.name: d.display for d in rulebook.of_kind("weather")}
        """Each declared weather with its label."""
        self.names = names
        """What each declared name is, for reading conditions (``dsl.conditions``)."""
        self.states: dict[str, StateRule] = {d.name: compile_state(d, self.names) for d in rulebook.of_kind("state")}
        """The lasting states a side may enter (``interpreter.side_states``), by name."""
        self._plans: dict[int, PhasePlan] = {id(d): self._plan(d) for d in rulebook.walk()
                                             if d.kind in ("phase", "step")}
        self.tables: dict[str, TableView] = {d.name: TableView.from_declaration(d) for d in rulebook.of_kind("table")}
        self.combats: dict[str, CombatRule] = {d.name: compile_combat(d, self.names)
                                               for d in self._in_force("combat")}
        self._effects: dict[tuple[str, str], tuple[Effect, ...]] = {
            (d.kind, d.name): compile_effects(d, self.names) if in_force(rulebook, d) else ()
            for kind in EFFECT_KINDS for d in rulebook.of_kind(kind)}
        self._cell_selectors: dict[tuple[str, frozenset[str]], frozenset[str]] = {}
        self._meeting: dict[tuple[str, str | None], frozenset[str]] = {}
        for (kind, name), effects in self._effects.items():
            if kind in ("unit", "marker"):
                for effect in effects:
                    moment = effect.condition.moment if effect.condition is not None else None
                    if moment is not None:
                        for key in ((moment.kind, None), (moment.kind, moment.phase)):
                            self._meeting[key] = self._meeting.get(key, frozenset()) | {name}
        self.derived: dict[Any, Any] = {}
        """Answers the interpreter derives from this rulebook and keeps (``caches.rules_cache``, and
        per map ``caches.map_memos``):
        they live and die with this object, and nothing invalidates them, as a rulebook never changes."""

    def _in_force(self, kind: str) -> list[Declaration]:
        """The declarations of ``kind`` in force: those of a kind that honours ``requires option``
        (``OPTIONAL_KINDS``) whose option is off are left out of the compiled records, which is what
        being out of force means for each (module docstring)."""
        return [d for d in self.rulebook.of_kind(kind) if in_force(self.rulebook, d)]

    def _plan(self, decl: Declaration) -> PhasePlan:
        """A phase's or step's plan without its steps out of force (nor the ``alternate`` of one)."""
        plan = compile_phase(decl, self.names)
        runs = tuple(run for run in plan.runs if not isinstance(run, Declaration) or in_force(self.rulebook, run))
        alternate = plan.alternate
        if alternate is not None and not in_force(self.rulebook, alternate.step):
            alternate = None
        if runs == plan.runs and alternate is plan.alternate:
            return plan
        return evolve(plan, runs=runs, alternate=alternate)

    # --- tags and selectors ---------------------------------------------------------

    def tag_closure(self, tags: Iterable[str]) -> frozenset[str]:
        return tag_closure(self._parents, tags)

    def movement_of(self, unit_type: UnitType) -> MovementClass | None:
        """The type's movement class, or ``None`` when it names none."""
        return self.movement_by_type.get(unit_type.name)

    def placements_for(self, type_name: str, side: str) -> tuple[Placement, ...]:
        """The placements that place a counter of this type and side (worked out once per pair)."""
        key = (type_name, side)
        found = self._placing.get(key)
        if found is None:
            unit_type = self.unit_types[type_name]
            found = self._placing[key] = tuple(p for p in self.placements if p.places(unit_type, side))
        return found

    def phase_plan(self, decl: Declaration) -> PhasePlan:
        """The compiled plan of one of this rulebook's phases or steps (or of one patched in later)."""
        found = self._plans.get(id(decl))
        if found is None or found.decl is not decl:
            found = self._plans[id(decl)] = self._plan(decl)
        return found

    def phase_plans(self) -> tuple[PhasePlan, ...]:
        """The plans of every phase and step the rulebook declares, in force or not."""
        return tuple(self._plans.values())

    def mode(self, name: str | None) -> Mode | None:
        """The mode called ``name`` (``None`` for no mode, or one not declared)."""
        return self.modes.get(name) if name else None

    def effects(self, decl: Declaration) -> tuple[Effect, ...]:
        """A declaration's effect lines, compiled (``dsl.effects``), in order."""
        return self._effects.get((decl.kind, decl.name), ())

    def effects_of(self, unit_type: UnitType) -> tuple[Effect, ...]:
        """A unit or marker type's effect lines, compiled."""
        return self._effects.get((unit_type.kind, unit_type.name), ())

    def meeting(self, moment: str, phase: str | None = None) -> frozenset[str]:
        """The unit and marker types with an effect that waits for ``moment`` (``revealed``,
        ``round ends`` …; for ``phase ends``, of ``phase`` when given)."""
        return self._meeting.get((moment, phase), frozenset())

    def unit_type(self, name: str) -> UnitType:
        """The type named ``name``: a rulebook's, or one of them moving as another class (``moving_as``)."""
        found = self.unit_types.get(name)
        return found if found is not None else self._moving_types[name]

    def factor(self, unit: Any, name: str, default: Any = None) -> Any:
        """A counter's factor as it shows it now: its type's value at the unit's step (every read of
        a factor that a step may change goes through here), times its statuses' multipliers."""
        value = self.unit_types[unit.type].factor(name, default, unit.step)
        status = getattr(unit, "status", None)
        if status and isinstance(value, Fraction):
            for each in sorted(status):
                value *= self.statuses[each].multiplier(name)
        return value

    @staticmethod
    def unit_matches(unit_type: UnitType, names: Iterable[Any]) -> bool:
        """Whether any selector in ``names`` names this unit type."""
        return not unit_type.selectors.isdisjoint(map(str, names))

    def types_matching(self, names: tuple[Any, ...]) -> frozenset[str]:
        """The unit and marker types that a selector in ``names`` names (``unit_matches``), worked
        out once per ``names``: for loops over counters, which then test a type by membership."""
        key = ("types matching", names)
        found = self.derived.get(key)
        if found is None:
            found = self.derived[key] = frozenset(name for name, t in self.unit_types.items()
                                                  if self.unit_matches(t, names))
        return found

    def cell_selectors(self, terrain: str, cell_tags: frozenset[str] = frozenset()) -> frozenset[str]:
        """The names that select a cell of ``terrain`` with these tags (module docstring), kept by
        terrain and tags: a map has few kinds of cell, asked about many times."""
        key = (terrain, cell_tags)
        found = self._cell_selectors.get(key)
        if found is None:
            known = self.terrains.get(terrain)
            found = self._cell_selectors[key] = frozenset(
                {terrain, *(known.tags if known else ()), *self.tag_closure(cell_tags)})
        return found

    # --- terrain ------------------------------------------------------------------------

    def other_terrains(self, terrain: str, cell_tags: Iterable[str]) -> tuple[str, ...]:
        """The cell's other terrains: its tags that name a declared terrain of its own effects (one
        without ``effects from other terrain``), in name order.  A map gives a cell a second terrain
        by naming it after the first in the legend (``"b" = ["base", "coastal"]``)."""
        return tuple(sorted(t for t in cell_tags if t != terrain and t in self.terrains
                            and not self.terrains[t].defers))

    def cell_terrains(self, terrain: str, cell_tags: Iterable[str] = ()) -> tuple[Terrain, ...]:
        """The terrains whose effects hold in a cell of ``terrain`` with these tags, the first one
        first: the terrain itself, or for one with ``effects from other terrain`` the cell's other
        terrains (with none, the deferring terrain itself, which has no effect lines: lint E137),
        then the cell's other terrains (``other_terrains``).  How their effects combine is
        ``terrain_mix``'s; under its defaults only the first one's count.  Kept by terrain and tags."""
        key = (terrain, frozenset(cell_tags))
        found = self._cell_terrains.get(key)
        if found is None:
            known = self.terrains.get(terrain)
            others = tuple(self.terrains[t] for t in self.other_terrains(terrain, key[1]))
            if known is None:
                found = ()
            elif known.defers:
                found = others or (known,)
            else:
                found = (known, *others)
            self._cell_terrains[key] = found
        return found

    def cell_terrain(self, terrain: str, cell_tags: Iterable[str] = ()) -> Terrain | None:
        """The first of the cell's terrains (``cell_terrains``): the one whose effects hold alone
        where ``terrain_mix`` keeps a family ``primary``, and whose ``spot`` line always does.  For a
        terrain with ``effects from other terrain``, the other terrain first in name order (the map
        reader refuses a cell with two, E708)."""
        found = self.cell_terrains(terrain, cell_tags)
        return found[0] if found else None

    def cell_cost(self, terrain: str, unit_type: UnitType, cell_tags: Iterable[str] = (),
                  line_of: Callable[[Terrain], ForLine[Fraction | None] | None] | None = None,
                  ) -> tuple[Fraction | None, Terrain | None, ForLine[Fraction | None] | None]:
        """Movement points to enter a cell of ``terrain`` (with ``cell_tags``; ``None`` for no
        entry), combined over its terrains as ``terrain_mix.cost`` says, with the terrain that
        decides it and that terrain's line (``None``: it has none, cost 1).  ``line_of(terrain)``
        may give a terrain's line in force instead of its plain ``cost`` lines (a ``cost … when``)."""
        terrains = self.cell_terrains(terrain, cell_tags)
        if not terrains:
            return Fraction(1), None, None
        lines = [(line_of(t) if line_of is not None else None) or t.cost_for(unit_type.selectors) for t in terrains]
        cost, index = self.terrain_mix.combine_costs([(Fraction(1) if line is None else line.value, line is not None)
                                                      for line in lines])
        return cost, terrains[index], lines[index]

    def terrain_cost(self, terrain: str, unit_type: UnitType, cell_tags: Iterable[str] = ()) -> Fraction | None:
        """Movement points to enter a cell of ``terrain`` (with ``cell_tags``); ``None`` for no entry."""
        return self.cell_cost(terrain, unit_type, cell_tags)[0]

    def terrain_defence(self, terrain: str, unit_type: UnitType, cell_tags: Iterable[str] = ()) -> Fraction:
        """The defence multiplier a cell's terrains give a defending unit (x1 when none is declared),
        combined as ``terrain_mix.defence`` says."""
        terrains = self.cell_terrains(terrain, cell_tags)
        if not terrains:
            return Fraction(1)
        return self.terrain_mix.combine_multipliers([t.multiplier_for(unit_type.selectors) for t in terrains])
