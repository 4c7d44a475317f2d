"""Fair hints: advice from what a player sees, never from the order of the face-down cards.

The position is a game's *visible* position (games/<game>/visible.py: the face-up rows and
the contents of the unknown cards).  Each move is valued by perfect-information Monte Carlo,
as lonelybot does for Klondike: sample an order of the unknown cards, play the move, solve
the result exactly under a small budget, and count a win only where the solver found one (a
sample that hits its budget is *unknown*, never a win).  Every move is valued on the same
sampled worlds (common random numbers: the k-th sample of each move is played in one world),
and the samples go to the moves still in contention by successive halving: each round gives
every surviving move the same number of new worlds, then keeps the better half, so a budget
of a few hundred samples is not spread thinly over thirty moves.

Equal footing under a time limit.  A round's worlds are dealt out in sweeps, round-robin: world
k goes to every surviving move before world k + 1 goes to any, so no move gets a second sample
while another has none.  Before each round the samples that the time left affords at the pace
so far are planned (never more than the budget asked), so more samples asked, or more time,
never leaves the advice on fewer samples.  Where the limit still comes mid-sweep, the samples of
that unfinished sweep are set aside (said in the hint) and the moves are ranked on the worlds
they all share; in the first sweep the moves not yet sampled are named as such, and the advice
is the best move sampled, never a move chosen by the order the moves are listed in.

Figures shown.  A sample that hits its budget is *undecided*: a move's win chance is shown
among its decided samples, its interval over them, and the undecided count beside it.  The
ranking counts a win only where the solver found one (the reward below): an undecided sample
earns the move nothing, so the advice prefers moves whose wins are found within the budget.

When few cards are unseen (`EXACT_CARDS`) and the game's model gives a state per order, the
hint is instead the exact fair optimum (solver/expectimax.py): an expectimax over which card
comes next, with no sampling error and no strategy fusion; where its node budget or the
time limit stops it, sampling takes over.

The advice maximises the estimated chance of winning, then the mean score; where positions
repeat, the score shares its weight with how soon the sampled wins come, so that a move
which gains nothing never ties with one that does.  With at most one
unknown card every order gives the same state, so the fair hint is the clairvoyant one and
says it is exact.  Given a seed (`random.Random(seed)`) and no time limit the hint is
deterministic: budgets per sample and of the expectimax count states, not seconds.  A time
limit is kept: no sample starts after it, and each sample's own search stops at it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from games.base import Game, UnsupportedGame, UsurperError, Verdict, VisiblePositions
from solver.analysis import analyse
from solver.defaults import FAIR_SAMPLES
from solver.expectimax import FairExpectimax, SearchStopped, offers_exact
from solver.hints import clairvoyant_hint
from solver.search import Budget, SearchSettings
from solver.stats import wilson_interval

#: Per-sample search: a few milliseconds with the compiled engines, and a state count, not a
#: time, so that a seeded hint repeats exactly.
SAMPLE_BUDGET = Budget(max_states=2000, max_table=1 << 16, max_memory_mb=32)
#: The same for games whose positions repeat: their search spends far more on a state.
REPEATING_SAMPLE_BUDGET = Budget(max_states=100, max_table=1 << 16, max_memory_mb=32)
#: The per-sample search's order: within a budget of states the order decides what a sample
#: finds, so the samples keep the order with which the fair policy was measured.
SAMPLE_SETTINGS = SearchSettings(keep_whole_refutations=False)
#: At most this many unseen cards: the exact fair optimum is tried before any sampling.
EXACT_CARDS = 4
#: The expectimax's budget per hint, in chance expansions (tens of microseconds each).
EXACT_NODES = 20_000
#: Without a time limit, the exact one-order hint still stops here (seconds).
EXACT_HINT_SECONDS = 30.0
#: A win is worth this much of a sample's reward; the rest is the score's share, so the
#: bandit also separates moves that no sample wins.
WIN_WEIGHT = 0.9
#: Where positions repeat, this much of the score's share goes to how soon a sample's win
#: comes (1 / (1 + moves to it)): there every move may win in every sample, and a move that
#: gains nothing (a pass) would tie with one that gains, so the player went round in circles.
QUICK_WEIGHT = 0.05


def win_then_score(won: float, score: float, max_score: int) -> float:
    """The fair hint's reward in 0..1 of a sample (or the mean of several): mostly the
    win, a little the score."""
    return WIN_WEIGHT * won + (1 - WIN_WEIGHT) * (score / max(max_score, 1))


@dataclass
class MoveEstimate:
    """What the samples of one move found: wins, unknowns (budget ran out, shown as undecided),
    the score total."""

    move: Any
    text: str
    samples: int = 0
    wins: int = 0
    unknown: int = 0
    score_total: int = 0
    history: list[tuple[bool, bool, int, int]] = field(default_factory=list, repr=False)  # won, unknown, score, moves
    quickness_total: float = 0.0           # sum over won samples of 1 / (1 + moves to the win)
    moves_to_win_total: int = 0            # sum over won samples of the moves to the win
    survived: int = 0                      # halving rounds this move came through
    exact_value: tuple[float, float] | None = None  # expectimax: (win chance, mean score)

    @property
    def win_rate(self) -> float:
        if self.exact_value is not None:
            return self.exact_value[0]
        return self.wins / self.samples if self.samples else 0.0

    @property
    def mean_score(self) -> float:
        if self.exact_value is not None:
            return self.exact_value[1]
        return self.score_total / self.samples if self.samples else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """Wilson 95 % interval of the share of samples won, the ranking's (unknown samples
        count as not won)."""
        if self.exact_value is not None:
            return self.exact_value[0], self.exact_value[0]
        return wilson_interval(self.wins, self.samples)

    @property
    def decided(self) -> int:
        """Samples whose search ended with a verdict (won or lost) within its budget."""
        return self.samples - self.unknown

    @property
    def decided_win_rate(self) -> float | None:
        """The win chance among the decided samples (None: none decided)."""
        if self.exact_value is not None:
            return self.exact_value[0]
        return self.wins / self.decided if self.decided else None

    @property
    def decided_interval(self) -> tuple[float, float] | None:
        """Wilson 95 % interval of the win chance among the decided samples."""
        if self.exact_value is not None:
            return self.exact_value[0], self.exact_value[0]
        return wilson_interval(self.wins, self.decided) if self.decided else None

    def add(self, won: bool, unknown: bool, score: int, moves_to_end: int) -> None:
        """Count one sample: its verdict, its score, the moves its line took."""
        self._count(won, unknown, score, moves_to_end, 1)
        self.history.append((won, unknown, score, moves_to_end))

    def forget_last(self) -> None:
        """Take the last sample back (one of a sweep the time limit left unfinished)."""
        self._count(*self.history.pop(), -1)

    def _count(self, won: bool, unknown: bool, score: int, moves_to_end: int, sign: int) -> None:
        self.samples += sign
        self.wins += sign * won
        self.unknown += sign * unknown
        self.score_total += sign * score
        if won:
            self.quickness_total += sign / (1 + moves_to_end)
            self.moves_to_win_total += sign * moves_to_end

    def summary(self, width: int, quick: bool = False) -> str:
        """One line: the win chance among decided samples, its interval, the mean score and
        the counts (`quick`: also how soon the wins came)."""
        if self.exact_value is not None:
            return f"{self.text:<{width}} wins {self.win_rate:6.1%} mean score {self.mean_score:5.1f}  (exact)"
        if not self.samples:
            return f"{self.text:<{width}} not sampled"
        rate, interval = self.decided_win_rate, self.decided_interval
        if rate is None or interval is None:
            chance = "wins      - (no sample decided)"
        else:
            of_decided = " of decided" if self.unknown else ""
            chance = f"wins {rate:6.1%}{of_decided} [{interval[0]:.1%}, {interval[1]:.1%}]"
        counts = counted(self.samples, "sample")
        if self.unknown:  # the ranking counts only the wins found: say how many beside the undecided
            counts += f": {self.wins} won, {self.unknown} undecided"
        moves = self.mean_moves_to_win
        if quick and moves is not None:
            counts += f", won in {moves:.0f} moves on average"
        return f"{self.text:<{width}} {chance} mean score {self.mean_score:5.1f}  ({counts})"

    @property
    def mean_moves_to_win(self) -> float | None:
        """How many moves the sampled wins took on average (None: no sample won)."""
        return self.moves_to_win_total / self.wins if self.wins else None

    def reward(self, max_score: int, quick: bool = False) -> float:
        """The mean reward of a sample in 0..1: mostly the win, a little the score, and with
        `quick` (positions repeat) a little how soon the win comes."""
        if not quick:
            return win_then_score(self.win_rate, self.mean_score, max_score)
        score_share = self.mean_score / max(max_score, 1)
        quickness = self.quickness_total / self.samples if self.samples else 0.0
        return (WIN_WEIGHT * self.win_rate + (1 - WIN_WEIGHT - QUICK_WEIGHT) * score_share
                + QUICK_WEIGHT * quickness)

    def rank(self) -> tuple[float, float, int]:
        return self.win_rate, self.mean_score, self.samples


@dataclass(frozen=True)
class FairHint:
    """The advised move and the estimates behind it, best move first.  `exact`: every order
    of the unknown cards gives the same answer, so this is the clairvoyant hint."""

    move: Any
    move_text: str
    position: str
    estimates: tuple[MoveEstimate, ...]
    samples: int
    exact: bool
    stopped_by_time: bool = False
    verdict: Verdict | None = None   # exact hints: the solver's verdict
    secures: int | None = None       # exact hints: the proven optimum
    method: str = "sampled"          # "sampled", "expectimax" (exact fair optimum) or "one order"
    quick: bool = False              # positions repeat: sooner sampled wins rank first at equal chances
    asked: int | None = None         # sampled hints: the samples asked for
    set_aside: int = 0               # sampled hints: samples of a sweep the time limit left unfinished

    def report(self) -> dict:
        """For --json: the advice and every move's estimate (`win_rate` over all its samples,
        the ranking's; `win_rate_of_decided` and its interval over the decided ones)."""
        return {
            "position": self.position, "move": self.move_text, "exact": self.exact, "samples": self.samples,
            "asked": self.asked, "set_aside": self.set_aside, "unsampled": self.unsampled,
            "stopped_by_time": self.stopped_by_time, "method": self.method,
            "verdict": str(self.verdict) if self.verdict else None, "secures": self.secures,
            "moves": [_estimate_report(e) for e in self.estimates],
        }

    @property
    def unsampled(self) -> int:
        """Moves the time limit left without a single sample."""
        if self.method != "sampled":
            return 0
        return sum(not e.samples for e in self.estimates)

    def lines(self, leading: int = 3) -> list[str]:
        """For people: the advice, then the leading moves with their win chance and interval."""
        if self.exact:
            worth = f"optimal score {self.secures}" if self.secures is not None else "optimum not proven"
            return [f"Fair hint (exact: the unknown cards can lie only one way): {self.move_text}",
                    f"  {str(self.verdict).lower()} with best play, {worth}"]
        shown = self.estimates[:leading]
        width = max(28, *(len(e.text) for e in shown))
        if self.method == "expectimax":
            head = f"Fair hint (exact fair optimum over the orders of the unseen cards): {self.move_text}"
        else:
            head = f"Fair hint: {self.move_text}  ({self.sampling_note()})"
        return [head, *(f"  {e.summary(width, self.quick)}" for e in shown)]

    def sampling_note(self) -> str:
        """What was sampled against what was asked, and why they differ: "600 samples", "599 of
        600 samples: shared in equal rounds", "28 samples: one for each move, more than the 5
        asked", "412 of 600 samples, stopped by the time limit"."""
        if not self.samples:
            note = "no sample before the time limit: the game's own first choice"
        elif self.asked is None or self.samples == self.asked:
            note = counted(self.samples, "sample")
        elif self.samples > self.asked:
            note = f"{counted(self.samples, 'sample')}: one for each move, more than the {self.asked} asked"
        else:
            note = f"{self.samples} of {counted(self.asked, 'sample')}"
            note += ", stopped by the time limit" if self.stopped_by_time else ": shared in equal rounds"
        if self.samples and self.unsampled:
            note += f" before {self.unsampled} of the {len(self.estimates)} moves were sampled"
        if self.set_aside:
            note += f"; {counted(self.set_aside, 'sample')} of an unfinished sweep set aside"
        if len(self.estimates) == 1:
            note += "; the only legal move, so the clairvoyant hint too"
        return note


