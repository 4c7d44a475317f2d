"""What the `usurper` commands print: each answer as a report (a dict, the `--json` form) and
as lines for people.  The commands in cli.py parse options and call these; the solver is
asked through its front door (solver.analysis.analyse) only.

Every line a report carries has been replayed through the rules before it is reported.
"""

from __future__ import annotations

import codecs
import math
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from games.base import SYMBOL_LETTERS as SUIT_LETTERS
from games.base import Game, UsurperError
from solver.analysis import SeatQuestions, analyse, check_floor, check_seat_questions
from solver.answers import Budget, SolveResult, shared_budgets
from solver.verify import check_result

if TYPE_CHECKING:
    from usurper.app.progress import StatusLine

#: Echoed input longer than this is cut in the middle, so that an error stays one readable line.
QUOTE_LIMIT, LINE_LIMIT = 60, 400
QUOTED = re.compile("'[^']{" + str(QUOTE_LIMIT + 1) + ",}'")


def readable(message: str) -> str:
    """`message` with each long quoted piece of input, and the whole line, cut in the middle."""
    message = QUOTED.sub(lambda match: _cut(match.group(0), QUOTE_LIMIT), message)
    return _cut(message, LINE_LIMIT)


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    hidden = len(text) - limit
    return f"{text[:limit * 2 // 3]} ...[{hidden:,} characters]... {text[-(limit // 3):]}"


def as_json_text(report: Any) -> str:
    """A report as JSON: a number that is not finite (an open end of an interval) is null."""
    import json  # here: most answers are text, and start-up is part of each

    return json.dumps(_finite(report), indent=2, allow_nan=False)


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(item) for item in value]
    return value


def position_report(game: Game, state: Any, reveal: bool) -> dict:
    """`usurper show --json`: the position, its drawing, its moves, and how it ended."""
    outcome = game.outcome(state)
    return {"game": game.name, "variant": game.variant, "position": game.describe(state),
            "drawing": game.render(state, reveal=reveal),
            "legal_moves": [game.format_move(state, move) for move in game.legal_moves(state)],
            "finished": outcome is not None, "result": outcome.result if outcome else None,
            "score": outcome.score if outcome else None, "outcome": outcome.text() if outcome else None}


#: What a suit symbol becomes on a stream that cannot show it (an ASCII terminal or pipe):
#: the letters every parser reads back (`3♦` -> `3D`, `Journey 3 ☾≈` -> `Journey 3 MoWa`).
SYMBOL_LETTERS = {**SUIT_LETTERS, "—": "-", "–": "-", "…": "..."}


def _letters(error: UnicodeEncodeError) -> tuple[str, int]:
    text = error.object[error.start:error.end]
    return "".join(SYMBOL_LETTERS.get(char, "?") for char in text), error.end


codecs.register_error("usurper-letters", _letters)


def plain_letters_where_needed(*streams: Any) -> None:
    """Streams whose encoding cannot show the suit symbols write letters instead (3♦ -> 3D),
    so that every command works on an ASCII terminal or pipe.  The commands write to these
    streams themselves (cli.echo): click.echo would rewrap an ASCII stream as UTF-8."""
    for stream in streams:
        try:
            "".join(SYMBOL_LETTERS).encode(stream.encoding or "ascii")
        except (UnicodeEncodeError, LookupError):
            if hasattr(stream, "reconfigure"):
                stream.reconfigure(errors="usurper-letters")


def count(number: int, word: str, plural: str | None = None) -> str:
    """'1 move', '2 moves', '1,000 seeds'."""
    return f"{number:,} {word if number == 1 else plural or word + 's'}"


# ----- solve -------------------------------------------------------------------------------

def solve_report(game: Game, cards: tuple, state: Any, seed: int | None, mode: str, seat: int,
                 questions: tuple[str, ...], engine: str, budget: Budget, at_least: int = 0,
                 status: StatusLine | None = None) -> dict:
    """`usurper solve`: a one-player game's verdict, optimum and line (with `at_least`, the
    optimum only where it reaches that); a simultaneous-move game's open-deal questions for
    one seat (0-based), with `status` each printed through it as soon as it is known."""
    if game.game_type.simultaneous:
        check_floor(game, mode, at_least)
        return _seat_report(game, cards, state, seed, seat, questions, engine, budget, status)
    if questions or seat != 0:
        raise UsurperError(f"--question and --seat are Devil's Throne's options, not {game.name}'s")
    result = analyse(game, state, mode, budget, engine, at_least=at_least)
    verify_result(game, state, result)
    return {**result_report(game, cards, state, result, seed), "at_least": at_least or None}


