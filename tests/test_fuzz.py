"""Fuzzing the parsers a user's text reaches: deals, moves, seed ranges and catalogue files.

Random and mutated inputs, a few thousand per parser, at the library level (the parser
returns or raises UsurperError, nothing else), and a few dozen through the command itself
(exit 0, 1 for verify's finding, or 2 with one line `usurper: error: ...`).  Seeded, so a
failure repeats.
"""

from __future__ import annotations

import json
import random
import sys

import pytest

import cli
from games import make_game
from games.base import UsurperError
from solver import catalogue
from solver.catalogue.store import _parse
from solver.seeds import parse_seed_ranges

CASES = 2000
GAMES = {name: make_game(name) for name in ("adaman", "royal-assassin")}
NOISE = list("0123456789-,; \n\t\r+<:=.*/\\\"'{}[]aeAE#\x00é²") + ["", "--", "of", "Ace", "Joker", "10", "K",
                                                                     "♠", "nan", "1e9", "\u200b"]


def mutate(text: str, rng: random.Random, tokens: list[str]) -> str:
    """A few random edits: delete, insert, replace or repeat a stretch, or swap in a token."""
    for _ in range(rng.randint(1, 4)):
        at = rng.randint(0, len(text))
        span = rng.randint(0, 12)
        choice = rng.random()
        if choice < 0.25:
            text = text[:at] + text[at + span:]
        elif choice < 0.5:
            text = text[:at] + rng.choice(tokens) + text[at:]
        elif choice < 0.75:
            text = text[:at] + rng.choice(tokens) + text[at + span:]
        else:
            text = text[:at] + text[at:at + span] * rng.randint(2, 3) + text[at:]
    return text


def random_text(rng: random.Random, tokens: list[str], longest: int = 40) -> str:
    return "".join(rng.choice(tokens) for _ in range(rng.randint(0, longest)))


def returns_or_refuses(parse, text):
    try:
        return parse(text)
    except UsurperError as exc:
        assert str(exc) and "\n" not in str(exc).strip(), repr(str(exc))
        return None


@pytest.mark.parametrize("name", sorted(GAMES))
def test_deal_parser(name):
    game = GAMES[name]
    rng = random.Random(f"deal {name}")
    valid = [game.format_deal(game.deal_from_seed(seed)) for seed in range(20)]
    tokens = NOISE + [card for text in valid[:2] for card in text.replace(";", ",").split(",")]
    for case in range(CASES):
        text = mutate(rng.choice(valid), rng, tokens) if case % 3 else random_text(rng, tokens)
        deal = returns_or_refuses(game.parse_deal, text)
        if deal is not None:
            assert sorted(map(str, deal)) == sorted(map(str, game.deal_from_seed(0)))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_move_parser(name):
    game = GAMES[name]
    rng = random.Random(f"move {name}")
    states = []
    for seed in range(10):
        state = game.initial_state(game.deal_from_seed(seed))
        for _ in range(rng.randint(0, 6)):
            if game.outcome(state) is not None:
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        states.append(state)
    lines = []
    for state in states:
        if game.outcome(state) is None:
            lines.append("; ".join(game.format_move(state, move) for move in game.legal_moves(state)[:3]))
    tokens = NOISE + [word for line in lines for word in line.replace(";", " ").split()]
    for case in range(CASES):
        state = rng.choice(states)
        text = mutate(rng.choice(lines), rng, tokens) if case % 3 else random_text(rng, tokens)
        returns_or_refuses(lambda line, state=state: game.parse_line(state, line), text)


def test_seed_range_parser():
    rng = random.Random("seeds")
    valid = ["0-99", "3,10-12", "7", "0-9999999", "1-3, 5 ,9-10", "12345678901-12345678999"]
    tokens = NOISE + ["999999999999", "10000000", "0"]
    for case in range(CASES * 2):
        text = mutate(rng.choice(valid), rng, tokens) if case % 3 else random_text(rng, tokens, 12)
        seeds = returns_or_refuses(parse_seed_ranges, text)
        if seeds is not None:
            assert 0 < len(seeds) <= 10_000_000
            assert parse_seed_ranges(seeds.text()) == seeds


