"""Adaman: the rules (rules.py), the search knowledge built on them (bounds.py), and the
compiled search (_core.c)."""

from games.adaman.bounds import Adaman
from games.adaman.rules import AdamanRules, AdamanState

__all__ = ["Adaman", "AdamanRules", "AdamanState"]
