"""usurper.app.bots: Devil's Throne played by a person (piped input) against each bot, end to end."""

from __future__ import annotations

import io
import random

import pytest
from click.testing import CliRunner

from games import make_game
from games.base import UsurperError
from games.devils_throne.rules import SELECT
from usurper.app.bots import EquilibriumBot, greedy_bot, make_bot, make_bots, run_plain_simultaneous

SEED = 42
#: The person always types #1: the first listed action.  More lines than any game needs.
FIRST_ACTION = "#1\n" * 60
#: Per-node Q4 time of the equilibrium bot in tests: the first round falls back to greedy,
#: later nodes solve in well under this.
QUICK_SECONDS = 0.5


def play(players: int, bot: str, human_seat: int = 0, text: str = FIRST_ACTION) -> tuple:
    game = make_game("devils-throne", [f"players={players}"])
    start = game.initial_state(game.deal_from_seed(SEED))
    bots = make_bots(game, start, human_seat, bot, time_limit=QUICK_SECONDS)
    out = io.StringIO()
    end = run_plain_simultaneous(game, start, human_seat, bots, io.StringIO(text), out, random.Random(7))
    return game, start, end, out.getvalue().splitlines()


def check_finished(game, start, end, lines: list[str]) -> None:
    """Over, the printed returns are the engine's, the moves line replays to the same end,
    and every card is accounted for.  `returns` are the trick piles (spec §5), so they alone
    need not add up to the cards dealt: unused reserve cards stay out, and a void round's
    pool leaves the game [R17]."""
    assert game.is_over(end)
    returns = game.returns(end)
    assert f"returns {' '.join(map(str, returns))}" in lines[-2]
    for seat, cards in enumerate(returns):
        assert f"seat {seat + 1}: {game.outcome(end, seat).result.value.lower()}, {cards} cards" in lines
    assert lines[-1].startswith("moves: ")
    assert game.apply_line(start, game.parse_line(start, lines[-1][len("moves: "):])) == end
    assert game.cards_in_play(start) == 13 * game.players
    assert sum(returns) + end.discarded + game.cards_in_play(end) == game.cards_in_play(start)


@pytest.mark.parametrize("bot", ["random", "greedy", "equilibrium"])
def test_two_players_against_each_bot_reach_the_end(bot):
    game, start, end, lines = play(2, bot)
    check_finished(game, start, end, lines)
    assert any(line.startswith("reveal: seat 1 ") for line in lines)


def test_three_players_against_greedy_bots():
    game, start, end, lines = play(3, "greedy", human_seat=1)
    check_finished(game, start, end, lines)
    reveals = [line for line in lines if line.startswith("reveal: seat 1 ") and ", seat 3 " in line]
    assert reveals  # every Select reveals all three seats


def test_quit_and_end_of_input_stop_early():
    *_, end, lines = play(2, "random", text="q\n")
    assert end.round == 1 and lines[-1] == "(quit; the game is not over)"
    *_, end, lines = play(2, "random", text="7\n")  # seat 1 holds no 7: refused, not the 7th listed
    assert lines[-2].startswith("error: you hold no 7 (your ranks: A 2 3 ")
    assert lines[-1] == "(end of input; the game is not over)" and end.round == 1


def test_a_capital_q_is_the_queen_not_quit():
    *_, lines = play(2, "random", text="Q\nq\n")
    assert any(line.startswith("reveal: seat 1 Q,") for line in lines)
    assert lines[-2] == "(quit; the game is not over)" and lines[-1].startswith("moves so far: Q,")


def test_a_bad_line_is_refused_and_asked_again():
    *_, lines = play(2, "random", text="zz\n#99\n#1\n")
    assert sum(line.startswith("error: ") for line in lines) == 2
    assert any(line.startswith("reveal: seat 1 A,") for line in lines)


def test_greedy_wins_cheaply_or_throws_the_least_useful_card():
    game = make_game("devils-throne", ["players=2"])
    start = game.initial_state(game.deal_from_seed(SEED))
    # Seed 42 opens LOW and seat 2 holds an ace: nothing goes below it, so seat 1 throws its K.
    assert game.mode(start) == 1 and greedy_bot(game, start, 0, random.Random()) == 13
    high = start._replace(coins=(0,) + start.coins[1:], hands=((4, 9, 12), (5, 10, 11)))
    assert greedy_bot(game, high, 0, random.Random()) == 12  # the lowest card above the J
    assert greedy_bot(game, high, 1, random.Random()) == 5   # nothing beats the Q: the lowest


