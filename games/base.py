"""The Game / State contract that every game meets, and that the solver relies on.

The split follows OpenSpiel: a `Game` holds the rules and their parameters (variants), a
state is one node of the game tree.  States are small immutable values; the game, not the
state, knows how to move between them.  The solver only ever calls the verbs below, so a
new game plugs into search, verification, hints and catalogues by meeting this contract.

Every game declares its `game_type` (a GameType: players, simultaneous or sequential moves,
chance, information, returns, repeating positions), and each search family checks it and
refuses, in one line, what it cannot handle.

Required verbs of a one-player game (a simultaneous game's verbs are in its own package):

    deal_from_seed(seed)        -> Deal            a documented, stable shuffle
    parse_deal(text)            -> Deal            strict; raises DealError naming the problem
    format_deal(deal)           -> str             the text parse_deal reads back
    initial_state(deal)         -> State           forced set-up already applied
    legal_moves(state)          -> list[Move]      empty exactly when the state is terminal
    apply(state, move)          -> State           forced procedures applied
    outcome(state)              -> Outcome | None  None while play goes on
    key(state)                  -> hashable        canonical transposition key (see below)
    format_move(state, move)    -> str             human notation
    parse_move(state, text)     -> Move            strict; raises MoveError naming the problem
    describe(state)             -> str             a compact one-position text

`key(state)` must be equal for two states exactly when every continuation and every
score from them are the same (rows kept as sets, not lists).  The value of a state
(best reachable score) must be a function of its key alone; the solver memoises on it.

Optional hooks the solver uses when a game offers them (a game that does not simply
inherits the neutral defaults here):

    score_upper_bound(state)    -> int   no line from the state scores more (sound bound)
    cover_problem(state)        -> CoverProblem | None
                                         the win as a static covering problem, which the
                                         solver hands to CP-SAT (solver/cpsat.py); None: no
                                         refinement worth asking for
    bound_given_keep(state, kept) -> int the bound that follows from the covering answer
                                         (`kept`: most value kept at a win; None: no cover)
    can_still_win(state)        -> bool  False only when no line from the state wins
    may_exceed(state, floor, ceiling)
                                -> bool  False only when no line from the state scores
                                         more than `floor`: a finer test than
                                         score_upper_bound (`ceiling`), asked where
                                         that one lets the state through
    guaranteed_score(state)     -> int   every line from the state scores at least this
                                         (NOTHING_GUARANTEED: nothing known; a game whose
                                         scores are never negative may say -1)
    loss_can_reach(state, level) -> bool False only when no line from the state ends in a
                                         loss scoring `level` or more
    move_bounds(state, moves, floor) -> list  per move, a score no line through it
                                         beats, found without making the child (sound
                                         bound); a game may spend more on the moves
                                         whose first bound is above `floor`
    order_moves(state, moves)   -> list  the order in which to try moves (wins early first)
    search_moves(state)         -> list  legal_moves less moves proved dominated (never
                                         changes the best score reachable; see each game).
                                         Stated for positions a search reached by a move
                                         from its root: a proof may rest on the move that
                                         led there (the position before it offered the same
                                         choice), so the solver keeps every legal move at
                                         the root
    visible_positions()         -> module | None  what a player sees: the notation and the
                                         sampler of the unseen cards (fair hints, play)
    greedy_move(state)          -> Move  a simple documented policy, for benchmarks
    compiled_solve(state, mode, limits) -> CompiledRun | None
                                         the game's own compiled search (engine "compiled"),
                                         the same algorithm as engine "pruned"; None: none.

Games whose positions repeat (searched by solver/cycles.py) may also offer the hooks of
`RepeatingPositions` (below); `Game` gives each a neutral default (every state is remembered,
no estimate, no aimed phase).  What a player sees is the `VisiblePositions` model a game
returns from `visible_positions()`.  A game whose players choose at once meets
`SimultaneousGame` instead of the one-player verbs' meaning.

Every hook is a fact about positions; how a search is scheduled (quick-win rounds, a first
pass, level or value probes) is the solver's own setting, never a game attribute.  Games
never import the solver: hooks take and return plain values (the dataclasses below), and
the solver turns them into its results.

How a game is built (one way, the same for all four).  A game is one class in
games/<game>/game.py, a subclass of `Game` (or `SimultaneousGame`) and of nothing else,
composed of parts it holds and names:

    rules      rules.py: the verbs (legal moves, apply, outcome, key), over the variant's
               parameters; an object built from them (`self.rules`), or the module itself
               where the game has no parameters (King's Reign)
    bounds     bounds.py: the search knowledge (the optional hooks above) over the rules;
               an object holding the rules (`self.bounds`), or a module (King's Reign);
               Devil's Throne's few facts live on its rules object
    notation   notation.py: deals, moves and positions as text (module functions)
    visible    visible.py: the `VisiblePositions` model (a module), where the game has one
    compiled   compiled.py: what crosses to the game's C engine (_core.c), by name: the
               tables of a game instance as one NamedTuple, built once and kept, the
               position, and `CompiledLimits` (each read in C by field name in one place)

Each verb and hook of the game class is one line that names the part answering it, so the
method that runs is the one written there (no mixins, no method resolution order to read).
Whether a compiled engine may answer is declared (`Game.compiled`), never found by comparing
methods: a subclass that changes a rule the C code copies declares False.  A variant is a
parameter of the game (its constructor, `from_variants`), never a new class.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, NamedTuple, Protocol

Deal = tuple
State = Any
Move = Any

#: How the games show suits (games.decks): a symbol each on every screen, and on a stream that
#: cannot show them (an ASCII terminal or pipe) the letters every reader takes back
#: (`SYMBOL_LETTERS`: `3♦` -> `3D`, `Journey 3 ☾≈` -> `Journey 3 MoWa`).
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
DECKTET_SUIT_SYMBOLS = {"Moons": "☾", "Suns": "☼", "Waves": "≈", "Leaves": "❦", "Wyrms": "⚕", "Knots": "∞"}
DECKTET_SUIT_LETTERS = {"Moons": "Mo", "Suns": "Su", "Waves": "Wa", "Leaves": "Le", "Wyrms": "Wy", "Knots": "Kn"}
SYMBOL_LETTERS = {**{symbol: letter for letter, symbol in SUIT_SYMBOLS.items()},
                  **{DECKTET_SUIT_SYMBOLS[suit]: letters for suit, letters in DECKTET_SUIT_LETTERS.items()}}


class UsurperError(Exception):
    """A problem with the user's input; the CLI prints it on one line and exits 2."""


