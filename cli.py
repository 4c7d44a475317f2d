"""The `usurper` command: thin click wrappers that parse, call the library, and print.

Every user error (bad deal text, unknown card or variant, bad --moves, bad option) ends
with one line `usurper: error: ...` and exit code 2; no traceback reaches the user.

Start-up is part of every answer (a winnability search takes milliseconds), so the heavy
modules (tqdm, the catalogue, benchmarks, importlib.metadata) are imported inside the
commands that use them.  The modules below are imported with the cyclic garbage collector
off and then frozen: they live as long as the process, and the collector would otherwise
walk all of them again and again while they load, and once more at exit.
"""

from __future__ import annotations

import gc

gc.disable()

import sys
from pathlib import Path

import click

from games import make_game
from games.base import Game, UsurperError
from solver.analysis import ENGINES
from solver.defaults import FAIR_SAMPLES, MAX_GRAPH_POSITIONS
from usurper.app.options import COUNT, GAME, MEGABYTES, SECONDS, SEEDS_HELP
from usurper.app.reports import as_json_text, count, plain_letters_where_needed, readable

gc.freeze()
gc.enable()

EXIT_USER_ERROR = 2
#: A catalogue run whose every row is an ERROR: it ran, but answered nothing.
EXIT_RUN_FAILED = 1


