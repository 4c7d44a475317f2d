"""The games Usurper knows, by the name users type, each built from its `--variant` words."""

from __future__ import annotations

from collections.abc import Sequence

from games.base import Game, VariantError


def _adaman(variants: Sequence[str]) -> Game:
    from games.adaman import Adaman

    return Adaman.from_variants(variants)


def _royal_assassin(variants: Sequence[str]) -> Game:
    from games.royal_assassin import RoyalAssassin

    return RoyalAssassin.from_variants(variants)


def _kings_reign(variants: Sequence[str]) -> Game:
    from games.kings_reign import KingsReign

    return KingsReign.from_variants(variants)


def _devils_throne(variants: Sequence[str]) -> Game:
    from games.devils_throne import DevilsThrone

    return DevilsThrone.from_variants(variants)


#: The games by the name users type (an underscore is read as a dash: `royal_assassin`).
GAMES = {"adaman": _adaman, "devils-throne": _devils_throne, "kings-reign": _kings_reign,
         "royal-assassin": _royal_assassin}


def game_name(name: str) -> str:
    """The registered name of `name` (any case, `_` for `-`); unknown names raise VariantError."""
    canonical = name.strip().lower().replace("_", "-")
    if canonical not in GAMES:
        raise VariantError(f"unknown game {name!r} (known: {', '.join(GAMES)})")
    return canonical


def make_game(name: str, variants: Sequence[str] = ()) -> Game:
    """The game called `name` with the given variant words; unknown names raise VariantError."""
    factory = GAMES[game_name(name)]
    words = [word for item in variants for word in item.split(",") if word.strip()]
    return factory(words)
