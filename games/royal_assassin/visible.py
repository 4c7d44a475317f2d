"""Royal Assassin as a player at the table sees it: the columns with each Royal's attack and
defence cards, the reserve, the discard pile, the Jokers and the turned card are face up;
the stock's contents follow (every card not seen), its order does not.

Notation (one line, sections separated by ';', in any order; cards as in deal texts, shown
with their suit symbols and read with symbols or letters):

    Stock: 30 left; Reserve: 2♣ 5♥; C: Q♣[A7:7♦ D3:3♣] K♣ +JK (D attacks); D: -; H: J♥; S: -;
    Jokers available: 0; Turned: 9♦; Discard: 4♥ J♠

It is `describe`'s text with the discard pile named (describe only counts it) and the top of
the stock left out (a player does not see it; `(top X)` is ignored if present).  A Royal's
bracket lists its attack cards after `A` and its defence cards after `D`; the totals written
after A and D are optional and must match the cards; `(X attacks)` is optional and must
match the attack cards; `Killed: N` is checked when given.  A position no game reaches is
refused with one line naming the problem.

A sampled state's stock is the cards seen (the reserve in the order it was built, the turned
card last: the order in which they were turned, as the compiled engine expects) followed
by the unseen cards in a random order.

Moves in a player's words (`move_words`) and the greedy rule of docs/play.md
(`greedy_move`) are here too, as a player at the table would say and follow them.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, replace

from games.base import DealError
from games.decks import shown
from games.royal_assassin.notation import LOOKUP
from games.royal_assassin.rules import (
    FINISHED_LOST,
    FINISHED_WON,
    IS_RED,
    IS_ROYAL,
    JOKER,
    NAMES,
    NO_CARD,
    NO_LOCK,
    PLAYING,
    SUIT,
    SUITS,
    VALUE,
    RoyalAssassinRules,
    RoyalAssassinState,
    royal,
    royal_attack,
    royal_defence,
)

#: A Royal on a column: its card, its attack cards, its defence cards.
Royal = tuple[int, tuple[int, ...], tuple[int, ...]]
ROYAL_TOKEN = re.compile(r"(?P<card>[0-9a-z]+[cdhs♣♦♥♠])\s*(?:\[(?P<pile>[^\]]*)\])?", re.IGNORECASE)
PILE = re.compile(r"^\s*A(?P<a>\d*)\s*:(?P<attack>.*?)\s+D(?P<d>\d*)\s*:(?P<defence>.*)$", re.IGNORECASE)
LOCK = re.compile(r"\((?P<suit>[CDHS])\s+attacks\)", re.IGNORECASE)


@dataclass(frozen=True)
class RoyalAssassinVisible:
    reserve: tuple[int, ...]                    # bottom -> top
    columns: tuple[tuple[Royal, ...], ...]      # C, D, H, S: Royals bottom -> top
    jokers_on: int                              # bit X: a Joker is on column X
    available: int                              # Jokers set aside, ready to place
    turned: int                                 # the card in hand, NO_CARD at D1
    discard: tuple[int, ...]                    # sorted
    unknown: tuple[int, ...]                    # the stock's contents, sorted
    status: int = PLAYING                       # a finished game says WON or LOST at the end


def parse_visible(game: RoyalAssassinRules, text: str) -> RoyalAssassinVisible:
    """Read the notation above; DealError names the first thing no game shows."""
    _refuse_redeal(game)
    sections = _sections(text)
    columns = tuple(_column(game, column, sections.get(SUITS[column], "-")) for column in range(4))
    jokers_on = sum(1 << column for column in range(4) if "+JK" in sections.get(SUITS[column], "").upper())
    reserve = _cards(sections.get("RESERVE", "-"), "the reserve")
    turned_list = _cards(sections.get("TURNED", "-"), "the hand")
    if len(turned_list) > 1:
        raise DealError("only one card can be in hand (Turned)")
    turned = turned_list[0] if turned_list else NO_CARD
    discard = _discard(sections.get("DISCARD", "-"))
    available = _available(game, sections, jokers_on, reserve, turned_list, discard)
    seen = [card for column in columns for r in column for card in (r[0], *r[1], *r[2])] + list(reserve) + list(
        turned_list) + list(discard)
    unknown = _unknown(game, seen, available, jokers_on)
    visible = RoyalAssassinVisible(tuple(reserve), columns, jokers_on, available, turned, tuple(sorted(discard)),
                                   unknown)
    visible = replace(visible, status=_status(visible, sections.get("END")))
    _check_places(game, visible)
    _check_counts(sections, visible)
    return visible


def visible_of(game: RoyalAssassinRules, state: RoyalAssassinState) -> RoyalAssassinVisible:
    """What a player sees of a full state."""
    _refuse_redeal(game)
    columns = []
    for column in range(4):
        royals = []
        for code, pile in zip(state.columns[column], state.piles[column]):
            attack = tuple(c for c in pile if SUIT[c] != column)
            defence = tuple(c for c in pile if SUIT[c] == column)
            royals.append((code & 63, attack, defence))
        columns.append(tuple(royals))
    return RoyalAssassinVisible(state.reserve, tuple(columns), state.jokers_on, state.available, state.turned,
                                tuple(sorted(state.discard)), tuple(sorted(state.stock[state.pos:])), state.status)


def format_visible(game: RoyalAssassinRules, visible: RoyalAssassinVisible) -> str:
    parts = [f"Stock: {len(visible.unknown)} left", "Reserve: " + _names(visible.reserve)]
    for column in range(4):
        royals = " ".join(_royal_text(game, r) for r in visible.columns[column]) or "-"
        joker = " +JK" if visible.jokers_on >> column & 1 else ""
        lock = _lock(visible.columns[column])
        parts.append(f"{SUITS[column]}: {royals}{joker}" + (f" ({SUITS[lock]} attacks)" if lock != NO_LOCK else ""))
    parts.append(f"Jokers available: {visible.available}")
    if visible.turned != NO_CARD:
        parts.append(f"Turned: {shown(NAMES[visible.turned])}")
    parts.append("Discard: " + _names(visible.discard))
    if visible.status != PLAYING:
        parts.append("WON" if visible.status == FINISHED_WON else "LOST")
    return "; ".join(parts)


def visible_text(game: RoyalAssassinRules, state: RoyalAssassinState) -> str:
    return format_visible(game, visible_of(game, state))


def sample_state(game: RoyalAssassinRules, visible: RoyalAssassinVisible, rng: random.Random) -> RoyalAssassinState:
    """One full state consistent with `visible`: the unseen cards in a random order."""
    unknown = list(visible.unknown)
    rng.shuffle(unknown)
    return state_with_order(game, visible, unknown)


#: The unseen cards are exactly the cards still to come (VisiblePositions.exact_orders).
exact_orders = True


def state_with_order(game: RoyalAssassinRules, visible: RoyalAssassinVisible, order) -> RoyalAssassinState:
    """The full state whose stock holds the unseen cards in `order`, top first."""
    turned_before = _deck_cards_seen(game, visible)
    stock = tuple(turned_before) + tuple(order)
    columns, piles, locks = [], [], []
    for column in visible.columns:
        columns.append(tuple(royal(card, _total(game, attack), _total(game, defence))
                             for card, attack, defence in column))
        piles.append(tuple(attack + defence for _, attack, defence in column))
        locks.append(_lock(column))
    return RoyalAssassinState(
        stock=stock, pos=len(turned_before), reserve=visible.reserve, columns=tuple(columns), locks=tuple(locks),
        jokers_on=visible.jokers_on, available=visible.available, turned=visible.turned, redeal_blocked=False,
        status=visible.status, piles=tuple(piles), discard=visible.discard,
    )


def unknown_count(visible: RoyalAssassinVisible) -> int:
    return len(visible.unknown)


# ----- reading ----------------------------------------------------------------------------
def _refuse_redeal(game: RoyalAssassinRules) -> None:
    if game.redeal:
        raise DealError("visible positions do not cover the redeal variant (a redealt stock's order is seen)")


def _sections(text: str) -> dict[str, str]:
    sections: dict[str, str] = {}
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        name, colon, body = part.partition(":")
        name = name.strip().upper()
        if not colon and name in ("WON", "LOST"):
            name, colon, body = "END", ":", name
        if not colon or name not in ("STOCK", "RESERVE", "JOKERS AVAILABLE", "TURNED", "DISCARD", "KILLED", "END",
                                     *SUITS):
            raise DealError(f"cannot read {part!r}: expected Stock, Reserve, C, D, H, S, Jokers available, "
                            f"Turned, Killed or Discard, each followed by ':'")
        if name in sections:
            raise DealError(f"{name.capitalize()} is given twice")
        sections[name] = body.strip()
    return sections


def _card(word: str) -> int:
    card = LOOKUP.get(word.strip().lower())
    if card is None:
        raise DealError(f"unknown card {word.strip()!r}")
    return card.id


def _cards(body: str, where: str) -> list[int]:
    words = [w for w in body.replace(",", " ").split() if w != "-"]
    return [_card(word) for word in words]


def _discard(body: str) -> list[int]:
    words = body.replace(",", " ").split()
    if len(words) == 1 and words[0].isdigit() and words[0] != "0":
        raise DealError("name the discarded cards ('Discard: 4H JS ...'): the stock's contents follow from them")
    return [] if words == ["0"] else _cards(body, "the discard pile")


def _column(game: RoyalAssassinRules, column: int, body: str) -> tuple[Royal, ...]:
    lock = LOCK.search(body)
    rest = LOCK.sub(" ", body).replace("+JK", " ").replace("+jk", " ").strip()
    royals: list[Royal] = []
    position = 0
    while True:
        while position < len(rest) and rest[position].isspace():
            position += 1
        if rest[position:] in ("", "-"):
            break
        match = ROYAL_TOKEN.match(rest, position)
        if match is None:
            raise DealError(f"cannot read column {SUITS[column]}: {rest[position:]!r}")
        royals.append(_royal(game, column, match))
        position = match.end()
    if lock and _lock(tuple(royals)) != SUITS.index(lock.group("suit").upper()):
        raise DealError(f"column {SUITS[column]} says {lock.group('suit').upper()} attacks, "
                        f"but its attack cards say otherwise")
    return tuple(royals)


def _royal(game: RoyalAssassinRules, column: int, match: re.Match) -> Royal:
    card = _card(match.group("card"))
    name = NAMES[card]
    if not IS_ROYAL[card] or SUIT[card] != column:
        raise DealError(f"{name} cannot be on column {SUITS[column]} (only its own suit's J, Q, K are)")
    if not match.group("pile"):
        return card, (), ()
    pile = PILE.match(match.group("pile"))
    if pile is None:
        raise DealError(f"cannot read the cards on {name}: expected [A:cards D:cards]")
    attack = tuple(_cards(pile.group("attack"), name))
    defence = tuple(_cards(pile.group("defence"), name))
    for given, cards, label in ((pile.group("a"), attack, "attack"), (pile.group("d"), defence, "defence")):
        if given and int(given) != _total(game, cards):
            raise DealError(f"{name}'s {label} total is written {given} but its cards add up to {_total(game, cards)}")
    return card, attack, defence


def _available(game: RoyalAssassinRules, sections: dict[str, str], jokers_on: int, reserve: list[int],
               turned: list[int], discard: list[int]) -> int:
    """Jokers set aside: as written, else (one Joker, never in the stock) the one not seen elsewhere."""
    body = sections.get("JOKERS AVAILABLE")
    if body is not None:
        if not body.isdigit():
            raise DealError(f"cannot read 'Jokers available: {body}': expected a number")
        return int(body)
    if game.two_jokers:
        return 0
    seen = jokers_on.bit_count() + (reserve + turned + discard).count(JOKER)
    return max(0, 1 - seen)


def _unknown(game: RoyalAssassinRules, seen: list[int], available: int, jokers_on: int) -> tuple[int, ...]:
    """The stock's contents: the deck less every card seen (a card twice is refused here)."""
    counts = Counter(seen)
    for card, count in counts.items():
        if card != JOKER and count > 1:
            raise DealError(f"{NAMES[card]} is given twice")
    jokers = 2 if game.two_jokers else 1
    jokers_seen = counts[JOKER] + available + jokers_on.bit_count()
    if jokers_seen > jokers:
        raise DealError(f"{jokers_seen} Jokers are seen but the game has {jokers}")
    deck = Counter(card.id for card in game.cards)
    deck[JOKER] = max(0, deck[JOKER] - jokers_seen)
    for card in counts:
        if card != JOKER:
            deck[card] -= 1
    return tuple(sorted(deck.elements()))


