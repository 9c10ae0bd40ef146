"""How many samples an analysis plays: a fixed number, or a survey then a focus.

A table where a side plays by search (the lookahead, some 10 ms of CPU a deal) cannot play 2,000
samples of every contract in seconds. Its default analysis has two stages:

1. The **survey**: :data:`SURVEY_SAMPLES` samples, every contract (every call with 5 players),
   the auction (E[pass]) and the poignée, as a fixed-size analysis plays them. It chooses the
   advice, and measures every contract but the advised one.
2. The **focus**: fresh samples — their own random streams, none of the survey's — of the pair
   of contracts holding the advised (or least bad) one, as many as :func:`focus_samples` says
   its intervals need to reach :data:`P_MAKE_HALF_WIDTH` and :data:`SCORE_HALF_WIDTH`, its
   P(make) and E[score] steadied by the greedy's on the same deals (:mod:`control`). The
   pair's numbers, its poignée, the chelem and the sensitivity come from the focus alone (the
   poignée from its first :data:`POIGNEE_SAMPLES`, the chelem from its first 64 unless they
   leave it unsettled).

Why the focus numbers are unbiased for the table's own: how many focus samples are played, and
which contracts, depend on the survey only, and the survey's samples are independent of the
focus's; given the survey, the focus is a fixed number of independent draws, whose mean is
unbiased whatever that number. Pooling the survey's samples in, or stopping the focus once its
own interval is narrow enough, would not be (the decision to stop would lean on the very
samples it stops) — nor would the survey's best contract measured on the survey (the winner of
a comparison is, on those samples, luckier than it is). ``tests/test_plan.py`` checks it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..game import Contract
from ..stats import Z95

SURVEY_SAMPLES = 64
"""Samples of every contract in the survey: enough to choose between contracts, whose paired
differences on the same samples are far more precise than each contract's own numbers."""
STAGED_CHUNK = 32
"""Samples per chunk of a staged analysis: the survey is two chunks, one per core of a laptop."""
P_MAKE_HALF_WIDTH = 0.035
"""The advised contract's P(make) within ± 3.5 points (95%)."""
SCORE_HALF_WIDTH = 6.0
"""The advised contract's E[score] within ± this × its multiplier (95%): ± 12 for a Garde."""
MARGIN = 1.5
"""The focus plays this many times the samples the survey's spread asks for: the survey's
variance, on 64 samples of a score that is mostly a win or a loss, is itself uncertain by a
quarter or more (with 1.25, the README hand's Garde came out at ± 12.2 for a target of ± 12)."""
FOCUS_SAMPLES = (384, 4000)
"""The fewest and the most samples a focus plays. The fewest guard against a lucky survey:
64 makes out of 64 (AC centre 0.97) ask for 160 samples, yet a contract made 93% of the time
shows that survey one time in a hundred, and then its failures are missing from the score's
spread too. On 24 random four-player hands, one such survey (the hand made 93–95% of the time)
sized the focus at 160, then 256 with a floor there: ± 4.2 and ± 4.0 points of P(make), ± 14 and
± 15 for a Garde. 384 samples keep P(make) within ± 3.5 points down to a true 90% and a Garde's
E[score] within ± 12 up to a spread of 120, for 0.6 s more than 160 on the strongest hands."""
POIGNEE_SAMPLES = 256
"""The focus's first samples (split between its chunks) played again with the poignée shown,
where the hand may show one. The gain of showing is a paired difference on the same deal, far
less spread than the score: its sign is settled long before the score's interval, and playing
every focus sample twice would double the focus's cost for the hands that hold a poignée."""


def focus_chunks(samples: int) -> tuple[int, ...]:
    """How the focus's ``samples`` are cut: in two halves, one per core of a laptop (a search
    costs about half as much a deal in a run of 200 deals as in one of 32, and the chelem's
    first samples ride in the same runs)."""
    sizes = (samples - samples // 2, samples // 2)
    return tuple(size for size in sizes if size)


@dataclass(frozen=True)
class Stages:
    """How an analysis samples: ``survey`` samples of everything, in chunks of ``chunk``; and,
    when ``staged``, a focus whose size the survey decides (:func:`focus_samples`)."""

    survey: int
    chunk: int
    staged: bool


def focus_samples(
    made: np.ndarray, spread: float, contract: Contract, made_ratio: float = 1.0
) -> int:
    """The focus's size for ``contract`` from the survey's (N,) bool ``made`` and ``spread``,
    the variance per sample of the focus's E[score] (:func:`control.spread`): enough for both
    targets, with :data:`MARGIN`, in whole chunks.

    P(make)'s variance is taken at the Agresti–Coull centre (two makes and two failures added),
    so that a survey made 64 times out of 64 still asks for samples, times ``made_ratio``, the
    share of it the control leaves (:class:`control.Steadying`)."""
    n = len(made)
    p = (float(np.sum(made)) + 2) / (n + 4)
    for_p = p * (1 - p) * made_ratio * (Z95 / P_MAKE_HALF_WIDTH) ** 2
    for_score = spread * (Z95 / (SCORE_HALF_WIDTH * contract.multiplier)) ** 2
    wanted = math.ceil(MARGIN * max(for_p, for_score))
    low, high = FOCUS_SAMPLES
    return min(high, max(low, -(-wanted // STAGED_CHUNK) * STAGED_CHUNK))
