"""The écart: always legal, and the choices good players make."""

import numpy as np

from tarot_advisor.analyzer import bitboard as bb
from tarot_advisor.analyzer.cards import format_cards, parse_cards
from tarot_advisor.analyzer.deal import deal
from tarot_advisor.analyzer.ecart import GreedyEcart
from tarot_advisor.analyzer.rules import check_discard


def ecart_of(cards: str) -> str:
    lo, hi = bb.from_cards(np.array([parse_cards(cards)]))
    ecart_lo, ecart_hi = GreedyEcart().choose(lo, hi, 6)
    return format_cards(bb.to_cards(ecart_lo[0], ecart_hi[0]))


def test_every_ecart_of_random_hands_is_legal_for_the_referee():
    rng = np.random.default_rng(3)
    for players in (3, 4, 5):
        deals = deal(rng, 300, players)
        pool = np.concatenate([deals.hands[:, 0], deals.chien], axis=1)
        lo, hi = bb.from_cards(pool)
        ecart_lo, ecart_hi = GreedyEcart().choose(lo, hi, deals.chien.shape[1])
        for row in range(len(pool)):
            ecart = bb.to_cards(ecart_lo[row], ecart_hi[row])
            check_discard(pool[row].tolist(), ecart, players)


def test_a_short_suit_without_king_goes_whole_to_make_a_void():
    hand = "21 15 12 9 7 5 3 2 1 R♠ 8♠ 7♠ 4♠ R♥ D♥ 6♥ 5♥ 3♥ 2♥ R♦ 7♦ D♣ 9♣ 8♣"
    assert ecart_of(hand) == "8♠ 7♠ 7♦ D♣ 9♣ 8♣"


def test_honours_that_follow_the_king_are_kept_and_the_small_cards_go():
    hand = "21 20 19 18 17 16 15 14 13 12 1 Excuse R♠ D♠ C♠ 2♠ R♥ D♥ 3♥ R♦ D♦ 4♦ R♣ 5♣"
    # The four small cards, then two dames of the shorter king suits: never a trump while
    # suited cards remain, and the unbroken R D C♠ stays.
    assert ecart_of(hand) == "2♠ D♥ 3♥ D♦ 4♦ 5♣"


def test_trumps_go_only_when_forced_never_a_bout_and_are_the_lowest():
    hand = "21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 1 Excuse R♠ R♥ R♦ R♣ 2♣"
    assert ecart_of(hand) == "9 8 7 6 5 2♣"
