"""Royal Assassin's texts: the variant words (spec §10), deals, moves as typed, and the full
one-line position of the redeal variant (V7).

Deal text: the stock order, top first, separated by spaces and/or commas; cards are written
rank then suit, case-insensitive (`KS qh 10D AC`; `T` is accepted for ten, ♣ ♦ ♥ ♠ for the
suits).  52 cards; with `two_jokers` 54 cards, the two Jokers each written `JK` (they are
identical in play, so the notation does not tell them apart).

Seeded deals: `games.decks.shuffled` over the canonical order (C, D, H, S; within a suit
A, 2 … 10, J, Q, K; then, with V1, the two Jokers), i.e. `random.Random(seed).shuffle`.

Moves are written as games/royal_assassin/rules.py lists them (`T`, `A(X)`, `P`, `R(X)`,
`J(X)`, `JR(X)`, `JT(X)`, `E`, `REDEAL`; X a suit letter C, D, H or S); input is
case-insensitive and may omit the parentheses or put spaces in them (`a h`, `R( d )`).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.base import MoveError, VariantError
from games.decks import parse_spaced_cards, playing_card_lookup, shown
from games.royal_assassin.rules import (
    COLUMN_MOVES,
    FINISHED_WON,
    IS_ROYAL,
    JOKER,
    MOVE_E,
    MOVE_P,
    MOVE_REDEAL,
    MOVE_T,
    NAMES,
    NO_CARD,
    PLAYING,
    ROYALS_IN_DECK,
    SUIT,
    SUITS,
    RoyalAssassinRules,
    RoyalAssassinState,
    royal_attack,
    royal_card,
    royal_defence,
)

LOOKUP = playing_card_lookup()
VARIANT_WORDS = (
    "two_jokers", "fixed_royals=N", "ace_first_play", "discard_on_equal_only", "royal_beneath", "joker_dies", "redeal",
)
FLAGS = ("two_jokers", "ace_first_play", "discard_on_equal_only", "royal_beneath", "joker_dies", "redeal")


# ----- variants ---------------------------------------------------------------------------
def parse_variants(variants: Sequence[str]) -> dict:
    """The switches of spec §10 from `--variant` words, e.g. `two_jokers`, `fixed_royals=4`."""
    options: dict = {}
    for word in variants:
        name, equals, value = word.strip().lower().partition("=")
        name, value = name.strip(), value.strip()
        if name in options:  # `fixed_royals=4,fixed_royals=5`: which was meant?
            raise VariantError(f"royal-assassin variant {name!r} given more than once")
        if name in FLAGS and not equals:
            options[name] = True
        elif name == "fixed_royals":
            if not value.isdigit() or not 1 <= int(value) <= 12:
                raise VariantError(f"fixed_royals needs a whole number from 1 to 12, not {value or 'nothing'!r}")
            options[name] = int(value)
        else:
            known = ", ".join(VARIANT_WORDS)
            raise VariantError(f"unknown royal-assassin variant {word.strip()!r} (known: {known})")
    return options


def variant_text(game: RoyalAssassinRules) -> str:
    """The variant words that build this game again ("standard": none)."""
    words = [w for w in ("two_jokers",) if game.two_jokers]
    if game.fixed_royals is not None:
        words.append(f"fixed_royals={game.fixed_royals}")
    for flag in ("ace_first_play", "discard_on_equal_only", "royal_beneath", "joker_dies", "redeal"):
        if getattr(game, flag):
            words.append(flag)
    return ",".join(words) or "standard"


# ----- deals ------------------------------------------------------------------------------
def parse_deal(text: str, cards: tuple) -> tuple:
    return parse_spaced_cards(text, LOOKUP, cards, "this variant's deck")


def format_deal(deal: tuple) -> str:
    return " ".join(card.name for card in deal)


# ----- moves ------------------------------------------------------------------------------
def parse_move(game: RoyalAssassinRules, state: RoyalAssassinState, text: str) -> str:
    """Read a move of the module docstring's notation; only a move legal here is accepted."""
    legal = game.legal_moves(state)
    if not legal:
        raise MoveError("the game is over; no move can be played")
    move = normalise_move(text)
    if move in legal:
        return move
    raise MoveError(why_illegal(game, state, move, text, legal))