class DealError(UsurperError):
    """Malformed deal text: unknown card, duplicate, missing or extra card."""


class MoveError(UsurperError):
    """A move text that does not parse, or names a move that is not legal here."""


class VariantError(UsurperError):
    """An unknown variant, or a combination the rules do not allow."""


class EngineError(UsurperError, ValueError):
    """A search engine this game (or this variant of it) does not offer."""


class CompiledMissing(EngineError):
    """The compiled engine of a game is not built (no C compiler at install time)."""


class UnsupportedGame(UsurperError, ValueError):
    """A search family asked to analyse a type of game it cannot handle."""


class Verdict(str, Enum):
    """The one vocabulary of answers, for games, solver, CLI and catalogue alike: a finished
    game is WON or LOST; a search that ran out of budget is UNDECIDED."""

    WON = "WON"
    LOST = "LOST"
    UNDECIDED = "UNDECIDED"

    def __str__(self) -> str:
        return self.value


WON, LOST, UNDECIDED = Verdict.WON, Verdict.LOST, Verdict.UNDECIDED


class Termination(str, Enum):
    """Why a game ended (as python-chess's `Termination`): a fixed set, one reason per way a
    game of Usurper's can end, each named after the ruling that decides it."""

    ALL_PERSONALITIES_CONTROLLED = "every personality controlled"          # Adaman: the win
    NO_LEGAL_MOVE = "no legal move"                                        # Adaman R2
    PALACE_OVERFLOW = "palace overflow: a sixth personality entered the Palace"  # Adaman R9
    ALL_ROYALS_KILLED = "every Royal on the table was killed"             # Royal Assassin R24
    PLAYER_ENDED = "the player ended the game with Royals on the table"  # Royal Assassin R26
    HAND_EMPTIED = "a hand was empty at the end of a round"               # Devil's Throne R18
    KINGDOM_DISCOVERED = "no face-down card is left"                      # King's Reign R38
    DECK_EXHAUSTED = "a battle began with fewer than 3 number cards"      # King's Reign R23
    KING_TAKEN = "an enemy took the king"                                 # King's Reign R26
    STARVED = "every farm is gone"                                        # King's Reign R28

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: WON or LOST, why, the score, and a free-text detail (the
    score's parts, a ruler) for people."""

    result: Verdict
    reason: Termination
    score: int
    detail: str = ""

    @property
    def won(self) -> bool:
        return self.result == WON

    @property
    def utter(self) -> bool:
        """A loss that scores nothing whatever was achieved (Adaman's palace overflow)."""
        return self.reason == Termination.PALACE_OVERFLOW

    def text(self) -> str:
        """For people: "won: every personality controlled (66 + 29 left in Resources)"."""
        result = "lost utterly" if self.utter else self.result.value.lower()
        return f"{result}: {self.reason}" + (f" ({self.detail})" if self.detail else "")


@dataclass(frozen=True)
class GameType:
    """What kind of game a game is, as OpenSpiel declares it, so that each search family can
    check what it handles and refuse the rest in one line."""

    min_players: int = 1
    max_players: int = 1
    simultaneous: bool = False        # players choose at once (else one acts at a time)
    deterministic: bool = True        # no chance once the deal is fixed
    perfect_information: bool = False  # at a real table (every solitaire here hides its deck)
    returns: bool = False             # per-player returns (else one score)
    repeats: bool = False             # a position can recur (the game tree has cycles)

    def describe(self) -> str:
        """A few words for an error message: "2-4 players, simultaneous moves"."""
        if self.min_players == self.max_players:
            players = "one player" if self.max_players == 1 else f"{self.max_players} players"
        else:
            players = f"{self.min_players}-{self.max_players} players"
        words = [players, "simultaneous moves" if self.simultaneous else "sequential moves"]
        if not self.deterministic:
            words.append("chance")
        if self.repeats:
            words.append("repeating positions")
        return ", ".join(words)


SOLITAIRE = GameType()
#: guaranteed_score's "nothing known": below every score of every game (King's Reign's may be
#: negative).
NOTHING_GUARANTEED = -(1 << 31)


@dataclass(frozen=True)
class CoverProblem:
    """Items of given values must cover demands, each demand by a disjoint set of at most
    `max_per_demand` compatible items whose values add up to the demand; some items must
    first be bought (paid like a demand, then usable); at most `max_kept` unused items are
    kept.  Plain data: a game states it, the solver's CP-SAT model answers it."""

    values: tuple[int, ...]              # item values
    to_buy: tuple[bool, ...]             # item must be bought before it pays or is kept
    demands: tuple[int, ...]             # amount each demand needs
    serves: tuple[tuple[int, ...], ...]  # serves[i]: demands item i may pay for
    buys: tuple[tuple[int, ...], ...]    # buys[i]: items (to buy) item i may pay for
    max_per_demand: int
    max_kept: int


class Schedule(NamedTuple):
    """How the solver schedules a compiled search (its SearchSettings, never the game's):
    quick-win rounds, first-pass moves, level probes on or off, whether a full table
    replaces entries, and whether the rounds' whole refutations are kept.  The C skeleton
    (solver/_search_core.h, read_schedule) reads it by these names."""

    lds_rounds: int
    first_pass_moves: int
    level_probes: bool
    replace_when_full: bool
    keep_whole_refutations: bool


@dataclass(frozen=True)
class CompiledLimits:
    """What a compiled search may spend (None: no limit; `max_bytes` the tables' slots,
    whose last growth may be by less than double to use them), how the solver schedules it
    (`schedule`), whether it is the plain baseline (engine "compiled-plain") instead of
    "pruned", and the score an optimal search starts its probes at (`at_least`,
    solver.search.solve's).  The C skeleton (solve_position) reads it by these names."""

    time_limit: float | None
    max_states: int | None
    max_table: int | None
    max_bytes: int | None
    schedule: Schedule
    plain: bool = False
    at_least: int = 0


@dataclass(frozen=True)
class CompiledRun:
    """What a compiled search established.  `exhausted` is "", "states", "time", "table"
    or "memory": the limit that stopped it."""

    verdict: str                 # WON, LOST or UNDECIDED (the solver's words)
    score: int | None            # the proven optimum (mode "optimal")
    line: list[Any]
    line_score: int | None
    states: int
    table_hits: int
    unique: int
    max_depth: int
    exhausted: str


class Game(ABC):
    """Rules plus parameters.  Subclasses implement the verbs listed in the module docstring."""

    name: str = ""
    variant: str = "standard"
    #: What kind of game this is; each search family checks it before it runs.
    game_type: GameType = SOLITAIRE
    #: The cards of the deck in use, in canonical order (what a seed shuffles).
    cards: tuple = ()
    #: The highest score any line of any deal can reach; the solver stops early on it.
    max_score: int = 0
    #: No win scores less, and no loss reaches it (every game here ranks wins above losses).
    lowest_win_score: int = 0
    #: Whether the game's compiled engines (`compiled_solve`; a simultaneous game's
    #: `compiled_q4` and `compiled_paranoid`) may answer for this class: declared True by a
    #: game whose C code copies its rules and bounds, and False again by a subclass that
    #: changes one of them (the Python search then answers).
    compiled: bool = False

    @abstractmethod
    def deal_from_seed(self, seed: int) -> Deal:
        ...

    @abstractmethod
    def parse_deal(self, text: str) -> Deal:
        ...

    @abstractmethod
    def format_deal(self, deal: Deal) -> str:
        ...

    @abstractmethod
    def initial_state(self, deal: Deal) -> State:
        ...

    @abstractmethod
    def legal_moves(self, state: State) -> list[Move]:
        ...

    @abstractmethod
    def apply(self, state: State, move: Move) -> State:
        ...

    @abstractmethod
    def outcome(self, state: State) -> Outcome | None:
        ...

    @abstractmethod
    def key(self, state: State) -> Hashable:
        ...

    @abstractmethod
    def format_move(self, state: State, move: Move) -> str:
        ...

    @abstractmethod
    def parse_move(self, state: State, text: str) -> Move:
        ...

    @abstractmethod
    def describe(self, state: State) -> str:
        ...

    # Optional hooks: neutral defaults, valid for every game.
    def score_upper_bound(self, state: State) -> int:
        return self.max_score

    def cover_problem(self, state: State) -> CoverProblem | None:
        return None

    def bound_given_keep(self, state: State, kept: int | None) -> int:
        return self.score_upper_bound(state)

    def can_still_win(self, state: State) -> bool:
        return True

    def may_exceed(self, state: State, floor: int, ceiling: int) -> bool:
        return True

    def guaranteed_score(self, state: State) -> int:
        outcome = self.outcome(state)
        return NOTHING_GUARANTEED if outcome is None else outcome.score

    def loss_can_reach(self, state: State, level: int) -> bool:
        return self.score_upper_bound(state) >= level

    def move_bounds(self, state: State, moves: Sequence[Move], floor: int | None = None) -> Sequence[int]:
        return [self.max_score] * len(moves)

    def order_moves(self, state: State, moves: Sequence[Move]) -> Sequence[Move]:
        return moves

    def search_moves(self, state: State) -> Sequence[Move]:
        return self.legal_moves(state)

    def visible_positions(self) -> VisiblePositions | None:
        """The game's model of what a player sees, for fair hints and play; None: the game
        has none."""
        return None

    def render(self, state: State, reveal: bool = False) -> str:
        """The position drawn for people (`usurper show`); `reveal` also shows the face-down
        cards where the drawing hides them.  The default: the one-line description."""
        return self.describe(state)

    def legend(self) -> str:
        """A few lines for people that explain the notation of positions and moves on screen
        (`?` in play); empty: nothing to explain."""
        return ""

    # Hooks of a game whose positions repeat (RepeatingPositions): neutral defaults.
    def checkpoint(self, state: State) -> bool:
        return True

    def progress(self, state: State) -> int:
        return 0

    def aimed_successors(self, state: State) -> list[tuple[State, list[Move]]] | None:
        return None

    def aimed_progress(self, state: State) -> int:
        return self.progress(state)

    def greedy_move(self, state: State) -> Move:
        """A simple policy a person might follow, documented by each game (docs/play.md);
        the default: the first move in the game's move order."""
        return self.order_moves(state, self.legal_moves(state))[0]

    def compiled_solve(self, state: State, mode: str, limits: CompiledLimits) -> CompiledRun | None:
        """The facts a compiled engine established, or None: no compiled engine."""
        return None

    # Shared helpers built on the verbs.
    def check_deal(self, deal: Deal) -> None:
        """A deal built in code (not parsed) must still hold exactly this variant's cards."""
        if sorted(card.id for card in deal) != sorted(card.id for card in self.cards):
            raise DealError("the deal does not hold exactly the cards of this variant's deck")

    def parse_line(self, state: State, text: str) -> list[Move]:
        """Parse a ';'-separated line of moves, each checked against the position it is played in."""
        moves = []
        for number, part in enumerate(p.strip() for p in text.split(";")):
            if not part:
                continue
            try:
                move = self.parse_move(state, part)
            except MoveError as exc:
                raise MoveError(f"move {number + 1} ({part!r}): {exc}") from None
            moves.append(move)
            state = self.apply(state, move)
        return moves

    def apply_line(self, state: State, moves: Sequence[Move]) -> State:
        for move in moves:
            state = self.apply(state, move)
        return state

    def format_line(self, state: State, moves: Sequence[Move]) -> str:
        parts = []
        for move in moves:
            parts.append(self.format_move(state, move))
            state = self.apply(state, move)
        return "; ".join(parts)


class RepeatingPositions(Protocol):
    """The hooks solver/cycles.py asks of a game whose positions repeat (`GameType.repeats`).
    `Game` gives each a neutral default, so a game states only the ones it knows better."""

    def checkpoint(self, state: State) -> bool:
        """Whether the visited set remembers this state; every cycle must pass through a
        checkpoint (default: every state is one)."""

    def progress(self, state: State) -> int:
        """How far a state has come, to order beams and the best-first open list: a guide,
        never a bound (default: 0, no estimate)."""

    def aimed_successors(self, state: State) -> list[tuple[State, list[Move]]] | None:
        """(child, moves to it) along lines aiming at the game's maximum score; may leave out
        anything, since it only serves to find better lines.  None: no aimed phase."""

    def aimed_progress(self, state: State) -> int:
        """The order of the aimed lines (default: progress)."""


class VisiblePositions(Protocol):
    """What a player sees at a real table, with the unseen cards as a set to sample from:
    the model fair hints (solver/fair.py) and play (usurper/app/) read.  Each game's visible.py
    module meets it, the game passed in as the first argument."""

    def parse_visible(self, game: Game, text: str) -> Any:
        """A visible position from its notation (docs/play.md); MoveError/DealError naming the problem."""

    def visible_of(self, game: Game, state: State) -> Any:
        """What a player sees of a full state."""

    def format_visible(self, game: Game, visible: Any) -> str:
        """The notation parse_visible reads back."""

    def visible_text(self, game: Game, state: State) -> str:
        """format_visible(visible_of(state))."""

    def sample_state(self, game: Game, visible: Any, rng: Any) -> State:
        """A full state consistent with what is seen, the unseen cards in a uniform random order."""

    #: Whether the unseen cards are exactly the cards still to come, so that each order of
    #: them is one full state (state_with_order); the exact fair search needs it.
    exact_orders: bool

    def state_with_order(self, game: Game, visible: Any, order: Sequence[Any]) -> State:
        """The full state whose face-down cards are `visible.unknown` in `order`, the next
        card drawn first (solver/expectimax.py); UnsupportedGame where not `exact_orders`."""

    def unknown_count(self, visible: Any) -> int:
        """How many cards are unseen (at most one: the visible position is the whole state)."""

    def move_words(self, game: Game, state: State, move: Move, peek: bool = False) -> str:
        """A move in words for a player; `peek`: it may name a face-down card it turns."""


class SimultaneousGame(Game):
    """A game in which several seats choose at once (OpenSpiel's simultaneous-move games).

    A state says which seats choose now (`acting_players`), each seat's options
    (`legal_actions`), and `apply_joint` takes one action per acting seat; everything forced
    runs inside it.  `returns` gives each seat's score so far.  The one-player verbs still
    hold with a joint move (a tuple, one action per acting seat) as the move, so replay,
    verification and play need nothing else.  solver/simultaneous.py asks these verbs only.
    """

    game_type: GameType = GameType(min_players=2, max_players=2, simultaneous=True, returns=True)
    #: The seats at this table (a parameter of the game, like a variant).
    players: int = 2

    @abstractmethod
    def outcome(self, state: State, seat: int = 0) -> Outcome | None:
        """How the game ended for `seat` (WON alone or shared, LOST), None while it goes on."""

    @abstractmethod
    def acting_players(self, state: State) -> tuple[int, ...]:
        """The seats that choose at this state (0-based); empty exactly when it is over."""

    @abstractmethod
    def legal_actions(self, state: State, seat: int) -> list[Any]:
        """Seat `seat`'s options here."""

    @abstractmethod
    def apply_joint(self, state: State, actions: Sequence[Any]) -> State:
        """The state after each acting seat plays its action (in acting_players' order)."""

    @abstractmethod
    def returns(self, state: State) -> tuple[int, ...]:
        """Each seat's score so far (its cards won); final once the game is over."""

    @abstractmethod
    def is_over(self, state: State) -> bool:
        ...

    @abstractmethod
    def round_start(self, state: State) -> bool:
        """Whether the state starts a round: the only states a search keeps in its table
        (within a round two joint actions never meet again)."""

    @abstractmethod
    def cards_in_play(self, state: State) -> int:
        """The cards that may still move to some seat's score (none is created or lost but
        into a score or out of the game)."""

    # Optional hooks: neutral defaults.
    def cards_reachable(self, state: State) -> int:
        """The most any seat's score can still change from here (a sound bound): at most
        the cards in play, less any the game knows can never be won."""
        return self.cards_in_play(state)

    def cards_out_of_reach(self, state: State, seat: int) -> int:
        """Of the cards that can still be won, how many `seat` can never win (a sound count)."""
        return 0

    def value_key(self, state: State) -> Hashable:
        """A round start's key for the searches whose tables keep values or bounds only (no
        lines): positions that share it have the same value-to-go in every question; by
        default `key`."""
        return self.key(state)

    def cards_reachable_by(self, state: State, seat: int) -> int:
        """The most `seat`'s score can still gain: the cards that can still be won less those
        out of its reach."""
        return self.cards_reachable(state) - self.cards_out_of_reach(state, seat)

    def order_actions(self, state: State, seat: int, actions: list[Any]) -> list[Any]:
        """The order in which a search tries a seat's actions (likely best first)."""
        return actions

    def format_action(self, state: State, action: Any) -> str:
        """One seat's action in the game's notation."""
        return str(action)

    def parse_action(self, state: State, seat: int, text: str) -> Any:
        """The action of `seat` that a person typed (MoveError, one line, where it names
        none); default: one of its actions as format_action writes it, in any case."""
        actions = self.legal_actions(state, seat)
        texts = [self.format_action(state, action).upper() for action in actions]
        if text.strip().upper() in texts:
            return actions[texts.index(text.strip().upper())]
        raise MoveError(f"{text.strip()!r} is none of your actions here ({' '.join(texts)})")

    def action_keys(self, state: State) -> str:
        """The characters a typed action can begin with at this node, so that a screen tells
        them from its own keys; default: the first letters of the actions as written."""
        return "".join(sorted({self.format_action(state, action)[:1].lower() + self.format_action(state, action)[:1]
                               for seat in self.acting_players(state) for action in self.legal_actions(state, seat)}))

    def board(self, state: State, seat: int) -> str:
        """The table as a person at `seat` sees it on a full screen (default: `render`)."""
        return self.render(state)

    def stage(self, state: State) -> str:
        """Where in the game the node is, in a few words (`round 3 select`); default none."""
        return ""

    def greedy_action(self, state: State, seat: int) -> Any:
        """A simple documented policy for one seat, for bots (default: its first action in
        the search order)."""
        return self.order_actions(state, seat, self.legal_actions(state, seat))[0]

    def greedy_action_against(self, state: State, seat: int, against: Sequence[int]) -> Any:
        """`greedy_action` played against the seats `against` only (a seat of a coalition
        against one seat, or that one seat against all): the policy of a seat a one-sided
        search fixes.  Default: the plain greedy bot, whoever it plays against."""
        return self.greedy_action(state, seat)

    #: Whether `few_options` keeps fewer than every option: only then does a search with
    #: the coalition kept to few replies say more than the full search.
    offers_few_options: bool = False

    def few_options(self, state: State, seat: int, p: int, actions: list[Any], answered: Any | None) -> list[Any]:
        """The options a seat of the coalition against seat `p` keeps in a search with few
        replies, in the order they are tried (`actions`: the search order); `answered`: P's
        action where P has chosen first, else None.  The list must hold the seat's
        `greedy_action_against` [p], so that the few replies bound the greedy bots' value.
        Default: every option."""
        return actions

    def order_replies(self, state: State, seat: int, p: int, actions: list[Any], answered: Any | None) -> list[Any]:
        """Every option of `actions` (the search order) of a coalition seat answering P's
        action `answered`, in the order the full search tries them (the compiled engine's
        order too).  Default: as given."""
        return actions

    def compiled_q4(self, state: State, seat: int) -> CompiledSeatSearch | None:
        """The game's compiled two-player mixed-strategy search from this round start, or
        None: none here (the solver's Python search answers).  Raises CompiledMissing where
        the game has one that is not built."""
        return None

    def compiled_paranoid(self, state: State, seat: int, question: str, margin: bool) -> CompiledSeatSearch | None:
        """The game's compiled Q1-Q3 search from this round start, or None (as compiled_q4)."""
        return None

    def joint_play_model(self, state: State, seat: int, margin: bool, restricted: bool = False,
                         at_ceiling: bool = False, short: int = 0) -> JointPlayModel | None:
        """An exact CP-SAT model of every joint play from this round start whose objective is
        `seat`'s payoff at the end (its cards, or with `margin` its cards less the most any
        other seat holds), or None: none here.  Q1 is its optimum.  `restricted`: a model of
        some joint plays only, chosen by the game to be solved sooner (its lines are legal,
        its bound proves nothing), or None where the game has none.  `at_ceiling`: a model of
        exactly the joint plays whose payoff is the model's `ceiling` less `short` (none: Q1
        is not that), or None where the game cannot state it so."""
        return None


class JointPlayModel(Protocol):
    """A game's CP-SAT model of joint play (`model`, maximising the expression `payoff`) and
    how to read the line of joint moves a solution describes (`read` tells whether a literal
    is true in it).  `ceiling`: no joint play's payoff is higher."""

    model: Any
    payoff: Any
    ceiling: int

    def line(self, read: Callable[[Any], bool]) -> list[tuple]:
        ...

    def hint(self, moves: Sequence[tuple]) -> None:
        """Suggest a line from the model's start as the solver's first guess."""


class CompiledSeatSearch(Protocol):
    """A game's compiled search of one question for one seat, as solver/simultaneous.py uses
    it: the value of a round start within a budget.  The run it returns carries the value,
    the budget that stopped it ("" when none did) and its counts (states, table hits)."""

    def value(self, state: State, seconds: float | None, max_states: int | None) -> Any:
        ...
