"""The focus's E[score] steadied by the greedy and the cards (analyzer/advice/control.py):
control variates whose coefficients are fixed beforehand, so the estimate stays unbiased, and
whose standard error is the one its samples show."""

from __future__ import annotations

import numpy as np
import pytest

from tarot_advisor.analyzer.advice.auction import bidder
from tarot_advisor.analyzer.advice.control import (
    FRESH_PER_SAMPLE,
    as_proportion,
    controlled,
    fit,
    fresh_bidding,
    fresh_per_sample,
    halves_mean,
    made_fit,
)
from tarot_advisor.analyzer.advice.hand_samples import Bidding
from tarot_advisor.analyzer.stats import Estimate, wilson_interval


def test_the_coefficient_is_the_slope_of_the_score_on_the_control() -> None:
    control = np.array([10.0, -20.0, 35.0, 5.0, 0.0])
    assert fit(3 * control + 7, control).beta == pytest.approx([3.0])
    assert fit(-0.5 * control, control).beta == pytest.approx([-0.5])


def test_a_control_that_never_varies_steadies_nothing() -> None:
    assert fit(np.array([1.0, 5.0, 9.0, 4.0]), np.full(4, 40.0)).beta == [0.0]
    assert fit(np.array([1.0, 5.0]), np.array([2.0, 3.0])).beta == [0.0]  # too few to fit


def test_whether_made_is_steadied_only_on_enough_makes_and_failures() -> None:
    # One make in 64, the greedy's only one: β would be 1 on the strength of one deal.
    made = np.zeros(64, bool)
    made[5] = True
    greedy = made.copy()
    assert fit(made, greedy).beta == pytest.approx([1.0])
    assert made_fit(made, greedy).beta == [0.0]
    # Fifteen makes are still too few; sixteen makes and forty-eight failures are enough.
    made[40:54] = True
    greedy[40:57] = True
    assert made_fit(made, greedy).beta == [0.0]
    made[54] = True
    assert made_fit(made, greedy).beta == fit(made, greedy).beta
    assert made_fit(made, greedy).beta[0] > 0


def test_a_second_covariate_steadies_what_the_first_misses() -> None:
    # The score is 2 × the greedy's plus 5 × the chien's points, plus noise: on 200 deals, the
    # fit on both covariates finds both slopes, and leaves the noise's spread.
    rng = np.random.default_rng(4)
    greedy, chien, noise = rng.normal(0, 50, 200), rng.integers(0, 20, 200), rng.normal(0, 10, 200)
    covariates = np.column_stack([greedy, chien])
    steadied = fit(2 * greedy + 5 * chien + noise, covariates)
    assert steadied.beta == pytest.approx([2.0, 5.0], abs=0.1)
    assert np.var(steadied.residuals) == pytest.approx(100, rel=0.25)


def test_on_few_samples_the_fit_keeps_the_lone_covariate_not_nine() -> None:
    # 16 deals: the score follows the greedy's (column 0); eight more columns are noise. Nine
    # slopes fitted on 16 deals would predict fresh deals worse than the greedy's alone.
    rng = np.random.default_rng(7)
    covariates = rng.normal(0, 1, (16, 9))
    score = 40 * covariates[:, 0] + rng.normal(0, 20, 16)
    steadied = fit(score, covariates, lone=0)
    assert np.flatnonzero(steadied.beta).tolist() == [0]
    assert fit(score, covariates, lone=None).beta.tolist() == [0.0] * 9


def test_where_fresh_deals_are_few_the_fit_steadies_nothing() -> None:
    # Half the score's spread is the greedy's: with 16 fresh deals a sample, its slope pays; with
    # one fresh deal for two samples, the fresh deals' own spread would cost more than it saves.
    rng = np.random.default_rng(3)
    greedy = rng.normal(0, 50, 300)
    score = greedy + rng.normal(0, 50, 300)
    assert fit(score, greedy).beta == pytest.approx([1.0], abs=0.2)
    assert fit(score, greedy, fresh=0.5).beta == [0.0]


