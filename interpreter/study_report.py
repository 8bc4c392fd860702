"""What a balance study says: each arm's rates and distributions, and the difference a house rule makes.

``summarize(records, sides)`` reads one arm's ``GameRecord``s (sorted by seed first, so the answer
never depends on the order games finished in): win and draw rates with Wilson intervals, the
victory levels reached, the VP margin from the first side's point of view (its total less the best
other side's; from the winner and margin when the result gives no totals), game length, decisions
per game and per phase, and counters lost per side.

``compare(house, base, sides)`` pairs the two arms seed by seed (an A/B study plays the same seeds
under both): each side's win rate, the draw rate, the margin and the losses as differences with
their intervals (``statistics.paired_difference``), and a verdict in words.

Limits: seeds that only one arm finished (an interrupted study) are left out of the comparison;
games that broke off with an engine error are counted and left out of every figure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from attrs import evolve, frozen

from .statistics import Interval, mean, paired_difference, rate
from .study import GameRecord


@frozen
class ArmSummary:
    """One arm of a study, summarized."""

    arm: str
    games: int
    """Games that finished without an engine error (the figures are over these)."""
    errors: tuple[tuple[int, str], ...]
    """(seed, error) of the games that broke off."""
    seeds: tuple[int, int] | None
    """The lowest and highest seed played."""
    wins: tuple[tuple[str, int, Interval], ...]
    """(side, games won, win rate) in player order."""
    draws: tuple[int, Interval]
    """Games no side won, and their rate."""
    levels: tuple[tuple[str, int], ...]
    """(result as ``LEVEL for SIDE``, games), most frequent first."""
    margins: tuple[tuple[int, int], ...]
    """(the first side's VP margin, games), lowest margin first."""
    margin: Interval
    turns: tuple[tuple[int, int], ...]
    """(turns played, games)."""
    length: Interval
    decisions: Interval
    phase_decisions: tuple[tuple[str, Interval], ...]
    """(phase, decisions per game in it), in the order games reach the phases."""
    losses: tuple[tuple[str, Interval], ...]
    """(side, counters it lost per game)."""

    def to_json(self) -> dict:
        return {
            "arm": self.arm, "games": self.games, "seeds": list(self.seeds) if self.seeds else None,
            "errors": [{"seed": seed, "error": error} for seed, error in self.errors],
            "wins": {side: {"games": count, "rate": interval.to_json()} for side, count, interval in self.wins},
            "draws": {"games": self.draws[0], "rate": self.draws[1].to_json()},
            "levels": dict(self.levels), "margins": {str(m): n for m, n in self.margins},
            "margin": self.margin.to_json(), "turns": {str(t): n for t, n in self.turns},
            "length": self.length.to_json(), "decisions": self.decisions.to_json(),
            "phase_decisions": {phase: interval.to_json() for phase, interval in self.phase_decisions},
            "losses": {side: interval.to_json() for side, interval in self.losses},
        }


@frozen
class Comparison:
    """A house rule against the base, over the seeds both arms finished."""

    house: ArmSummary
    base: ArmSummary
    paired: int
    """Seeds both arms finished without an error."""
    wins: tuple[tuple[str, Interval], ...]
    """(side, house win rate less base win rate)."""
    draws: Interval
    margin: Interval
    losses: tuple[tuple[str, Interval], ...]
    verdict: tuple[str, ...]
    """The difference in plain words, one sentence per finding."""

    def to_json(self) -> dict:
        return {"paired_games": self.paired,
                "wins": {side: interval.to_json() for side, interval in self.wins},
                "draws": self.draws.to_json(), "margin": self.margin.to_json(),
                "losses": {side: interval.to_json() for side, interval in self.losses},
                "verdict": list(self.verdict)}


def signed_margin(record: GameRecord, sides: Sequence[str]) -> int:
    """The first side's lead: its total less the best other side's (negative when behind)."""
    totals = {side: Fraction(value) for side, value in record.totals}
    first = sides[0] if sides else None
    if first in totals and len(totals) > 1:
        return int(totals[first] - max(v for side, v in totals.items() if side != first))
    if record.winner is None:
        return 0
    return record.margin if record.winner == first else -record.margin


def summarize(records: Sequence[GameRecord], sides: Sequence[str], arm: str = "study") -> ArmSummary:
    """One arm's figures from its records (in any order)."""
    ordered = sorted(records, key=lambda r: r.seed)
    done = [r for r in ordered if r.error is None]
    n = len(done)
    winners = Counter(r.winner for r in done)
    levels = Counter(f"{r.level} for {r.winner}" if r.winner else str(r.level) for r in done)
    margins = [signed_margin(r, sides) for r in done]
    phases: dict[str, list[int]] = {}
    for r in done:
        for phase, _ in r.phase_decisions:
            phases.setdefault(phase, [])
    for r in done:
        counted = dict(r.phase_decisions)
        for phase, values in phases.items():
            values.append(counted.get(phase, 0))
    return ArmSummary(
        arm, n, tuple((r.seed, str(r.error)) for r in ordered if r.error is not None),
        (ordered[0].seed, ordered[-1].seed) if ordered else None,
        tuple((side, winners.get(side, 0), rate(winners.get(side, 0), n)) for side in sides),
        (winners.get(None, 0), rate(winners.get(None, 0), n)),
        tuple(sorted(levels.items(), key=lambda item: (-item[1], item[0]))),
        tuple(sorted(Counter(margins).items())), mean(margins),
        tuple(sorted(Counter(r.turns for r in done).items())), mean([r.turns for r in done]),
        mean([r.decisions for r in done]),
        tuple((phase, mean(values)) for phase, values in phases.items()),
        tuple((side, mean([dict(r.losses).get(side, 0) for r in done])) for side in sides))


def compare(house: Sequence[GameRecord], base: Sequence[GameRecord], sides: Sequence[str]) -> Comparison:
    """The house arm against the base arm, seed by seed."""
    by_seed = {r.seed: r for r in base if r.error is None}
    pairs = [(r, by_seed[r.seed]) for r in sorted(house, key=lambda r: r.seed) if r.error is None and r.seed in by_seed]
    treated, control = [h for h, _ in pairs], [b for _, b in pairs]

    def difference(value) -> Interval:
        return paired_difference([float(value(r)) for r in treated], [float(value(r)) for r in control])

    wins = tuple((side, difference(lambda r, s=side: r.winner == s)) for side in sides)
    draws = difference(lambda r: r.winner is None)
    margin = difference(lambda r: signed_margin(r, sides))
    losses = tuple((side, difference(lambda r, s=side: dict(r.losses).get(s, 0))) for side in sides)
    comparison = Comparison(summarize(house, sides, "house"), summarize(base, sides, "base"), len(pairs),
                            wins, draws, margin, losses, ())
    return evolve(comparison, verdict=verdict(comparison, sides))


def verdict(comparison: Comparison, sides: Sequence[str]) -> tuple[str, ...]:
    """The comparison in plain words: what changed beyond luck, and how large a change the study could
    have missed."""
    n = comparison.paired
    if n == 0:
        return ("no seed was played under both rules: nothing to compare",)
    said = []
    decided = any(count for _, count, _ in (*comparison.house.wins, *comparison.base.wins))
    for side, interval in comparison.wins if decided else ():
        points = _points(interval)
        if interval.excludes(0):
            way = "raises" if interval.estimate > 0 else "lowers"
            said.append(f"the house rule {way} {side}'s win rate by {abs(interval.estimate) * 100:.1f} points "
                        f"({points}): more than luck over {n} paired games")
        else:
            said.append(f"no clear change in {side}'s win rate over {n} paired games ({points}); a change "
                        f"larger than {max(abs(interval.low), abs(interval.high)) * 100:.1f} points is unlikely")
    if not decided:
        said.append(f"no game was won under either rule ({n} paired games): win rates cannot differ")
    for side, interval in comparison.losses:
        if interval.excludes(0):
            way = "more" if interval.estimate > 0 else "fewer"
            said.append(f"{side}: {abs(interval.estimate):.2f} {way} counters lost a game under the house rule "
                        f"(95% CI {interval.low:+.2f} to {interval.high:+.2f})")
    if comparison.margin.excludes(0):
        said.append(f"{sides[0]}'s VP margin moves by {comparison.margin.estimate:+.2f} a game "
                    f"(95% CI {comparison.margin.low:+.2f} to {comparison.margin.high:+.2f})")
    return tuple(said)


def _points(interval: Interval) -> str:
    return (f"{interval.estimate * 100:+.1f} points, 95% CI {interval.low * 100:+.1f} to "
            f"{interval.high * 100:+.1f}")