# ----- checks -----------------------------------------------------------------------------
def _check_places(game: RoyalAssassinRules, visible: RoyalAssassinVisible) -> None:
    for card in visible.reserve:
        if IS_ROYAL[card]:
            raise DealError(f"{NAMES[card]} is a Royal and never goes to the reserve")
    if visible.turned != NO_CARD and IS_ROYAL[visible.turned]:
        raise DealError(f"{NAMES[visible.turned]} is a Royal: a turned Royal goes straight to its column")
    for column, royals in enumerate(visible.columns):
        if visible.jokers_on >> column & 1 and len(royals) < 2:
            raise DealError(f"a Joker is on column {SUITS[column]}, which holds fewer than 2 Royals")
        attack_suits = {SUIT[card] for _, attack, _ in royals for card in attack}
        if len(attack_suits) > 1:
            raise DealError(f"column {SUITS[column]} is attacked by two suits; one suit attacks a column at a time")
        for card, attack, defence in royals:
            _check_pile(game, column, card, attack, defence)


def _check_pile(game: RoyalAssassinRules, column: int, card: int, attack: tuple, defence: tuple) -> None:
    """Attack cards come from the other colour, defence cards from the column's suit; a pile
    the kill check or the discard test would have cleared is not a position."""
    name = NAMES[card]
    for other in attack + defence:
        if IS_ROYAL[other] or other == JOKER:
            raise DealError(f"{NAMES[other]} cannot lie on {name}: only number cards attack or defend")
    for other in attack:
        if IS_RED[SUIT[other]] == IS_RED[column]:
            raise DealError(f"{NAMES[other]} cannot attack {name}: attacks come from the other colour")
    for other in defence:
        if SUIT[other] != column:
            raise DealError(f"{NAMES[other]} cannot defend {name}: defence cards are of the column's suit")
    a, d = _total(game, attack), _total(game, defence)
    if defence and not attack:
        raise DealError(f"{name} has defence cards but no attack card (defence answers an attack)")
    if attack and a >= VALUE[card] + d:
        raise DealError(f"{name} is attacked by {a} against {VALUE[card]} + {d}: it would be dead")
    # With ace_first_play an Ace counted 11 in the test right after it landed and 1 since
    # (V3), so the resting totals cannot tell whether that test would have cleared the pile.
    if attack and not game.ace_first_play and (d == a if game.discard_on_equal_only else d >= a):
        raise DealError(f"{name}'s defence {d} meets its attack {a}: the discard test would have cleared it")


