"""The survey: every contract under every call, and the auction around the user, played on the
same samples; the call and the advice chosen from them.

A fixed-size analysis plays it once, on all its samples. A staged analysis (:mod:`plan`) plays
it in up to two rounds of :data:`plan.SURVEY_ROUND` samples, as the first round leaves the
choice open:

- with 5 players, a call whose best contract trails the best call's by more than
  :data:`plan.SETTLED_Z` standard errors of their paired difference (on the same deals) is
  dropped: it keeps its first round's numbers, and the call is chosen among the others;
- when one call is left and the advised action leads every other legal action by as many
  standard errors, the survey stops there;
- else the second round plays the calls still in, and the auction, on as many fresh samples;
  with one call left, only the pairs of contracts still in the choice (:func:`open_pairs`): a
  pair every legal bid of which the advised action leads by as many standard errors keeps its
  first round's numbers. On 24 random four-player hands, the first round left the choice open
  on 18, and on 13 of them only between passing and one pair's bids; leaving the other pair
  out saves 30% of the round (a 16-sample chunk: 0.19 s against 0.27 s).

Before it, with 5 players, the greedy table plays every call on :data:`SCREEN_SAMPLES` samples
of their own (a few hundredths of a second), and a call whose best contract trails the best
call's by :data:`SCREEN_GAP` points or more, :data:`SCREEN_Z` standard errors away, is left out
of the survey (:func:`screen`). On 24 random five-player hands, every call the greedy put 150
points or more behind (a third of them, most often the taker's own king: playing alone) was
also 156–464 points behind for the lookahead, whose best call the greedy never put more than 49
behind; a third of the survey's first round was spent on them.

On 30 random four-player hands of point count 40 or more, the first round settled 16, and each
of them on the advice that 64 samples gave; with 5 players (12 hands), it settled none but
dropped a quarter of the calls.

The survey's numbers are for choosing: whether it plays on leans on its first round, so they
may lean a little too (as the chelem's stop does). The advised contract's pair is measured
again by the focus, on samples of its own, exactly unbiased (:mod:`plan`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import NamedTuple

import numpy as np

from ..game import Contract
from ..stats import Estimate
from .auction import AuctionResult, action_scores, evaluate, steadied
from .hand_samples import GREEDY_TABLE, Choice, ChunkOutcomes, ContractSamples, Sides, chunk
from .paired import PAIR_FIRSTS, pair_of
from .plan import SETTLED_Z
from .runs import Progress, Run

SCREEN_SAMPLES = 512
"""Samples of every call the greedy table plays before a five-player survey, in two chunks."""
SCREEN_GAP = 150.0
"""Points of E[score] by which a call's best contract must trail the best call's, for the
greedy table, to be left out of the survey."""
SCREEN_Z = 4.0
"""Standard errors of that paired difference by which it must, too: the screen's own noise
never leaves a call out."""
SCREEN_FIRST_CHUNK = 3 << 30
"""The screen's chunks are numbered from here (:func:`parallel.chunk_seed`): streams of their
own, neither the survey's (from 0), the focus's (from 2**30) nor the control's (from 2**31)."""


class Surveyed(NamedTuple):
    """A survey's outcomes (a dropped call's, or a pair the second round left out, on the first
    round's samples only); ``run``, the samples the chosen call was played on, and
    ``first_round``, its first round's (the control replays those of the focus's pair:
    :meth:`run_of`); the call chosen and every surveyed call's score (5 players, else ``None``
    and none); the auction's values for the chosen call; the calls :func:`screen` left out,
    each with how far the greedy table put it behind; and the calls the chosen one is not
    clearly better than (:func:`live_calls`, on the samples they share)."""

    outcomes: ChunkOutcomes
    run: Run
    called: int | None
    call_scores: dict[int, float]
    auction: AuctionResult
    screened: dict[int, float]
    first_round: Run
    close: tuple[int, ...] = ()

    def run_of(self, contract: Contract) -> Run:
        """The run whose samples ``contract`` was played on under the chosen call: the whole
        survey's, or its first round's where the second round left its pair out."""
        played = len(self.outcomes.samples[Choice(contract, self.called)].score)
        return self.run if played == len(self.outcomes.auction.defended) else self.first_round

    def advised_again(
        self, choice: Choice, measured: dict[Contract, Estimate]
    ) -> tuple[AuctionResult, Choice]:
        """The auction with the bids of ``measured`` (``choice``'s pair, its E[score] as taker
        measured by the focus) valued again (:func:`auction.steadied`), and the best contract:
        the other of the pair where it now leads. Where the steadied auction would advise a
        contract the focus did not measure, the survey's stands."""
        called = choice.called
        scores = {c: self.outcomes.samples[Choice(c, called)].score for c in measured}
        auction = steadied(self.auction, self.outcomes.auction, scores, measured)
        advised = auction.recommendation
        if advised == "pass":
            return auction, choice
        if Contract(advised) not in measured:
            return self.auction, choice
        return auction, Choice(Contract(advised), called)


