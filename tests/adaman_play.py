"""Seeded Adaman playouts for the tests: where positions of every depth come from."""

from __future__ import annotations

from games.decks import DECKTET


def playout(game, state, rng, greedy: bool = True) -> list:
    """The positions of one game from `state`.  Greedy play (85 % of moves) controls
    personalities cheaply, so that the sample holds wins as well as losses."""
    path = [state]
    while game.outcome(state) is None:
        # a canonical order, so that a seed means the same game whatever order the engine lists
        moves = sorted(game.legal_moves(state), key=lambda move: game.format_move(state, move))
        if greedy and rng.random() > 0.15:
            def cost(move):
                target, payment = move
                paid = sum(DECKTET[i].rank for i in range(payment.bit_length()) if payment >> i & 1)
                return (not DECKTET[target].personality, paid - DECKTET[target].rank, rng.random())
            move = min(moves, key=cost)
        else:
            move = rng.choice(moves)
        state = game.apply(state, move)
        path.append(state)
    return path
