"""How a deal is played in the terminal: full screen (Textual) or line by line, and a
simultaneous-move game against bots; the one entry `usurper play` calls."""

from __future__ import annotations

import random
import shutil
import sys
from typing import Any, TextIO

from app.play import PlaySession, run_plain
from games.base import Game, UsurperError

#: The smallest terminal (columns, lines) the full-screen game is drawn for.
SCREEN = (80, 24)


def play_in_terminal(game: Game, state: Any, plain: bool, samples: int, rng: random.Random, seat: int = 0,
                     bot_name: str | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
    """`usurper play`: full screen (Textual) or line by line (`plain`); a simultaneous-move
    game is played line by line, the person at `seat` (0-based) against bots."""
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    if game.game_type.simultaneous:
        # No full-screen view shows simultaneous moves yet: plain with or without --plain.
        from app.bots import make_bots, run_plain_simultaneous

        bots = make_bots(game, state, seat, bot_name)
        run_plain_simultaneous(game, state, seat, bots, stdin, stdout, rng)
        return
    if seat != 0 or bot_name is not None:
        raise UsurperError(f"--seat and --bots are Devil's Throne's options, not {game.name}'s")
    if plain:
        run_plain(game, state, stdin, stdout, samples, rng)
        return
    if not (stdin.isatty() and stdout.isatty()):
        raise UsurperError("the full-screen game needs a terminal for input and output; "
                           "play line by line with --plain")
    columns, lines = shutil.get_terminal_size()
    if columns < SCREEN[0] or lines < SCREEN[1]:
        print(f"usurper: note: the terminal is {columns}x{lines}; the game is drawn for {SCREEN[0]}x{SCREEN[1]} "
              "or more (or play with --plain)", file=sys.stderr)
    try:
        from app.tui import run_tui
    except ImportError:
        raise UsurperError("the full-screen game needs Textual (pip install 'usurper[play]'); "
                           "or play with --plain") from None
    run_tui(PlaySession(game, state, rng=rng), samples)
