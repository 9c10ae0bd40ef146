"""Shared fixtures: random legal deals played out by the referee; the greedy standing in for a
table that searches."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable

import pytest
from greedy_table import STAND_IN_CONTROL

from tarot_advisor.analyzer.advice import control, hand_samples
from tarot_advisor.analyzer.cards import EXCUSE, IS_BOUT, IS_KING, IS_TRUMP
from tarot_advisor.analyzer.game import (
    PLAYER_COUNTS,
    Contract,
    chien_size,
    hand_size,
    poignee_thresholds,
)
from tarot_advisor.analyzer.playout import words
from tarot_advisor.analyzer.rulebook.referee import Game
from tarot_advisor.analyzer.rulebook.rules import is_petit_sec

COMPILE = """
import sys
import numpy as np
from tarot_advisor.analyzer.cards import parse_cards
from tarot_advisor.analyzer.game import Contract
from tarot_advisor.analyzer.players.greedy import GreedyPolicy
from tarot_advisor.analyzer.playout.deal import deal
from tarot_advisor.analyzer.playout.engine import play
from tarot_advisor.analyzer.search.lookahead import LookaheadPolicy

searching = sys.argv[1] == "every"
for players in map(int, sys.argv[2:]):
    rng = np.random.default_rng(1)
    called = {"called": np.full(2, parse_cards(["R♠"])[0])} if players == 5 else {}
    tables = [(GreedyPolicy(), None)]
    if searching:
        tables.insert(0, (LookaheadPolicy(side="taker"), GreedyPolicy()))
        searching = False
    for taker, defence in tables:
        cards = deal(rng, 2, players, reject_petit_sec=True)
        play(cards, 0, Contract.GARDE, taker, defence, rng=rng, **called)
"""
"""Games to the end for the numbers of players ``argv[2:]``: with ``argv[1] == "every"`` the
first number gets a lookahead's game, which compiles every kernel; the others only the greedy's,
which compiles the kernels specialised by the number of players (the greedy's ``play_out``)."""


def pytest_configure(config: pytest.Config) -> None:
    """Compile the kernels the tests need, for every number of players, before the tests start,
    in two processes side by side: one compiles every kernel and the first number's playout,
    the other the other numbers' playouts. Every kernel is compiled once, and the two halves
    take about the same CPU (about a minute each from nothing). After a change to the engine's
    sources each test worker would otherwise compile every number itself."""
    if hasattr(config, "workerinput") or not words.compiled():
        return
    missing = [players for players in PLAYER_COUNTS if not words.kept_for(players)]
    if missing:
        sys.stderr.write(f"Compiling the engine for {missing} players (once after a change)…\n")
        halves = [["every", str(missing[0])], ["greedy", *map(str, missing[1:])]]
        compiling = [
            subprocess.Popen([sys.executable, "-c", COMPILE, *half]) for half in halves if half[1:]
        ]
        for process in compiling:
            process.wait()  # a failure shows again, in the tests that compile what it could not


def _deal(rng: random.Random, players: int) -> tuple[list[list[int]], list[int]]:
    size = hand_size(players)
    while True:  # a petit sec voids the deal: deal again
        deck = list(range(78))
        rng.shuffle(deck)
        hands = [sorted(deck[seat * size : (seat + 1) * size]) for seat in range(players)]
        if not any(is_petit_sec(hand) for hand in hands):
            return hands, sorted(deck[players * size :])


def _ecart(rng: random.Random, pool: list[int], size: int) -> list[int]:
    plain = [c for c in pool if not (IS_KING[c] or IS_TRUMP[c] or c == EXCUSE)]
    if len(plain) >= size:
        return rng.sample(plain, size)
    trumps = [c for c in pool if IS_TRUMP[c] and not IS_BOUT[c]]
    return plain + rng.sample(trumps, size - len(plain))


def _call(rng: random.Random, hand: list[int]) -> int:
    rank = 14
    while all(14 * suit + rank - 1 in hand for suit in range(4)):
        rank -= 1
    return 14 * rng.randrange(4) + rank - 1


def _poignee(rng: random.Random, hand: list[int], players: int) -> list[int] | None:
    trumps = [c for c in hand if IS_TRUMP[c]]
    if EXCUSE in hand and len(trumps) + 1 in poignee_thresholds(players):
        return [*trumps, EXCUSE]  # the Excuse stands in: every trump is shown
    shown = [t for t in poignee_thresholds(players) if t <= len(trumps)]
    return rng.sample(trumps, rng.choice(shown)) if shown else None


def play_random_game(rng: random.Random, players: int) -> Game:
    """A random legal deal: random taker and contract, a legal écart, a call (5 players), the
    poignées of about half the players who can show one, now and then an announced chelem;
    then every card drawn uniformly among the legal plays."""
    hands, chien = _deal(rng, players)
    taker, contract = rng.randrange(players), rng.choice(list(Contract))
    called = _call(rng, hands[taker]) if players == 5 else None
    discard = None
    if contract.takes_chien:
        pool = hands[taker] + chien
        discard = _ecart(rng, pool, chien_size(players))
        hands[taker] = sorted(set(pool) - set(discard))
    poignees = []
    for seat, hand in enumerate(hands):
        shown = _poignee(rng, hand, players)
        if shown and rng.random() < 0.5:
            poignees.append((seat, shown))
    game = Game(
        players,
        hands,
        taker,
        contract,
        chien=chien,
        discard=discard,
        called=called,
        poignees=poignees,
        chelem_announced=rng.random() < 0.05,
    )
    while not game.is_over:
        game.play(rng.choice(game.legal_plays()))
    return game


@pytest.fixture(scope="session")
def random_game() -> Callable[[random.Random, int], Game]:
    """:func:`play_random_game`: ``random_game(rng, players)`` returns a finished :class:`Game`."""
    return play_random_game


@pytest.fixture
def greedy_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    """The greedy stands in for a searching table: the default analysis is then staged
    (test_plan.py, test_survey.py), a thousand times faster than with the lookahead."""
    monkeypatch.setattr(hand_samples, "SEARCHING", frozenset({"greedy"}))
    monkeypatch.setattr(control, "CONTROL_TABLE", STAND_IN_CONTROL)
