"""The `usurper` command: thin click wrappers that parse, call the library, and print.

Every user error (bad deal text, unknown card or variant, bad --moves, bad option) ends
with one line `usurper: error: ...` and exit code 2; no traceback reaches the user.

Start-up is part of every answer (a winnability search takes milliseconds), so the heavy
modules (tqdm, the catalogue, benchmarks, importlib.metadata) are imported inside the
commands that use them.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from games import GAMES, make_game
from games.base import WON, Game, UsurperError
from solver.engines import ENGINES

if TYPE_CHECKING:
    from solver.search import Budget, SolveResult

EXIT_USER_ERROR = 2


def main() -> None:
    """Console entry point: run the click group, folding every user error into one line."""
    try:
        usurper.main(standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.exceptions.NoArgsIsHelpError as exc:  # `usurper`, `usurper catalogue`: the help, not an error
        click.echo(exc.ctx.get_help())
        sys.exit(0)
    except (click.ClickException, UsurperError) as exc:
        message = exc.format_message() if isinstance(exc, click.ClickException) else str(exc)
        click.echo(f"usurper: error: {' '.join(message.split())}", err=True)
        sys.exit(EXIT_USER_ERROR)
    except MemoryError:
        click.echo("usurper: error: out of memory (a smaller --max-memory, or fewer --workers)", err=True)
        sys.exit(EXIT_USER_ERROR)
    except (click.Abort, KeyboardInterrupt):
        click.echo("usurper: interrupted", err=True)
        sys.exit(130)


def count(number: int, word: str, plural: str | None = None) -> str:
    """'1 move', '2 moves', '1,000 seeds'."""
    return f"{number:,} {word if number == 1 else plural or word + 's'}"


class Seconds(click.FloatRange):
    """Seconds: a finite number above zero.  NaN compares false with every bound, so
    FloatRange alone lets it through (and a NaN limit means no limit); inf is refused too."""

    name = "seconds"

    def __init__(self) -> None:
        super().__init__(min=0, min_open=True)

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number of seconds.", param, ctx)
        return number


SECONDS = Seconds()


def _print_version(ctx: click.Context, _param, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from importlib import metadata  # lazily: ~30 ms that no other command needs

    try:
        version = metadata.version("usurper")
    except metadata.PackageNotFoundError:
        version = "unknown (not installed)"
    click.echo(f"usurper {version}")
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
    func = click.option("--deal", "deal_text", help="The deck order, top first (notation per game: see README).")(func)
    func = click.option("--seed", type=click.IntRange(min=0), help="Deal number (see README: seeded shuffle).")(func)
    func = click.argument("game", type=click.Choice(sorted(GAMES), case_sensitive=False))(func)
    return func


#: Caps of the integer budgets: far beyond any machine, inside the compiled engines' 64 bits.
MEGABYTES = click.IntRange(min=1, max=2**30)
COUNT = click.IntRange(min=1, max=2**62)
SEEDS_HELP = "Seeds: A-B (inclusive) or a comma list of them, e.g. 3,10-12; at most 10,000,000 per run."


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
def deal(game, seed, deal_text, variants, players, suits):
    """Print the deal of a seed as deal text (top of the deck first)."""
    rules, cards = load_deal(game, seed, deal_text, variants)
    click.echo(rules.format_deal(cards))


@usurper.command()
@deal_options
@click.option("--moves", default="", help="Moves already played, separated by ';'.")
@click.option("--reveal", is_flag=True, help="Show the face-down cards too.")
def show(game, seed, deal_text, variants, players, suits, moves, reveal):
    """Draw the position after --moves (King's Reign: the board as rows of cells)."""
    rules, cards = load_deal(game, seed, deal_text, variants)
    state = rules.initial_state(cards)
    state = rules.apply_line(state, rules.parse_line(state, moves)) if moves.strip() else state
    render = getattr(rules, "render", None)
    click.echo(render(state, reveal=reveal) if render else rules.describe(state))


@usurper.command("solve")
@deal_options
@search_options
@click.option("--winnable-only", is_flag=True, help="Stop at the first win; no optimal score.")
@click.option("--question", "questions", multiple=True, type=click.Choice(["q1", "q2", "q3", "q4"]),
              help="Devil's Throne: the questions of docs/rules/devils-throne.md §8 [default: all that apply].")
@click.option("--seat", type=click.IntRange(min=1, max=4), default=1, show_default=True,
              help="Devil's Throne: the seat P the questions are asked for.")
def solve_command(game, seed, deal_text, variants, players, suits, time_limit, max_states, max_table, max_memory,
                  engine, as_json, winnable_only, questions, seat):
    """Is the deal winnable, what is the optimal score, and one line of play reaching it
    (Devil's Throne: the open-deal values of its §8 for one seat)."""
    from solver.analysis import solve_position
    from solver.search import Budget

    rules, cards = load_deal(game, seed, deal_text, variants)
    state = rules.initial_state(cards)
    budget = Budget(time_limit, max_states, max_table, max_memory)
    if rules.game_type.simultaneous:
        report = simultaneous_report(rules, cards, state, seed, seat - 1, questions, engine, budget)
        click.echo(json.dumps(report, indent=2) if as_json else "\n".join(format_simultaneous(report)))
        return
    if questions or seat != 1:
        raise UsurperError(f"--question and --seat are Devil's Throne's options, not {rules.name}'s")
    result = solve_position(rules, state, "winnable" if winnable_only else "optimal", engine, budget)
    verify_result(rules, state, result)
    report = result_report(rules, cards, state, result, seed)
    click.echo(json.dumps(report, indent=2) if as_json else format_report(report))


@usurper.command()
@deal_options
@search_options
@click.option("--moves", default="", help="Moves already played, separated by ';'.")
@click.option("--fair", is_flag=True,
              help="Advise from what a player sees: sample the order of the face-down cards.")
@click.option("--visible", "visible_text",
              help="The position as a player sees it (notation: docs/play.md); the hint is then fair.")
@click.option("--samples", type=click.IntRange(min=1), default=200, show_default=True,
              help="Fair hint: solved samples, shared among the moves.")
@click.option("--random-seed", type=int, default=0, show_default=True, help="Fair hint: the sampling seed.")
def hint(game, seed, deal_text, variants, players, suits, time_limit, max_states, max_table, max_memory, engine,
         as_json, moves, fair, visible_text, samples, random_seed):
    """The best next move from the position after --moves (or --visible), and what it is worth;
    --fair: from what a player sees, never from the order of the face-down cards."""
    import random

    from solver.fair import fair_hint, fair_hint_for_state, move_words, parse_visible
    from solver.hints import clairvoyant_hint
    from app.play import where_lost
    from solver.search import Budget

    rng = random.Random(random_seed)
    if visible_text is not None:
        if seed is not None or deal_text is not None or moves.strip():
            raise UsurperError("--visible is the whole position: give no --seed, --deal or --moves with it")
        rules = make_game(game, variants)
        advice = fair_hint(rules, parse_visible(rules, visible_text), samples=samples, rng=rng,
                           time_limit=time_limit)
        click.echo(json.dumps(advice.report(), indent=2) if as_json
                   else "\n".join([f"Position: {advice.position}", *advice.lines()]))
        return
    rules, cards = load_deal(game, seed, deal_text, variants)
    start = rules.initial_state(cards)
    played = rules.parse_line(start, moves) if moves.strip() else []
    state = rules.apply_line(start, played)
    budget = Budget(time_limit, max_states, max_table, max_memory)
    if rules.game_type.simultaneous:
        lines, report = simultaneous_hint(rules, state, budget)
        click.echo(json.dumps(report, indent=2) if as_json else "\n".join(lines))
        return
    lost = where_lost(rules, start, played, budget)
    if fair:
        advice = fair_hint_for_state(rules, state, samples=samples, rng=rng, time_limit=time_limit)
        if as_json:
            click.echo(json.dumps({**advice.report(), "lost": lost}, indent=2))
            return
        click.echo("\n".join([f"Position: {advice.position}", *advice.lines(), *([lost] if lost else [])]))
        return
    advice = clairvoyant_hint(rules, state, engine, budget)
    words = move_words(rules, state, advice.move, peek=True)
    report = {
        "game": rules.name, "variant": rules.variant, "position": advice.position, "move": advice.move_text,
        "move_words": words, "secures": advice.secures, "verdict": advice.verdict, "proven": advice.proven,
        "best_found": advice.best_found, "upper_bound": advice.result.upper_bound, "exhausted": advice.exhausted,
        "lost": lost,
    }
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    click.echo(f"Position: {report['position']}")
    click.echo(f"Hint: {words}")
    if advice.proven:
        click.echo(f"It keeps the optimal score {advice.secures} reachable ({advice.verdict.lower()} with best play).")
    elif advice.best_found is not None:
        bound = advice.result.upper_bound
        within = f"; the optimum is at most {bound} (a proven bound)" if bound is not None else ""
        click.echo(f"Not proven ({advice.exhausted} ran out): best line found scores {advice.best_found}{within}.")
    else:
        click.echo(f"Not proven ({advice.exhausted} ran out before any line reached the end): "
                   "the hint is the first move in the search order.")
    if lost:
        click.echo(lost[0].upper() + lost[1:] + ".")


@usurper.command()
@deal_options
@click.option("--moves", default="", help="Start after these moves, separated by ';'.")
@click.option("--plain", is_flag=True,
              help="No full screen: one line per position, moves (or u, r, h, f, v, m, q) read from standard input."
                   " Devil's Throne is always played this way (actions, or q).")
@click.option("--samples", type=click.IntRange(min=1), default=200, show_default=True,
              help="Fair hints: solved samples per hint.")
@click.option("--random-seed", type=int, default=0, show_default=True,
              help="Fair hints: the sampling seed; Devil's Throne: the bots' seed.")
@click.option("--seat", type=click.IntRange(min=1, max=4), default=1, show_default=True,
              help="Devil's Throne: the seat you play; bots play the others.")
@click.option("--bots", "bot_name", type=click.Choice(["random", "greedy", "equilibrium"]),
              help="Devil's Throne: the bots' policy (docs/play.md)  [default: equilibrium for two players,"
                   " else greedy].")
def play(game, seed, deal_text, variants, players, suits, moves, plain, samples, random_seed, seat, bot_name):
    """Play a deal in the terminal, with hints that peek (h) or not (f), undo and redo.
    Devil's Throne: you play one seat against bots, the reveal shown after each choice
    (for now always as with --plain)."""
    import random

    from app.play import PlaySession, run_plain

    rules, cards = load_deal(game, seed, deal_text, variants)
    state = rules.initial_state(cards)
    state = rules.apply_line(state, rules.parse_line(state, moves)) if moves.strip() else state
    if rules.game_type.simultaneous:
        # No full-screen view shows simultaneous moves yet, so this plays plain with or without --plain.
        from app.bots import make_bots, run_plain_simultaneous

        bots = make_bots(rules, state, seat - 1, bot_name)
        run_plain_simultaneous(rules, state, seat - 1, bots, sys.stdin, sys.stdout, random.Random(random_seed))
        return
    if seat != 1 or bot_name is not None:
        raise UsurperError(f"--seat and --bots are Devil's Throne's options, not {rules.name}'s")
    if plain:
        run_plain(rules, state, sys.stdin, sys.stdout, samples, random.Random(random_seed))
        return
    try:
        from app.tui import run_tui
    except ImportError:
        raise UsurperError("the full-screen game needs Textual (pip install 'usurper[play]'); "
                           "or play with --plain") from None
    run_tui(PlaySession(rules, state, rng=random.Random(random_seed)), samples)


@usurper.command()
@deal_options
@click.option("--moves", required=True, help="The line to check, moves separated by ';'.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def verify(game, seed, deal_text, variants, players, suits, moves, as_json):
    """Replay a line through the rules: the first illegal move, or the end and score reached."""
    from solver.verify import replay_text

    rules, cards = load_deal(game, seed, deal_text, variants)
    played = replay_text(rules, rules.initial_state(cards), moves)
    outcome = played.outcome
    report = {
        "legal": played.ok, "moves_played": played.played, "error": played.error,
        "finished": outcome is not None,
        "result": outcome.result if outcome else None, "score": outcome.score if outcome else None,
        "position": rules.describe(played.state),
    }
    if as_json:
        click.echo(json.dumps(report, indent=2))
    elif not played.ok:
        click.echo(f"Illegal: {played.error} (after {count(played.played, 'legal move')})")
    elif outcome is None:
        click.echo(f"Legal, {count(played.played, 'move')}; the game goes on. {report['position']}")
    else:
        click.echo(f"Legal, {count(played.played, 'move')}: {outcome.text()}, score {outcome.score}")
    if not played.ok:  # a finding about the line, not a usage error: exit 1 (README, verify)
        sys.exit(1)


@usurper.command()
@click.argument("game", type=click.Choice(sorted(GAMES), case_sensitive=False))
@click.option("--seeds", default="0-99", show_default=True, help=SEEDS_HELP)
@click.option("--mode", type=click.Choice(["optimal", "winnable"]), default="optimal", show_default=True)
@click.option("--engine", type=click.Choice(ENGINES), default="auto", show_default=True)
@click.option("--time-limit", type=SECONDS, default=60.0, show_default=True, help="Seconds per deal.")
@click.option("--baseline", type=click.Choice(ENGINES), help="Also run this engine on each deal, side by side.")
@click.option("--baseline-limit", type=SECONDS, default=10.0, show_default=True)
@click.option("--variant", "variants", multiple=True, help="Variant switch, repeatable or comma separated.")
@click.option("--quick", is_flag=True,
              help="Seeds 0-19, winnable, pruned at 2 s and plain at 1 s side by side: under a minute.")
@click.option("--verbose", is_flag=True, help="One line per deal.")
@click.option("--policy", "policies", multiple=True, type=click.Choice(["fair", "greedy", "random"]),
              help="Play the seeds with this policy (no peeking; repeatable) beside the clairvoyant winnable rate.")
@click.option("--samples", type=click.IntRange(min=1), default=40, show_default=True,
              help="--policy fair: solved samples per decision.")
def bench(game, seeds, mode, engine, time_limit, baseline, baseline_limit, variants, quick, verbose, policies,
          samples):
    """Solve a seed range and print decided %, time percentiles, states, win rate (Wilson 95 %);
    with --policy, play it instead: each policy's win rate and time per decision."""
    from tqdm import tqdm

    from app import benchmark
    from solver.seeds import parse_seed_ranges

    rules = make_game(game, variants)
    if policies:
        from app.policies import bench_policies

        seed_list = list(parse_seed_ranges(seeds))
        with tqdm(total=len(seed_list) * len(policies), unit="deal", disable=None, leave=False) as bar:
            def each_played(name, deal):
                bar.update(1)
                if verbose:
                    bar.write(f"{name} seed {deal.seed}: {'won' if deal.won else 'lost'}, score {deal.score}")
            lines = bench_policies(rules, seed_list, policies, samples, each=each_played)
        click.echo("\n".join(lines))
        return
    if quick:
        seeds, mode, engine, time_limit, baseline, baseline_limit = (
            benchmark.QUICK[name] for name in ("seeds", "mode", "engine", "time_limit", "baseline", "baseline_limit"))
    seed_range = parse_seed_ranges(seeds)
    with tqdm(total=len(seed_range), unit="deal", disable=None, leave=False) as bar:
        def each(row):
            bar.update(1)
            if verbose:
                bar.write(benchmark.deal_line(row))
        lines = benchmark.report(rules, seed_range, mode, engine, time_limit, baseline, baseline_limit, each)
    click.echo("\n".join(lines))


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
@click.argument("game", type=click.Choice(sorted(GAMES), case_sensitive=False))
@click.option("--seeds", required=True, help=SEEDS_HELP)
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The catalogue file (JSON Lines); an existing one is resumed.")
@click.option("--variant", "variants", multiple=True, help="Variant switch, repeatable or comma separated.")
@click.option("--mode", type=click.Choice(["optimal", "winnable"]), default="optimal", show_default=True)
@click.option("--engine", type=click.Choice(ENGINES), default="auto", show_default=True)
@click.option("--time-limit", type=SECONDS, default=60.0, show_default=True,
              help="Seconds per seed before the search gives up (UNDECIDED).")
@click.option("--max-states", type=COUNT, help="States per seed at most (deterministic budget).")
@click.option("--max-memory", type=MEGABYTES, default=4096, show_default=True,
              help="Megabytes of tables per worker: the most a search adds to a worker's peak memory.")
@click.option("--verdict-limit", type=SECONDS,
              help="Mode optimal: seconds for a winnability search where the optimal one ran out "
                   "before deciding won or lost.")
@click.option("--workers", type=click.IntRange(min=1), help="Local processes [default: every core; 1: no pool].")
@click.option("--scheduler", metavar="ADDRESS",
              help="Send the work to a running Dask scheduler instead (e.g. tcp://HOST:8786).")
def catalogue_run(game, seeds, out, variants, mode, engine, time_limit, max_states, max_memory, verdict_limit,
                  workers, scheduler):
    """Solve every seed of --seeds, one row per seed in --out; re-running resumes."""
    import shlex

    from tqdm import tqdm

    from solver import catalogue as catalogues
    from solver.seeds import parse_seed_ranges

    seed_range = parse_seed_ranges(seeds)
    job = catalogues.make_job(make_game, game, variants, mode, engine, time_limit, max_states, max_memory,
                              verdict_limit)
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
        click.echo(f"usurper: {exc}", err=True)
        sys.exit(130)
    finally:
        if "bar" in progress:
            progress["bar"].close()
    outcomes = ", ".join(f"{report.outcomes[name]:,} {name}" for name in catalogues.OUTCOMES)
    click.echo(f"{out}: {count(len(seed_range), 'seed')} of {job.title}: {report.added:,} solved now, "
               f"{report.already:,} already there; {outcomes}")
    click.echo(f"Figures: usurper catalogue stats {shlex.quote(str(out))}")


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

    book = catalogues.read_all(files)
    file = book.path
    try:  # the catalogue knows no games: whether the header names a real one is asked here
        make_game(book.header["game"], book.header["variants"])
    except UsurperError as exc:
        raise UsurperError(f"{file}: {exc}") from None
    if undecided and unproven:
        raise UsurperError("give --undecided or --unproven, not both")
    if undecided or unproven:
        click.echo(catalogues.seed_list((catalogues.undecided_seeds if undecided else catalogues.unproven_seeds)(book)))
        return
    summary = catalogues.summarise(book)
    if plot is not None:
        catalogues.plot(book, plot)
        summary["plot"] = str(plot)
    if as_json:
        click.echo(json.dumps(summary, indent=2))
        return
    click.echo("\n".join(catalogues.format_summary(summary)))
    if plot is not None:
        click.echo(f"plot          {plot}")


@usurper.command()
@click.argument("game", type=click.Choice(sorted(GAMES), case_sensitive=False))
@click.option("--winnable", is_flag=True, help="Only deals that can be won.")
@click.option("--min-score", type=int, help="Only deals where this score is known reachable.")
@click.option("--catalogue", "catalogue_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Pick from this catalogue [default: the shipped one, data/catalogue/GAME.jsonl, with the "
                   "files that answered its undecided seeds again].")
@click.option("--variant", "variants", multiple=True, help="Variant switch, repeatable or comma separated.")
@click.option("--random-seed", type=int, help="Make the pick reproducible.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def pick(game, winnable, min_score, catalogue_file, variants, random_seed, as_json):
    """A seed to play, from a catalogue: won deals only, or deals reaching a score."""
    import random
    import shlex

    from solver import catalogue as catalogues

    job = catalogues.make_job(make_game, game, variants)
    flags = "".join(f" --variant {shlex.quote(word)}" for word in job.variants)
    paths = [catalogue_file] if catalogue_file else catalogues.shipped_catalogues(job)
    if not paths:
        raise UsurperError(f"no shipped catalogue for {job.title} ({catalogues.shipped_catalogue(job)}); make one "
                           f"with `usurper catalogue {job.game} --seeds 0-999{flags} --out FILE` "
                           "and pass --catalogue FILE")
    book = catalogues.read_all(paths)
    path = " + ".join(str(source) for source in book.sources)
    catalogues.check_matches(book, job)
    row, matches = catalogues.pick_row(book, winnable, min_score, random.Random(random_seed))
    seed = row["seed"]
    if as_json:
        click.echo(json.dumps({"game": job.game, "variants": list(job.variants), "catalogue": str(path),
                               "matches": matches, "seeds": len(book.rows), **row}, indent=2))
        return
    score = (f"optimal score {row['score']}" if row["score"] is not None
             else f"best line found scores {row['best']} (optimum not proven)" if row["best"] is not None
             else "no score known")
    matched = f"{matches:,} of {count(len(book.rows), 'seed')} in {path} match{'es' if matches == 1 else ''}"
    click.echo(f"Seed {seed} of {job.title} ({matched})")
    solved = f"solved in {row['seconds']:g} s" if row.get("seconds") is not None else "solve time not recorded"
    click.echo(f"{row['outcome']}, {score}; {solved}, {count(row['states'] or 0, 'state')}")
    if row.get("first_move"):
        click.echo(f"First move of the solver's line (spoiler): {row['first_move']}")
    click.echo(f"Deal it:  usurper deal {job.game} --seed {seed}{flags}")
    click.echo(f"Solve it: usurper solve {job.game} --seed {seed}{flags}")


def load_deal(game: str, seed, deal_text, variants) -> tuple[Game, tuple]:
    rules = make_game(game, [*variants, *seat_words()])
    if (seed is None) == (deal_text is None):
        raise UsurperError("give exactly one of --seed N or --deal TEXT")
    return rules, (rules.deal_from_seed(seed) if deal_text is None else rules.parse_deal(deal_text))


def simultaneous_report(rules: Game, cards, state, seed, seat: int, questions, engine: str, budget: Budget) -> dict:
    """The §8 questions for one seat of a simultaneous game, as a report."""
    from solver.simultaneous import QUESTIONS, analyse

    players = len(rules.returns(state))
    asked = questions or tuple(q for q in QUESTIONS if q != "q4" or players == 2)
    engine = {"auto": "auto", "compiled": "compiled", "pruned": "python", "plain": "python"}.get(engine)
    if engine is None:
        raise UsurperError("Devil's Throne's engines: auto, compiled, pruned (the Python reference)")
    analysis = analyse(rules, state, seat, asked, budget, engine)
    answers = {}
    for question, answer in analysis.answers.items():
        answers[question] = {
            "decided": answer.decided, "cards": answer.cards, "cards_bounds": list(answer.cards_bounds),
            "margin": answer.margin, "margin_bounds": list(answer.margin_bounds), "wins": answer.wins,
            "best_action": answer.best_action, "strategy": answer.strategy,
            "opponent_strategy": answer.opponent_strategy, "exhausted": answer.exhausted,
            "states": answer.stats.states, "seconds": round(answer.stats.seconds, 3),
        }
    return {"game": rules.name, "variant": rules.variant, "seed": seed, "deal": rules.format_deal(cards),
            "players": players, "seat": seat + 1, "answers": answers}


QUESTION_NAMES = {"q1": "Q1 optimistic (everyone helps P)", "q2": "Q2 paranoid, P commits first",
                  "q3": "Q3 paranoid, P commits last", "q4": "Q4 mixed-strategy value (zero-sum, two players)"}


WIN_WORDS = {"sole": "wins alone", "shared": "shares the win", "no": "cannot win"}


def format_simultaneous(report: dict) -> list[str]:
    source = f"seed {report['seed']}" if report["seed"] is not None else "typed deal"
    lines = [f"{report['game']} ({report['variant']}), {source}, {report['players']} players; seat {report['seat']}",
             f"Deal: {report['deal']}"]
    for question, answer in report["answers"].items():
        lines.append(QUESTION_NAMES[question] + ":")
        if answer["decided"]:
            cards = "" if answer["cards"] is None else f"{answer['cards']} cards, "
            wins = f"; P {WIN_WORDS[answer['wins']]}" if answer["wins"] else ""
            lines.append(f"  {cards}margin {answer['margin']:+g}{wins}")
        else:
            low, high = answer["margin_bounds"]
            lines.append(f"  undecided ({answer['exhausted']} ran out): margin between {low:g} and {high:g}")
        if answer["best_action"]:
            lines.append(f"  P's first move: {answer['best_action']}")
        for who, mix in (("P", answer["strategy"]), ("opponent", answer["opponent_strategy"])):
            if mix:
                lines.append(f"  {who} plays: " + ", ".join(f"{move} {share:.2f}" for move, share in mix.items()))
        lines.append(f"  {answer['states']:,} states, {answer['seconds']:.2f} s")
    return lines


def simultaneous_hint(rules: Game, state, budget: Budget) -> tuple[list[str], dict]:
    """Two players: both seats' equilibrium mixes at this node (Q4); more: each acting seat's
    paranoid moves (Q2, Q3)."""
    from solver.simultaneous import analyse, equilibrium

    if rules.is_over(state):
        raise UsurperError("the game is over; there is no next move")
    lines = [f"Position: {rules.describe(state)}"]
    report: dict = {"position": rules.describe(state), "seats": {}}
    if len(rules.returns(state)) == 2:
        answer = equilibrium(rules, state, 0, budget)
        for seat, mix in ((1, answer.strategy), (2, answer.opponent_strategy)):
            if mix:
                lines.append(f"Seat {seat} plays: " + ", ".join(f"{move} {share:.2f}" for move, share in mix.items()))
        value = f"{answer.margin:+.3f}" if answer.margin is not None else "undecided"
        lines.append(f"Value to seat 1 (margin, equilibrium play): {value}")
        report["seats"] = {"1": answer.strategy, "2": answer.opponent_strategy}
        report["value"] = answer.margin
        return lines, report
    for seat in rules.acting_players(state):
        analysis = analyse(rules, state, seat, ("q2", "q3"), budget)
        moves = {q: a.best_action for q, a in analysis.answers.items()}
        lines.append(f"Seat {seat + 1}: against the worst (Q2) {moves.get('q2') or '-'}; "
                     f"seeing the others' choice (Q3) {moves.get('q3') or '-'}")
        report["seats"][str(seat + 1)] = moves
    return lines, report


def seat_words() -> list[str]:
    """Devil's Throne's --players and --suits as its variant words; refused for the other games."""
    params = click.get_current_context().params
    words = [f"{name}={params[name]}" for name in ("players", "suits") if params.get(name) is not None]
    if words and not params["game"].lower().startswith("devils"):
        raise UsurperError(f"--players and --suits are Devil's Throne's options, not {params['game']}'s")
    return words


def verify_result(rules: Game, state, result: SolveResult) -> None:
    """Replay the line before anything is printed; a mismatch is a solver bug, never output."""
    from solver.verify import check_claim

    if result.line_score is not None:
        check_claim(rules, state, result.line, result.verdict == WON, result.line_score)


def result_report(rules: Game, cards: tuple, state, result: SolveResult, seed) -> dict:
    end = rules.apply_line(state, result.line) if result.line_score is not None else None
    outcome = rules.outcome(end) if end is not None else None
    return {
        "game": rules.name, "variant": rules.variant,
        "seed": seed, "deal": rules.format_deal(cards),
        "verdict": result.verdict, "mode": result.mode, "engine": result.engine,
        "optimal_score": result.score, "line_score": result.line_score, "upper_bound": result.upper_bound,
        "line_end": outcome.text() if outcome else None,
        "line": [text for text in rules.format_line(state, result.line).split("; ") if text],
        "line_verified": result.line_score is not None,
        "exhausted": result.exhausted,
        "stats": {
            "states": result.stats.states, "unique": result.stats.unique, "table_hits": result.stats.table_hits,
            "max_depth": result.stats.max_depth, "seconds": round(result.stats.seconds, 4),
        },
    }


def format_report(report: dict) -> str:
    source = f"seed {report['seed']}" if report["seed"] is not None else "typed deal"
    lines = [f"{report['game']} ({report['variant']}), {source}"]
    verdict = report["verdict"]
    if report["optimal_score"] is not None:
        lines.append(f"Verdict: {verdict}, optimal score {report['optimal_score']}")
    elif verdict == "UNDECIDED":
        lines.append(f"Verdict: UNDECIDED: the {report['exhausted']} ran out before the search finished")
    elif report["mode"] == "winnable":
        lines.append(f"Verdict: {verdict} (winnable-only search: optimal score not computed)")
    elif report["upper_bound"] is not None and report["line_score"] is not None:
        lines.append(f"Verdict: {verdict}, optimal score between {report['line_score']} (the line below) and "
                     f"{report['upper_bound']} (a proven bound); the {report['exhausted']} ran out")
    else:
        lines.append(f"Verdict: {verdict}, optimal score not proven ({report['exhausted']} ran out)")
    if report["line_verified"]:
        label = ("Optimal line" if report["optimal_score"] is not None
                 else "Winning line" if verdict == "WON" else "Best line found")
        lines.append(f"{label}, {count(len(report['line']), 'move')}, verified by replay; ends {report['line_end']}, "
                     f"score {report['line_score']}:")
        lines += [f"  {number:2d}. {text}" for number, text in enumerate(report["line"], 1)]
    stats = report["stats"]
    lines.append(f"Search ({report['engine']}): {stats['states']:,} states, {stats['unique']:,} in table, "
                 f"{stats['table_hits']:,} table hits, depth {stats['max_depth']}, {stats['seconds']:.3f} s")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