def test_equilibrium_bot_plays_inside_its_mix():
    game = make_game("devils-throne", ["players=2"])
    state = game.initial_state(game.deal_from_seed(SEED))
    rng = random.Random(0)
    while not (state.phase == SELECT and len(state.hands[0]) <= 5):  # a late round start: quick to solve
        seats = game.acting_players(state)
        state = game.apply_joint(state, tuple(rng.choice(game.legal_actions(state, s)) for s in seats))
    bot = EquilibriumBot(time_limit=5.0)
    mix = bot.mix(game, state, 1)
    assert mix and abs(sum(mix.values()) - 1) < 1e-6
    support = {text for text, share in mix.items() if share > 1e-9}
    for draw in range(12):
        action = bot(game, state, 1, random.Random(draw))
        assert game.format_action(state, action) in support
        assert bot.note.startswith("equilibrium: ")


def test_equilibrium_needs_two_players_and_seats_must_exist():
    with pytest.raises(UsurperError, match="two players"):
        make_bot("equilibrium", 3)
    game = make_game("devils-throne", ["players=3"])
    start = game.initial_state(game.deal_from_seed(SEED))
    with pytest.raises(UsurperError, match="seat 4"):
        make_bots(game, start, 3)
    assert set(make_bots(game, start, 0)) == {1, 2} and make_bots(game, start, 0)[1] is greedy_bot


def test_cli_plays_to_the_end_with_piped_input():
    import cli

    result = CliRunner().invoke(cli.usurper, ["play", "devils-throne", "--seed", str(SEED), "--players", "2",
                                              "--plain", "--bots", "random"], input=FIRST_ACTION)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[-3].startswith("seat 2: ") and lines[-2].startswith("Game over: ")
    assert lines[-1].startswith("moves: ")


def test_cli_refuses_bots_for_a_solitaire():
    import cli

    result = CliRunner().invoke(cli.usurper, ["play", "adaman", "--seed", "1", "--bots", "random"], input="")
    assert result.exit_code != 0 and "Devil's Throne" in str(result.exception)


def test_undo_takes_back_the_persons_last_choice_and_the_bots_answers():
    game, start, end, lines = play(2, "greedy", text="#1\nu\n" + FIRST_ACTION)
    assert "undone: back to your last choice" in lines
    check_finished(game, start, end, lines)
    first_nodes = [line for line in lines if line.startswith("[1] ")]
    assert len(first_nodes) == 2 and first_nodes[0] == first_nodes[1]


def test_undo_before_any_choice_says_so():
    _, _, _, lines = play(2, "greedy", text="u\n" + FIRST_ACTION)
    assert "nothing to undo" in lines


def play_late(text: str) -> str:
    """Two players, seat 1 against greedy, from round 8 (where the open-deal value is quick to
    compute), `text` typed; what was printed."""
    game = make_game("devils-throne")
    state = game.initial_state(game.deal_from_seed(SEED))
    for _ in range(7):
        state = game.apply_joint(state, [game.greedy_action(state, seat) for seat in game.acting_players(state)])
    out = io.StringIO()
    run_plain_simultaneous(game, state, 0, make_bots(game, state, 0, "greedy"), io.StringIO(text), out,
                           random.Random(7))
    return out.getvalue()


def test_help_shows_the_legend_and_hint_gives_open_deal_advice():
    text = play_late("?\nh\n" + FIRST_ACTION)
    assert "@2 aims a three's power or an Envoy ace at seat 2" in text
    hint = next(line for line in text.splitlines() if line.startswith("hint (open deal"))
    assert "equilibrium mix" in hint or "undecided" in hint


def test_a_hint_asked_again_at_the_same_node_is_given_at_once():
    """Asked twice, then again after the choice is undone: one search, three hints."""
    lines = play_late("h\nh\n#1\nu\nh\n" + FIRST_ACTION).splitlines()
    hints = [line for line in lines if line.startswith("hint (open deal")]
    assert "undone: back to your last choice" in lines
    assert len(hints) == 3 and len(set(hints)) == 1
    assert sum(line.startswith("thinking: ") for line in lines) == 1


def test_quitting_a_game_in_progress_asks_and_goes_on_unless_confirmed():
    _, _, end, lines = play(2, "greedy", text="#1\nq\nn\n#1\nq\ny\n")
    assert lines.count("quit the game in progress? y quits, anything else goes on") == 2
    assert lines[-2] == "(quit; the game is not over)" and lines[-1].startswith("moves so far: ")


