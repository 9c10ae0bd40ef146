"""The point-count barème (rules.md §11), hand by hand, and its vectorised twin."""

import numpy as np
import pytest

from tarot_advisor.analyzer.advice.heuristic import (
    COMPONENTS,
    bid_for,
    heuristic_bids,
    point_count,
    point_counts,
)
from tarot_advisor.analyzer.cards import parse_cards
from tarot_advisor.analyzer.game import BIDS
from tarot_advisor.analyzer.playout.deal import deal

# Filler: small suited cards worth nothing in the barème, spread so that no suit reaches 5 cards
# nor falls to a void or singleton unless a test wants it.
FILLER = "2♠ 3♠ 4♠ 2♥ 3♥ 4♥ 2♦ 3♦ 4♦ 2♣ 3♣ 4♣"


def count(text: str):
    return point_count(parse_cards(text))


def test_worked_example_garde():
    result = count("21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠")
    assert result.points == 60
    assert result.bid == "garde"
    assert dict(result.breakdown) == {
        "21": 10,
        "excuse": 8,
        "petit": 7,  # 5 other trumps: the Excuse is one of them
        "trump_length": 12,  # 6 trumps, the Excuse included
        "major_trumps": 4,  # 21 and 19
        "major_runs": 0,
        "honours": 14,  # R♥ 6 + C♥ 2, V♦ 1, D♣ 3 + C♣ 2
        "suit_length": 5,  # five hearts
        "distribution": 0,
    }
    assert tuple(result.breakdown) == COMPONENTS


def test_worked_example_pass():
    result = count("20 18 14 13 9 8 6 R♥ 10♥ 5♥ 4♥ R♦ D♦ 8♣ 7♣ 8♠ 7♠ 5♠")
    assert result.points == 34
    assert result.bid == "pass"
    assert result.breakdown["honours"] == 16  # R♥ 6, R♦ + D♦ 10


@pytest.mark.parametrize(
    ("trumps", "runs"),
    [("16 17 18", 3), ("20 21", 2), ("16 18 20", 0), ("16 17 19 20 21", 5), ("15 16", 0)],
)
def test_each_major_trump_in_a_run_scores_one_more(trumps, runs):
    assert count(f"{trumps} {FILLER}").breakdown["major_runs"] == runs


def test_major_trumps_score_two_each():
    assert count(f"16 18 20 {FILLER}").breakdown["major_trumps"] == 6
    assert count(f"15 14 13 {FILLER}").breakdown["major_trumps"] == 0


@pytest.mark.parametrize(
    ("others", "bonus"),
    [("2 3", 0), ("2 3 4", 0), ("2 3 4 5", 5), ("2 3 4 Excuse", 5), ("2 3 4 5 6", 7),
     ("2 3 4 5 6 7", 9), ("2 3 4 5 6 7 8 9", 9)],
)  # fmt: skip
def test_the_petit_is_worth_more_with_more_other_trumps(others, bonus):
    assert count(f"1 {others} {FILLER}").breakdown["petit"] == bonus


def test_two_points_per_trump_from_four_trumps_the_excuse_included():
    assert count(f"2 3 4 {FILLER}").breakdown["trump_length"] == 0
    assert count(f"2 3 4 Excuse {FILLER}").breakdown["trump_length"] == 8
    assert count(f"2 3 4 5 6 {FILLER}").breakdown["trump_length"] == 10


@pytest.mark.parametrize(
    ("suit", "points"),
    [("R♠ D♠", 10), ("R♠", 6), ("D♠", 3), ("C♠", 2), ("V♠", 1), ("R♠ D♠ C♠ V♠", 13),
     ("R♠ C♠", 8), ("10♠ 9♠", 0)],
)  # fmt: skip
def test_honours_of_a_suit(suit, points):
    assert count(f"{suit} 5♥ 6♥ 7♥").breakdown["honours"] == points


@pytest.mark.parametrize(("length", "points"), [(4, 0), (5, 5), (6, 7), (7, 9), (9, 9)])
def test_long_suits(length, points):
    hearts = " ".join(f"{r}♥" for r in range(1, length + 1))
    assert count(f"{hearts} 1♠ 2♠ 3♠ 4♠").breakdown["suit_length"] == points


def test_voids_and_singletons_count_only_toward_garde_sans_and_contre():
    # No ♣ (void 6), one ♦ (singleton 3).
    result = count("2♠ 3♠ 4♠ 2♥ 3♥ 4♥ 2♦")
    assert result.breakdown["distribution"] == 9
    assert result.points_with_distribution == result.points + 9


def test_distribution_lifts_a_hand_only_into_garde_sans_or_contre():
    assert bid_for(39, 50) == "pass"
    assert bid_for(40, 40) == "prise"
    assert bid_for(55, 70) == "prise"
    assert bid_for(56, 56) == "garde"
    assert bid_for(65, 71) == "garde_sans"
    assert bid_for(70, 81) == "garde_contre"
    assert bid_for(71, 71) == "garde_sans"
    assert bid_for(81, 81) == "garde_contre"


def test_a_monster_hand_bids_garde_contre():
    result = count("21 20 19 18 17 16 15 14 13 12 1 Excuse R♠ D♠ R♥ D♥ R♦ R♣")
    assert result.points >= 81
    assert result.bid == "garde_contre"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_vectorised_count_equals_the_plain_one(players):
    hands = deal(np.random.default_rng(11), 3000, players).hands[:, 0]
    points, with_distribution = point_counts(hands)
    bids = heuristic_bids(points, with_distribution)
    for hand, p, pd, bid in zip(hands, points, with_distribution, bids, strict=True):
        expected = point_count(hand)
        assert (p, pd, BIDS[bid]) == (
            expected.points,
            expected.points_with_distribution,
            expected.bid,
        )
    # The sample reaches several bids, so the comparison covers more than passes.
    assert len(set(bids.tolist())) >= 3


def test_the_vectorised_count_of_the_worked_examples():
    hands = np.array(
        [
            parse_cards("21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠"),
            parse_cards("20 18 14 13 9 8 6 R♥ 10♥ 5♥ 4♥ R♦ D♦ 8♣ 7♣ 8♠ 7♠ 5♠"),
        ],
        np.uint8,
    )
    points, with_distribution = point_counts(hands)
    assert points.tolist() == [60, 34]
    assert [BIDS[b] for b in heuristic_bids(points, with_distribution)] == ["garde", "pass"]
