"""Difficulty grades (solver/grade.py) and the winning graph (solver/winning_graph.py): every
play replays, `unwinnable` only where the exact search proves the loss, a hand-built easy
deal is easy, grading repeats, a graded catalogue resumes, and the graph's figures agree
with a brute force over every line."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import usurper
from games import make_game
from games.base import UnsupportedGame, UsurperError, Verdict
from solver import catalogue as catalogues
from solver.analysis import analyse
from solver.grade import GRADES, LADDER, Ladder, Rung, grade_deal, ladder_of, narrowness_along, parse_grades, play_rung
from solver.verify import replay_text
from solver.winning_graph import WON_END, GraphTooLarge, figures, winning_graph

ROOT = Path(__file__).resolve().parent.parent.parent
RA = make_game("royal-assassin")
ADAMAN = make_game("adaman")
KNOWN = dict(json.loads((ROOT / "data" / "known_deals.json").read_text()))
#: Adaman seed 6 is lost (data/catalogue/adaman.jsonl: LOST, best 63).
LOST_ADAMAN_SEED = 6


def known_deal(game, name_start: str):
    deal = next(deal for deal in KNOWN[game.name] if deal["name"].startswith(name_start))
    return game.initial_state(game.parse_deal(deal["deal"])), deal


def test_a_hand_built_deal_with_an_obvious_win_is_graded_easy_by_greedy():
    state, deal = known_deal(RA, "royal assassin: won by the obvious line")
    report = grade_deal(RA, state)
    assert deal["verdict"] == "WON"
    assert report.grade == "easy" and report.verdict == Verdict.WON
    assert [(play.player, play.won) for play in report.ladder] == [("greedy", True)]


def test_every_play_of_the_ladder_replays_to_the_end_it_reports():
    state = RA.initial_state(RA.deal_from_seed(4))
    report = grade_deal(RA, state, seed=4)
    assert report.ladder
    for play in report.ladder:
        replayed = replay_text(RA, state, play.moves)
        assert replayed.ok and replayed.outcome is not None
        assert (replayed.outcome.won, replayed.outcome.score) == (play.won, play.score)


def test_the_grade_is_the_first_rung_that_wins_enough():
    state = RA.initial_state(RA.deal_from_seed(4))
    report = grade_deal(RA, state, seed=4)
    winners = [rung for rung in LADDER.rungs
               if sum(play.won for play in report.ladder if play.player == rung.player) >= rung.wins_needed]
    assert winners and report.grade == winners[0].grade
    assert report.ladder[-1].player == winners[0].player  # no stronger rung was played


def test_unwinnable_only_where_the_exact_search_proves_the_loss():
    state = ADAMAN.initial_state(ADAMAN.deal_from_seed(LOST_ADAMAN_SEED))
    assert analyse(ADAMAN, state, "winnable").verdict == Verdict.LOST
    report = grade_deal(ADAMAN, state, seed=LOST_ADAMAN_SEED)
    assert report.grade == "unwinnable" and report.ladder == [] and report.narrowness is None


def test_grading_repeats_exactly():
    state = RA.initial_state(RA.deal_from_seed(4))
    assert grade_deal(RA, state, seed=4).as_dict() == grade_deal(RA, state, seed=4).as_dict()


def test_a_rung_stops_once_it_has_won_enough_or_can_no_longer():
    state, _ = known_deal(RA, "royal assassin: won by the obvious line")
    plays = play_rung(RA, state, 0, Rung("easy", 10, (1, 2, 3), 2))
    assert [play.won for play in plays] == [True, True]
    never = play_rung(RA, state, 0, Rung("easy", 10, (1, 2, 3), 4))
    assert never == []


def test_narrowness_counts_the_moves_that_keep_the_win_at_each_decision():
    state = RA.initial_state(RA.deal_from_seed(2))
    line = analyse(RA, state, "winnable").line
    late = RA.apply_line(state, line[:14])
    narrowness = narrowness_along(RA, late, line[14:])
    position = late
    expected = []
    for move in line[14:]:
        moves = RA.legal_moves(position)
        if len(moves) > 1:
            keep = sum(analyse(RA, RA.apply(position, m), "winnable").verdict == Verdict.WON
                       if RA.outcome(RA.apply(position, m)) is None else RA.outcome(RA.apply(position, m)).won
                       for m in moves)
            expected.append([keep, len(moves)])
        position = RA.apply(position, move)
    assert narrowness.keeping == expected
    assert all(keep >= 1 for keep, _ in expected)  # the line itself keeps the win
    assert narrowness.critical == sum(keep == 1 for keep, _ in expected)



# ----- King's Reign: graded by the score reached ------------------------------------------------
KINGS = make_game("kings-reign")
KINGS_TARGET = ladder_of("kings-reign").target


def kings_deal(seed: int):
    return KINGS.initial_state(KINGS.deal_from_seed(seed))


def test_kings_reign_is_graded_by_score_and_the_other_games_by_winning():
    assert KINGS_TARGET is not None and 0 < KINGS_TARGET <= KINGS.max_score
    assert ladder_of("royal-assassin").target is None and ladder_of("adaman").target is None


#: The King's Reign ladder's two cheapest rungs with its target: the rule, at a test's cost.
KINGS_SHORT = Ladder((Rung("easy", None, (0,), 1), Rung("medium", 10, (1, 2, 3), 2)), KINGS_TARGET)


def test_a_kings_reign_play_wins_its_rung_exactly_when_its_replay_ends_won_at_the_target_or_more():
    state = kings_deal(3)
    report = grade_deal(KINGS, state, 3, KINGS_SHORT)
    assert len(report.ladder) >= 2
    for play in report.ladder:
        replayed = replay_text(KINGS, state, play.moves)
        assert replayed.ok and replayed.outcome is not None and replayed.outcome.score == play.score
        assert play.won == (replayed.outcome.won and replayed.outcome.score >= KINGS_TARGET)


@pytest.mark.parametrize("seed", [0, 3, 7])
def test_a_kings_reign_grade_is_the_first_rung_whose_plays_reach_the_target_enough_times(seed):
    report = grade_deal(KINGS, kings_deal(seed), seed, KINGS_SHORT)
    reached = {rung.player: sum(play.won for play in report.ladder if play.player == rung.player)
               for rung in KINGS_SHORT.rungs}
    winners = [rung for rung in KINGS_SHORT.rungs if reached[rung.player] >= rung.wins_needed]
    assert report.grade == (winners[0].grade if winners else "clairvoyant-only")
    assert report.verdict == Verdict.WON and report.winning_line  # the exact search reaches the target
    assert report.narrowness is None  # whether a move keeps a score reachable is not asked


def test_a_target_one_above_what_a_play_scored_moves_the_deal_up_the_ladder():
    state = kings_deal(0)
    rung = Rung("easy", 10, (1,), 1)
    (play,) = play_rung(KINGS, state, 0, rung, Ladder((rung,)))
    assert play.won  # fair-10 wins this deal, at some score
    assert grade_deal(KINGS, state, 0, Ladder((rung,), play.score)).grade == "easy"
    higher = grade_deal(KINGS, state, 0, Ladder((rung,), play.score + 1))
    assert [p.won for p in higher.ladder] == [False] and higher.grade == "clairvoyant-only"
    assert higher.verdict == Verdict.WON  # a player who sees the deck reaches it (85 is reachable)


def test_a_target_no_line_reaches_is_unwinnable_and_no_rung_is_played():
    report = grade_deal(KINGS, kings_deal(0), 0, Ladder(LADDER.rungs, KINGS.max_score + 1))
    assert report.grade == "unwinnable" and report.ladder == []


def test_grading_a_kings_reign_deal_repeats_exactly():
    state = kings_deal(5)
    assert grade_deal(KINGS, state, 5, KINGS_SHORT).as_dict() == grade_deal(KINGS, state, 5, KINGS_SHORT).as_dict()


def test_the_catalogue_header_keeps_each_games_ladder_and_the_kings_reign_target():
    kings = catalogues.make_job(make_game, "kings-reign", (), mode="grade", time_limit=None)
    royal = catalogues.make_job(make_game, "royal-assassin", (), mode="grade", time_limit=None)
    assert f"scoring {KINGS_TARGET} or more" in kings.header()["ladder"]
    shipped = catalogues.read(catalogues.shipped_grades(royal))
    assert royal.header()["ladder"] == shipped.header["ladder"]  # the shipped files still resume
    assert "scoring" not in royal.header()["ladder"]


def test_a_kings_reign_grade_is_explained_by_the_target_reached():
    from usurper.app.grades import why_graded

    ladder = [{"player": "greedy", "random_seed": 0, "won": False},
              *({"player": "fair-10", "random_seed": 1, "won": False},),
              *({"player": "fair-30", "random_seed": seed, "won": seed != 2} for seed in (1, 2, 3))]
    text = why_graded({"game": "kings-reign", "grade": "medium", "ladder": ladder})
    assert text.startswith(f"fair-30 won scoring {KINGS_TARGET} or more in 2 of 3 plays (random seeds 1, 3)")


@pytest.mark.parametrize(("text", "grades"), [
    ("hard", ("hard",)), ("easy,hard", ("easy", "hard")), ("medium..expert", ("medium", "hard", "expert")),
    ("expert..unwinnable", ("expert", "clairvoyant-only", "unwinnable")), ("hard, hard", ("hard",)),
])
def test_grades_are_asked_as_one_a_list_or_a_range(text, grades):
    assert parse_grades(text) == grades


@pytest.mark.parametrize("text", ["hardest", "hard..easy", "", "easy..nope"])
def test_an_unknown_grade_or_a_backward_range_is_refused(text):
    with pytest.raises(UsurperError):
        parse_grades(text)


def test_games_without_a_grade_are_refused_in_one_line():
    throne = make_game("devils-throne", ["players=2"])
    with pytest.raises(UnsupportedGame, match="no grade"):
        grade_deal(throne, throne.initial_state(throne.deal_from_seed(1)))
    kings = make_game("kings-reign")
    with pytest.raises(UnsupportedGame, match="no winning graph"):
        winning_graph(kings, kings.initial_state(kings.deal_from_seed(1)))


# ----- the winning graph against a brute force over every line ------------------------------
def every_winning_line(game, state, prefix=()):
    """Every line from `state` that ends won, as the keys of its positions, entering only the
    children the exact search says can be won (a method apart from the graph's)."""
    outcome = game.outcome(state)
    if outcome is not None:
        if outcome.won:
            yield prefix + (game.key(state),)
        return
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        ended = game.outcome(child)
        if (ended.won if ended is not None else analyse(game, child, "winnable").verdict == Verdict.WON):
            yield from every_winning_line(game, child, prefix + (game.key(state),))


def first_small_graph(seed: int, most_lines: int):
    """The earliest position of the exact search's winning line with at most `most_lines`
    winning lines (late enough to list them all), found from the end backwards."""
    state = RA.initial_state(RA.deal_from_seed(seed))
    line = analyse(RA, state, "winnable").line
    found = None
    for played in range(len(line) - 1, -1, -1):
        position = RA.apply_line(state, line[:played])
        try:
            graph = winning_graph(RA, position, max_positions=50_000)
        except GraphTooLarge:
            break
        if figures(graph).winning_lines > most_lines:
            break
        found = position, graph
    assert found is not None
    return found


@pytest.mark.parametrize(("seed", "most_lines"), [(2, 50), (5, 50), (5, 1200)])
def test_the_graph_counts_every_winning_line_and_its_dominators_as_brute_force_does(seed, most_lines):
    state, graph = first_small_graph(seed, most_lines)
    found = figures(graph)
    lines = list(every_winning_line(RA, state))
    assert found.winning_lines == len(lines) > 0
    on_every_line = set.intersection(*(set(line[1:-1]) for line in lines))
    assert len(found.dominators) == len(on_every_line)
    assert graph.number_of_nodes() - 1 == found.positions == len({key for line in lines for key in line})
    assert graph.has_node(WON_END)


def test_a_graph_larger_than_its_cap_is_refused_naming_the_way_out():
    state = RA.initial_state(RA.deal_from_seed(2))
    with pytest.raises(GraphTooLarge, match="--moves"):
        winning_graph(RA, state, max_positions=100)


# ----- the command line and the catalogue -----------------------------------------------------
def test_grade_json_has_the_grade_the_ladder_and_the_narrowness():
    result = CliRunner().invoke(usurper, ["grade", "royal-assassin", "--seed", "4", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["grade"] in GRADES
    assert set(report["ladder"][0]) == {"player", "random_seed", "won", "score", "moves"}
    assert set(report["narrowness"]) >= {"decisions", "critical", "first_move_share", "keeping"}


def test_a_graded_catalogue_resumes_without_grading_again(tmp_path, monkeypatch):
    out = tmp_path / "ra.jsonl"
    job = catalogues.make_job(make_game, "royal-assassin", (), mode="grade", time_limit=None)
    first = catalogues.run(out, job, [1, 4], workers=1)
    assert first.added == 2
    rows = catalogues.read(out).rows
    assert {rows[1]["grade"], rows[4]["grade"]} <= set(GRADES)
    monkeypatch.setattr("solver.catalogue.job.grade_deal", lambda *args, **kwargs: pytest.fail("graded again"))
    again = catalogues.run(out, job, [1, 4], workers=1)
    assert (again.added, again.already) == (0, 2)
    summary = catalogues.summarise(catalogues.read(out))
    assert sum(share["count"] for share in summary["grades"].values()) == 2


def test_mode_grade_refuses_the_search_options_it_does_not_use():
    with pytest.raises(UsurperError, match="--time-limit"):
        catalogues.make_job(make_game, "royal-assassin", (), mode="grade", time_limit=5.0)


def test_pick_by_grade_hands_out_a_seed_of_that_grade_with_its_evidence(tmp_path):
    out = tmp_path / "ra.jsonl"
    job = catalogues.make_job(make_game, "royal-assassin", (), mode="grade", time_limit=None)
    catalogues.run(out, job, [1, 4, 5], workers=1)
    rows = catalogues.read(out).rows
    wanted = rows[4]["grade"]
    result = CliRunner().invoke(usurper, ["pick", "royal-assassin", "--catalogue", str(out), "--grade", wanted,
                                          "--json"])
    assert result.exit_code == 0, result.output
    picked = json.loads(result.output)
    assert picked["grade"] == wanted and rows[picked["seed"]]["grade"] == wanted
    text = CliRunner().invoke(usurper, ["pick", "royal-assassin", "--catalogue", str(out), "--grade", wanted])
    assert f"Grade: {wanted} (" in text.output and "usurper grade royal-assassin --seed" in text.output


def test_pick_by_grade_refuses_a_catalogue_that_is_not_graded(tmp_path):
    out = tmp_path / "ra.jsonl"
    catalogues.run(out, catalogues.make_job(make_game, "royal-assassin", (), mode="winnable", time_limit=5.0), [1],
                   workers=1)
    result = CliRunner().invoke(usurper, ["pick", "royal-assassin", "--catalogue", str(out), "--grade", "easy"])
    assert isinstance(result.exception, UsurperError) and "not a graded catalogue" in str(result.exception)


def test_play_by_grade_starts_a_shipped_deal_of_that_grade_and_says_which():
    shipped = catalogues.read(catalogues.shipped_grades(catalogues.make_job(
        make_game, "royal-assassin", (), mode="grade", time_limit=None)))
    result = CliRunner().invoke(usurper, ["play", "royal-assassin", "--grade", "expert", "--plain",
                                          "--random-seed", "3"], input="q\n")
    assert result.exit_code == 0, result.output
    said = next(line for line in result.output.splitlines() if line.startswith("Seed "))
    seed = int(said.split()[1])
    assert "grade expert" in said and shipped.rows[seed]["grade"] == "expert"


def test_a_graded_catalogue_plots_its_grades(tmp_path):
    book = catalogues.read(catalogues.shipped_grades(catalogues.make_job(
        make_game, "royal-assassin", (), mode="grade", time_limit=None)))
    written = catalogues.plot(book, tmp_path / "grades.png")
    assert written.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_grade_is_explained_by_the_rung_that_won_enough_not_an_earlier_lucky_play():
    from usurper.app.grades import why_graded

    ladder = [{"player": "greedy", "random_seed": 0, "won": False},
              *({"player": "fair-10", "random_seed": 1, "won": False},),
              *({"player": "fair-30", "random_seed": seed, "won": seed == 2} for seed in (1, 2, 3)),
              *({"player": "fair-100", "random_seed": seed, "won": True} for seed in (1, 2))]
    text = why_graded({"grade": "hard", "ladder": ladder})
    assert text.startswith("fair-100 won 2 of 2 plays (random seeds 1, 2)")


def test_pick_and_play_by_grade_find_the_shipped_kings_reign_grades():
    job = catalogues.make_job(make_game, "kings-reign", (), mode="grade", time_limit=None)
    shipped = catalogues.read(catalogues.shipped_grades(job))
    assert shipped.header["ladder"] == job.header()["ladder"]  # made with today's ladder and target
    wanted = shipped.rows[min(shipped.rows)]["grade"]
    picked = CliRunner().invoke(usurper, ["pick", "kings-reign", "--grade", wanted, "--json"])
    assert picked.exit_code == 0, picked.output
    assert shipped.rows[json.loads(picked.output)["seed"]]["grade"] == wanted
    played = CliRunner().invoke(usurper, ["play", "kings-reign", "--grade", wanted, "--plain", "--random-seed", "3"],
                                input="q\n")
    assert played.exit_code == 0, played.output
    said = next(line for line in played.output.splitlines() if line.startswith("Seed "))
    assert f"grade {wanted}" in said and shipped.rows[int(said.split()[1])]["grade"] == wanted