def survey(
    run: Run,
    calls: tuple[int | None, ...],
    bar: Progress,
    *,
    staged: bool,
    keep_records: bool,
    sides: Sides,
) -> Surveyed:
    """The survey of ``run``'s samples (a staged one's first round) under every call of
    ``calls`` (``(None,)`` below 5 players); see the module docstring."""
    screened: dict[int, float] = {}
    if staged and len(calls) > 1:
        screened = screen(run, calls, bar)
        calls = tuple(card for card in calls if card not in screened)
    # A staged analysis measures the poignée in its focus alone (:mod:`plan`).
    play = dict(on_done=bar.step, keep_records=keep_records, sides=sides, poignee=not staged)
    parts = run.map(chunk, calls=calls, **play)
    outcomes = ChunkOutcomes.merge(parts)
    surveyed = _chosen(outcomes, run, calls, calls, screened, run)
    if not staged:
        return surveyed
    live = tuple(card for card in calls if card == surveyed.called or card in surveyed.close)
    actions = _actions(outcomes, surveyed)
    if len(live) == 1 and settled(surveyed.auction, actions):
        return surveyed
    pairs = PAIR_FIRSTS if len(live) > 1 else open_pairs(surveyed, actions)
    # The second round's chunks on the streams after the first's: the survey's samples are
    # those of a run of twice the first's, which the control replays (:mod:`control`).
    first_chunks = len(parts)
    bar.grow(first_chunks)
    second = replace(run, first_chunk=run.first_chunk + first_chunks)
    outcomes = ChunkOutcomes.merge(parts + second.map(chunk, calls=live, pairs=pairs, **play))
    twice = replace(run, samples=2 * run.samples)
    return _chosen(outcomes, twice, calls, live, screened, run)


