"""The games of a study: arms, records, and playing a range of seeds (``play_seeds``), the unit of
work a study's pool hands out (``interpreter.study`` runs studies; ``interpreter.study_pool`` holds
its worker processes).

A study plays each seed of a range once per *arm* (the scenario under its own rules, or under a
house rulebook; an A/B study has two arms on the same seeds).  ``play_seeds(arm, start, stop)`` is
the unit of work: a worker has the arm's scenario loaded and compiled once (``arm_scenario`` keeps
it for the life of the process: a forked worker inherits it from the study's process, another
compiles it when it starts; compiled rules pickle, but shipping them costs more than either)
and plays each seed to the end with ``agents.automatic_agent``, so game ``S`` of a study is the
game ``warbook play --seed S`` plays with the same agents.

Limits: a game that raises inside the engine is recorded with its ``error`` (and counted apart by
the report) rather than stopping the study; it is a bug in warbook to report, not a result.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager

from attrs import field, frozen

Task = tuple["StudyArm", int, int]
"""One seed range of one arm: (arm, first seed, seed after the last)."""

Runner = Callable[[Sequence[Task], int], Iterator["GameRecord"]]
"""Where a study's tasks are played, given the tasks and the number of jobs: ``run_locally`` (this
machine's worker processes) or a cluster's (``interpreter.study_ray.ray_runner``)."""


@frozen
class StudyArm:
    """One set of rules a study plays the scenario under (picklable: paths and names only)."""

    name: str
    """``study`` for a plain study; ``house`` and ``base`` for the two arms of an A/B study."""
    scenario: str
    """The scenario file."""
    rules: str | None = None
    """A rulebook file played instead of the scenario's own (``warbook play --rules``); ``None``: its own."""
    agents: tuple[str, ...] = ()
    """The agent of each side in the scenario's player order (``random``/``greedy``); empty: random."""


@frozen
class GameRecord:
    """What one game of a study came to: the report is computed from these alone."""

    seed: int
    arm: str
    winner: str | None
    level: str | None
    margin: int
    totals: tuple[tuple[str, str], ...] = ()
    """(side, victory resource total as text), as the result gives them."""
    turns: int = 0
    decisions: int = 0
    phase_decisions: tuple[tuple[str, int], ...] = ()
    """(phase, decisions made in it), in the order the game first reached each phase."""
    losses: tuple[tuple[str, int], ...] = ()
    """(side, its counters eliminated by the end), for every side."""
    error: str | None = field(default=None)
    """The engine's error when the game broke off (the other fields are then as far as it got)."""

    def to_json(self) -> dict:
        return {"seed": self.seed, "arm": self.arm, "winner": self.winner, "level": self.level,
                "margin": self.margin, "totals": dict(self.totals), "turns": self.turns,
                "decisions": self.decisions, "phase_decisions": dict(self.phase_decisions),
                "losses": dict(self.losses), "error": self.error}

    @classmethod
    def from_json(cls, data: dict) -> "GameRecord":
        return cls(int(data["seed"]), str(data["arm"]), data.get("winner"), data.get("level"),
                   int(data.get("margin", 0)), tuple((k, str(v)) for k, v in (data.get("totals") or {}).items()),
                   int(data.get("turns", 0)), int(data.get("decisions", 0)),
                   tuple((k, int(v)) for k, v in (data.get("phase_decisions") or {}).items()),
                   tuple((k, int(v)) for k, v in (data.get("losses") or {}).items()), data.get("error"))

    def to_line(self) -> str:
        """The record as one JSON line (phases in the order played), as ``warbook sim --out`` writes it."""
        return json.dumps(self.to_json(), ensure_ascii=False)


_LOADED: dict[StudyArm, object] = {}
"""The scenario of each arm this process has loaded and compiled (a worker compiles once)."""


def arm_scenario(arm: StudyArm):
    """The arm's scenario, loaded and compiled once per process.

    Raises:
        RulesError: when the scenario or the rulebook does not load, or the rules do not lint.
    """
    loaded = _LOADED.get(arm)
    if loaded is None:
        from .game import Game
        from .scenario import load_scenario, with_rulebook

        loaded = load_scenario(arm.scenario)
        if arm.rules is not None:
            loaded = with_rulebook(loaded, arm.rules)
        Game(loaded, 0)  # refuses rules that do not lint, or unsupported procedures, before any game
        _LOADED[arm] = loaded
    return loaded


