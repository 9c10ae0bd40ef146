"""How many samples an analysis plays: a fixed number, or a survey then a focus.

A table where a side plays by search (the lookahead, some 10 ms of CPU a deal) cannot play 2,000
samples of every contract in seconds. Its default analysis has two stages:

1. The **survey**: up to :data:`SURVEY_SAMPLES` samples, every contract (every call with 5
   players) and the auction (E[pass]), as a fixed-size analysis plays them but without the
   poignée shown (the advice is chosen on the scores with it hidden, and only the advised
   contract's poignée is shown to the user: playing every sample again shown cost a poignée
   hand half its survey), in rounds of :data:`SURVEY_ROUND`, each where the ones before leave
   the choice open (:mod:`survey`). It chooses the advice, and measures every contract but
   the advised one.
2. The **focus**: fresh samples — their own random streams, none of the survey's — of the pair
   of contracts holding the advised (or least bad) one, in two halves (one per core) and two
   rounds. The first round plays :func:`first_round`, as the survey's spread asks. Then each
   half plays on to :func:`half_size`, as the survey's and the *other* half's first-round
   samples ask (with a :func:`margin` for their own uncertainty) for its intervals to reach
   :data:`P_MAKE_HALF_WIDTH` and :data:`SCORE_HALF_WIDTH`. P(make) and E[score] are the mean
   of the halves' means, steadied by the greedy's and the cards' (:mod:`control`). The
   poignée and the chelem come from the first samples of the chunks (the poignée from 128, or
   :data:`POIGNEE_SAMPLES` when 128 leave its verdict open; the chelem from the first 32, or 96
   when 32 leave it unsettled, or all), the sensitivity from the whole focus.

Why the focus numbers are unbiased for the table's own: how many samples a half plays depends
on the survey and on the other half's samples only, which are independent of its own; given
them, the half is a fixed number of independent draws, whose mean is unbiased whatever that
number — and so is the mean of the two halves' means. Pooling the survey's samples in, pooling
the halves (the weights would lean on both), or stopping a half once its own interval is narrow
enough, would not be: the decision to stop would lean on the very samples it stops (a skewed
score's spread and mean move together), as would the survey's best contract measured on the
survey (the winner of a comparison is, on those samples, luckier than it is).
``tests/test_plan.py`` checks it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..game import Contract
from ..stats import Z95

SURVEY_ROUND = 32
"""Samples of every contract (every call with 5 players) in each round of the survey: enough to
choose between most contracts, whose paired differences on the same samples are far more
precise than each contract's own numbers."""
SURVEY_ROUNDS = 8
"""The most rounds of the survey: a round plays only the calls and the pairs of contracts whose
choice the rounds before left open (:mod:`survey`), so the budget goes to the close calls."""
SURVEY_SAMPLES = SURVEY_ROUND * SURVEY_ROUNDS
"""The most samples of every contract in the survey."""
STAGED_CHUNK = 16
"""Samples per chunk of a staged analysis: each round of the survey is two chunks, one per core
of a laptop."""
SETTLED_Z = 2.0
"""Standard errors of a paired difference by which a round of the survey must show a call
worse than the best (to drop it), and the advised action ahead of another (to settle it):
:func:`action_values.settled`; and by which the focus's first round must show the gain of
showing the poignée away from 0 (to show it on no more samples: :data:`POIGNEE_SAMPLES`)."""
SETTLED_POINTS = 10.0
"""A choice between two actions is settled, too, when their paired gap is known within ± this ×
the larger of their multipliers (95%): the two are worth the same to within a few points a
deal (:func:`action_values.settled`)."""
P_MAKE_HALF_WIDTH = 0.035
"""The advised contract's P(make) within ± 3.5 points (95%)."""
SCORE_HALF_WIDTH = 6.0
"""The advised contract's E[score] within ± this × its multiplier (95%): ± 12 for a Garde."""
MARGIN_Z = 2.5
"""Each half of the focus plays the samples its spread asks for times :func:`margin`: 1 + this
many standard errors of that spread, relative. The spread is measured on the survey and the
other half's first round, and a rare failure makes it uncertain: on the README hand (made 94%),
some 200 samples hold a dozen failures, and the spread's relative error is a quarter. On 24
random four-player hands, 2 SE (at least 1.1) left two outside the targets (± 12.0 and ± 12.6
for a Garde's ± 12), 2.5 SE (at least 1.15) none, for a median 3.5 s against 3.3 s."""
LEAST_MARGIN = 1.15
"""The least :func:`margin`: the focus's own interval varies by a few per cent too."""
FIRST_SHARE = 0.5
"""The focus's first round plays this share of the samples the survey asks for: enough that
the second round rests on a spread measured on a few hundred samples, and little enough that
a survey that overstates the spread (a few unlucky failures among 64) does not oversize it."""
FOCUS_SAMPLES = (256, 4000)
"""The fewest samples the focus's first round plays, and the most the focus plays. The fewest
guard against a lucky survey: 32 makes out of 32 (AC centre 0.94) ask for 165 samples, yet a
contract made 93% of the time shows that survey one time in ten, and then its failures are
missing from the spread too; 128 more samples a half show them (0.93 ** 128 < 10⁻⁴). The
first round also carries the poignée's :data:`POIGNEE_SAMPLES`."""
SECOND_LEAST = 16
"""The fewest samples each half plays in the second round: a half's size may depend on the other
half's samples only, so the second round is played whatever the first showed."""
POIGNEE_SAMPLES = 256
"""The most of the focus's first samples played again with the poignée shown, where the hand
may show one: half in its first round (split between its chunks), the other half in its second
only where the first leaves the sign of the gain of showing within :data:`SETTLED_Z` standard
errors of 0. The gain is a paired difference on the same deal, far less spread than the score:
its sign is settled long before the score's interval (a Garde Contre alone with 5 players, by
+43 for the bonus against −275 for what it tells the defence, on 128), and playing every focus
sample twice would double the focus's cost for the hands that hold a poignée."""