def format_solve(report: dict) -> list[str]:
    return format_seat_report(report) if "answers" in report else format_result(report)


def verify_result(game: Game, state: Any, result: SolveResult) -> None:
    """Replay the line before anything is printed; a mismatch is a solver bug, never output."""
    check_result(game, state, result)


def result_report(game: Game, cards: tuple, state: Any, result: SolveResult, seed: int | None) -> dict:
    end = game.apply_line(state, result.line) if result.line_score is not None else None
    outcome = game.outcome(end) if end is not None else None
    return {
        "game": game.name, "variant": game.variant,
        "seed": seed, "deal": game.format_deal(cards),
        "verdict": result.verdict, "mode": result.mode, "engine": result.engine,
        "optimal_score": result.score, "line_score": result.line_score, "upper_bound": result.upper_bound,
        "line_end": outcome.text() if outcome else None,
        "line": [text for text in game.format_line(state, result.line).split("; ") if text],
        "line_verified": result.line_score is not None,
        "exhausted": result.exhausted,
        "stats": {
            "states": result.stats.states, "unique": result.stats.unique, "table_hits": result.stats.table_hits,
            "max_depth": result.stats.max_depth, "seconds": round(result.stats.seconds, 4),
        },
    }


def format_result(report: dict) -> list[str]:
    lines = [f"{report['game']} ({report['variant']}), {_source(report)}", _verdict_line(report)]
    if report["line_verified"]:
        verdict = report["verdict"]
        label = ("Optimal line" if report["optimal_score"] is not None
                 else "Winning line" if verdict == "WON" else "Best line found")
        lines.append(f"{label}, {count(len(report['line']), 'move')}, verified by replay; ends {report['line_end']}, "
                     f"score {report['line_score']}:")
        lines += [f"  {number:2d}. {text}" for number, text in enumerate(report["line"], 1)]
    stats = report["stats"]
    lines.append(f"Search ({report['engine']}): {count(stats['states'], 'state')}, {stats['unique']:,} in table, "
                 f"{stats['table_hits']:,} table hits, depth {stats['max_depth']}, {stats['seconds']:.3f} s")
    return lines


def _verdict_line(report: dict) -> str:
    verdict = report["verdict"]
    if report["optimal_score"] is not None:
        return f"Verdict: {verdict}, optimal score {report['optimal_score']}"
    if verdict == "UNDECIDED":
        bound = report["upper_bound"]
        within = f"; no line scores more than {bound} (a proven bound)" if bound is not None else ""
        return f"Verdict: UNDECIDED: the {report['exhausted']} ran out before the search finished{within}"
    if report["mode"] == "winnable":
        return f"Verdict: {verdict} (winnable-only search: optimal score not computed)"
    bound = report["upper_bound"]
    if bound is not None:
        within = (f"between {report['line_score']} (the line below) and {bound}" if report["line_score"] is not None
                  else f"at most {bound}")
        why = (f"the {report['exhausted']} ran out" if report["exhausted"]
               else f"nothing reaches {report.get('at_least')} (--at-least), so no more was asked")
        return f"Verdict: {verdict}, optimal score {within} (a proven bound); {why}"
    return f"Verdict: {verdict}, optimal score not proven ({report['exhausted']} ran out)"


def _source(report: dict) -> str:
    return f"seed {report['seed']}" if report["seed"] is not None else "typed deal"


# ----- the open-deal questions of a simultaneous-move game -----------------------------------

QUESTION_NAMES = {"q1": "Q1 optimistic (everyone helps P)", "q2": "Q2 paranoid, P commits first",
                  "q3": "Q3 paranoid, P commits last", "q4": "Q4 mixed-strategy value (zero-sum, two players)",
                  "q5": "Q5 the others as one coalition, mixed strategies"}
WIN_WORDS = {"sole": "wins alone", "shared": "shares the win", "no": "cannot win"}


