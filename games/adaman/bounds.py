"""Adaman's search knowledge: facts about positions the solver may use (a sound upper bound
on the score, dead-end tests, dominated moves, a move order, the win as a covering problem).

Every hook here is a statement about a position alone, proved in its docstring from the
rulings it rests on; none depends on how a search reached the position.
games/adaman/_core.c computes the same bounds in C from the tables that
games/adaman/compiled.py's `tables` hands it.
"""

from __future__ import annotations

from games.adaman.rules import (
    EXCUSE_BIT,
    FINISHED_WON,
    PALACE_LIMIT,
    PERSONALITY_BITS,
    PLAYING,
    RANK,
    ROW_SIZE,
    SHARES,
    AdamanRules,
    AdamanState,
    bits,
    rank_sum,
)
from games.base import CoverProblem
from games.decks import DECKTET, SUITS

NO_PAYMENT = 1 << 20  # _fewest_cards of a personality nothing can pay
# _bound_failing_hall tests a loss only where at most this rank may stay uncontrolled: the
# level probes near a lost deal's optimum.  Far below it the sets to try are too many for
# a test made per move.  (games/adaman/_core.c has the same number.)
LOSS_TEST_MOST_LEFT = 12
SUMS_MASK = (1 << 64) - 1  # _least_overpay's sums in one word: a minimal payment totals under 20
# may_exceed decides the exact static cover only where the fast bound is at most COVER_GAP
# above the floor (further up it seldom cuts, and a cut there saves little beyond the
# test's cost) and gives up (no cut) after COVER_NODE_LIMIT of its nodes (both go to the
# compiled engine with its tables).  With all eight Pawns and Courts it is never asked: there
# it cost more than it saved (bench/results/changes-kept.csv has the measurement).
COVER_GAP = 4
NEVER = -1
COVER_NODE_LIMIT = 100


def _least_overpay(need: int, pool: int) -> int | None:
    """The least a subset of `pool` can overpay `need`; None when the pool cannot pay it.
    Subset sums as the bits of one word (games/adaman/_core.c does the same)."""
    sums = 1
    for card in bits(pool):
        sums = (sums | sums << RANK[card]) & SUMS_MASK
    reach = sums >> need
    return (reach & -reach).bit_length() - 1 if reach else None


def _minimal_payments(usable: list[int], need: int, room: int):
    """Sets of `usable` (highest rank first) of at most 5 cards paying `need`, from which no
    card can be dropped, overpaying by at most `room`: cards are added in the list's order
    until the total reaches `need`, so the last is the smallest and dropping it falls short."""
    count = len(usable)

    def extend(start: int, chosen: int, total: int, size: int):
        for j in range(start, count):
            card = usable[j]
            paid = total + RANK[card]
            if paid >= need:
                if paid - need <= room:
                    yield chosen | 1 << card
            elif size + 1 < ROW_SIZE and paid + sum(RANK[c] for c in usable[j + 1:j + ROW_SIZE - size]) >= need:
                yield from extend(j + 1, chosen | 1 << card, paid, size + 1)

    return extend(0, 0, 0, 0)


def _chunk_tables() -> tuple[tuple[int, ...], ...]:
    """CHUNK_RANKS[k][chunk]: the total rank of the cards of a 15-bit chunk.  Built by
    doubling (the sums without bit b, then each with it): a millisecond or two, where
    summing each of the 3 x 32,768 chunks bit by bit cost half a second."""
    tables = []
    for k in range(3):
        table = [0]
        for bit in range(CHUNK_BITS):
            index = CHUNK_BITS * k + bit
            rank = RANK[index] if index < len(RANK) else 0
            table += [total + rank for total in table]
        tables.append(tuple(table))
    return tuple(tables)


CHUNK_BITS = 15  # three 15-bit chunks cover the 45 Decktet cards
CHUNK = (1 << CHUNK_BITS) - 1


#: The tables of _chunk_tables, empty until chunk_ranks() builds them at their first use: the
#: compiled engine never reads them, and whatever is built at import every command pays for.
CHUNK_RANKS: tuple[tuple[int, ...], ...] = ()


