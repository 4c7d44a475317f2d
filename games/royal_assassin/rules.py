"""Royal Assassin, Mark R. Brown's solitaire: the rules exactly as docs/rules/royal-assassin.md fixes them.

Rulings are cited as [Rn] (spec §9), variants as V1–V7 (spec §10).  The forced procedures
(setup §3, ATTACK with its kill check and Joker sweep §4.1, the discard test §4.2, SETTLE
§4.3, a Royal turned §4.4) all run inside `set_up` and `apply`, so every state the solver
sees is a decision point (D1, D2 or, with V1, D2J) or a finished game.

Cards are small ints: suit * 13 + rank - 1 with suits C, D, H, S and ranks A = 1 … K = 13,
the Joker is 52.  Column X is the column of suit X.  A Royal on the table is packed in one
int, `card | A << 6 | D << 13` (A, D: the totals of its attack and defence cards), so a
column is a tuple of ints and the transposition key is a handful of flat tuples.  Which
cards lie on each Royal, and the discard pile, are kept beside it (`piles`, `discard`) for
`describe` and for the conservation tests; they are not in the key, because only the totals
decide anything from then on (the ruler too: strength and entourage use totals only).

Moves are their own notation (games/royal_assassin/notation.py reads them as typed):

    T         turn the top stock card (D1)
    A(X)      attack the Pretender of column X with the turned card (D2)
    P         put the turned card on the reserve (D2; with V1 also a turned Joker at D2J)
    R(X)      continue the attack on X with the reserve top (D1)
    J(X)      place the set-aside (AVAILABLE) Joker on X (D1, D2, D2J)
    JR(X)     V1: place the Joker lying on top of the reserve on X (D1, D2, D2J)
    JT(X)     V1: place the Joker just turned from the stock on X (D2J)
    E         end the game (D1, stock empty)
    REDEAL    V7: turn the reserve over as the new stock (D1, stock empty)

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

`legal_moves` returns every move the rules allow, so any line a human types replays, listed
best-first (attacks, Joker placements, T, P, REDEAL, E) so that a search meets wins early.
"""

from __future__ import annotations

from typing import NamedTuple

from games.base import LOST, WON, Outcome, Termination, VariantError
from games.decks import JOKER as JOKER_CARD
from games.decks import STANDARD_DECK

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

MOVE_T, MOVE_P, MOVE_E, MOVE_REDEAL = "T", "P", "E", "REDEAL"
ATTACK = tuple(f"A({s})" for s in SUITS)
RESERVE = tuple(f"R({s})" for s in SUITS)
JOKER_SET_ASIDE = tuple(f"J({s})" for s in SUITS)
JOKER_RESERVE = tuple(f"JR({s})" for s in SUITS)
JOKER_TURNED = tuple(f"JT({s})" for s in SUITS)
COLUMN_MOVES = {"A": ATTACK, "R": RESERVE, "J": JOKER_SET_ASIDE, "JR": JOKER_RESERVE, "JT": JOKER_TURNED}
#: Column moves by their text, e.g. "A(H)" -> ("A", 2).
COLUMN_OF = {text: (kind, column) for kind, texts in COLUMN_MOVES.items() for column, text in enumerate(texts)}

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


class RoyalAssassinRules:
    """The rules of Royal Assassin with the seven switches of spec §10, freely combined
    (default: all off): the part of games/royal_assassin/game.py's `RoyalAssassin` its
    verbs delegate to."""

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

    def set_up(self, stock: tuple[int, ...]) -> RoyalAssassinState:
        """Setup (§3; V1, V2) of the deal `stock` (card ids, top first): Royals to their
        columns, number cards (and V1 Jokers) to the reserve."""
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

    # ----- the decisions ----------------------------------------------------------------
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
            return Outcome(WON, Termination.ALL_ROYALS_KILLED, ROYALS_IN_DECK)  # [R24]
        on_table = sum(len(column) for column in state.columns)
        return Outcome(
            LOST, Termination.PLAYER_ENDED, ROYALS_IN_DECK - on_table,  # [R26]
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

    # ----- helpers ----------------------------------------------------------------------
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


class _Board:
    """A position taken apart into mutable pieces while one move's forced procedures run."""

    __slots__ = ("game", "reserve", "columns", "piles", "locks", "discard", "jokers_on", "available",
                 "plays", "won", "redeal_blocked")

    def __init__(self, game: RoyalAssassinRules, state: RoyalAssassinState):
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