def test_after_rare_bids_the_control_counts_on_fewer_fresh_deals() -> None:
    # The fresh deals of a focus sample get as many draws in all as the sample itself: 2,000
    # for a table that searches, 125 for each of the 16 fresh deals.
    silent = Bidding(bidder("calibrated"))
    heard = Bidding(bidder("calibrated"), (1, 2), draws=2000)
    assert fresh_bidding(heard).draws == 125
    assert fresh_per_sample(silent, (640, 640)) == FRESH_PER_SAMPLE
    # 1 deal in 100 fits "prise garde": 125 draws find one for every fresh deal.
    assert fresh_per_sample(heard, (100, 10_000)) == FRESH_PER_SAMPLE
    # 17 in 10,000: the sample still finds its deal, each fresh deal only 0.2125 of one.
    assert fresh_per_sample(heard, (17, 10_000)) == pytest.approx(16 * 0.2125)
    # 1 in 10,000: the sample finds 0.2 of its deal, each fresh deal 0.0125.
    assert fresh_per_sample(heard, (1, 10_000)) == pytest.approx(16 * 0.0125 / 0.2)


def test_the_spread_is_the_left_out_residuals_and_the_fresh_deals_share() -> None:
    # Each deal's residual from the slope fitted on the four others, then the fresh deals'
    # share of the variance: β² Var(control) / 16.
    score = np.array([100.0, -50.0, 120.0, 80.0, 10.0])
    control = np.array([90.0, -40.0, 100.0, 60.0, 30.0])
    left_out = []
    for i in range(5):
        others = np.arange(5) != i
        slope, intercept = np.polyfit(control[others], score[others], 1)
        left_out.append(score[i] - (slope * control[i] + intercept))
    steadied = fit(score, control)
    assert steadied.residuals == pytest.approx(left_out)
    slope = steadied.beta[0]
    assert FRESH_PER_SAMPLE == 16
    expected = np.var(left_out, ddof=1) + slope**2 * np.var(control, ddof=1) / 16
    assert steadied.spread == pytest.approx(expected)


def test_a_perfect_control_gives_the_mean_of_the_fresh_deals_exactly() -> None:
    # The score is 10 × the control on every deal: the focus's residuals are all 0, and E[score]
    # is 10 × the fresh deals' mean control, with no spread on either side.
    control = np.array([1.0, 2.0, 3.0, 4.0])
    estimate = controlled(10 * control, control, np.array([2.5, 2.5, 2.5]), beta=10.0)
    assert estimate.mean == 25.0 and estimate.se == 0.0 and estimate.n == 4


def test_each_half_may_be_steadied_by_its_own_beta() -> None:
    # Half 0 with β = 10 (its residuals 0 and 0), half 1 with β = 0 (30 and 40): the mean of the
    # halves' means, 17.5, plus their mean β, 5, times the fresh deals' mean control, 2: 27.5.
    score, control = np.array([10.0, 20.0, 30.0, 40.0]), np.array([1.0, 2.0, 3.0, 4.0])
    halves = np.array([0, 0, 1, 1])
    estimate = controlled(score, control, np.array([2.0, 2.0]), (10.0, 0.0), halves)
    assert estimate.mean == pytest.approx(27.5)
    assert estimate.se == pytest.approx(np.sqrt(50.0 / 2) / 2)  # half 1's spread, halved


def fitted(
    survey: tuple[np.ndarray, np.ndarray], score: np.ndarray, control: np.ndarray
) -> np.ndarray:
    """β fitted on the ``survey``'s scores and controls, and on these."""
    return fit(np.concatenate([survey[0], score]), np.concatenate([survey[1], control])).beta