def screen(run: Run, calls: tuple[int | None, ...], bar: Progress) -> dict[int, float]:
    """The ``calls`` the greedy table puts too far behind its best call to survey (see the
    module docstring), each with that gap: its best contract's E[score] behind the best call's,
    on :data:`SCREEN_SAMPLES` samples of their own, paired."""
    chunks = 2
    bar.grow(chunks)
    kwargs = {**run.kwargs, "chunk_size": -(-SCREEN_SAMPLES // chunks)}
    greedy = replace(run, samples=SCREEN_SAMPLES, first_chunk=SCREEN_FIRST_CHUNK, kwargs=kwargs)
    play = dict(on_done=bar.step, keep_records=False, sides=GREEDY_TABLE, poignee=False)
    parts = greedy.map(chunk, calls=calls, **play)
    by_choice = ChunkOutcomes.merge(parts).samples
    best = {card: best_of(by_choice, card) for card in calls}
    leader = max(calls, key=lambda card: best[card][1])
    ahead = by_choice[Choice(best[leader][0], leader)].score
    gaps = {}
    for card in calls:
        behind = by_choice[Choice(best[card][0], card)].score
        gap = best[leader][1] - best[card][1]
        if gap >= SCREEN_GAP and lead(ahead, behind) >= SCREEN_Z:
            gaps[card] = gap
    return gaps


def _chosen(
    outcomes: ChunkOutcomes,
    run: Run,
    calls: tuple[int | None, ...],
    live: Sequence[int | None],
    screened: dict[int, float],
    first_round: Run,
) -> Surveyed:
    """The best of the ``live`` calls (its best contract's mean score highest) and the auction
    under it, on ``run``'s samples (``first_round``: its first round's); the calls ``screened``
    out before the survey."""
    by_choice = outcomes.samples
    bidding = run.common["bidding"]
    called, call_scores, close = None, {}, ()
    if calls != (None,):
        call_scores = {card: best_of(by_choice, card)[1] for card in calls}
        called = max(live, key=call_scores.__getitem__)
        close = tuple(c for c in live_calls(by_choice, calls, called) if c != called)
    fitting, drawn = outcomes.fitting
    auction = evaluate(
        outcomes.auction,
        {c: by_choice[Choice(c, called)].score for c in Contract},
        bidding.heard,
        bidding.model.label,
        None if bidding.heard is None else fitting / drawn,
    )
    return Surveyed(outcomes, run, called, call_scores, auction, screened, first_round, close)


def _actions(outcomes: ChunkOutcomes, surveyed: Surveyed) -> dict[str, np.ndarray]:
    """Every action's score per sample under the chosen call."""
    scores = {c: outcomes.samples[Choice(c, surveyed.called)].score for c in Contract}
    return action_scores(outcomes.auction, scores)


def best_of(
    by_choice: dict[Choice, ContractSamples],
    called: int | None,
    among: Sequence[Contract] = tuple(Contract),
) -> tuple[Contract, float]:
    """The contract of highest mean score under the call ``called``, of those ``among``, and
    that mean."""
    means = {c: float(np.mean(by_choice[Choice(c, called)].score)) for c in among}
    best = max(means, key=means.__getitem__)
    return best, means[best]


def focus_contract(
    auction: AuctionResult, by_choice: dict[Choice, ContractSamples], called: int | None
) -> Contract | None:
    """The contract the focus measures: the advised one; advised to pass, the best the user may
    still bid; ``None`` when the bids heard leave none (a Garde Contre heard)."""
    if auction.recommendation != "pass":
        return Contract(auction.recommendation)
    biddable = [c for c in Contract if c.value in auction.legal_actions]
    return best_of(by_choice, called, biddable)[0] if biddable else None


def live_calls(
    by_choice: dict[Choice, ContractSamples],
    calls: tuple[int | None, ...],
    called: int | None,
) -> tuple[int | None, ...]:
    """The ``calls`` still in the choice: ``called`` (the best) and those whose best contract
    does not trail its best contract by more than :data:`plan.SETTLED_Z` standard errors of the
    paired difference, on the samples both were played on (a call dropped after the survey's
    first round has only that round's: the first)."""
    leader = by_choice[Choice(best_of(by_choice, called)[0], called)].score

    def behind(card: int | None) -> float:
        other = by_choice[Choice(best_of(by_choice, card)[0], card)].score
        shared = min(len(leader), len(other))
        return lead(leader[:shared], other[:shared])

    return tuple(card for card in calls if card == called or behind(card) < SETTLED_Z)


def open_pairs(surveyed: Surveyed, scores: dict[str, np.ndarray]) -> tuple[Contract, ...]:
    """The pairs of contracts (each by its first, :data:`paired.PAIR_FIRSTS`) still in the
    choice after the survey's first round, under its one call: the pair of the contract the
    focus would measure (:func:`focus_contract`), and of every legal bid that the advised
    action does not lead by :data:`plan.SETTLED_Z` standard errors (``scores``:
    :func:`auction.action_scores`)."""
    auction = surveyed.auction
    advised = scores[auction.recommendation]
    wanted = {focus_contract(auction, surveyed.outcomes.samples, surveyed.called)} | {
        Contract(action)
        for action in auction.legal_actions
        if action != "pass" and lead(advised, scores[action]) < SETTLED_Z
    }
    return tuple(first for first in PAIR_FIRSTS if wanted.intersection(pair_of(first)))


def settled(auction: AuctionResult, scores: dict[str, np.ndarray]) -> bool:
    """Whether the advised action leads every other legal action by :data:`plan.SETTLED_Z`
    standard errors of the paired difference (``scores``: :func:`auction.action_scores`)."""
    advised = scores[auction.recommendation]
    return all(
        lead(advised, scores[action]) >= SETTLED_Z
        for action in auction.legal_actions
        if action != auction.recommendation
    )


def lead(ahead: np.ndarray, behind: np.ndarray) -> float:
    """The mean of ``ahead − behind`` ((N,) per-sample scores, paired, N ≥ 2) in standard
    errors of that mean (:attr:`Estimate.z`: infinite when ahead by the same amount on every
    sample, 0 when tied on every one)."""
    return Estimate.of(np.asarray(ahead, np.float64) - behind).z