def test_catalogue_file_parser(tmp_path):
    rng = random.Random("catalogue")
    header = json.dumps(catalogue.make_job(make_game, "adaman", time_limit=0.5).header())
    rows = [json.dumps({"seed": seed, "outcome": outcome, "score": score, "best": score, "states": 10,
                        "seconds": 0.25, "first_move": "Painter <- Battle", "engine": "compiled usurper-0.1.0"})
            for seed, outcome, score in ((0, "WON", 90), (1, "LOST", 40), (2, "UNDECIDED", None), (3, "ERROR", None))]
    valid = "\n".join([header, *rows]) + "\n"
    tokens = NOISE + ['"', "null", "true", "-1", "1e400", "NaN", "Infinity", '"seed"', '"outcome"', '"WON"',
                      '"score"', '"seconds"', '"variants"', "[]", "{}", "\n", '"game"', '"chess"', "1.5"]
    path = tmp_path / "c.jsonl"
    for case in range(CASES):
        text = mutate(valid, rng, tokens) if case % 5 else random_text(rng, tokens, 60)
        data = text.encode("utf-8", "surrogatepass")
        try:
            book, _, _ = _parse(path, data)
        except UsurperError as exc:
            assert "\n" not in str(exc).strip()
            continue
        if not book.rows:
            continue
        # Whatever the parser lets through, the figures and the pick can be made of.
        catalogue.format_summary(catalogue.summarise(book))
        returns_or_refuses(lambda b: catalogue.pick_row(b, rng.random() < 0.5, rng.choice([None, 50]),
                                                        random.Random(0)), book)


def run_command(args: list[str], monkeypatch, capsys) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["usurper", *args])
    try:
        cli.main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def test_commands_with_mangled_input(monkeypatch, capsys, tmp_path):
    rng = random.Random("commands")
    game = GAMES["adaman"]
    deal = game.format_deal(game.deal_from_seed(5))
    state = game.initial_state(game.deal_from_seed(5))
    moves = "; ".join(game.format_move(state, move) for move in game.legal_moves(state)[:2])
    book = tmp_path / "c.jsonl"
    book.write_text(json.dumps(catalogue.make_job(make_game, "adaman", time_limit=0.5).header()) + "\n"
                    + json.dumps({"seed": 1, "outcome": "WON", "score": 80, "best": 80, "states": 1,
                                  "seconds": 0.1, "first_move": None, "engine": "x"}) + "\n")
    tokens = NOISE + ["--seed", "--deal", "adaman", "royal-assassin", "excuse", "fixed_royals=3"]
    commands = []
    for _ in range(12):
        commands.append(["deal", "adaman", "--deal", mutate(deal, rng, tokens)])
        commands.append(["verify", "adaman", "--seed", "5", "--moves", mutate(moves, rng, tokens)])
        commands.append(["deal", "adaman", "--seed", mutate("5", rng, tokens)])
        seeds = mutate("5-4", rng, tokens)
        if len(returns_or_refuses(parse_seed_ranges, seeds) or ()) <= 3:  # a bench of many seeds is no fuzz
            commands.append(["bench", "adaman", "--time-limit", "0.01", "--mode", "winnable", "--seeds", seeds])
        commands.append(["deal", "adaman", "--seed", "1", "--variant", mutate("excuse", rng, tokens)])
    bad = tmp_path / "bad.jsonl"
    for _ in range(10):
        bad.write_bytes(mutate(book.read_text(), rng, tokens).encode("utf-8", "surrogatepass"))
        commands.append(["catalogue", "stats", str(bad)])
    for args in commands:
        code, out, err = run_command(args, monkeypatch, capsys)
        assert code in (0, 1, 2), (args, code, err)
        if code == 2:
            lines = err.splitlines()
            assert len(lines) == 1 and lines[0].startswith("usurper: error: "), (args, err)
        if code == 1:
            assert args[0] == "verify" and out.startswith("Illegal: "), (args, out)
        assert "Traceback" not in err

