"""The bid-threshold study's computation: per-row completions, and hands × samples in batches."""

import numpy as np
import pandas as pd
import pytest

from tarot_advisor.analyzer.advice.hand_samples import Sides
from tarot_advisor.analyzer.advice.heuristic import point_count, point_counts
from tarot_advisor.analyzer.cards import EXCUSE, IS_TRUMP, PETIT, parse_cards
from tarot_advisor.analyzer.game import BIDS, hand_size
from tarot_advisor.analyzer.parallel import chunk_seed
from tarot_advisor.analyzer.playout.deal import DealError, PetitSecError, complete, deal, petit_sec
from tarot_advisor.analyzer.studies.study import (
    DEFAULT_CHUNK_HANDS,
    SEARCH_CHUNK_HANDS,
    StudyError,
    StudyParameters,
    columns,
    draw_hands,
    number_sources,
    run_chunk,
    study_chunk,
)

# Worked example 1 of rules.md §11 (60 points) and a hand without the Petit.
STRONG = parse_cards("21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠")
NO_PETIT = parse_cards("20 18 14 13 9 8 6 R♥ 10♥ 5♥ 4♥ R♦ D♦ 8♣ 7♣ 8♠ 7♠ 5♠")
GREEDY = Sides("greedy", "greedy")
"""The engine's greedy at every seat: these tests are about the study's bookkeeping, which any
play shows, and the greedy is 100 times cheaper than the lookahead the studies default to."""


def _assert_binomial(counts: np.ndarray, trials: int, p: np.ndarray) -> None:
    """Every count within 5 standard errors of ``trials * p``."""
    z = (counts - trials * p) / np.sqrt(trials * p * (1 - p))
    assert np.abs(z).max() < 5, f"largest |z| = {np.abs(z).max():.2f}"


def test_each_row_keeps_its_hand_at_its_seat_and_deals_every_card_once():
    hands = np.array([STRONG, NO_PETIT, STRONG], np.uint8)
    deals = complete(np.random.default_rng(1), hands, np.array([2, 0, 3]), 4)
    assert (np.sort(deals.hands[0, 2]) == np.sort(STRONG)).all()
    assert (np.sort(deals.hands[1, 0]) == np.sort(NO_PETIT)).all()
    assert (np.sort(deals.hands[2, 3]) == np.sort(STRONG)).all()
    assert (np.sort(deals.cards, axis=1) == np.arange(78)).all()


@pytest.mark.parametrize("players", [3, 5])
def test_every_player_count_completes_a_whole_deal(players):
    h = hand_size(players)
    hands, seats = draw_hands(np.random.default_rng(2), 50, players)
    deals = complete(np.random.default_rng(3), hands, seats, players)
    held = deals.hands[np.arange(50), seats]
    assert (np.sort(held, axis=1) == hands).all()
    assert hands.shape == (50, h)
    assert (np.sort(deals.cards, axis=1) == np.arange(78)).all()


def test_the_unseen_cards_fall_in_each_other_hand_and_the_chien_in_proportion():
    # With the Petit in the known hand no other hand can be petit sec: the law is plain uniform.
    n = 60_000
    deals = complete(np.random.default_rng(4), np.tile(STRONG, (n, 1)), 1, 4)
    unseen = np.setdiff1d(np.arange(78), STRONG)
    groups = [deals.hands[:, 0], deals.hands[:, 2], deals.hands[:, 3], deals.chien]
    counts = np.stack([np.bincount(g.ravel(), minlength=78)[unseen] for g in groups], axis=1)
    p = np.broadcast_to(np.array([18, 18, 18, 6]) / 60, counts.shape)
    _assert_binomial(counts, n, p)


def test_rejecting_petit_sec_row_by_row_matches_the_dealer():
    # Seat 3's hand beside NO_PETIT at seat 1: its trump count, from complete() and from the
    # project's dealer with the same known hand, must agree (the conditional law has no petit
    # sec, and one trump is where rejection bites).
    n = 60_000
    ours = complete(np.random.default_rng(5), np.tile(NO_PETIT, (n, 1)), 1, 4)
    theirs = deal(np.random.default_rng(6), n, 4, known_hands={1: NO_PETIT}, reject_petit_sec=True)
    assert not petit_sec(ours.hands).any()
    a = np.bincount(IS_TRUMP[ours.hands[:, 3]].sum(axis=1), minlength=19)
    b = np.bincount(IS_TRUMP[theirs.hands[:, 3]].sum(axis=1), minlength=19)
    seen = (a + b) > 0
    z = (a[seen] - b[seen]) / np.sqrt(a[seen] + b[seen])
    assert np.abs(z).max() < 5


