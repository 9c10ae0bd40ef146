"""Deal keys: copies of a deal played by the lookahead draw alike wherever their players know
the same, so alternatives compared on the same deals differ only by what they change."""

from __future__ import annotations

import numpy as np

from tarot_advisor.analyzer.cards import parse_cards
from tarot_advisor.analyzer.game import Contract
from tarot_advisor.analyzer.playout.deal import deal
from tarot_advisor.analyzer.playout.engine import play
from tarot_advisor.analyzer.playout.keys import draw_keys, mix, unit
from tarot_advisor.analyzer.playout.scoring import score
from tarot_advisor.analyzer.search.lookahead import LookaheadPolicy

HAND = parse_cards("21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠")


def test_dealing_keys_leaves_the_cards_dealt_after_as_they_were() -> None:
    with_keys, plain = np.random.default_rng(7), np.random.default_rng(7)
    draw_keys(with_keys, 5)
    assert with_keys.random() == plain.random()
    dealt = deal(np.random.default_rng(3), 4, 4)
    assert dealt.keys is not None and len(set(dealt.keys.tolist())) == 4


def test_a_key_mixed_with_other_parts_gives_unrelated_uniform_draws() -> None:
    draws = unit(mix(np.arange(20_000, dtype=np.uint64), 5))
    assert draws.min() >= 0 and draws.max() < 1
    assert abs(draws.mean() - 0.5) < 0.01
    assert mix(np.uint64(1), 2, 3)[0] != mix(np.uint64(1), 3, 2)[0]  # the order counts


def test_two_copies_of_a_deal_are_played_alike_by_the_lookahead_whatever_the_generator() -> None:
    deals = deal(np.random.default_rng(1), 6, 4, known_hands={0: HAND}, reject_petit_sec=True)
    copies = deals.rows(np.tile(np.arange(6), 2))
    policy = LookaheadPolicy()
    first = play(copies, 0, Contract.GARDE, policy, rng=np.random.default_rng(2))
    again = play(copies, 0, Contract.GARDE, policy, rng=np.random.default_rng(99))
    assert np.array_equal(first.played_lo[:, :6], first.played_lo[:, 6:])
    assert np.array_equal(first.played_hi[:, :6], first.played_hi[:, 6:])
    assert np.array_equal(score(first).taker_score, score(again).taker_score)
    # Keyed apart, the same deals are searched in other worlds: some card differs.
    apart = deals.rows(np.arange(6))
    apart = type(apart)(apart.players, apart.cards, apart.keys + np.uint64(1))
    other = play(apart, 0, Contract.GARDE, policy, rng=np.random.default_rng(2))
    assert not np.array_equal(other.played_lo, first.played_lo[:, :6])
