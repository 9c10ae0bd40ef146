"""The engine against the referee: every card it plays is legal, every outcome the same.

Deals are played by the engine (greedy and random policies, every contract, poignées shown,
5-player calls, announced chelems), written as deal records, and replayed card by card through
the referee (:mod:`record`), whose outcome must equal the engine's own.
"""

import numpy as np
import pytest

from tarot_advisor.analyzer.game import Contract
from tarot_advisor.analyzer.players.greedy import GreedyPolicy
from tarot_advisor.analyzer.players.policy import RandomPolicy, SimplePolicy
from tarot_advisor.analyzer.playout.deal import deal
from tarot_advisor.analyzer.playout.engine import play
from tarot_advisor.analyzer.playout.scoring import records, score
from tarot_advisor.analyzer.rulebook.calling import longest_suit_call
from tarot_advisor.analyzer.rulebook.record import replay


def play_and_replay(players, contract, policy, seed, n_deals, **options):
    rng = np.random.default_rng(seed)
    deals = deal(rng, n_deals, players, reject_petit_sec=True)
    taker = rng.integers(0, players, n_deals)
    if players == 5:
        hands = deals.hands[np.arange(n_deals), taker]
        options["called"] = longest_suit_call(hands)
    playout = play(deals, taker, contract, policy, rng=rng, **options)
    mismatches = []
    for record in records(playout, score(playout)):
        expected = replay(record).as_dict()
        got = record["result"]
        if got != expected:
            mismatches.append((got, expected, record))
    return mismatches


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("contract", list(Contract))
@pytest.mark.parametrize("policy", [GreedyPolicy(), RandomPolicy()], ids=lambda p: p.name)
def test_engine_plays_legally_and_scores_like_the_referee(players, contract, policy):
    seed = players * 100 + list(Contract).index(contract) * 10 + (policy.name == "greedy")
    mismatches = play_and_replay(players, contract, policy, seed, 150)
    assert mismatches == [], mismatches[:1]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_announced_chelem_and_hidden_poignees_agree_with_the_referee(players):
    mismatches = play_and_replay(
        players,
        Contract.GARDE,
        SimplePolicy(),
        7 + players,
        200,
        announce_chelem=True,
        taker_poignee=False,
    )
    assert mismatches == [], mismatches[:1]
