"""Playing a deal line by line (--plain): moves from standard input, the end against verify."""

import io
import random

import pytest

from games import make_game
from games.base import MoveError, UsurperError
from solver.search import Budget, solve
from solver.verify import replay_text
from usurper.app.play import PlaySession, run_plain, where_lost

ADAMAN = make_game("adaman")
RA = make_game("royal-assassin")


def optimal_line(game, seed):
    state = game.initial_state(game.deal_from_seed(seed))
    result = solve(game, state, "optimal", "auto", Budget(time_limit=30))
    return state, game.format_line(state, result.line).split("; "), result.score


@pytest.mark.parametrize("game, seed", [(ADAMAN, 5), (RA, 5)])
def test_plain_game_of_the_optimal_line_ends_with_verifys_score(game, seed):
    start, line, optimum = optimal_line(game, seed)
    out = io.StringIO()
    session = run_plain(game, start, io.StringIO("\n".join(line) + "\n"), out)
    shown = out.getvalue().splitlines()
    verified = replay_text(game, start, "; ".join(line))
    assert session.outcome().score == verified.outcome.score == optimum
    assert shown[-2].startswith(f"Game over: {verified.outcome.text()}; score {optimum}; the deal's optimum is "
                                f"{optimum} (reached)")
    assert shown[-1] == f"moves: {'; '.join(line)}"


def test_adaman_seed_5_plain_game_scores_95():
    start, line, _ = optimal_line(ADAMAN, 5)
    out = io.StringIO()
    run_plain(ADAMAN, start, io.StringIO("\n".join(line)), out)
    assert "score 95; the deal's optimum is 95 (reached)" in out.getvalue()


def test_plain_game_prints_one_line_per_position_and_its_moves():
    start, line, _ = optimal_line(ADAMAN, 5)
    out = io.StringIO()
    run_plain(ADAMAN, start, io.StringIO(line[0] + "\n"), out)
    shown = out.getvalue().splitlines()
    assert shown[1].startswith("[1] Deck: 24 left; Capital: Origin 2 ≈❦, Sailor 4 ≈❦")
    assert shown[2].startswith("moves: 1) ")
    assert shown[3].startswith("[2] Deck: 23 left")
    assert shown[-1] == "(end of input; the game is not over)"


def test_moves_by_number_undo_and_redo():
    start, line, _ = optimal_line(ADAMAN, 5)
    session = PlaySession(ADAMAN, start)
    number = [words for _, words in session.legal()].index(line[0]) + 1
    session.play_text(str(number))
    assert session.line_text() == line[0]
    assert session.undo() and session.played == [] and session.state == start
    assert session.redo() and session.line_text() == line[0]
    assert not session.redo()
    session.undo()
    session.play_text(line[0])
    assert session.undone == []


def test_plain_commands_give_verdict_hints_and_refuse_bad_moves():
    start, line, _ = optimal_line(ADAMAN, 5)
    commands = "v\nh\nPainter <- Desert\n9999\nq\n"
    out = io.StringIO()
    run_plain(ADAMAN, start, io.StringIO(commands), out, samples=30, rng=random.Random(0))
    text = out.getvalue()
    assert "still winnable: yes; best score 95" in text
    assert f"Hint (reads the deal): {line[0]}: keeps the best score 95 reachable" in text
    assert "error: Desert is not in Resources" in text
    assert "error: no move 9999" in text


def test_fair_hint_in_play_does_not_name_the_next_card():
    start = RA.initial_state(RA.deal_from_seed(5))
    session = PlaySession(RA, start, rng=random.Random(0))
    lines = session.fair_hint(samples=20, time_limit=None)
    assert lines[0].startswith("Fair hint: T (turn the top stock card)")
    assert "(turned)" in session.clairvoyant_hint()[0]


LOSING_MOVES = ["Painter <- Battle", "Origin <- Journey + Chance Meeting + Darkness", "1", "1"]
LOST_AT_3 = "the win was lost at move 3: Ace of Wyrms 1 ⚕ <- Cave 7 ≈⚕; the best from here is a loss scoring 56"


def session_after(moves):
    session = PlaySession(ADAMAN, ADAMAN.initial_state(ADAMAN.deal_from_seed(5)), rng=random.Random(0))
    for move in moves:
        session.play_text(move)
    return session


def test_the_hint_names_the_move_that_lost_the_win():
    session = session_after(LOSING_MOVES)
    assert where_lost(ADAMAN, session.start, session.played) == LOST_AT_3
    assert session.clairvoyant_hint()[-1] == f"Review (reads the deal): {LOST_AT_3}"


def test_the_fair_hint_in_play_prints_nothing_read_from_the_deal():
    session = session_after(LOSING_MOVES)
    lines = session.fair_hint(samples=30, time_limit=None)
    assert lines[0].startswith("Fair hint: ")
    assert not any("lost" in line or "the deal" in line or "best from here" in line for line in lines)


def test_the_verdict_reviews_the_moves_played_labelled_as_reading_the_deal():
    out = io.StringIO()
    start = ADAMAN.initial_state(ADAMAN.deal_from_seed(5))
    run_plain(ADAMAN, start, io.StringIO("\n".join([*LOSING_MOVES, "f", "v", "q", "y"]) + "\n"), out, samples=30)
    text = out.getvalue()
    fair = text[text.index("Fair hint: "):text.index("still winnable")]
    assert "lost" not in fair and "Review" not in fair
    assert f"still winnable: no; best score 56\nReview (reads the deal): {LOST_AT_3}\n" in text


def test_nothing_is_said_lost_along_an_optimal_line():
    start, line, _ = optimal_line(ADAMAN, 5)
    moves = ADAMAN.parse_line(start, "; ".join(line[:6]))
    assert where_lost(ADAMAN, start, moves) is None


