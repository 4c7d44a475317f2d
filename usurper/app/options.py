"""The command line's own value types: what a number, a limit or a game name may be, and how
each is shown in `--help`.  Every refusal is one line naming the bad value (click's usage
error, which cli.main prints as `usurper: error: ...` with exit 2)."""

from __future__ import annotations

import math

import click

from games import GAMES, game_name
from games.base import UsurperError

#: The time limits a search accepts, in seconds.  Below a millisecond no search can even
#: start; above about 115 days a limit means nothing on a machine, and a typo like 1e308 is
#: refused rather than read as "no limit".
MIN_SECONDS, MAX_SECONDS = 0.001, 10_000_000.0


class GameName(click.ParamType):
    """A game by the name users type (any case; `royal_assassin` reads as `royal-assassin`)."""

    name = "game"

    def get_metavar(self, param, ctx=None) -> str:
        return "{" + "|".join(GAMES) + "}"

    def convert(self, value, param, ctx):
        try:
            return game_name(str(value))
        except UsurperError as exc:
            self.fail(str(exc), param, ctx)

    def shell_complete(self, ctx, param, incomplete):
        from click.shell_completion import CompletionItem

        return [CompletionItem(name) for name in GAMES if name.startswith(incomplete.lower())]


class Seconds(click.FloatRange):
    """Seconds between MIN_SECONDS and MAX_SECONDS.  NaN compares false with every bound, so
    FloatRange alone would let it through; infinities are refused too."""

    name = "seconds"

    def __init__(self) -> None:
        super().__init__(min=MIN_SECONDS, max=MAX_SECONDS)

    def convert(self, value, param, ctx):
        try:
            number = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds.", param, ctx)
        if not math.isfinite(number) or not MIN_SECONDS <= number <= MAX_SECONDS:
            self.fail(f"{value!r} is not a time limit: give seconds from {MIN_SECONDS:g} to {MAX_SECONDS:,.0f}.",
                      param, ctx)
        return number

    def _describe_range(self) -> str:
        return f"{MIN_SECONDS:g} to {MAX_SECONDS:,.0f}"


class Count(click.IntRange):
    """A positive count (of `unit`s, where named) whose cap (far beyond any machine, inside
    the compiled engines' 64 bits) is enforced, and named when a value passes it, but not
    shown in `--help`."""

    def __init__(self, maximum: int, unit: str = "") -> None:
        super().__init__(min=1, max=maximum)
        self.unit = f" {unit}" if unit else ""

    def convert(self, value, param, ctx):
        number = click.INT.convert(value, param, ctx)  # click's own "is not a valid integer"
        if number < 1:
            self.fail(f"{number}{self.unit} is not a limit: give 1 or more.", param, ctx)
        if number > self.max:
            self.fail(f"{number:,}{self.unit} is more than the most it takes, {self.max:,}{self.unit}.", param, ctx)
        return number

    def _describe_range(self) -> str:
        return "x>=1"


GAME = GameName()
SECONDS = Seconds()
MEGABYTES = Count(2**30, "MB")
COUNT = Count(2**62)
SEEDS_HELP = "Seeds: A-B (inclusive) or a comma list of them, e.g. 3,10-12; at most 10,000,000 per run."