CHUNK_COST = 20
"""What a chunk of the focus costs beyond its samples, in samples' worth (its engine run's
searches set up once a turn for every deal): a chunk of n samples plays in about the time of
n + 20, measured on focus chunks of 32 to 288 samples for 3, 4 and 5 players
(the thirteenth sitting: `git log -p docs/performance.md`)."""


@dataclass(frozen=True)
class Stages:
    """How an analysis samples: ``survey`` samples of everything (when ``staged``, the survey's
    first round: :mod:`survey`), in chunks of ``chunk``; and, when ``staged``, a focus whose size
    the survey decides (:func:`first_round`)."""

    survey: int
    chunk: int
    staged: bool


def needed(
    made: np.ndarray,
    spread: float,
    contract: Contract,
    made_ratio: float = 1.0,
    margins: tuple[float, float] = (1.0, 1.0),
) -> float:
    """The samples a focus's mean needs to reach both targets, from (N,) bool ``made`` and
    ``spread``, the variance per sample of the steadied E[score] (:attr:`control.Fit.spread`),
    measured on the same samples; each times its ``margins`` (P(make)'s, E[score]'s).

    P(make)'s variance is taken at the Agresti–Coull centre (two makes and two failures added),
    so that samples made every time still ask for some, times ``made_ratio``, the share of it
    the control leaves (:class:`control.Steadying`)."""
    n = len(made)
    p = (float(np.sum(made)) + 2) / (n + 4)
    for_p = p * (1 - p) * made_ratio * (Z95 / P_MAKE_HALF_WIDTH) ** 2
    for_score = spread * (Z95 / (SCORE_HALF_WIDTH * contract.multiplier)) ** 2
    return max(margins[0] * for_p, margins[1] * for_score)


def unseen_allowance(residuals: np.ndarray, made: np.ndarray) -> float:
    """The variance per sample that the spread of (N,) ``residuals`` may miss for an outcome
    seen too seldom (``made``: (N,) bool, the same samples), to add to it: the spread as if two
    more samples of each outcome had been seen, each as spread as that outcome's residuals (as
    P(make) is taken with two makes and two failures added), less the spread seen; 0 when
    that is less.

    Why: where a contract fails one time in thirty, its failures set the score's spread, and 192
    samples may hold one failure where six are due. The spread measured there is half the true
    one, and so is the size it asks for; its kurtosis, from the one failure seen, cannot show
    it. Measured (a five-player Garde Contre played alone, made 97%): a half sized on one
    failure in 192 left the focus's E[score] at ± 6.18 × the multiplier. Where both outcomes are
    common, two more of each change the spread by a few per cent of one sample's worth."""
    values = np.asarray(residuals, np.float64)
    made = np.asarray(made, bool)
    n = len(values)
    if n < 2:
        return 0.0
    squares = (values - values.mean()) ** 2
    seen = float(squares.sum()) / (n - 1)
    more = sum(2 * float(squares[outcome].mean()) for outcome in (made, ~made) if outcome.any())
    return max(0.0, (float(squares.sum()) + more) / (n + 3) - seen)


