"""Devil's Throne: the game (game.py) over its rules (rules.py), card facts (cards.py), texts
(notation.py) and compiled two-player searches (compiled.py)."""

from games.devils_throne.game import DevilsThrone
from games.devils_throne.rules import PASS, Deal, State

__all__ = ["PASS", "Deal", "DevilsThrone", "State"]
