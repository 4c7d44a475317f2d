"""The full-screen game of `usurper play` (Textual): the position (King's Reign as its board),
the legal moves to choose from with the keyboard, undo and redo, and on request a
clairvoyant hint, a fair hint or the verdict of the position; Devil's Throne has its own
screen on the same frame (usurper/app/throne_screen.py).

Nothing blocks: hints, verdicts and the end-of-game comparison with the deal's optimum run
in a child process (usurper.app.background); their progress is shown on the advice pane's border,
so it never covers the status line, where a question (quit?) and the answer to the last
key stay until the next key.  Esc cancels the work, q quits at once (after a confirmation
while a game is in progress).

Only the play command imports this module, so Textual is needed only to play; the game
itself is a usurper.app.play.PlaySession, the same one the line-by-line game (--plain) drives.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Any

from rich.console import Console
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from games.base import DECKTET_SUIT_SYMBOLS, SUIT_SYMBOLS, UsurperError
from solver.fair import FAIR_SAMPLES, move_words
from usurper.app.background import Job
from usurper.app.play import FAIR_SECONDS, PlaySession

PLAYING_CARD = re.compile(r"\b(10|[2-9AJQK])([CDHS])\b")
POLL_SECONDS = 0.1
#: The smallest terminal (columns, lines) the full screen is drawn for; below it the screen
#: says so instead of drawing a game that does not fit.
MIN_SIZE = (80, 24)
#: Rows of the move list kept visible whatever the position and the advice need.
MOVES_ROWS = 5
KEYS_HELP = ("Keys: arrows or a move's number, then Enter, play a move; : type a move in notation; "
             "u undo, r redo; h hint (reads the deal), f fair hint (sees what you see), "
             "v verdict and review (reads the deal); "
             "Esc cancels a hint under way; ? this help; q quit.")
HINT_MARK = "  ◀ hint"


class Frame(Vertical):
    """Everything above the footer; told first when the terminal's size changes."""

    def on_resize(self, event: events.Resize) -> None:
        self.app.fit_panes()


