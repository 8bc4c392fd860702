"""Confidence intervals for balance studies: a rate (Wilson), a mean, and a paired difference.

``warbook sim`` reports each side's win rate with its 95% Wilson score interval (good near 0 and 1
and for few games, where the normal approximation gives intervals past 0 or 1), a mean (VP
margin, game length, losses) with a normal interval, and, for an A/B study played on the same
seeds, the difference of the two arms as the mean of the per-seed differences with its normal
interval: pairing removes the luck both arms share, so the interval is narrower than comparing
two independent rates.

Limits: the normal intervals assume enough games for the mean to be near normal (a few dozen);
with fewer, treat them as rough.  A paired difference whose games all agree has width 0.

>>> low, high = wilson(8, 10)
>>> round(low, 3), round(high, 3)
(0.49, 0.943)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from attrs import frozen

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""


@frozen
class Interval:
    """An estimate with its 95% confidence interval."""

    estimate: float
    low: float
    high: float

    def excludes(self, value: float = 0.0) -> bool:
        """Whether ``value`` lies outside the interval (a difference that is not luck, at 95%)."""
        return value < self.low or value > self.high

    def to_json(self) -> dict:
        return {"estimate": self.estimate, "low": self.low, "high": self.high}


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion; (0, 1) when there are no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(successes: int, trials: int) -> Interval:
    """A proportion with its Wilson interval."""
    low, high = wilson(successes, trials)
    return Interval(successes / trials if trials else 0.0, low, high)


def mean(values: Sequence[float], z: float = Z95) -> Interval:
    """The mean with a normal interval (the sample standard deviation over the square root of n).

    >>> mean([1, 2, 3]).estimate
    2.0
    """
    n = len(values)
    if n == 0:
        return Interval(0.0, 0.0, 0.0)
    average = sum(values) / n
    if n == 1:
        return Interval(average, average, average)
    variance = sum((v - average) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(variance / n)
    return Interval(average, average - half, average + half)


def paired_difference(treated: Sequence[float], control: Sequence[float]) -> Interval:
    """The mean of ``treated[i] - control[i]`` with its interval: two arms played on the same seeds.

    Raises:
        ValueError: when the arms have different lengths.
    """
    if len(treated) != len(control):
        raise ValueError(f"paired arms differ in length: {len(treated)} and {len(control)}")
    return mean([a - b for a, b in zip(treated, control)])
