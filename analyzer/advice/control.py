"""The focus's figures steadied by the greedy: a control variate that keeps them unbiased.

On the same deal, the score of the lookahead table (L) and the greedy table's (G) are
correlated: the cards that make a deal hard are hard for both. A greedy deal costs about a
thousandth of a lookahead one (6 µs against 6 ms), so E[G] can be measured on many fresh deals
for almost nothing, and

    Ê = mean over the focus of (L − β·G)  +  β · mean over M fresh deals of G

is an unbiased estimate of E[L] for any β fixed beforehand. Here each half of the focus fits
its β on the survey's samples and the other half's first round (L and G of the same contract on
the same deals, :meth:`Steadying.betas`), none of its own nor the fresh ones, so the focus's
E[score] stays exactly unbiased; its variance,
Var(L − β·G)/n + β²·Var(G)/M, is about (1 − ρ²) of the plain mean's, ρ the correlation of L and
G. Measured on 512 deals (4 players, Garde): ρ = 0.30 on the README hand (9% fewer samples for
the same interval), 0.60 on a marginal hand made 60% of the time (36% fewer) — the hands whose
focus is longest gain most. The focus is sized for this variance (:func:`spread`,
:meth:`Steadying.needed`), and its mean over the focus is the mean of its two halves' means
(:func:`halves_mean`: a half's size leans on the other half's samples, :mod:`plan`).

Whether the contract is made is steadied the same way, by whether the greedy makes it (ρ = 0.17
on the README hand, 0.49 on the marginal one, 0.50 on a hand that should pass): P(make)'s
Wilson interval is then taken at the plain samples that would be as precise, p(1 − p)/SE² (Korn
and Graubard's effective sample size), and its mean kept within 0–1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from ..game import Contract
from ..stats import Estimate
from . import plan
from .hand_samples import GREEDY_TABLE, Choice, ContractSamples, Sides, replayed_chunk
from .runs import Run

CONTROL_TABLE = GREEDY_TABLE
"""The table whose scores steady the focus's: the greedy at every seat."""
FRESH_PER_SAMPLE = 16
"""Fresh greedy deals per focus sample, for E[G]: its share of the variance is then about
ρ²/16 of the plain mean's, for 1–3% of the focus's time."""
MIN_EACH = 8
"""Makes and failures the survey must show of a contract before whether it is made is steadied:
with fewer, β and the share of the variance it leaves rest on a handful of deals (one make that
the greedy shares gives β = 1, and on the focus a spread wider than the plain mean's)."""
FRESH_FIRST_CHUNK = 1 << 31
"""The fresh deals' chunks are numbered from here (:func:`parallel.chunk_seed`): streams that
neither the survey (from 0) nor the focus (from 2**30) draw from."""


def coefficient(score: np.ndarray, control: np.ndarray) -> float:
    """β minimising Var(score − β·control), from (N,) samples of both on the same deals:
    cov/var, or 0 when the control does not vary (or N < 3)."""
    if len(score) < 3:
        return 0.0
    spread = float(np.var(control, ddof=1))
    if spread == 0:
        return 0.0
    return float(np.cov(score, control)[0, 1] / spread)


def made_coefficient(made: np.ndarray, control: np.ndarray) -> float:
    """:func:`coefficient` for whether a contract is made ((N,) bool, and the control's), or 0
    when the samples hold fewer than :data:`MIN_EACH` makes or failures."""
    makes = int(np.sum(made))
    if min(makes, len(made) - makes) < MIN_EACH:
        return 0.0
    return coefficient(made, control)


def spread(score: np.ndarray, control: np.ndarray, beta: float) -> float:
    """The variance per focus sample of :func:`controlled`'s estimate, from (N,) samples of the
    score and the control on the same deals: Var(score − β·control), plus the fresh deals'
    share, β²·Var(control) / :data:`FRESH_PER_SAMPLE`."""
    residual = float(np.var(score - beta * control, ddof=1)) if len(score) > 1 else 0.0
    own = float(np.var(control, ddof=1)) if len(control) > 1 else 0.0
    return residual + beta * beta * own / FRESH_PER_SAMPLE


def halves_mean(values: np.ndarray, halves: np.ndarray | None = None) -> Estimate:
    """The mean of (N,) ``values`` as the focus takes it: the mean of its halves' means
    (``halves``: (N,) int, 0 or 1 per sample; ``None``: one half), with its standard error. A
    half's size may depend on the other half's samples (:mod:`plan`), so the halves are
    weighted alike whatever their sizes; pooled, a sample's weight would lean on both."""
    if halves is None:
        return Estimate.of(values)
    values = np.asarray(values, np.float64)
    parts = [part for part in (values[halves == 0], values[halves == 1]) if len(part)]
    mean = sum(float(part.mean()) for part in parts) / len(parts)
    spread = sum(float(np.var(part, ddof=1)) / len(part) for part in parts if len(part) > 1)
    return Estimate(mean, math.sqrt(spread) / len(parts), len(values))


def controlled(
    score: np.ndarray,
    control: np.ndarray,
    fresh: np.ndarray,
    beta: float | tuple[float, float],
    halves: np.ndarray | None = None,
) -> Estimate:
    """E[score] from (N,) ``score`` and ``control`` on the same deals and (M,) ``fresh``
    control samples of other deals: mean(score − β·control) (:func:`halves_mean`) +
    β·mean(fresh), with its standard error (the two means are independent). With ``halves``,
    ``beta`` may be each half's (a pair): the mean of the halves' means of score − β_h·control,
    plus the halves' mean β times mean(fresh). ``n`` is N, the samples of the score."""
    betas = np.broadcast_to(np.asarray(beta, np.float64), 2)
    per_sample = betas[0] if halves is None else betas[np.asarray(halves)]
    residual = halves_mean(score - per_sample * np.asarray(control, np.float64), halves)
    present = [0] if halves is None else np.unique(halves)
    mean_beta = float(np.mean(betas[present]))
    if not mean_beta:
        return residual
    fresh = np.asarray(fresh, np.float64)
    variance = residual.se**2 + mean_beta**2 * float(np.var(fresh, ddof=1)) / len(fresh)
    return Estimate(
        residual.mean + mean_beta * float(fresh.mean()), math.sqrt(variance), len(score)
    )


