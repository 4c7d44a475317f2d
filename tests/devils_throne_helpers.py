"""Devil's Throne test helpers shared by the search tests: endings of real deals, and the
marker of the tests that need the compiled core (an install without a C compiler has none)."""

from __future__ import annotations

import random

import pytest

from games.devils_throne import PASS, DevilsThrone, State
from games.devils_throne.rules import ENVOY, SELECT


def late_position(game: DevilsThrone, seed: int, cards_left: int) -> State:
    """A round start reached by random joint play, with at most `cards_left` cards in the
    smallest hand (and the game not over)."""
    rng = random.Random(seed)
    while True:
        state = game.initial_state(game.deal_from_seed(rng.randrange(10**6)))
        while not game.is_over(state) and (state.phase != SELECT or min(map(len, state.hands)) > cards_left):
            seats = game.acting_players(state)
            state = game.apply_joint(state, tuple(rng.choice(game.legal_actions(state, s)) for s in seats))
        if not game.is_over(state):
            return state


def late_uneven_position(game: DevilsThrone, seed: int, cards_left: int) -> State:
    """As `late_position`, but with hands left uneven (so some cards must stay in hands):
    random joint play that plays an Envoy whenever it may."""
    rng = random.Random(seed)
    while True:
        state = game.initial_state(game.deal_from_seed(rng.randrange(10**6)))
        while not game.is_over(state) and (state.phase != SELECT or min(map(len, state.hands)) > cards_left):
            joint = []
            for seat in game.acting_players(state):
                actions = game.legal_actions(state, seat)
                aces = [action for action in actions if action != PASS]
                joint.append(rng.choice(aces if state.phase == ENVOY and aces else actions))
            state = game.apply_joint(state, tuple(joint))
        if not game.is_over(state) and game.rules.cards_stuck(state):
            return state


def _compiled_built() -> bool:
    from games.devils_throne import compiled

    return compiled._core is not None


needs_core = pytest.mark.skipif(not _compiled_built(), reason="games/devils_throne/_core is not built")