def counted(count: int, noun: str) -> str:
    """"1 sample", "2 samples"."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _estimate_report(estimate: MoveEstimate) -> dict:
    decided = estimate.decided_interval
    rate = estimate.decided_win_rate
    moves = estimate.mean_moves_to_win
    return {"move": estimate.text, "samples": estimate.samples, "wins": estimate.wins, "unknown": estimate.unknown,
            "win_rate": round(estimate.win_rate, 4), "interval": [round(x, 4) for x in estimate.interval],
            "win_rate_of_decided": None if rate is None else round(rate, 4),
            "interval_of_decided": None if decided is None else [round(x, 4) for x in decided],
            "mean_score": round(estimate.mean_score, 2),
            "mean_moves_to_win": None if moves is None else round(moves, 1)}


def visible_model(game: Game) -> VisiblePositions:
    """The game's visible-position module; games without one are refused in one line."""
    model = game.visible_positions()
    if model is None:
        raise UnsupportedGame(f"{game.name} has no visible positions yet: fair hints and play need them")
    return model


def move_words(game: Game, state: Any, move: Any, peek: bool = False) -> str:
    """A move naming the cards it acts on; `peek`: it may name a face-down card (clairvoyant)."""
    model = game.visible_positions()
    if model is None:
        return game.format_move(state, move)
    return model.move_words(game, state, move, peek)