def as_proportion(estimate: Estimate) -> Estimate:
    """A steadied proportion as one: its mean within 0–1, and the plain samples as precise
    (``effective``) for its Wilson interval, when it has a spread."""
    p = min(1.0, max(0.0, estimate.mean))
    if estimate.se > 0 and 0 < p < 1:
        return Estimate(p, estimate.se, estimate.n, p * (1 - p) / estimate.se**2)
    return Estimate(p, estimate.se, estimate.n)


Outcomes = dict[Contract, tuple[np.ndarray, np.ndarray]]
"""Per contract of a pair, (N,) bool made and int64 the taker's total."""


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
        contract: (
            np.concatenate([part[contract][0] for part in parts]),
            np.concatenate([part[contract][1] for part in parts]),
        )
        for contract in parts[0]
    }


class Paired(NamedTuple):
    """One contract's samples and the control table's on the same deals: (N,) bool made and
    (N,) int64 the taker's total, each."""

    made: np.ndarray
    score: np.ndarray
    control_made: np.ndarray
    control_score: np.ndarray


def _joined(first: Paired, more: Paired | None) -> Paired:
    """``first``'s samples, then ``more``'s (none: ``first``)."""
    if more is None:
        return first
    return Paired(*(np.concatenate(pair) for pair in zip(first, more, strict=True)))


@dataclass(frozen=True)
class Steadying:
    """The control of one focus: ``choice``'s pair, and ``survey``, each contract's survey
    samples with the control table's on the same deals. Each half of the focus fits its β
    (:meth:`betas`) and is sized (:meth:`needed`) on these and the other half's first round."""

    choice: Choice
    survey: dict[Contract, Paired]

    @classmethod
    def fit(cls, survey: Run, samples: dict[Choice, ContractSamples], choice: Choice) -> Steadying:
        """From the survey's per-sample outcomes ``samples`` and the control table's play of
        the same deals."""
        control = replayed(survey, choice, CONTROL_TABLE)
        return cls(choice, cls.paired(choice, samples, control))

    @staticmethod
    def paired(
        choice: Choice, samples: dict[Choice, ContractSamples], control: Outcomes
    ) -> dict[Contract, Paired]:
        """Each contract of ``choice``'s pair: its ``samples`` and the ``control`` table's
        outcomes on the same deals."""
        return {
            contract: Paired(
                samples[Choice(contract, choice.called)].made,
                samples[Choice(contract, choice.called)].score,
                made,
                score,
            )
            for contract, (made, score) in control.items()
        }

    def controls(self, focus: Run) -> list[Outcomes]:
        """The control table's outcomes on the ``focus``'s deals, chunk by chunk."""
        return replayed_parts(focus, self.choice, CONTROL_TABLE)

    def betas(self, contract: Contract, more: Paired | None = None) -> tuple[float, float]:
        """``contract``'s β for whether it is made and for its score (:func:`made_coefficient`,
        :func:`coefficient`), fitted on the survey's samples and ``more`` (the first round of
        the focus's other half): none of the half's own, so that its mean stays unbiased."""
        pooled = _joined(self.survey[contract], more)
        return (
            made_coefficient(pooled.made, pooled.control_made),
            coefficient(pooled.score, pooled.control_score),
        )

    def needed(self, more: dict[Contract, Paired] | None = None) -> float:
        """The samples the focus's steadied mean needs (:func:`plan.needed`), measured on the
        survey's samples and ``more`` (the first round of the focus's other half, by contract):
        the variance per sample of its E[score] (:func:`spread`), and the share of P(make)'s
        that the control leaves, with the β fitted there (:meth:`betas`); with ``more``, each
        times its :func:`plan.margin`."""
        contract = self.choice.contract
        extra = None if more is None else more[contract]
        pooled = _joined(self.survey[contract], extra)
        made_beta, score_beta = self.betas(contract, extra)
        made = pooled.made - made_beta * pooled.control_made
        score = pooled.score - score_beta * pooled.control_score
        plain = float(np.var(pooled.made, ddof=1)) if len(pooled.made) > 1 else 0.0
        ratio = spread(pooled.made, pooled.control_made, made_beta) / plain if plain > 0 else 1.0
        score_spread = spread(pooled.score, pooled.control_score, score_beta)
        margins = (plan.margin(made), plan.margin(score)) if more is not None else (1.0, 1.0)
        return plan.needed(pooled.made, score_spread, contract, ratio, margins)

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
        fresh_run = replace(focus, samples=size, first_chunk=FRESH_FIRST_CHUNK, kwargs=kwargs)
        fresh = replayed(fresh_run, self.choice, CONTROL_TABLE)
        steadied = {}
        for contract in self.survey:
            mine = focused[Choice(contract, self.choice.called)]
            (made, score), (fresh_made, fresh_score) = paired[contract], fresh[contract]
            made_betas, score_betas = zip(
                *(self.betas(contract, other[contract]) for other in reversed(first_rounds)),
                strict=True,
            )
            steadied[contract] = (
                as_proportion(controlled(mine.made, made, fresh_made, made_betas, halves)),
                controlled(mine.score, score, fresh_score, score_betas, halves),
            )
        return steadied, len(next(iter(fresh.values()))[1])
