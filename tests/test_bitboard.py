"""Card sets as bitmasks: every conversion and bit helper, checked against plain Python."""

import numpy as np

from tarot_advisor.analyzer.cards import POINTS2, parse_card, parse_cards
from tarot_advisor.analyzer.playout import bitboard as bb


def test_every_card_round_trips_through_its_bit():
    for card in range(78):
        lo, hi = bb.from_cards(np.array([[card]]))
        assert bb.to_cards(lo[0], hi[0]) == [card]


def test_suited_cards_are_rank_major_so_the_lowest_bit_is_the_cheapest_card():
    lo, _ = bb.from_cards(np.array([parse_cards("R♠ 1♣ V♥")]))
    assert bb.to_cards(bb.lowest(lo)[0], 0) == [parse_card("1♣")]
    assert bb.to_cards(bb.highest(lo)[0], 0) == [parse_card("R♠")]


def test_a_whole_deck_counts_91_points_and_three_bouts():
    lo, hi = bb.from_cards(np.arange(78)[None, :])
    assert bb.points2(lo, hi)[0] == 182 == POINTS2.sum()
    assert bb.popcount(hi & bb.BOUTS_HI)[0] == 3


def test_bit_helpers_agree_with_python_integers_on_random_words():
    rng = np.random.default_rng(1)
    widths = rng.integers(1, 57, 5000)
    words = [int(rng.integers(1, 2**62)) % (1 << int(w)) or 1 for w in widths]
    x = np.array(words, dtype=np.uint64)
    assert bb.lowest_bit(x).tolist() == [(w & -w).bit_length() - 1 for w in words]
    assert bb.highest(x).tolist() == [1 << (w.bit_length() - 1) for w in words]
    few = np.array([w for w in words if w.bit_count() <= 52] + [(1 << 52) - 1 << 4], np.uint64)
    assert bb.top(few).tolist() == bb.highest(few).tolist()
    run = np.array([(1 << 56) - 1, (1 << 53) - 1 << 2], np.uint64)  # 53 ones in a row and more
    assert bb.highest(run).tolist() == [1 << 55, 1 << 54]
    assert bb.popcount(x).tolist() == [w.bit_count() for w in words]


def test_above_an_empty_set_is_everything_and_select_is_where():
    assert bb.above_or_all(np.array([0], np.uint64))[0] == ~bb.ZERO
    assert bb.above(np.array([4], np.uint64))[0] == ~np.uint64(7)
    mask = np.array([True, False, True])
    a, b = np.array([1, 2, 3], np.uint64), np.array([7, 8, 9], np.uint64)
    assert bb.select(mask, a, b).tolist() == [1, 8, 3]
    assert bb.keep(mask, a).tolist() == [1, 0, 3]
