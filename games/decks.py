"""Card types shared by the games, and the one strict reader of deal texts they all use.

The Decktet table is the one of the Adaman spec (`docs/rules/adaman.md` §1.2–1.3): the ID
is only a canonical order, Ace = 1 and Crown = 10 (ruling R14), Pawns and Courts 10 (P1).

The 52-card deck (plus Jokers) is in canonical order C, D, H, S, and within a suit
A, 2 … 10, J, Q, K; the Joker comes after it.  Cards are written rank then suit (`10H`,
`QS`, `AC`; `T` is accepted for ten, suits may also be typed as ♣ ♦ ♥ ♠), the Joker `JK`.
Deal texts write the letters; positions, boards and moves show the symbols (`shown`).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from games.base import DECKTET_SUIT_LETTERS, DECKTET_SUIT_SYMBOLS, SUIT_SYMBOLS, DealError

SUITS = ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots")


@dataclass(frozen=True)
class DecktetCard:
    id: int
    name: str
    code: str
    rank: int
    suits: tuple[str, ...]
    personality: bool

    @property
    def index(self) -> int:
        """Bit position of the card in row masks."""
        return self.id - 1


def _card(id_, name, code, rank, suits, personality=False):
    return DecktetCard(id_, name, code, rank, tuple(suits.split()), personality)


# Codes: two letters of the suit after "A" for Aces, otherwise a short unique stem of the name.
DECKTET = (
    _card(1, "Ace of Moons", "AMo", 1, "Moons"),
    _card(2, "Ace of Suns", "ASu", 1, "Suns"),
    _card(3, "Ace of Waves", "AWa", 1, "Waves"),
    _card(4, "Ace of Leaves", "ALe", 1, "Leaves"),
    _card(5, "Ace of Wyrms", "AWy", 1, "Wyrms"),
    _card(6, "Ace of Knots", "AKn", 1, "Knots"),
    _card(7, "Author", "Aut", 2, "Moons Knots", True),
    _card(8, "Desert", "Des", 2, "Suns Wyrms"),
    _card(9, "Origin", "Ori", 2, "Waves Leaves"),
    _card(10, "Journey", "Jou", 3, "Moons Waves"),
    _card(11, "Painter", "Pai", 3, "Suns Knots", True),
    _card(12, "Savage", "Sav", 3, "Leaves Wyrms", True),
    _card(13, "Mountain", "Mou", 4, "Moons Suns"),
    _card(14, "Sailor", "Sai", 4, "Waves Leaves", True),
    _card(15, "Battle", "Bat", 4, "Wyrms Knots"),
    _card(16, "Forest", "For", 5, "Moons Leaves"),
    _card(17, "Discovery", "Dis", 5, "Suns Waves"),
    _card(18, "Soldier", "Sol", 5, "Wyrms Knots", True),
    _card(19, "Lunatic", "Lun", 6, "Moons Waves", True),
    _card(20, "Penitent", "Pen", 6, "Suns Wyrms", True),
    _card(21, "Market", "Mar", 6, "Leaves Knots"),
    _card(22, "Chance Meeting", "Cha", 7, "Moons Leaves"),
    _card(23, "Castle", "Cas", 7, "Suns Knots"),
    _card(24, "Cave", "Cav", 7, "Waves Wyrms"),
    _card(25, "Diplomat", "Dip", 8, "Moons Suns", True),
    _card(26, "Mill", "Mil", 8, "Waves Leaves"),
    _card(27, "Betrayal", "Bet", 8, "Wyrms Knots"),
    _card(28, "Pact", "Pac", 9, "Moons Suns"),
    _card(29, "Darkness", "Dar", 9, "Waves Wyrms"),
    _card(30, "Merchant", "Mer", 9, "Leaves Knots", True),
    _card(31, "Huntress", "Hun", 10, "Moons", True),
    _card(32, "Bard", "Bar", 10, "Suns", True),
    _card(33, "Sea", "Sea", 10, "Waves"),
    _card(34, "End", "End", 10, "Leaves"),
    _card(35, "Calamity", "Cal", 10, "Wyrms"),
    _card(36, "Windfall", "Wfa", 10, "Knots"),
    _card(37, "Harvest", "Har", 10, "Moons Suns Leaves"),
    _card(38, "Watchman", "Wat", 10, "Moons Wyrms Knots", True),
    _card(39, "Light Keeper", "Lig", 10, "Suns Waves Knots", True),
    _card(40, "Borderland", "Bor", 10, "Waves Leaves Wyrms"),
    _card(41, "Consul", "Con", 10, "Moons Waves Knots", True),
    _card(42, "Rite", "Rit", 10, "Moons Leaves Wyrms"),
    _card(43, "Island", "Isl", 10, "Suns Waves Wyrms"),
    _card(44, "Window", "Wdw", 10, "Suns Leaves Knots"),
    _card(45, "Excuse", "Exc", 0, ""),
)
BASIC_DECK = DECKTET[:36]
PAWNS_AND_COURTS = DECKTET[36:44]
EXCUSE = DECKTET[44]
CROWNS = {"Huntress", "Bard", "Sea", "End", "Calamity", "Windfall"}


def decktet_lookup() -> dict[str, DecktetCard]:
    """Every accepted spelling of a Decktet card, lower-cased: name, code, and 'X (Crown)'."""
    table = {}
    for card in DECKTET:
        table[card.name.lower()] = card
        table[card.code.lower()] = card
        if card.name in CROWNS:
            table[f"{card.name} (crown)".lower()] = card
    return table


# A Decktet card shows its suits as symbols, or on a stream that cannot show them as the two
# letters the Aces' codes use (`Journey 3 ☾≈`, in ASCII `Journey 3 MoWa`): games.base.
_SUIT_MARK = "|".join([*DECKTET_SUIT_SYMBOLS.values(), *DECKTET_SUIT_LETTERS.values()])
#: A card's decoration after its name: the rank, then its suits as symbols or letters.
DECKTET_DECORATION = re.compile(rf"\s*(?P<rank>\d+)\s*(?P<suits>(?:(?:{_SUIT_MARK})\s*)*)$", re.IGNORECASE)
_SUIT_OF_MARK = {mark.lower(): suit for table in (DECKTET_SUIT_SYMBOLS, DECKTET_SUIT_LETTERS)
                 for suit, mark in table.items()}


def decktet_label(card: DecktetCard) -> str:
    """A card as every screen shows it: name, rank and suit symbols (`Journey 3 ☾≈`,
    `Ace of Moons 1 ☾`); the Excuse, which has neither rank nor suit, by its name."""
    if not card.suits:
        return card.name
    return f"{card.name} {card.rank} " + "".join(DECKTET_SUIT_SYMBOLS[suit] for suit in card.suits)


def read_decktet(text: str, lookup: Mapping[str, DecktetCard]) -> DecktetCard | None:
    """The card `text` names: a name or code, bare or decorated as `decktet_label` writes it
    (symbols or letters, any case and spacing); None for no card.  A decoration that does
    not match the card raises DealError: `Journey 4 ☾≈` is a typo, not the Journey."""
    words = text.strip()
    card = lookup.get(words.lower())
    if card is not None:
        return card
    decoration = DECKTET_DECORATION.search(words)
    if decoration is None or decoration.start() == 0:
        return None
    card = lookup.get(words[:decoration.start()].strip().lower())
    if card is None:
        return None
    marks = re.findall(_SUIT_MARK, decoration.group("suits"), re.IGNORECASE)
    suits = sorted(_SUIT_OF_MARK[mark.lower()] for mark in marks)
    if int(decoration.group("rank")) != card.rank or suits != sorted(card.suits):
        raise DealError(f"{words!r} does not match the card: {card.name} is rank {card.rank}, "
                        + " and ".join(card.suits or ["no suit"]))
    return card


PLAYING_SUITS = "CDHS"
PLAYING_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


@dataclass(frozen=True)
class PlayingCard:
    """A card of the 52-card deck, or the Joker (rank 0, no suit)."""

    id: int      # canonical position: suit * 13 + rank - 1; the Joker is 52
    rank: int    # 1 (Ace) … 13 (King); 0 for the Joker
    suit: str    # "C", "D", "H" or "S"; "" for the Joker

    @property
    def name(self) -> str:
        return "JK" if not self.rank else PLAYING_RANKS[self.rank - 1] + self.suit


def shown(name: str) -> str:
    """A playing card as every screen shows it, its suit as a symbol (`10H` -> `10♥`; the
    Joker `JK` as it is); an ASCII stream writes the letter back (usurper.app.reports), and every
    reader takes both."""
    return name[:-1] + SUIT_SYMBOLS[name[-1]] if name[-1:] in SUIT_SYMBOLS else name


STANDARD_DECK = tuple(
    PlayingCard(index * 13 + rank - 1, rank, suit) for index, suit in enumerate(PLAYING_SUITS) for rank in range(1, 14)
)
JOKER = PlayingCard(52, 0, "")


def playing_card_lookup() -> dict[str, PlayingCard]:
    """Every accepted spelling of a playing card, lower-cased: `10h`, `th`, `10♥`, and `jk` / `joker`."""
    table: dict[str, PlayingCard] = {"jk": JOKER, "joker": JOKER}
    for card in STANDARD_DECK:
        ranks = [PLAYING_RANKS[card.rank - 1]] + (["T"] if card.rank == 10 else [])
        for rank in ranks:
            for suit in (card.suit, SUIT_SYMBOLS[card.suit]):
                table[(rank + suit).lower()] = card
    return table


def shuffled(cards: Sequence, seed: int) -> tuple:
    """The seeded deal every game uses: the canonical order shuffled by random.Random(seed)."""
    deck = list(cards)
    random.Random(seed).shuffle(deck)
    return tuple(deck)


def parse_card_list(text: str, lookup: Mapping[str, object], expected: Iterable, separator: str | None = ",") -> tuple:
    """Read a deck order, top first, and check it is exactly the expected cards.

    Raises DealError naming the first problem: an unknown card, a duplicate, then missing or
    extra cards against `expected` (the deck in use for the chosen variant).  A card listed
    k times in `expected` (two Jokers) may appear k times; `separator=None` splits on
    whitespace.
    """
    names = [part.strip() for part in text.split(separator)] if separator else text.split()
    names = [name for name in names if name]
    if not names:
        raise DealError("the deal is empty")
    expected = list(expected)
    allowed = Counter(expected)
    deck, seen = [], Counter()
    for position, name in enumerate(names, 1):
        card = lookup.get(name.lower())
        if card is None:
            raise DealError(f"unknown card {name!r} at position {position}")
        if seen[card] and seen[card] >= allowed[card]:
            raise DealError(f"duplicate card {name!r} at position {position}")
        if not allowed[card]:
            raise DealError(f"card {name!r} at position {position} is not in the deck for this variant")
        seen[card] += 1
        deck.append(card)
    missing = list((allowed - seen).elements())
    missing.sort(key=expected.index)
    if missing:
        shown = ", ".join(_card_name(card) for card in missing[:5])
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        raise DealError(f"{len(missing)} card(s) missing: {shown}{more}")
    return tuple(deck)


def _card_name(card) -> str:
    return getattr(card, "name", str(card))


def parse_spaced_cards(text: str, lookup: dict, cards: Sequence, deck_name: str) -> tuple:
    """Playing cards separated by spaces and/or commas, each once, exactly `cards`; a deal of
    the wrong length says so beside the first problem found (`deck_name`: "the number deck")."""
    names = text.replace(",", " ")
    try:
        return parse_card_list(names, lookup, cards, separator=None)
    except DealError as exc:
        count = len(names.split())
        if count and count != len(cards):
            raise DealError(f"{exc} (the deal has {count} cards, {deck_name} {len(cards)})") from None
        raise
