"""Small statistics shared by benchmarks and catalogues: a Wilson interval and percentiles."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z_95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95 % by default); (0, 1) with no trials."""
    if trials <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= trials:
        raise ValueError(f"successes {successes} outside 0..{trials}")
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], fraction: float) -> float:
    """The `fraction` (0..1) percentile by linear interpolation between order statistics."""
    if not values:
        raise ValueError("percentile of no values")
    if not 0 <= fraction <= 1:
        raise ValueError(f"fraction {fraction} outside 0..1")
    ordered = sorted(values)
    position = fraction * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    if position == low or ordered[low] == ordered[high]:
        return ordered[low]  # no interpolation: exact, also beside an infinite neighbour
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def median(values: Sequence[float]) -> float:
    return percentile(values, 0.5)