def main() -> None:
    """Console entry point: run the click group, folding every user error into one line."""
    plain_letters_where_needed(sys.stdout, sys.stderr)
    try:
        usurper.main(standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.exceptions.NoArgsIsHelpError as exc:  # `usurper`, `usurper catalogue`: the help, not an error
        echo(exc.ctx.get_help())
        sys.exit(0)
    except (click.ClickException, UsurperError) as exc:
        message = exc.format_message() if isinstance(exc, click.ClickException) else str(exc)
        echo(f"usurper: error: {readable(' '.join(message.split()))}", err=True)
        sys.exit(EXIT_USER_ERROR)
    except MemoryError:
        echo("usurper: error: out of memory (a smaller --max-memory, or fewer --workers)", err=True)
        sys.exit(EXIT_USER_ERROR)
    except (click.Abort, KeyboardInterrupt):
        echo("usurper: interrupted", err=True)
        sys.exit(130)


def echo(text: str, err: bool = False) -> None:
    """Print a line to sys.stdout (or sys.stderr) itself, whose suit symbols become letters
    where the stream cannot show them (usurper.app.reports.plain_letters_where_needed): click.echo
    would rewrap an ASCII stream as UTF-8."""
    click.echo(text, file=sys.stderr if err else sys.stdout)


def _print_version(ctx: click.Context, _param, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from importlib import metadata  # lazily: ~30 ms that no other command needs

    try:
        version = metadata.version("usurper")
    except metadata.PackageNotFoundError:
        version = "unknown (not installed)"
    echo(f"usurper {version}")
    ctx.exit(0)


@click.group()
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Print the version and exit.")
def usurper() -> None:
    """Usurper: exhaustive solver for throne-themed solitaire card games."""


def deal_options(func):
    """The options that pick a game's deal: a seed or a typed deck order, plus variants."""
    func = click.option("--variant", "variants", multiple=True,
                        help="Variant switch, repeatable or comma separated (e.g. excuse, pawns_courts=all).")(func)
    func = click.option("--suits", help="Devil's Throne: each seat's suit in seat order, e.g. D,H.")(func)
    func = click.option("--players", type=click.IntRange(min=2, max=4), help="Devil's Throne: 2 to 4 players.")(func)
    func = click.option("--deal", "deal_text", help="The deck order, top first, in the game's card notation "
                                                    "(`usurper deal GAME --seed N` prints one).")(func)
    func = click.option("--seed", type=click.IntRange(min=0),
                        help="Deal number: the canonical deck shuffled by Python's random.Random(SEED).shuffle.")(func)
    func = click.argument("game", type=GAME)(func)
    return func


REPLACE_HELP = ("When the tables reach --max-memory (or --max-table), forget entries and search on instead of "
                "stopping: only the time or states limit ends the search (tree-search games).")


def search_options(func):
    func = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")(func)
    func = click.option("--engine", type=click.Choice(ENGINES), default="auto", show_default=True,
                        help="auto: compiled where the game has it, else pruned; plain: the baseline "
                             "(compiled-plain: the same in C, Adaman only).")(func)
    func = click.option("--max-memory", type=MEGABYTES, default=4096, show_default=True,
                        help="Megabytes the search's tables may add to the process's peak memory "
                             "(UNDECIDED when they are full).")(func)
    func = click.option("--max-table", type=COUNT, help="Transposition table entries at most.")(func)
    func = click.option("--max-states", type=COUNT, help="Stop after this many states.")(func)
    func = click.option("--time-limit", type=SECONDS, default=60.0,
                        show_default=True, help="Seconds before the search gives up (UNDECIDED).")(func)
    return func


@usurper.command()
@deal_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def deal(game, seed, deal_text, variants, players, suits, as_json):
    """Print the deal of a seed as deal text (top of the deck first)."""
    rules, cards = load_deal(game, seed, deal_text, variants)
    text = rules.format_deal(cards)
    echo(as_json_text({"game": rules.name, "variant": rules.variant, "seed": seed, "deal": text})
               if as_json else text)


@usurper.command()
@deal_options
@click.option("--moves", default="", help="Moves already played, separated by ';'.")
@click.option("--reveal", is_flag=True, help="Show the face-down cards too.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def show(game, seed, deal_text, variants, players, suits, moves, reveal, as_json):
    """Draw the position after --moves (King's Reign: the board as rows of cells)."""
    from usurper.app.reports import position_report

    rules, cards = load_deal(game, seed, deal_text, variants)
    state = rules.initial_state(cards)
    state = rules.apply_line(state, rules.parse_line(state, moves)) if moves.strip() else state
    echo(as_json_text(position_report(rules, state, reveal)) if as_json else rules.render(state, reveal=reveal))


@usurper.command("solve")
@deal_options
@search_options
@click.option("--winnable-only", is_flag=True, help="Stop at the first win; no optimal score.")
@click.option("--question", "questions", multiple=True, type=click.Choice(["q1", "q2", "q3", "q4", "q5"]),
              help="Devil's Throne's open-deal questions: q1 everyone helps P, q2 the others against P, P first, "
                   "q3 the same, P last, q4 the mixed-strategy value (two players), q5 the others as one "
                   "coalition in mixed strategies (three or more; Python engine) [default: q1-q3, and q4 for two].")
@click.option("--seat", type=click.IntRange(min=1, max=4), default=1, show_default=True,
              help="Devil's Throne: the seat P the questions are asked for.")
@click.option("--replace-when-full", is_flag=True, help=REPLACE_HELP)
@click.option("--at-least", type=click.IntRange(min=0), default=0,
              help="Ask only whether the optimum reaches this score: the optimum where it does, else a proof "
                   "that it does not (a bound below it), skipping the refutations below it.")
def solve_command(game, seed, deal_text, variants, players, suits, time_limit, max_states, max_table, max_memory,
                  engine, as_json, winnable_only, questions, seat, replace_when_full, at_least):
    """Is the deal winnable, what is the optimal score, and one line of play reaching it
    (Devil's Throne: the open-deal values of its §8 for one seat)."""
    from solver.answers import Budget
    from usurper.app.progress import StatusLine, limit_words
    from usurper.app.reports import format_solve, solve_report

    rules, cards = load_deal(game, seed, deal_text, variants)
    budget = Budget(time_limit, max_states, max_table, max_memory, replace_when_full)
    streamed = rules.game_type.simultaneous and not as_json  # each question's answer printed as it is known
    limit = limit_words(time_limit, option_defaulted("time_limit"))
    with StatusLine(f"solving {rules.name} {'seed ' + str(seed) if seed is not None else 'deal'}", limit) as status:
        report = solve_report(rules, cards, rules.initial_state(cards), seed,
                              "winnable" if winnable_only else "optimal", seat - 1, tuple(questions), engine, budget,
                              at_least, status if streamed else None)
    if not streamed:
        echo(as_json_text(report) if as_json else "\n".join(format_solve(report)))


@usurper.command()
@deal_options
@search_options
@click.option("--moves", default="", help="Moves already played, separated by ';'.")
@click.option("--fair", is_flag=True,
              help="Advise from what a player sees: sample the order of the face-down cards "
                   "(2 s unless --time-limit is given).")
@click.option("--visible", "visible_text",
              help="The position as a player sees it, in the text `usurper show` prints; the hint is then fair.")
@click.option("--samples", type=click.IntRange(min=1), default=FAIR_SAMPLES, show_default=True,
              help="Fair hint: solved samples, shared among the moves (the fair policy's).")
@click.option("--random-seed", type=int, default=0, show_default=True, help="Fair hint: the sampling seed.")
@click.option("--review", is_flag=True,
              help="Fair hint: also say where the moves played lost the win or points; this reads the deal "
                   "(the hint without --fair always does).")
def hint(game, seed, deal_text, variants, players, suits, time_limit, max_states, max_table, max_memory, engine,
         as_json, moves, fair, visible_text, samples, random_seed, review):
    """The best next move from the position after --moves (or --visible), and what it is worth;
    --fair: from what a player sees, never from the order of the face-down cards (--review
    adds what the deal would have allowed, read from it).

    One --time-limit covers the whole answer, and the searches aim at 90 % of it (the rest
    is start-up and the replay of each line).  After --moves, the hint has 60 % of that and
    the search for where the moves played lost the rest: 32.4 s of the default 60 s.  A fair
    hint's default is 2 s.  A hint left at the default says so in its last line."""
    import random

    from usurper.app.play import FAIR_SECONDS
    from usurper.app.progress import StatusLine

    defaulted = option_defaulted("time_limit")
    if (fair or visible_text is not None) and defaulted:
        time_limit = FAIR_SECONDS  # a fair hint is asked at the table: seconds, not a minute
    if visible_text is not None and (seed is not None or deal_text is not None or moves.strip()):
        raise UsurperError("--visible is the whole position: give no --seed, --deal or --moves with it")
    if visible_text is not None and review:
        raise UsurperError("--review reads the deal: give --seed or --deal (and --moves), not --visible")
    rng = random.Random(random_seed)
    limit = hint_limit_words(time_limit, defaulted, fair or visible_text is not None)
    with StatusLine("searching for the hint", limit) as status:
        if visible_text is not None:
            lines, report = visible_hint(game, variants, visible_text, samples, rng, time_limit)
        else:
            rules, cards = load_deal(game, seed, deal_text, variants)
            lines, report = deal_hint(rules, cards, moves, fair, review, samples, rng, engine,
                                      (time_limit, max_states, max_table, max_memory), status)
    report["time_limit"] = {"seconds": time_limit, "default": defaulted}
    if defaulted:
        lines.append(f"Time limit: {status.limit}; --time-limit S changes it.")
    echo(as_json_text(report) if as_json else "\n".join(lines))


def visible_hint(game: str, variants, visible_text: str, samples: int, rng, time_limit: float) -> tuple[list, dict]:
    """A fair hint from a position as a player sees it (--visible)."""
    from solver.fair import fair_hint, parse_visible

    rules = make_game(game, variants)
    advice = fair_hint(rules, parse_visible(rules, visible_text), samples=samples, rng=rng, time_limit=time_limit)
    return [f"Position: {advice.position}", *advice.lines()], advice.report()


def deal_hint(rules: Game, cards: tuple, moves: str, fair: bool, review: bool, samples: int, rng, engine: str,
              limits: tuple, status) -> tuple[list, dict]:
    """A hint from the deal after `moves`: a simultaneous-move game's mixes, or the best move
    (clairvoyant, or fair) and then where the moves played lost, within one time limit."""
    from dataclasses import replace

    from solver.answers import Budget
    from solver.fair import fair_hint_for_state
    from usurper.app.play import HINT_SHARE, Deadline, review_line, where_lost
    from usurper.app.reports import clairvoyant_report, format_clairvoyant, seat_hint

    start = rules.initial_state(cards)
    played = rules.parse_line(start, moves) if moves.strip() else []
    state = rules.apply_line(start, played)
    budget = Budget(*limits)
    if rules.game_type.simultaneous:
        return seat_hint(rules, state, budget)
    # Nothing read from the deal by a fair hint unless --review asks for it, on a line that says so.
    reviewed = bool(played) and (review or not fair)
    deadline = Deadline(budget.time_limit, share=HINT_SHARE if reviewed else 1.0)
    if reviewed:
        status.limit += f": {deadline.split_words()}"
    if fair:
        advice = fair_hint_for_state(rules, state, samples=samples, rng=rng, time_limit=deadline.first_share())
        if not review:
            return [f"Position: {advice.position}", *advice.lines()], advice.report()
        status.doing("looking for where the moves played lost (reads the deal)")
        lost = where_lost(rules, start, played, budget, deadline.end)
        return ([f"Position: {advice.position}", *advice.lines(), review_line(lost, len(played))],
                {**advice.report(), "lost": lost})
    share = replace(budget, time_limit=deadline.first_share(), time_of_whole=budget.time_limit if played else None)
    report = clairvoyant_report(rules, state, engine, share)
    status.doing("looking for where the moves played lost")
    report["lost"] = where_lost(rules, start, played, budget, deadline.end)
    return format_clairvoyant(report), report


def hint_limit_words(seconds: float, defaulted: bool, fair: bool) -> str:
    """The hint's limit and where it came from."""
    from usurper.app.progress import limit_words

    return limit_words(seconds, defaulted, "a fair hint's default: it is asked at the table" if fair else
                       "the default --time-limit")


@usurper.command()
@deal_options
@click.option("--moves", default="", help="Start after these moves, separated by ';'.")
@click.option("--plain", is_flag=True,
              help="No full screen: one line per position, moves (or u, r, h, f, v, m, q) read from standard input."
                   " Devil's Throne: actions, or h, u, ?, q.")
@click.option("--samples", type=click.IntRange(min=1), default=FAIR_SAMPLES, show_default=True,
              help="Fair hints: solved samples per hint (the fair policy's).")
@click.option("--random-seed", type=int, default=0, show_default=True,
              help="Fair hints: the sampling seed; Devil's Throne: the bots' seed.")
@click.option("--seat", type=click.IntRange(min=1, max=4), default=1, show_default=True,
              help="Devil's Throne: the seat you play; bots play the others.")
@click.option("--bots", "bot_name", type=click.Choice(["random", "greedy", "equilibrium"]),
              help="Devil's Throne: the bots' policy: random, greedy (the game's simple rule), equilibrium (Q4 mix)  "
                   "[default: equilibrium for two players,"
                   " else greedy].")
@click.option("--grade", "grades", help="Only deals of this difficulty grade (usurper grade --help): one (hard), "
                                          "a list (easy,hard) or a range (medium..expert), from the graded catalogue.")
def play(game, seed, deal_text, variants, players, suits, moves, plain, samples, random_seed, seat, bot_name, grades):
    """Play a deal in the terminal, with hints that peek (h) or not (f), undo and redo.
    Devil's Throne: you play one seat against bots, each reveal shown as it happens.
    --grade: a deal of that difficulty, picked from the graded catalogue."""
    import random

    from usurper.app.terminal import play_in_terminal

    if grades is not None:
        seed = graded_seed(game, variants, grades, seed, deal_text, random_seed)
    rules, cards = load_deal(game, seed, deal_text, variants)
    start = rules.initial_state(cards)
    played = rules.parse_line(start, moves) if moves.strip() else []
    play_in_terminal(rules, start, plain, samples, random.Random(random_seed), seat - 1, bot_name, played=played)


@usurper.command()
@deal_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def grade(game, seed, deal_text, variants, players, suits, as_json):
    """How hard the deal is: the weakest player of a fixed ladder who wins it without peeking,
    each play's line (replayable with `usurper verify`), and how narrow the way to a win is
    for a player who sees every card.

    \b
    The ladder, weakest first (a fair player plays with random seeds 1, 2, 3):
      easy     greedy wins, or fair-10 (10 samples a decision) wins all 3 plays
      medium   fair-30 wins 2 of 3
      hard     fair-100 wins 2 of 3
      expert   fair-300 wins 2 of 3
    No rung wins: clairvoyant-only (the exact search wins it) or unwinnable (proven lost).
    King's Reign, where every deal is won, counts a play only where it wins scoring 16 or
    more, and has its own rungs: greedy or fair-3 (all 3), fair-10, fair-30, fair-100
    (docs/grades.md)."""
    from tqdm import tqdm

    from usurper.app.grades import format_grade, grade_report

    rules, cards = load_deal(game, seed, deal_text, variants)
    with tqdm(desc="grading", bar_format="{desc}: {postfix} ({elapsed})", disable=None, leave=False) as bar:
        report = grade_report(rules, cards, rules.initial_state(cards), seed, told=bar.set_postfix_str)
    echo(as_json_text(report) if as_json else "\n".join(format_grade(report)))


@usurper.command()
@deal_options
@click.option("--moves", default="", help="Start from the position after these moves, separated by ';'.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the graph as GraphML (Gephi, networkx.read_graphml) to this file.")
@click.option("--max-positions", type=COUNT, default=MAX_GRAPH_POSITIONS, show_default=True,
              help="Positions looked at, at most; a larger winning part is refused.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def graph(game, seed, deal_text, variants, players, suits, moves, out, max_positions, as_json):
    """The winning part of a deal as a graph: every position from which a win can still be
    reached and the moves that keep it; how many winning lines, the positions every one
    passes through, the longest run of decisions with a single winning move."""
    from usurper.app.grades import format_graph, graph_report

    rules, cards = load_deal(game, seed, deal_text, variants)
    state = rules.initial_state(cards)
    state = rules.apply_line(state, rules.parse_line(state, moves)) if moves.strip() else state
    report = graph_report(rules, state, seed, max_positions, out)
    echo(as_json_text(report) if as_json else "\n".join(format_graph(report)))


@usurper.command()
@deal_options
@click.option("--moves", required=True, help="The line to check, moves separated by ';'.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def verify(game, seed, deal_text, variants, players, suits, moves, as_json):
    """Replay a line through the rules: the first illegal move, or the end and score reached."""
    from usurper.app.reports import format_verify, verify_report

    rules, cards = load_deal(game, seed, deal_text, variants)
    report = verify_report(rules, rules.initial_state(cards), moves)
    echo(as_json_text({k: v for k, v in report.items() if k != "outcome"}) if as_json
               else format_verify(report))
    if not report["legal"]:  # a finding about the line, not a usage error: exit 1 (README, verify)
        sys.exit(1)


@usurper.command()
@click.argument("game", type=GAME)
@click.option("--seeds", default="0-99", show_default=True, help=SEEDS_HELP)
@click.option("--mode", type=click.Choice(["optimal", "winnable"]), default="optimal", show_default=True,
              help="optimal: prove the best score; winnable: stop at the first win.")
@click.option("--engine", type=click.Choice(ENGINES), default="auto", show_default=True)
@click.option("--time-limit", type=SECONDS, default=60.0, show_default=True, help="Seconds per deal.")
@click.option("--baseline", type=click.Choice(ENGINES), help="Also run this engine on each deal, side by side.")
@click.option("--baseline-limit", type=SECONDS, default=10.0, show_default=True,
              help="Seconds per deal for the --baseline engine.")
@click.option("--variant", "variants", multiple=True, help="Variant switch, repeatable or comma separated.")
@click.option("--quick", is_flag=True,
              help="Seeds 0-19, winnable, pruned at 2 s and plain at 1 s side by side: under a minute.")
@click.option("--verbose", is_flag=True, help="One line per deal.")
@click.option("--policy", "policies", multiple=True, type=click.Choice(["fair", "greedy", "random"]),
              help="Play the seeds with this policy (no peeking; repeatable) beside the clairvoyant winnable rate.")
@click.option("--samples", type=click.IntRange(min=1), default=FAIR_SAMPLES, show_default=True,
              help="--policy fair: solved samples per decision.")
@click.option("--budgets", help="Play the fair policy at each of these samples per decision (comma-separated):"
                                " its win rate against CPU time per decision.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False),
              help="With --budgets: draw that curve to this PNG (needs matplotlib).")
@click.option("--ceiling", is_flag=True,
              help="An upper bound on the win rate of any player who does not see the deck.")
@click.option("--value", default="fair-last-4", show_default=True,
              help="--ceiling: the penalty's V: none, fair-last-K, clairvoyant-last-K, clairvoyant-N "
                   "or sampled-clairvoyant-N; or blind-first-K, a player blind for the first K reveals.")
@click.option("--order-nodes", type=click.IntRange(min=1), help="--ceiling: positions searched per deal.")
@click.option("--fair-rows", help="--ceiling: the fair policy's rows (bench/lookahead.py --csv) to print its "
                                  "win rate on the same seeds beside the bound.")
@click.option("--json", "as_json", is_flag=True, help="Print the rows (one per deal) and the summary as JSON.")
def bench(game, seeds, mode, engine, time_limit, baseline, baseline_limit, variants, quick, verbose, policies,
          samples, budgets, plot_path, ceiling, value, order_nodes, fair_rows, as_json):
    """Solve a seed range and print decided %, time percentiles, states, win rate (Wilson 95 %);
    with --policy, play it instead: each policy's win rate and CPU time per decision; with
    --budgets, the fair policy's win rate at each budget (--plot draws it); with --ceiling, an
    upper bound on any non-peeking player's win rate (--time-limit: each clairvoyant solve)."""
    from usurper.app.measure import run_bench

    report, lines = run_bench(make_game(game, variants), seeds, mode, engine, time_limit, baseline, baseline_limit,
                              quick, verbose, policies, samples, budgets, plot_path,
                              value if ceiling else None, order_nodes, fair_rows)
    echo(as_json_text(report) if as_json else "\n".join(lines))


class GameOrCommand(click.Group):
    """`usurper catalogue GAME ...` is `usurper catalogue run GAME ...`: a first word that
    is not one of the group's commands is a game name for `run`."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and not args[0].startswith("-"):
            args = ["run", *args]
        return super().parse_args(ctx, args)


@usurper.group(cls=GameOrCommand)
def catalogue():
    """Solve every seed of a range into a resumable file, and summarise one.

    \b
    usurper catalogue GAME --seeds A-B --out FILE   (the same as: usurper catalogue run GAME ...)
    usurper catalogue stats FILE [--plot out.png]
    """


@catalogue.command("run")
@click.argument("game", type=GAME)
@click.option("--seeds", required=True, help=SEEDS_HELP)
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The catalogue file (JSON Lines); an existing one is resumed.")
@click.option("--variant", "variants", multiple=True, help="Variant switch, repeatable or comma separated.")
@click.option("--mode", type=click.Choice(["optimal", "winnable", "grade"]), default="optimal", show_default=True,
              help="optimal: prove the best score; winnable: stop at the first win; grade: each deal's difficulty "
                   "grade, the weakest player of a fixed ladder who wins it (usurper grade --help).")
@click.option("--engine", type=click.Choice(ENGINES), default="auto", show_default=True)
@click.option("--time-limit", type=SECONDS, default=60.0, show_default=True,
              help="Seconds per seed before the search gives up (UNDECIDED; not for mode grade).")
@click.option("--max-states", type=COUNT, help="States per seed at most (deterministic budget).")
@click.option("--max-memory", type=MEGABYTES, default=4096, show_default=True,
              help="Megabytes of tables per worker: the most a search adds to a worker's peak memory.")
@click.option("--verdict-limit", type=SECONDS,
              help="Mode optimal: seconds for a winnability search where the optimal one ran out "
                   "before deciding won or lost.")
@click.option("--replace-when-full", is_flag=True, help=REPLACE_HELP)
@click.option("--at-least", type=click.IntRange(min=0), default=0,
              help="Mode optimal: each seed's optimum only where it reaches this score, else a proven bound "
                   "below it (the row's bound).")
@click.option("--workers", type=click.IntRange(min=1), help="Local worker processes [default: every core].")
@click.option("--scheduler", metavar="ADDRESS",
              help="Send the work to a running Dask scheduler instead (e.g. tcp://HOST:8786).")
@click.option("--json", "as_json", is_flag=True, help="Print what the run did as JSON (rows stay in --out).")
def catalogue_run(game, seeds, out, variants, mode, engine, time_limit, max_states, max_memory, verdict_limit,
                  replace_when_full, at_least, workers, scheduler, as_json):
    """Solve every seed of --seeds, one row per seed in --out; re-running resumes."""
    import shlex

    from tqdm import tqdm

    from solver import catalogue as catalogues
    from solver.seeds import parse_seed_ranges

    seed_range = parse_seed_ranges(seeds)
    if mode == "grade" and option_defaulted("time_limit"):
        time_limit = None  # grades have budgets of states of their own
    job = catalogues.make_job(make_game, game, variants, mode, engine, time_limit, max_states, max_memory,
                              verdict_limit, replace_when_full, at_least)
    progress: dict = {}

    def start(todo, rows):
        progress["tally"] = tally = catalogues.Tally(rows)
        progress["bar"] = bar = tqdm(total=todo, unit="seed", disable=None, smoothing=0.05)
        bar.set_postfix_str(tally.text())

    def each(row):
        progress["tally"].add(row)
        progress["bar"].set_postfix_str(progress["tally"].text(), refresh=False)
        progress["bar"].update(1)

    try:
        report = catalogues.run(out, job, seed_range, workers, scheduler, start, each)
    except catalogues.Interrupted as exc:
        if "bar" in progress:
            progress["bar"].close()
        echo(f"usurper: {exc}", err=True)
        sys.exit(130)
    finally:
        if "bar" in progress:
            progress["bar"].close()
    if as_json:
        echo(as_json_text({"out": str(out), "game": job.game, "variants": list(job.variants),
                                 "seeds": len(seed_range), "solved_now": report.added, "already": report.already,
                                 "outcomes": {name: report.outcomes[name] for name in catalogues.OUTCOMES}}))
    else:
        outcomes = ", ".join(f"{report.outcomes[name]:,} {name}" for name in catalogues.OUTCOMES)
        echo(f"{out}: {count(len(seed_range), 'seed')} of {job.title}: {report.added:,} solved now, "
             f"{report.already:,} already there; {outcomes}")
        echo(f"Figures: usurper catalogue stats {shlex.quote(str(out))}")
    if report.failed:  # a run that answered nothing has failed, whatever it wrote (docs/catalogue.md)
        echo(f"usurper: error: every seed is an ERROR row, e.g. {readable(report.error or 'no message')}", err=True)
        sys.exit(EXIT_RUN_FAILED)


@catalogue.command("stats")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path),
              help="Also draw the score histogram and the solve-time distribution to this PNG.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--undecided", is_flag=True,
              help="Only print the seeds not decided (UNDECIDED or ERROR), as a --seeds list.")
@click.option("--unproven", is_flag=True,
              help="Only print the seeds without a proven optimal score (decided or not), as a --seeds list.")
def catalogue_stats(files, plot, as_json, undecided, unproven):
    """Outcomes, win rate (Wilson 95 %), score distribution and solve times of a catalogue;
    several FILES: a main file and those that answered its seeds again, the row that knows
    most winning."""
    from solver import catalogue as catalogues
    from usurper.app.progress import StatusLine

    with StatusLine(f"reading {count(len(files), 'catalogue file')}"):
        book = catalogues.read_all(files)
    file = book.path
    try:  # the catalogue knows no games: whether the header names a real one is asked here
        make_game(book.header["game"], book.header["variants"])
    except UsurperError as exc:
        raise UsurperError(f"{file}: {exc}") from None
    if undecided and unproven:
        raise UsurperError("give --undecided or --unproven, not both")
    if undecided or unproven:
        _print_seeds_left(book, "undecided" if undecided else "unproven", as_json)
        return
    with StatusLine("summarising the catalogue" if plot is None else "summarising and drawing the catalogue"):
        summary = catalogues.summarise(book)
        if plot is not None:
            catalogues.plot(book, plot)
            summary["plot"] = str(plot)
    if as_json:
        echo(as_json_text(summary))
        return
    echo("\n".join(catalogues.format_summary(summary)))
    if plot is not None:
        echo(f"plot          {plot}")


def _print_seeds_left(book, which: str, as_json: bool) -> None:
    """stats --undecided / --unproven: the seeds as a --seeds list (a JSON object with --json);
    none left is said on stderr, so that `--seeds "$(...)"` never gets a word that is not a seed."""
    from solver import catalogue as catalogues

    seeds = (catalogues.undecided_seeds if which == "undecided" else catalogues.unproven_seeds)(book)
    files = " + ".join(str(path) for path in book.sources or (book.path,))
    if as_json:
        echo(as_json_text({"catalogue": files, "which": which, "seeds": catalogues.seed_list(seeds),
                           "count": len(seeds)}))
    elif seeds:
        echo(catalogues.seed_list(seeds))
    else:
        echo(f"usurper: note: no {which} seed in {files} ({count(len(book.rows), 'seed')})", err=True)


@usurper.command()
@click.argument("game", type=GAME)
@click.option("--winnable", is_flag=True, help="Only deals that can be won.")
@click.option("--min-score", type=int, help="Only deals where this score is known reachable.")
@click.option("--catalogue", "catalogue_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Pick from this catalogue [default: the shipped one, data/catalogue/GAME.jsonl, with the "
                   "files that answered its undecided seeds again].")
@click.option("--variant", "variants", multiple=True, help="Variant switch, repeatable or comma separated.")
@click.option("--random-seed", type=int, help="Make the pick reproducible.")
@click.option("--grade", "grades", help="Only deals of this difficulty grade (usurper grade --help): one (hard), "
                                          "a list (easy,hard) or a range (medium..expert), from the graded catalogue.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def pick(game, winnable, min_score, catalogue_file, variants, random_seed, grades, as_json):
    """A seed to play, from a catalogue: won deals only, deals reaching a score, or deals of a
    difficulty grade."""
    import random

    from solver.grade import parse_grades
    from usurper.app.progress import StatusLine
    from usurper.app.reports import format_pick, pick_report

    wanted = parse_grades(grades) if grades is not None else ()
    with StatusLine("reading the catalogue" if catalogue_file else "reading the shipped catalogues"):
        report = pick_report(make_game, game, variants, catalogue_file, winnable, min_score,
                             random.Random(random_seed), wanted)
    echo(as_json_text(report) if as_json else "\n".join(format_pick(report)))


def graded_seed(game: str, variants, grades: str, seed, deal_text, random_seed: int) -> int:
    """A seed of the asked grades from the shipped graded catalogue, said on stderr."""
    import random

    from solver.grade import parse_grades
    from usurper.app.reports import pick_report

    if seed is not None or deal_text is not None:
        raise UsurperError("--grade picks the deal: give no --seed or --deal with it")
    report = pick_report(make_game, game, variants, None, False, None, random.Random(random_seed), parse_grades(grades))
    echo(f"Seed {report['seed']} of {report['title']}, grade {report['grade']} "
         f"({report['matches']:,} of {report['seeds']:,} graded seeds match)", err=True)
    return report["seed"]


def option_defaulted(name: str) -> bool:
    """Whether the option `name` of the running command was left at its default."""
    return click.get_current_context().get_parameter_source(name) == click.core.ParameterSource.DEFAULT


def load_deal(game: str, seed, deal_text, variants) -> tuple[Game, tuple]:
    rules = make_game(game, [*variants, *seat_words(game, variants)])
    if (seed is None) == (deal_text is None):
        raise UsurperError("give exactly one of --seed N or --deal TEXT")
    return rules, (rules.deal_from_seed(seed) if deal_text is None else rules.parse_deal(deal_text))


def seat_words(game: str, variants) -> list[str]:
    """--players and --suits as variant words of a game for several players; refused for the others."""
    params = click.get_current_context().params
    words = [f"{name}={params[name]}" for name in ("players", "suits") if params.get(name) is not None]
    if words and make_game(game, variants).game_type.max_players == 1:
        raise UsurperError(f"--players and --suits are Devil's Throne's options, not {game}'s")
    return words


if __name__ == "__main__":
    main()
