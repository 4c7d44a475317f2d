"""Bots for simultaneous-move games (Devil's Throne), and the plain loop that plays a person
against them.

A bot is a function `(game, state, seat, rng) -> action` that picks one action for `seat`
at a node where that seat acts.  The game is played open-deal (spec §7, [R21]): the
position line shows every hand, so a bot may read them too.

- `random`: a uniform legal action, drawn from the loop's seeded rng.
- `greedy`: the game's own simple policy (`greedy_action`, documented by each game: Devil's
  Throne's in games/devils_throne/game.py), deterministic.
- `equilibrium` (two players only): the Q4 mix of solver.simultaneous at this node for the
  bot's seat, sampled with the rng.  Each node's solve has a time limit (EQUILIBRIUM_SECONDS
  by default); where it is undecided in time (typically the first round or two, which need
  ~10 s) the bot plays `greedy` there instead, and says so.

`run_plain_simultaneous` is the text loop of `usurper play` for such games.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TextIO

from games.base import Game, SimultaneousGame, UsurperError
from solver.analysis import SeatQuestions, analyse
from solver.answers import Budget
from usurper.app.play import printer

Bot = Callable[[Game, Any, int, random.Random], Any]
BOTS = ("random", "greedy", "equilibrium")
#: Seconds of Q4 search per node for the equilibrium bot: short enough to play at a table,
#: long enough to decide every node after the first round or two of a two-player deal.
EQUILIBRIUM_SECONDS = 2.0
#: The equilibrium bot's table cap: a per-node solve needs far less than a full analysis.
EQUILIBRIUM_MEMORY_MB = 512
#: Quit words, matched case-sensitively: the queen's notation is Q.
QUIT_WORDS = ("q", "quit")
PLAIN_HELP = ("type your action: a rank (A or 1, 2-10 or T, J, Q, K), a target seat (@2 or 2) or pass; "
              "#n picks the n-th listed; h hint (open-deal advice), u undo your last choice, ? help, "
              "q (lower case) quits")
#: Seconds of the open-deal hint a person asks for with h.
HINT_SECONDS = 10.0


def random_bot(game: Game, state: Any, seat: int, rng: random.Random) -> Any:
    """A uniform legal action."""
    return rng.choice(game.legal_actions(state, seat))


def greedy_bot(game: SimultaneousGame, state: Any, seat: int, rng: random.Random) -> Any:
    """The game's greedy rule (the rng is unused: the rule is deterministic)."""
    return game.greedy_action(state, seat)


class EquilibriumBot:
    """Samples the node's Q4 mix for its seat; greedy where the solve is undecided in time.
    `note` says how the last action was chosen (the loop prints it)."""

    def __init__(self, time_limit: float = EQUILIBRIUM_SECONDS):
        self.time_limit = time_limit
        self.note = ""

    def mix(self, game: Game, state: Any, seat: int) -> dict[str, float] | None:
        """The seat's equilibrium mix here (action text -> probability), None if undecided."""
        budget = Budget(time_limit=self.time_limit, max_memory_mb=EQUILIBRIUM_MEMORY_MB)
        return analyse(game, state, SeatQuestions(seat, ("q4",)), budget).answers["q4"].strategy

    def __call__(self, game: Game, state: Any, seat: int, rng: random.Random) -> Any:
        mix = self.mix(game, state, seat)
        if not mix:
            self.note = f"equilibrium undecided in {self.time_limit:g} s: greedy"
            return greedy_bot(game, state, seat, rng)
        by_text = {game.format_action(state, a): a for a in game.legal_actions(state, seat)}
        texts = list(mix)
        self.note = "equilibrium: " + ", ".join(f"{text} {mix[text]:.2f}" for text in texts)
        return by_text[rng.choices(texts, weights=[mix[t] for t in texts])[0]]


