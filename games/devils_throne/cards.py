"""Ranks, suits and card values of Devil's Throne (spec §1, §3), shared by the engine and its notation.

A card in play is known by its rank alone: specials never leave their owner and a moved
common's suit has no effect [R22], so hands are multisets of ranks and the suit of a special
is always its holder's.
"""

from __future__ import annotations

ACE, DEUCE, THREE = 1, 2, 3
JACK, QUEEN, KING = 11, 12, 13
#: The ten commons, in the ascending order that the seeded deal shuffles (§2).
COMMONS = tuple(range(4, 14))
SPECIALS = (ACE, DEUCE, THREE)
RANKS = tuple(range(1, 14))
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"} | {rank: str(rank) for rank in range(2, 11)}
RANK_OF_NAME = {name: rank for rank, name in RANK_NAMES.items()} | {"T": 10, "1": ACE}

SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_OF_SYMBOL = {symbol: letter for letter, symbol in SUIT_SYMBOLS.items()}
#: Seats 1-4 hold these suits unless told otherwise, the seed's listing order [R1].
DEFAULT_SUITS = ("D", "H", "S", "C")

#: The threes' powers by suit, resolved in this order after the reveal [R11].
MARTYR, GRAVEDIGGER, ROBBER, LOVER = "C", "S", "D", "H"
EFFECT_ORDER = (MARTYR, GRAVEDIGGER, ROBBER, LOVER)

#: Coin sides (§2): heads (0) is HIGH, tails (1) is LOW [R3].
HIGH, LOW = 0, 1
MODE_NAMES = ("HIGH", "LOW")
#: A game lasts at most this many rounds, so a deal needs this many coins [R24].
MAX_ROUNDS = 10


def card_value(rank: int, deuce: bool) -> int:
    """A card's value this round: its rank, except J, Q and K count 10 in a deuce round [R10].
    An ace is worth 1 wherever it is valued; only an Envoy's ±1 differs [R5, R8]."""
    return 10 if deuce and rank > 10 else rank


def rank_name(rank: int) -> str:
    return RANK_NAMES[rank]


def parse_suit(text: str) -> str | None:
    """A suit letter from `C`/`D`/`H`/`S` (any case) or ♣ ♦ ♥ ♠; None if it is none of them."""
    text = text.strip()
    if text in SUIT_OF_SYMBOL:
        return SUIT_OF_SYMBOL[text]
    letter = text.upper()
    return letter if len(letter) == 1 and letter in SUIT_LETTERS else None
