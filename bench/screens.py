"""Text captures of the four full screens (docs/play.md): each game's first position at
80x24 and 120x40, drawn by Textual's test pilot and written as plain text.

    python bench/screens.py --write docs/play.md   # replaces the captures between the markers
    python bench/screens.py                        # prints them
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import make_game  # noqa: E402
from usurper.app.bots import ThroneSession, make_bots  # noqa: E402
from usurper.app.play import PlaySession  # noqa: E402
from usurper.app.throne_screen import ThroneApp  # noqa: E402
from usurper.app.tui import PlayApp, screen_text  # noqa: E402

#: Each game, its seed and the variant words of its capture.
GAMES = (("adaman", 5, []), ("royal-assassin", 5, []), ("kings-reign", 3, []), ("devils-throne", 42, ["players=3"]))
SIZES = ((80, 24), (120, 40))
BEGIN, END = "<!-- screens: begin -->", "<!-- screens: end -->"


def make_app(name: str, seed: int, variants: list[str]):
    game = make_game(name, variants)
    start = game.initial_state(game.deal_from_seed(seed))
    if game.game_type.simultaneous:
        return ThroneApp(ThroneSession(game, start, 0, make_bots(game, start, 0, "greedy"), random.Random(0)))
    return PlayApp(PlaySession(game, start))


async def capture(name: str, seed: int, variants: list[str], size: tuple[int, int]) -> str:
    app = make_app(name, seed, variants)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        return screen_text(app)


def captures() -> str:
    parts = []
    for name, seed, variants in GAMES:
        for width, height in SIZES:
            words = " ".join(f"--{word.replace('=', ' ')}" for word in variants)
            parts.append(f"`usurper play {name} --seed {seed}{' ' + words if words else ''}` at {width}x{height}:\n")
            text = asyncio.run(capture(name, seed, variants, (width, height)))
            parts.append("\n".join("    " + line if line else "" for line in text.splitlines()) + "\n")
    return "\n".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path, help="a Markdown file whose captures (between the markers) to replace")
    args = parser.parse_args()
    text = captures()
    if args.write is None:
        print(text)
        return
    page = args.write.read_text()
    head, _, rest = page.partition(BEGIN)
    _, _, tail = rest.partition(END)
    if not rest:
        sys.exit(f"screens: error: {args.write} has no {BEGIN} marker")
    args.write.write_text(f"{head}{BEGIN}\n\n{text}\n{END}{tail}")


if __name__ == "__main__":
    main()
