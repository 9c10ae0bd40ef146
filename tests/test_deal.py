"""The dealer: every deal is a shuffle of the 78 cards, uniformly random, known cards stay put."""

import numpy as np
import pytest

from tarot_advisor.analyzer import exact
from tarot_advisor.analyzer.cards import IS_TRUMP, parse_cards
from tarot_advisor.analyzer.game import chien_size, hand_size
from tarot_advisor.analyzer.playout.deal import DealError, Deals, PetitSecError, deal, petit_sec

EXAMPLE_HAND = parse_cards("21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠")


def _group_of_column(players: int) -> np.ndarray:
    """(78,) int: the seat owning each column, ``players`` for the chien."""
    h = hand_size(players)
    return np.minimum(np.arange(78) // h, players)


def _card_group_counts(deals: Deals) -> np.ndarray:
    """(78, n+1) int: how often each card lands in each seat's hand or in the chien."""
    groups = deals.players + 1
    codes = deals.cards.astype(np.intp) * groups + _group_of_column(deals.players)
    return np.bincount(codes.ravel(), minlength=78 * groups).reshape(78, groups)


def _assert_binomial(counts: np.ndarray, trials: int, p: np.ndarray) -> None:
    """Every count within 5 standard errors of ``trials * p``."""
    expected = trials * p
    sigma = np.sqrt(trials * p * (1 - p))
    z = (counts - expected) / sigma
    assert np.abs(z).max() < 5, f"largest |z| = {np.abs(z).max():.2f}"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_deal_uses_each_card_exactly_once(players):
    deals = deal(np.random.default_rng(1), 2000, players)
    assert deals.cards.dtype == np.uint8
    assert (np.sort(deals.cards, axis=1) == np.arange(78)).all()
    h, c = hand_size(players), chien_size(players)
    assert deals.hands.shape == (2000, players, h)
    assert deals.chien.shape == (2000, c)
    assert len(deals) == 2000
    # The views read the documented columns: seat s is [s*h, (s+1)*h), the chien the last c.
    assert (deals.hands[:, players - 1] == deals.cards[:, (players - 1) * h : players * h]).all()
    assert (deals.chien == deals.cards[:, 78 - c :]).all()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_each_card_lands_in_each_hand_in_proportion_to_its_size(players):
    n = 100_000
    deals = deal(np.random.default_rng(2), n, players)
    h, c = hand_size(players), chien_size(players)
    sizes = np.array([h] * players + [c])
    _assert_binomial(_card_group_counts(deals), n, np.broadcast_to(sizes / 78, (78, players + 1)))


def test_trumps_in_a_hand_follow_the_hypergeometric_law():
    n = 200_000
    deals = deal(np.random.default_rng(3), n)
    trumps = IS_TRUMP[deals.hands[:, 0]].sum(axis=1)
    counts = np.bincount(trumps, minlength=19)
    _assert_binomial(counts, n, np.array(exact.trumps_in_hand(4)))


def test_same_generator_state_gives_the_same_deals():
    first = deal(np.random.default_rng(7), 1000)
    second = deal(np.random.default_rng(7), 1000)
    assert np.array_equal(first.cards, second.cards)
    assert not np.array_equal(first.cards, deal(np.random.default_rng(8), 1000).cards)


def test_a_completion_keeps_the_known_hand_and_deals_the_rest_uniformly():
    n = 100_000
    deals = deal(np.random.default_rng(4), n, known_hands={0: EXAMPLE_HAND})
    assert (deals.hands[:, 0] == np.array(EXAMPLE_HAND, np.uint8)).all()
    assert (np.sort(deals.cards, axis=1) == np.arange(78)).all()
    unseen = np.setdiff1d(np.arange(78), EXAMPLE_HAND)
    counts = _card_group_counts(deals)[unseen][:, 1:]
    # The 60 unseen cards fill 3 hands of 18 and the chien of 6.
    p = np.broadcast_to(np.array([18, 18, 18, 6]) / 60, counts.shape)
    _assert_binomial(counts, n, p)


def test_known_chien_and_part_of_another_hand_stay_in_place():
    chien = parse_cards("R♠ D♠ C♠ V♠ 10♠ 9♠")
    partner = parse_cards("20 18")
    deals = deal(
        np.random.default_rng(5), 5000, known_hands={0: EXAMPLE_HAND, 2: partner}, known_chien=chien
    )
    assert (deals.chien == np.array(chien, np.uint8)).all()
    assert (deals.hands[:, 2, :2] == np.array(partner, np.uint8)).all()
    assert (np.sort(deals.cards, axis=1) == np.arange(78)).all()
    # The remaining 52 cards go 18 to seat 1, 18 to seat 3 and 16 to seat 2's free slots.
    counts = _card_group_counts(deals)
    free = np.setdiff1d(np.arange(78), EXAMPLE_HAND + chien + partner)
    _assert_binomial(counts[free, 2], 5000, np.full(free.size, 16 / 52))


def test_a_five_player_completion_fills_every_free_slot():
    hand = parse_cards("21 20 19 18 17 16 15 R♠ R♥ R♦ R♣ D♠ D♥ D♦ D♣")
    deals = deal(np.random.default_rng(6), 1000, 5, known_hands={4: hand})
    assert (deals.hands[:, 4] == np.array(hand, np.uint8)).all()
    assert (np.sort(deals.cards, axis=1) == np.arange(78)).all()


def test_petit_sec_is_the_petit_alone_without_the_excuse():
    suited = parse_cards("R♠ D♠ C♠ V♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ 1♠ R♥ D♥ C♥")
    assert petit_sec(np.array(parse_cards("1") + suited, np.uint8))
    assert not petit_sec(np.array(parse_cards("1 Excuse") + suited[:-1], np.uint8))
    assert not petit_sec(np.array(parse_cards("1 2") + suited[:-1], np.uint8))
    assert not petit_sec(np.array(parse_cards("21") + suited, np.uint8))


def test_rejecting_petit_sec_leaves_none_and_keeps_the_conditional_law():
    n = 200_000
    deals = deal(np.random.default_rng(9), n, reject_petit_sec=True)
    assert len(deals) == n
    assert not petit_sec(deals.hands).any()
    # P(seat 0 holds k trumps | no hand is petit sec), exactly: remove from P(T0 = k) the deals
    # where seat 0 is petit sec (k = 1) and those where another seat is, in which case seat 0's
    # 18 cards come from the 60 others, 20 of them trumps.
    p_sec = exact.petit_sec_in_hand(4)
    joint = np.array(exact.trumps_in_hand(4))
    joint[1] -= p_sec
    joint -= 3 * p_sec * np.array(exact.hypergeometric(20, 18, 60))
    conditional = joint / (1 - exact.petit_sec_in_deal(4))
    counts = np.bincount(IS_TRUMP[deals.hands[:, 0]].sum(axis=1), minlength=19)
    _assert_binomial(counts[:12], n, conditional[:12])


def test_a_known_petit_sec_hand_voids_the_deal():
    hand = parse_cards("1 R♠ D♠ C♠ V♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ 1♠ R♥ D♥ C♥")
    with pytest.raises(PetitSecError, match="petit sec"):
        deal(np.random.default_rng(0), 10, known_hands={0: hand}, reject_petit_sec=True)
    # Without rejection the dealer deals it anyway (a study may want to count such deals).
    assert len(deal(np.random.default_rng(0), 10, known_hands={0: hand})) == 10


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"known_hands": {0: parse_cards("21 20"), 1: parse_cards("20")}}, "20 is given twice"),
        ({"known_hands": {0: EXAMPLE_HAND + parse_cards("R♠")}}, "19 cards"),
        ({"known_chien": parse_cards("1♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠")}, "7 cards"),
        ({"known_hands": {4: parse_cards("21")}}, "seat 4 does not exist"),
        ({"known_hands": {0: [78]}}, "78"),
    ],
)
def test_impossible_known_cards_are_refused(kwargs, message):
    with pytest.raises(DealError, match=message):
        deal(np.random.default_rng(0), 10, **kwargs)


def test_a_negative_number_of_deals_is_refused():
    with pytest.raises(DealError):
        deal(np.random.default_rng(0), -1)


def test_ties_between_random_keys_do_not_bias_the_deal(monkeypatch):
    # Keep only 6 random bits per card so that equal keys across a hand boundary are the rule
    # (most deals are redrawn). Were the tied deals kept, low card ids would favour the earlier
    # seats: |z| reaches about 10 here.
    from tarot_advisor.analyzer.playout import deal as dealer

    monkeypatch.setattr(dealer, "_HIGH_BITS", np.uint32(0xFC000000))
    n = 100_000
    deals = deal(np.random.default_rng(10), n)
    assert (np.sort(deals.cards, axis=1) == np.arange(78)).all()
    p = np.broadcast_to(np.array([18, 18, 18, 18, 6]) / 78, (78, 5))
    _assert_binomial(_card_group_counts(deals), n, p)
