"""What `usurper grade` prints: a deal's difficulty grade (solver/grade.py) as a report (the
--json form) and as lines for people."""

from __future__ import annotations

from typing import Any

from games.base import Game
from solver.grade import LADDER, GradeReport, grade_deal


def grade_report(game: Game, cards: tuple, state: Any, seed: int | None, told=None) -> dict:
    """The grade of a deal with its evidence: each play of the ladder and the narrowness."""
    report: GradeReport = grade_deal(game, state, seed or 0, told=told)
    return {"game": game.name, "variant": game.variant, "seed": seed,
            **({"deal": game.format_deal(cards)} if seed is None else {}),
            **report.as_dict(),
            "winning_line": game.format_line(state, report.winning_line) if report.winning_line else None}


def format_grade(report: dict) -> list[str]:
    source = f"seed {report['seed']}" if report["seed"] is not None else "the deal given"
    lines = [f"{report['game']} ({report['variant']}), {source}", f"Grade: {report['grade']}  ({_why(report)})"]
    if report["ladder"]:
        lines.append("Ladder (weakest first; each line replays with `usurper verify`):")
        for play in report["ladder"]:
            result = "won" if play["won"] else "lost"
            lines.append(f"  {play['player']:<9} random seed {play['random_seed']}: {result}, score {play['score']}")
            lines.append(f"    moves: {play['moves']}")
    narrowness = report["narrowness"]
    if narrowness is not None:
        lines.append("Narrowness (a player who sees every card, along the exact search's winning line):")
        lines.extend(f"  {line}" for line in narrowness_lines(narrowness))
    return lines


def narrowness_lines(narrowness: dict) -> list[str]:
    keeping = narrowness["keeping"]
    shares = ", ".join("?" if keep is None else f"{keep}/{legal}" for keep, legal in keeping)
    first = narrowness["first_move_share"]
    return [f"{narrowness['decisions']} decisions, {narrowness['critical']} critical (one move keeps the win); "
            f"first moves keeping the win: {'unknown' if first is None else f'{first:.0%}'}",
            f"moves keeping the win at each decision: {shares}"]


def _why(report: dict) -> str:
    grade = report["grade"]
    if grade == "unwinnable":
        return "the exact search proves no line wins"
    if grade == "undecided":
        return "no player of the ladder won, and the exact search ran out of budget"
    if grade == "clairvoyant-only":
        return "no player of the ladder won; a player who sees the deck wins"
    rung = next(rung for rung in LADDER if rung.grade == grade)
    winner = next(play["player"] for play in report["ladder"] if play["won"])
    return f"first won by {winner}; '{grade}' starts at {rung.player}"