def _seat_report(game: Game, cards: tuple, state: Any, seed: int | None, seat: int, questions: tuple[str, ...],
                 engine: str, budget: Budget, status: StatusLine | None = None) -> dict:
    """The open-deal questions' report; with `status`, each question's lines are printed as
    soon as it is answered (the header first), and the status line names the question
    being searched."""
    from solver.analysis import default_questions

    asking = SeatQuestions(seat, tuple(questions), shared_time=True)
    check_seat_questions(game, state, asking)  # before the header is printed
    players = len(game.returns(state))
    report = {"game": game.name, "variant": game.variant, "seed": seed, "deal": game.format_deal(cards),
              "players": players, "seat": seat + 1, "answers": {}}
    asked = list(questions or default_questions(players))
    heard: dict[str, dict] = {}

    def on_answer(question: str, answer: Any) -> None:
        heard[question] = answer_report(answer)
        for line in answer_lines(question, heard[question], players):
            status.echo(line)
        following = asked[asked.index(question) + 1:]
        if following:
            status.doing(f"searching {QUESTION_NAMES[following[0]]}")

    if status is not None:
        for line in seat_header_lines(report):
            status.echo(line)
        status.doing(f"searching {QUESTION_NAMES[asked[0]]}")
    # One --time-limit for the whole answer, as for every other command.
    analysis = analyse(game, state, asking, budget, engine,
                       on_answer=None if status is None else on_answer)
    report["answers"] = {question: answer_report(answer) for question, answer in analysis.answers.items()}
    if status is not None:  # the later questions may have narrowed an earlier one's interval
        for question, answer in report["answers"].items():
            if answer != heard.get(question):
                status.echo(f"{QUESTION_NAMES[question]}, narrowed by the answers after it:")
                for line in answer_lines(question, answer, players)[1:]:
                    status.echo(line)
    return report


def answer_report(answer: Any) -> dict:
    """One question's answer as its report (the --json form)."""
    return {
        "decided": answer.decided, "cards": answer.cards, "cards_bounds": list(answer.cards_bounds),
        "margin": answer.margin, "margin_bounds": list(answer.margin_bounds), "wins": answer.wins,
        "best_action": answer.best_action, "cards_floor_action": answer.cards_floor_action,
        "strategy": answer.strategy,
        "opponent_strategy": answer.opponent_strategy, "exhausted": answer.exhausted,
        "states": answer.stats.states, "seconds": round(answer.stats.seconds, 3),
        "reasons": {"cards": [answer.cards_low_reason, answer.cards_high_reason],
                    "margin": [answer.margin_low_reason, answer.margin_high_reason]},
    }


def format_seat_report(report: dict) -> list[str]:
    lines = seat_header_lines(report)
    for question, answer in report["answers"].items():
        lines += answer_lines(question, answer, report["players"])
    return lines


def seat_header_lines(report: dict) -> list[str]:
    return [f"{report['game']} ({report['variant']}), {_source(report)}, {report['players']} players; "
            f"seat {report['seat']}", f"Deal: {report['deal']}"]


def answer_lines(question: str, answer: dict, players: int) -> list[str]:
    """One question's answer for people: its name, then its value or interval, P's move,
    the mixes, and the work it took."""
    from usurper.app.bots import mix_text

    lines = [QUESTION_NAMES[question] + ":"]
    if answer["decided"]:
        cards = "" if answer["cards"] is None else f"{answer['cards']:g} cards, "
        wins = f"; P {WIN_WORDS[answer['wins']]}" if answer["wins"] else ""
        lines.append(f"  {cards}margin {answer['margin']:+g}{wins}")
    else:
        low, high = answer["margin_bounds"]
        lines.append(f"  undecided ({answer['exhausted']} ran out): margin between {low:g} and {high:g}")
        lines += _bound_reasons(answer, "margin", "    ")
        if question != "q4":
            low, high = answer["cards_bounds"]
            lines.append(f"  cards {low:g}" if low == high else f"  cards between {low:g} and {high:g}")
            lines += _bound_reasons(answer, "cards", "    ")
            if answer.get("cards_floor_action") and low > 0:
                lines.append(f"  P's first move guaranteeing {low:g} card{'' if low == 1 else 's'}: "
                             f"{answer['cards_floor_action']}")
    if answer["best_action"]:
        lines.append(f"  P's first move: {answer['best_action']}")
    others = "opponent" if players == 2 else "the others together"
    for who, mix in (("P", answer["strategy"]), (others, answer["opponent_strategy"])):
        if mix:
            lines.append(f"  {who} plays: {mix_text(mix)}")
    lines.append(f"  {answer['states']:,} states, {answer['seconds']:.2f} s")
    return lines


def _bound_reasons(answer: dict, payoff: str, indent: str) -> list[str]:
    """What each end of an undecided interval rests on (a strategy found, a search, a bound)."""
    low, high = answer[f"{payoff}_bounds"]
    if low == high:
        return []
    why_low, why_high = answer.get("reasons", {}).get(payoff, ["", ""])
    return ([f"{indent}at least {low:g}: {why_low}"] if why_low else []) + (
        [f"{indent}at most {high:g}: {why_high}"] if why_high else [])