def test_a_petit_sec_hand_or_a_bad_row_is_refused():
    petit_sec_hand = parse_cards("1 R♠ D♠ C♠ V♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ 1♠ R♥ D♥ C♥")
    with pytest.raises(PetitSecError, match="petit sec"):
        complete(np.random.default_rng(0), np.array([petit_sec_hand], np.uint8), 0, 4)
    with pytest.raises(DealError, match="twice"):
        complete(np.random.default_rng(0), np.array([STRONG[:-1] + STRONG[:1]], np.uint8), 0)
    with pytest.raises(DealError, match="seat"):
        complete(np.random.default_rng(0), np.array([STRONG], np.uint8), 4, 4)


def test_random_hands_are_never_petit_sec_and_positions_cover_every_seat():
    hands, seats = draw_hands(np.random.default_rng(7), 3000, 4)
    assert not petit_sec(hands).any()
    assert (np.diff(hands.astype(int), axis=1) > 0).all()  # sorted, no card twice
    assert set(np.unique(seats)) == {0, 1, 2, 3}


def test_a_least_point_count_keeps_only_the_strong_hands():
    hands, _ = draw_hands(np.random.default_rng(12), 40, 4, min_points=60)
    assert (point_counts(hands)[1] >= 60).all()
    # The draw is the same as without the bar, filtered: the first hands agree when all pass.
    weak, _ = draw_hands(np.random.default_rng(13), 5, 4)
    also, _ = draw_hands(np.random.default_rng(13), 5, 4, min_points=1)
    assert (point_counts(weak)[1] >= 1).all() and np.array_equal(weak, also)


def test_a_chunk_has_one_row_per_hand_with_consistent_columns():
    frame = study_chunk(
        np.random.default_rng(8), 6, players=4, samples=40, first_id=16, sides=GREEDY
    )
    assert list(frame.columns) == columns(4)
    assert frame["hand_id"].tolist() == list(range(16, 22))
    assert frame["position"].between(1, 4).all()
    for row in frame.itertuples():
        count = point_count(parse_cards(row.hand))
        assert (row.points, row.points_with_distribution) == (
            count.points,
            count.points_with_distribution,
        )
        assert row.heuristic_bid == count.bid
    # Prise and Garde are the same play: the same deals are made or lost.
    assert (frame["p_make_prise"] == frame["p_make_garde"]).all()
    scores = frame[[f"expected_score_{bid}" for bid in BIDS[1:]]].to_numpy()
    best = np.where(scores.max(axis=1) > 0, np.array(BIDS[1:])[scores.argmax(axis=1)], "pass")
    assert (frame["best_contract"] == best).all()
    # A poignée gain is given exactly where the taker could show one.
    assert (frame["poignee_gain"].isna() == (frame["poignee_share"] == 0)).all()


def test_ten_trumps_always_show_a_poignee_and_three_never_can():
    # Four players: a simple poignée is 10 trumps (the Excuse counting); strong hands have many.
    frame = study_chunk(
        np.random.default_rng(14), 40, players=4, samples=10, min_points=60, sides=GREEDY
    )
    frame = pd.concat(
        [frame, study_chunk(np.random.default_rng(15), 40, players=4, samples=10, sides=GREEDY)]
    )
    trumps = np.array(
        [sum(IS_TRUMP[c] or c == EXCUSE for c in parse_cards(h)) for h in frame["hand"]]
    )
    assert (trumps >= 10).any() and (trumps <= 3).any()
    assert (frame.loc[trumps >= 10, "poignee_share"] == 1).all()
    assert frame.loc[trumps <= 3, "poignee_gain"].isna().all()