@pytest.mark.slow
def test_halves_steadied_by_betas_fitted_on_each_other_stay_unbiased() -> None:
    # As the focus does: each half's β fitted on a survey of 32 and the other half's first 50,
    # none of its own, on three covariates (the greedy's score, the chien's points, and one
    # that tells nothing). 2,000 focuses of two halves of 100: E = 100 within 4 standard
    # errors, and the error they report is their spread.
    rng = np.random.default_rng(21)

    def deals(n: int) -> tuple[np.ndarray, np.ndarray]:
        luck, chien, noise = rng.standard_normal(n), rng.integers(0, 12, n), rng.standard_normal(n)
        score = 100 + 60 * luck + 8 * (chien - 5.5) + 80 * noise
        return score, np.column_stack([220 + 90 * luck, chien, rng.standard_normal(n)])

    means, reported = [], []
    halves = np.repeat([0, 1], 100)
    for _ in range(2000):
        survey, (score_a, control_a), (score_b, control_b) = deals(32), deals(100), deals(100)
        betas = (
            fitted(survey, score_b[:50], control_b[:50]),
            fitted(survey, score_a[:50], control_a[:50]),
        )
        fresh = deals(FRESH_PER_SAMPLE * 200)[1]
        score, control = np.concatenate([score_a, score_b]), np.concatenate([control_a, control_b])
        estimate = controlled(score, control, fresh, betas, halves)
        means.append(estimate.mean)
        reported.append(estimate.se)
    means = np.array(means)
    assert abs(means.mean() - 100) < 4 * means.std(ddof=1) / np.sqrt(len(means))
    assert means.std(ddof=1) == pytest.approx(np.mean(reported), rel=0.06)


@pytest.mark.slow
def test_steadied_estimates_average_to_the_true_mean_with_the_error_they_report() -> None:
    # Scores as a deal's luck (shared with the control) plus the player's own noise: E = 100,
    # correlation 0.6 with the control. 2,000 analyses, each fitting β on a survey of 64 and
    # steadying a focus of 200: their mean is 100 within 4 standard errors, their spread is
    # the standard error they report, and it is 0.8 of the plain mean's (√(1 − 0.6²)).
    rng = np.random.default_rng(12)

    def deals(n: int) -> tuple[np.ndarray, np.ndarray]:
        luck, noise = rng.standard_normal(n), rng.standard_normal(n)
        return 100 + 60 * luck + 80 * noise, 220 + 90 * luck  # score, control

    steadied, plain, reported = [], [], []
    for _ in range(2000):
        beta = fit(*deals(64)).beta
        score, control = deals(200)
        fresh = deals(FRESH_PER_SAMPLE * 200)[1]
        estimate = controlled(score, control, fresh, beta)
        steadied.append(estimate.mean)
        reported.append(estimate.se)
        plain.append(score.mean())
    steadied, plain = np.array(steadied), np.array(plain)
    assert abs(steadied.mean() - 100) < 4 * steadied.std(ddof=1) / np.sqrt(len(steadied))
    assert steadied.std(ddof=1) == pytest.approx(np.mean(reported), rel=0.06)
    assert steadied.std(ddof=1) / plain.std(ddof=1) == pytest.approx(0.8, abs=0.05)


def test_a_steadied_proportion_has_the_wilson_interval_of_the_plain_samples_as_precise() -> None:
    # 0.6 ± 0.01 is as precise as 0.6 × 0.4 / 0.01² = 2,400 plain samples: its interval is
    # theirs, whatever the 1,000 samples it was measured on.
    steadied = as_proportion(Estimate(0.6, 0.01, 1000))
    assert steadied.n == 1000 and steadied.effective == pytest.approx(2400)
    assert steadied.wilson() == pytest.approx(wilson_interval(0.6, 2400))
    # Outside 0–1 by the control's correction: back within, and the plain interval at the end.
    edge = as_proportion(Estimate(1.004, 0.003, 500))
    assert edge.mean == 1.0 and edge.effective is None
    assert edge.wilson() == wilson_interval(1.0, 500)


