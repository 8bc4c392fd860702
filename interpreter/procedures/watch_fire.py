"""WATCH fire: enemy units on watching orders fire at a unit moving in ``do move``.

Every enemy unit whose mode ``fires during enemy movement`` (WATCH) and that is adjacent to the
cell just entered, and has not fired yet this phase, may fire at the moving unit: its owner
chooses ``watch-fire WATCHER UNIT`` or ``hold WATCHER``; the fire is an
``interpreter.results.resolve`` of the combat whose ``table`` is the one the mode's ``roll
modifier … on TABLE`` names, with that modifier.  A target without the combat's defence factor
(air units print no Defend) is not offered, unless it is face down to the watcher.  A unit
eliminated or retreated by the fire stops (``interpreter.procedures.move``'s walk).

Readings: WATCH fire is one watcher against the one entering unit, at most once per watcher per
phase (``watch_fired`` in its ``spent`` flags).
"""

from __future__ import annotations


from ...dsl.compiled.modes import Mode
from ..flags import WATCH_FIRED
from .. import results
from ..actions import Action
from ..cells import adjacency
from ..citations import because
from ..context import Context, Flow
from ..modes import mode_forbids
from ..status_effects import status_forbids
from ..state import Unit, replace


class WatchFire:
    """The WATCH fire of one ``do move``: who may fire at a unit entering a cell, and who has fired."""

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.fired: set[str] = set()

    def _watch_combat(self, mode: Mode) -> tuple[str, int] | None:
        """The combat a watching mode fires with (the one using the table its roll modifier names)."""
        table = next((m.table for m in mode.roll_modifiers if m.table is not None), None)
        modifier = mode.roll_modifier_on(table, frozenset(self.ctx.running))
        combats = tuple(self.ctx.rules.combats.values())
        if table is not None:
            combats = tuple(c for c in combats if c.table == table)
        if not combats:
            return None
        chosen = next((c for c in combats if c.adjacent), combats[0])
        return chosen.name, int(modifier)

    def watchers(self, mover: Unit, cell: str) -> list[Unit]:
        """Enemy units that may fire at ``mover`` for entering ``cell``, in player order then id."""
        ctx = self.ctx
        around = adjacency(ctx.board)[cell]
        out = []
        for unit in ctx.state.units:
            if unit.side == mover.side or not unit.on_map or unit.dummy or unit.id in self.fired:
                continue
            if unit.location not in around or not unit.mode:
                continue
            mode = ctx.rules.mode(unit.mode)
            if mode is None or not mode.fires_during_enemy_movement or mode_forbids(ctx, unit, "attack") \
                    or status_forbids(ctx, unit, "attack"):
                continue
            out.append(unit)
        order = ctx.player_order
        return sorted(out, key=lambda u: (order.index(u.side) if u.side in order else len(order), u.id))

    def _may_be_fired_at(self, combat_name: str, target: Unit, watcher: Unit) -> bool:
        if target.hidden and target.side != watcher.side:
            return True  # the watcher sees a counter, not what it is
        combat = self.ctx.rules.combats.get(combat_name)
        factor = combat.defence_factor if combat is not None else None
        if factor is None:
            return True
        return self.ctx.rules.unit_type(target.type).factor(factor) is not None

    def watch(self, mover_id: str, cell: str) -> Flow:
        """Offer WATCH fire at ``mover_id``, which has just entered ``cell``."""
        ctx = self.ctx
        mover = ctx.state.unit(mover_id)
        candidates = self.watchers(mover, cell)
        if not candidates:
            return
        for watcher in candidates:
            mover = ctx.state.unit(mover_id)
            watcher = ctx.state.unit(watcher.id)
            if mover.location != cell:
                return
            if not watcher.on_map or watcher.id in self.fired or not watcher.mode:
                continue
            mode = ctx.rules.mode(watcher.mode)
            found = self._watch_combat(mode)
            if found is None or not self._may_be_fired_at(found[0], mover, watcher):
                continue
            combat_name, modifier = found
            fire, hold = Action("watch-fire", (watcher.id, mover_id)), Action("hold", (watcher.id,))

            def why_not(action: Action, watcher_id=watcher.id, mode_decl=mode.decl) -> str | None:
                if action.args[:1] != (watcher_id,):
                    return f"{watcher_id} is the unit that may fire now"
                if action.kind == "watch-fire" and action.args[1:] != (mover_id,):
                    return because(f"{watcher_id} may fire only at {mover_id}, which has just entered {cell}",
                                   mode_decl)
                return None

            action = yield from ctx.choose(
                watcher.side, "watch", f"{ctx.label(watcher, watcher.side)} ({mode.label}) may fire at "
                f"{ctx.label(mover, watcher.side)} entering {cell}", [fire, hold], why_not)
            if action.kind != "watch-fire":
                continue
            self.fired.add(watcher.id)
            ctx.update_unit(replace(watcher, spent=watcher.spent | {WATCH_FIRED}))
            reason = f"{mode.label} fire by {watcher.id} at {mover_id} entering {cell}"
            ctx.say(reason, kind="watch", unit=watcher.id, target=mover_id, cell=cell)
            yield from results.resolve(ctx, combat_name, [watcher], [mover], reason=reason, roll_modifier=modifier,
                               attacker_side=watcher.side)
