"""Royal Assassin, Mark R. Brown's solitaire, exactly as `shared/rules/royal-assassin.md` fixes it.

Rulings are cited as [Rn] (spec §9), variants as V1–V7 (spec §10).  The forced procedures
(setup §3, ATTACK with its kill check and Joker sweep §4.1, the discard test §4.2, SETTLE
§4.3, a Royal turned §4.4) all run inside `initial_state` and `apply`, so every state the
solver sees is a decision point (D1, D2 or, with V1, D2J) or a finished game.

Cards are small ints: suit * 13 + rank - 1 with suits C, D, H, S and ranks A = 1 … K = 13,
the Joker is 52.  Column X is the column of suit X.  A Royal on the table is packed in one
int, `card | A << 6 | D << 13` (A, D: the totals of its attack and defence cards), so a
column is a tuple of ints and the transposition key is a handful of flat tuples.  Which
cards lie on each Royal, and the discard pile, are kept beside it (`piles`, `discard`) for
`describe` and for the conservation tests; they are not in the key, because only the totals
decide anything from then on (the ruler too: strength and entourage use totals only).

Deal text: the stock order, top first, separated by spaces and/or commas; cards are written
rank then suit, case-insensitive (`KS qh 10D AC`; `T` is accepted for ten, ♣ ♦ ♥ ♠ for the
suits).  52 cards; with `two_jokers` 54 cards, the two Jokers each written `JK` (they are
identical in play, so the notation does not tell them apart).

Seeded deals: `games.decks.shuffled` over the canonical order (C, D, H, S; within a suit
A, 2 … 10, J, Q, K; then, with V1, the two Jokers), i.e. `random.Random(seed).shuffle`.

Moves, as typed by a user (and as returned by `legal_moves`):

    T         turn the top stock card (D1)
    A(X)      attack the Pretender of column X with the turned card (D2)
    P         put the turned card on the reserve (D2; with V1 also a turned Joker at D2J)
    R(X)      continue the attack on X with the reserve top (D1)
    J(X)      place the set-aside (AVAILABLE) Joker on X (D1, D2, D2J)
    JR(X)     V1: place the Joker lying on top of the reserve on X (D1, D2, D2J)
    JT(X)     V1: place the Joker just turned from the stock on X (D2J)
    E         end the game (D1, stock empty)
    REDEAL    V7: turn the reserve over as the new stock (D1, stock empty)

X is a suit letter C, D, H or S; input is case-insensitive and may omit the parentheses or
put spaces in them (`a h`, `R( d )`).

Choices made where the spec leaves room (each would be what a player at the table expects):
- Setup never ends by running out of Royals under V2 (all 12 are in every deal), and a
  stock that runs out during setup just starts play with an empty stock [R6].
- V1: J(X), JR(X) and JT(X) are separate moves because they leave different positions
  (which Joker is gone from where).  The reserve-top Joker may be placed at D2J as at D2.
  Placing it uncovers the next reserve card, so SETTLE runs after JR, as after every action.
- V1 + V6: each Joker is discarded when its column is destroyed.
- V3: the test "immediately after placement" is the kill check for an attacking Ace and the
  discard test for a defending Ace; the discard test run after an attack (§4.1 step 3)
  counts an attacking Ace as 1, since the spec names only the kill check for it.
- V5: the Royal that arrives under the cards is killed by its own strength only (A ≥ V + D
  with the moved totals, Aces at 1); that kill is not a "play" for V7.
- V7: the "play" that re-enables REDEAL is any attack (A, R), any defence pull, or any
  Joker placement (J, JR, JT); the state keeps only whether a REDEAL is now blocked.

- The throne's entourage (§7 step 3) compares the number of Royals beneath first, then
  their total value [R27]; a finished game with no Pretender has no ruler ("none").

Search hooks.  `legal_moves` returns every move the rules allow, so any line a human types
replays, listed best-first (attacks, Joker placements, T, P, REDEAL, E) so the solver meets
wins early and its line walk follows the moves it searched; `order_moves` keeps that order.
`score_upper_bound` and `can_still_win` share one sound test (a column whose remaining
attack supply cannot pay for its cheapest kill never loses a Royal again; see `_doomed`).
`search_moves` is the smaller list a search needs (no Joker placement while holding a card,
E only when it is the only move), with the proofs in its docstring; the pruned engines use
it, the plain engine does not.

Engine "compiled" (and "auto") runs the same "pruned" search node for node in C
(games/_royal_assassin_core.c, `compiled_solve`), for every variant but V7; the card facts
it needs come from `_compiled_tables`, so this module stays the reference.
"""

from __future__ import annotations

from typing import NamedTuple

from games.base import LOST, WON, CompiledLimits, CompiledRun, DealError, EngineError, Game, MoveError, Outcome, VariantError
from games.decks import JOKER as JOKER_CARD
from games.decks import STANDARD_DECK, parse_card_list, playing_card_lookup, shuffled

SUITS = "CDHS"
JOKER = 52
NO_CARD = -1
NO_LOCK = -1
ROYALS_IN_DECK = 12
PLAYING, FINISHED_WON, FINISHED_LOST = 0, 1, 2