def test_five_players_call_the_longest_suit():
    frame = study_chunk(np.random.default_rng(9), 4, players=5, samples=20, sides=GREEDY)
    assert list(frame.columns) == columns(5)
    for row in frame.itertuples():
        hand = parse_cards(row.hand)
        called = parse_cards(row.called)[0]
        assert called not in hand
        rank = called % 14
        lacking = [s for s in range(4) if 14 * s + rank not in hand]
        length = {s: sum(1 for c in hand if c < 56 and c // 14 == s) for s in lacking}
        assert length[called // 14] == max(length.values())


def test_a_chunk_depends_on_its_seed_and_index_only():
    parameters = StudyParameters(4, 20, 10, 3, chunk_hands=8, taker="greedy", defence="greedy")
    first = run_chunk(parameters, 1)[1]
    assert first.equals(run_chunk(parameters, 1)[1])
    assert not first.equals(run_chunk(parameters, 0)[1])
    assert len(run_chunk(parameters, 2)[1]) == 4  # the last chunk holds the remainder
    assert chunk_seed(3, 1).generate_state(4).tolist() == (
        np.random.SeedSequence(3).spawn(2)[1].generate_state(4).tolist()
    )


def test_stronger_hands_make_prise_more_often():
    frame = study_chunk(np.random.default_rng(10), 80, players=4, samples=50, sides=GREEDY)
    strong = frame.loc[frame["points"] >= 56, "p_make_prise"]
    weak = frame.loc[frame["points"] < 40, "p_make_prise"]
    assert len(strong) >= 3 and len(weak) >= 20
    assert strong.mean() > weak.mean()


def test_the_petit_in_a_sampled_hand_is_never_alone_without_the_excuse():
    frame = study_chunk(np.random.default_rng(11), 30, players=3, samples=10, sides=GREEDY)
    for hand in frame["hand"]:
        cards = parse_cards(hand)
        assert not (PETIT in cards and sum(IS_TRUMP[c] for c in cards) == 1 and EXCUSE not in cards)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"hands": 0}, "at least 1 hand"),
        ({"samples": 1}, "at least 2 samples"),
        ({"chunk_hands": 0}, "at least 1 hand"),
        ({"min_points": 81}, "from 0 to 80"),
        ({"taker": "minimax"}, "the taker's play 'minimax' is not a policy"),
        ({"defence": "Greedy"}, "the defence's play 'Greedy' is not a policy"),
    ],
)
def test_bad_study_parameters_are_refused(kwargs, message):
    arguments = {"players": 4, "hands": 10, "samples": 10, "seed": 0, **kwargs}
    with pytest.raises(StudyError, match=message):
        StudyParameters(**arguments)


def test_the_code_digest_covers_every_module_the_numbers_come_from():
    names = {path.stem for path in number_sources()}
    assert {"study", "paired", "engine", "greedy", "ecart", "scoring", "deal", "heuristic"} <= names
    assert {"policies", "lookahead", "worlds", "midgame"} <= names  # the play is a number's source
    assert "advisor" not in names  # the advisor's output is not a study's number


def test_the_play_is_a_parameter_and_sets_the_default_chunk():
    searched = StudyParameters(4, hands=10, samples=10, seed=0)
    assert (searched.taker, searched.defence) == ("lookahead", "lookahead")
    assert searched.chunk_hands == SEARCH_CHUNK_HANDS
    greedy = StudyParameters(4, 10, 10, 0, taker="greedy", defence="greedy")
    assert greedy.chunk_hands == DEFAULT_CHUNK_HANDS
    mixed = StudyParameters(4, 10, 10, 0, taker="greedy", defence="lookahead")
    assert mixed.chunk_hands == SEARCH_CHUNK_HANDS
    assert greedy.to_dict()["taker"] == "greedy" and mixed.to_dict()["defence"] == "lookahead"


def test_the_takers_score_on_the_same_hands_rises_against_a_random_defence():
    # The same seed draws the same hands and deals: only the defenders' cards differ.
    sharp = study_chunk(np.random.default_rng(16), 30, players=4, samples=20, sides=GREEDY)
    weak = Sides("greedy", "random")
    sloppy = study_chunk(np.random.default_rng(16), 30, players=4, samples=20, sides=weak)
    assert sharp["hand"].equals(sloppy["hand"])
    gain = sloppy["expected_score_garde"] - sharp["expected_score_garde"]
    assert gain.mean() > 20


def test_a_lookahead_chunk_plays_every_contract():
    frame = study_chunk(np.random.default_rng(17), 1, players=3, samples=3)
    assert list(frame.columns) == columns(3)
    assert frame["best_contract"].isin(BIDS).all()
