"""How the simultaneous-move search spends a time limit: the solver's own schedule, the same
for every game.  None of these numbers changes an answer that is proved, only how much of it
is proved within a limit; each is a share of the time left at the moment its part starts."""

from __future__ import annotations

from dataclasses import dataclass

from solver.answers import CARDS, Budget


@dataclass(frozen=True)
class SimultaneousSettings:
    """The tuned numbers of the schedule, by the part of the search they feed.

    A Q1-Q3 payoff: `cards_share` of the question's time goes to the cards (asked first; the
    margin gets what is left), or `model_cards_share` where Q1 uses the game's model of joint
    play (its line for the cards bounds the margin too, so the cards deserve nearly all).

    Q2 and Q3, before their own probes, in this order:
    - `horizon_share`: the probes that look `horizon_rounds` rounds ahead alone (three or more
      seats): a card P gains at once whatever the others do is found in a few thousand
      nodes, so a small share suffices, and a longer horizon costs as much as the full search;
    - `one_sided_share`: each search of a fixed strategy against the best reply (the others'
      greedy bots, then P's): cheap bounds, worth a fifth of the time each;
    - `few_replies_share`: the others kept to the game's few replies each, where two to
      `few_replies_most_others` other seats play (beyond, their joint replies multiply too
      fast to refute within a share and the ceiling it gives comes too late), probing just
      above the floor first where at most `few_replies_floor_first_most_others` play (with
      more, that probe is seldom refuted within the share: the ceiling is walked down from
      the top at once);
    - `floor_probe_share`: the first probe, just above the floor (three or more seats, where
      the others ganging up hold P near it).

    Q1: `q1_ceiling_share` for the first probe, at the ceiling (every card to P is often
    reachable with everyone helping); where the game's model of joint play comes next, that
    probe gets `q1_probe_before_model_share` instead and the models `q1_model_share` of the
    time then left (bisection has the rest).  Of the models' time, the restricted model gets
    `restricted_model_share` and the models of the plays reaching the ceiling
    `at_ceiling_model_share`; the exact model has what remains."""

    cards_share: float = 0.5
    model_cards_share: float = 0.95
    horizon_share: float = 0.05
    horizon_rounds: int = 1
    one_sided_share: float = 0.2
    few_replies_share: float = 0.5
    few_replies_most_others: int = 3
    few_replies_floor_first_most_others: int = 2
    floor_probe_share: float = 0.1
    q1_ceiling_share: float = 0.5
    q1_probe_before_model_share: float = 0.1
    q1_model_share: float = 0.9
    restricted_model_share: float = 0.1
    at_ceiling_model_share: float = 0.8


DEFAULT_SETTINGS = SimultaneousSettings()


def payoff_deadline(payoff: str, started: float, budget: Budget, settings: SimultaneousSettings = DEFAULT_SETTINGS,
                    with_model: bool = False, alone: bool = False) -> float | None:
    """When a payoff's search, begun with its question at `started`, must stop: the cards,
    asked first, get their share of the time (`cards_share`, or `model_cards_share` where the
    model of joint play is used); the margin, or a payoff asked alone, all that is left."""
    if budget.time_limit is None:
        return None
    if payoff != CARDS or alone:
        return started + budget.time_limit
    return started + budget.time_limit * (settings.model_cards_share if with_model else settings.cards_share)
