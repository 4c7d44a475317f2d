"""Seed ranges as users type them (`0-999`, `3,10-12`), held as ranges, never as a set.

A range of a billion seeds costs a few bytes until it is walked; `len`, membership and the
label are answered from the ranges themselves.  One run takes at most MAX_SEEDS seeds.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator

from games.base import UsurperError

#: The most seeds one `--seeds` may name: far beyond any run that finishes, small enough
#: that what a run keeps per seed (its rows) fits in memory.
MAX_SEEDS = 10_000_000

_SHAPE = "expected A-B or a comma list of them (e.g. 3,10-12), with whole numbers 0 <= A <= B"


class SeedRanges:
    """Sorted, disjoint, non-adjacent inclusive ranges of seeds; iterates each seed once, in order."""

    __slots__ = ("_firsts", "_lasts", "_count")

    def __init__(self, spans: Iterable[tuple[int, int]] = ()):
        merged: list[list[int]] = []
        for first, last in sorted(spans):
            if merged and first <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], last)
            else:
                merged.append([first, last])
        self._firsts = [first for first, _ in merged]
        self._lasts = [last for _, last in merged]
        self._count = sum(last - first + 1 for first, last in merged)

    @classmethod
    def of(cls, seeds: Iterable[int]) -> SeedRanges:
        """The ranges holding exactly `seeds` (any order, repeats allowed)."""
        if isinstance(seeds, SeedRanges):
            return seeds
        return cls((seed, seed) for seed in seeds)

    @property
    def count(self) -> int:
        """How many seeds (len() too, where it fits in a machine word)."""
        return self._count

    def __len__(self) -> int:
        return self._count

    def __bool__(self) -> bool:
        return self._count > 0

    def __iter__(self) -> Iterator[int]:
        for first, last in zip(self._firsts, self._lasts):
            yield from range(first, last + 1)

    def __contains__(self, seed: object) -> bool:
        if not isinstance(seed, int):
            return False
        at = bisect.bisect_right(self._firsts, seed) - 1
        return at >= 0 and seed <= self._lasts[at]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SeedRanges):
            return (self._firsts, self._lasts) == (other._firsts, other._lasts)
        return NotImplemented

    def __repr__(self) -> str:
        return f"SeedRanges({self.text()!r})"

    def text(self) -> str:
        """As --seeds text: `3,10-12`."""
        return ",".join(str(first) if first == last else f"{first}-{last}"
                        for first, last in zip(self._firsts, self._lasts))


def parse_seed_ranges(text: str, maximum: int = MAX_SEEDS) -> SeedRanges:
    """'0-999' is seeds 0 to 999 inclusive; '7' is seed 7 alone; '3,10-12' is 3, 10, 11, 12
    (a list such as `usurper catalogue stats FILE --undecided` prints).  At most `maximum`
    seeds; anything else raises UsurperError in one line."""
    if not isinstance(text, str):
        raise UsurperError(f"bad seed range {text!r}: {_SHAPE}")
    spans = []
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        first, last = first.strip(), last.strip()
        # '5-' (or '-5') is a typo, not seed 5: both ends must be written.
        if not _whole(first) or (dash and not _whole(last)):
            raise UsurperError(f"bad seed range {_shown(text)}: {_SHAPE}")
        low, high = int(first), int(last) if dash else int(first)
        if high < low:
            raise UsurperError(f"bad seed range {_shown(text)}: {_SHAPE}")
        spans.append((low, high))
    seeds = SeedRanges(spans)
    if seeds.count > maximum:
        raise UsurperError(f"--seeds {_shown(text)} names {seeds.count:,} seeds; one run takes at most "
                           f"{maximum:,} (split the range)")
    return seeds


def _whole(word: str) -> bool:
    # str.isdigit also accepts digits such as '²' that int() refuses; ASCII only.  The
    # length cap keeps int() clear of its 4,300-digit limit.
    return 0 < len(word) <= 30 and word.isascii() and word.isdigit()


def _shown(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")