def chunk_ranks() -> tuple[tuple[int, ...], ...]:
    """CHUNK_RANKS, built at the first call; readers take `CHUNK_RANKS or chunk_ranks()`, so
    that once built a look-up costs no call."""
    global CHUNK_RANKS
    if not CHUNK_RANKS:
        CHUNK_RANKS = _chunk_tables()
    return CHUNK_RANKS


def total_rank(mask: int) -> int:
    """Total rank of any mask by table look-up, for the large masks of the bounds."""
    low, middle, high = CHUNK_RANKS or chunk_ranks()
    return low[mask & CHUNK] + middle[mask >> 15 & CHUNK] + high[mask >> 30]


SUIT_BITS = tuple(sum(1 << SUITS.index(suit) for suit in card.suits) for card in DECKTET)


class AdamanBounds:
    """The solver's optional hooks of games/base.py over Adaman's rules (`rules`, one
    variant's), with the tables they read, built once per variant: the part of
    games/adaman/game.py's `Adaman` its search hooks delegate to."""

    def __init__(self, rules: AdamanRules):
        self.rules = rules
        self.personality_total = rules.personality_total
        self.lowest_win_score = rules.lowest_win_score
        self.max_score = rules.max_score
        self._prepare_bounds()

    # ----- optional solver hooks --------------------------------------------------------
    def order_moves(self, state: AdamanState, moves: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """Personalities first (they score and win), then the cheapest payments (least waste)."""
        return sorted(moves, key=lambda m: (not PERSONALITY_BITS >> m[0] & 1, rank_sum(m[1]) - RANK[m[0]]))

    def search_moves(self, state: AdamanState) -> list[tuple[int, int]]:
        """`legal_moves`, less overpayments once the deck is empty.

        With the deck empty nothing is dealt again, and a position whose Resources hold
        more cards (all else equal) is worth at least as much: every line from the smaller
        one can be played from it, reaching the same Capital and Palace with a superset of
        Resources, so the same end with at least the same leftover (a win) or the same
        controlled personalities (a loss; nothing can be lost utterly).  A payment with a
        card it does not need leaves a subset of what paying without that card leaves, so
        only payments from which no card can be dropped are searched.
        """
        moves = self.rules.legal_moves(state)
        if state.dealt < len(state.deal.cards):
            return moves
        return [(target, payment) for target, payment in moves if not payment or all(
            rank_sum(payment & ~(1 << card)) < RANK[target] for card in bits(payment))]

    def score_upper_bound(self, state: AdamanState) -> int:
        """No line from `state` scores more than this (branch and bound).

        Relaxation: cards still to be dealt are available at once.  A Capital card costs at
        least its own rank, paid with cards sharing a suit with it, so gaining it adds
        nothing to the rank total and nothing to a suit group holding all its suits.
        A win needs each remaining personality paid by disjoint cards sharing a suit with
        it (`_hall_slacks`, a Hall-type condition) and by at least its fewest cards
        (`_spare_cards`); it then leaves at most 4 resources, no more than the cards to
        spare, and at most the rank of Resources and undealt cards less what the
        personalities cost and what a win must waste (`_least_waste`), and no more than
        Resources, which hold 5 cards, can carry past the moment the personalities still
        to be dealt arrive (`_tail_keep`).  Without a win, a personality that no cards can
        cover stays uncontrolled, and at least one personality does.
        """
        if state.status != PLAYING:
            return self.rules.outcome(state).score
        remaining, owned, capital = self._relaxation(state)
        need = total_rank(remaining)
        slacks = self._hall_slacks(remaining, owned, capital)
        spare = -1 if slacks is None else self._spare_cards(remaining, owned, capital)
        left = self._rank_left(remaining, owned, capital) if spare >= 0 else -1
        if left >= 0:
            keepable = self._best_keepable(owned, capital, slacks, min(spare, ROW_SIZE - 1))
            keep = self._tail_keep(state, owned | capital, min(keepable, left))
            if keep >= 0:
                return self.personality_total + keep
        available = owned | capital
        coverable = sum(RANK[p] for p in bits(remaining) if total_rank(available & SHARES[p]) >= RANK[p])
        if coverable == need:  # each could be paid alone, but not all together
            coverable -= min(RANK[p] for p in bits(remaining))
        return self.personality_total - need + coverable

    def _tail_keep(self, state: AdamanState, available: int, limit: int) -> int:
        """`limit`, or less where the personalities still to be dealt cap what a win keeps:
        the bound on the moment the last ones arrive (-1: no win).

        For an undealt personality q, every personality dealt at or after q (T) is
        controlled after the first decision point at which q has been dealt.  There
        Resources hold at most 5 cards, so of the cards dealt before q, the Resources
        now and the Capital (B) at most 5 are carried past that point; everything else
        paid or kept later is dealt after q (A), or a Capital card bought at its rank at
        least.  So a win keeps at most the 5 best of B, plus A, less T's ranks and least
        overpays; and at most 5 + |A| cards less the fewest that pay T, no more than 4
        (and none, no win, when that is negative).  The relaxation of score_upper_bound
        deals every undealt card into Resources at once, as if they held any number, and
        that is most of its gap (letting Resources hold 8 cards brings the optimum to
        within a few points of the bound; lifting the Palace limit changes nothing:
        bench/results/adaman-analyses.csv).  It decides the deals whose last
        personalities come at the very end at once, for a small cost on the others
        (bench/results/changes-kept.csv has the measurements).
        Not with the Excuse, which moves a card between the rows for free."""
        undealt = state.deal.undealt_mask[state.dealt]
        if not undealt & PERSONALITY_BITS or self._excuse_may_act(state):
            return limit
        keep, held = limit, self._keepable_cards(state)
        for step in self._tail_steps(state, PERSONALITY_BITS, available):
            if step is None or step[0] < 0:
                return -1
            count, by_rank = step
            keep = min(keep, by_rank)
            if count < ROW_SIZE - 1:
                keep = min(keep, self._best_cards(held, count))
            if keep < 0:
                return -1
        return keep

    def _tail_steps(self, state: AdamanState, people: int, available: int):
        """`_tail_keep`'s argument step by step: for each personality of `people` still to
        be dealt, q, from the last dealt back, what the cards carried past q's arrival (at
        most 5 of those dealt before it) and the non-personalities dealt after it leave once
        q and those of `people` dealt after it are paid: (cards, by their fewest cards;
        rank, by their ranks and least overpays), negative when they cannot be; None when
        nothing can pay q (and no step after it)."""
        deal = state.deal
        held = self._keepable_cards(state)
        over, fewest, need = 0, 0, 0
        for index in range(len(deal.cards) - 1, state.dealt - 1, -1):
            person = deal.cards[index]
            if not people >> person & 1:
                continue
            least = _least_overpay(RANK[person], available & SHARES[person])
            if least is None:
                yield None
                return
            over += least
            fewest += self._fewest_cards(person, available)
            need += RANK[person]
            after = deal.undealt_mask[index + 1] & ~PERSONALITY_BITS
            yield (ROW_SIZE + after.bit_count() - fewest,
                   self._best_cards(held & ~after, ROW_SIZE) + total_rank(after) - need - over)

    @staticmethod
    def _keepable_cards(state: AdamanState) -> int:
        """The cards a win may yet keep or pay with: Resources, the Capital's
        non-personalities and every non-personality still to be dealt."""
        undealt = state.deal.undealt_mask[state.dealt]
        return state.resources | state.capital & ~PERSONALITY_BITS | undealt & ~PERSONALITY_BITS

    def _tail_pays(self, state: AdamanState, paid: int, available: int) -> bool:
        """Whether the personalities `paid` (those a loss controls) can all be paid as far as
        `_tail_steps` tells: each step leaves no fewer than 0 cards and 0 rank.  Not with
        the Excuse still to act (as `_tail_keep`)."""
        if not state.deal.undealt_mask[state.dealt] & paid or self._excuse_may_act(state):
            return True
        return all(step is not None and step[0] >= 0 and step[1] >= 0
                   for step in self._tail_steps(state, paid, available))

    def move_bounds(self, state: AdamanState, moves: list[tuple[int, int]], floor: int | None = None) -> list[int]:
        """Per move, a bound on its child's value without making the child, from the
        child's relaxation (`_child_relaxation`): its rank total (Resources and undealt
        non-personalities, less the personalities still to pay) is the position's less
        what the move pays, plus its target, less the card a Capital target's departure
        deals to the Capital (a card gained there is bought at its rank at least), and
        each personality left still overpays at least what it would overpay now (the
        child has fewer cards to pay with); a win keeps no more than that.  A loss
        scores below any win.  Most children the optimal search would make fall below
        its floor on this count alone, so counting the Capital's draw and the overpays
        here saves making them (bench/results/changes-kept.csv has the measurements).

        A move still above `floor` is also put to the Hall test (`_hall_slacks`) on the
        child's relaxation: where it fails no win is left, so a loss bounds the move
        (`_bound_failing_hall`).  Of the children the rank count let through, most fell
        to their own bound at once, and most of those for this reason; in the level
        probes of a lost deal, most children fell to loss_can_reach, nearly all by the
        Hall test alone."""
        if state.status != PLAYING:
            return [self.max_score] * len(moves)
        relaxation = self._relaxation(state)
        remaining, owned, capital = relaxation
        # None where one cannot be paid: a loss, which the overpays do not bound
        overpays = self._each_least_overpay(remaining, owned | capital) or {}
        pulled = self._pulled_card(state)
        left = total_rank(owned) - total_rank(remaining) - sum(overpays.values())
        loss, most = self.lowest_win_score - 1, self.personality_total + left
        bounds = [max(loss, most - rank_sum(payment) + RANK[target] + overpays.get(target, 0)
                      - (RANK[pulled] if pulled is not None and state.capital >> target & 1 else 0))
                  if payment else self.max_score for target, payment in moves]
        if floor is None:
            return bounds
        return [self._bound_failing_hall(self._child_relaxation(state, relaxation, move, pulled), floor, bound)
                if bound > floor and move[1] else bound for move, bound in zip(moves, bounds)]

    def _bound_failing_hall(self, relaxation: tuple[int, int, int], floor: int, bound: int) -> int:
        """`bound`, unless the relaxation fails the Hall test: then no win is left, and
        a loss scores at most 65, or at most `floor` where no set of personalities of
        rank 66 - floor - 1 (at most LOSS_TEST_MOST_LEFT) or less can stay uncontrolled
        with the others passing the Hall test (the level probes of a lost deal, as
        loss_can_reach)."""
        if self._hall_slacks(*relaxation) is not None:
            return bound
        loss = self.lowest_win_score - 1
        allowance = self.personality_total - floor - 1
        if floor >= loss or allowance > LOSS_TEST_MOST_LEFT:
            return loss
        remaining, owned, capital = relaxation
        if any(self._hall_slacks(paid, owned, capital) is not None
               for paid in self._controllable_sets(remaining, allowance)):
            return loss
        return floor

    @staticmethod
    def _child_relaxation(state: AdamanState, relaxation: tuple[int, int, int], move: tuple[int, int],
                          pulled: int | None) -> tuple[int, int, int]:
        """The relaxation (`_relaxation`) of the position `move` leaves: the payment is
        spent, the target controlled or gained, and a Capital target's place taken by
        `pulled`, now a Capital card (the rest of the deal moves no card the relaxation
        tells apart: Resources and the Palace take cards it already counts as owned or
        to control)."""
        remaining, owned, capital = relaxation
        target, payment = move
        owned &= ~payment
        if pulled is not None and state.capital >> target & 1:
            owned, capital = owned & ~(1 << pulled), capital | 1 << pulled
        if PERSONALITY_BITS >> target & 1:
            return remaining & ~(1 << target), owned, capital
        return remaining, owned | 1 << target, capital & ~(1 << target)  # gained into Resources (R12)

    @staticmethod
    def _pulled_card(state: AdamanState) -> int | None:
        """The non-personality a Capital card's departure deals to the Capital (R8), which
        the relaxation then no longer counts as owned; None when there is none, or when the
        Excuse may still move cards between the rows (the relaxation then counts the
        Capital's cards as owned too)."""
        deal = state.deal
        if state.dealt == len(deal.cards) or AdamanBounds._excuse_may_act(state):
            return None
        card = deal.cards[state.dealt]
        return None if PERSONALITY_BITS >> card & 1 else card

    @staticmethod
    def _each_least_overpay(people: int, available: int) -> dict[int, int] | None:
        """Each of `people`'s least overpay from `available` (`_least_overpay`); None when
        one of them cannot be paid."""
        overpays = {}
        for person in bits(people):
            over = _least_overpay(RANK[person], available & SHARES[person])
            if over is None:
                return None
            overpays[person] = over
        return overpays

    def bound_given_keep(self, state: AdamanState, kept: int | None) -> int:
        """From the exact static covering problem (`cover_problem`, answered by CP-SAT):
        a win keeps at most `kept`; no cover (None) means no win.  Still a relaxation (it
        ignores when cards arrive), so still sound."""
        if kept is None:
            return self.lowest_win_score - 1
        return self.personality_total + kept

    def can_still_win(self, state: AdamanState) -> bool:
        """False only when no line from `state` wins (the relaxation of score_upper_bound)."""
        if state.status != PLAYING:
            return state.status == FINISHED_WON
        remaining, owned, capital = self._relaxation(state)
        return (self._hall_slacks(remaining, owned, capital) is not None
                and self._spare_cards(remaining, owned, capital) >= 0
                and self._rank_left(remaining, owned, capital) >= 0
                and self._tail_pays(state, remaining, owned | capital))

    def may_exceed(self, state: AdamanState, floor: int, ceiling: int) -> bool:
        """Whether a win scoring more than `floor` may remain, by the relaxation's exact
        static covering problem (`cover_problem`, decided here by a small search rather
        than CP-SAT): each personality still to control is paid by its own cards, at most
        5, sharing a suit with it and adding up to its rank; a Capital card paying is
        bought first the same way; at most 4 cards are kept.  What the fast bound misses
        is integrality and disjointness: cards come in lumps, a lump paying a smaller rank
        wastes the difference, and one card cannot pay two personalities.

        Asked only where the fast bound (`ceiling`) is within `cover_gap` of the floor: there
        most positions the bound lets through fail this test, and the search is cut before
        its moves are made; further up the tests grow and cut less, and cost more than
        they save (bench/results/changes-kept.csv has the measurements).  A floor below
        any win's score is never refuted here."""
        kept_needed = floor + 1 - self.personality_total
        if ceiling - floor > self.cover_gap or kept_needed < 0 or state.status != PLAYING:
            return True
        remaining, owned, capital = self._relaxation(state)
        return self._cover_keeps(remaining, 0, owned, capital, kept_needed, [self.cover_node_limit])

    def _cover_keeps(self, persons: int, buys: int, items: int, shop: int, kept_needed: int,
                     budget: list[int]) -> bool:
        """Whether `persons` (personalities) and `buys` (Capital cards a payment used) can
        all be paid from `items` (owned cards) and `shop` (Capital cards not bought),
        leaving a keep of rank `kept_needed` or more.  True when undecided once `budget`
        (its nodes) runs out.

        `room` is the waste still allowed: every owned rank pays a demand, is kept, or is
        wasted (overpaid, or left over beyond the 4 cards kept), and buying a Capital card
        costs at least its rank.  Cards no demand or Capital card can use are left over,
        so all but the 4 best of them are waste.  A demand is paid by minimal payments
        only (a card that could be dropped is better kept), the demand with the fewest
        usable cards first, where the choices are fewest."""
        budget[0] -= 1
        if budget[0] < 0:
            return True
        demands = persons | buys
        room = total_rank(items) - total_rank(demands) - kept_needed - self._unused_waste(demands, items, shop)
        if room < 0:
            return False
        if not demands:  # a Capital card kept is bought with owned cards first
            affordable = sum(1 << card for card in bits(shop) if total_rank(items & SHARES[card]) >= RANK[card])
            return self._best_cards(items | affordable) >= kept_needed
        if self._hall_slacks(persons, items, shop) is None:
            return False
        available = items | shop
        if self._least_overpays(demands, available) > room:
            return False
        demand = min(bits(demands), key=lambda d: ((available & SHARES[d]).bit_count(), -RANK[d], d))
        pool = available & SHARES[demand]
        usable = [card for card in self.by_rank if pool >> card & 1]
        return any(
            self._cover_keeps(persons & ~(1 << demand), (buys & ~(1 << demand)) | (payment & shop),
                              items & ~payment, shop & ~payment, kept_needed, budget)
            for payment in _minimal_payments(usable, RANK[demand], room))

    def guaranteed_score(self, state: AdamanState) -> int:
        """With at most 5 personalities still to control the Palace (which holds only
        those) can never overflow, so the game ends in a win or a loss with at least the
        personalities controlled now."""
        if state.status != PLAYING:
            return self.rules.outcome(state).score
        remaining = self._relaxation(state)[0]
        if remaining.bit_count() > PALACE_LIMIT:
            return -1
        return self.personality_total - total_rank(remaining)

    def loss_can_reach(self, state: AdamanState, level: int) -> bool:
        """A loss scoring `level` leaves some personalities uncontrolled, of rank at most
        the total less `level`, and paid for all the others: so for some such set the
        others pass the relaxation's tests of a win (Hall slacks, card count, and the
        owned rank covering their ranks and least overpays, `_least_overpays`)."""
        if state.status != PLAYING:
            outcome = self.rules.outcome(state)
            return not outcome.won and outcome.score >= level
        remaining, owned, capital = self._relaxation(state)
        return any(self._hall_slacks(paid, owned, capital) is not None and self._spare_cards(paid, owned, capital) >= 0
                   and total_rank(owned) - total_rank(paid) >= self._least_overpays(paid, owned | capital)
                   and self._tail_pays(state, paid, owned | capital)
                   for paid in self._controllable_sets(remaining, self.personality_total - level))

    @staticmethod
    def _controllable_sets(remaining: int, allowance: int):
        """`remaining` less each non-empty set of its personalities of rank at most
        `allowance` that no other one fits beside (controlling fewer is never harder)."""
        people = sorted(bits(remaining), key=RANK.__getitem__)

        def left_out(i: int, chosen: int, room: int):
            if i == len(people):
                if chosen and all(RANK[p] > room for p in people if not chosen >> p & 1):
                    yield remaining & ~chosen
                return
            if RANK[people[i]] <= room:
                yield from left_out(i + 1, chosen | 1 << people[i], room - RANK[people[i]])
            yield from left_out(i + 1, chosen, room)

        return left_out(0, 0, allowance)

    def cover_problem(self, state: AdamanState) -> CoverProblem | None:
        """The win as a static covering problem: personalities still to control are the
        demands, the resources owned or still to be dealt the items, the Capital's
        non-personalities items to buy first; at most 4 kept.  None where the fast bound
        already rules a win out (or the game is over): nothing to refine."""
        if state.status != PLAYING or self.score_upper_bound(state) < self.lowest_win_score:
            return None
        remaining, owned, capital = self._relaxation(state)
        items = list(bits(owned)) + list(bits(capital))
        demands = list(bits(remaining))
        return CoverProblem(
            values=tuple(RANK[i] for i in items),
            to_buy=tuple(capital >> i & 1 == 1 for i in items),
            demands=tuple(RANK[p] for p in demands),
            serves=tuple(tuple(d for d, p in enumerate(demands) if SHARES[i] >> p & 1) for i in items),
            buys=tuple(tuple(j for j, c in enumerate(items) if c != i and capital >> c & 1 and SHARES[i] >> c & 1)
                       for i in items),
            max_per_demand=ROW_SIZE,
            max_kept=ROW_SIZE - 1,
        )

    def _relaxation(self, state: AdamanState) -> tuple[int, int, int]:
        """Personalities still to control; resources owned or to be dealt; Capital cards to gain."""
        undealt = state.deal.undealt_mask[state.dealt]
        remaining = (state.capital | state.palace | undealt) & PERSONALITY_BITS
        owned = (state.resources | undealt) & ~PERSONALITY_BITS & ~EXCUSE_BIT  # the Excuse pays nothing (E5)
        capital = state.capital & ~PERSONALITY_BITS & ~EXCUSE_BIT
        if self._excuse_may_act(state):
            return remaining, owned | capital, 0  # the Excuse may move a Capital card for free (§9.1)
        return remaining, owned, capital

    @staticmethod
    def _excuse_may_act(state: AdamanState) -> bool:
        """Whether the Excuse is still to come or on the table, so that it may yet move a
        card between the Capital and Resources for free (§9.1)."""
        return bool((state.deal.undealt_mask[state.dealt] | state.capital | state.resources) & EXCUSE_BIT)

    def _prepare_bounds(self) -> None:
        """The tables of this variant's bounds.  Suit groups T for the Hall conditions: the
        personalities whose suits lie inside T need no more than the cards touching T can
        pay.  Only T that are unions of such personalities' suits matter (a larger T adds
        supply, not demand).  And where the cover test is asked (`may_exceed`)."""
        self.cover_gap = NEVER if self.rules.pawns_courts == "all" else COVER_GAP
        self.cover_node_limit = COVER_NODE_LIMIT
        in_use = sum(1 << card.index for card in self.rules.cards)
        personalities = [c.index for c in self.rules.cards if c.personality]
        groups = []
        for suits in range(1, 1 << len(SUITS)):
            inside = [p for p in personalities if SUIT_BITS[p] & ~suits == 0]
            union = 0
            for p in inside:
                union |= SUIT_BITS[p]
            if inside and union == suits:
                touching = sum(1 << i for i in range(len(DECKTET)) if in_use >> i & 1 and SUIT_BITS[i] & suits)
                within = sum(1 << i for i in range(len(DECKTET)) if in_use >> i & 1 and not SUIT_BITS[i] & ~suits)
                groups.append((sum(1 << p for p in inside), touching, touching & ~within))
        groups.sort(key=lambda group: group[0].bit_count())
        self.hall_groups = tuple(groups)
        self.touching_groups = tuple(
            tuple(g for g, (_, touching, _) in enumerate(groups) if touching >> i & 1) for i in range(len(DECKTET))
        )
        self.by_rank = tuple(sorted((c.index for c in self.rules.cards if not c.personality), key=lambda i: -RANK[i]))

    def _hall_slacks(self, remaining: int, owned: int, capital: int) -> list[int] | None:
        """Hall condition per suit group T: the personalities inside T cost no more than the
        owned cards touching T plus the Capital cards touching T without lying inside it.
        Returns each group's slack (supply less demand), or None when a group falls short."""
        low, middle, high = CHUNK_RANKS or chunk_ranks()  # total_rank inlined: the solver's hot spot
        slacks = []
        for demand, touching, straddling in self.hall_groups:
            supply = (owned & touching) | (capital & straddling)
            wanted = remaining & demand
            slack = (low[supply & CHUNK] + middle[supply >> 15 & CHUNK] + high[supply >> 30]
                     - low[wanted & CHUNK] - middle[wanted >> 15 & CHUNK] - high[wanted >> 30])
            if slack < 0:
                return None
            slacks.append(slack)
        return slacks

    def _best_keepable(self, owned: int, capital: int, slacks: list[int], count: int) -> int:
        """The most rank `count` resources left at a win could hold.  Keeping an owned card
        withdraws its rank from every suit group it touches; keeping a Capital card does
        the same (where it straddles a group it is not there to pay, and where it lies
        inside one, gaining it cost at least its rank from cards touching that group).  So
        every group the card touches needs slack >= its rank."""
        total, candidates = 0, owned | capital
        for card in self.by_rank:
            if not count:
                break
            if candidates >> card & 1 and all(slacks[g] >= RANK[card] for g in self.touching_groups[card]):
                total += RANK[card]
                count -= 1
        return total

    def _rank_left(self, remaining: int, owned: int, capital: int) -> int:
        """The most rank a win can keep by the count of ranks: the owned cards' less the
        personalities' still to pay and less what a win must waste (negative: no win)."""
        return total_rank(owned) - total_rank(remaining) - self._least_waste(remaining, owned, capital)

    def _least_waste(self, remaining: int, owned: int, capital: int) -> int:
        """Rank a win must waste of the owned cards, neither paying a personality's rank
        nor kept.  Cards come in lumps: a personality is paid with cards sharing a suit
        with it (owned, or Capital cards bought) that add up to its rank or more, so it
        overpays at least what the best such subset does (`_least_overpay`).  An owned
        card sharing a suit with no personality still to pay and no Capital card can
        only be kept (or spent on a card still to be dealt, whose rank the count already
        has), so all but the 4 best of those are waste.  NO_PAYMENT when a personality
        cannot be paid at all.

        Why: in a sample of the positions the optimal search expands, the rank count
        was the bound that held, well above the true value, and along the best lines
        most of that gap went on overpaying personalities."""
        return self._unused_waste(remaining, owned, capital) + self._least_overpays(remaining, owned | capital)

    def _unused_waste(self, people: int, owned: int, capital: int) -> int:
        """The rank of the owned cards sharing a suit with none of `people` and no Capital
        card, less the 4 best of them: nothing can use them, and a win keeps 4 at most."""
        useful = 0
        for card in bits(people | capital):
            useful |= SHARES[card]
        dead = owned & ~useful
        return total_rank(dead) - self._best_cards(dead)

    @staticmethod
    def _least_overpays(people: int, available: int) -> int:
        """What paying each of `people` from `available` must overpay at least, in all
        (`_each_least_overpay`); NO_PAYMENT when one of them cannot be paid."""
        overpays = AdamanBounds._each_least_overpay(people, available)
        return NO_PAYMENT if overpays is None else sum(overpays.values())

    def _best_cards(self, cards: int, count: int = ROW_SIZE - 1) -> int:
        """The rank of the `count` (by default 4) best of `cards`: the most a win can keep of them."""
        total = 0
        for card in self.by_rank:
            if not count:
                break
            if cards >> card & 1:
                total += RANK[card]
                count -= 1
        return total

    def _spare_cards(self, remaining: int, owned: int, capital: int) -> int:
        """How many cards a win could leave, by counting cards rather than ranks: every owned
        card (in Resources or still to be dealt) is spent, kept or never reached, and each
        remaining personality takes at least its fewest cards (`_fewest_cards`).  A Capital
        card gained adds one card but its purchase spends at least one, so cards paid plus
        cards kept never exceed the owned cards.  Negative: no win (e.g. deck empty, 4
        resources, 3 personalities to pay: at most 1 card is left, not 4)."""
        available = owned | capital
        spare = owned.bit_count()
        for person in bits(remaining):
            spare -= self._fewest_cards(person, available)
            if spare < 0:
                break
        return spare

    def _fewest_cards(self, person: int, available: int) -> int:
        """The fewest cards of `available` that can pay `person` (highest ranks first);
        more than any row holds when they cannot."""
        usable, paid, count = available & SHARES[person], 0, 0
        for card in self.by_rank:
            if usable >> card & 1:
                paid += RANK[card]
                count += 1
                if paid >= RANK[person]:
                    return count
        return NO_PAYMENT
