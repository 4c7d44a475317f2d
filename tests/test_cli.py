"""The `usurper` command end to end: happy paths, JSON, and one-line errors with exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games import make_game
from games.decks import BASIC_DECK
from solver.verify import replay

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_C = ["Desert", "Origin", "Journey", "Mountain", "Battle", "Author", "Painter", "Ace of Suns",
             "Savage", "Sailor", "Soldier", "Lunatic"]
EXAMPLE_D = ["Huntress", "Bard", "Sea", "End", "Calamity", "Ace of Moons", "Ace of Suns", "Ace of Waves",
             "Ace of Leaves", "Ace of Wyrms"]


def spec_deal(first: list[str]) -> str:
    """The spec's example convention: the listed cards, then the rest in ascending ID order."""
    return ", ".join(first + [card.name for card in BASIC_DECK if card.name not in first])


def usurper(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "import cli; cli.main()", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_deal_prints_the_seeded_deck_as_text_that_reads_back():
    done = usurper("deal", "adaman", "--seed", "42")
    assert done.returncode == 0
    game = make_game("adaman")
    assert game.parse_deal(done.stdout.strip()) == game.deal_from_seed(42)


def test_solve_winnable_only_prints_a_verified_winning_line():
    done = usurper("solve", "adaman", "--seed", "5", "--winnable-only", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["verdict"] == "WON" and report["line_verified"]
    game = make_game("adaman")
    state = game.initial_state(game.deal_from_seed(5))
    moves = game.parse_line(state, "; ".join(report["line"]))
    end = replay(game, state, moves)
    assert end.ok and end.outcome.won and end.outcome.score == report["line_score"]


def test_solve_human_output_names_verdict_and_line():
    done = usurper("solve", "adaman", "--seed", "5", "--winnable-only")
    assert done.returncode == 0
    assert "Verdict: WON" in done.stdout and "verified by replay" in done.stdout


def test_solve_utter_loss_in_setup_is_lost_with_optimal_score_zero():
    done = usurper("solve", "adaman", "--deal", spec_deal(EXAMPLE_C), "--json")
    report = json.loads(done.stdout)
    assert (report["verdict"], report["optimal_score"], report["line"]) == ("LOST", 0, [])


def test_solve_no_first_move_is_lost_with_score_zero():
    done = usurper("solve", "adaman", "--deal", spec_deal(EXAMPLE_D))
    assert done.returncode == 0
    assert "Verdict: LOST, optimal score 0" in done.stdout


def test_solve_out_of_budget_is_undecided_never_lost():
    done = usurper("solve", "adaman", "--seed", "6", "--max-states", "50", "--json")
    report = json.loads(done.stdout)
    assert report["verdict"] in ("UNDECIDED", "WON")
    assert report["optimal_score"] is None and "state budget" in report["exhausted"]


def test_hint_gives_a_legal_move_from_the_position_after_the_moves():
    game = make_game("adaman")
    state = game.initial_state(game.deal_from_seed(5))
    first = game.format_move(state, game.legal_moves(state)[0])
    done = usurper("hint", "adaman", "--seed", "5", "--moves", first, "--time-limit", "5", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    after = game.apply(state, game.parse_move(state, first))
    assert game.parse_move(after, report["move"]) in game.legal_moves(after)


def test_an_unproven_hint_states_the_proven_bound_on_the_optimum():
    """King's Reign's optimum is an interval: the hint gives both ends, the best line found
    and the bound, and the bound is at least the line's score."""
    done = usurper("hint", "kings-reign", "--seed", "3", "--time-limit", "0.3", "--json")
    report = json.loads(done.stdout)
    assert done.returncode == 0 and not report["proven"]
    assert report["best_found"] <= report["upper_bound"] <= 85
    text = usurper("hint", "kings-reign", "--seed", "3", "--time-limit", "0.3").stdout
    assert f"the optimum is at most {report['upper_bound']} (a proven bound)" in text


def test_an_undecided_verdict_states_the_proven_bound_it_has():
    """Seed 4 cut short after 3 states is UNDECIDED, but its root's bound is proven: the
    text says so, and the optimum the whole search finds is within it."""
    done = usurper("solve", "adaman", "--seed", "4", "--max-states", "3", "--json")
    report = json.loads(done.stdout)
    assert done.returncode == 0 and report["verdict"] == "UNDECIDED" and report["upper_bound"] is not None
    text = usurper("solve", "adaman", "--seed", "4", "--max-states", "3").stdout
    assert f"ran out before the search finished; no line scores more than {report['upper_bound']} " \
           "(a proven bound)" in text
    optimum = json.loads(usurper("solve", "adaman", "--seed", "4", "--json").stdout)["optimal_score"]
    assert optimum is not None and optimum <= report["upper_bound"]


def test_a_floor_above_the_optimum_is_refuted_with_a_bound_below_it():
    """Seed 19's optimum is 87: --at-least 88 proves nothing reaches 88 (a bound of 87 and
    the line found), --at-least 80 gives the optimum; a floor is refused where it means nothing."""
    done = usurper("solve", "adaman", "--seed", "19", "--at-least", "88", "--json")
    report = json.loads(done.stdout)
    assert done.returncode == 0
    assert (report["optimal_score"], report["upper_bound"], report["at_least"]) == (None, 87, 88)
    assert report["line_score"] <= 87 and report["line_verified"] and not report["exhausted"]
    text = usurper("solve", "adaman", "--seed", "19", "--at-least", "88").stdout
    assert f"optimal score between {report['line_score']} (the line below) and 87 (a proven bound)" in text
    assert "nothing reaches 88 (--at-least)" in text
    assert "optimal score 87" in usurper("solve", "adaman", "--seed", "19", "--at-least", "80").stdout
    for args, words in ((["adaman", "--seed", "19", "--winnable-only"], "not with --winnable-only"),
                        (["kings-reign", "--seed", "3"], "for the tree search"),
                        (["adaman", "--seed", "19", "--at-least", "-1"], "-1"),
                        (["adaman", "--seed", "19", "--at-least", "1000"], "above adaman's highest score")):
        done = usurper("solve", *args, *([] if "--at-least" in args else ["--at-least", "80"]))
        assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr


def test_verify_reports_the_end_of_a_legal_line():
    done = usurper("solve", "adaman", "--seed", "5", "--winnable-only", "--json")
    line = "; ".join(json.loads(done.stdout)["line"])
    checked = usurper("verify", "adaman", "--seed", "5", "--moves", line, "--json")
    report = json.loads(checked.stdout)
    assert checked.returncode == 0 and report["legal"] and report["result"] == "WON"


def test_verify_names_the_first_illegal_move_and_exits_1():
    game = make_game("adaman")
    state = game.initial_state(game.deal_from_seed(5))
    first = game.format_move(state, game.legal_moves(state)[0])
    done = usurper("verify", "adaman", "--seed", "5", "--moves", f"{first}; {first}")
    assert done.returncode == 1
    assert "move 2" in done.stdout


@pytest.mark.parametrize("args, problem", [
    (["--deal", "Ace of Moons, Foo"], "unknown card 'Foo'"),
    (["--deal", "Ace of Moons, Ace of Moons"], "duplicate card"),
    (["--deal", "Ace of Moons, Author"], "missing"),
    (["--deal", spec_deal([]) + ", Excuse"], "not in the deck"),
    (["--seed", "-1"], "--seed"),
    (["--seed", "1", "--variant", "nonsense"], "unknown adaman variant"),
    (["--seed", "1", "--deal", spec_deal([])], "exactly one of"),
    ([], "exactly one of"),
])
def test_bad_input_is_one_line_and_exit_code_2(args, problem):
    done = usurper("solve", "adaman", *args)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("usurper: error:") and problem in lines[0]
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_unknown_game_is_one_line_and_exit_code_2():
    done = usurper("solve", "chess", "--seed", "1")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


def test_illegal_hint_moves_are_one_line_and_exit_code_2():
    done = usurper("hint", "adaman", "--seed", "5", "--moves", "Huntress <- Ace of Moons")
    assert done.returncode == 2
    assert done.stderr.startswith("usurper: error: move 1") and len(done.stderr.strip().splitlines()) == 1


def test_replace_when_full_searches_on_where_the_cap_would_stop_it(tmp_path):
    capped = usurper("solve", "royal-assassin", "--seed", "80", "--max-table", "20")
    assert capped.returncode == 0 and "UNDECIDED" in capped.stdout
    replacing = usurper("solve", "royal-assassin", "--seed", "80", "--max-table", "20", "--replace-when-full")
    assert replacing.returncode == 0 and "Verdict: WON, optimal score 12" in replacing.stdout
    refused = usurper("solve", "kings-reign", "--seed", "0", "--replace-when-full")
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.strip().splitlines() == [
        "usurper: error: --replace-when-full is for the tree search; kings-reign's search for repeating "
        "positions keeps every position it has seen"]
    out = tmp_path / "ra.jsonl"
    made = usurper("catalogue", "royal-assassin", "--seeds", "0-1", "--out", str(out), "--replace-when-full")
    assert made.returncode == 0 and json.loads(out.read_text().splitlines()[0])["replace_when_full"] is True
    other = usurper("catalogue", "royal-assassin", "--seeds", "0-2", "--out", str(out))
    assert other.returncode == 2 and "holds replace_when_full=True, but this run asks replace_when_full=False" \
        in other.stderr
