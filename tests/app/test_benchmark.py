"""The benchmark's figures: each deal's states beside the baseline engine's, run
side by side on the same deal, and the ratio marked as a lower bound where the baseline
hit its cap before deciding."""

from __future__ import annotations

import re

import pytest

from games import make_game
from usurper.app.benchmark import deal_line, run, summary

GAME = make_game("adaman")


@pytest.fixture(scope="module")
def side_by_side() -> list[dict]:
    # seed 45 loses utterly within a few states, so the plain engine decides it too;
    # seed 2's win takes the plain engine far more than a third of a second.
    return run(GAME, [45, 2], "winnable", "pruned", 10.0, baseline="plain", baseline_limit=0.3)


def test_each_deal_reports_its_states_against_the_baseline_and_their_ratio(side_by_side):
    quick, capped = side_by_side
    assert quick["decided"] and quick["base_decided"] and not capped["base_decided"]
    assert capped["base_states"] > capped["states"] > 0
    exact = deal_line(quick)
    assert exact.startswith(f"seed 45: LOST score=None states={quick['states']} ")
    assert f"ratio {quick['base_states'] / quick['states']:,.1f}x" in exact and "capped" not in exact
    bounded = deal_line(capped)
    assert re.search(rf"baseline states={capped['base_states']} \S+s \(capped\)  ratio >=[\d,.]+x$", bounded)


def test_the_summary_counts_the_capped_baseline_runs(side_by_side):
    lines = summary(side_by_side, "winnable", "pruned", "plain")
    assert "decided       2/2 = 100.0 %" in lines
    assert any(line.startswith("baseline      plain: decided 1/2") for line in lines)
    assert any(line.startswith("state ratio   plain/pruned on the 2 deals pruned decided")
               and "(1 baseline run hit its cap" in line for line in lines)


def test_without_a_baseline_a_deal_line_has_no_ratio():
    rows = run(GAME, [45], "optimal", "pruned", 10.0)
    assert deal_line(rows[0]) == f"seed 45: LOST score=0 states={rows[0]['states']} {rows[0]['seconds']:.3f}s"
