"""Royal Assassin: the game object (game.py) over the rules (rules.py), the search knowledge
(bounds.py), the texts (notation.py), what a player sees (visible.py) and the compiled
search (compiled.py over _core.c)."""

from games.royal_assassin.game import RoyalAssassin
from games.royal_assassin.rules import JOKER, NO_CARD, RoyalAssassinState

__all__ = ["JOKER", "NO_CARD", "RoyalAssassin", "RoyalAssassinState"]
