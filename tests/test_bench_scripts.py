"""The measuring scripts of bench/ run as documented: bench/ab.py (two source trees side by side;
a tree against itself agrees state for state), bench/adaman_bound_gap.py (every sampled
position's bounds are at least its solved optimum: the script asserts it; it counts those that
cannot be won), bench/lookahead.py (replays a shipped row), bench/ceiling_parts.py (the parts
of a shipped run give its figures) and others."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_a_tree_against_itself_agrees_state_for_state():
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "ab.py"), str(ROOT), str(ROOT), "--seeds", "7,14", "--mode", "winnable",
         "--time-limit", "20"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "decided: old 2, new 2 of 2; both 2, verdicts and scores all agree" in lines
    assert "states old/new on those: median 1.00, min 1.00, max 1.00" in lines
    assert re.fullmatch(r"time new/old on those: median \d+\.\d\d, min \d+\.\d\d, max \d+\.\d\d", lines[-1])


def test_bound_gap_script_solves_its_sample_and_reports_it():
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "adaman_bound_gap.py"), "--seeds", "14", "--sample", "6"],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith("seed 14: optimum 89, ")
    summary = re.fullmatch(r"all: (\d+) positions, the exact cover would cut (\d+), the fast bound 0; "
                           r"(\d+) cannot be won", done.stdout.splitlines()[-1])
    assert summary and 1 <= int(summary[1]) <= 6 and int(summary[2]) <= int(summary[1])
    assert int(summary[3]) <= int(summary[1])


def test_variants_script_explains_a_changed_verdict_by_where_the_winning_line_fails():
    """Seed 3 of Royal Assassin is won in the standard game and lost under joker_dies (the
    shipped catalogues): the standard winning line replays, and under joker_dies it stops
    at a Joker placement, since a Joker that was killed with its column is gone."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from variants import why
    finally:
        sys.path.remove(str(ROOT / "bench"))
    title, line, elsewhere = why("royal-assassin", ["joker_dies"], 3, won_in_variant=False)
    assert title == "seed 3: won in the standard game, lost in joker_dies"
    assert line.startswith("  winning line (") and "replayed" in line
    assert re.match(r"  in joker_dies: move \d+ \('J\([CDHS]\)'\): no Joker is AVAILABLE", elsewhere)


def test_devils_throne_growth_decides_each_question_from_endings_near_the_end():
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "devils_throne.py"), "--growth", "--players", "3", "--cards", "2-3",
         "--endings", "2", "--time-limit", "30"],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    rows = done.stdout.splitlines()[1:]
    assert [row.split(":")[0] for row in rows] == [f"n=3 k={k} {q}" for k in (2, 3) for q in ("q1", "q2", "q3")]
    assert all(": decided 2/2, median states " in row for row in rows)


def test_policies_where_lost_prints_each_lost_decision_and_a_summary():
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "policies.py"), "royal-assassin", "--seeds", "0-3", "--where-lost",
         "--samples", "40"],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[2] == ("seed,score,move,unseen,legal,played,kept_win,played_estimate,best_kept_estimate,"
                        "played_exact,best_kept_exact")
    rows = lines[3:-1]
    assert rows and all(re.match(r"\d+,\d+,\d+,\d+,\d+,", row) for row in rows)
    assert re.match(rf"# {len(rows)} deals lost that could be won: unseen cards at the losing decision median \d+",
                    lines[-1])
    assert re.search(r"; the scores they ended with median \d+ \(from \d+ to \d+\)$", lines[-1])


def test_lookahead_replays_a_shipped_row_and_compares_the_shipped_runs(tmp_path):
    """bench/lookahead.py plays Royal Assassin's seed 1 as its shipped run did (the policy is
    deterministic), and --compare gives the figures docs/play.md quotes."""
    policies = ROOT / "bench" / "results" / "policies"
    out = tmp_path / "ahead.csv"
    played = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "lookahead.py"), "royal-assassin", "--seeds", "1", "--top", "3",
         "--csv", str(out)],
        capture_output=True, text=True, timeout=300,
    )
    assert played.returncode == 0, played.stderr
    shipped = (policies / "royal-assassin-fair-lookahead-0-499.csv").read_text().splitlines()
    assert out.read_text().split(",")[:4] == next(row for row in shipped if row.startswith("1,")).split(",")[:4]
    compared = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "lookahead.py"), "--compare",
         str(policies / "royal-assassin-fair-plain-0-499.csv"),
         str(policies / "royal-assassin-fair-lookahead-0-499.csv")],
        capture_output=True, text=True, timeout=60,
    )
    assert compared.returncode == 0, compared.stderr
    lines = compared.stdout.splitlines()
    assert lines[0] == ("500 deals: royal-assassin-fair-plain-0-499.csv won 332, "
                        "royal-assassin-fair-lookahead-0-499.csv won 348")
    assert lines[1] == "won by one only: 59 and 75; two-sided sign test p = 0.195"