def parse_visible(game: Game, text: str) -> Any:
    return visible_model(game).parse_visible(game, text)


def visible_of(game: Game, state: Any) -> Any:
    """What a player sees of a full state (a seeded deal after some moves)."""
    return visible_model(game).visible_of(game, state)


def visible_text(game: Game, state: Any) -> str:
    return visible_model(game).visible_text(game, state)


def sample_question(game: Game) -> str:
    """What each sample is asked: the optimum where wins score differently, since the best
    score then separates the moves that win in nearly every sample; else winnable, the
    cheaper question (every win scores alike, or the positions repeat and an optimum costs
    far more)."""
    if game.game_type.repeats or game.lowest_win_score >= game.max_score:
        return "winnable"
    return "optimal"


def sample_budget(game: Game) -> Budget:
    """A sample's budget: SAMPLE_BUDGET, or REPEATING_SAMPLE_BUDGET where positions repeat."""
    return REPEATING_SAMPLE_BUDGET if game.game_type.repeats else SAMPLE_BUDGET


def fair_hint(game: Game, visible: Any, samples: int = FAIR_SAMPLES, per_sample_budget: Budget | None = None,
              rng: random.Random | None = None, time_limit: float | None = None,
              mode: str | None = None, exact_nodes: int = EXACT_NODES,
              expectimax: FairExpectimax | None = None,
              clock: Callable[[], float] = time.perf_counter) -> FairHint:
    """The move with the best estimated win chance (then mean score) over orders of the
    unknown cards.  `samples` counts solved samples over all moves (each move gets at least
    one, unless the time limit comes first; a time limit may afford fewer, and what cannot
    be shared equally among the moves in contention is left); `mode` "winnable" only asks
    whether each sample wins (faster; scores then count wins only), "optimal" also the best score (None:
    `sample_question`).
    `exact_nodes` (0: never) bounds the exact search tried when at most EXACT_CARDS cards
    are unseen; `expectimax` lends it a table kept between hints; `clock` is the time source
    of the limit.  `per_sample_budget` None: `sample_budget`."""
    model = visible_model(game)
    deadline = None if time_limit is None else clock() + time_limit
    per_sample_budget = per_sample_budget or sample_budget(game)
    mode = mode or sample_question(game)
    rng = rng or random.Random(0)
    first = model.sample_state(game, visible, rng)
    outcome = game.outcome(first)
    if outcome is not None:
        raise UsurperError(f"the game is over ({outcome.text()}); there is no next move")
    position = model.format_visible(game, visible)
    if model.unknown_count(visible) <= 1:
        return _exact_hint(game, first, position, deadline, clock)
    moves = game.legal_moves(first)
    if exact_nodes and len(moves) > 1 and model.unknown_count(visible) <= EXACT_CARDS and offers_exact(model):
        exact = _expectimax_hint(game, model, visible, first, position, exact_nodes, expectimax, deadline, clock)
        if exact is not None:
            return exact
    arms = [MoveEstimate(move, model.move_words(game, first, move)) for move in moves]
    sampler = _Worlds(game, model, visible, rng, first)
    spending = _Spending(max(samples, len(arms)), deadline, clock)
    set_aside = _halving(game, arms, sampler, spending, per_sample_budget, mode)
    quick = game.game_type.repeats
    ranked = tuple(sorted(arms, key=lambda arm: (arm.survived, arm.samples > 0, arm.reward(game.max_score, quick),
                                                 arm.samples), reverse=True))
    if not ranked[0].samples:  # the time limit came before any sample: the game's own order
        best = game.order_moves(first, moves)[0]
        ranked = tuple(sorted(ranked, key=lambda arm: arm.move != best))
    return FairHint(ranked[0].move, ranked[0].text, position, ranked, sum(arm.samples for arm in arms), False,
                    spending.stopped, quick=quick, asked=samples, set_aside=set_aside)


