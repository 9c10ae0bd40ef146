"""The focus's E[score] steadied by the greedy: a control variate that keeps it unbiased.

On the same deal, the score of the lookahead table (L) and the greedy table's (G) are
correlated: the cards that make a deal hard are hard for both. A greedy deal costs about a
thousandth of a lookahead one (6 µs against 6 ms), so E[G] can be measured on many fresh deals
for almost nothing, and

    Ê = mean over the focus of (L − β·G)  +  β · mean over M fresh deals of G

is an unbiased estimate of E[L] for any β fixed beforehand. Here β is fitted on the survey's
samples (L and G of the same contract on the same deals), which are independent of the focus's
and the fresh ones, so the focus's E[score] stays exactly unbiased; its variance,
Var(L − β·G)/n + β²·Var(G)/M, is about (1 − ρ²) of the plain mean's, ρ the correlation of L and
G. Measured on 512 deals (4 players, Garde): ρ = 0.30 on the README hand (9% fewer samples for
the same interval), 0.60 on a marginal hand made 60% of the time (36% fewer) — the hands whose
focus is longest gain most. The focus is sized for this variance (:func:`spread`).

P(make) keeps the plain mean and its Wilson interval: the greedy's makes correlate less (0.17
and 0.49), and a proportion's interval should stay within 0–100%.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from ..game import Contract
from ..stats import Estimate
from .hand_samples import GREEDY_TABLE, Choice, ContractSamples, Sides, replayed_chunk
from .runs import Run

CONTROL_TABLE = GREEDY_TABLE
"""The table whose scores steady the focus's: the greedy at every seat."""
FRESH_PER_SAMPLE = 16
"""Fresh greedy deals per focus sample, for E[G]: its share of the variance is then about
ρ²/16 of the plain mean's, for 1–3% of the focus's time."""
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


def spread(score: np.ndarray, control: np.ndarray, beta: float) -> float:
    """The variance per focus sample of :func:`controlled`'s estimate, from (N,) samples of the
    score and the control on the same deals: Var(score − β·control), plus the fresh deals'
    share, β²·Var(control) / :data:`FRESH_PER_SAMPLE`."""
    residual = float(np.var(score - beta * control, ddof=1)) if len(score) > 1 else 0.0
    own = float(np.var(control, ddof=1)) if len(control) > 1 else 0.0
    return residual + beta * beta * own / FRESH_PER_SAMPLE


def controlled(score: np.ndarray, control: np.ndarray, fresh: np.ndarray, beta: float) -> Estimate:
    """E[score] from (N,) ``score`` and ``control`` on the same deals and (M,) ``fresh``
    control samples of other deals: mean(score − β·control) + β·mean(fresh), with its
    standard error (the two means are independent). ``n`` is N, the samples of the score."""
    residual = score - beta * control
    n, m = len(score), len(fresh)
    mean = float(residual.mean() + beta * fresh.mean())
    variance = float(np.var(residual, ddof=1)) / n + beta * beta * float(np.var(fresh, ddof=1)) / m
    return Estimate(mean, math.sqrt(variance), n)


Outcomes = dict[Contract, tuple[np.ndarray, np.ndarray]]
"""Per contract of a pair, (N,) bool made and int64 the taker's total."""


def replayed(run: Run, choice: Choice, sides: Sides) -> Outcomes:
    """``choice``'s pair played by ``sides`` on ``run``'s samples (the same deals as the run's
    other tasks draw), its chunks end to end."""
    parts = run.map(replayed_chunk, choice=choice, sides=sides)
    return {
        contract: (
            np.concatenate([part[contract][0] for part in parts]),
            np.concatenate([part[contract][1] for part in parts]),
        )
        for contract in parts[0]
    }


@dataclass(frozen=True)
class Steadying:
    """The control of one focus: ``choice``'s pair, each contract's β fitted on the survey
    (:func:`coefficient`), and ``spread``, the variance per focus sample of ``choice``'s
    steadied E[score] (:func:`spread`), which sizes the focus."""

    choice: Choice
    betas: dict[Contract, float]
    spread: float

    @classmethod
    def fit(cls, survey: Run, samples: dict[Choice, ContractSamples], choice: Choice) -> Steadying:
        """From the survey's per-sample outcomes ``samples`` and the control table's play of
        the same deals."""
        control = replayed(survey, choice, CONTROL_TABLE)
        betas = {
            contract: coefficient(samples[Choice(contract, choice.called)].score, greedy)
            for contract, (_, greedy) in control.items()
        }
        judged, greedy = samples[choice].score, control[choice.contract][1]
        return cls(choice, betas, spread(judged, greedy, betas[choice.contract]))

    def estimates(
        self, focus: Run, focused: dict[Choice, ContractSamples]
    ) -> tuple[dict[Contract, Estimate], Outcomes, int]:
        """Each contract of the pair's E[score] (:func:`controlled`) from the ``focus``'s
        per-sample outcomes ``focused``; the control table's outcomes on the focus's deals
        (the sensitivity's line, when that table is the weaker one); and how many fresh deals
        it played."""
        paired = replayed(focus, self.choice, CONTROL_TABLE)
        size = FRESH_PER_SAMPLE * focus.samples
        kwargs = {**focus.kwargs, "chunk_size": CONTROL_TABLE.chunk}
        fresh_run = replace(focus, samples=size, first_chunk=FRESH_FIRST_CHUNK, kwargs=kwargs)
        fresh = replayed(fresh_run, self.choice, CONTROL_TABLE)
        scores = {}
        for contract, beta in self.betas.items():
            score = focused[Choice(contract, self.choice.called)].score
            scores[contract] = controlled(score, paired[contract][1], fresh[contract][1], beta)
        return scores, paired, len(next(iter(fresh.values()))[1])
