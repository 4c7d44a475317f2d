"""The words for what each end of an answer's interval rests on, by how it was found (the
question fills in its own)."""

from __future__ import annotations

from solver.answers import CARDS, MARGIN

STATIC_LOW = {CARDS: "the cards P has won so far", MARGIN: "P's lead now less every card that can still be won"}
STATIC_HIGH = {CARDS: "P's cards plus every card P can still win",
               MARGIN: "P's lead now plus every card P can still win"}
SEARCH_LOW = {"q1": "a line of joint play reaching it was found",
              "q2": "P's best strategy found guarantees it against every reply of the others",
              "q3": "P's replies found reach it against every choice of the others"}
SEARCH_HIGH = {"q1": "the search proved no joint play reaches more",
               "q2": "the others' replies found hold each of P's strategies to it",
               "q3": "the others' best strategy found holds every reply of P to it"}
GREEDY_LOW = "P playing the greedy bot guarantees it against the others' best reply"
GREEDY_HIGH = "the others playing the greedy bot against P hold P's best reply to it"
FEW_HIGH = "the others, each kept to a short list of replies, hold each of P's strategies to it"
HORIZON_LOW = {"q2": "P's strategy found for the next round alone guarantees it against every reply of the others",
               "q3": "P's replies found in the next round alone reach it against every choice of the others"}
MODEL_LOW = "a line of joint play found by the CP-SAT model reaches it (replayed)"
MODEL_HIGH = "the CP-SAT model of every joint play proves no more"
MODEL_BELOW_CEILING = ("the CP-SAT models of the plays that reach each count above it prove that none does "
                       "(every card still in play, then one card fewer, ...)")
CARDS_CEILING_FOR_MARGIN = "P's cards' ceiling less the most another seat holds now"
EVERY_CARD_TO_P = "the line taking every card for P leaves the others none"
MARGIN_WITHIN_CARDS_LOW = "the margin's lower bound (P's cards are at least P's margin)"
MARGIN_WITHIN_CARDS_HIGH = "the cards' upper bound (P's margin is at most P's cards)"


def known_low(question: str, order: str) -> str:
    """An end taken from another question's lower bound by the questions' order."""
    return f"{question.upper()}'s lower bound ({order})"


def known_high(question: str, order: str) -> str:
    """An end taken from another question's upper bound by the questions' order."""
    return f"{question.upper()}'s upper bound ({order})"