def fair_hint_for_state(game: Game, state: Any, **options) -> FairHint:
    """The fair hint of a full state, seeing only what a player sees of it."""
    return fair_hint(game, visible_of(game, state), **options)


# ----- helpers ----------------------------------------------------------------------------
def _exact_hint(game: Game, state: Any, position: str, deadline: float | None,
                clock: Callable[[], float]) -> FairHint:
    """One order of the unknown cards: the clairvoyant hint is the fair one."""
    seconds = EXACT_HINT_SECONDS if deadline is None else max(0.001, deadline - clock())
    advice = clairvoyant_hint(game, state, budget=Budget(time_limit=seconds))
    score = advice.secures if advice.secures is not None else advice.best_found or 0
    text = move_words(game, state, advice.move, peek=True)
    estimate = MoveEstimate(advice.move, text)
    estimate.add(advice.verdict == Verdict.WON, False, score, len(advice.result.line))
    return FairHint(advice.move, text, position, (estimate,), 1, True, False, advice.verdict,
                    advice.secures, method="one order")


def _expectimax_hint(game: Game, model: VisiblePositions, visible: Any, first: Any, position: str, nodes: int,
                     expectimax: FairExpectimax | None, deadline: float | None,
                     clock: Callable[[], float]) -> FairHint | None:
    """The exact fair optimum of every move, or None where the budget or deadline stops it."""
    search = expectimax or FairExpectimax(game, model, clock=clock)
    try:
        values = search.move_values(visible, deadline=deadline, node_budget=nodes)
    except SearchStopped:
        return None
    arms = [MoveEstimate(move, model.move_words(game, first, move), exact_value=value) for move, value in values]
    ranked = tuple(sorted(arms, key=MoveEstimate.rank, reverse=True))
    return FairHint(ranked[0].move, ranked[0].text, position, ranked, 0, False, method="expectimax")