def make_bot(name: str, players: int, time_limit: float = EQUILIBRIUM_SECONDS) -> Bot:
    """The named bot; `equilibrium` needs two players (Q4 is a two-player value)."""
    if name == "random":
        return random_bot
    if name == "greedy":
        return greedy_bot
    if name == "equilibrium":
        if players != 2:
            raise UsurperError(f"the equilibrium bot needs two players, not {players} (use greedy or random)")
        return EquilibriumBot(time_limit)
    raise UsurperError(f"unknown bot {name!r} (known: {', '.join(BOTS)})")


def default_bot(players: int) -> str:
    return "equilibrium" if players == 2 else "greedy"


def make_bots(game: Game, state: Any, human_seat: int, name: str | None = None,
              time_limit: float = EQUILIBRIUM_SECONDS) -> dict[int, Bot]:
    """One bot a seat other than the person's (0-based `human_seat`), all of kind `name`
    (None: equilibrium for two players, else greedy)."""
    players = len(game.returns(state))
    if not 0 <= human_seat < players:
        raise UsurperError(f"seat {human_seat + 1} is not in a {players}-player game (seats 1-{players})")
    name = name or default_bot(players)
    # One object per seat: an EquilibriumBot keeps its own note.
    return {seat: make_bot(name, players, time_limit) for seat in range(players) if seat != human_seat}


def run_plain_simultaneous(game: Game, state: Any, human_seat: int, bots: dict[int, Bot], stdin: TextIO,
                           stdout: TextIO, rng: random.Random, played: Sequence[Any] = ()) -> Any:
    """Play `human_seat` (0-based) from stdin against `bots`: per node one position line;
    where the person acts, their numbered actions and one line read; then the reveal of
    every acting seat's action.  Ends at the game's end (returns and outcomes printed),
    at `q` or at the end of input; returns the last state.  `played`: joint moves already
    played from `state` (`--moves`), counted and printed in the line at the end."""
    say = printer(stdout)
    _check_bots(game, state, human_seat, bots)
    say(f"{game.name} ({game.variant}): you are seat {human_seat + 1}; {PLAIN_HELP}")
    states = states_along(game, state, played)
    lines, node = iter(stdin), len(played)
    played = [game.format_move(before, move) for before, move in zip(states, played)]
    state = states[-1]
    decisions: list[tuple[Any, int, int]] = []  # (state, node, moves played) where the person chose
    hints: dict[Any, list[str]] = {}  # a node's hint, asked again (or after an undo) at once
    while not game.is_over(state):
        node += 1
        say(f"[{node}] {game.describe(state)}")
        acting = game.acting_players(state)
        choices = {}
        if human_seat in acting:
            answer = _ask(game, state, human_seat, lines, say, in_progress=bool(played), hints=hints)
            if answer == UNDO:
                if not decisions:
                    say("nothing to undo")
                    node -= 1
                    continue
                state, node, kept = decisions.pop()
                del played[kept:]
                node -= 1
                say("undone: back to your last choice")
                continue
            if answer is None:
                if played:  # what was played, in a form `usurper verify` takes, as the solitaires say
                    say(f"moves so far: {'; '.join(played)}")
                return state
            decisions.append((state, node, len(played)))
            choices[human_seat] = answer
        for seat in acting:
            if seat != human_seat:
                choices[seat] = _bot_choice(game, state, seat, bots[seat], rng, say)
        move = tuple(choices[seat] for seat in acting)
        say("reveal: " + ", ".join(f"seat {seat + 1} {game.format_action(state, choices[seat])}" for seat in acting)
            + ("" if human_seat in acting else " (you do not act here)"))
        played.append(game.format_move(state, move))
        state = game.apply_joint(state, move)
    _report_end(game, state, played, say)
    return state


# ----- helpers ----------------------------------------------------------------------------
UNDO = object()


