"""The games Usurper knows, by the name users type, each built from its `--variant` words."""

from __future__ import annotations

from games.base import Game, VariantError


def _adaman(variants):
    from games.adaman import Adaman

    return Adaman.from_variants(variants)


def _royal_assassin(variants):
    from games.royal_assassin import RoyalAssassin

    return RoyalAssassin.from_variants(variants)


GAMES = {"adaman": _adaman, "royal-assassin": _royal_assassin, "royal_assassin": _royal_assassin}


def make_game(name: str, variants: list[str] | tuple[str, ...] = ()) -> Game:
    """The game called `name` with the given variant words; unknown names raise VariantError."""
    factory = GAMES.get(name.lower())
    if factory is None:
        raise VariantError(f"unknown game {name!r} (known: {', '.join(sorted(GAMES))})")
    words = [word for item in variants for word in item.split(",") if word.strip()]
    return factory(words)
