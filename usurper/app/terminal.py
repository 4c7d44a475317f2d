"""How a deal is played in the terminal: full screen (Textual) or line by line, and a
simultaneous-move game against bots; the one entry `usurper play` calls."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from games.base import Game, UsurperError
from usurper.app.play import PlaySession, run_plain


def play_in_terminal(game: Game, state: Any, plain: bool, samples: int, rng: random.Random, seat: int = 0,
                     bot_name: str | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None,
                     played: Sequence[Any] = ()) -> None:
    """`usurper play`: full screen (Textual) or line by line (`plain`) from the deal's start
    `state` after the moves `played` (`--moves`); a simultaneous-move game is played by the
    person at `seat` (0-based) against bots.  Leaving the full screen prints the moves played."""
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    if game.game_type.simultaneous:
        from usurper.app.bots import ThroneSession, make_bots, run_plain_simultaneous

        bots = make_bots(game, state, seat, bot_name)
        if plain:
            run_plain_simultaneous(game, state, seat, bots, stdin, stdout, rng, played=played)
            return
        session = ThroneSession(game, state, seat, bots, rng, played=played)
        _full_screen(stdin, stdout, lambda: _throne_screen().run_throne(session))
        print(session.farewell(), file=stdout)
        return
    if seat != 0 or bot_name is not None:
        raise UsurperError(f"--seat and --bots are Devil's Throne's options, not {game.name}'s")
    if plain:
        run_plain(game, state, stdin, stdout, samples, rng, played=played)
        return
    session = PlaySession(game, state, played=list(played), rng=rng)
    _full_screen(stdin, stdout, lambda: _solitaire_screen().run_tui(session, samples))
    print(session.farewell(), file=stdout)


def _full_screen(stdin: TextIO, stdout: TextIO, run: Callable[[], None]) -> None:
    """`run()` the full screen in a terminal, with one line saying what is missing where it cannot."""
    if not (stdin.isatty() and stdout.isatty()):
        raise UsurperError("the full-screen game needs a terminal for input and output; "
                           "play line by line with --plain")
    if importlib.util.find_spec("textual") is None:
        raise UsurperError("the full-screen game needs Textual (pip install 'usurper[play]'); "
                           "or play with --plain")
    run()


def _solitaire_screen():
    from usurper.app import tui

    return tui


def _throne_screen():
    from usurper.app import throne_screen

    return throne_screen
