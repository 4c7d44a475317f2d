"""Playing a deal: a game-agnostic session (moves, undo, redo, hints, the verdict of the
position) shared by the full-screen game (usurper/app/tui.py) and the line-by-line one (`run_plain`).

The session shows what a player sees (the visible position, where the game has one) and
keeps the full state, so that a clairvoyant hint and the verdict can read the deal while a
fair hint does not: nothing the fair hint prints is read from the order of the face-down
cards.  The commands that read the deal (the clairvoyant hint, the verdict) also *review* the
moves already played: where they threw away a win or points, found by bisection (the best
score reachable never rises along a line), on a line labelled as read from the deal.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, TextIO

from games.base import Game, MoveError, Outcome, UsurperError, Verdict
from solver.analysis import analyse
from solver.answers import Budget, SolveResult
from solver.fair import FAIR_SAMPLES, fair_hint_for_state, move_words, visible_text
from solver.hints import clairvoyant_hint

#: The budget of the on-request analyses (verdict, the deal's optimum).
ANALYSIS_BUDGET = Budget(time_limit=20.0, max_memory_mb=512)
#: Seconds of a clairvoyant hint in play, where the moves played lost included.
HINT_SECONDS = 5.0
#: Seconds of a fair hint when none are given (in play, and `usurper hint --fair`).
FAIR_SECONDS = 2.0

PLAIN_HELP = ("type a move (its number or its notation), or: u undo, r redo, h hint (reads the deal), "
              "f fair hint (sees what you see), v verdict and review (reads the deal), m moves so far, q quit")
#: Where the moves played lost the win or points is read from the deal: its line says so.
REVIEW_LABEL = "Review (reads the deal)"


@dataclass
class PlaySession:
    """One deal being played: the start, the moves played, the moves undone (for redo)."""

    game: Game
    start: Any
    played: list[Any] = field(default_factory=list)
    undone: list[Any] = field(default_factory=list)
    budget: Budget = ANALYSIS_BUDGET
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    _states: list[Any] = field(default_factory=list, repr=False)
    _deal_value: SolveResult | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self._states = [self.start]
        for move in self.played:
            self._states.append(self.game.apply(self._states[-1], move))

    # ----- the position -------------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self._states[-1]

    def position(self) -> str:
        """What a player sees (no face-down card), else the game's own description."""
        if self.game.visible_positions() is not None:
            return visible_text(self.game, self.state)
        return self.game.describe(self.state)

    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)

    def legal(self) -> list[tuple[Any, str]]:
        """The legal moves with their words (no face-down card named)."""
        return [(move, move_words(self.game, self.state, move)) for move in self.game.legal_moves(self.state)]

    def line_text(self) -> str:
        """The moves played, in the game's notation (what `usurper verify --moves` reads)."""
        return self.game.format_line(self.start, self.played)

    def farewell(self) -> str:
        """What leaving the full screen prints: the moves played, as `usurper verify --moves`
        reads them."""
        return f"moves: {self.line_text()}" if self.played else "(no move played)"

    # ----- moving -------------------------------------------------------------------------
    def play(self, move: Any) -> None:
        if move not in self.game.legal_moves(self.state):
            raise MoveError("that move is not legal here")
        self.played.append(move)
        self._states.append(self.game.apply(self.state, move))
        self.undone.clear()

    def play_text(self, text: str) -> Any:
        """A move by its number in `legal()` (1 first) or by its notation."""
        legal = self.legal()
        if not legal:  # not "choose 1 to 0"
            raise MoveError("the game is over: there is no move to play")
        if text.strip().isdigit():
            number = int(text)
            if not 1 <= number <= len(legal):
                raise MoveError(f"no move {number}: choose 1 to {len(legal)}")
            move = legal[number - 1][0]
        else:
            move = self.game.parse_move(self.state, text)
        self.play(move)
        return move

    def undo(self) -> bool:
        if not self.played:
            return False
        self.undone.append(self.played.pop())
        self._states.pop()
        return True

    def redo(self) -> bool:
        if not self.undone:
            return False
        move = self.undone.pop()
        self.played.append(move)
        self._states.append(self.game.apply(self.state, move))
        return True

    # ----- advice -------------------------------------------------------------------------
    def verdict(self) -> str:
        """"still winnable: yes; best score 94" (reads the deal)."""
        outcome = self.outcome()
        if outcome is not None:
            return f"the game is over: {outcome.text()}, score {outcome.score}"
        result = analyse(self.game, self.state, "optimal", self.budget)
        return _verdict_words(result)

    def verdict_and_review(self, seconds: float = HINT_SECONDS) -> list[str]:
        """The verdict of the position, then where the moves played lost, if found within
        `seconds` after it (both read the deal)."""
        verdict = self.verdict()
        return [verdict, *self.review(Deadline(seconds).end)]

    def clairvoyant_hint(self, seconds: float = HINT_SECONDS) -> list[str]:
        """The solver's next move reading the deal, and where a win or points were lost, all
        within `seconds`."""
        return self.clairvoyant_advice(seconds)[1]

    def clairvoyant_advice(self, seconds: float = HINT_SECONDS) -> tuple[Any, list[str]]:
        """`clairvoyant_hint` with the move it advises (the full screen marks it)."""
        deadline = Deadline(seconds, share=HINT_SHARE if self.played else 1.0)
        advice = clairvoyant_hint(self.game, self.state, budget=replace(self.budget, time_limit=deadline.first_share()))
        text = move_words(self.game, self.state, advice.move, peek=True)
        worth = (f"keeps the best score {advice.secures} reachable ({advice.verdict.lower()} with best play)"
                 if advice.proven else f"not proven ({advice.exhausted} ran out; best line found {advice.best_found})")
        return advice.move, [f"Hint (reads the deal): {text}: {worth}", *self.review(deadline.end)]

    def fair_hint(self, samples: int = FAIR_SAMPLES, time_limit: float | None = FAIR_SECONDS) -> list[str]:
        """The move with the best win chance over the orders of the unseen cards, within
        `time_limit`; nothing in it is read from the deal (no review: `h` and `v` give it)."""
        return self.fair_advice(samples, time_limit)[1]

    def fair_advice(self, samples: int = FAIR_SAMPLES, time_limit: float | None = FAIR_SECONDS
                    ) -> tuple[Any, list[str]]:
        """`fair_hint` with the move it advises (the full screen marks it)."""
        hint = fair_hint_for_state(self.game, self.state, samples=samples, rng=self.rng, time_limit=time_limit)
        return hint.move, hint.lines()

    def review(self, deadline: float | None = None) -> list[str]:
        """Where the moves played threw away the win or points, labelled as read from the deal
        (empty if nothing was, or it was not found by `deadline`, a time.perf_counter() instant)."""
        note = where_lost(self.game, self.start, self.played, self.budget, deadline)
        return [review_line(note, len(self.played))] if note else []

    def deal_optimum(self) -> SolveResult:
        if self._deal_value is None:
            self._deal_value = analyse(self.game, self.start, "optimal", self.budget)
        return self._deal_value

    def end_report(self) -> str:
        """The outcome and score against the deal's optimum."""
        outcome = self.outcome()
        if outcome is None:
            raise UsurperError("the game is not over")
        best = self.deal_optimum()
        if best.score is not None:
            against = f"the deal's optimum is {best.score}" + (" (reached)" if best.score == outcome.score else "")
        else:
            against = f"the deal's optimum is not proven (best line found {best.line_score})"
        return f"Game over: {outcome.text()}; score {outcome.score}; {against}"


