"""Devil's Throne in the full screen: the seats as a board (hands, reserves, tricks, this
round's cards and totals, the pool), your actions to choose from, the reveals as they
happen, on the frame the solitaires share (usurper/app/tui.py: the quit question, progress on the
advice pane's border, the note below the minimum size).

Keys: a rank (`1` or `a` the ace, `2`-`9`, `1` `0` or `t` the 10, `j`, `Q` (capital: `q`
quits), `k`) or at a target choice a seat number (`2` is `@2`) or `p` (pass) highlights that
action, Enter plays it; a rank not held is refused on the status line.  The bots' choices
and the hint are computed in a child process (usurper.app.background), so no key waits for them.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import OptionList, RichLog, Static
from textual.widgets.option_list import Option

from games.base import UsurperError
from usurper.app.background import Job
from usurper.app.bots import HINT_SECONDS, ThroneSession, end_lines, hint_lines
from usurper.app.tui import GameApp

KEYS_HELP = ("Keys: a rank (1 or a the ace, 2-9, 10 or t, j, Q capital, k) or at a target choice "
             "the seat's number (p pass), or the arrows; Enter plays it.  h hint (open deal), "
             "u undo your last choice, Esc cancels the hint, ? this help, q quit.")


class ThroneApp(GameApp):
    """One deal of Devil's Throne: you at one seat, bots at the others."""

    CSS = GameApp.CSS + """
    #moves { width: 18; }
    #log { width: 1fr; border: round $primary; }
    """
    BINDINGS = [*GameApp.BINDINGS, Binding("u", "undo", "Undo")]
    FIRST_ADVICE = "Type a rank (or use the arrows) and Enter; ? for the keys and the cards."

    def __init__(self, session: ThroneSession):
        super().__init__()
        self.session = session
        self.bots_job: Job | None = None  # the bots choosing at this node
        self.chosen: dict[int, Any] = {}  # the person's choice, waiting for the bots'
        self.typed = ""                   # keys typed so far (`1` then `0` is the 10)

    def compose_middle(self) -> ComposeResult:
        with Horizontal(id="middle"):
            yield OptionList(id="moves")
            yield RichLog(id="log", wrap=True, markup=False, min_width=20)

    def heading(self) -> str:
        game, session = self.session.game, self.session
        return f"{game.name} ({game.variant}): you are seat {session.seat + 1}"

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#moves").border_title = "your choice"
        self.query_one("#log").border_title = "reveals"
        log = self.query_one("#log", RichLog)
        for reveal in self.session.reveals:
            log.write(reveal)
        self.advance()

    def in_progress(self) -> bool:
        return self.session.in_progress()

    # ----- the game going on --------------------------------------------------------------
    def advance(self) -> None:
        """Show the node; where only bots act, let them choose (in the background)."""
        self.show_game()
        session = self.session
        if session.over():
            self.advise(end_lines(session.game, session.state) + [f"moves: {session.line_text()}"])
            return
        if not session.person_acts():
            self.bots_choose()

    def bots_choose(self) -> None:
        self.bots_job = Job("the bots choose", self.session.bot_turn)
        self.query_one("#log").border_subtitle = "the bots choose..."

    def poll_jobs(self) -> None:
        super().poll_jobs()
        job = self.bots_job
        if job is None or not job.finished():
            return
        self.bots_job = None
        self.query_one("#log").border_subtitle = ""
        try:
            choices, notes, rng_state = job.result()
        except RuntimeError as exc:
            self.say(f"the bots: {exc}")
            return
        log = self.query_one("#log", RichLog)
        for note in notes:
            log.write(note)
        log.write(self.session.play({**self.chosen, **choices}, rng_state))
        self.chosen = {}
        self.advise([])
        self.advance()

    def show_game(self) -> None:
        self.query_one("#position", Static).update(board_text(self.session))
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        actions = [] if self.chosen else self.session.actions()
        moves.add_options([Option(text) for _, text in actions])
        if actions:
            moves.highlighted = 0
        self.fit_panes()

    # ----- keys ---------------------------------------------------------------------------
    def typed_key(self, character: str) -> bool:
        """A rank or a seat highlights that action; a rank not held is refused."""
        actions = self.session.actions()
        if not actions or self.chosen:
            if character.isdigit():
                self.say("the game is over: u takes your last choice back, q quits" if self.session.over()
                         else "the bots are choosing: wait for your turn")
                return True
            return False
        if character not in self.session.game.action_keys(self.session.state):
            return False
        word = self.typed + character if character == "0" and self.typed == "1" else character
        word = "pass" if word in "pP" else word
        self.typed = word
        try:
            action = self.session.read(word)
        except UsurperError as exc:
            self.say(str(exc))
            return True
        index = [a for a, _ in actions].index(action)
        self.query_one("#moves", OptionList).highlighted = index
        self.say(f"{actions[index][1]}: Enter plays it")
        return True

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.typed = ""
        actions = self.session.actions()
        if self.chosen or not actions:
            return
        action, text = actions[event.option_index]
        self.action_cancel()
        self.advise([])
        self.chosen = {self.session.seat: action}
        self.say(f"you chose {text}")
        if set(self.session.game.acting_players(self.session.state)) == {self.session.seat}:
            reveal = self.session.play(self.chosen)
            self.chosen = {}
            self.query_one("#log", RichLog).write(reveal)
            self.advance()
            return
        self.show_game()
        self.bots_choose()

    def action_undo(self) -> None:
        self.stop_bots()
        if self.session.undo():
            self.query_one("#log", RichLog).write(self.session.reveals[-1])
            self.action_cancel()
            self.advise([])
            self.say("undone")
            self.advance()
        else:
            self.say("nothing to undo")
            if not self.session.over() and not self.session.person_acts():
                self.bots_choose()

    def stop_bots(self) -> None:
        if self.bots_job is not None:
            self.bots_job.cancel()
            self.bots_job = None
        self.chosen = {}

    def stop_work(self) -> None:
        self.stop_bots()
        super().stop_work()

    def action_hint(self) -> None:
        session = self.session
        if not session.person_acts() or self.chosen:
            self.say("no choice of yours here: no hint")
            return
        game, state, seat = session.game, session.state, session.seat
        self.start_job("hint (open deal)", lambda: hint_lines(game, state, seat), self.advise, HINT_SECONDS)

    def action_help(self) -> None:
        self.advise([KEYS_HELP, self.session.game.legend()])


def board_text(session: ThroneSession) -> str:
    """The table as the person's seat sees it (the game's own board)."""
    return session.game.board(session.state, session.seat)


def run_throne(session: ThroneSession) -> None:
    """Devil's Throne in the terminal until the player quits."""
    ThroneApp(session).run()
