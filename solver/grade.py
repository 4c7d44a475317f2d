"""Difficulty grades: the weakest player who wins a deal without peeking (docs/grades.md).

A deal is played by a ladder of players that never see the face-down cards, weakest first
(`LADDER`): the game's greedy rule, then the fair player (solver/players.py) at growing
budgets of solved samples a decision, each fair rung played with three fixed random seeds.
The deal's grade is the grade of the first rung that wins it (`Rung.wins_needed` of its
plays).  Where no rung wins, the exact search decides between `clairvoyant-only` (a player
who sees the deck wins) and `unwinnable` (proven lost: then no rung is played, none could
win).  Every play is kept as a line of moves that `usurper verify` replays.

A game where every deal is won is graded by score reached instead (`Ladder.target`, the
table `LADDERS`): a play counts only when it wins with at least the target score, and the
exact search asks whether the target can be reached.

Beside the grade, `narrowness` says how narrow the way to a win is for a player who sees
every card: along the exact search's winning line, at each decision, how many legal moves
keep the win (not where the grade is by score: whether a move keeps a score reachable would
take an optimal search a move, and a repeating game's search seldom proves a score out of reach).

Every budget here counts states, never seconds, so a grade is the same on any machine and
under any load.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from games.base import Game, UnsupportedGame, UsurperError, Verdict
from solver.analysis import analyse
from solver.players import FairPolicy, Policy, greedy_move, play_from, player_rng
from solver.search import Budget
from solver.verify import check_claim

#: The grades, easiest first; `UNDECIDED` where no rung won and the exact search ran out.
GRADES = ("easy", "medium", "hard", "expert", "clairvoyant-only", "unwinnable")
UNDECIDED = "undecided"
CLAIRVOYANT_ONLY, UNWINNABLE = "clairvoyant-only", "unwinnable"


@dataclass(frozen=True)
class Rung:
    """One player of the ladder: `samples` None is the greedy rule, else the fair player with
    that many solved samples a decision; it wins the deal when `wins_needed` of its plays
    (one per random seed) win."""

    grade: str
    samples: int | None
    random_seeds: tuple[int, ...]
    wins_needed: int

    @property
    def player(self) -> str:
        return "greedy" if self.samples is None else f"fair-{self.samples}"

    def chooser(self) -> Policy:
        return greedy_move if self.samples is None else FairPolicy(self.samples)


@dataclass(frozen=True)
class Ladder:
    """The rungs, weakest first, and what a play must reach to count: a win (`target` None),
    or a win scoring at least `target`, where every deal is won and the score is what varies."""

    rungs: tuple[Rung, ...]
    target: int | None = None

    def reached(self, won: bool, score: int) -> bool:
        return won and (self.target is None or score >= self.target)

    @property
    def text(self) -> str:
        """The ladder as words, stored in a graded catalogue's header: a run resumed with
        another ladder is refused rather than mixing two definitions."""
        rungs = ", ".join(f"{rung.grade}: {rung.player} wins {rung.wins_needed} of {len(rung.random_seeds)}"
                          for rung in self.rungs)
        return rungs if self.target is None else f"{rungs}; a play wins when it ends won scoring {self.target} or more"


FAIR_SEEDS = (1, 2, 3)
#: Chosen from measured win rates (docs/grades.md): budgets about three times apart up to
#: 300, where the fair player's win rate has levelled off; the weakest fair rung must win all
#: three plays, so that `easy` is not most of Royal Assassin's deals, which fair-10 often wins.
LADDER = Ladder((
    Rung("easy", None, (0,), 1),
    Rung("easy", 10, FAIR_SEEDS, 3),
    Rung("medium", 30, FAIR_SEEDS, 2),
    Rung("hard", 100, FAIR_SEEDS, 2),
    Rung("expert", 300, FAIR_SEEDS, 2),
))
#: The games whose grade is not the default ladder's, by name (docs/grades.md "King's Reign").
#: King's Reign: every deal is won (a perfect 85 on each of seeds 0-9,999), so a play counts
#: only where it wins scoring 16 or more, about half of fair-30's plays; its fair player
#: reaches that more often from 3 to 30 samples and no more past them, where a play costs
#: seconds, so its rungs are 3, 10, 30 and 100 samples.
LADDERS = {
    "kings-reign": Ladder((
        Rung("easy", None, (0,), 1),
        Rung("easy", 3, FAIR_SEEDS, 3),
        Rung("medium", 10, FAIR_SEEDS, 2),
        Rung("hard", 30, FAIR_SEEDS, 2),
        Rung("expert", 100, FAIR_SEEDS, 2),
    ), target=16),
}


def ladder_of(game_name: str) -> Ladder:
    """The ladder that grades `game_name`'s deals."""
    return LADDERS.get(game_name, LADDER)


