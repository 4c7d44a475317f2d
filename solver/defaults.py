"""The solver's defaults that `usurper --help` shows, apart from the modules that use them:
the command line reads them without importing those modules (networkx, the fair sampler),
which every command would otherwise pay for at start-up."""

#: Solved samples a hint shares among the moves (successive halving), each of at most
#: sample_budget(game) states: the fair policy that docs/play.md measures, chosen on its curve;
#: a hint asked at the table keeps its time limit as well.
FAIR_SAMPLES = 600
#: The winning graph's cap on positions (the whole winning part is enumerated).
MAX_GRAPH_POSITIONS = 200_000
