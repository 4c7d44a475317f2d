"""King's Reign: a spatial solitaire with repeating positions (docs/rules/kings-reign.md)."""

from games.kings_reign.game import NUMBER_CARDS, KingsReign
from games.kings_reign.notation import render

__all__ = ["KingsReign", "NUMBER_CARDS", "render"]