class _Worlds:
    """The sampled worlds, shared by every move: world k is the k-th order drawn."""

    def __init__(self, game: Game, model: VisiblePositions, visible: Any, rng: random.Random, first: Any):
        self.game, self.model, self.visible, self.rng = game, model, visible, rng
        self.worlds = [first]

    def __getitem__(self, index: int) -> Any:
        while len(self.worlds) <= index:
            self.worlds.append(self.model.sample_state(self.game, self.visible, self.rng))
        return self.worlds[index]


class _Spending:
    """The samples a hint may still solve: what is left of its budget and, under a time limit,
    what the time left affords at the pace of the samples solved so far."""

    def __init__(self, budget: int, deadline: float | None, clock: Callable[[], float]):
        self.budget, self.deadline, self.clock = budget, deadline, clock
        self.solved = 0
        self.stopped = False          # the time limit bounds the latest plan, or ended the sampling
        self.started = clock() if deadline is not None else 0.0

    def affordable(self) -> int:
        """Samples that may still be solved: the budget's rest, fewer where the time left at the
        pace so far affords fewer (then the time limit cuts the hint short, unless a later
        plan, at a quicker pace, affords the rest after all)."""
        left = self.budget - self.solved
        if self.deadline is None or not self.solved:
            return left
        now = self.clock()
        pace = (now - self.started) / self.solved
        in_time = int((self.deadline - now) / pace) if pace > 0 else left
        self.stopped = in_time < left
        return max(0, min(left, in_time))

    def out_of_time(self) -> tuple[bool, float | None]:
        """Whether the deadline has come (no sample may start), and the time read."""
        if self.deadline is None:
            return False, None
        now = self.clock()
        if now >= self.deadline:
            self.stopped = True
            return True, now
        return False, now


