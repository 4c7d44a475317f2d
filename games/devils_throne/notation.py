"""Texts of Devil's Throne: the deal, moves, and a one-position description.

Deal text: the ten coins as H (heads, HIGH) and L (tails, LOW) in round order, then each
seat's reserve, top first, after its suit letter, the parts separated by `;`:

    coins HLLHHLHLLH; D 7 K 4; H Q 9 J

The hands are not written: each is the rest of its seat's suit.  Input is case-insensitive,
ranks may be separated by spaces or commas, 10 may be typed T, suits as ♣ ♦ ♥ ♠.

Moves.  One action per acting seat, in seat order, separated by commas:
- SELECT: a rank, `A 2 … 10 J Q K` (e.g. `7,K` with two seats);
- EFFECT: the target seat, `@2` (the three's owner alone acts);
- ENVOY:  `@2` (the ace onto seat 2's card) or `pass`, one per eligible seat.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.base import DealError, MoveError
from games.devils_throne.cards import (
    COMMONS,
    MAX_ROUNDS,
    MODE_NAMES,
    RANK_OF_NAME,
    SUIT_SYMBOLS,
    parse_suit,
    rank_name,
)
from games.devils_throne.rules import EFFECT, ENVOY, OVER, PASS, PHASE_NAMES, SELECT, Deal, Rules, State

COIN_LETTERS = "HL"


def format_deal(deal: Deal, suits: Sequence[str]) -> str:
    coins = "".join(COIN_LETTERS[c] for c in deal.coins)
    seats = [f"{suit} {' '.join(rank_name(r) for r in reserve)}" for suit, reserve in zip(suits, deal.reserves)]
    return "; ".join([f"coins {coins}"] + seats)


def parse_deal(text: str, suits: Sequence[str]) -> Deal:
    parts = [part.strip() for part in text.split(";") if part.strip()]
    if len(parts) != len(suits) + 1:
        raise DealError(f"a {len(suits)}-player deal has {len(suits) + 1} parts separated by ';'"
                        f" (coins, then one reserve a seat), not {len(parts)}")
    coins = _parse_coins(parts[0])
    reserves = tuple(_parse_reserve(part, seat, suit) for seat, (part, suit) in enumerate(zip(parts[1:], suits)))
    return Deal(coins, reserves)


def check_deal(deal: Deal, players: int) -> None:
    """A deal built in code must still fit the rules: ten coins, three distinct commons a seat."""
    if len(deal.coins) != MAX_ROUNDS or any(c not in (0, 1) for c in deal.coins):
        raise DealError(f"a deal has {MAX_ROUNDS} coins, each 0 (HIGH) or 1 (LOW)")
    if len(deal.reserves) != players:
        raise DealError(f"a {players}-player deal has {players} reserves, not {len(deal.reserves)}")
    for seat, reserve in enumerate(deal.reserves):
        if len(reserve) != 3 or len(set(reserve)) != 3 or any(r not in COMMONS for r in reserve):
            raise DealError(f"seat {seat + 1}'s reserve must be 3 different commons (4-K)")


def format_action(phase: int, action: int) -> str:
    if phase == SELECT:
        return rank_name(action)
    return "pass" if action == PASS else f"@{action + 1}"


def format_joint(phase: int, move: Sequence[int]) -> str:
    return ",".join(format_action(phase, action) for action in move)


def parse_joint(phase: int, text: str, seats: int) -> tuple[int, ...]:
    """One action a seat, comma-separated; checked for form here, for legality by the game."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) != seats or not all(parts):
        raise MoveError(f"{seats} action(s) expected, one per acting seat separated by ',', not {text.strip()!r}")
    return tuple(_parse_action(phase, part) for part in parts)


def describe(rules: Rules, state: State) -> str:
    """`round 3 LOW select | 1♦ hand A 2 5 7 K res 2 tricks 4 | 2♥ …` (plus the in-round cards)."""
    head = f"round {state.round} {MODE_NAMES[rules.mode(state)]} {PHASE_NAMES[state.phase]}"
    if state.phase == OVER:
        head = "over"
    seats = []
    for seat, suit in enumerate(rules.suits):
        text = (f"{seat + 1}{SUIT_SYMBOLS[suit]} hand {' '.join(map(rank_name, state.hands[seat])) or '-'}"
                f" res {len(state.reserves[seat])} tricks {state.tricks[seat]}")
        if state.mains:
            text += f" main {rank_name(state.mains[seat])} total {state.totals[seat]}"
        seats.append(text)
    return " | ".join([head] + seats)


#: What each card does (docs/rules/devils-throne.md §1), for the legend.
CARD_POWERS = ("Cards: A Envoy: after the reveal, onto another seat's card, +1 in HIGH, -1 in LOW.  "
               "2 Deuce: J, Q and K count 10 this round.  3♣ Martyr: your reserve's top card into "
               "another seat's hand.  3♠ Gravedigger: any reserve's top card into your hand.  "
               "3♦ Robber: any reserve's top card onto your trick pile.  3♥ Lover: another seat's "
               "reserve top card turned up, added to its total.  4-K: their rank.")