#: The share of a hint's time limit its advice may use; where the moves played lost gets the rest.
HINT_SHARE = 0.6
#: The share of a time limit the searches of one command aim at, leaving the rest for start-up
#: and the replay of every line, so that the command as a whole keeps its limit.
SEARCH_SHARE = 0.9


class Deadline:
    """One time limit shared by the searches of one command, counted from its creation."""

    def __init__(self, seconds: float, share: float = 1.0):
        self.started = time.perf_counter()
        self.seconds, self.share = seconds, share
        self.end = self.started + seconds * SEARCH_SHARE

    def first_share(self) -> float:
        """Seconds for the first search: its share of the limit, at least a millisecond."""
        left = self.seconds * SEARCH_SHARE * self.share - (time.perf_counter() - self.started)
        return max(0.001, round(left, 2))  # rounded: the limit is printed where it runs out

    def split_words(self) -> str:
        """How the limit is spent, for people: with a second search (where the moves played
        lost) 'the hint 32.4 s (60 % of the 90 % kept for searching), where the moves played
        lost the rest'; alone 'the hint 54 s (the 90 % kept for searching)'."""
        searching = f"{SEARCH_SHARE * 100:g} % kept for searching"
        if self.share == 1.0:
            return f"the hint {self.seconds * SEARCH_SHARE:g} s (the {searching})"
        return (f"the hint {round(self.seconds * SEARCH_SHARE * self.share, 2):g} s ({self.share * 100:g} % of the "
                f"{searching}), where the moves played lost the rest")


def review_line(note: str | None, moves_played: int) -> str:
    """A review's line, labelled as read from the deal: `note` (from where_lost), or that
    nothing was found lost (or nothing played yet)."""
    if note is None:
        note = "nothing found lost by the moves played" if moves_played else "no move played yet"
    return f"{REVIEW_LABEL}: {note}"


def where_lost(game: Game, start: Any, moves: list[Any], budget: Budget = ANALYSIS_BUDGET,
               deadline: float | None = None) -> str | None:
    """"the win was lost at move 3: Penitent <- Castle; the best from here is a loss scoring
    58", or the move that lost points, or None (nothing lost, or not proven in budget or by
    `deadline`, a time.perf_counter() instant no search may pass)."""
    if not moves:
        return None
    try:
        return _where_lost(game, start, moves, budget, deadline)
    except TimeoutError:
        return None


