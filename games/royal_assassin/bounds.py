"""Royal Assassin's search knowledge: facts about positions the solver may use (a sound
upper bound, a dead-end test, dominated moves, a move order).

`score_upper_bound` and `can_still_win` share one sound test (a column whose remaining
attack supply cannot pay for its cheapest kill never loses a Royal again; see `_doomed`).
`search_moves` is the smaller list a search needs (no Joker placement while holding a card,
E only when it is the only move), with the proofs in its docstring.  One of its facts rests
on how the position was reached (a Joker placement after a turn is dropped because the
position before the turn offered it): the contract's `search_moves` is stated for positions
a search reached by a move, and the root keeps every legal move.

games/royal_assassin/_core.c runs the same search in C for every variant but V7, from the
tables games/royal_assassin/compiled.py's `tables` hands it; these methods stay the
reference.
"""

from __future__ import annotations

from games.royal_assassin.rules import (
    FINISHED_WON,
    IS_RED,
    IS_ROYAL,
    JOKER,
    MOVE_E,
    MOVE_T,
    NO_CARD,
    NO_LOCK,
    PLAYING,
    ROYALS_IN_DECK,
    SUIT,
    VALUE,
    RoyalAssassinRules,
    RoyalAssassinState,
)


def _kill_costs(royals: tuple[int, ...]) -> list[int]:
    """The least attack that kills each Royal, bottom first: min(V, V + D − A), since D only
    grows, or drops to 0 together with A in a discard (see `_doomed`)."""
    return [min(VALUE[code & 63], VALUE[code & 63] + (code >> 13) - (code >> 6 & 127)) for code in royals]


class RoyalAssassinBounds:
    """The solver's optional hooks of games/base.py over Royal Assassin's rules (`rules`, one
    variant's): the part of games/royal_assassin/game.py's `RoyalAssassin` its search hooks
    delegate to."""

    def __init__(self, rules: RoyalAssassinRules):
        self.rules = rules
        self._suffix_cache: dict = {}  # `_stock_suffix`'s tables, one per stock seen

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
        moves = self.rules.legal_moves(state)
        if state.turned != NO_CARD:
            if self.rules.two_jokers:
                return moves
            return [m for m in moves if m[0] != "J" or m[1] == "T"]
        if len(moves) > 1 and moves[-1] == MOVE_E:
            moves.pop()
        return moves

    def order_moves(self, state: RoyalAssassinState, moves: list[str]) -> list[str]:
        """`legal_moves` already lists moves best-first (attacks, Joker placements, T, P,
        REDEAL, E), so that a win is met early and the solver's line walk agrees with it.

        V6 (a Joker sweeps once) turns first and places a Joker after: a Joker spent on the
        first column that allows it is gone for the column that needed it.  It decides
        joker_dies deals the default order left undecided at 10 s with many times fewer
        states (bench/results/changes-kept.csv has the measurement)."""
        if not self.rules.joker_dies or state.turned != NO_CARD or MOVE_T not in moves:
            return moves
        placements = [m for m in moves if m[0] == "J"]
        return [m for m in moves if m[0] != "J"] + placements

    def score_upper_bound(self, state: RoyalAssassinState) -> int:
        """12 unless no WIN is possible (`_doomed`); then the Royals killed so far and at most
        `_most_kills` more, and at least one Royal stays, and every Royal of a column that
        can provably never lose one again."""
        if state.status != PLAYING:
            return self.rules.outcome(state).score
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
        if self.rules.royal_beneath:
            return False, 0
        supply_left, future, cheapest_future, suits_to_come = self._stock_suffix(state.stock)[state.pos]
        sweeps = self._jokers_left(state) if self.rules.joker_dies else None  # None: Jokers come back
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
        landing = self.rules.landing_value
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
        free = self._jokers_left(state) - state.jokers_on.bit_count() if self.rules.joker_dies else 4
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
        if self.rules.redeal:
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
                supply[not IS_RED[card // 13]] += self.rules.landing_value[card]
                suits |= 1 << SUIT[card]
            table.append((tuple(supply), tuple(future), tuple(cheapest), suits))
        table.reverse()
        self._suffix_cache[id(stock)] = (stock, table)
        return table
