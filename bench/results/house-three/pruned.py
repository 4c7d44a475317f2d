"""The Python "pruned" engine on a few deals under a state budget, by the tree on PYTHONPATH:
`python pruned.py GAME VARIANTS LOW-HIGH STATES` prints per deal [seed, verdict, score, line
score, states, table hits, seconds] as JSON."""

import json
import sys
import time

from games import make_game
from solver.search import Budget, solve

name, variants, seeds, states = sys.argv[1], [v for v in sys.argv[2].split(",") if v], sys.argv[3], int(sys.argv[4])
game = make_game(name, variants)
low, high = map(int, seeds.split("-"))
rows = []
for seed in range(low, high + 1):
    state = game.initial_state(game.deal_from_seed(seed))
    started = time.perf_counter()
    result = solve(game, state, "optimal", "pruned", Budget(max_states=states))
    rows.append([seed, str(result.verdict), result.score, result.line_score, result.stats.states,
                 result.stats.table_hits, round(time.perf_counter() - started, 2)])
print(json.dumps(rows))
