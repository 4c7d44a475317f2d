"""Positions of random games for the tests of any game: what they check runs on every kind
of position a game reaches, not only on hand-picked ones."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from typing import Any


def random_positions(game, seeds: Iterable[int], steps: int) -> Iterator[Any]:
    """Each position of a game per seed, uniform legal moves (seeded), at most `steps` a game."""
    for seed in seeds:
        rng = random.Random(seed)
        state = game.initial_state(game.deal_from_seed(seed))
        for _ in range(steps):
            yield state
            if game.outcome(state) is not None:
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