def test_three_player_hint_gives_the_guarantee_and_the_coalition_mix_near_the_end():
    from devils_throne_helpers import late_position

    from solver.simultaneous import analyse
    from usurper.app.bots import hint_lines

    game = make_game("devils-throne", ["players=3"])
    state = late_position(game, 0, 3)
    answers = analyse(game, state, 0, ("q2", "q5")).answers
    (hint,) = hint_lines(game, state, 0, seconds=20)
    assert f"play {answers['q2'].best_action} (it guarantees a margin of {answers['q2'].margin:+d}" in hint
    mix = ", ".join(f"{move} {share:.2f}" for move, share in answers["q5"].strategy.items())
    assert f"if they mix as one: play {mix}" in hint


def test_three_player_hint_names_the_greedy_move_where_no_guarantee_is_proved():
    from usurper.app.bots import hint_lines

    game = make_game("devils-throne", ["players=3"])
    state = game.initial_state(game.deal_from_seed(0))
    (hint,) = hint_lines(game, state, 0, seconds=0.2)
    greedy = game.format_action(state, game.greedy_action(state, 0))
    assert "no guarantee proved in 0.1 s" in hint and hint.endswith(f"the greedy rule plays {greedy}")


def test_three_player_hint_names_a_move_that_gains_a_card_whatever_the_others_do(monkeypatch):
    """Seat 1's Robber, played at once, takes a card against every reply (the search of the
    next round alone); the hint says so.  A state budget instead of the hint's seconds, so
    that a busy machine gives the same hint."""
    import usurper.app.bots
    from solver.search import Budget

    monkeypatch.setattr(usurper.app.bots, "Budget", lambda **limits: Budget(max_states=3_000,
                                                                     max_memory_mb=limits["max_memory_mb"]))
    game = make_game("devils-throne", ["players=3"])
    state = game.initial_state(game.deal_from_seed(0))
    (hint,) = usurper.app.bots.hint_lines(game, state, 0, seconds=10)
    assert "play 3: it gets you 1 card more whatever the others do; the greedy rule plays" in hint


def test_ctrl_c_stops_a_hint_and_the_person_chooses_on():
    """The hint says it is thinking (it may take its 10 s) and Ctrl-C stops it: the person is
    back at their choice, not out of the game.  The first round of a three-player deal,
    whose hint is undecided in its time, so the signal comes while it thinks."""
    import signal
    import subprocess
    import sys
    import threading
    from pathlib import Path

    from catalogue_helpers import ctrl_c_as_in_a_terminal

    run = subprocess.Popen([sys.executable, "-c", "import cli; cli.main()", "play", "devils-throne", "--seed", "0",
                            "--players", "3", "--plain"], cwd=Path(__file__).resolve().parents[2],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           preexec_fn=ctrl_c_as_in_a_terminal)
    watchdog = threading.Timer(120, run.kill)  # no hang if the thinking line never comes
    watchdog.start()
    try:
        run.stdin.write("h\n")
        run.stdin.flush()
        for line in run.stdout:
            if line.startswith("thinking: open-deal advice"):
                break
        run.send_signal(signal.SIGINT)
        rest, errors = run.communicate("q\n", timeout=120)
    finally:
        watchdog.cancel()
        run.kill()
    assert "hint stopped; choose your action" in rest, (rest, errors)
    assert rest.rstrip().endswith("(quit; the game is not over)") and run.returncode == 0, (rest, errors)


def test_a_prefix_of_moves_is_counted_and_kept_in_the_final_line():
    game = make_game("devils-throne", ["players=2"])
    start = game.initial_state(game.deal_from_seed(SEED))
    first = tuple(game.greedy_action(start, seat) for seat in game.acting_players(start))
    out = io.StringIO()
    end = run_plain_simultaneous(game, start, 0, make_bots(game, start, 0, "greedy"), io.StringIO(FIRST_ACTION),
                                 out, random.Random(7), played=[first])
    lines = out.getvalue().splitlines()
    assert lines[1].startswith("[2] ")
    assert lines[-1].startswith(f"moves: {game.format_move(start, first)}; ")
    check_finished(game, start, end, lines)


def test_quitting_after_a_move_prints_the_moves_so_far_for_verify():
    game, start, end, lines = play(3, "greedy", text="#1\nq\ny\n")
    said = next(line for line in lines if line.startswith("moves so far: "))
    moves = said[len("moves so far: "):]
    assert game.apply_line(start, game.parse_line(start, moves)) == end