class GameApp(App):
    """The frame every game's screen shares: the position on top, a middle part (the moves),
    the advice below it, a status line; work in the background, the quit question, the
    note shown when the terminal is too small.  Subclasses fill in the game."""

    TITLE = "Usurper"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #frame, #game { height: 1fr; }
    #too-small { display: none; height: 1fr; padding: 1 2; content-align: center middle; }
    #position { padding: 0 1; border: round $accent; height: auto; overflow-y: auto; }
    #middle { height: 1fr; }
    #moves { height: 1fr; border: round $primary; }
    #advice { padding: 0 1; height: auto; border: round $secondary; overflow-y: auto; }
    #status { padding: 0 1; height: 1; }
    #typed { display: none; height: 3; }
    """
    BINDINGS = [
        Binding("h", "hint", "Hint"),
        Binding("escape", "cancel", "Cancel"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "quit_game", "Quit"),
    ]
    FIRST_ADVICE = ""

    def __init__(self) -> None:
        super().__init__()
        self.job: Job | None = None  # the advice under way, if any
        self.on_done: Callable[[Any], None] | None = None
        self.quit_asked = False
        self.message = ""            # the answer to the last key, kept until the next one

    # ----- layout ---------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Frame(id="frame"):
            with Vertical(id="game"):
                yield Static(id="position", markup=False)
                yield from self.compose_middle()
                yield Static(self.FIRST_ADVICE, id="advice", markup=False)
                yield Input(id="typed", placeholder="a move in notation, Enter plays it, Esc goes back")
                yield Static("", id="status", markup=False)
            yield Static("", id="too-small", markup=False)
        yield Footer()

    def compose_middle(self) -> ComposeResult:
        yield OptionList(id="moves")

    def on_mount(self) -> None:
        self.query_one("#position").border_title = self.heading()
        self.query_one("#moves", OptionList).focus()
        self.set_interval(POLL_SECONDS, self.poll_jobs)
        self.show_game()

    def heading(self) -> str:
        raise NotImplementedError

    def fit_panes(self) -> None:
        """Below MIN_SIZE a note instead of the game; else the position and the advice take
        what they need, as far as the move list keeps MOVES_ROWS rows."""
        width, height = self.size
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        self.query_one("#game").display = not small
        note = self.query_one("#too-small", Static)
        note.display = small
        if small:
            note.update(f"The terminal is {width}x{height}; this game is drawn for {MIN_SIZE[0]}x{MIN_SIZE[1]} "
                        "or more.  Enlarge it, or press q and play with --plain.")
            return
        typed = 3 if self.query_one("#typed").display else 0
        room = height - 1 - 1 - typed - (MOVES_ROWS + 2)  # footer, status, the typed move, the moves
        position, advice = self.query_one("#position", Static), self.query_one("#advice", Static)
        wanted_position = _rows_needed(position, width)
        position.styles.height = min(wanted_position, max(3, room - 3))
        advice.styles.height = max(3, min(_rows_needed(advice, width), room - position.styles.height.value))

    # ----- the status line and the advice -----------------------------------------------------
    def say(self, text: str) -> None:
        self.message = text
        self.show_status()

    def show_status(self) -> None:
        question = "quit the game in progress? q or y quits, any other key goes on" if self.quit_asked else ""
        self.query_one("#status", Static).update(with_symbols(question or self.message))

    def advise(self, lines: list[str]) -> None:
        self.query_one("#advice", Static).update(with_symbols("\n".join(lines)))
        self.fit_panes()

    def show_progress(self, text: str) -> None:
        """Work under way is shown on the advice pane's border: never over a question."""
        self.query_one("#advice").border_title = text

    # ----- work in the background -----------------------------------------------------------
    def start_job(self, label: str, work: Callable[[], Any], on_done: Callable[[Any], None],
                  expected_seconds: float | None = None) -> None:
        self.action_cancel()
        self.job, self.on_done = Job(label, work, expected_seconds), on_done
        self.show_progress(self.job.status())

    def poll_jobs(self) -> None:
        job = self.job
        if job is None:
            return
        if not job.finished():
            self.show_progress(job.status())
            return
        self.job = None
        try:
            value = job.result()
        except RuntimeError as exc:
            self.show_progress(f"{job.label}: {exc}")
            return
        self.show_progress(f"{job.label}: done in {job.elapsed:.1f} s")
        if self.on_done is not None:
            self.on_done(value)

    def action_cancel(self) -> None:
        if self.job is not None:
            self.job.cancel()
            self.show_progress(f"{self.job.label}: cancelled")
            self.job = None

    # ----- keys -----------------------------------------------------------------------------
    def on_key(self, event: events.Key) -> None:
        """A second q (or y) confirms quitting; Esc takes the question back; any other key
        takes it back too and then does what it always does (no key is lost)."""
        if self.focused is self.query_one("#typed"):
            return
        if self.quit_asked and event.key == "y":
            event.stop()
            self.action_quit_game()
            return
        if self.quit_asked and event.key != "q":
            self.quit_asked = False
            self.say("going on")
            if event.key == "escape":
                event.stop()
                return
        if event.character and self.typed_key(event.character):
            event.stop()

    def typed_key(self, character: str) -> bool:
        """A key that names a move (a digit, a rank); True when it was one."""
        return False

    def in_progress(self) -> bool:
        raise NotImplementedError

    def action_quit_game(self) -> None:
        """Quit at once when nothing is lost (no move played, or the game over); else ask."""
        if self.in_progress() and not self.quit_asked:
            self.quit_asked = True
            self.show_status()
            return
        self.stop_work()
        self.exit()

    def stop_work(self) -> None:
        self.action_cancel()

    def show_game(self) -> None:
        raise NotImplementedError