POWER_NAMES = {"C": "Martyr", "S": "Gravedigger", "D": "Robber", "H": "Lover"}


def parse_seat_action(phase: int, text: str, legal: Sequence[int]) -> int:
    """One seat's action as a person types it (see DevilsThrone.parse_action)."""
    word = text.strip().upper()
    if phase != SELECT and word.isdigit():
        word = f"@{word}"
    held = " ".join(format_action(phase, action) for action in legal)
    try:
        action = _parse_action(phase, word)
    except MoveError:
        raise MoveError(f"{text.strip()!r} is none of your actions here ({held})") from None
    if action not in legal:
        if phase == SELECT:
            raise MoveError(f"you hold no {rank_name(action)} (your ranks: {held})")
        raise MoveError(f"{format_action(phase, action)} is not open (your actions: {held})")
    return action


def action_keys(phase: int) -> str:
    """The keys an action can begin with: ranks while selecting, else seats and pass."""
    return "0123456789aAtTjJQkK" if phase == SELECT else "0123456789pP@"


def stage_text(state: State) -> str:
    return f"round {state.round} {PHASE_NAMES[state.phase]}"


def board_text(rules: Rules, state: State, seat: int, mode: int) -> str:
    """The table for the full screen: the round, its coin and what is chosen now; then one
    row a seat (`you` at `seat`)."""
    if state.phase == OVER:
        head = f"Game over after round {state.round}."
    else:
        name = MODE_NAMES[mode]
        takes = "higher" if name == "HIGH" else "lower"
        head = f"Round {state.round} (at most 10): {name}, the {takes} total takes the trick.  " + _now(rules, state)
    lines = [head, f"Pool {state.pool} cards; out of the game {state.discarded}.", "",
             f"{'Seat':<10} {'Hand':<30} {'Reserve':>7} {'Tricks':>6} {'Main':>5} {'Total':>5}"]
    for index, suit in enumerate(rules.suits):
        who = "you" if index == seat else "bot"
        hand = " ".join(map(rank_name, state.hands[index])) or "-"
        main = rank_name(state.mains[index]) if state.mains else "-"
        total = str(state.totals[index]) if state.totals else "-"
        lines.append(f"{index + 1}{SUIT_SYMBOLS[suit]} {who:<7} {hand:<30} {len(state.reserves[index]):>7} "
                     f"{state.tricks[index]:>6} {main:>5} {total:>5}")
    return "\n".join(lines)


def _now(rules: Rules, state: State) -> str:
    if state.phase == SELECT:
        return "Every seat picks a card."
    if state.phase == EFFECT:
        power, owner = rules.effects[state.effect]
        return f"Seat {owner + 1}'s 3 ({POWER_NAMES[power]}) picks a target."
    if state.phase == ENVOY:
        seats = ", ".join(str(seat + 1) for seat in rules.acting_players(state))
        return f"Envoys: seat(s) {seats} may play an ace onto a card."
    return ""


def _parse_coins(text: str) -> tuple[int, ...]:
    word, _, coins = text.partition(" ")
    coins = coins.replace(" ", "").upper()
    if word.lower() != "coins" or len(coins) != MAX_ROUNDS or any(c not in COIN_LETTERS for c in coins):
        raise DealError(f"the deal starts with 'coins' and {MAX_ROUNDS} letters H or L, not {text!r}")
    return tuple(COIN_LETTERS.index(c) for c in coins)


def _parse_reserve(text: str, seat: int, suit: str) -> tuple[int, ...]:
    words = text.replace(",", " ").split()
    if parse_suit(words[0]) != suit:
        raise DealError(f"seat {seat + 1}'s part starts with its suit {suit}, not {words[0]!r}")
    ranks = []
    for word in words[1:]:
        rank = RANK_OF_NAME.get(word.upper())
        if rank not in COMMONS:
            raise DealError(f"seat {seat + 1}: {word!r} is not a common (4-10, J, Q, K)")
        ranks.append(rank)
    if len(ranks) != 3 or len(set(ranks)) != 3:
        raise DealError(f"seat {seat + 1}'s reserve is 3 different commons, not {' '.join(words[1:]) or 'none'}")
    return tuple(ranks)


def _parse_action(phase: int, text: str) -> int:
    word = text.strip().upper()
    if phase == SELECT:
        if word not in RANK_OF_NAME:
            raise MoveError(f"{text!r} is not a rank (A, 2-10, J, Q, K)")
        return RANK_OF_NAME[word]
    if phase == ENVOY and word == "PASS":
        return PASS
    seat = word[1:] if word[:1] in ("@", "P") else ""
    if not seat.isdigit() or not 1 <= int(seat) <= 4:
        raise MoveError(f"{text!r} is not a target seat such as @2" + (" or pass" if phase == ENVOY else ""))
    return int(seat) - 1
