"""Adaman as a player at the table sees it: the rows, the controlled personalities and the
spent cards are face up; the deck's contents follow (every other card), its order does not.

Notation (one line, sections separated by ';', in any order; card names or codes, bare or
with their ranks and suits as every screen shows them):

    Deck: 17 left; Capital: Author 2 ☾∞, Desert 2 ☼⚕, ...; Resources: ...; Palace: ...;
    Controlled: Painter 3 ☼∞; Spent: Ace of Moons 1 ☾, Origin 2 ≈❦

It is `describe`'s text plus a `Spent:` section, so a position copied from `describe` reads
back once the spent cards are named.  `-` is an empty row.  `Deck: N left` is optional and,
when given, must agree with the cards not seen.  A position no game reaches is refused with
one line naming the problem (a card twice, a row over five, a personality in Resources, a
count that does not add up).

A sampled state is a deal whose first cards are the seen ones (their order is immaterial:
the rows are sets and the dealt cards never come back) followed by the unseen cards in a
random order, with the rows set directly.

The greedy rule of docs/play.md (`greedy_move`) is here too, as a player at the table
would follow it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.adaman.notation import LOOKUP, format_move, names
from games.adaman.rules import (
    FINISHED_UTTER,
    FINISHED_WON,
    PALACE_LIMIT,
    PERSONALITY_BITS,
    PLAYING,
    RANK,
    ROW_SIZE,
    AdamanRules,
    AdamanState,
    bits,
    deal_tables,
    rank_sum,
)
from games.base import DealError
from games.decks import DECKTET, read_decktet

ROWS = ("Capital", "Resources", "Palace", "Controlled", "Spent")


@dataclass(frozen=True)
class AdamanVisible:
    """What is face up (rows as masks over card indices) and the unseen cards, in ID order."""

    capital: int
    resources: int
    palace: int
    controlled: int
    spent: int
    unknown: tuple[int, ...]

    @property
    def seen(self) -> int:
        return self.capital | self.resources | self.palace | self.controlled | self.spent


def parse_visible(game: AdamanRules, text: str) -> AdamanVisible:
    """Read the notation above; DealError names the first thing no game of Adaman shows."""
    rows, deck_left = _read_sections(game, text)
    visible = _visible_from_rows(game, rows)
    _check_rows(visible)
    _check_counts(visible, deck_left)
    return visible


def visible_of(game: AdamanRules, state: AdamanState) -> AdamanVisible:
    """What a player sees of a full state."""
    dealt = state.deal.dealt_mask[state.dealt]
    controlled = game.controlled(state)
    spent = dealt & ~(state.capital | state.resources | state.palace | controlled)
    unknown = tuple(sorted(state.deal.cards[state.dealt:]))
    return AdamanVisible(state.capital, state.resources, state.palace, controlled, spent, unknown)


def format_visible(game: AdamanRules, visible: AdamanVisible) -> str:
    masks = (visible.capital, visible.resources, visible.palace, visible.controlled, visible.spent)
    rows = "; ".join(f"{name}: {names(mask)}" for name, mask in zip(ROWS, masks))
    return f"Deck: {len(visible.unknown)} left; {rows}"


def visible_text(game: AdamanRules, state: AdamanState) -> str:
    return format_visible(game, visible_of(game, state))


def sample_state(game: AdamanRules, visible: AdamanVisible, rng: random.Random) -> AdamanState:
    """One full state consistent with `visible`: the unseen cards in a random order."""
    unknown = list(visible.unknown)
    rng.shuffle(unknown)
    return state_with_order(game, visible, unknown)


#: The unseen cards are exactly the cards still to come (VisiblePositions.exact_orders).
exact_orders = True


def state_with_order(game: AdamanRules, visible: AdamanVisible, order) -> AdamanState:
    """The full state whose deck holds the unseen cards in `order`, top first."""
    cards = tuple(bits(visible.seen)) + tuple(order)
    return AdamanState(deal_tables(cards), len(cards) - len(order), visible.capital, visible.resources,
                       visible.palace, _status(visible))


def unknown_count(visible: AdamanVisible) -> int:
    return len(visible.unknown)


# ----- helpers ----------------------------------------------------------------------------
def _read_sections(game: AdamanRules, text: str) -> tuple[dict[str, list[int]], int | None]:
    rows: dict[str, list[int]] = {}
    deck_left = None
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        name, colon, body = part.partition(":")
        name = name.strip().capitalize()
        if not colon:
            raise DealError(f"cannot read {part!r}: expected 'Row: card, card' (rows: {', '.join(ROWS)}, Deck)")
        if name == "Deck":
            deck_left = _deck_count(body)
        elif name in ROWS:
            if name in rows:
                raise DealError(f"{name} is given twice")
            rows[name] = [_card(game, word) for word in body.split(",") if word.strip() and word.strip() != "-"]
        else:
            raise DealError(f"unknown section {name!r} (expected {', '.join(ROWS)} or Deck)")
    if "Spent" not in rows:
        raise DealError("name the spent cards ('Spent: card, ...' or 'Spent: -'): the deck's contents follow from them")
    return rows, deck_left


def _deck_count(body: str) -> int:
    words = body.split()
    if not words or not words[0].isdigit():
        raise DealError(f"cannot read the deck count {body.strip()!r}: expected 'Deck: N left'")
    return int(words[0])


def _card(game: AdamanRules, word: str) -> int:
    card = read_decktet(word, LOOKUP)
    if card is None:
        raise DealError(f"unknown card {word.strip()!r}")
    if card not in game.cards:
        raise DealError(f"{card.name} is not in the deck of this variant ({game.variant})")
    return card.index


def _visible_from_rows(game: AdamanRules, rows: dict[str, list[int]]) -> AdamanVisible:
    masks = {}
    seen = 0
    for name in ROWS:
        mask = 0
        for index in rows.get(name, []):
            if (seen | mask) >> index & 1:
                raise DealError(f"{DECKTET[index].name} is given twice")
            mask |= 1 << index
        masks[name] = mask
        seen |= mask
    unknown = tuple(card.index for card in game.cards if not seen >> card.index & 1)
    return AdamanVisible(masks["Capital"], masks["Resources"], masks["Palace"], masks["Controlled"],
                         masks["Spent"], unknown)


def _check_rows(visible: AdamanVisible) -> None:
    """Where each kind of card can be (§3, R7, R12, R13)."""
    for name, mask in (("Capital", visible.capital), ("Resources", visible.resources)):
        if mask.bit_count() > ROW_SIZE:
            raise DealError(f"{name} holds {mask.bit_count()} cards; a row holds at most {ROW_SIZE}")
    people_in = [("Resources", visible.resources), ("Spent", visible.spent)]
    for name, mask in people_in:
        for index in bits(mask & PERSONALITY_BITS):
            raise DealError(f"{DECKTET[index].name} is a personality and never goes to {name}")
    for name, mask in (("Palace", visible.palace), ("Controlled", visible.controlled)):
        for index in bits(mask & ~PERSONALITY_BITS):
            raise DealError(f"{DECKTET[index].name} is not a personality and cannot be in {name}")
    if visible.palace.bit_count() > PALACE_LIMIT + 1:
        raise DealError(f"the Palace holds {visible.palace.bit_count()} personalities; the sixth ended the game")


def _check_counts(visible: AdamanVisible, deck_left: int | None) -> None:
    """The deck count must match the unseen cards, and a deck with cards left refills both rows (§3)."""
    unseen = len(visible.unknown)
    if deck_left is not None and deck_left != unseen:
        raise DealError(f"the deck holds {deck_left} cards by its count but {unseen} cards are not seen")
    if unseen and _status(visible) == PLAYING:  # a win is checked before the deal refills
        for name, mask in (("Capital", visible.capital), ("Resources", visible.resources)):
            if mask.bit_count() < ROW_SIZE:
                raise DealError(f"{name} holds {mask.bit_count()} cards while {unseen} are left in the deck "
                                f"(a deal refills it to {ROW_SIZE})")


def _status(visible: AdamanVisible) -> int:
    """Lost utterly with six in the Palace (R9); won when no personality is left to control."""
    if visible.palace.bit_count() > PALACE_LIMIT:
        return FINISHED_UTTER
    waiting = visible.capital | visible.palace | sum(1 << index for index in visible.unknown)
    return PLAYING if waiting & PERSONALITY_BITS or not visible.controlled else FINISHED_WON


def move_words(game: AdamanRules, state: AdamanState, move: tuple[int, int], peek: bool = False) -> str:
    """Adaman's notation already names the cards, with their ranks and suits (`Penitent 6 ☼⚕ <- Castle 7 ☼∞`)."""
    return format_move(move)


def greedy_move(game: AdamanRules, state: AdamanState) -> tuple[int, int]:
    """The greedy rule (docs/play.md): control a personality when one can be paid, the
    highest first; else take the Capital card whose payment wastes least."""
    moves = game.legal_moves(state)
    if not moves[0][1]:
        return moves[0]  # an Excuse choice: the first card offered

    def preference(move: tuple[int, int]) -> tuple:
        target, payment = move
        person = bool(PERSONALITY_BITS >> target & 1)
        waste = rank_sum(payment) - RANK[target]  # a non-personality taken comes back as a resource
        return person, RANK[target] if person else 0, -waste, -payment.bit_count(), RANK[target]

    return max(moves, key=preference)
