"""The full-screen game of `usurper play` (Textual): the rows as cards, the legal moves to
choose from with the keyboard, undo and redo, and on request a clairvoyant hint, a fair
hint or the verdict of the position.

Only the play command imports this module, so Textual is needed only to play; the game
itself is a app.play.PlaySession, the same one the line-by-line game (--plain) drives.
"""

from __future__ import annotations

import re

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from app.play import PlaySession

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
PLAYING_CARD = re.compile(r"\b(10|[2-9AJQK])([CDHS])\b")


class PlayApp(App):
    """One deal: the position on top, the moves below it, advice at the bottom."""

    TITLE = "Usurper"
    CSS = """
    #position { padding: 1 2; border: round $accent; height: auto; }
    #moves { height: 1fr; border: round $primary; }
    #advice { padding: 0 2; height: auto; min-height: 3; border: round $secondary; }
    """
    BINDINGS = [
        Binding("u", "undo", "Undo"),
        Binding("r", "redo", "Redo"),
        Binding("h", "hint", "Hint (reads the deal)"),
        Binding("f", "fair", "Fair hint"),
        Binding("v", "verdict", "Verdict"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, session: PlaySession, samples: int = 200, fair_time_limit: float | None = 10.0):
        super().__init__()
        self.session = session
        self.samples = samples
        self.fair_time_limit = fair_time_limit
        self.typed_number = ""  # digits typed so far: jump to that move

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="position", markup=False)
        yield OptionList(id="moves")
        yield Static("Choose a move with the arrows (or type its number) and Enter.", id="advice", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"{self.session.game.name} ({self.session.game.variant})"
        self.refresh_position()
        self.query_one("#moves", OptionList).focus()

    # ----- showing the game ---------------------------------------------------------------
    def refresh_position(self) -> None:
        session = self.session
        self.query_one("#position", Static).update(render_rows(session.position()))
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        moves.add_options([Option(f"{number:2d}. {words}") for number, (_, words) in enumerate(session.legal(), 1)])
        if session.legal():
            moves.highlighted = 0
        if session.outcome() is not None:
            self.advise([session.end_report(), f"moves: {session.line_text()}"])

    def advise(self, lines: list[str]) -> None:
        self.query_one("#advice", Static).update("\n".join(lines))

    # ----- actions --------------------------------------------------------------------------
    def on_key(self, event: events.Key) -> None:
        """Digits pick a move by its number (`1`, `2` highlights move 12), Enter plays it."""
        if not (event.character or "").isdigit():
            return
        count = len(self.session.legal())
        typed = self.typed_number + event.character
        if not 1 <= int(typed) <= count:
            typed = event.character
        if 1 <= int(typed) <= count:
            self.query_one("#moves", OptionList).highlighted = int(typed) - 1
        self.typed_number = typed
        event.stop()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.typed_number = ""
        move = self.session.legal()[event.option_index][0]
        self.session.play(move)
        self.advise([])
        self.refresh_position()

    def action_undo(self) -> None:
        if self.session.undo():
            self.advise(["undone"])
            self.refresh_position()

    def action_redo(self) -> None:
        if self.session.redo():
            self.advise(["redone"])
            self.refresh_position()

    def action_hint(self) -> None:
        if self.session.outcome() is None:
            self.advise(self.session.clairvoyant_hint())

    def action_fair(self) -> None:
        if self.session.outcome() is None:
            self.advise(self.session.fair_hint(self.samples, self.fair_time_limit))

    def action_verdict(self) -> None:
        self.advise([self.session.verdict()])


def render_rows(position: str) -> str:
    """One row a line: Decktet cards in brackets (`Capital    [Origin] [Sailor]`), playing
    cards with their suit symbols (`QC[A7:7D D3:3C]` -> `Q♣[A7:7♦ D3:3♣]`)."""
    lines = []
    for section in position.split("; "):
        name, _, body = section.partition(": ")
        if ", " in body:
            body = " ".join(f"[{card}]" for card in body.split(", "))
        else:
            body = PLAYING_CARD.sub(lambda match: match[1] + SUIT_SYMBOLS[match[2]], body)
        lines.append(f"{name:<17} {body}" if body else name)
    return "\n".join(lines)


def run_tui(session: PlaySession, samples: int = 200) -> PlaySession:
    """Play in the terminal until the player quits; the session holds the moves played."""
    PlayApp(session, samples).run()
    return session
