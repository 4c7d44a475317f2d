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


GAMES = {
    "adaman": _adaman, "royal-assassin": _royal_assassin, "royal_assassin": _royal_assassin,
    "kings-reign": _kings_reign, "kings_reign": _kings_reign,
    "devils-throne": _devils_throne, "devils_throne": _devils_throne,
}


def make_game(name: str, variants: Sequence[str] = ()) -> Game:
    """The game called `name` with the given variant words; unknown names raise VariantError."""
    factory = GAMES.get(name.lower())
    if factory is None:
        raise VariantError(f"unknown game {name!r} (known: {', '.join(sorted(GAMES))})")
    words = [word for item in variants for word in item.split(",") if word.strip()]
    return factory(words)
