"""The winning part of a deal as a graph: every position from which a win can still be
reached, joined by the moves that keep it (networkx), for the figures of how a deal can be
won and for Gephi or networkx users (`usurper graph`).

Positions are merged by the game's transposition key, so the graph is a DAG (a one-player
game whose positions never repeat); its figures:

- `winning_lines`: how many move sequences lead from the start to a win;
- `dominators`: the positions every winning line passes through on its way (the dominators
  of the won end, which is one node joined from every won position; the start and the won
  positions themselves left out);
- `longest_single_stretch`: the most decisions in a row, on one winning line, where a single
  move keeps the win (forced moves in between neither count nor break the run).

The whole winning part is enumerated, so the graph is capped (`max_positions`); the game's
`can_still_win` prunes the lost part early.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import networkx as nx

from games.base import Game, UnsupportedGame, UsurperError
from solver.defaults import MAX_GRAPH_POSITIONS

#: The node joined from every won end.
WON_END = "won"


class GraphTooLarge(UsurperError):
    """The winning part has more positions than the cap."""


@dataclass
class GraphFigures:
    positions: int
    moves: int
    winning_lines: int
    dominators: list[str]
    longest_single_stretch: int

    def as_dict(self) -> dict:
        return {"positions": self.positions, "moves": self.moves, "winning_lines": self.winning_lines,
                "dominators": self.dominators, "longest_single_stretch": self.longest_single_stretch}


def winning_graph(game: Game, state: Any, max_positions: int = MAX_GRAPH_POSITIONS) -> nx.DiGraph:
    """The positions from which a win is reachable (node 0 the start, if it can be won; WON_END
    joined from each won end), each labelled with its position text, edges with their move
    text and `decision` (the position offered two legal moves or more)."""
    check_tree_game(game)
    builder = _Builder(game, max_positions)
    graph = builder.graph
    if builder.wins(state):
        graph.graph["start"] = builder.ids[game.key(state)]
    return graph


def figures(graph: nx.DiGraph) -> GraphFigures:
    """The figures of a winning graph (see the module docstring)."""
    start = graph.graph.get("start")
    if start is None:
        return GraphFigures(0, 0, 0, [], 0)
    order = list(reversed(list(nx.topological_sort(graph))))
    lines: dict[Any, int] = {WON_END: 1}
    stretch: dict[Any, int] = {WON_END: 0}
    for node in order:
        if node == WON_END:
            continue
        children = list(graph.successors(node))
        lines[node] = sum(lines[child] for child in children)
        legal = graph.nodes[node]["legal"]
        if legal == 1:
            stretch[node] = stretch[children[0]]
        elif len(children) == 1:
            stretch[node] = 1 + stretch[children[0]]
        else:
            stretch[node] = 0
    dominators = nx.immediate_dominators(graph, start)
    passed = []
    node = dominators[WON_END]
    while node != start:
        if graph.nodes[node]["legal"]:  # a won end is where lines stop, not a way through
            passed.append(graph.nodes[node]["position"])
        node = dominators[node]
    positions = graph.number_of_nodes() - 1
    return GraphFigures(positions, graph.number_of_edges(), lines[start], list(reversed(passed)),
                        max(stretch[node] for node in graph if node != WON_END))


def check_tree_game(game: Game) -> None:
    kind = game.game_type
    if kind.simultaneous or kind.max_players > 1 or kind.repeats:
        raise UnsupportedGame(f"{game.name} has no winning graph: it is for one-player games whose positions "
                              f"never repeat ({kind.describe()})")


class _Builder:
    """Depth-first over every position, memoised by key: whether a win is reachable, and the
    winning positions and moves as the graph."""

    def __init__(self, game: Game, max_positions: int):
        self.game, self.max_positions = game, max_positions
        self.graph = nx.DiGraph()
        self.graph.add_node(WON_END, position="won", legal=0)
        self.known: dict[Any, bool] = {}
        self.ids: dict[Any, int] = {}

    def wins(self, state: Any) -> bool:
        key = self.game.key(state)
        if key in self.known:
            return self.known[key]
        if len(self.known) >= self.max_positions:
            raise GraphTooLarge(f"the winning part has more than {self.max_positions:,} positions to look at, "
                                "too many to build: start from a later position (--moves) or raise "
                                "--max-positions")
        outcome = self.game.outcome(state)
        if outcome is not None or not self.game.can_still_win(state):
            self.known[key] = won = outcome is not None and outcome.won
            if won:
                self._node(key, state, 0)
                self.graph.add_edge(self.ids[key], WON_END, move="")
            return won
        moves = self.game.legal_moves(state)
        keeping = []
        for move in moves:
            child = self.game.apply(state, move)
            if self.wins(child):
                keeping.append((move, child))
        self.known[key] = won = bool(keeping)
        if won:
            self._node(key, state, len(moves))
            for move, child in keeping:
                self.graph.add_edge(self.ids[key], self.ids[self.game.key(child)],
                                    move=self.game.format_move(state, move))
        return won

    def _node(self, key: Any, state: Any, legal: int) -> None:
        self.ids[key] = node = len(self.ids)
        self.graph.add_node(node, position=self.game.describe(state), legal=legal)