def normalise_move(text: str) -> str | None:
    """'a h', 'A(h)', ' r( D ) ' -> 'A(H)', 'R(D)'; None when it is no move of the notation."""
    compact = "".join(text.split()).upper().replace("(", "").replace(")", "")
    if compact in (MOVE_T, MOVE_P, MOVE_E, MOVE_REDEAL):
        return compact
    kind, column = compact[:-1], compact[-1:]
    if kind in COLUMN_MOVES and column and column in SUITS:
        return COLUMN_MOVES[kind][SUITS.index(column)]
    return None


def why_illegal(game: RoyalAssassinRules, state: RoyalAssassinState, move: str | None, text: str,
                legal: list[str]) -> str:
    """Why a move text names no legal move here, in one line."""
    shown = ", ".join(legal)
    if move is None:
        notation = "T, P, E, A(X), R(X), J(X), JR(X), JT(X) or REDEAL"
        return f"cannot read {text.strip()!r}: expected {notation} (legal: {shown})"
    point = "D1" if state.turned == NO_CARD else f"holding {NAMES[state.turned]}"
    if move == MOVE_T and state.turned == NO_CARD:
        return "the stock is empty"
    if move in (MOVE_E, MOVE_REDEAL) and state.pos < len(state.stock):
        return f"{move} is only legal once the stock is empty"
    if move == MOVE_REDEAL and not game.redeal:
        return "REDEAL needs the redeal variant"
    if move[0] == "J" and move[:2] != "JT" and not state.available and move[:2] != "JR":
        return "no Joker is AVAILABLE" + ("; place the turned Joker with JT(X)" if state.turned == JOKER else "")
    return f"{move} is not legal here ({point}; legal: {shown})"


# ----- positions -------------------------------------------------------------------------
def full_description(state: RoyalAssassinState) -> str:
    """One line: stock, reserve (bottom → top), columns with each Royal's cards, Jokers, hand."""
    left = len(state.stock) - state.pos
    parts = [f"Stock: {left} left" + (f" (top {shown(NAMES[state.stock[state.pos]])})" if left else "")]
    parts.append("Reserve: " + (" ".join(shown(NAMES[c]) for c in state.reserve) or "-"))
    for column in range(4):
        royals = []
        for code, pile in zip(state.columns[column], state.piles[column]):
            card = royal_card(code)
            text = shown(NAMES[card])
            if pile:
                attack = " ".join(shown(NAMES[c]) for c in pile if SUIT[c] != column)
                defence = " ".join(shown(NAMES[c]) for c in pile if SUIT[c] == column)
                text += f"[A{royal_attack(code)}:{attack or '-'} D{royal_defence(code)}:{defence or '-'}]"
            royals.append(text)
        lock = state.locks[column]
        extra = " +JK" if state.jokers_on >> column & 1 else ""
        extra += f" ({SUITS[lock]} attacks)" if lock >= 0 else ""
        parts.append(f"{SUITS[column]}: " + (" ".join(royals) or "-") + extra)
    parts.append(f"Jokers available: {state.available}")
    if state.turned != NO_CARD:
        parts.append(f"Turned: {shown(NAMES[state.turned])}")
    killed = ROYALS_IN_DECK - sum(map(len, state.columns)) - sum(
        1 for c in state.stock[state.pos:] if IS_ROYAL[c])
    parts.append(f"Killed: {killed}; Discard: {len(state.discard)}")
    if state.status != PLAYING:
        parts.append("WON" if state.status == FINISHED_WON else "LOST")
    return "; ".join(parts)


def card_names(cards) -> str:
    """Cards in the order given, with their suit symbols ('-': none)."""
    return " ".join(shown(NAMES[card]) for card in cards) or "-"