# ----- the commands: usurper play, hint --fair / --visible, bench --policy ------------------
def wired_commands():
    """The `usurper` click group of cli.py."""
    import cli

    return cli.usurper


def test_wired_play_plain_reads_moves_from_standard_input():
    from click.testing import CliRunner

    start, line, _ = optimal_line(ADAMAN, 5)
    result = CliRunner().invoke(wired_commands(), ["play", "adaman", "--seed", "5", "--plain"],
                                input="\n".join(line) + "\n")
    assert result.exit_code == 0, result.output
    assert "score 95; the deal's optimum is 95 (reached)" in result.output


def test_wired_hint_visible_and_fair():
    from click.testing import CliRunner

    group = wired_commands()
    visible = ("Stock: 42 left; Reserve: 2C 5H; C: QC[A7:7D D3:3C] KC +JK (D attacks); D: -; H: JH; S: -; "
               "Jokers available: 0; Turned: 9D; Discard: 4H JS")
    shown = CliRunner().invoke(group, ["hint", "royal-assassin", "--visible", visible, "--samples", "30"])
    assert shown.exit_code == 0, shown.output
    assert "Fair hint: " in shown.output and "(30 samples)" in shown.output
    refused = CliRunner().invoke(group, ["hint", "royal-assassin", "--visible", visible.replace("5H", "5H 9D")])
    assert isinstance(refused.exception, UsurperError) and "9D is given twice" in str(refused.exception)
    losing = ["hint", "adaman", "--seed", "5", "--fair", "--samples", "30", "--moves",
              "Painter <- Battle; Origin <- Journey + Chance Meeting + Darkness; Ace of Wyrms <- Cave"]
    fair = CliRunner().invoke(group, losing)
    assert fair.exit_code == 0, fair.output
    assert "Fair hint: " in fair.output and "lost" not in fair.output and "Review" not in fair.output
    reviewed = CliRunner().invoke(group, [*losing, "--review"])
    assert reviewed.exit_code == 0, reviewed.output
    assert "Review (reads the deal): the win was lost at move 3: Ace of Wyrms 1 ⚕ <- Cave 7 ≈⚕" in reviewed.output
    as_json = CliRunner().invoke(group, [*losing, "--json"])
    assert as_json.exit_code == 0 and '"lost"' not in as_json.output
    peeking = CliRunner().invoke(group, ["hint", "royal-assassin", "--visible", visible, "--review"])
    assert isinstance(peeking.exception, UsurperError) and "--review reads the deal" in str(peeking.exception)
    clairvoyant = CliRunner().invoke(group, ["hint", "royal-assassin", "--seed", "5"])
    assert clairvoyant.exit_code == 0 and "(turned)" in clairvoyant.output


def test_wired_bench_policy_prints_rates_beside_the_clairvoyant_one():
    from click.testing import CliRunner

    result = CliRunner().invoke(wired_commands(), ["bench", "royal-assassin", "--seeds", "0-2", "--policy", "greedy"])
    assert result.exit_code == 0, result.output
    assert "greedy " in result.output and "clairvoyant      3/3     winnable" in result.output


def test_quitting_a_game_in_progress_asks_first_and_goes_on_unless_confirmed():
    start = ADAMAN.initial_state(ADAMAN.deal_from_seed(5))
    out = io.StringIO()
    session = run_plain(ADAMAN, start, io.StringIO("1\nq\nn\n1\nq\ny\n"), out)
    text = out.getvalue()
    assert text.count("quit the game in progress?") == 2 and len(session.played) == 2
    assert text.splitlines()[-1].startswith("moves so far: ")


def test_quitting_before_any_move_needs_no_confirmation():
    start = ADAMAN.initial_state(ADAMAN.deal_from_seed(5))
    out = io.StringIO()
    run_plain(ADAMAN, start, io.StringIO("q\n1\n"), out)
    assert "quit the game in progress?" not in out.getvalue()


def test_plain_play_after_a_prefix_counts_on_and_keeps_it_in_every_line():
    """`play --moves A;B --plain`: the counter starts at 3, `m` and the final line hold the
    prefix, and verify takes that line."""
    from click.testing import CliRunner

    from cli import usurper

    start = ADAMAN.initial_state(ADAMAN.deal_from_seed(5))
    first = ADAMAN.legal_moves(start)[0]
    second = ADAMAN.legal_moves(ADAMAN.apply(start, first))[0]
    prefix = ADAMAN.format_line(start, [first, second])
    result = CliRunner().invoke(usurper, ["play", "adaman", "--seed", "5", "--moves", prefix, "--plain"],
                                input="1\nm\nq\ny\n")
    lines = result.output.splitlines()
    assert result.exit_code == 0, result.output
    assert lines[1].startswith("[3] ") and any(line.startswith("[4] ") for line in lines)
    shown = [line for line in lines if line.startswith("moves: ") and ") " not in line]  # m's answer
    assert len(shown) == 1 and shown[0].startswith(f"moves: {prefix}; ")
    printed = lines[-1]
    assert printed.startswith("moves so far: ") and printed[len("moves so far: "):] == shown[0][len("moves: "):]
    verified = CliRunner().invoke(usurper, ["verify", "adaman", "--seed", "5", "--moves",
                                            printed[len("moves so far: "):]])
    assert verified.exit_code == 0 and verified.output.startswith("Legal, 3 moves")


def test_a_move_typed_after_the_game_is_over_says_so_not_choose_1_to_0():
    start, line, _ = optimal_line(ADAMAN, 5)
    session = PlaySession(ADAMAN, start)
    for move in line:
        session.play_text(move)
    assert session.legal() == []
    for typed in ("1", line[0]):
        with pytest.raises(MoveError, match="^the game is over: there is no move to play$"):
            session.play_text(typed)
