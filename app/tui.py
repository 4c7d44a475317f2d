"""The full-screen game of `usurper play` (Textual): the position (King's Reign as its board),
the legal moves to choose from with the keyboard, undo and redo, and on request a
clairvoyant hint, a fair hint or the verdict of the position.

Nothing blocks: hints, verdicts and the end-of-game comparison with the deal's optimum run
in a child process (app.background), the status line shows that work is going on, Esc
cancels it and q quits at once (after a confirmation while a game is in progress).

Only the play command imports this module, so Textual is needed only to play; the game
itself is an app.play.PlaySession, the same one the line-by-line game (--plain) drives.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from app.background import Job
from app.play import FAIR_SECONDS, PlaySession
from solver.fair import FAIR_SAMPLES

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
PLAYING_CARD = re.compile(r"\b(10|[2-9AJQK])([CDHS])\b")
POLL_SECONDS = 0.1
KEYS_HELP = ("Keys: arrows or a move's number, then Enter, play a move; u undo, r redo; "
             "h hint (reads the deal), f fair hint (sees what you see), v verdict and review (reads the deal); "
             "Esc cancels a hint under way; ? this help; q quit.")


class PlayApp(App):
    """One deal: the position on top, the moves below it, a status line, advice at the bottom."""

    TITLE = "Usurper"
    CSS = """
    #position { padding: 1 2; border: round $accent; height: auto; }
    #moves { height: 1fr; border: round $primary; }
    #status { padding: 0 2; height: 1; }
    #advice { padding: 0 2; height: auto; min-height: 3; border: round $secondary; }
    """
    BINDINGS = [
        Binding("u", "undo", "Undo"),
        Binding("r", "redo", "Redo"),
        Binding("h", "hint", "Hint (reads the deal)"),
        Binding("f", "fair", "Fair hint"),
        Binding("v", "verdict", "Verdict (reads the deal)"),
        Binding("escape", "cancel", "Cancel"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "quit_game", "Quit"),
    ]

    def __init__(self, session: PlaySession, samples: int = FAIR_SAMPLES, fair_time_limit: float | None = FAIR_SECONDS):
        super().__init__()
        self.session = session
        self.samples = samples
        self.fair_time_limit = fair_time_limit
        self.typed_number = ""       # digits typed so far: jump to that move
        self.job: Job | None = None  # the work under way, if any
        self.on_done: Callable[[Any], None] | None = None
        self.quit_asked = False

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="position", markup=False)
        yield OptionList(id="moves")
        yield Static("", id="status", markup=False)
        yield Static("Choose a move with the arrows (or type its number) and Enter; ? for help.", id="advice",
                     markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"{self.session.game.name} ({self.session.game.variant})"
        self.refresh_position()
        self.query_one("#moves", OptionList).focus()
        self.set_interval(POLL_SECONDS, self.poll_job)

    # ----- showing the game ---------------------------------------------------------------
    def refresh_position(self) -> None:
        session = self.session
        self.query_one("#position", Static).update(position_text(session))
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        moves.add_options([Option(f"{number:2d}. {with_symbols(words)}")
                           for number, (_, words) in enumerate(session.legal(), 1)])
        if session.legal():
            moves.highlighted = 0
        if session.outcome() is not None:
            self.start_job("comparing with the deal's best", session.end_report,
                           lambda report: self.advise([report, f"moves: {session.line_text()}"]))

    def advise(self, lines: list[str]) -> None:
        self.query_one("#advice", Static).update(with_symbols("\n".join(lines)))

    def say(self, text: str) -> None:
        self.query_one("#status", Static).update(with_symbols(text))

    # ----- work in the background -----------------------------------------------------------
    def start_job(self, label: str, work: Callable[[], Any], on_done: Callable[[Any], None],
                  expected_seconds: float | None = None) -> None:
        self.action_cancel()
        self.job, self.on_done = Job(label, work, expected_seconds), on_done
        self.say(self.job.status())

    def poll_job(self) -> None:
        job = self.job
        if job is None:
            return
        if not job.finished():
            self.say(job.status())
            return
        self.job = None
        try:
            value = job.result()
        except RuntimeError as exc:
            self.say(f"{job.label}: {exc}")
            return
        self.say(f"{job.label}: done in {job.elapsed:.1f} s")
        if self.on_done is not None:
            self.on_done(value)

    # ----- actions --------------------------------------------------------------------------
    def on_key(self, event: events.Key) -> None:
        """Digits pick a move by its number (`1`, `2` highlights move 12), Enter plays it; a
        second q (or y) confirms quitting, any other key takes the question back."""
        if self.quit_asked and event.key not in ("q", "y"):
            self.quit_asked = False
            self.say("going on")
            event.stop()
            return
        if self.quit_asked and event.key == "y":
            event.stop()
            self.action_quit_game()
            return
        if not (event.character or "").isdigit():
            return
        count = len(self.session.legal())
        typed = self.typed_number + event.character
        if not 1 <= int(typed) <= count:
            typed = event.character
        if 1 <= int(typed) <= count:
            self.query_one("#moves", OptionList).highlighted = int(typed) - 1
            self.say(f"move {typed}: Enter plays it")
        else:
            self.say(f"no move {typed} (1 to {count})")
        self.typed_number = typed
        event.stop()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.typed_number = ""
        move, words = self.session.legal()[event.option_index]
        self.action_cancel()
        self.session.play(move)
        self.moved(f"played: {words}")

    def action_undo(self) -> None:
        if self.session.undo():
            self.moved("undone")

    def action_redo(self) -> None:
        if self.session.redo():
            self.moved("redone")

    def moved(self, what: str) -> None:
        """After the position changed: work under way is for the old one; show the new one."""
        self.action_cancel()
        self.advise([])
        self.say(what)
        self.refresh_position()

    def action_hint(self) -> None:
        if self.session.outcome() is None:
            self.start_job("hint (reads the deal)", self.session.clairvoyant_hint, self.advise,
                           self.session.budget.time_limit)

    def action_fair(self) -> None:
        if self.session.outcome() is None:
            samples, limit = self.samples, self.fair_time_limit
            self.start_job("fair hint", lambda: self.session.fair_hint(samples, limit), self.advise, limit)

    def action_verdict(self) -> None:
        self.start_job("verdict and review", self.session.verdict_and_review, self.advise,
                       self.session.budget.time_limit)

    def action_cancel(self) -> None:
        if self.job is not None:
            self.job.cancel()
            self.say(f"{self.job.label}: cancelled")
            self.job = None

    def action_help(self) -> None:
        legend = self.session.game.legend()
        self.advise([KEYS_HELP, *([legend] if legend else [])])

    def action_quit_game(self) -> None:
        """Quit at once when nothing is lost (no move played, or the game over); else ask."""
        in_progress = self.session.played and self.session.outcome() is None
        if in_progress and not self.quit_asked:
            self.quit_asked = True
            self.say("quit the game in progress? q or y quits, any other key goes on")
            return
        self.action_cancel()
        self.exit()


def position_text(session: PlaySession) -> str:
    """The game's own drawing where it has one (King's Reign's board), else the visible rows."""
    game, state = session.game, session.state
    drawing = game.render(state, reveal=False)
    if drawing != game.describe(state):
        return with_symbols(drawing)
    return render_rows(session.position())


def with_symbols(text: str) -> str:
    """Playing cards with their suit symbols (`QC` -> `Q♣`), the same in every pane."""
    return PLAYING_CARD.sub(lambda match: match[1] + SUIT_SYMBOLS[match[2]], text)


def render_rows(position: str) -> str:
    """One row a line: Decktet cards in brackets (`Capital    [Origin] [Sailor]`), playing
    cards with their suit symbols (`QC[A7:7D D3:3C]` -> `Q♣[A7:7♦ D3:3♣]`)."""
    lines = []
    for section in position.split("; "):
        name, _, body = section.partition(": ")
        if ", " in body:
            body = " ".join(f"[{card}]" for card in body.split(", "))
        else:
            body = with_symbols(body)
        lines.append(f"{name:<17} {body}" if body else name)
    return "\n".join(lines)


def run_tui(session: PlaySession, samples: int = FAIR_SAMPLES) -> PlaySession:
    """Play in the terminal until the player quits; the session holds the moves played."""
    PlayApp(session, samples).run()
    return session