def _check_counts(sections: dict[str, str], visible: RoyalAssassinVisible) -> None:
    stock = sections.get("STOCK")
    if stock is not None:
        words = stock.split()
        if not words or not words[0].isdigit():
            raise DealError(f"cannot read 'Stock: {stock}': expected 'Stock: N left'")
        if int(words[0]) != len(visible.unknown):
            raise DealError(f"the stock holds {words[0]} cards by its count but {len(visible.unknown)} are not seen")
    killed = sections.get("KILLED")
    if killed is not None:
        dead = sum(1 for card in visible.discard if card != JOKER and IS_ROYAL[card])
        if killed.split()[0] != str(dead):
            raise DealError(f"Killed says {killed.split()[0]} but the discard pile holds {dead} Royals")


# ----- helpers ----------------------------------------------------------------------------
def _deck_cards_seen(game: RoyalAssassinRules, visible: RoyalAssassinVisible) -> list[int]:
    """The deck's cards not in the stock, in an order the cards could have been turned in."""
    deck = Counter(card.id for card in game.cards)
    deck.subtract(visible.unknown)
    last = list(visible.reserve) + ([visible.turned] if visible.turned != NO_CARD else [])
    deck.subtract(last)
    first = sorted(deck.elements())
    return first + last


def _total(game: RoyalAssassinRules, cards: tuple[int, ...]) -> int:
    return sum(game.resting_value[card] for card in cards)


