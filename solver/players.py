"""Players that do not peek, and the loop that plays a deal with one of them.

- `random`: a uniform legal move (seeded).
- `greedy`: the game's own documented rule (`Game.greedy_move`, stated in docs/play.md),
  reading only what is face up.
- `fair`: the fair hint (solver/fair.py) as a player, with its expectimax table kept from
  one decision to the next (visible positions do not depend on the deal they came from).

The benchmarks (usurper/app/policies.py) and the difficulty grades (solver/grade.py) play with these.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.base import Game, UsurperError
from solver.expectimax import FairExpectimax, offers_exact
from solver.fair import EXACT_NODES, FAIR_SAMPLES, fair_hint_for_state

Policy = Callable[[Game, Any, random.Random], Any]
POLICIES = ("fair", "greedy", "random")
#: The expectimax table a fair player keeps is dropped past this many positions.
TABLE_LIMIT = 1_000_000
#: A deal whose positions repeat can be played forever; a policy that has not ended it after
#: this many decisions has stalled (a deal played with sense ends within a few hundred).
MAX_DECISIONS = 500


def policy(name: str, samples: int = FAIR_SAMPLES, exact_nodes: int = EXACT_NODES) -> Policy:
    """The named policy as a function (game, state, rng) -> move."""
    if name == "random":
        return lambda game, state, rng: rng.choice(game.legal_moves(state))
    if name == "greedy":
        return greedy_move
    if name == "fair":
        return FairPolicy(samples, exact_nodes)
    raise UsurperError(f"unknown policy {name!r} (known: {', '.join(POLICIES)})")


class FairPolicy:
    """The fair hint as a policy, with one expectimax table per game kept between decisions."""

    def __init__(self, samples: int = FAIR_SAMPLES, exact_nodes: int = EXACT_NODES):
        self.samples, self.exact_nodes = samples, exact_nodes
        self.tables: dict[str, FairExpectimax] = {}

    def __call__(self, game: Game, state: Any, rng: random.Random) -> Any:
        moves = game.legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        return fair_hint_for_state(game, state, samples=self.samples, rng=rng, exact_nodes=self.exact_nodes,
                                   expectimax=self._table(game)).move

    def _table(self, game: Game) -> FairExpectimax | None:
        model = game.visible_positions()
        if not offers_exact(model):
            return None
        key = f"{game.name}/{game.variant}"
        table = self.tables.get(key)
        if table is None or len(table.table) > TABLE_LIMIT:
            table = self.tables[key] = FairExpectimax(game, model)
        return table


def greedy_move(game: Game, state: Any, rng: random.Random) -> Any:
    """The game's own greedy rule (Game.greedy_move; each game documents it in docs/play.md)."""
    return game.greedy_move(state)


@dataclass
class PlayedDeal:
    seed: int
    won: bool
    score: int
    decisions: int      # positions where the policy chose among two moves or more
    seconds: float      # CPU time spent choosing
    stalled: bool = False  # stopped after MAX_DECISIONS without an end: not won, score 0


def player_rng(rng_seed: int, seed: int) -> random.Random:
    """The random generator of one play of deal `seed` with random seed `rng_seed`."""
    return random.Random(rng_seed * 1_000_003 + seed)


def play_deal(game: Game, seed: int, choose: Policy, rng_seed: int = 0,
              max_decisions: int = MAX_DECISIONS, line: list | None = None) -> PlayedDeal:
    """One deal from its seed to its end, every move chosen by `choose` (or until it stalls);
    the moves played are appended to `line` when one is given."""
    state = game.initial_state(game.deal_from_seed(seed))
    return play_from(game, state, choose, player_rng(rng_seed, seed), seed, max_decisions, line)


def play_from(game: Game, state: Any, choose: Policy, rng: random.Random, seed: int = 0,
              max_decisions: int = MAX_DECISIONS, line: list | None = None) -> PlayedDeal:
    """Play from `state` to the end with `choose` (a forced move is played without asking it)."""
    decisions, seconds = 0, 0.0
    while game.outcome(state) is None:
        if decisions >= max_decisions:
            return PlayedDeal(seed, False, 0, decisions, seconds, stalled=True)
        moves = game.legal_moves(state)
        if len(moves) == 1:
            move = moves[0]
        else:
            started = time.process_time()
            move = choose(game, state, rng)
            seconds += time.process_time() - started
            decisions += 1
        state = game.apply(state, move)
        if line is not None:
            line.append(move)
    outcome = game.outcome(state)
    return PlayedDeal(seed, outcome.won, outcome.score, decisions, seconds)