def _ask(game: Game, state: Any, seat: int, lines: Iterator[str], say, in_progress: bool,
         hints: dict[Any, list[str]]) -> Any | None:
    """The person's action, re-asked after a bad line or a hint (kept in `hints` by node);
    UNDO at u; None at a confirmed q or the end of input."""
    actions = game.legal_actions(state, seat)
    say(f"your actions (#1 to #{len(actions)} in this order): "
        + "  ".join(game.format_action(state, action) for action in actions))
    for line in lines:
        word = line.strip()
        if word in QUIT_WORDS:  # lower case only: a capital Q is the queen
            if not in_progress or _confirmed(lines, say):
                say("(quit; the game is not over)")
                return None
            continue
        if word in ("u", "undo"):
            return UNDO
        if word in ("h", "hint"):
            if state not in hints:
                hint = _stoppable_hint(game, state, seat, say)
                if hint is None:
                    say("hint stopped; choose your action")
                    continue
                hints[state] = hint
            for text in hints[state]:
                say(text)
            continue
        if word in ("?", "help"):
            say(PLAIN_HELP)
            say(game.legend())
            continue
        try:
            return read_action(game, state, seat, word)
        except UsurperError as exc:
            say(f"error: {exc}")
    say("(end of input; the game is not over)")
    return None


def _stoppable_hint(game: Game, state: Any, seat: int, say) -> list[str] | None:
    """`hint_lines`, announced first (it may take HINT_SECONDS), or None where Ctrl-C
    stopped it, which brings the person back to their choice instead of ending the game."""
    try:  # the announcement inside: a Ctrl-C the moment it is seen still stops the hint alone
        say(f"thinking: open-deal advice for up to {HINT_SECONDS:g} s (Ctrl-C stops it)")
        return hint_lines(game, state, seat)
    except KeyboardInterrupt:
        return None


def hint_lines(game: Game, state: Any, seat: int, seconds: float = HINT_SECONDS) -> list[str]:
    """Open-deal advice for `seat` at this node: for two players its equilibrium mix (Q4),
    for more `coalition_advice`.  Labelled: it reads every hand and reserve, as the
    open-deal values do."""
    label = "hint (open deal: it reads every hand and reserve)"
    if len(game.returns(state)) == 2:
        budget = Budget(time_limit=seconds, max_memory_mb=EQUILIBRIUM_MEMORY_MB)
        answer = analyse(game, state, SeatQuestions(seat, ("q4",)), budget).answers["q4"]
        if not answer.strategy:
            return [f"{label}: the equilibrium is undecided in {seconds:g} s ({answer.exhausted} ran out); "
                    f"{greedy_fallback(game, state, seat)[0]}"]
        return [f"{label}: play {mix_text(answer.strategy)} (the equilibrium mix;"
                f" value {answer.margin:+.2f} cards of margin)"]
    return [f"{label}: {coalition_advice(game, state, seat, seconds)[0]}"]


def coalition_advice(game: Game, state: Any, seat: int, seconds: float) -> tuple[str, dict]:
    """Advice for `seat` at a table of three or more, the others taken as one side against
    it, in words and as data: half the time for the move that guarantees P the best margin
    when the others see P's card first (Q2), half for P's mix when they mix as one (Q5,
    said only where decided: endings of deals); where Q2 is not decided in its time, its
    interval and the game's greedy move, named as such."""
    budget = Budget(time_limit=seconds / 2, max_memory_mb=EQUILIBRIUM_MEMORY_MB)
    q2 = analyse(game, state, SeatQuestions(seat, ("q2",)), budget).answers["q2"]
    q5 = analyse(game, state, SeatQuestions(seat, ("q5",)), budget).answers["q5"]
    data: dict = {"q2": q2.best_action, "q2_margin": q2.margin, "q2_cards": q2.cards,
                  "q5": q5.strategy if q5.decided else None}
    if q2.best_action is not None:
        text = (f"against the others as one, seeing your card first: play {q2.best_action} (it guarantees a margin"
                f" of {q2.margin:+d}, the best guarantee" + (f"; the most cards you can guarantee: {q2.cards})"
                                                            if q2.cards is not None else ")"))
    else:
        greedy = game.format_action(state, game.greedy_action(state, seat))
        low, high = q2.margin_bounds
        data["greedy"] = greedy
        text = (f"no guarantee proved in {round(seconds / 2, 2):g} s (the best margin you can guarantee lies between "
                f"{low:g} and {high:g}); ")
        floor = q2.cards_bounds[0]
        won = floor - game.returns(state)[seat]
        if q2.cards_floor_action is not None and won > 0:
            data["q2_cards_floor"] = [q2.cards_floor_action, floor]
            text += (f"play {q2.cards_floor_action}: it gets you {won:g} card{'' if won == 1 else 's'} more whatever "
                     f"the others do; ")
        text += f"the greedy rule plays {greedy}"
    if q5.decided and q5.strategy:
        text += f"; if they mix as one: play {mix_text(q5.strategy)} (margin {q5.margin:+.2f} expected)"
    return text, data