class PlayApp(GameApp):
    """One deal of a solitaire: the position, its legal moves, hints, undo and redo."""

    BINDINGS = [
        *GameApp.BINDINGS,
        Binding("u", "undo", "Undo"),
        Binding("r", "redo", "Redo"),
        Binding("f", "fair", "Fair hint"),
        Binding("v", "verdict", "Verdict"),
        Binding("colon", "type_move", "Type a move"),
    ]
    FIRST_ADVICE = "Choose a move with the arrows (or type its number) and Enter; ? for help."

    def __init__(self, session: PlaySession, samples: int = FAIR_SAMPLES, fair_time_limit: float | None = FAIR_SECONDS):
        super().__init__()
        self.session = session
        self.samples = samples
        self.fair_time_limit = fair_time_limit
        self.typed_number = ""       # digits typed so far: jump to that move
        self.hinted: Any = None      # the move the last hint advised, marked in the list

    def heading(self) -> str:
        return f"{self.session.game.name} ({self.session.game.variant})"

    def in_progress(self) -> bool:
        return bool(self.session.played) and self.session.outcome() is None

    # ----- showing the game ---------------------------------------------------------------
    def show_game(self) -> None:
        session = self.session
        self.query_one("#position", Static).update(position_text(session))
        self.query_one("#position").border_subtitle = f"move {len(session.played) + 1}"
        self.show_moves()
        self.fit_panes()
        if session.outcome() is not None:
            self.query_one("#position").border_subtitle = "game over"
            self.start_job("comparing with the deal's best", session.end_report,
                           lambda report: self.advise([report, f"moves: {session.line_text()}"]))

    def show_moves(self, same_position: bool = False) -> None:
        """The legal moves, the hinted one marked; the highlight kept on the same position."""
        moves = self.query_one("#moves", OptionList)
        highlighted = moves.highlighted if same_position else None
        moves.clear_options()
        legal = self.session.legal()
        moves.add_options([Option(f"{number:2d}. {with_symbols(words)}" + (HINT_MARK if move == self.hinted else ""))
                           for number, (move, words) in enumerate(legal, 1)])
        if legal:
            moves.highlighted = highlighted if highlighted is not None and highlighted < len(legal) else 0

    def typed_key(self, character: str) -> bool:
        """Digits pick a move by its number (`1`, `2` highlights move 12), Enter plays it."""
        if not character.isdigit():
            return False
        count = len(self.session.legal())
        if count == 0:
            self.say("the game is over: u takes a move back, q quits")
            return True
        typed = self.typed_number + character
        if not 1 <= int(typed) <= count:
            typed = character
        if 1 <= int(typed) <= count:
            self.query_one("#moves", OptionList).highlighted = int(typed) - 1
            self.say(f"move {typed}: Enter plays it")
        else:
            self.say(f"no move {typed} (1 to {count})")
        self.typed_number = typed
        return True

    # ----- actions --------------------------------------------------------------------------
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.typed_number = ""
        move, words = self.session.legal()[event.option_index]
        self.session.play(move)
        self.moved(f"played: {words}")

    def action_type_move(self) -> None:
        typed = self.query_one("#typed", Input)
        typed.display = True
        typed.value = ""
        typed.focus()
        self.fit_panes()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self.close_typed()
        if not text:
            return
        before = self.session.state
        try:
            move = self.session.play_text(text)
        except UsurperError as exc:
            self.say(f"error: {exc}")
            return
        self.moved(f"played: {move_words(self.session.game, before, move)}")

    def close_typed(self) -> None:
        typed = self.query_one("#typed", Input)
        typed.display = False
        self.query_one("#moves", OptionList).focus()
        self.fit_panes()

    def action_cancel(self) -> None:
        if self.focused is self.query_one("#typed"):
            self.close_typed()
            return
        super().action_cancel()

    def action_undo(self) -> None:
        if self.session.undo():
            self.moved("undone")
        else:
            self.say("nothing to undo")

    def action_redo(self) -> None:
        if self.session.redo():
            self.moved("redone")
        else:
            self.say("nothing to redo")

    def moved(self, what: str) -> None:
        """After the position changed: work under way is for the old one; show the new one."""
        self.action_cancel()
        self.hinted = None
        self.advise([])
        self.say(what)
        self.show_game()

    def hinted_advice(self, found: tuple[Any, list[str]]) -> None:
        """A hint's words in the advice pane, its move marked in the list."""
        self.hinted, lines = found
        self.advise(lines)
        self.show_moves(same_position=True)

    def action_hint(self) -> None:
        if self.session.outcome() is None:
            self.start_job("hint (reads the deal)", self.session.clairvoyant_advice, self.hinted_advice,
                           self.session.budget.time_limit)

    def action_fair(self) -> None:
        if self.session.outcome() is None:
            samples, limit = self.samples, self.fair_time_limit
            self.start_job("fair hint", lambda: self.session.fair_advice(samples, limit), self.hinted_advice, limit)

    def action_verdict(self) -> None:
        self.start_job("verdict and review", self.session.verdict_and_review, self.advise,
                       self.session.budget.time_limit)

    def action_help(self) -> None:
        legend = self.session.game.legend()
        self.advise([KEYS_HELP, *([legend] if legend else [])])


def _rows_needed(pane: Widget, width: int) -> int:
    """The rows `pane` needs at the screen's `width`: its text wrapped, border and padding."""
    inner = width - pane.styles.gutter.width
    return pane.get_content_height(Size(width, 1000), Size(width, 1000), inner) + pane.styles.gutter.height


def screen_text(app: App) -> str:
    """The screen as plain text, one line a row (the captures in docs/play.md)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True, record=True,
                      legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return "\n".join(line.rstrip() for line in console.export_text().splitlines())


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
    """One row a line: Decktet cards in brackets (`Capital    [Origin 2 ≈❦] [Sailor 4 ≈❦]`),
    playing cards with their suit symbols (`QC[A7:7D D3:3C]` -> `Q♣[A7:7♦ D3:3♣]`)."""
    lines = []
    for section in position.split("; "):
        name, _, body = section.partition(": ")
        if ", " in body or body[-1:] in DECKTET_SUIT_SYMBOLS.values():  # a row of Decktet cards, or one
            body = " ".join(f"[{card}]" for card in body.split(", "))
        else:
            body = with_symbols(body)
        lines.append(f"{name:<17} {body}" if body else name)
    return "\n".join(lines)


def run_tui(session: PlaySession, samples: int = FAIR_SAMPLES) -> PlaySession:
    """Play in the terminal until the player quits; the session holds the moves played."""
    PlayApp(session, samples).run()
    return session