def play_game(arm: StudyArm, seed: int) -> GameRecord:
    """Play one seed of the arm to the end and record it."""
    from .agents import automatic_agent, iter_play
    from .game import Game

    scenario = arm_scenario(arm)
    game = Game(scenario, seed)
    kinds = dict(zip(scenario.player_order, arm.agents or ("random",) * len(scenario.player_order)))
    agents = {side: automatic_agent(kinds.get(side, "random"), side, game) for side in scenario.player_order}
    phases: dict[str, int] = {}
    phase, decisions, error = "setup", 0, None
    try:
        for entry in iter_play(game, agents):
            if entry.get("type") == "decision":
                decisions += 1
                phases[phase] = phases.get(phase, 0) + 1
            elif entry.get("phase"):
                phase = str(entry["phase"])
    except Exception as exc:  # a bug in warbook: recorded and counted, never taken for a result
        error = f"{type(exc).__name__}: {exc}"
    result = game.result() or {}
    eliminated = game.ctx.rules.eliminated_box
    losses = {side: 0 for side in scenario.player_order}
    for unit in game.state.units:
        if unit.location == eliminated and not unit.dummy:
            losses[unit.side] = losses.get(unit.side, 0) + 1
    return GameRecord(seed, arm.name, result.get("winner"), result.get("level"), int(result.get("margin", 0)),
                      tuple((side, str(v)) for side, v in (result.get("totals") or {}).items()),
                      int(game.state.turn), decisions, tuple(phases.items()), tuple(losses.items()), error)


def play_seeds(arm: StudyArm, start: int, stop: int) -> list[GameRecord]:
    """Play seeds ``start`` to ``stop - 1`` of the arm: the unit of work a worker is given."""
    return [play_game(arm, seed) for seed in range(start, stop)]


def seed_ranges(seeds: range, size: int) -> list[range]:
    """The seeds cut into consecutive ranges of ``size`` (the last may be shorter).

    >>> seed_ranges(range(10, 15), 2)
    [range(10, 12), range(12, 14), range(14, 15)]
    """
    size = max(1, size)
    return [range(start, min(start + size, seeds.stop)) for start in range(seeds.start, seeds.stop, size)]


def shrinking_ranges(seeds: range, jobs: int) -> list[range]:
    """The seeds cut into consecutive ranges that shrink as the study nears its end: up to 4 games
    while much is left (handing out work then costs little), down to single games for about the last
    ``16 × jobs``, so that no worker sits idle at the end while another plays a range through.

    >>> sizes = [len(r) for r in shrinking_ranges(range(100), 2)]
    >>> [sizes.count(n) for n in (4, 3, 2, 1)], sizes[-32:-30]
    ([10, 5, 7, 31], [2, 1])
    """
    ranges, start, share = [], seeds.start, 8 * max(1, jobs)
    while start < seeds.stop:
        size = max(1, min(4, (seeds.stop - start) // share))
        ranges.append(range(start, start + size))
        start += size
    return ranges


@contextmanager
def heap_frozen() -> Iterator[None]:
    """Everything this process holds now out of the garbage collector's sight (``gc.freeze``) until
    the block ends: a full collection then goes over what the block made only, not over compiled
    rules that live on anyway.  A heap the caller froze already stays as the caller left it."""
    thaw = gc.get_freeze_count() == 0
    if thaw:
        gc.freeze()
    try:
        yield
    finally:
        if thaw:
            gc.unfreeze()


def play_task(task: Task) -> list[GameRecord]:
    """``play_seeds`` on one (arm, start, stop) task (what a pool's ``imap`` passes)."""
    return play_seeds(*task)


def read_records(lines: Iterable[str]) -> list[GameRecord]:
    """Records from JSON lines (``warbook sim --out``), skipping a last line cut short by an interrupt."""
    records = []
    for line in lines:
        try:
            records.append(GameRecord.from_json(json.loads(line)))
        except (ValueError, KeyError, TypeError):
            continue
    return records