def greedy_fallback(game: SimultaneousGame, state: Any, seat: int) -> tuple[str, str]:
    """The move to play where the equilibrium is not found in time: the game's greedy rule,
    in words that say it is a fallback, and its notation."""
    greedy = game.format_action(state, game.greedy_action(state, seat))
    return f"play {greedy} (a fallback: the game's greedy rule, not the equilibrium)", greedy


def mix_text(mix: dict[str, float]) -> str:
    """A mixed strategy for people: each action with its probability, `A 0.24, 5 0.76`."""
    return ", ".join(f"{action} {share:.2f}" for action, share in mix.items())


def _confirmed(lines: Iterator[str], say) -> bool:
    say("quit the game in progress? y quits, anything else goes on")
    answer = next(lines, None)
    return answer is None or answer.strip() in ("y", "yes", "q", "quit")


def read_action(game: Game, state: Any, seat: int, word: str) -> Any:
    """The action `word` names for `seat` (the game's own reading: Devil's Throne takes a
    rank as a rank and, at a target choice, a number as the seat); `#n` picks the n-th listed
    action, so a bare number is never a place in the list.  UsurperError (one line) where it
    names none."""
    word = word.strip()
    if word.startswith("#"):
        actions = game.legal_actions(state, seat)
        number = word[1:]
        if number.isdigit() and 1 <= int(number) <= len(actions):
            return actions[int(number) - 1]
        raise UsurperError(f"no action {word} here: #1 to #{len(actions)}")
    return game.parse_action(state, seat, word)


def _bot_choice(game: Game, state: Any, seat: int, bot: Bot, rng: random.Random, say) -> Any:
    action = bot(game, state, seat, rng)
    note = bot.note if isinstance(bot, EquilibriumBot) else ""
    if note:
        say(f"seat {seat + 1}: {note}")
    return action


def _report_end(game: Game, state: Any, played: list[str], say) -> None:
    say(f"[end] {game.describe(state)}")
    for line in end_lines(game, state):
        say(line)
    say(f"moves: {'; '.join(played)}")


def end_lines(game: Game, state: Any) -> list[str]:
    """Each seat's result and cards, then `Game over: ...; returns 14 8`."""
    returns = game.returns(state)
    lines = [f"seat {seat + 1}: {game.outcome(state, seat).result.value.lower()}, {cards} cards"
             for seat, cards in enumerate(returns)]
    return [*lines, f"Game over: {game.outcome(state, 0).detail}; returns {' '.join(map(str, returns))}"]


def states_along(game: Game, start: Any, moves: Sequence[Any]) -> list[Any]:
    """`start` and the state after each of `moves` (joint moves)."""
    states = [start]
    for move in moves:
        states.append(game.apply_joint(states[-1], move))
    return states


def _check_bots(game: Game, state: Any, human_seat: int, bots: dict[int, Bot]) -> None:
    players = len(game.returns(state))
    missing = [seat + 1 for seat in range(players) if seat != human_seat and seat not in bots]
    if missing:
        raise UsurperError(f"no bot for seat(s) {', '.join(map(str, missing))}")


