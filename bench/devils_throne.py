"""Devil's Throne benchmark: time and states per question on seeded deals, and the Q4 figures.

    python bench/devils_throne.py                          # seeds 0-9, 2 players, 5 s a question
    python bench/devils_throne.py --seeds 0-19 --players 3 --questions q1,q2,q3 --time-limit 20
    python bench/devils_throne.py --players 3 --seat all --time-limit 60
    python bench/devils_throne.py --players 3 --seeds 0-19 --seat all --questions q2 --payoffs cards --time-limit 300
    python bench/devils_throne.py --suits C,S --seeds 0-99 --time-limit 600
    python bench/devils_throne.py --growth --players 3 --cards 2-7 --time-limit 60

Each question has its own budget (solver/simultaneous/); an undecided one prints its
interval and what each end rests on.  Seconds are wall-clock per question; each deal's CPU
time is printed too (the machine may be shared), and the summary gives the median CPU
seconds a deal.  The summary counts the questions decided within 10 s, 60 s and 600 s (of
those the limit allows).  With two players it gives the Q4 distribution (seat P's card
margin in mixed strategies) and how often seat 1 is favoured; with `--seat all`, each seat's
and suit's mean decided Q2 and Q3 cards (`--payoffs cards` asks only the cards, with all the
time).

`--growth` measures how the cost grows instead: for each k of `--cards`, the states and
CPU seconds each question needs (seat `--seat`, payoffs `--payoffs`) from round starts with k
cards in the smallest hand, near the end of `--endings` random deals played at random
(games.devils_throne.game.late_round_start, seeds 100, 101, ...).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import make_game  # noqa: E402
from games.devils_throne.game import late_round_start  # noqa: E402
from solver.analysis import SeatQuestions, analyse, default_questions  # noqa: E402
from solver.answers import Answer, Budget  # noqa: E402

THRESHOLDS = (10, 60, 600)


def main(argv: list[str] | None = None) -> None:
    options = _parser().parse_args(argv)
    variants = [f"players={options.players}"] + ([f"suits={options.suits}"] if options.suits else [])
    game = make_game("devils-throne", variants)
    questions = tuple(options.questions.split(",")) if options.questions else default_questions(options.players)
    seats = range(1, options.players + 1) if options.seat == "all" else [int(options.seat)]
    budget = Budget(time_limit=options.time_limit, max_states=options.max_states)
    payoffs = tuple(options.payoffs.split(","))
    if options.growth:
        _growth(game, questions, budget, _seeds(options.cards), options.endings, options.engine, list(seats),
                payoffs)
        return
    rows: dict[str, list[Answer]] = {q: [] for q in questions}
    by_seat: dict[int, list] = {seat: [] for seat in seats}
    deal_cpu = []
    print(f"devils-throne {game.variant}, seat {options.seat}, {options.time_limit:g} s a question")
    for seed in _seeds(options.seeds):
        state = game.initial_state(game.deal_from_seed(seed))
        for seat in seats:
            cpu = time.process_time()
            analysis = analyse(game, state, SeatQuestions(seat - 1, questions, payoffs), budget, options.engine)
            cpu = time.process_time() - cpu
            deal_cpu.append(cpu)
            by_seat[seat].append(analysis.answers)
            for question, answer in analysis.answers.items():
                rows[question].append(answer)
                print(f"seed {seed} seat {seat} {question}: {_value_text(answer, payoffs)}"
                      f"  states {answer.stats.states}  {answer.stats.seconds:.2f} s", flush=True)
                if not _decided(answer, payoffs) and answer.question != "q4":
                    print(f"    {_reasons(answer, payoffs)}", flush=True)
            print(f"seed {seed} seat {seat}: {cpu:.2f} s of CPU for all questions", flush=True)
    print()
    for question, answers in rows.items():
        decided = [a for a in answers if _decided(a, payoffs)]
        seconds = [a.stats.seconds for a in answers]
        states = [a.stats.states for a in answers]
        within = ", ".join(f"{sum(_decided(a, payoffs) and a.stats.seconds <= t for a in answers)} within {t} s"
                           for t in THRESHOLDS if t <= options.time_limit + 1e-9)
        within = f" ({within})" if within else ""
        print(f"{question}: decided {len(decided)}/{len(answers)}{within};"
              f" median {statistics.median(seconds):.2f} s, max {max(seconds):.2f} s;"
              f" median states {statistics.median(states):.0f}, max {max(states)}")
    print(f"CPU a deal (all questions): median {statistics.median(deal_cpu):.2f} s, max {max(deal_cpu):.2f} s")
    if "q4" in rows:
        _q4_summary(rows["q4"], int(options.seat) if options.seat != "all" else 1)
    if len(seats) > 1:
        _seat_summary(game, by_seat)


def _growth(game, questions: tuple[str, ...], budget: Budget, cards: list[int], endings: int, engine: str,
            seats: list[int], payoffs: tuple[str, ...]) -> None:
    """States and CPU seconds to decide each question (each seat of `seats`, 1-based) from
    round starts k cards before the end: the median and the total over `endings` positions,
    k by k."""
    print(f"devils-throne {game.variant}: states to decide each question from round starts with k cards"
          f" in the smallest hand, {endings} endings each, {budget.time_limit:g} s a question")
    for k in cards:
        positions = [late_round_start(game, 100 + index, k) for index in range(endings)]
        for seat in seats:
            for question in questions:
                states, seconds, decided = [], [], 0
                for state in positions:
                    cpu = time.process_time()
                    answer = analyse(game, state, SeatQuestions(seat - 1, (question,), payoffs), budget,
                                     engine).answers[question]
                    seconds.append(time.process_time() - cpu)
                    states.append(answer.stats.states)
                    decided += _decided(answer, payoffs)
                who = "" if seat == 1 else f" seat {seat}"
                print(f"n={len(game.suits)} k={k}{who} {question}: decided {decided}/{endings}, median states"
                      f" {statistics.median(states):.0f}, median cpu {statistics.median(seconds):.2f} s;"
                      f" total states {sum(states)}, total cpu {sum(seconds):.2f} s", flush=True)


def _reasons(answer: Answer, payoffs: tuple[str, ...] = ("cards", "margin")) -> str:
    return " | ".join(f"{payoff}: low {answer.intervals[payoff].low_reason};"
                      f" high {answer.intervals[payoff].high_reason}" for payoff in payoffs)


def _seat_summary(game, by_seat: dict[int, list]) -> None:
    """Each seat's (and so suit's) mean decided cards under Q2 and Q3, and the seats' order."""
    for question in ("q2", "q3"):
        means = {}
        for seat, analyses in by_seat.items():
            values = [a[question].cards for a in analyses if question in a and a[question].cards is not None]
            if values:
                means[seat] = (statistics.mean(values), len(values))
        if not means:
            print(f"{question}: no seat's cards decided")
            continue
        text = ", ".join(f"seat {seat} ({game.suits[seat - 1]}) {mean:.2f} on {n}" for seat, (mean, n) in means.items())
        best = max(means, key=lambda seat: means[seat][0])
        print(f"{question} cards, mean over the seeds decided: {text}; favoured: seat {best} ({game.suits[best - 1]})")