def _where_lost(game: Game, start: Any, moves: list[Any], budget: Budget, deadline: float | None) -> str | None:
    states = [start]
    for move in moves:
        states.append(game.apply(states[-1], move))
    values: dict[int, int | None] = {}

    def value(index: int) -> int | None:
        if index not in values:
            outcome = game.outcome(states[index])
            if outcome is not None:
                values[index] = outcome.score
            else:
                values[index] = analyse(game, states[index], "optimal", _until(budget, deadline)).score
        return values[index]

    best, now = value(0), value(len(moves))
    if best is None or now is None or now >= best:
        return None
    won_from_start = best >= game.lowest_win_score
    if won_from_start and now < game.lowest_win_score:
        index = first_drop(len(moves), lambda i: value(i), game.lowest_win_score)
        what = "the win was lost"
    else:
        index = first_drop(len(moves), lambda i: value(i), best)
        what = f"points were lost (the deal's best was {best})"
    if index is None:
        return None
    move_text = move_words(game, states[index - 1], moves[index - 1], peek=True)
    kind = "a win" if now >= game.lowest_win_score else "a loss"
    return f"{what} at move {index}: {move_text}; the best from here is {kind} scoring {now}"


def _until(budget: Budget, deadline: float | None) -> Budget:
    """`budget` with its time limit cut to what is left before `deadline`."""
    if deadline is None:
        return budget
    left = deadline - time.perf_counter()
    if left < 0.001:
        raise TimeoutError
    return replace(budget, time_limit=left if budget.time_limit is None else min(budget.time_limit, left))


def run_plain(game: Game, state: Any, stdin: TextIO, stdout: TextIO, samples: int = FAIR_SAMPLES,
              rng: random.Random | None = None, played: Iterable[Any] = ()) -> PlaySession:
    """The game without a terminal: one line per position and its moves, one command read
    per line of `stdin` (a move, or a letter of PLAIN_HELP); ends at the game's end or EOF.
    `played`: moves already played from `state` (`--moves`), part of the line printed."""
    session = PlaySession(game, state, played=list(played), rng=rng or random.Random(0))
    say = printer(stdout)
    say(f"{game.name} ({game.variant}): {PLAIN_HELP}")
    lines = iter(stdin)
    while session.outcome() is None:
        say(f"[{len(session.played) + 1}] {session.position()}")
        say("moves: " + "  ".join(f"{n}) {words}" for n, (_, words) in enumerate(session.legal(), 1)))
        command = next(lines, None)
        if command is None:
            say("(end of input; the game is not over)")
            return session
        if command.strip().lower() in ("q", "quit"):
            if _confirm_quit(session, lines, say):
                return session
            continue
        for reply in _obey(session, command.strip(), samples):
            say(reply)
    say(f"[end] {session.position()}")
    say(session.end_report())
    say(f"moves: {session.line_text()}")
    return session


# ----- helpers ----------------------------------------------------------------------------
def _obey(session: PlaySession, command: str, samples: int) -> Iterable[str]:
    word = command.lower()
    try:
        if word in ("u", "undo"):
            return [] if session.undo() else ["nothing to undo"]
        if word in ("r", "redo"):
            return [] if session.redo() else ["nothing to redo"]
        if word in ("h", "hint"):
            return session.clairvoyant_hint()
        if word in ("f", "fair"):
            return session.fair_hint(samples)
        if word in ("v", "verdict"):
            return session.verdict_and_review()
        if word in ("m", "moves"):
            return [f"moves: {session.line_text() or '-'}"]
        if word in ("q", "quit", ""):
            return []
        if word in ("?", "help"):
            return [PLAIN_HELP, *([session.game.legend()] if session.game.legend() else [])]
        session.play_text(command)
        return []
    except UsurperError as exc:
        return [f"error: {exc}"]


def _confirm_quit(session: PlaySession, lines: Iterable[str], say) -> bool:
    """Quit at once when nothing is lost (no move played); else ask, and quit on y, q or
    the end of the input."""
    if not session.played:
        return True
    say("quit the game in progress? y quits, anything else goes on")
    answer = next(iter(lines), None)
    if answer is None or answer.strip().lower() in ("y", "yes", "q", "quit"):
        say(f"moves so far: {session.line_text()}")
        return True
    return False


def printer(stdout: TextIO):
    """A line writer that flushes each line, for the games played line by line."""
    def say(text: str) -> None:
        stdout.write(text + "\n")
        stdout.flush()
    return say


def first_drop(count: int, value, level: int) -> int | None:
    """The first i in 1..count with value(i) < level, given value(count) < level and the
    value never rising along the line; None when a value is not proven in budget."""
    low, high = 0, count  # value(low) >= level, value(high) < level
    while high - low > 1:
        middle = (low + high) // 2
        found = value(middle)
        if found is None:
            return None
        if found >= level:
            low = middle
        else:
            high = middle
    return high


def _verdict_words(result: SolveResult) -> str:
    if result.verdict == Verdict.UNDECIDED and result.line_score is None:
        return f"still winnable: not known ({result.exhausted} ran out)"
    winnable = {Verdict.WON: "yes", Verdict.LOST: "no"}.get(result.verdict, "not known")
    if result.score is not None:
        return f"still winnable: {winnable}; best score {result.score}"
    return f"still winnable: {winnable}; best score not proven (at least {result.line_score})"
