"""One deal's Q1 and Q2 for seat 1 at three players under a state budget, by the tree on
PYTHONPATH: `python seat_questions.py SEED STATES` prints the answers and the states as JSON."""

import json
import sys
import time

from games import make_game
from solver.analysis import SeatQuestions, analyse
from solver.search import Budget

game = make_game("devils-throne", ["players=3"])
seed, states = int(sys.argv[1]), int(sys.argv[2])
state = game.initial_state(game.deal_from_seed(seed))
started = time.perf_counter()
analysis = analyse(game, state, SeatQuestions(0, ("q1", "q2")), Budget(max_states=states))
answers = {q: {"cards": a.cards, "margin": a.margin, "cards_bounds": list(a.cards_bounds),
               "margin_bounds": list(a.margin_bounds)} for q, a in analysis.answers.items()}
seconds = round(time.perf_counter() - started, 1)
print(json.dumps({"answers": answers, "states": analysis.stats.states, "seconds": seconds}))