def seat_hint(game: Game, state: Any, budget: Budget) -> tuple[list[str], dict]:
    """The next move of a simultaneous-move game: for two players both seats' equilibrium
    mixes at this node (Q4); for more, each acting seat's advice against the others as one
    side (usurper.app.bots.coalition_advice: Q2, and Q5 where it decides)."""
    from usurper.app.bots import HINT_SECONDS, coalition_advice, greedy_fallback, mix_text

    if game.is_over(state):
        raise UsurperError("the game is over; there is no next move")
    lines = [f"Position: {game.describe(state)}"]
    report: dict = {"position": game.describe(state), "seats": {}}
    acting = game.acting_players(state)
    if len(game.returns(state)) == 2:
        answer = analyse(game, state, SeatQuestions(0, ("q4",)), budget).answers["q4"]
        for seat, mix in ((1, answer.strategy), (2, answer.opponent_strategy)):
            if mix:
                lines.append(f"Seat {seat} plays: {mix_text(mix)}")
        report["seats"] = {"1": answer.strategy, "2": answer.opponent_strategy}
        report["value"] = answer.margin
        if answer.margin is not None:
            lines.append(f"Value to seat 1 (margin, equilibrium play): {answer.margin:+.3f}")
            return lines, report
        low, high = answer.margin_bounds
        lines.append(f"Value to seat 1 (margin, equilibrium play): undecided ({answer.exhausted} ran out), "
                     f"between {low:g} and {high:g}")
        report["fallback"] = {}
        for seat in acting:  # a move to play all the same, said to be the fallback it is
            text, greedy = greedy_fallback(game, state, seat)
            lines.append(f"Seat {seat + 1}: {text}")
            report["fallback"][str(seat + 1)] = greedy
        return lines, report
    whole = budget if budget.time_limit is not None else replace(budget, time_limit=HINT_SECONDS)
    for seat, share in zip(acting, shared_budgets(whole, len(acting))):
        text, data = coalition_advice(game, state, seat, share.time_limit)
        lines.append(f"Seat {seat + 1}: {text}")
        report["seats"][str(seat + 1)] = data
    return lines, report


# ----- hints and replays -------------------------------------------------------------------

def clairvoyant_report(game: Game, state: Any, engine: str, budget: Budget, lost: str | None = None) -> dict:
    """`usurper hint` peeking at the face-down cards: the first move of the best line."""
    from solver.fair import move_words
    from solver.hints import clairvoyant_hint

    advice = clairvoyant_hint(game, state, engine, budget)
    return {
        "game": game.name, "variant": game.variant, "position": advice.position, "move": advice.move_text,
        "move_words": move_words(game, state, advice.move, peek=True), "secures": advice.secures,
        "verdict": advice.verdict, "proven": advice.proven, "best_found": advice.best_found,
        "upper_bound": advice.result.upper_bound, "exhausted": advice.exhausted, "lost": lost,
    }


def format_clairvoyant(report: dict) -> list[str]:
    lines = [f"Position: {report['position']}", f"Hint: {report['move_words']}"]
    if report["proven"]:
        lines.append(f"It keeps the optimal score {report['secures']} reachable "
                     f"({report['verdict'].lower()} with best play).")
    elif report["best_found"] is not None:
        bound = report["upper_bound"]
        within = f"; the optimum is at most {bound} (a proven bound)" if bound is not None else ""
        lines.append(f"Not proven ({report['exhausted']} ran out): best line found scores "
                     f"{report['best_found']}{within}.")
    else:
        lines.append(f"Not proven ({report['exhausted']} ran out before any line reached the end): "
                     "the hint is the first move in the search order.")
    if report["lost"]:
        lines.append(report["lost"][0].upper() + report["lost"][1:] + ".")
    return lines


def verify_report(game: Game, state: Any, moves: str) -> dict:
    """`usurper verify`: the line replayed through the rules, move by move."""
    from solver.verify import replay_text

    played = replay_text(game, state, moves)
    outcome = played.outcome
    return {
        "legal": played.ok, "moves_played": played.played, "error": played.error and readable(played.error),
        "finished": outcome is not None,
        "result": outcome.result if outcome else None, "score": outcome.score if outcome else None,
        "outcome": outcome.text() if outcome else None,
        "position": game.describe(played.state),
    }