def test_the_mean_of_the_halves_is_the_mean_of_their_means_its_spread_both_halves() -> None:
    values = np.array([10.0, 20.0, 30.0, 100.0, 200.0])
    halves = np.array([0, 0, 0, 1, 1])
    estimate = halves_mean(values, halves)
    assert estimate.mean == pytest.approx((20.0 + 150.0) / 2) and estimate.n == 5
    # Squares about each half's own mean: 200 (10, 20, 30) and 5,000 (100, 200), over 2 + 1
    # degrees of freedom; the error of the mean of two means of 3 and 2 such samples.
    assert estimate.se == pytest.approx(np.sqrt(5200.0 / 3 * (1 / 3 + 1 / 2)) / 2)
    assert halves_mean(values).mean == pytest.approx(72.0)  # one half: the plain mean


@pytest.mark.slow
def test_halves_sized_by_each_other_stay_unbiased_where_a_focus_sized_by_itself_does_not() -> None:
    # A contract made 9 times in 10 (+100, else −300: E = 60). A focus sized by the spread of
    # its own first round runs longer when that round was unlucky, which dilutes the bad luck:
    # its pooled mean comes out about 7 too high. Two halves, each sized by the other's first
    # round, averaged alike: E = 60 within 4 standard errors (20,000 focuses).
    rng = np.random.default_rng(3)

    def deals(n: int) -> np.ndarray:
        return np.where(rng.random(n) < 0.9, 100.0, -300.0)

    def asked(first_round: np.ndarray) -> int:  # the samples a half plays in all
        return int(min(400, max(8, np.var(first_round, ddof=1) / 40)))

    pooled, halved = [], []
    for _ in range(20_000):
        a, b = deals(8), deals(8)
        both = np.concatenate([a, b])
        pooled.append(np.concatenate([both, deals(2 * asked(both) - 16)]).mean())
        a = np.concatenate([a, deals(asked(b) - 8)])
        b = np.concatenate([b, deals(asked(a[:8]) - 8)])
        halved.append(halves_mean(np.concatenate([a, b]), np.repeat([0, 1], [len(a), len(b)])).mean)
    pooled, halved = np.array(pooled), np.array(halved)
    assert pooled.mean() - 60 > 20 * pooled.std(ddof=1) / np.sqrt(len(pooled))
    assert abs(halved.mean() - 60) < 4 * halved.std(ddof=1) / np.sqrt(len(halved))


def test_the_halves_error_measures_the_spread_of_their_mean_when_each_sizes_the_other() -> None:
    # A contract made 9 times in 10 (+100, else −300), two halves of 128 each playing on to what
    # the other's first round asks for, often of unequal sizes: over 4,000 focuses the error they
    # report is the spread their mean really has, and its 95% interval holds the mean (60) about
    # 94% of the time (a score this skewed has a mean not quite normal at a few hundred samples).
    rng = np.random.default_rng(7)

    def deals(n: int) -> np.ndarray:
        return np.where(rng.random(n) < 0.9, 100.0, -300.0)

    def asked(first_round: np.ndarray) -> int:
        return int(max(144, 1.15 * np.var(first_round, ddof=1) / 15.0**2 * 2))

    means, errors = [], []
    for _ in range(4_000):
        a, b = deals(128), deals(128)
        a, b = (
            np.concatenate([a, deals(asked(b) - 128)]),
            np.concatenate([b, deals(asked(a) - 128)]),
        )
        estimate = halves_mean(np.concatenate([a, b]), np.repeat([0, 1], [len(a), len(b)]))
        means.append(estimate.mean)
        errors.append(estimate.se)
    means, errors = np.array(means), np.array(errors)
    assert np.sqrt(np.mean(errors**2)) / means.std(ddof=1) == pytest.approx(1.0, abs=0.05)
    assert 0.92 < np.mean(np.abs(means - 60.0) <= 1.96 * errors) < 0.97
