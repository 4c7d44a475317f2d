"""Adaman's texts: the variant words (§9), deals and moves (docs/rules/adaman.md).

Variants: `excuse`, `pawns_courts=all|none|personalities:A+B` (the Pawns and Courts
personalities Watchman, Light Keeper, Consul, P1).  Deals: card names or codes separated by
commas, semicolons or new lines, top first.  Moves: `Target <- Card + Card` (§5.1), or
`Excuse: Card` at an Excuse choice (§9.1); names or codes, any case.  A position's text is
the visible-position notation (games/adaman/visible.py).

Every card shown carries its rank and suits (`Journey 3 ☾≈`: games.decks.decktet_label;
`Journey 3 MoWa` where the stream cannot show the symbols), and reads back as written: a
card is its name or code, bare or so decorated (games.decks.read_decktet).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from games.adaman.rules import EXCUSE_BIT, EXTRA_PERSONALITIES, RANK, SHARES, AdamanRules, AdamanState, bits, rank_sum
from games.base import DealError, MoveError, VariantError
from games.decks import DECKTET, decktet_label, decktet_lookup, parse_card_list, read_decktet

LOOKUP = decktet_lookup()


# ----- variants ---------------------------------------------------------------------------
def parse_variants(variants: Sequence[str]) -> tuple[bool, str | frozenset]:
    """`excuse` and `pawns_courts` from `--variant` words: `excuse`,
    `pawns_courts=all|none|personalities:A+B`."""
    excuse, pawns_courts = False, "none"
    given: set[str] = set()
    for word in variants:
        name, _, value = word.strip().lower().partition("=")
        if name.strip() in given:  # `excuse,excuse` or two pawns_courts: which was meant?
            raise VariantError(f"adaman variant {name.strip()!r} given more than once")
        given.add(name.strip())
        if name == "excuse" and not value:
            excuse = True
        elif name == "pawns_courts" and value in ("all", "none"):
            pawns_courts = value
        elif name == "pawns_courts" and value.startswith("personalities:"):
            chosen = set()
            for person in value.partition(":")[2].split("+"):
                card = EXTRA_PERSONALITIES.get(person.strip().replace("_", " "))
                if card is None:
                    raise VariantError(
                        f"pawns_courts personality {person!r} is not one of Watchman, Light Keeper, Consul"
                    )
                if card in chosen:  # `Watchman+Watchman`: a typo for another personality?
                    raise VariantError(f"pawns_courts personality {card.name} is named twice")
                chosen.add(card)
            pawns_courts = frozenset(chosen)
        else:
            raise VariantError(
                f"unknown adaman variant {word!r} (known: excuse, pawns_courts=all|none|personalities:X+Y)"
            )
    return excuse, pawns_courts


def variant_text(excuse: bool, pawns_courts: str | frozenset) -> str:
    """The variant words that build this game again ("standard": none)."""
    words = []
    if excuse:
        words.append("excuse")
    if pawns_courts == "all":
        words.append("pawns_courts=all")
    elif isinstance(pawns_courts, frozenset):
        names = "+".join(card.name for card in sorted(pawns_courts, key=lambda c: c.id))
        words.append(f"pawns_courts=personalities:{names}")
    return ",".join(words) or "standard"


# ----- deals ------------------------------------------------------------------------------
def parse_deal(text: str, cards: tuple) -> tuple:
    """Cards separated by commas, semicolons or new lines; never by spaces alone, which
    card names hold ('Ace of Moons', 'Chance Meeting')."""
    listed = re.sub(r"[;\r\n]", ",", text)
    if "," not in listed and len(listed.split()) > 1 and listed.strip().lower() not in LOOKUP:
        raise DealError("separate cards with commas (or semicolons or new lines): card names such as "
                        "'Ace of Moons' hold spaces")
    return parse_card_list(",".join(_bare_name(name) for name in listed.split(",")), LOOKUP, cards)


def _bare_name(text: str) -> str:
    """A card of a deal by its name: a card typed with its rank and suits (as shown) becomes
    its name; anything else is left for parse_card_list to name the problem."""
    card = read_decktet(text, LOOKUP) if text.strip() else None
    return card.name if card is not None else text


def format_deal(deal: tuple) -> str:
    return ", ".join(card.name for card in deal)


# ----- moves ------------------------------------------------------------------------------
def format_move(move: tuple[int, int]) -> str:
    """`Painter 3 ☼∞ <- Battle 4 ⚕∞`, `Excuse: Castle 7 ☼∞`: every card with its rank and suits."""
    target, payment = move
    if not payment:
        return f"Excuse: {label(target)}"
    return f"{label(target)} <- " + " + ".join(label(i) for i in bits(payment))


def label(index: int) -> str:
    """The card of index `index` with its rank and suits (`Journey 3 ☾≈`)."""
    return decktet_label(DECKTET[index])


def parse_move(game: AdamanRules, state: AdamanState, text: str) -> tuple[int, int]:
    """Read `Target <- Card + Card` (names or codes, any case) or `Excuse: Card`; only a move
    legal here is accepted."""
    legal = game.legal_moves(state)
    if not legal:
        raise MoveError("the game is over; no move can be played")
    if text.strip().lower().startswith("excuse:"):
        card = card_index(game, text.split(":", 1)[1])
        if (card, 0) not in legal:
            raise MoveError(f"{DECKTET[card].name} is not an Excuse choice here")
        return card, 0
    if (state.capital | state.resources) & EXCUSE_BIT:
        raise MoveError("an Excuse choice is pending: expected 'Excuse: Card'")
    if "<-" not in text:
        raise MoveError("expected 'Target <- Card + Card' (or 'Excuse: Card' at an Excuse choice)")
    left, right = text.split("<-", 1)
    target = card_index(game, left)
    payment = 0
    for name in right.split("+"):
        card = card_index(game, name)
        if payment >> card & 1:  # a card is paid once: `Battle + Battle` is no payment of 8
            raise MoveError(f"{DECKTET[card].name} is named twice in the payment")
        payment |= 1 << card
    if (target, payment) in legal:
        return target, payment
    raise MoveError(why_illegal(state, target, payment))


def card_index(game: AdamanRules, name: str) -> int:
    """The index of a card of this variant's deck named in a move (bare or with its rank and
    suits); MoveError otherwise."""
    try:
        card = read_decktet(name, LOOKUP)
    except DealError as exc:
        raise MoveError(str(exc)) from None
    if card is None or card not in game.cards:
        raise MoveError(f"unknown card {name.strip()!r}")
    return card.index


def why_illegal(state: AdamanState, target: int, payment: int) -> str:
    """Why (target, payment) is no legal move here, in one line (§5.1: R4, R11)."""
    target_name = DECKTET[target].name
    if not (state.capital | state.palace) >> target & 1:
        return f"{target_name} is not in the Capital or the Palace"
    for index in bits(payment):
        if not state.resources >> index & 1:
            return f"{DECKTET[index].name} is not in Resources"
        if not SHARES[target] >> index & 1:
            return f"{label(index)} shares no suit with {label(target)}"
    return f"the payment totals {rank_sum(payment)}, less than {target_name}'s rank {RANK[target]}"


def card_names(indices) -> str:
    """Cards in the order given, with their ranks and suits ('-': none)."""
    return ", ".join(label(i) for i in indices) or "-"


def names(mask: int) -> str:
    """The cards of a row, in ID order, with their ranks and suits ('-': none)."""
    return card_names(bits(mask))
