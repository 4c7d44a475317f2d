"""Devil's Throne test helpers shared by the search tests: endings of real deals, and the
marker of the tests that need the compiled core (an install without a C compiler has none)."""

from __future__ import annotations

import pytest

from games.devils_throne import DevilsThrone, State
from games.devils_throne.game import late_round_start


def late_position(game: DevilsThrone, seed: int, cards_left: int) -> State:
    """A round start reached by random joint play, with at most `cards_left` cards in the
    smallest hand (and the game not over)."""
    return late_round_start(game, seed, cards_left)


def late_uneven_position(game: DevilsThrone, seed: int, cards_left: int) -> State:
    """As `late_position`, but with hands left uneven (so some cards must stay in hands):
    random joint play that plays an Envoy whenever it may."""
    return late_round_start(game, seed, cards_left, envoys=True, accept=game.rules.cards_stuck)


def _compiled_built() -> bool:
    from games.devils_throne import compiled

    return compiled._core is not None


needs_core = pytest.mark.skipif(not _compiled_built(), reason="games/devils_throne/_core is not built")
