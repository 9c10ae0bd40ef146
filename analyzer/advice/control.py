"""The focus's figures steadied by the greedy and the cards: control variates that keep them
unbiased.

On the same deal, the score of the lookahead table (L) and quantities known without playing
the lookahead are correlated: the greedy table's score (G), whether it made the contract, the
chien, how the defence's trumps lie (:mod:`covariates`, k of them, X). A greedy deal costs about
a thousandth of a lookahead one (6 µs against 6 ms), so E[X] can be measured on many fresh
deals for almost nothing, and

    Ê = mean over the focus of (L − X·β)  +  mean over M fresh deals of X·β

is an unbiased estimate of E[L] for any β fixed beforehand. Here each half of the focus fits
its β on the survey's samples and the other half's first round (:meth:`Steadying.fits`), none
of its own nor the fresh ones, so the focus's E[score] stays exactly unbiased; its variance,
Var(L − X·β)/n + βᵀ·Cov(X)·β/M, is (1 − R²) of the plain mean's, R² the share of L's variance
that X explains. Of no covariate, the greedy's score alone, or all of them, the fit keeps the
one whose leave-one-out residuals vary least (:func:`fit`): on the survey's 32 samples, nine
coefficients would fit its noise. Measured (:mod:`covariates`), R² of the score goes from
0.09–0.35 with the greedy's score alone to 0.22–0.48 with all (4 players), and the focus of 24
random four-player hands from a median of 934 samples to 784. The focus is sized for this
variance (:attr:`Fit.spread`, :meth:`Steadying.needed`), and its mean over the focus is the mean
of its two halves' means (:func:`halves_mean`: a half's size leans on the other half's samples,
:mod:`plan`).

Whether the contract is made is steadied the same way, on the same covariates (the greedy's
make alone the lone one): P(make)'s Wilson interval is then taken at the plain samples that
would be as precise, p(1 − p)/SE² (Korn and Graubard's effective sample size), and its mean
kept within 0–1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from ..game import Contract
from ..stats import Estimate
from . import plan
from .covariates import MADE, SCORE
from .hand_samples import (
    GREEDY_TABLE,
    Bidding,
    Choice,
    ContractSamples,
    Replayed,
    Sides,
    replayed_chunk,
)
from .runs import Run

CONTROL_TABLE = GREEDY_TABLE
"""The table whose scores steady the focus's: the greedy at every seat."""
FRESH_PER_SAMPLE = 16
"""Fresh greedy deals per focus sample, for E[X]: their share of the variance is then about
R²/16 of the plain mean's, for 1–3% of the focus's time."""
MIN_EACH = 16
"""Makes and failures the samples a fit rests on must show before whether a contract is made is
steadied: with fewer, β rests on a handful of deals (one make that the greedy shares gives
β = 1), and a half of the focus that saw none of them takes the greedy's makes as a spread its
own samples do not have. With 8, a 3-player hand to pass, its Prise made 1.5% of the time, was
steadied on 9 makes: one half of its focus held 5 makes, the other none, and P(make) came out
1.4% [0.3–5.7], against 2.0% [0.9–4.4] with this rule (a focus of 308)."""
EACH_PER_COVARIATE = 2
"""Makes and failures per covariate the samples must show before whether a contract is made is
fitted on every covariate: a rare failure is a handful of deals, and nine slopes fit their
noise. On 200 draws of 160 deals of the README hand (9 failures each), the leave-one-out choice
among the three fits left more spread on fresh deals (0.0541) than no covariate (0.0537); on a
hand made 88% (20 failures), every covariate left 0.0923 against the greedy's make alone
0.0979 (a one-off experiment)."""
FRESH_FIRST_CHUNK = 1 << 31
"""The fresh deals' chunks are numbered from here (:func:`parallel.chunk_seed`): streams that
neither the survey (from 0) nor the focus (from 2**30) draw from."""


