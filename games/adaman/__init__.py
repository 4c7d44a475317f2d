"""Adaman: the game object (game.py) over the rules (rules.py), the search knowledge
(bounds.py), the texts (notation.py), what a player sees (visible.py) and the compiled
search (compiled.py over _core.c)."""

from games.adaman.game import Adaman
from games.adaman.rules import AdamanState

__all__ = ["Adaman", "AdamanState"]
