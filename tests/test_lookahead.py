"""The lookahead player inside the engine: every card it plays is legal for the referee, for 3,
4 and 5 players and every kind of contract; the same seed gives the same play."""

from __future__ import annotations

import numpy as np
import pytest

from tarot_advisor.analyzer.deal import deal
from tarot_advisor.analyzer.engine import play
from tarot_advisor.analyzer.game import Contract
from tarot_advisor.analyzer.greedy import GreedyPolicy
from tarot_advisor.analyzer.lookahead import LookaheadPolicy
from tarot_advisor.analyzer.record import replay
from tarot_advisor.analyzer.scoring import records, score
from tarot_advisor.reports.duel import choose_takers, playing


@pytest.mark.parametrize(
    ("players", "contract"),
    [
        (4, Contract.GARDE),
        (3, Contract.GARDE_SANS),
        (5, Contract.PRISE),
        (4, Contract.GARDE_CONTRE),
    ],
)
def test_every_card_of_the_lookahead_is_legal_and_scored_as_the_referee_scores(players, contract):
    deals = deal(np.random.default_rng(players), 6, players, reject_petit_sec=True)
    taker, called = choose_takers(deals)
    playout = play(
        deals,
        taker,
        contract,
        LookaheadPolicy(worlds=3, side="taker"),
        LookaheadPolicy(worlds=3, side="defence"),
        rng=np.random.default_rng(1),
        called=called,
    )
    scores = score(playout)
    for record in records(playout, scores):
        expected = record.pop("result")
        assert replay(record).as_dict()["scores"] == expected["scores"]


def test_same_seed_same_play():
    deals = deal(np.random.default_rng(7), 4, 4, reject_petit_sec=True)
    taker, _ = choose_takers(deals)

    def plays():
        policy = LookaheadPolicy(worlds=3)
        out = play(deals, taker, Contract.GARDE, policy, rng=np.random.default_rng(3))
        return out.plays

    assert (plays() == plays()).all()


def test_a_side_only_lookahead_plays_the_greedy_for_the_other_side():
    deals = deal(np.random.default_rng(8), 5, 4, reject_petit_sec=True)
    taker, _ = choose_takers(deals)
    greedy = GreedyPolicy()
    rng = np.random.default_rng(0)
    both_greedy = play(deals, taker, Contract.GARDE, greedy, greedy, rng=rng)
    lookahead = playing(LookaheadPolicy(worlds=3), "taker")
    assert lookahead.side == "taker"
    # As the defence's policy, a taker-side lookahead never searches: the greedy's play.
    defence_only = play(deals, taker, Contract.GARDE, greedy, lookahead, rng=rng)
    assert (defence_only.plays == both_greedy.plays).all()