#: The exact search that decides a deal no rung won, and whose line the narrowness follows.
VERDICT_BUDGET = Budget(max_states=20_000_000, max_memory_mb=1024)
#: Each "does this move keep the win?" search along the line.
KEEP_BUDGET = Budget(max_states=2_000_000, max_memory_mb=512)


@dataclass
class Play:
    """One play of a rung: who played, with which random seed, how it ended, and its moves."""

    player: str
    random_seed: int
    won: bool       # reached what the ladder asks: a win, or a win scoring its target
    score: int
    moves: str


@dataclass
class Narrowness:
    """How narrow the way to a win is along the exact search's winning line: at each decision
    (two legal moves or more), the moves that keep the win and the legal moves
    (`keeping[i] = [keep, legal]`; keep None where a search ran out of budget)."""

    keeping: list[list[int | None]] = field(default_factory=list)

    @property
    def decisions(self) -> int:
        return len(self.keeping)

    @property
    def critical(self) -> int:
        """Decisions where exactly one move keeps the win."""
        return sum(keep == 1 for keep, _ in self.keeping)

    @property
    def first_move_share(self) -> float | None:
        """The share of the first decision's moves that keep the win."""
        if not self.keeping or self.keeping[0][0] is None:
            return None
        keep, legal = self.keeping[0]
        return keep / legal

    def as_dict(self) -> dict:
        return {"decisions": self.decisions, "critical": self.critical,
                "first_move_share": None if self.first_move_share is None else round(self.first_move_share, 4),
                "keeping": self.keeping}


@dataclass
class GradeReport:
    grade: str
    verdict: Verdict
    ladder: list[Play]
    narrowness: Narrowness | None
    winning_line: list[Any] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"grade": self.grade, "verdict": str(self.verdict), "ladder": [asdict(play) for play in self.ladder],
                "narrowness": None if self.narrowness is None else self.narrowness.as_dict()}


def parse_grades(text: str) -> tuple[str, ...]:
    """Grades as a user asks for them: one (`hard`), a list (`easy,hard`) or a range, easiest
    first (`medium..expert`)."""
    wanted: list[str] = []
    for part in (word.strip() for word in text.split(",")):
        first, dots, last = part.partition("..")
        for grade in (first, last) if dots else (first,):
            if grade not in (*GRADES, UNDECIDED):
                raise UsurperError(f"unknown grade {grade!r} (known: {', '.join(GRADES)}, {UNDECIDED})")
        if dots:
            low, high = GRADES.index(first), GRADES.index(last) if last in GRADES else len(GRADES)
            if low > high:
                raise UsurperError(f"the range {part!r} runs backwards: easiest grade first")
            wanted.extend(GRADES[low:high + 1])
        else:
            wanted.append(first)
    return tuple(dict.fromkeys(wanted))


def check_gradable(game: Game) -> None:
    """Grades are for one-player games whose deals are won or lost; others are refused."""
    kind = game.game_type
    if kind.simultaneous or kind.max_players > 1:
        raise UnsupportedGame(f"{game.name} has no grade: its deals are played by several seats")
    if game.visible_positions() is None:
        raise UnsupportedGame(f"{game.name} has no grade: it has no model of what a player sees")