class ThroneSession:
    """One deal of a simultaneous-move game played by the person at `seat` against `bots`,
    as the full screen drives it: the moves from the deal's `start` (after `played`, from
    `--moves`), the bots' choices (computed apart: `bot_turn` runs in a child process, so
    its random draws come back with it), the reveals, undo to the person's last choice."""

    def __init__(self, game: Game, start: Any, seat: int, bots: dict[int, Bot], rng: random.Random,
                 played: Sequence[Any] = ()):
        _check_bots(game, start, seat, bots)
        self.game, self.start, self.seat, self.bots, self.rng = game, start, seat, bots, rng
        self.moves = list(played)
        self.states = states_along(game, start, self.moves)
        self.decisions: list[int] = []  # how many moves had been played where the person chose
        self.reveals: list[str] = []

    @property
    def state(self) -> Any:
        return self.states[-1]

    def over(self) -> bool:
        return self.game.is_over(self.state)

    def person_acts(self) -> bool:
        return self.seat in self.game.acting_players(self.state)

    def actions(self) -> list[tuple[Any, str]]:
        """The person's actions here with their notation ([] where the person does not act)."""
        if not self.person_acts():
            return []
        state = self.state
        return [(action, self.game.format_action(state, action))
                for action in self.game.legal_actions(state, self.seat)]

    def read(self, word: str) -> Any:
        return read_action(self.game, self.state, self.seat, word)

    def bot_turn(self) -> tuple[dict[int, Any], list[str], Any]:
        """Every bot's choice at this node, their notes, and the rng's state after the draws."""
        choices, notes = {}, []
        for seat in self.game.acting_players(self.state):
            if seat != self.seat:
                bot = self.bots[seat]
                choices[seat] = bot(self.game, self.state, seat, self.rng)
                if isinstance(bot, EquilibriumBot) and bot.note:
                    notes.append(f"seat {seat + 1}: {bot.note}")
        return choices, notes, self.rng.getstate()

    def play(self, choices: dict[int, Any], rng_state: Any = None) -> str:
        """Play one action a seat acting here; the reveal, with the cards each seat won."""
        if rng_state is not None:
            self.rng.setstate(rng_state)
        before = self.state
        acting = self.game.acting_players(before)
        if self.seat in acting:
            self.decisions.append(len(self.moves))
        move = tuple(choices[seat] for seat in acting)
        after = self.game.apply_joint(before, move)
        self.moves.append(move)
        self.states.append(after)
        reveal = reveal_text(self.game, before, after, dict(zip(acting, move)), self.seat)
        self.reveals.append(reveal)
        return reveal

    def undo(self) -> bool:
        """Back to the person's last choice (the bots' answers to it go too)."""
        if not self.decisions:
            return False
        kept = self.decisions.pop()
        del self.moves[kept:], self.states[kept + 1:]
        self.reveals.append(f"undone: back to your choice at round {self.state.round}")
        return True

    def in_progress(self) -> bool:
        return bool(self.moves) and not self.over()

    def line_text(self) -> str:
        return "; ".join(self.game.format_move(state, move) for state, move in zip(self.states, self.moves))

    def farewell(self) -> str:
        """What leaving the full screen prints: the moves played, as `usurper verify --moves`
        reads them."""
        return f"moves: {self.line_text()}" if self.moves else "(no move played)"


def reveal_text(game: Game, before: Any, after: Any, choices: dict[int, Any], person: int) -> str:
    """`round 3 select: seat 1 (you) 5, seat 2 Q; seat 2 +4 cards` (the cards each seat's
    trick pile gained; a void round's pool leaving the game)."""
    what = f"{game.stage(before)}: " + ", ".join(
        f"seat {seat + 1}{' (you)' if seat == person else ''} {game.format_action(before, action)}"
        for seat, action in choices.items())
    gains = [f"seat {seat + 1} +{now - then}" for seat, (then, now)
             in enumerate(zip(game.returns(before), game.returns(after))) if now > then]
    void = after.discarded - before.discarded
    if gains:
        what += "; " + ", ".join(gains) + " cards"
    if void:
        what += f"; void round: {void} cards leave the game"
    return what