def _q4_summary(answers: list[Answer], seat: int) -> None:
    values = [a.margin for a in answers if a.margin is not None]
    if not values:
        print("q4: nothing decided")
        return
    favoured = sum(v > 1e-9 for v in values)
    against = sum(v < -1e-9 for v in values)
    print(f"q4 for seat {seat} on {len(values)} decided deals: mean {statistics.mean(values):+.3f},"
          f" median {statistics.median(values):+.3f}, min {min(values):+.3f}, max {max(values):+.3f};"
          f" seat {seat} favoured {favoured}, the other {against}, even {len(values) - favoured - against}")
    histogram = Counter(round(v) for v in values)
    print("q4 rounded: " + ", ".join(f"{value:+d}: {count}" for value, count in sorted(histogram.items())))


def _decided(answer: Answer, payoffs: tuple[str, ...]) -> bool:
    """Every payoff asked is proved (Q4 and Q5: their value)."""
    if answer.question in ("q4", "q5") or len(payoffs) > 1:
        return answer.decided
    return getattr(answer, payoffs[0]) is not None


def _value_text(answer: Answer, payoffs: tuple[str, ...] = ("cards", "margin")) -> str:
    if answer.question == "q4":
        if answer.margin is not None:
            return f"margin {answer.margin:+.3f}"
        return f"margin in [{answer.margin_bounds[0]:+.3f}, {answer.margin_bounds[1]:+.3f}] ({answer.exhausted})"
    cards = answer.cards if answer.cards is not None else "[{}, {}]".format(*answer.cards_bounds)
    margin = answer.margin if answer.margin is not None else "[{}, {}]".format(*answer.margin_bounds)
    texts = {"cards": f"cards {cards}", "margin": f"margin {margin} wins {answer.wins or '?'}"}
    return " ".join(texts[payoff] for payoff in ("cards", "margin") if payoff in payoffs or answer.question == "q5")


def _seeds(text: str) -> list[int]:
    seeds = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        seeds.extend(range(int(first), int(last or first) + 1))
    return seeds


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0-9", help="e.g. 0-99 or 3,7,10-12")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--suits", default="", help="one suit a seat, e.g. C,S (default D,H,S,C)")
    parser.add_argument("--seat", default="1", help="seat P, 1-based, or all")
    parser.add_argument("--questions", default="",
                        help="e.g. q2,q4 (default Q1-Q3, and Q4 for two players; Q5 only when named)")
    parser.add_argument("--time-limit", type=float, default=5.0, help="seconds a question")
    parser.add_argument("--max-states", type=int, default=None, help="round starts a question")
    parser.add_argument("--payoffs", default="cards,margin", choices=("cards,margin", "cards", "margin"),
                        help="Q1-Q3's payoffs asked (one alone gets the whole time)")
    parser.add_argument("--growth", action="store_true",
                        help="how the cost grows: each question from round starts near the end (--cards)")
    parser.add_argument("--cards", default="2-5", help="--growth: cards in the smallest hand, e.g. 2-7")
    parser.add_argument("--endings", type=int, default=3, help="--growth: positions for each k")
    parser.add_argument("--engine", default="auto", choices=("auto", "python", "compiled"),
                        help="compiled: games/devils_throne/_core; auto: it where built")
    return parser


if __name__ == "__main__":
    main()