def _lock(royals: tuple[Royal, ...]) -> int:
    for _, attack, _ in royals:
        if attack:
            return SUIT[attack[0]]
    return NO_LOCK


def _status(visible: RoyalAssassinVisible, end: str | None) -> int:
    """Won once the table is empty after a kill (R24); lost when the text says so (E, R25)."""
    on_table = any(visible.columns)
    killed = any(IS_ROYAL[card] for card in visible.discard if card != JOKER)
    if not on_table and killed:
        return FINISHED_WON
    if end == "LOST":
        if visible.unknown or visible.turned != NO_CARD:
            raise DealError("a game ends (E) only with the stock empty and no card in hand")
        return FINISHED_LOST
    if end == "WON":
        raise DealError("the game is won only when no Royal is left on the table")
    return PLAYING


def _royal_text(game: RoyalAssassinRules, royal_: Royal) -> str:
    card, attack, defence = royal_
    if not attack and not defence:
        return shown(NAMES[card])
    return (f"{shown(NAMES[card])}[A{_total(game, attack)}:{_names(attack)} "
            f"D{_total(game, defence)}:{_names(defence)}]")


def _names(cards) -> str:
    return " ".join(shown(NAMES[card]) for card in cards) or "-"


# ----- moves in words ---------------------------------------------------------------------
def card_words(card: int) -> str:
    """`9♦`, `Q♣`, `Joker`: how a person names a card, as the position shows it."""
    if card == JOKER:
        return "Joker"
    return shown(NAMES[card])