def margin(values: np.ndarray) -> float:
    """How many times the samples that the variance of (N,) ``values`` asks for a focus plays:
    1 + :data:`MARGIN_Z` relative standard errors of that variance (from the fourth moment,
    √((κ − (N − 3)/(N − 1)) / N), κ the kurtosis), at least :data:`LEAST_MARGIN`."""
    values = np.asarray(values, np.float64)
    n = len(values)
    if n < 4:
        return LEAST_MARGIN
    centred = values - values.mean()
    second = float(np.mean(centred**2))
    if second == 0:
        return LEAST_MARGIN
    kurtosis = float(np.mean(centred**4)) / second**2
    error = math.sqrt(max(kurtosis - (n - 3) / (n - 1), 0.0) / n)
    return max(LEAST_MARGIN, 1 + MARGIN_Z * error)


def first_round(samples: float) -> tuple[int, int]:
    """The focus's first round, from the ``samples`` the survey says it needs (:func:`needed`):
    two halves of :data:`FIRST_SHARE` of them in all, one per core of a laptop, within
    :data:`FOCUS_SAMPLES` (less the second round's least), in whole chunks."""
    low, high = FOCUS_SAMPLES
    wanted = -(-math.ceil(FIRST_SHARE * samples) // STAGED_CHUNK) * STAGED_CHUNK
    half = min(high - 2 * SECOND_LEAST, max(low, wanted)) // 2
    return half, half


def half_size(first: int, samples: float) -> int:
    """How many samples one half of the focus plays in all, its first round ``first`` of them:
    half the ``samples`` needed (:func:`needed` with :func:`margin`, measured on the survey and
    the *other* half's first round), at least :data:`SECOND_LEAST` more than ``first``, at most
    half of :data:`FOCUS_SAMPLES`' most."""
    wanted = math.ceil(samples / 2)
    return min(FOCUS_SAMPLES[1] // 2, max(first + SECOND_LEAST, wanted))


def second_round(
    more: tuple[int, int], replays: tuple[int, ...] = ()
) -> tuple[tuple[int, int], ...]:
    """The focus's second round: its chunks as ``(half, samples)``, in the order the workers
    take them, for ``more`` samples of each half; each chunk plays again its first
    :func:`replay_share` of each total of ``replays`` (the poignée shown, the chelem announced;
    all of a chunk smaller than its share, which only two chunks may be).

    Two workers should end together, and each chunk costs :data:`CHUNK_COST` samples more: one
    chunk each, or the larger half in two around the smaller (the worker that took the smaller
    takes the rest of the larger after it), whichever ends first by that count (on a tie, one
    each). Planned for two workers, a laptop's cores, whatever their number: the chunks, and so
    the numbers, do not depend on it."""
    larger = int(more[1] > more[0])
    big, small = more[larger], more[1 - larger]
    least = max((replay_share(total, 3) for total in replays), default=1)
    plans = [((0, more[0]), (1, more[1]))]
    if small >= least:  # each of three chunks plays its share again: no fewer replays
        plans += [
            ((larger, n), (1 - larger, small), (larger, big - n))
            for n in range(least, big - least + 1)
        ]
    return min(plans, key=lambda chunks: _last_end(chunks, replays))


def replay_share(total: int, chunks: int) -> int:
    """The samples each of ``chunks`` chunks plays again for ``total`` in all (rounded up; a
    smaller chunk plays all its own)."""
    return -(-total // chunks)


def _last_end(chunks: tuple[tuple[int, int], ...], replays: tuple[int, ...]) -> float:
    """When the later of two workers ends ``chunks`` taken in order, by :data:`CHUNK_COST`."""
    ends = [0.0, 0.0]
    for _, n in chunks:
        again = sum(min(n, replay_share(total, len(chunks))) for total in replays)
        ends[ends.index(min(ends))] += CHUNK_COST + n + again
    return max(ends)
