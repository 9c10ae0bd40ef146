"""The advised pair's bids valued again once the focus has measured them: a bid is worth its
score as taker (the focus's, precise) less what the auction takes from it (the survey's, where
the bid does not stand), and the advice follows, with the chelem scored under it."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from tarot_advisor.analyzer.advice.action_values import AuctionResult, action_scores, steadied
from tarot_advisor.analyzer.advice.auction import AuctionSamples, bidder
from tarot_advisor.analyzer.advice.hand_samples import Bidding, Choice, Sides, focus_chunk
from tarot_advisor.analyzer.advice.survey import Surveyed
from tarot_advisor.analyzer.cards import parse_hand
from tarot_advisor.analyzer.game import BIDS, Contract
from tarot_advisor.analyzer.stats import Estimate

PRISE, GARDE, GARDE_SANS = Contract.PRISE, Contract.GARDE, Contract.GARDE_SANS
# Four deals: on the second a later player wants Garde (it overcalls a Prise, not a Garde); on
# the third an earlier player bid Prise (a Prise of the user's cannot stand).
SURVEY = AuctionSamples(
    highest=np.array([0, 0, 1, 0], np.int8),
    overcall=np.array([0, 2, 0, 0], np.int8),
    defended=np.array([0, 60, 30, 0], np.int64),
)
TAKEN = {
    PRISE: np.array([50, -70, 40, 20]),
    GARDE: np.array([100, -140, 80, 40]),
    GARDE_SANS: np.array([-200, -300, -100, -250]),
}


def _survey_result() -> AuctionResult:
    values = {a: Estimate.of(s) for a, s in action_scores(SURVEY, TAKEN).items()}
    values |= {a: Estimate(-999.0, 1.0) for a in BIDS if a not in values}
    return AuctionResult(None, "calibrated", BIDS, values, None)


def test_on_the_surveys_own_deals_the_steadied_value_is_the_surveys():
    survey = _survey_result()
    assert survey.values["prise"].mean == 40.0  # 50, then defended 60 and 30, then 20
    assert survey.values["garde"].mean == 20.0  # stands on every deal
    again = steadied(survey, SURVEY, TAKEN, {c: Estimate.of(TAKEN[c]) for c in (PRISE, GARDE)})
    assert again.values["prise"].mean == 40.0 and again.values["garde"].mean == 20.0


def test_a_bid_that_always_stands_is_worth_its_focus_score_as_precisely():
    again = steadied(_survey_result(), SURVEY, TAKEN, {GARDE: Estimate(90.0, 2.0)})
    assert again.values["garde"] == Estimate(90.0, 2.0)
    # A Prise loses what the Garde overcalling it and the Prise heard before take away.
    again = steadied(_survey_result(), SURVEY, TAKEN, {PRISE: Estimate(45.0, 1.0)})
    lost = Estimate.of(np.array([0, -70 - 60, 40 - 30, 0]))
    assert again.values["prise"].mean == 45.0 - lost.mean == 75.0
    assert again.values["prise"].se == np.hypot(1.0, lost.se)


def test_a_bid_played_on_the_first_deals_only_is_paired_with_those():
    # The survey's second round may leave a pair out: its bids rest on the first round's deals.
    first_two = {PRISE: TAKEN[PRISE][:2]}
    scores = action_scores(SURVEY, first_two)
    assert scores["prise"].tolist() == [50, 60]  # overcalled on the second deal: defended
    assert len(scores["pass"]) == 4
    again = steadied(_survey_result(), SURVEY, first_two, {PRISE: Estimate(45.0, 1.0)})
    assert again.values["prise"].mean == 45.0 - np.mean([0, -70 - 60]) == 110.0


def _surveyed() -> Surveyed:
    samples = {Choice(c, None): SimpleNamespace(score=s) for c, s in TAKEN.items()}
    outcomes = SimpleNamespace(samples=samples, auction=SURVEY)
    return Surveyed(outcomes, None, None, {}, _survey_result(), {}, None, (4,))


def test_the_focus_turns_a_prise_the_survey_advised_into_the_garde_it_measured_better():
    surveyed = _surveyed()
    assert surveyed.auction.recommendation == "prise"
    measured = {PRISE: Estimate(45.0, 1.0), GARDE: Estimate(90.0, 2.0)}
    auction, choice = surveyed.advised_again(Choice(PRISE, None), measured)
    assert auction.recommendation == "garde" and choice == Choice(GARDE, None)


def test_a_steadied_pair_fallen_below_a_contract_the_focus_never_measured_keeps_the_survey():
    surveyed = _surveyed()
    surveyed.auction.values["garde_sans"] = Estimate(30.0, 50.0)  # a noisy survey figure
    measured = {PRISE: Estimate(-50.0, 1.0), GARDE: Estimate(-25.0, 2.0)}
    auction, choice = surveyed.advised_again(Choice(PRISE, None), measured)
    assert auction is surveyed.auction and choice == Choice(PRISE, None)


def test_the_chelem_announced_in_the_focus_is_scored_under_both_contracts_of_the_pair():
    _, _, announced = focus_chunk(
        np.random.default_rng(3),
        12,
        hand=tuple(parse_hand("21 20 19 18 17 16 15 14 13 12 Excuse R♠ D♠ R♥ D♥ R♦ D♦ R♣")),
        players=4,
        position=None,
        choice=Choice(PRISE, None),
        keep_records=False,
        bidding=Bidding(bidder("calibrated")),
        sides=Sides("greedy", "greedy"),
        announced=6,
    )
    prise, garde = announced[PRISE], announced[GARDE]
    assert len(prise.score) == len(garde.score) == 6
    np.testing.assert_array_equal(prise.chelem_bonus, garde.chelem_bonus)
    # The same play at double stakes: the chelem's bonus is not doubled, the rest is.
    np.testing.assert_array_equal(
        garde.score - garde.chelem_bonus, 2 * (prise.score - prise.chelem_bonus)
    )