def grade_deal(game: Game, state: Any, seed: int = 0, ladder: Ladder | None = None,
               told: Callable[[str], None] | None = None) -> GradeReport:
    """The grade of the deal at `state` (its seed picks each play's random generator, as
    solver.players.play_deal does), with every play, and the narrowness where it is won;
    `ladder`: the game's own (`ladder_of`) unless given."""
    check_gradable(game)
    ladder = ladder or ladder_of(game.name)
    say = told or (lambda _text: None)
    say("exact search")
    verdict, line = exact_search(game, state, ladder.target)
    if verdict == Verdict.LOST:
        return GradeReport(UNWINNABLE, Verdict.LOST, [], None)
    plays: list[Play] = []
    grade = None
    for rung in ladder.rungs:
        say(rung.player)
        rung_plays = play_rung(game, state, seed, rung, ladder)
        plays.extend(rung_plays)
        if sum(play.won for play in rung_plays) >= rung.wins_needed:
            grade = rung.grade
            break
    if grade is None:
        grade = CLAIRVOYANT_ONLY if verdict == Verdict.WON else UNDECIDED
    narrowness = None
    if verdict == Verdict.WON and ladder.target is None:
        say("narrowness")
        narrowness = narrowness_along(game, state, line)
    return GradeReport(grade, verdict, plays, narrowness, line)


def exact_search(game: Game, state: Any, target: int | None) -> tuple[Verdict, list[Any]]:
    """Whether a player who sees every card wins the deal (`target` None) or wins it scoring at
    least `target`, and the line that does it (replayed before it is believed).  Where the
    target is not met, LOST only once the optimum is proven below it."""
    if target is None:
        exact = analyse(game, state, "winnable", VERDICT_BUDGET)
        verdict = exact.verdict
    else:
        exact = analyse(game, state, "optimal", VERDICT_BUDGET)
        bound = exact.score if exact.score is not None else exact.upper_bound
        if exact.verdict == Verdict.WON and exact.line_score is not None and exact.line_score >= target:
            verdict = Verdict.WON
        elif exact.verdict == Verdict.LOST or (bound is not None and bound < target):
            verdict = Verdict.LOST
        else:
            verdict = Verdict.UNDECIDED
    if verdict != Verdict.WON:
        return verdict, []
    check_claim(game, state, exact.line, True, exact.line_score)
    return verdict, exact.line


def play_rung(game: Game, state: Any, seed: int, rung: Rung, ladder: Ladder | None = None) -> list[Play]:
    """The rung's plays, stopping once it has won enough or can no longer; a play wins when it
    reaches what `ladder` (the game's own unless given) asks: a win, or a win scoring its target."""
    ladder = ladder or ladder_of(game.name)
    plays: list[Play] = []
    for index, random_seed in enumerate(rung.random_seeds):
        wins = sum(play.won for play in plays)
        if wins >= rung.wins_needed or wins + len(rung.random_seeds) - index < rung.wins_needed:
            break
        line: list[Any] = []
        played = play_from(game, state, rung.chooser(), player_rng(random_seed, seed), seed, line=line)
        plays.append(Play(rung.player, random_seed, ladder.reached(played.won, played.score), played.score,
                          game.format_line(state, line)))
    return plays


def narrowness_along(game: Game, state: Any, line: list[Any], budget: Budget = KEEP_BUDGET) -> Narrowness:
    """At each decision of the winning `line`, how many legal moves keep the win."""
    narrowness = Narrowness()
    for move in line:
        moves = game.legal_moves(state)
        if len(moves) > 1:
            narrowness.keeping.append([moves_keeping_the_win(game, state, moves, budget), len(moves)])
        state = game.apply(state, move)
    return narrowness


def moves_keeping_the_win(game: Game, state: Any, moves: list[Any], budget: Budget) -> int | None:
    """How many of `moves` leave a position that can still be won (None: a search ran out)."""
    keep = 0
    for move in moves:
        child = game.apply(state, move)
        outcome = game.outcome(child)
        if outcome is not None:
            keep += outcome.won
            continue
        verdict = analyse(game, child, "winnable", budget).verdict
        if verdict == Verdict.UNDECIDED:
            return None
        keep += verdict == Verdict.WON
    return keep