@pytest.mark.parametrize("estimator, shipped_file, compared", [
    (["--joint", "--worlds", "60"], "royal-assassin-fair-joint-0-199.csv",
     ("137 deals: royal-assassin-fair-300-0-199.csv won 96, royal-assassin-fair-joint-0-199.csv won 78",
      "won by one only: 29 and 11; two-sided sign test p = 0.006")),
    (["--penalty", "16,12"], "royal-assassin-fair-penalty-0-199.csv",
     ("128 deals: royal-assassin-fair-300-0-199.csv won 90, royal-assassin-fair-penalty-0-199.csv won 77",
      "won by one only: 26 and 13; two-sided sign test p = 0.053")),
    (["--tie-rollouts", "16", "--rollout-samples", "10"], "royal-assassin-fair-tie-rollouts-0-199.csv",
     ("200 deals: royal-assassin-fair-300-0-199.csv won 137, royal-assassin-fair-tie-rollouts-0-199.csv won 123",
      "won by one only: 31 and 17; two-sided sign test p = 0.059")),
])
def test_the_estimators_not_kept_replay_a_shipped_row_and_give_the_quoted_figures(tmp_path, estimator, shipped_file,
                                                                                   compared):
    """--joint, --penalty and --tie-rollouts play Royal Assassin's seed 1 as their shipped
    runs did, and --compare against the plain policy gives the figures docs/play.md quotes."""
    policies = ROOT / "bench" / "results" / "policies"
    out = tmp_path / "rows.csv"
    played = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "lookahead.py"), "royal-assassin", "--seeds", "1", "--samples", "300",
         *([] if "--tie-rollouts" in estimator else ["--top", "3"]), *estimator, "--csv", str(out)],
        capture_output=True, text=True, timeout=300,
    )
    assert played.returncode == 0, played.stderr
    shipped = (policies / shipped_file).read_text().splitlines()
    assert out.read_text().split(",")[:4] == next(row for row in shipped if row.startswith("1,")).split(",")[:4]
    made = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "lookahead.py"), "--compare",
         str(policies / "royal-assassin-fair-300-0-199.csv"), str(policies / shipped_file)],
        capture_output=True, text=True, timeout=60,
    )
    assert made.returncode == 0, made.stderr
    assert tuple(made.stdout.splitlines()[:2]) == compared


def test_the_estimators_not_kept_need_well_formed_options(tmp_path):
    """--joint or --penalty without --top, a --penalty that is not R,W, or --tie-rollouts with
    --top, fewer than one order or sample, or a margin that is not a chance: one line, exit 2, no row."""
    out = tmp_path / "rows.csv"
    for extra in (["--joint"], ["--penalty", "8,10"], ["--top", "3", "--penalty", "8"],
                  ["--top", "3", "--penalty", "8,1"], ["--tie-rollouts", "-1"], ["--tie-rollouts", "4", "--top", "3"],
                  ["--tie-rollouts", "4", "--rollout-samples", "0"], ["--tie-rollouts", "4", "--tie-epsilon", "nan"]):
        made = subprocess.run([sys.executable, str(ROOT / "bench" / "lookahead.py"), "royal-assassin", "--seeds", "1",
                               *extra, "--csv", str(out)], capture_output=True, text=True, timeout=60)
        assert made.returncode == 2, extra
        assert "--" in made.stderr.splitlines()[-1] and "Traceback" not in made.stderr
        assert not out.exists()


