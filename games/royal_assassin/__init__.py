"""Royal Assassin: the rules (rules.py), the search knowledge built on them (bounds.py), and
the compiled search (_core.c)."""

from games.royal_assassin.bounds import RoyalAssassin
from games.royal_assassin.rules import JOKER, NO_CARD, RoyalAssassinRules, RoyalAssassinState

__all__ = ["JOKER", "NO_CARD", "RoyalAssassin", "RoyalAssassinRules", "RoyalAssassinState"]