def move_words(game: RoyalAssassinRules, state: RoyalAssassinState, move: str, peek: bool = False) -> str:
    """A move with the cards it acts on: `A(C) 9♦ attacks Q♣`; `T 7♣ (turned)` only with
    `peek` (a clairvoyant hint knows the top card; a fair one does not)."""
    if move == "T":
        if peek and state.pos < len(state.stock):
            return f"T {card_words(state.stock[state.pos])} (turned)"
        return "T (turn the top stock card)"
    if move == "P":
        return f"P {card_words(state.turned)} to the reserve"
    if move == "E":
        return "E (end the game)"
    if move == "REDEAL":
        return "REDEAL (the reserve becomes the stock)"
    kind = move[: move.index("(")]
    column = SUITS.index(move[-2])
    target = card_words(state.columns[column][-1] & 63)
    if kind == "A":
        return f"{move} {card_words(state.turned)} attacks {target}"
    if kind == "R":
        return f"{move} {card_words(state.reserve[-1])} from the reserve attacks {target}"
    return f"{move} Joker onto {target}'s column"


#: Greedy Royal Assassin attacks a Pretender that survives only when at most this much
#: attack is then still needed to kill it.
CLOSE_TO_DEATH = 5


def greedy_move(game: RoyalAssassinRules, state: RoyalAssassinState) -> str:
    """The greedy rule (docs/play.md): the attack that kills most, else the one leaving a
    Pretender closest to death, else a Joker, else turn, pass, end."""
    moves = game.legal_moves(state)

    def on_table(position: RoyalAssassinState) -> int:
        return sum(len(column) for column in position.columns)

    def still_needed(position: RoyalAssassinState, column: int) -> int:
        code = position.columns[column][-1]
        return VALUE[code & 63] + royal_defence(code) - royal_attack(code)

    kills, closes, jokers = [], [], []
    for move in moves:
        if "(" not in move or move[0] not in "ARJ":
            continue
        child = game.apply(state, move)  # attacks and Jokers turn no stock card: no peeking
        killed = on_table(state) - on_table(child)
        if killed > 0:
            kills.append((killed, move))
        elif move[0] == "J":
            jokers.append(move)
        else:
            column = "CDHS".index(move[-2])
            if child.columns[column] and still_needed(child, column) <= CLOSE_TO_DEATH:
                closes.append((still_needed(child, column), move))
    if kills:
        return max(kills)[1]
    if closes:
        return min(closes)[1]
    if jokers:
        return jokers[0]
    for fallback in ("T", "P", "E"):
        if fallback in moves:
            return fallback
    return moves[0]
