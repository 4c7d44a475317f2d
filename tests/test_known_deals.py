"""The hand-built deals with known answers shipped in data/known_deals.json solve as stated."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games import make_game
from solver.search import Budget, solve
from solver.verify import check_claim

KNOWN = json.loads((Path(__file__).resolve().parent.parent / "data" / "known_deals.json").read_text())
CASES = [(game, case) for game, cases in KNOWN.items() for case in cases]


@pytest.mark.parametrize("game_name, case", CASES, ids=[case["name"] for _, case in CASES])
@pytest.mark.parametrize("engine", ["plain", "pruned"])
def test_known_deal_has_its_known_answer(game_name, case, engine):
    game = make_game(game_name, case["variant"])
    state = game.initial_state(game.parse_deal(case["deal"]))
    result = solve(game, state, "optimal", engine, Budget(time_limit=60))
    assert (result.verdict, result.score) == (case["verdict"], case["optimal_score"])
    check_claim(game, state, result.line, result.verdict == "WON", result.score)
