"""Devil's Throne: rules engine (rules.py), card facts (cards.py) and texts (notation.py)."""

from games.devils_throne.rules import PASS, Deal, DevilsThrone, State

__all__ = ["PASS", "Deal", "DevilsThrone", "State"]