def _halving(game: Game, arms: list[MoveEstimate], worlds: _Worlds, spending: _Spending, budget: Budget,
             mode: str) -> int:
    """Successive halving over the moves on common worlds: each round shares what `spending`
    affords equally among the moves alive (at least one sample each in the first round), then
    keeps the better half (ties: the earlier move, as the game lists its moves best first).  A
    round deals its worlds out in sweeps, one world to every move alive before the next world
    to any.  Returns how many samples of a sweep the time limit cut short were set aside."""
    alive = list(arms)
    rounds = max(1, math.ceil(math.log2(len(alive)))) if len(alive) > 1 else 1
    quick = game.game_type.repeats
    for done in range(rounds):
        start = alive[0].samples
        if done == 0:
            # the first sweep comes first: it measures the pace the round's share is planned at
            stopped_at = _sweep(game, alive, worlds, 0, spending, budget, mode)
            if stopped_at is not None:
                return 0  # moves not yet sampled are shown as such; those sampled share world 0
            each = max(1, (spending.solved + spending.affordable()) // (rounds * len(alive)))
        else:
            left = spending.affordable()
            each = max(left // ((rounds - done) * len(alive)), min(1, left // len(alive)))
            if not each:
                break  # too little left to give every contender one more world
        for world in range(start + 1 if done == 0 else start, start + each):
            stopped_at = _sweep(game, alive, worlds, world, spending, budget, mode)
            if stopped_at is not None:
                for arm in alive[:stopped_at]:
                    arm.forget_last()  # ranked on the worlds every contender was played in
                return stopped_at
        if len(alive) == 1:
            break
        alive.sort(key=lambda arm: arm.reward(game.max_score, quick), reverse=True)  # stable: ties keep order
        alive = alive[:math.ceil(len(alive) / 2)]
        for arm in alive:
            arm.survived += 1
    return 0


def _sweep(game: Game, alive: list[MoveEstimate], worlds: _Worlds, world: int, spending: _Spending, budget: Budget,
           mode: str) -> int | None:
    """Play world `world` with every move alive, in order; None when all were played, else how
    many were played before the deadline came."""
    for index, arm in enumerate(alive):
        late, now = spending.out_of_time()
        if late:
            return index
        _sample(game, worlds[world], arm, _until(budget, spending.deadline, now), mode)
        spending.solved += 1
    return None


def _until(budget: Budget, deadline: float | None, now: float | None) -> Budget:
    """`budget` with its time limit cut to what is left at `now` before the deadline."""
    if deadline is None or now is None:
        return budget
    left = max(0.001, deadline - now)
    return replace(budget, time_limit=left if budget.time_limit is None else min(budget.time_limit, left))


def solve_sample(game: Game, state: Any, budget: Budget, mode: str) -> tuple[bool, bool, int, list]:
    """One sampled world from `state` on, solved under the budget and counted as the fair
    hint counts it: (won, unknown: the budget ran out first, score, the line found).  In
    mode "winnable" only a win scores."""
    outcome = game.outcome(state)
    if outcome is not None:
        return outcome.won, False, outcome.score, []
    result = analyse(game, state, mode, budget, settings=SAMPLE_SETTINGS)
    won = result.verdict == Verdict.WON
    unknown = result.verdict == Verdict.UNDECIDED and not won
    score = result.score if result.score is not None else result.line_score or 0
    if mode == "winnable":
        score = result.line_score if won and result.line_score is not None else 0
    return won, unknown, score, result.line


def _sample(game: Game, world: Any, arm: MoveEstimate, budget: Budget, mode: str) -> None:
    """Play the move in one sampled world and solve what follows under the budget."""
    won, unknown, score, line = solve_sample(game, game.apply(world, arm.move), budget, mode)
    arm.add(won, unknown, score, len(line))
