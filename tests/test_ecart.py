"""The écart: always legal, and the choices good players make (voids first, then points)."""

import numpy as np
import pytest

from tarot_advisor.analyzer.cards import EXCUSE, IS_KING, IS_TRUMP, format_cards, parse_cards
from tarot_advisor.analyzer.playout import bitboard as bb
from tarot_advisor.analyzer.playout.deal import deal
from tarot_advisor.analyzer.playout.ecart import ECARTS, GreedyEcart, ShortSuitsEcart
from tarot_advisor.analyzer.rulebook.rules import check_discard


def ecart_of(cards: str, policy=None, count: int = 6) -> str:
    lo, hi = bb.from_cards(np.array([parse_cards(cards)]))
    ecart_lo, ecart_hi = (policy or GreedyEcart()).choose(lo, hi, count)
    return format_cards(bb.to_cards(ecart_lo[0], ecart_hi[0]))


@pytest.mark.parametrize("name", list(ECARTS))
def test_every_ecart_of_random_hands_is_legal_for_the_referee(name):
    rng = np.random.default_rng(3)
    for players in (3, 4, 5):
        deals = deal(rng, 300, players)
        pool = np.concatenate([deals.hands[:, 0], deals.chien], axis=1)
        lo, hi = bb.from_cards(pool)
        ecart_lo, ecart_hi = ECARTS[name]().choose(lo, hi, deals.chien.shape[1])
        for row in range(len(pool)):
            ecart = bb.to_cards(ecart_lo[row], ecart_hi[row])
            check_discard(pool[row].tolist(), ecart, players)


@pytest.mark.parametrize("name", list(ECARTS))
def test_hands_of_trumps_and_kings_discard_legally_too(name):
    # Pools of few plain cards (up to 8 beside the 26 trumps, Excuse and kings), so that trumps
    # are often forced: every écart the referee accepts, with 3, 4 and 5 players.
    rng = np.random.default_rng(4)
    trumps_and_kings = np.flatnonzero(IS_TRUMP | IS_KING | (np.arange(78) == EXCUSE))
    plain = np.flatnonzero(~(IS_TRUMP | IS_KING) & (np.arange(78) != EXCUSE))
    for players, size, pool_size in ((3, 6, 30), (4, 6, 24), (5, 3, 18)):
        pools = []
        for _ in range(200):
            n_plain = int(rng.integers(max(0, pool_size - 26), 9))
            cards = [*rng.choice(plain, n_plain, replace=False)]
            cards += [*rng.choice(trumps_and_kings, pool_size - n_plain, replace=False)]
            pools.append(cards)
        lo, hi = bb.from_cards(np.array(pools))
        ecart_lo, ecart_hi = ECARTS[name]().choose(lo, hi, size)
        for row, pool in enumerate(pools):
            check_discard(pool, bb.to_cards(ecart_lo[row], ecart_hi[row]), players)


def test_two_short_suits_without_a_king_go_whole_to_make_two_voids():
    hand = "21 18 15 12 9 6 3 Excuse R♠ D♠ 9♠ 5♠ 8♥ 3♥ 10♦ 7♦ 4♦ R♣ C♣ V♣ 6♣ 5♣ 4♣ 2♣"
    # ♥ and ♦ go whole; the sixth card saves points: the C♣, not a small card.
    assert ecart_of(hand) == "8♥ 3♥ 10♦ 7♦ 4♦ C♣"
    # The engine's écart before made one void only, and kept a small ♠ for the points.
    assert ecart_of(hand, ShortSuitsEcart()) == "5♠ 8♥ 3♥ 10♦ 7♦ 4♦"


def test_a_void_and_a_singleton_come_first_and_throw_as_few_honours_as_they_can():
    # The README's hand and chien: ♠ goes whole and ♦ down to its 8, keeping the D♣ C♣ (a
    # void of ♦ and the 2♣ alone would make the same shape but throw them).
    hand = "21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠"
    chien = "20 V♠ 3♠ 5♥ 9♦ 2♣"
    assert ecart_of(f"{hand} {chien}") == "V♠ 6♠ 4♠ 3♠ V♦ 9♦"
    # Before, the D♣ and C♣ went for their points, and no suit but ♦ was short.
    assert ecart_of(f"{hand} {chien}", ShortSuitsEcart()) == "V♠ V♦ 9♦ 8♦ D♣ C♣"


def test_a_king_with_few_guards_is_left_alone_and_the_rest_goes_to_points():
    hand = "21 19 16 13 10 7 4 1 Excuse R♠ 8♠ 5♠ D♥ C♥ 10♥ 9♥ 7♥ 6♥ 5♥ R♦ D♦ C♦ 9♦ 6♦"
    # R♠ sec wins the first ♠ and the taker then trumps ♠; the long ♥ gives its honours, and
    # the small cards of the shorter ♦ go last (the R D C♦ stay, masters).
    assert ecart_of(hand) == "8♠ 5♠ D♥ C♥ 9♦ 6♦"


def test_every_king_stands_alone_where_it_can_but_the_honours_below_a_king_stay():
    hand = "21 20 19 18 17 16 15 14 13 12 1 Excuse R♠ D♠ C♠ 2♠ R♥ D♥ 3♥ R♦ D♦ 4♦ R♣ 5♣"
    # R♥, R♦ and R♣ sec; the sixth card is the 2♠: the unbroken R D C♠ stays.
    assert ecart_of(hand) == "2♠ D♥ 3♥ D♦ 4♦ 5♣"


def test_with_five_players_the_three_cards_go_to_points_and_to_a_void_its_honours_pay_for():
    # The ♥ void costs two cards but holds the C♥; the third card is the D♠ behind its king.
    hand = "21 18 15 12 9 6 3 1 R♠ D♠ 4♠ C♥ 7♥ V♦ 8♦ 3♦ 10♣ 9♣"
    assert ecart_of(hand, count=3) == "D♠ C♥ 7♥"
    # No void is worth three small cards: the D♠, the V♦, then the lowest small card.
    hand = "21 18 15 12 9 6 3 1 Excuse R♠ D♠ 4♠ 7♥ 6♥ 5♥ V♦ 9♦ 8♦"
    assert ecart_of(hand, count=3) == "D♠ 4♠ V♦"
    assert ecart_of(hand, ShortSuitsEcart(), count=3) == "6♥ 5♥ V♦"


def test_trumps_go_only_when_forced_never_a_bout_and_are_the_lowest():
    hand = "21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 1 Excuse R♠ R♥ R♦ R♣ 2♣"
    assert ecart_of(hand) == "9 8 7 6 5 2♣"
