"""Whether to announce the chelem: the best contract played again with it announced (the taker
leads the first trick), on the same samples, until the sign of the gain is settled.

A staged analysis (:mod:`plan`) plays its focus's first :data:`CHELEM_MIN_SEARCHED` samples
announced in the focus's own engine runs (:func:`hand_samples.focus_chunk`); most hands are
settled there, and where they are not, the focus's second round announces
:data:`CHELEM_MORE_SEARCHED` more. The others, and every analysis of a fixed size, replay the
samples chunk by chunk (:func:`hand_samples.announced_chunk`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..parallel import map_chunks_until
from ..stats import Estimate
from .analysis import ChelemAdvice
from .hand_samples import (
    AnnouncedSamples,
    Choice,
    ContractSamples,
    Sides,
    announced_chunk,
    concatenate,
)
from .runs import Progress, Run

CHELEM_SETTLED = 4.0
"""The announced chelem's replay stops once its expected gain is this many standard errors from
0 (on at least :data:`CHELEM_MIN_SAMPLES`): the verdict cannot turn any more. A hand with no
chelem in sight settles at once (the README hand: −605 ± 7.9, 77 SE, on its first 500
samples)."""
CHELEM_MIN_SAMPLES = 500
"""Samples the chelem's verdict rests on at least: with fewer, a rare made chelem (a large
gain) may not have shown up yet, and the standard error would understate the spread."""
CHELEM_MIN_SEARCHED = 32
"""The same in a staged analysis (:mod:`plan`), where a sample costs a search at every seat: the
focus plays its first samples again announced, in its own engine runs (the rest only when these
leave the verdict unsettled). Announcing pays only for a chelem made about half the time or more
(+200 more when made, −200 when not), which 32 samples cannot miss (0.5 ** 32 < 10⁻⁹ to see
none made); a rarer one only makes the loss of announcing larger, and one made some of the time
leaves the verdict unsettled on 32, so more are played announced (:data:`CHELEM_MORE_SEARCHED`,
then every focus sample)."""
CHELEM_MORE_SEARCHED = 64
"""The focus's second round plays this many of its samples announced too when its first round's
leave the verdict unsettled (:data:`CHELEM_SETTLED`), before every focus sample is replayed
announced: a gain 3 SE from 0 on 32 samples is about 5 SE on 96, where a replay of the whole
focus costs as much as the focus itself."""


@dataclass(frozen=True)
class Announced:
    """Samples played with the chelem announced, and ``rows`` ((N,) int64) the judged samples
    they replay."""

    samples: AnnouncedSamples
    rows: np.ndarray

    def settled(self, judged: ContractSamples) -> bool:
        """The sign of the announcement's gain is settled (:data:`CHELEM_SETTLED`)."""
        gain = self.samples.score - judged.score[self.rows]
        return abs(Estimate.of(gain).z) > CHELEM_SETTLED


def chelem_advice(
    run: Run,
    choice: Choice,
    sides: Sides,
    judged: ContractSamples,
    bar: Progress,
    recommendation: str,
    first: Announced | None,
) -> ChelemAdvice:
    """The chelem announced under the best contract, on the same samples: the ``first`` ones
    the focus played, when they settle the sign of its gain (:data:`CHELEM_SETTLED`); else on
    every sample, chunk by chunk, until it is settled on at least :data:`CHELEM_MIN_SAMPLES`
    (in a staged analysis, played to the end)."""
    n_samples = len(judged.score)
    if first is not None and (len(first.rows) == n_samples or first.settled(judged)):
        return _verdict(first, judged, recommendation)
    least = n_samples if first is not None else CHELEM_MIN_SAMPLES
    if first is not None:
        bar.grow(len(run.kwargs["chunk_size"]))

    def gain_settled(parts: list[AnnouncedSamples]) -> bool:
        played = concatenate(parts)
        n = len(played.score)
        if n < min(least, n_samples) or n == n_samples:
            return False
        return Announced(played, np.arange(n)).settled(judged)

    announced = concatenate(
        map_chunks_until(
            announced_chunk,
            run.samples,
            gain_settled,
            **run.kwargs,
            first_chunk=run.first_chunk,
            on_done=bar.step,
            choice=choice,
            sides=sides,
            **run.common,
        )
    )
    every = Announced(announced, np.arange(len(announced.score)))  # in chunk order
    return _verdict(every, judged, recommendation)


def _verdict(announced: Announced, judged: ContractSamples, recommendation: str) -> ChelemAdvice:
    """Announce or not, from the samples ``announced`` and the same ones ``judged``."""
    played, rows = announced.samples, announced.rows
    gain = played.score - judged.score[rows]
    bonus = played.chelem_bonus - judged.chelem_bonus[rows]
    expected_gain = Estimate.of(gain)
    return ChelemAdvice(
        recommended=recommendation != "pass" and expected_gain.mean > 0,
        p_chelem=float(np.mean(played.chelem)),
        expected_gain=expected_gain,
        bonus=Estimate.of(bonus),
        lead=Estimate.of(gain - bonus),
    )