def format_verify(report: dict) -> str:
    if not report["legal"]:
        return f"Illegal: {report['error']} (after {count(report['moves_played'], 'legal move')})"
    if not report["finished"]:
        return f"Legal, {count(report['moves_played'], 'move')}; the game goes on. {report['position']}"
    return f"Legal, {count(report['moves_played'], 'move')}: {report['outcome']}, score {report['score']}"


# ----- pick ----------------------------------------------------------------------------------

def pick_report(build, game: str, variants, catalogue_file, winnable: bool, min_score: int | None,
                rng: Any, grades: tuple[str, ...] = ()) -> dict:
    """`usurper pick`: a seed from a catalogue (the shipped one by default; with `grades`, the
    shipped graded one) matching the wish."""
    import shlex

    from solver import catalogue as catalogues

    job = catalogues.make_job(build, game, variants, **({"mode": "grade", "time_limit": None} if grades else {}))
    flags = "".join(f" --variant {shlex.quote(word)}" for word in job.variants)
    paths = [catalogue_file] if catalogue_file else _shipped_for(job, bool(grades))
    if not paths:
        shipped = catalogues.shipped_grades(job) if grades else catalogues.shipped_catalogue(job)
        mode = " --mode grade" if grades else ""
        raise UsurperError(f"no shipped {'graded ' if grades else ''}catalogue for {job.title} ({shipped}); make one "
                           f"with `usurper catalogue {job.game}{mode} --seeds 0-999{flags} --out FILE` "
                           "and pass --catalogue FILE")
    book = catalogues.read_all(paths)
    catalogues.check_matches(book, job)
    if grades and book.header["mode"] != "grade":
        raise UsurperError(f"{book.path} is not a graded catalogue (mode {book.header['mode']}): --grade needs one "
                           "made with --mode grade")
    row, matches = catalogues.pick_row(book, winnable, min_score, rng, grades)
    if row.get("first_move"):
        row = {**row, "first_move": _as_shown(build(job.game, job.variants), row["seed"], row["first_move"])}
    return {"game": job.game, "variants": list(job.variants), "title": job.title, "flags": flags,
            "catalogue": " + ".join(str(source) for source in book.sources), "matches": matches,
            "seeds": len(book.rows), **row}


def grade_evidence(row: dict) -> list[str]:
    """A graded row's grade and what it rests on: who won it first, and the narrowness."""
    from usurper.app.grades import narrowness_lines, why_graded

    lines = [f"Grade: {row['grade']} ({why_graded(row)})"]
    if row.get("narrowness"):
        lines.extend(narrowness_lines(row["narrowness"])[:1])
    return lines


def _shipped_for(job: Any, graded: bool) -> list:
    from solver import catalogue as catalogues

    if not graded:
        return catalogues.shipped_catalogues(job)
    path = catalogues.shipped_grades(job)
    return [path] if path.exists() else []


def _as_shown(game: Game, seed: int, move: str) -> str:
    """A first move stored in a catalogue, written as the game shows moves now (Adaman's
    cards with their ranks and suits); as stored where it does not read back."""
    try:
        state = game.initial_state(game.deal_from_seed(seed))
        return game.format_move(state, game.parse_move(state, move))
    except UsurperError:
        return move


def format_pick(report: dict) -> list[str]:
    score = (f"optimal score {report['score']}" if report["score"] is not None
             else f"best line found scores {report['best']} (optimum not proven)" if report["best"] is not None
             else "no score known")
    matches, seed, flags = report["matches"], report["seed"], report["flags"]
    matched = (f"{matches:,} of {count(report['seeds'], 'seed')} in {report['catalogue']} "
               f"match{'es' if matches == 1 else ''}")
    solved = (f"solved in {report['seconds']:g} s" if report.get("seconds") is not None
              else "solve time not recorded")
    lines = [f"Seed {seed} of {report['title']} ({matched})"]
    if report.get("grade"):
        lines.extend(grade_evidence(report))
    else:
        lines.append(f"{report['outcome']}, {score}; {solved}, {count(report['states'] or 0, 'state')}")
    if report.get("first_move"):
        lines.append(f"First move of the solver's line (spoiler): {report['first_move']}")
    lines.append(f"Deal it:  usurper deal {report['game']} --seed {seed}{flags}")
    if report.get("grade"):
        lines.append(f"Play it:  usurper play {report['game']} --seed {seed}{flags}")
        lines.append(f"Evidence: usurper grade {report['game']} --seed {seed}{flags}  (each play's line, "
                     "replayable with usurper verify)")
        return lines
    lines.append(f"Solve it: usurper solve {report['game']} --seed {seed}{flags}")
    return lines
