"""The engine played in parts: a game stopped at any card, some of its deals taken (repeated,
reordered), and played on, plays every taken deal as one uninterrupted playout does (and as
the same deals taken from that playout)."""

import numpy as np
import pytest

from tarot_advisor.analyzer.deal import deal
from tarot_advisor.analyzer.engine import play, play_on, start
from tarot_advisor.analyzer.game import Contract
from tarot_advisor.analyzer.greedy import GreedyPolicy
from tarot_advisor.analyzer.scoring import score
from tarot_advisor.reports.duel import choose_takers


@pytest.mark.parametrize(
    ("players", "contract", "stop"),
    [
        (4, Contract.GARDE, 29),
        (5, Contract.PRISE, 0),
        (5, Contract.GARDE_SANS, 41),
        (3, Contract.GARDE_CONTRE, 71),
    ],
)
def test_a_game_stopped_taken_and_played_on_plays_as_one(players, contract, stop):
    deals = deal(np.random.default_rng(players), 40, players, reject_petit_sec=True)
    taker, called = choose_takers(deals)
    options = dict(called=called)
    whole = play(deals, taker, contract, GreedyPolicy(), rng=np.random.default_rng(0), **options)
    game = start(deals, taker, contract, **options)
    play_on(game, GreedyPolicy(), rng=np.random.default_rng(0), until=stop)
    rows = np.array([3, 3, 0, 39, 17, 3])
    game = game.take(rows)
    play_on(game, GreedyPolicy(), rng=np.random.default_rng(0))
    part = game.playout()
    assert (part.plays == whole.plays[rows]).all()
    assert (score(part).scores == score(whole).scores[rows]).all()
    taken = whole.take(rows)
    assert (taken.plays == part.plays).all() and (taken.shown_hi == part.shown_hi).all()
    assert (score(taken).scores == score(part).scores).all()
