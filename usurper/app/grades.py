"""What `usurper grade` prints: a deal's difficulty grade (solver/grade.py) as a report (the
--json form) and as lines for people."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from games.base import Game
from solver.catalogue.store import write_atomically
from solver.grade import GradeReport, grade_deal, ladder_of
from solver.winning_graph import figures, winning_graph


def grade_report(game: Game, cards: tuple, state: Any, seed: int | None, told=None) -> dict:
    """The grade of a deal with its evidence: each play of the ladder and the narrowness."""
    report: GradeReport = grade_deal(game, state, seed or 0, told=told)
    return {"game": game.name, "variant": game.variant, "seed": seed,
            **({"deal": game.format_deal(cards)} if seed is None else {}),
            **report.as_dict(),
            "winning_line": game.format_line(state, report.winning_line) if report.winning_line else None}


def format_grade(report: dict) -> list[str]:
    source = f"seed {report['seed']}" if report["seed"] is not None else "the deal given"
    lines = [f"{report['game']} ({report['variant']}), {source}", f"Grade: {report['grade']}  ({why_graded(report)})"]
    if report["ladder"]:
        lines.append("Ladder (weakest first; each line replays with `usurper verify`):")
        target = ladder_of(report["game"]).target
        for play in report["ladder"]:
            result = (("won" if play["won"] else "lost") if target is None
                      else f"reached {target}" if play["won"] else f"short of {target}")
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


def why_graded(report: dict) -> str:
    """Why the deal has its grade, in words; a game graded by score reached says the target."""
    grade = report["grade"]
    target = ladder_of(report.get("game", "")).target
    win = "wins" if target is None else f"wins scoring {target} or more"
    if grade == "unwinnable":
        return f"the exact search proves no line {win}"
    if grade == "undecided":
        return "no player of the ladder won enough of its plays, and the exact search ran out of budget"
    if grade == "clairvoyant-only":
        return f"no player of the ladder won enough of its plays; a player who sees the deck {win}"
    winner = report["ladder"][-1]["player"]  # the ladder stops at the first rung that wins enough
    plays = [play for play in report["ladder"] if play["player"] == winner]
    won = [str(play["random_seed"]) for play in plays if play["won"]]
    reached = "won" if target is None else f"won scoring {target} or more in"
    return (f"{winner} {reached} {len(won)} of {len(plays)} plays (random seeds {', '.join(won)}); "
            "no weaker player of the ladder won enough")


def graph_report(game: Game, state: Any, seed: int | None, max_positions: int, out: Path | None) -> dict:
    """The winning part of the position's deal as figures, and as GraphML in `out` if given."""
    import networkx as nx

    graph = winning_graph(game, state, max_positions)
    if out is not None:
        write_atomically(out, lambda handle: nx.write_graphml(graph, handle))
    return {"game": game.name, "variant": game.variant, "seed": seed, "position": game.describe(state),
            **figures(graph).as_dict(), "out": None if out is None else str(out)}


def format_graph(report: dict) -> list[str]:
    lines = [f"{report['game']} ({report['variant']}), seed {report['seed']}", f"Position: {report['position']}"]
    if not report["positions"]:
        return [*lines, "No line from here wins: the winning part is empty."]
    dominators = report["dominators"]
    lines += [f"Winning part: {report['positions']:,} positions and {report['moves']:,} moves that keep the win",
              f"Winning lines: {report['winning_lines']:,}",
              f"Longest run of decisions with a single winning move: {report['longest_single_stretch']}",
              f"Positions every winning line passes through: {len(dominators)}",
              *(f"  {position}" for position in dominators)]
    if report["out"]:
        lines.append(f"GraphML: {report['out']}")
    return lines