SUIT = tuple(card // 13 for card in range(52)) + (-1,)
RANK = tuple(card % 13 + 1 for card in range(52)) + (0,)
IS_RED = (False, True, True, False)  # C, D, H, S
IS_ROYAL = tuple(rank >= 11 for rank in RANK[:52]) + (False,)
IS_NUMBER = tuple(1 <= rank <= 10 for rank in RANK[:52]) + (False,)
#: Base values (§1): Ace 11, 2 … 10 face value, J 11, Q 12, K 13; the Joker has none.
VALUE = tuple((11 if rank == 1 else rank) for rank in RANK[:52]) + (0,)
#: OPPONENTS[X]: the two columns of the other colour, which cards of suit X may attack [R9].
OPPONENTS = tuple(tuple(y for y in range(4) if IS_RED[y] != IS_RED[x]) for x in range(4))
NAMES = tuple(card.name for card in STANDARD_DECK) + ("JK",)
LOOKUP = playing_card_lookup()

MOVE_T, MOVE_P, MOVE_E, MOVE_REDEAL = "T", "P", "E", "REDEAL"
ATTACK = tuple(f"A({s})" for s in SUITS)
RESERVE = tuple(f"R({s})" for s in SUITS)
JOKER_SET_ASIDE = tuple(f"J({s})" for s in SUITS)
JOKER_RESERVE = tuple(f"JR({s})" for s in SUITS)
JOKER_TURNED = tuple(f"JT({s})" for s in SUITS)
COLUMN_MOVES = {"A": ATTACK, "R": RESERVE, "J": JOKER_SET_ASIDE, "JR": JOKER_RESERVE, "JT": JOKER_TURNED}
#: Column moves by their text, e.g. "A(H)" -> ("A", 2).
COLUMN_OF = {text: (kind, column) for kind, texts in COLUMN_MOVES.items() for column, text in enumerate(texts)}
#: What one entry of the compiled engine's table costs: a 40-byte slot in a table kept between
#: 35 % and 70 % full (games/_royal_assassin_core.c).
COMPILED_ENTRY_BYTES = 120
#: The rule methods the compiled engine copies: a subclass overriding one of them gets no
#: compiled engine (it would not search the subclass's rules).
_COMPILED_COPIES = ("initial_state", "legal_moves", "apply", "outcome", "key", "search_moves", "order_moves",
                    "score_upper_bound", "can_still_win", "_doomed", "_stock_suffix", "_joker_targets",
                    "_joker_moves")
VARIANT_WORDS = (
    "two_jokers", "fixed_royals=N", "ace_first_play", "discard_on_equal_only", "royal_beneath", "joker_dies", "redeal",
)


def royal(card: int, attack: int = 0, defence: int = 0) -> int:
    """A Royal on the table packed in one int: its card, attack total A, defence total D."""
    return card | attack << 6 | defence << 13


def royal_card(code: int) -> int:
    return code & 63


def royal_attack(code: int) -> int:
    return code >> 6 & 127


def royal_defence(code: int) -> int:
    return code >> 13


class RoyalAssassinState(NamedTuple):
    # What the future depends on (all of it is in the key):
    stock: tuple[int, ...]       # the stock being turned; stock[pos:] is still face down, top first
    pos: int
    reserve: tuple[int, ...]     # bottom → top
    columns: tuple[tuple[int, ...], ...]  # C, D, H, S: Royals bottom → top, packed by royal()
    locks: tuple[int, ...]       # each column's attack suit, NO_LOCK when it holds no attack card
    jokers_on: int               # bit X set: a Joker is on column X
    available: int               # Jokers AVAILABLE (set aside, ready to place)
    turned: int                  # the turned card awaiting D2 / D2J, NO_CARD at D1
    redeal_blocked: bool         # V7: a REDEAL happened and no play since
    status: int                  # PLAYING, FINISHED_WON or FINISHED_LOST
    # Card identities, for describe() and the tests; the totals above already decide play:
    piles: tuple[tuple[tuple[int, ...], ...], ...]  # the number cards on each Royal, parallel to columns
    discard: tuple[int, ...]


class RoyalAssassin(Game):
    """Royal Assassin with the seven switches of spec §10, freely combined (default: all off)."""

    name = "royal-assassin"
    max_score = ROYALS_IN_DECK
    lowest_win_score = ROYALS_IN_DECK  # a win keeps no Royal on the table; a loss keeps one (R26)

    def __init__(self, two_jokers: bool = False, fixed_royals: int | None = None, ace_first_play: bool = False,
                 discard_on_equal_only: bool = False, royal_beneath: bool = False, joker_dies: bool = False,
                 redeal: bool = False):
        if fixed_royals is not None and not (isinstance(fixed_royals, int) and 1 <= fixed_royals <= 12):
            raise VariantError(f"fixed_royals must be a whole number from 1 to 12, not {fixed_royals!r}")
        self.two_jokers = two_jokers
        self.fixed_royals = fixed_royals
        self.ace_first_play = ace_first_play
        self.discard_on_equal_only = discard_on_equal_only
        self.royal_beneath = royal_beneath
        self.joker_dies = joker_dies
        self.redeal = redeal
        self.cards = STANDARD_DECK + ((JOKER_CARD, JOKER_CARD) if two_jokers else ())
        # V3: an Ace counts 11 in the one test right after it lands, 1 at every other time.
        self.landing_value = VALUE
        self.resting_value = tuple(1 if RANK[c] == 1 else VALUE[c] for c in range(53)) if ace_first_play else VALUE
        self.variant = self._variant_text()
        self._suffix_cache: dict = {}
        self._tables_for_c = None  # built on the first compiled_solve

    # ----- variants -------------------------------------------------------------------
    @classmethod
    def from_variants(cls, variants: list[str]) -> "RoyalAssassin":
        """Build the game from `--variant` words (spec §10), e.g. `two_jokers`, `fixed_royals=4`."""
        options: dict = {}
        flags = {"two_jokers", "ace_first_play", "discard_on_equal_only", "royal_beneath", "joker_dies", "redeal"}
        for word in variants:
            name, equals, value = word.strip().lower().partition("=")
            name, value = name.strip(), value.strip()
            if name in flags and not equals:
                options[name] = True
            elif name == "fixed_royals":
                if not value.isdigit() or not 1 <= int(value) <= 12:
                    raise VariantError(f"fixed_royals needs a whole number from 1 to 12, not {value or 'nothing'!r}")
                options[name] = int(value)
            else:
                known = ", ".join(VARIANT_WORDS)
                raise VariantError(f"unknown royal-assassin variant {word.strip()!r} (known: {known})")
        return cls(**options)

    def _variant_text(self) -> str:
        words = [w for w in ("two_jokers",) if self.two_jokers]
        if self.fixed_royals is not None:
            words.append(f"fixed_royals={self.fixed_royals}")
        for flag in ("ace_first_play", "discard_on_equal_only", "royal_beneath", "joker_dies", "redeal"):
            if getattr(self, flag):
                words.append(flag)
        return ",".join(words) or "standard"

    # ----- deals ----------------------------------------------------------------------
    def deal_from_seed(self, seed: int) -> tuple:
        return shuffled(self.cards, seed)

    def parse_deal(self, text: str) -> tuple:
        names = text.replace(",", " ")
        try:
            return parse_card_list(names, LOOKUP, self.cards, separator=None)
        except DealError as exc:
            count = len(names.split())
            if count and count != len(self.cards):
                raise DealError(f"{exc} (the deal has {count} cards, this variant's deck {len(self.cards)})") from None
            raise

    def format_deal(self, deal: tuple) -> str:
        return " ".join(card.name for card in deal)

    def initial_state(self, deal: tuple) -> RoyalAssassinState:
        """Setup (§3; V1, V2): Royals to their columns, number cards (and V1 Jokers) to the reserve."""
        self.check_deal(deal)
        stock = tuple(card.id for card in deal)
        columns: list[tuple[int, ...]] = [(), (), (), ()]
        reserve: list[int] = []
        placed, armed, pos = 0, False, 0
        while pos < len(stock):  # an empty stock ends setup [R6]
            card = stock[pos]
            pos += 1
            if IS_ROYAL[card]:
                columns[SUIT[card]] += (royal(card),)
                placed += 1
                armed = True
                if placed == self.fixed_royals:  # V2: no comparison, stop at the N-th Royal
                    break
            else:
                reserve.append(card)  # the card that ends setup goes there too [R4]
                # Aces are skipped [R3]; a V1 Joker is no number card and leaves `armed` alone.
                if self.fixed_royals is None and armed and IS_NUMBER[card] and RANK[card] != 1:
                    if RANK[card] <= placed:
                        break
                    armed = False  # only the first number card after a Royal is compared [R2]
        return RoyalAssassinState(
            stock=stock, pos=pos, reserve=tuple(reserve), columns=tuple(columns), locks=(NO_LOCK,) * 4,
            jokers_on=0, available=0 if self.two_jokers else 1,  # [R1]; V1 shuffles both in
            turned=NO_CARD, redeal_blocked=False, status=PLAYING,
            piles=tuple(((),) * len(column) for column in columns), discard=(),
        )

    # ----- the rules ------------------------------------------------------------------
    def legal_moves(self, state: RoyalAssassinState) -> list[str]:
        """Every move spec §5 allows here (D1, D2 or D2J), and none at the end.

        Listed best-first for a search: attacks, Joker placements, T, P, REDEAL, E."""
        if state.status != PLAYING:
            return []
        moves: list[str] = []
        turned, columns, locks = state.turned, state.columns, state.locks
        if turned == NO_CARD:  # D1
            if state.reserve:
                top = state.reserve[-1]
                if top != JOKER:
                    suit = SUIT[top]
                    for column in range(4):  # at most one column has this attack suit [R10, R17]
                        if locks[column] == suit:
                            moves.append(RESERVE[column])
            self._joker_moves(state, moves)
            if state.pos < len(state.stock):
                moves.append(MOVE_T)
            else:
                if self.redeal and state.reserve and not state.redeal_blocked:
                    moves.append(MOVE_REDEAL)
                moves.append(MOVE_E)  # [R25]
        elif turned == JOKER:  # V1: D2J
            targets = self._joker_targets(state)
            moves.extend(JOKER_TURNED[column] for column in targets)
            self._joker_moves(state, moves, targets)
            moves.append(MOVE_P)
        else:  # D2
            suit = SUIT[turned]
            lock_elsewhere = -1
            for column in range(4):
                if locks[column] == suit:
                    lock_elsewhere = column
            for column in OPPONENTS[suit]:  # [R8, R9, R10]
                if columns[column] and locks[column] in (NO_LOCK, suit) and lock_elsewhere in (-1, column):
                    moves.append(ATTACK[column])
            self._joker_moves(state, moves)
            moves.append(MOVE_P)
        return moves

    def apply(self, state: RoyalAssassinState, move: str) -> RoyalAssassinState:
        if move == MOVE_T:
            card = state.stock[state.pos]
            if not IS_ROYAL[card]:  # a number card (or V1 Joker) goes to the hand: D2 / D2J
                return state._replace(pos=state.pos + 1, turned=card)
            board = _Board(self, state)
            board.royal_turned(card)
            return board.freeze(state.stock, state.pos + 1, NO_CARD)
        if move == MOVE_P:
            board = _Board(self, state)
            board.reserve.append(state.turned)
            board.settle()  # a Pretender may take it at once [R13]
            return board.freeze(state.stock, state.pos, NO_CARD)
        if move == MOVE_E:
            return state._replace(status=FINISHED_LOST)
        if move == MOVE_REDEAL:  # V7: the bottom reserve card becomes the top stock card
            return state._replace(stock=state.reserve, pos=0, reserve=(), redeal_blocked=True)
        kind, column = COLUMN_OF[move]
        board = _Board(self, state)
        turned = state.turned
        if kind == "A":
            turned = NO_CARD
            board.attack(column, state.turned)
        elif kind == "R":
            board.attack(column, board.reserve.pop())
        else:
            if kind == "J":
                board.available -= 1
            elif kind == "JR":
                board.reserve.pop()
            else:  # JT
                turned = NO_CARD
            board.jokers_on |= 1 << column
            board.plays += 1
            board.settle()  # JR uncovers a reserve card; otherwise nothing changes
        return board.freeze(state.stock, state.pos, turned)

    def outcome(self, state: RoyalAssassinState) -> Outcome | None:
        if state.status == PLAYING:
            return None
        if state.status == FINISHED_WON:
            return Outcome(WON, "every Royal on the table was killed", ROYALS_IN_DECK)  # [R24]
        on_table = sum(len(column) for column in state.columns)
        return Outcome(
            LOST, "the player ended the game with Royals on the table", ROYALS_IN_DECK - on_table,  # [R26]
            f"ruler: {self.ruler(state)}",
        )

    def ruler(self, state: RoyalAssassinState) -> str:
        """Who takes the throne (§7, [R27]): rank, strength, entourage size and value, else the Joker."""
        best, leaders = None, 0
        for column in state.columns:
            if not column:
                continue
            code = column[-1]
            card = code & 63
            beneath = 0
            for other in column[:-1]:
                beneath += VALUE[other & 63]
            measure = (RANK[card], VALUE[card] + (code >> 13) - (code >> 6 & 127), len(column), beneath)
            if best is None or measure > best:
                best, leaders, leader = measure, 1, card
            elif measure == best:
                leaders += 1
        if best is None:
            return "none"
        return NAMES[leader] if leaders == 1 else "Joker"

    def key(self, state: RoyalAssassinState) -> tuple:
        """Everything the future depends on.  Without V7 the stock is always the deal, so its
        position says it all; after a V7 REDEAL the stock itself is part of the position."""
        return (
            state.pos, state.reserve, state.columns, state.locks, state.jokers_on, state.available,
            state.turned, state.redeal_blocked, state.status, state.stock if self.redeal else None,
        )

    # ----- notation -------------------------------------------------------------------
    def format_move(self, state: RoyalAssassinState, move: str) -> str:
        return move

    def parse_move(self, state: RoyalAssassinState, text: str) -> str:
        """Read a move of the module docstring's notation; only a move legal here is accepted."""
        legal = self.legal_moves(state)
        if not legal:
            raise MoveError("the game is over; no move can be played")
        move = _normalise_move(text)
        if move in legal:
            return move
        raise MoveError(self._why_illegal(state, move, text, legal))

    def describe(self, state: RoyalAssassinState) -> str:
        """One line: stock, reserve (bottom → top), columns with each Royal's cards, Jokers, hand."""
        left = len(state.stock) - state.pos
        parts = [f"Stock: {left} left" + (f" (top {NAMES[state.stock[state.pos]]})" if left else "")]
        parts.append("Reserve: " + (" ".join(NAMES[c] for c in state.reserve) or "-"))
        for column in range(4):
            royals = []
            for code, pile in zip(state.columns[column], state.piles[column]):
                card = royal_card(code)
                text = NAMES[card]
                if pile:
                    attack = " ".join(NAMES[c] for c in pile if SUIT[c] != column)
                    defence = " ".join(NAMES[c] for c in pile if SUIT[c] == column)
                    text += f"[A{royal_attack(code)}:{attack or '-'} D{royal_defence(code)}:{defence or '-'}]"
                royals.append(text)
            lock = state.locks[column]
            extra = " +JK" if state.jokers_on >> column & 1 else ""
            extra += f" ({SUITS[lock]} attacks)" if lock >= 0 else ""
            parts.append(f"{SUITS[column]}: " + (" ".join(royals) or "-") + extra)
        parts.append(f"Jokers available: {state.available}")
        if state.turned != NO_CARD:
            parts.append(f"Turned: {NAMES[state.turned]}")
        killed = ROYALS_IN_DECK - sum(map(len, state.columns)) - sum(
            1 for c in state.stock[state.pos:] if IS_ROYAL[c])
        parts.append(f"Killed: {killed}; Discard: {len(state.discard)}")
        if state.status != PLAYING:
            parts.append("WON" if state.status == FINISHED_WON else "LOST")
        return "; ".join(parts)

    # ----- optional solver hooks --------------------------------------------------------
    def search_moves(self, state: RoyalAssassinState) -> list[str]:
        """The moves a search needs to try: `legal_moves` without two kinds that never change
        the best score (spec §5, remarks for solver writers).  Proofs:

        1. No J(X) / JR(X) at D2 or D2J.  A D2/D2J position is reached by T from a D1
           position S (T of a number card or Joker only moves that card from the stock to the
           hand), followed by zero or more Joker placements.  A placement's conditions
           (≥ 2 Royals on X, X's Pretender under attack, no Joker on X, a Joker AVAILABLE or
           on the reserve top) read only the columns, the Jokers and the reserve, which T does
           not touch, and its effect (the Joker moves, SETTLE runs on the reserve, one V7
           play is counted) does not read the hand.  So "T, J…, rest" and "J…, T, rest" from
           S reach the same position, and the latter is still searched.  JT(X) is kept: the
           turned Joker cannot be placed before it is turned.  This rests on the search
           having come through S: the root, which it did not, keeps every legal move
           (solver/search.py `_moves`).  With two Jokers (V1) nothing is dropped at D2/D2J:
           a D2 root could need both placed before the turned card is played, and after one
           of them the other would be dropped one level down.
        2. E only when it is the only legal move.  E is legal only with an empty stock, and
           the original stock is then used up: every Royal is on the table or killed, and no
           move (nor a V7 REDEAL, which only reuses reserve number cards and Jokers) can put
           a Royal back.  Every line ends (spec §5, Termination) by WIN (score 12) or by E
           with at most as many Royals on the table as now, so continuing always reaches
           a score ≥ that of E now.
        """
        moves = self.legal_moves(state)
        if state.turned != NO_CARD:
            if self.two_jokers:
                return moves
            return [m for m in moves if m[0] != "J" or m[1] == "T"]
        if len(moves) > 1 and moves[-1] == MOVE_E:
            moves.pop()
        return moves

    def order_moves(self, state: RoyalAssassinState, moves):
        """`legal_moves` already lists moves best-first (attacks, Joker placements, T, P,
        REDEAL, E), so that a win is met early and the solver's line walk agrees with it.

        V6 (a Joker sweeps once) turns first and places a Joker after: a Joker spent on the
        first column that allows it is gone for the column that needed it.  Measured on
        joker_dies seeds the default order left undecided at 10 s: the winnability
        searches of 36 and 92 end after 0.2 and 1.9 million states, not 17.7 and 37.4."""
        if not self.joker_dies or state.turned != NO_CARD or MOVE_T not in moves:
            return moves
        placements = [m for m in moves if m[0] == "J"]
        return [m for m in moves if m[0] != "J"] + placements

    def score_upper_bound(self, state: RoyalAssassinState) -> int:
        """12 unless no WIN is possible (`_doomed`); then the Royals killed so far and at most
        `_most_kills` more, and at least one Royal stays, and every Royal of a column that
        can provably never lose one again."""
        if state.status != PLAYING:
            return self.outcome(state).score
        no_win, stays = self._doomed(state)
        if not no_win:
            return ROYALS_IN_DECK
        to_come = sum(self._stock_suffix(state.stock)[state.pos][1])
        killed = ROYALS_IN_DECK - sum(map(len, state.columns)) - to_come
        return min(ROYALS_IN_DECK - max(1, stays), killed + self._most_kills(state))

    def can_still_win(self, state: RoyalAssassinState) -> bool:
        """False only when no line from here wins (see `_doomed`)."""
        if state.status != PLAYING:
            return state.status == FINISHED_WON
        return not self._doomed(state)[0]

    def _doomed(self, state: RoyalAssassinState) -> tuple[bool, int]:
        """(no WIN is possible, Royals that will surely stay on the table at the end).

        Soundness.  A Royal leaves the table only by a kill in its column: directly (attack
        cards on it reaching V + D) or in a Joker sweep, which itself needs a direct kill of
        that column's Pretender.  A direct kill of Royal r needs at least min(V, V + D − A)
        more attack (D only grows, or drops to 0 together with A in a discard), and attack on
        a column of colour k only comes from number cards of the other colour that are still
        in the stock, in the hand or in the reserve (of a suit that may still attack:
        `_attacking_suits`), each worth at most its landing value (V3 Aces 11).  So when
        that supply is below the cheapest Royal of column X (and below the value of any
        Royal of suit X still in the stock), nothing in X ever dies.  If such
        an X holds a Royal, no WIN is possible, the game ends by E with the stock used up,
        and every Royal of X and every Royal of suit X still in the stock stays on the table.
        Two columns of one colour draw on the same supply, so a WIN is also impossible when
        their cheapest kills together exceed it (then at least one Royal stays).
        V6: a Joker sweeps once and is gone, so a column needs each Royal on it now killed
        directly (Royals still to come may never arrive before the WIN: their costs are
        left out) unless a Joker sweeps it.  A sweep costs the kill of its trigger, the
        Pretender at that time: the Royal on top now (a Joker needs ≥ 2 Royals on the
        column) or a Royal of the suit still in the stock, turned onto it; a trigger lower
        down needs every Royal above it killed first, which costs more.  So a column's
        saving is its full cost less its cheapest trigger.  A Joker on a column sweeps
        that column or none; the Jokers not on a column (set aside, in the stock, hand or
        reserve) sweep at most that many other columns, one each, of either colour: a
        WIN needs some such choice under which both colours' costs fit their supplies.
        V5 is left out: there a Royal may die on arrival with no new attack card.
        """
        if self.royal_beneath:
            return False, 0
        supply_left, future, cheapest_future, suits_to_come = self._stock_suffix(state.stock)[state.pos]
        sweeps = self._jokers_left(state) if self.joker_dies else None  # None: Jokers come back
        if sweeps is None and supply_left[0] >= 26 and supply_left[1] >= 26:
            return False, 0  # two columns of a colour never need more than 13 + 13
        supply = self._supply(state, supply_left, suits_to_come)
        stays, no_win = 0, False
        need = [0, 0]
        savings: tuple[list[int], list[int]] = ([], [])
        for column, royals in enumerate(state.columns):
            costs = _kill_costs(royals)
            full, cost = sum(costs), costs[-1] if costs else 0
            cheapest = min(costs + [cheapest_future[column]])
            colour = IS_RED[column]
            if supply[colour] < cheapest:
                stays += len(royals) + future[column]
                if royals:
                    no_win = True
            elif royals:
                if sweeps is None:
                    need[colour] += cheapest
                    continue
                need[colour] += full
                trigger = min(cost if len(royals) >= 2 else full, cheapest_future[column])
                if state.jokers_on >> column & 1:
                    need[colour] -= full - trigger
                    sweeps -= 1
                else:
                    savings[colour].append(full - trigger)
        if not self._sweeps_fit(need, supply, savings, sweeps or 0):
            no_win = True
        return no_win, stays if no_win else 0

    @staticmethod
    def _sweeps_fit(need: list[int], supply: list[int], savings: tuple[list[int], list[int]], sweeps: int) -> bool:
        """Can `sweeps` free Jokers (V6), one column each, bring both colours' costs within
        their supplies?  Each colour takes its largest savings first.  Without V6 there are
        no savings and no sweeps: both costs must fit as they are."""
        best = [sorted(s, reverse=True) for s in savings]
        return any(
            need[0] - sum(best[0][:black]) <= supply[0] and need[1] - sum(best[1][:sweeps - black]) <= supply[1]
            for black in range(sweeps + 1)
        )

    def _supply(self, state: RoyalAssassinState, supply_left: tuple[int, int], suits_to_come: int) -> list[int]:
        """The attack still to come against black and red columns (see `_doomed`)."""
        supply = list(supply_left)
        landing = self.landing_value
        attacking = self._attacking_suits(state, suits_to_come)
        for card in state.reserve:
            if card != JOKER and attacking >> SUIT[card] & 1:
                supply[not IS_RED[card // 13]] += landing[card]
        if state.turned >= 0 and state.turned != JOKER:
            supply[not IS_RED[state.turned // 13]] += landing[state.turned]
        return supply

    def _most_kills(self, state: RoyalAssassinState) -> int:
        """At most this many Royals, on the table now or still in the stock, are killed from
        here on: the bound on a LOSS, which comes with the stock used up.

        The supplies of `_doomed`, spent at best: each Royal killed directly costs at least
        min(V, V + D − A) now, a Royal still to come at least the cheapest of its suit; a
        column swept costs its cheapest trigger (`_doomed`) and at most kills everything of
        its suit, on it or to come.  A column with a Joker on it dies only by that sweep.
        The Jokers not on a column sweep one column each (V6), or any number of columns
        (Jokers come back).  Every choice of columns to sweep is tried; a colour then kills
        its cheapest direct costs first while its supply lasts.  Kill order and the cards'
        exact values are left out, so it can only count too many.
        """
        supply_left, future, cheapest_future, suits_to_come = self._stock_suffix(state.stock)[state.pos]
        supply = self._supply(state, supply_left, suits_to_come)
        free = self._jokers_left(state) - state.jokers_on.bit_count() if self.joker_dies else 4
        columns = []  # (colour, direct costs, trigger or None, Joker on it)
        for column, royals in enumerate(state.columns):
            costs = _kill_costs(royals) + [cheapest_future[column]] * future[column]
            triggers = ([costs[len(royals) - 1]] if len(royals) >= 2 else []) + (
                [cheapest_future[column]] if future[column] and len(royals) + future[column] >= 2 else [])
            columns.append((IS_RED[column], costs, min(triggers) if triggers else None,
                            bool(state.jokers_on >> column & 1)))
        best = 0
        for swept in range(16):
            chosen = [(swept >> x & 1) == 1 for x in range(4)]
            if any(on and trigger is None for on, (_, _, trigger, _) in zip(chosen, columns)):
                continue
            if sum(on and not fixed for on, (_, _, _, fixed) in zip(chosen, columns)) > free:
                continue
            left, kills, direct = list(supply), 0, ([], [])
            for on, (colour, costs, trigger, fixed) in zip(chosen, columns):
                if on:
                    left[colour] -= trigger
                    kills += len(costs)
                elif not fixed:
                    direct[colour].extend(costs)
            if min(left) < 0:
                continue
            for colour in (0, 1):
                for cost in sorted(direct[colour]):
                    if cost > left[colour]:
                        break
                    left[colour] -= cost
                    kills += 1
            best = max(best, kills)
        return best

    def _attacking_suits(self, state: RoyalAssassinState, suits_to_come: int) -> int:
        """The suits (bit mask) whose reserve cards may still attack.  A reserve card
        attacks only by R(X), on the column whose attack suit is its own [R17]; an attack
        suit is only ever set by A(X) with the turned card [R10], so a suit that is no
        column's attack suit now, is not the turned card's and has no number card left in
        the stock never attacks again.  V7 turns the reserve into a new stock: every suit."""
        if self.redeal:
            return 15
        attacking = suits_to_come
        for lock in state.locks:
            if lock != NO_LOCK:
                attacking |= 1 << lock
        if state.turned >= 0 and state.turned != JOKER:
            attacking |= 1 << SUIT[state.turned]
        return attacking

    def _jokers_left(self, state: RoyalAssassinState) -> int:
        """Jokers not yet discarded (V6): set aside, on a column, still to turn, in hand or
        on the reserve."""
        return (state.available + state.jokers_on.bit_count() + state.stock[state.pos:].count(JOKER)
                + state.reserve.count(JOKER) + (state.turned == JOKER))

    # ----- compiled engine (engine "compiled": games/_royal_assassin_core.c) ------------
    compiled_entry_bytes = COMPILED_ENTRY_BYTES

    def compiled_solve(self, state: RoyalAssassinState, mode: str, limits: CompiledLimits) -> CompiledRun:
        """The "pruned" search of solver/search.py run in C, node for node, on the tables of
        this instance (`_compiled_tables`).  Not covered (EngineError, so engine "auto" falls
        back to Python): the redeal variant (V7), whose stock changes, and subclasses that
        change the rules."""
        if limits.plain:
            raise EngineError("Royal Assassin has no compiled plain engine; use --engine plain")
        if self.redeal:
            raise EngineError("the compiled Royal Assassin engine does not cover the redeal variant; "
                              "use --engine pruned")
        for name in _COMPILED_COPIES:
            if getattr(type(self), name) is not getattr(RoyalAssassin, name):
                raise EngineError(f"the compiled Royal Assassin engine does not cover {type(self).__name__}, "
                                  f"which changes {name}; use --engine pruned")
        try:
            from games import _royal_assassin_core
        except ImportError as exc:
            raise EngineError(f"the compiled Royal Assassin engine is not built ({exc}); "
                              "run `pip install -e .` with a C compiler") from None
        return CompiledRun(*_royal_assassin_core.solve(
            state.stock, state.pos, self._reserve_mask(state), self._column_words(state), state.locks,
            state.jokers_on, state.available, state.turned, state.redeal_blocked, state.status,
            self._compiled_tables(), mode, limits.time_limit, limits.max_states, limits.max_table,
            limits.lds_rounds,
        ))

    @staticmethod
    def _reserve_mask(state: RoyalAssassinState) -> int:
        """The reserve as a bit mask over stock indices: without V7 it is a subsequence of the
        cards turned so far, in turning order (a Joker is matched to the first one that fits)."""
        mask, index = 0, 0
        for card in state.reserve:
            while index < state.pos and state.stock[index] != card:
                index += 1
            if index >= state.pos:
                raise EngineError("the compiled Royal Assassin engine needs the reserve in stock order")
            mask |= 1 << index
            index += 1
        return mask

    @staticmethod
    def _column_words(state: RoyalAssassinState) -> list[int]:
        """Each column as the C side packs it: 16 bits per Royal, bottom first, code J 1, Q 2,
        K 3 | A << 2 | D << 9."""
        words = []
        for royals in state.columns:
            word = 0
            for i, code in enumerate(royals):
                word |= (RANK[code & 63] - 10 | royal_attack(code) << 2 | royal_defence(code) << 9) << (16 * i)
            words.append(word)
        return words

    def _compiled_tables(self) -> tuple:
        """Everything the C search knows about the cards and rules, from this instance: move
        names, per card id its kind, suit, landing and resting values (V3), the attack supply
        it counts for, its Royal code; the Royal values, column colours, OPPONENTS, the score
        and the variant switches."""
        if self._tables_for_c is None:
            names = (MOVE_T, MOVE_P, MOVE_E, MOVE_REDEAL) + ATTACK + RESERVE + JOKER_SET_ASIDE + JOKER_RESERVE \
                + JOKER_TURNED
            cards = range(53)
            kind = tuple(2 if c == JOKER else 1 if IS_ROYAL[c] else 0 for c in cards)
            royal_value = [0] * 16
            for c in range(52):
                if IS_ROYAL[c]:
                    royal_value[SUIT[c] * 4 + RANK[c] - 10] = VALUE[c]
            self._tables_for_c = (
                names, kind, tuple(max(s, 0) for s in SUIT), self.landing_value[:53], self.resting_value[:53],
                tuple(int(not IS_RED[c // 13]) if c < 52 else 0 for c in cards),
                tuple(RANK[c] - 10 if IS_ROYAL[c] else 0 for c in cards), tuple(royal_value),
                tuple(int(red) for red in IS_RED), tuple(y for x in range(4) for y in OPPONENTS[x]),
                ROYALS_IN_DECK, self.lowest_win_score, self.discard_on_equal_only, self.joker_dies,
                self.royal_beneath, self.two_jokers,
            )
        return self._tables_for_c

    # ----- helpers ----------------------------------------------------------------------
    def _stock_suffix(self, stock: tuple[int, ...]) -> list:
        """For each stock position: the attack supply left in the stock against black and red
        columns, per suit the Royals still to come and the cheapest of them, and the suits
        of the number cards still to come as a bit mask (cached)."""
        cached = self._suffix_cache.get(id(stock))
        if cached is not None and cached[0] is stock:
            return cached[1]
        if len(self._suffix_cache) > 256:
            self._suffix_cache.clear()
        supply, future, cheapest, suits = [0, 0], [0, 0, 0, 0], [99, 99, 99, 99], 0
        table = [((0, 0), (0, 0, 0, 0), (99, 99, 99, 99), 0)]
        for card in reversed(stock):
            if IS_ROYAL[card]:
                future[card // 13] += 1
                cheapest[card // 13] = min(cheapest[card // 13], VALUE[card])
            elif card != JOKER:
                supply[not IS_RED[card // 13]] += self.landing_value[card]
                suits |= 1 << SUIT[card]
            table.append((tuple(supply), tuple(future), tuple(cheapest), suits))
        table.reverse()
        self._suffix_cache[id(stock)] = (stock, table)
        return table

    def _joker_targets(self, state: RoyalAssassinState) -> list[int]:
        """Columns a Joker may be placed on [R21, R22]: ≥ 2 Royals, Pretender under attack, no Joker."""
        return [
            column for column, royals in enumerate(state.columns)
            if len(royals) >= 2 and royals[-1] >> 6 & 127 and not state.jokers_on >> column & 1
        ]

    def _joker_moves(self, state: RoyalAssassinState, moves: list[str], targets: list[int] | None = None) -> None:
        on_reserve = bool(state.reserve) and state.reserve[-1] == JOKER  # V1
        if not state.available and not on_reserve:
            return
        if targets is None:
            targets = self._joker_targets(state)
        if state.available:
            moves.extend(JOKER_SET_ASIDE[column] for column in targets)
        if on_reserve:
            moves.extend(JOKER_RESERVE[column] for column in targets)

    def _why_illegal(self, state: RoyalAssassinState, move: str | None, text: str, legal: list[str]) -> str:
        shown = ", ".join(legal)
        if move is None:
            notation = "T, P, E, A(X), R(X), J(X), JR(X), JT(X) or REDEAL"
            return f"cannot read {text.strip()!r}: expected {notation} (legal: {shown})"
        point = "D1" if state.turned == NO_CARD else f"holding {NAMES[state.turned]}"
        if move == MOVE_T and state.turned == NO_CARD:
            return "the stock is empty"
        if move in (MOVE_E, MOVE_REDEAL) and state.pos < len(state.stock):
            return f"{move} is only legal once the stock is empty"
        if move == MOVE_REDEAL and not self.redeal:
            return "REDEAL needs the redeal variant"
        if move[0] == "J" and move[:2] != "JT" and not state.available and move[:2] != "JR":
            return "no Joker is AVAILABLE" + ("; place the turned Joker with JT(X)" if state.turned == JOKER else "")
        return f"{move} is not legal here ({point}; legal: {shown})"


class _Board:
    """A position taken apart into mutable pieces while one move's forced procedures run."""

    __slots__ = ("game", "reserve", "columns", "piles", "locks", "discard", "jokers_on", "available",
                 "plays", "won", "redeal_blocked")

    def __init__(self, game: RoyalAssassin, state: RoyalAssassinState):
        self.game = game
        self.reserve = list(state.reserve)
        self.columns = list(state.columns)
        self.piles = list(state.piles)
        self.locks = list(state.locks)
        self.discard = state.discard
        self.jokers_on = state.jokers_on
        self.available = state.available
        self.redeal_blocked = state.redeal_blocked
        self.plays = 0
        self.won = False

    def freeze(self, stock: tuple, pos: int, turned: int) -> RoyalAssassinState:
        return RoyalAssassinState(
            stock, pos, tuple(self.reserve), tuple(self.columns), tuple(self.locks), self.jokers_on,
            self.available, turned, self.redeal_blocked and not self.plays,
            FINISHED_WON if self.won else PLAYING, tuple(self.piles), self.discard,
        )

    def attack(self, column: int, card: int) -> None:
        """ATTACK (§4.1): the card lands on the Pretender, kill check, discard test, SETTLE."""
        self.plays += 1
        game = self.game
        code = self.columns[column][-1]
        target, attack, defence = code & 63, code >> 6 & 127, code >> 13
        if attack + game.landing_value[card] >= VALUE[target] + defence:  # [R11]; V3: an Ace counts 11 here
            self.kill(column, card)
            if self.won:
                return  # [R24]: the game ends at once
        else:
            attack += game.resting_value[card]
            self.columns[column] = self.columns[column][:-1] + (royal(target, attack, defence),)
            piles = self.piles[column]
            self.piles[column] = piles[:-1] + (piles[-1] + (card,),)
            self.locks[column] = SUIT[card]
            self.discard_test(column, defence)
        self.settle()

    def kill(self, column: int, card: int | None) -> None:
        """The Pretender of `column` dies (with `card`, the attack card that killed it, if any)."""
        royals, piles = self.columns[column], self.piles[column]
        killed_card = (card,) if card is not None else ()
        if self.jokers_on >> column & 1:  # [R23]: the whole column dies, the Joker comes back
            swept = tuple(royal_card(code) for code in royals)
            self.discard += swept + tuple(c for pile in piles for c in pile) + killed_card
            self.columns[column], self.piles[column] = (), ()
            self.locks[column] = NO_LOCK
            self.jokers_on &= ~(1 << column)
            if self.game.joker_dies:  # V6
                self.discard += (JOKER,)
            else:
                self.available += 1
        else:  # [R19]: the Royal below, if any, is the Pretender again with its own cards
            self.discard += (royal_card(royals[-1]),) + piles[-1] + killed_card
            self.columns[column], self.piles[column] = royals[:-1], piles[:-1]
            self._release_lock(column)
        if not any(self.columns):
            self.won = True

    def discard_test(self, column: int, defence_now: int) -> None:
        """§4.2 [R16] (V4: only on equality): `defence_now` is D as the test counts it (V3)."""
        code = self.columns[column][-1]
        attack = code >> 6 & 127
        if not attack:
            return
        if defence_now == attack if self.game.discard_on_equal_only else defence_now >= attack:
            royals, piles = self.columns[column], self.piles[column]
            self.discard += piles[-1]
            self.columns[column] = royals[:-1] + (code & 63,)
            self.piles[column] = piles[:-1] + ((),)
            self._release_lock(column)

    def settle(self) -> None:
        """SETTLE (§4.3): the reserve top goes to its own suit's Pretender while D ≤ A [R13–R15]."""
        reserve, columns = self.reserve, self.columns
        game = self.game
        while reserve:
            card = reserve[-1]
            if card == JOKER:
                return
            column = card // 13
            royals = columns[column]
            if not royals:
                return
            code = royals[-1]
            attack, defence = code >> 6 & 127, code >> 13
            if not attack or defence > attack:  # [R12, R15]
                return
            reserve.pop()
            self.plays += 1
            columns[column] = royals[:-1] + (royal(code & 63, attack, defence + game.resting_value[card]),)
            piles = self.piles[column]
            self.piles[column] = piles[:-1] + (piles[-1] + (card,),)
            self.discard_test(column, defence + game.landing_value[card])  # V3: a pulled Ace counts 11 here

    def royal_turned(self, card: int) -> None:
        """§4.4: the Royal becomes its column's Pretender; V5: it arrives under the cards."""
        column = SUIT[card]
        royals, piles = self.columns[column], self.piles[column]
        if self.game.royal_beneath and royals and royals[-1] >> 6 & 127:
            code = royals[-1]
            attack, defence = code >> 6 & 127, code >> 13
            self.columns[column] = royals[:-1] + (code & 63, royal(card, attack, defence))
            self.piles[column] = piles[:-1] + ((), piles[-1])
            if attack >= VALUE[card] + defence:  # V5: "come into play already dead"
                self.kill(column, None)
                if self.won:
                    return
            else:
                self.discard_test(column, defence)
            self.settle()
        else:
            # [R19, R20]: on top with no cards; the lock stays.  SETTLE cannot do anything:
            # the new Pretender is not under attack and the other columns are unchanged.
            self.columns[column] = royals + (royal(card),)
            self.piles[column] = piles + ((),)

    def _release_lock(self, column: int) -> None:
        """[R10]: the attack suit goes when no attack card is left anywhere in the column."""
        if not any(code >> 6 & 127 for code in self.columns[column]):
            self.locks[column] = NO_LOCK


def _kill_costs(royals: tuple[int, ...]) -> list[int]:
    """The least attack that kills each Royal, bottom first: min(V, V + D − A), since D only
    grows, or drops to 0 together with A in a discard (see RoyalAssassin._doomed)."""
    return [min(VALUE[code & 63], VALUE[code & 63] + (code >> 13) - (code >> 6 & 127)) for code in royals]


def _normalise_move(text: str) -> str | None:
    """'a h', 'A(h)', ' r( D ) ' -> 'A(H)', 'R(D)'; None when it is no move of the notation."""
    compact = "".join(text.split()).upper().replace("(", "").replace(")", "")
    if compact in (MOVE_T, MOVE_P, MOVE_E, MOVE_REDEAL):
        return compact
    kind, column = compact[:-1], compact[-1:]
    if kind in COLUMN_MOVES and column and column in SUITS:
        return COLUMN_MOVES[kind][SUITS.index(column)]
    return None