class Fit(NamedTuple):
    """A fitted control: ``beta`` (k,) float64, the coefficient of each covariate (0 for those
    left out), its (N,) leave-one-out ``residuals`` on the samples it was fitted on, and
    ``spread``, the variance per focus sample of :func:`controlled`'s estimate with it: the
    residuals', plus the fresh deals' share, βᵀ·Cov(covariates)·β / the fresh deals per focus
    sample (:data:`FRESH_PER_SAMPLE`, or :func:`fresh_per_sample`)."""

    beta: np.ndarray
    residuals: np.ndarray
    spread: float


def _columns(covariates: np.ndarray) -> np.ndarray:
    """(N, k) float64 from (N,) or (N, k) covariates."""
    covariates = np.asarray(covariates, np.float64)
    return covariates[:, None] if covariates.ndim == 1 else covariates


def _least_squares(values: np.ndarray, covariates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """β (k,) of the least-squares fit of (N,) ``values`` on (N, k) ``covariates`` and a
    constant, and its (N,) leave-one-out residuals (each residual over 1 − its leverage)."""
    # Centred, a covariate that never varies is a column of zeros, which gets no weight.
    design = np.column_stack([np.ones(len(values)), covariates - covariates.mean(axis=0)])
    inverse = np.linalg.pinv(design)
    coefficients = inverse @ values
    leverage = np.einsum("ij,ji->i", design, inverse)
    residuals = (values - design @ coefficients) / np.maximum(1 - leverage, 1e-9)
    return coefficients[1:], residuals


def fit(
    values: np.ndarray,
    covariates: np.ndarray,
    lone: int | None = 0,
    every: bool = True,
    fresh: float = FRESH_PER_SAMPLE,
) -> Fit:
    """The control of (N,) ``values`` by (N,) or (N, k) ``covariates`` of the same deals that
    leaves the least :attr:`Fit.spread` out of sample: of no covariate, column ``lone`` alone
    and (``every``) every column, the fit whose leave-one-out residuals vary least (fitted on a
    few samples, many columns predict fresh deals worse than they fit their own), with ``fresh``
    fresh deals per focus sample. ``lone=None``: no covariate. A fit needs 3 samples more than
    its columns."""
    values = np.asarray(values, np.float64)
    covariates = _columns(covariates)
    n, k = covariates.shape
    beta = np.zeros(k)
    residuals = (values - values.mean()) * n / max(n - 1, 1)
    best = Fit(beta, residuals, _spread(residuals, covariates, beta, fresh))
    choices = [] if lone is None else [[lone]] + ([list(range(k))] if every and k > 1 else [])
    for columns in choices:
        if n < len(columns) + 3:
            continue
        beta = np.zeros(k)
        beta[columns], residuals = _least_squares(values, covariates[:, columns])
        spread = _spread(residuals, covariates, beta, fresh)
        if spread < best.spread:
            best = Fit(beta, residuals, spread)
    return best


def made_fit(
    made: np.ndarray, covariates: np.ndarray, lone: int = 0, fresh: float = FRESH_PER_SAMPLE
) -> Fit:
    """:func:`fit` for whether a contract is made ((N,) bool): on no covariate when the samples
    hold fewer than :data:`MIN_EACH` makes or failures, on column ``lone`` at most when fewer
    than :data:`EACH_PER_COVARIATE` per covariate."""
    makes = int(np.sum(made))
    fewest = min(makes, len(made) - makes)
    every = fewest >= EACH_PER_COVARIATE * _columns(covariates).shape[1]
    return fit(made, covariates, lone if fewest >= MIN_EACH else None, every, fresh)


def _spread(residuals: np.ndarray, covariates: np.ndarray, beta: np.ndarray, fresh: float) -> float:
    """:attr:`Fit.spread` from (N,) residuals and (N, k) covariates of the same deals, with
    ``fresh`` fresh deals per focus sample."""
    own = float(np.var(residuals, ddof=1)) if len(residuals) > 1 else 0.0
    if not beta.any() or len(residuals) < 2:
        return own
    covariance = np.atleast_2d(np.cov(covariates, rowvar=False, ddof=1))
    return own + float(beta @ covariance @ beta) / fresh


def halves_mean(values: np.ndarray, halves: np.ndarray | None = None) -> Estimate:
    """The mean of (N,) ``values`` as the focus takes it: the mean of its halves' means
    (``halves``: (N,) int, 0 or 1 per sample; ``None``: one half), with its standard error. A
    half's size may depend on the other half's samples (:mod:`plan`), so the halves are
    weighted alike whatever their sizes; pooled, a sample's weight would lean on both.

    Its error is σ √(1/n₀ + 1/n₁) / 2, σ² the values' variance measured about each half's own
    mean, on both halves together: they are fresh draws of the same law, so each half's
    variance alone would only be a noisier measure of the same σ². It matters where the halves
    differ in size: a half sized small, whose variance weighs most in the error, sets the
    interval by its own luck alone otherwise (a four-player Garde, halves of 271 and 144: ± 6.08
    × the multiplier measured that way, ± 5.57 on both halves, on the same samples). On a simulated
    contract made 90% of the time, halves sized by each other (20,000 focuses), both ways cover
    the mean 94% of the time."""
    if halves is None:
        return Estimate.of(values)
    values = np.asarray(values, np.float64)
    parts = [part for part in (values[halves == 0], values[halves == 1]) if len(part)]
    mean = sum(float(part.mean()) for part in parts) / len(parts)
    freedom = sum(len(part) - 1 for part in parts)
    if freedom < 1:
        return Estimate(mean, 0.0, len(values))
    variance = sum(float(np.sum((part - part.mean()) ** 2)) for part in parts) / freedom
    spread = variance * sum(1 / len(part) for part in parts)
    return Estimate(mean, math.sqrt(spread) / len(parts), len(values))


def controlled(
    score: np.ndarray,
    covariates: np.ndarray,
    fresh: np.ndarray,
    beta: float | np.ndarray | tuple,
    halves: np.ndarray | None = None,
) -> Estimate:
    """E[score] from (N,) ``score`` and (N,) or (N, k) ``covariates`` of the same deals, and
    (M,) or (M, k) ``fresh`` covariates of other deals: mean(score − covariates·β)
    (:func:`halves_mean`) + β·mean(fresh), with its standard error (the two means are
    independent). With ``halves``, ``beta`` may be each half's (a pair): the mean of the halves'
    means of score − covariates·β_h, plus the halves' mean β times mean(fresh). ``n`` is N,
    the samples of the score."""
    covariates, fresh = _columns(covariates), _columns(fresh)
    k = covariates.shape[1]
    betas = np.broadcast_to(np.asarray(beta, np.float64).reshape(-1, k), (2, k))
    per_sample = betas[0] if halves is None else betas[np.asarray(halves)]
    residual = halves_mean(score - np.sum(covariates * per_sample, axis=-1), halves)
    present = [0] if halves is None else np.unique(halves)
    mean_beta = betas[present].mean(axis=0)
    if not mean_beta.any():
        return residual
    covariance = np.atleast_2d(np.cov(fresh, rowvar=False, ddof=1))
    variance = residual.se**2 + float(mean_beta @ covariance @ mean_beta) / len(fresh)
    return Estimate(
        residual.mean + float(mean_beta @ fresh.mean(axis=0)), math.sqrt(variance), len(score)
    )


def as_proportion(estimate: Estimate) -> Estimate:
    """A steadied proportion as one: its mean within 0–1, and the plain samples as precise
    (``effective``) for its Wilson interval, when it has a spread."""
    p = min(1.0, max(0.0, estimate.mean))
    if estimate.se > 0 and 0 < p < 1:
        return Estimate(p, estimate.se, estimate.n, p * (1 - p) / estimate.se**2)
    return Estimate(p, estimate.se, estimate.n)


Outcomes = dict[Contract, Replayed]
"""Per contract of a pair, the control table's outcomes and the deals' covariates."""


def replayed(run: Run, choice: Choice, sides: Sides) -> Outcomes:
    """``choice``'s pair played by ``sides`` on ``run``'s samples (the same deals as the run's
    other tasks draw), its chunks end to end."""
    return joined(replayed_parts(run, choice, sides))


def replayed_parts(run: Run, choice: Choice, sides: Sides) -> list[Outcomes]:
    """:func:`replayed`, chunk by chunk."""
    return run.map(replayed_chunk, choice=choice, sides=sides)


def joined(parts: list[Outcomes]) -> Outcomes:
    """Outcomes of chunks, end to end."""
    return {
        contract: Replayed(*map(np.concatenate, zip(*(p[contract] for p in parts), strict=True)))
        for contract in parts[0]
    }


class Paired(NamedTuple):
    """One contract's samples, (N,) bool made and int64 the taker's total, and (N, k) float64
    the covariates of the same deals (:mod:`covariates`)."""

    made: np.ndarray
    score: np.ndarray
    covariates: np.ndarray


def _joined(first: Paired, more: Paired | None) -> Paired:
    """``first``'s samples, then ``more``'s (none: ``first``)."""
    if more is None:
        return first
    return Paired(*(np.concatenate(pair) for pair in zip(first, more, strict=True)))


def _fits(pooled: Paired, fresh: float) -> tuple[Fit, Fit]:
    """The control of whether the contract is made and of its score, fitted on ``pooled``, with
    ``fresh`` fresh deals per focus sample."""
    return (
        made_fit(pooled.made, pooled.covariates, MADE, fresh),
        fit(pooled.score, pooled.covariates, SCORE, fresh=fresh),
    )


def fresh_bidding(bidding: Bidding) -> Bidding:
    """How the fresh deals are drawn: with bids heard, as many draws for the
    :data:`FRESH_PER_SAMPLE` fresh deals of a focus sample as for the sample itself (a greedy
    deal costs a few draws' worth of CPU, a focus sample thousands:
    :attr:`~.hand_samples.Sides.draws`)."""
    return replace(bidding, draws=max(1, bidding.draws // FRESH_PER_SAMPLE))


def fresh_per_sample(bidding: Bidding, fitting: tuple[int, int]) -> float:
    """The fresh deals per focus sample the control can count on: :data:`FRESH_PER_SAMPLE`, or
    fewer where the bids heard are rare enough that the fresh deals' draws
    (:func:`fresh_bidding`) find fewer of the deals asked for than the focus's (``fitting``: of
    how many deals drawn, how many fit the bids, in the survey)."""
    if bidding.heard is None or not all(fitting):  # no bids heard, or no draws to go by
        return float(FRESH_PER_SAMPLE)
    rate = fitting[0] / fitting[1]
    found = min(1.0, rate * fresh_bidding(bidding).draws) / min(1.0, rate * bidding.draws)
    return FRESH_PER_SAMPLE * found


@dataclass(frozen=True)
class Steadying:
    """The control of one focus: ``choice``'s pair, and ``survey``, each contract's survey
    samples with the control table's on the same deals. Each half of the focus fits its β
    (:meth:`fits`) and is sized (:meth:`needed`) on these and the other half's first round."""

    choice: Choice
    survey: dict[Contract, Paired]
    fresh: float = FRESH_PER_SAMPLE
    """The fresh deals per focus sample (:func:`fresh_per_sample`)."""

    @classmethod
    def of(
        cls,
        survey: Run,
        samples: dict[Choice, ContractSamples],
        choice: Choice,
        fitting: tuple[int, int],
    ) -> Steadying:
        """From the survey's per-sample outcomes ``samples``, the control table's play of the
        same deals, and how many of the deals it drew fit the bids heard (``fitting``)."""
        control = replayed(survey, choice, CONTROL_TABLE)
        fresh = fresh_per_sample(survey.common["bidding"], fitting)
        return cls(choice, cls.paired(choice, samples, control), fresh)

    @staticmethod
    def paired(
        choice: Choice, samples: dict[Choice, ContractSamples], control: Outcomes
    ) -> dict[Contract, Paired]:
        """Each contract of ``choice``'s pair: its ``samples`` and the covariates of the same
        deals (``control``: the control table's replay of them)."""
        return {
            contract: Paired(
                samples[Choice(contract, choice.called)].made,
                samples[Choice(contract, choice.called)].score,
                replay.covariates,
            )
            for contract, replay in control.items()
        }

    def controls(self, focus: Run) -> list[Outcomes]:
        """The control table's outcomes on the ``focus``'s deals, chunk by chunk."""
        return replayed_parts(focus, self.choice, CONTROL_TABLE)

    def fits(self, contract: Contract, more: Paired | None = None) -> tuple[Fit, Fit]:
        """``contract``'s control of whether it is made and of its score (:func:`made_fit`,
        :func:`fit`), fitted on the survey's samples and ``more`` (the first round of the
        focus's other half): none of the half's own, so that its mean stays unbiased."""
        return _fits(_joined(self.survey[contract], more), self.fresh)

    def needed(self, more: dict[Contract, Paired] | None = None) -> float:
        """The samples the focus's steadied mean needs (:func:`plan.needed`), measured on the
        survey's samples and ``more`` (the first round of the focus's other half, by contract):
        the variance per sample of its E[score] (with :func:`plan.unseen_allowance`), and the
        share of P(make)'s that the control leaves, each out of sample with the fits there
        (:meth:`fits`); with ``more``, each times its :func:`plan.margin`."""
        contract = self.choice.contract
        extra = None if more is None else more[contract]
        pooled = _joined(self.survey[contract], extra)
        made, score = _fits(pooled, self.fresh)
        plain = fit(pooled.made, pooled.covariates, None).spread
        ratio = made.spread / plain if plain > 0 else 1.0
        margins = (
            (plan.margin(made.residuals), plan.margin(score.residuals))
            if more is not None
            else (1.0, 1.0)
        )
        spread = score.spread + plan.unseen_allowance(score.residuals, pooled.made)
        return plan.needed(pooled.made, spread, contract, ratio, margins)

    def estimates(
        self,
        focus: Run,
        focused: dict[Choice, ContractSamples],
        paired: Outcomes,
        halves: np.ndarray,
        first_rounds: tuple[dict[Contract, Paired], dict[Contract, Paired]],
    ) -> tuple[dict[Contract, tuple[Estimate, Estimate]], int]:
        """Each contract of the pair's P(make) and E[score] (:func:`controlled`) from the
        ``focus``'s per-sample outcomes ``focused``, the control table's on the same deals
        (``paired``) and its ``halves`` ((N,) int, 0 or 1: :func:`halves_mean`), each half's β
        fitted on the survey and the other half's first round (``first_rounds``, by half); and
        how many fresh deals the control played."""
        size = FRESH_PER_SAMPLE * focus.samples
        kwargs = {**focus.kwargs, "chunk_size": CONTROL_TABLE.chunk}
        common = {**focus.common, "bidding": fresh_bidding(focus.common["bidding"])}
        fresh_run = replace(
            focus, samples=size, first_chunk=FRESH_FIRST_CHUNK, kwargs=kwargs, common=common
        )
        fresh = replayed(fresh_run, self.choice, CONTROL_TABLE)
        steadied = {}
        for contract in self.survey:
            mine = focused[Choice(contract, self.choice.called)]
            made_fits, score_fits = zip(
                *(self.fits(contract, other[contract]) for other in reversed(first_rounds)),
                strict=True,
            )
            own, other = paired[contract].covariates, fresh[contract].covariates
            made_betas = [f.beta for f in made_fits]
            score_betas = [f.beta for f in score_fits]
            steadied[contract] = (
                as_proportion(controlled(mine.made, own, other, made_betas, halves)),
                controlled(mine.score, own, other, score_betas, halves),
            )
        return steadied, len(next(iter(fresh.values())).score)