def test_lookahead_curve_rows_of_the_shipped_paired_runs_are_the_shipped_curve():
    """The curve rows docs/play.md draws (fair-curves-0-199.png) come out of the runs' rows by
    the command written in the curve file."""
    policies = ROOT / "bench" / "results" / "policies"
    shipped = (policies / "adaman-curve-0-199.csv").read_text().splitlines()
    command = shipped[0].removeprefix("# python ").split()
    made = subprocess.run([sys.executable, *command], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert made.returncode == 0, made.stderr
    assert made.stdout.splitlines() == shipped[2:]
    rows = [line.split(",") for line in shipped[3:]]
    assert [(row[1], row[2], row[3]) for row in rows] == [("300", "116", "200"), ("600", "123", "200"),
                                                         ("1200", "120", "200"), ("2400", "126", "200")]


def test_bench_readme_lists_every_script():
    """bench/README.md's table names every script a developer can run (common.py is their
    shared helper, not a script)."""
    listed = set(re.findall(r"^\| `([a-z_]+\.py)` \|", (ROOT / "bench" / "README.md").read_text(), re.MULTILINE))
    scripts = {path.name for path in (ROOT / "bench").glob("*.py")} - {"common.py"}
    assert listed == scripts


def _lookahead_module():
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import lookahead
    finally:
        sys.path.remove(str(ROOT / "bench"))
    return lookahead


def _late_royal_assassin_decision(unseen: int):
    """Royal Assassin's seed 4 played by its greedy rule to the first decision (two moves or
    more) with at most `unseen` cards unseen."""
    from games import make_game

    game = make_game("royal-assassin")
    model = game.visible_positions()
    state = game.initial_state(game.deal_from_seed(4))
    while game.outcome(state) is None:
        moves = game.legal_moves(state)
        if len(moves) > 1 and model.unknown_count(model.visible_of(game, state)) <= unseen:
            return game, state
        state = game.apply(state, game.greedy_move(state))
    raise AssertionError("the greedy line ended before such a decision")


def test_tie_rollouts_choose_the_same_move_whatever_the_hidden_order():
    """The tied moves are played out on orders drawn from what the player sees: a state with
    the same visible position and another order of the unseen cards gets the same orders,
    so the same values and the same move, given the same generator."""
    import random

    lookahead = _lookahead_module()
    game, state = _late_royal_assassin_decision(8)
    model = game.visible_positions()
    visible = model.visible_of(game, state)
    other = model.state_with_order(game, visible, tuple(reversed(visible.unknown)))
    assert model.visible_of(game, other) == visible and other.stock[other.pos:] != state.stock[state.pos:]
    policy = lookahead.TieRollouts(rollouts=6, rollout_samples=5)
    moves = game.legal_moves(state)[:2]
    chosen = [policy.best_by_rollouts(game, each, moves, random.Random(11)) for each in (state, other)]
    assert chosen[0] == chosen[1]
    move, values = chosen[0]
    assert all(0 <= wins <= 6 for wins, _ in values)
    assert move == moves[max(range(2), key=lambda i: (values[i], -i))]


def test_tie_rollouts_play_every_tied_move_on_the_same_orders():
    """Common random numbers: one move listed twice is played out on the same orders with the
    same rollout seeds, so both copies get the same wins and score, and the first is kept."""
    import random

    lookahead = _lookahead_module()
    game, state = _late_royal_assassin_decision(8)
    move = game.legal_moves(state)[0]
    chosen, values = lookahead.TieRollouts(rollouts=6, rollout_samples=5).best_by_rollouts(
        game, state, [move, move], random.Random(3))
    assert values[0] == values[1] and chosen == move


def test_tied_at_top_takes_the_moves_within_epsilon_of_the_best_win_chance():
    """A sampled hint's moves tie at its top where their win chance is within epsilon of the
    best's (at most `most`, the hint's order); an exact hint's best move stands alone."""
    from dataclasses import replace

    from solver.fair import FairHint, MoveEstimate

    lookahead = _lookahead_module()

    def arm(move, wins, samples):
        estimate = MoveEstimate(move, move)
        for k in range(samples):
            estimate.add(k < wins, False, 10, 5)
        return estimate

    estimates = (arm("a", 40, 40), arm("b", 20, 20), arm("c", 49, 50), arm("d", 9, 10))
    hint = FairHint("a", "a", "", estimates, 120, False)
    assert lookahead.tied_at_top(hint, 0.0, 3) == ["a", "b"]
    assert lookahead.tied_at_top(hint, 0.02, 3) == ["a", "b", "c"]
    assert lookahead.tied_at_top(hint, 0.1, 2) == ["a", "b"]
    assert lookahead.tied_at_top(replace(hint, method="expectimax"), 0.1, 3) == ["a"]


def test_ceiling_parts_of_a_shipped_run_give_its_figures_and_refuse_a_seed_twice(tmp_path):
    shipped = ROOT / "bench" / "results" / "ceiling" / "royal-assassin-clairvoyant-20-0-199.json"
    whole = json.loads(shipped.read_text())
    parts = []
    for name, rows in (("a.json", whole["rows"][:100]), ("b.json", whole["rows"][100:])):
        parts.append(tmp_path / name)
        parts[-1].write_text(json.dumps({**whole, "rows": rows, "seconds": whole["seconds"] / 2}))
    script = [sys.executable, str(ROOT / "bench" / "ceiling_parts.py")]
    combined = subprocess.run([*script, *map(str, parts), "--fair-rows",
                               str(ROOT / "bench" / "results" / "policies" / "royal-assassin-fair-300-0-199.csv")],
                              capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert combined.returncode == 0, combined.stderr
    assert "200 deals (seeds 0-199): fair ceiling 97.25% [95.30%, 99.20%] with V = clairvoyant-20" in combined.stdout
    assert "197/200 = 98.5%" in combined.stdout and "137/200 = 68.5%" in combined.stdout
    twice = subprocess.run([*script, str(parts[0]), str(parts[0])],
                           capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert twice.returncode == 2
    assert twice.stderr.strip() == f"ceiling_parts: error: seed 0 is in two parts ({parts[0]})"
