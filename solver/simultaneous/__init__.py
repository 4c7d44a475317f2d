"""Open-deal analysis of simultaneous-move games: the four questions of Devil's Throne's §8.

The search knows no rules: it walks states through the verbs of games.base.SimultaneousGame
(`acting_players`, `legal_actions`, `apply_joint`, `returns`, `is_over`, `key`,
`round_start`, `cards_reachable`, `order_actions`, `greedy_action` and, where offered,
`greedy_action_against` and `few_options`, `format_action`) and refuses any other kind of
game in one line.

For a seat P:
- Q1, optimistic: one agent maximises over every joint action.
- Q2, paranoid, P commits first: at a simultaneous node P fixes its action, then the other
  seats (one coalition) answer together to hurt P; a node where P does not act is one
  minimising choice of the coalition.
- Q3, paranoid, P commits last: the coalition commits first and P answers.
- Q4, two players: the value of the zero-sum game on the card margin in mixed strategies, by
  backward induction with one matrix game per simultaneous node (a pure saddle point, then
  dominance, then a 2x2 formula, and only then an LP with GLOP).

Q1-Q3 are each asked of two payoffs: P's cards c_P (it adds up over rounds) and the margin
c_P - max_{Q != P} c_Q (whether P can win: > 0 alone, = 0 shared).  They are plain max/min
trees, searched by alpha-beta with a transposition table keyed at round starts only (within
a round two joint actions never meet again, spec §8).  A payoff that adds up stores a
value-to-go (the key leaves the tricks out); the margin of three or more seats does not add
up, so its key carries the differences c_P - c_Q, shifted so that the least is 0 (the margin
is their minimum, so the shift only moves the value) and capped where a lead can no longer
be the least.  The game's `cards_reachable` bounds what any payoff can still move.

The search is driven by null-window probes ("is the value at least g?"), each of which
proves a floor or a ceiling, halving the interval until it closes (Q1 probes the ceiling
first: everyone helping P often reaches it; Q2 and Q3 probe just above the floor first, with
a share of a time limit: the others ganging up hold P near it).  Q1 is also a single
optimisation over joint play, which a game may state whole as a CP-SAT model
(`joint_play_model`): where the first probe does not decide within its share of a time
limit, the model's best line, replayed through the rules, raises the floor and its proven
bound lowers the ceiling; a line that does not replay to the value claimed is a defect,
reported as an error, never used.
Before the probes, Q2 and Q3 get two one-sided searches, each a fixed strategy against the
best reply: P on the game's greedy bot (a floor for Q2 and Q3) and the other seats on it,
aimed at P (a ceiling for Q3 and Q2); with three or more seats, first a search of the next
round alone, each position after it counted at its static floor, which proves floors only
(a card P gains at once whatever the others do), and with three or four seats, after the
others' greedy bots, the others kept to the game's few replies at each choice (`few_options`,
where offered): a set of their strategies holding the bots', so its value is a lower ceiling,
and where they hold P to its floor it is found far sooner than by the full search.  With three
or more seats the probes walk the ceiling down from the top (one just below it at a time)
rather than bisecting, after one probe just above the floor.  The answers
already known narrow the start (Q2 <= Q3 <= Q1).  So every end of an interval is a real guarantee, and the answer says
which: a strategy found, a finished probe, a bound.

Engines: "python" is this package; "compiled" hands round starts to the game's compiled
hooks (`compiled_q4` for two players, `compiled_paranoid` for any number: for Devil's
Throne, solver/_simultaneous_core.h over the game's rules in C), which run the same searches
node for node (the tests compare values, states and table hits); "auto" uses them where the
game offers them.  For Q4 this package still walks the analysed node's own round, for the
root mixes.

A search that runs out of budget answers with an interval, never a value: the probes'
floors and ceilings, the one-sided searches' values and the order of the questions (Q2 <=
Q3 <= Q1 on each payoff, Q2 <= Q4 <= Q3 on the margin).

The parts: questions.py (the questions asked, each one's answer and the order that narrows
them), schedule.py (one payoff's searches and probes, with their shares of the time),
paranoid.py (alpha-beta over max/min layers), mixed.py (Q4 and Q5: the coalition's mixes by
backward induction), matrix.py (matrix games, by LP where nothing cheaper decides),
settings.py (the schedule's tuned numbers, named), reasons.py (the words for each end).
"""

from solver.answers import CARDS, MARGIN, MIXED, QUESTIONS, Analysis, Answer, Interval, SeatStats
from solver.simultaneous.matrix import lp_row_player, matrix_game
from solver.simultaneous.paranoid import payoff_now
from solver.simultaneous.questions import ENGINES, analyse, check_simultaneous, default_questions, equilibrium
from solver.simultaneous.settings import DEFAULT_SETTINGS, SimultaneousSettings

__all__ = ["CARDS", "DEFAULT_SETTINGS", "ENGINES", "MARGIN", "MIXED", "QUESTIONS", "Analysis", "Answer", "Interval",
           "SeatStats", "SimultaneousSettings", "analyse", "check_simultaneous", "default_questions", "equilibrium",
           "lp_row_player", "matrix_game", "payoff_now"]
