"""The survey: every contract under every call, and the auction around the user, played on the
same samples; the call and the advice chosen from them.

A fixed-size analysis plays it once, on all its samples. A staged analysis (:mod:`plan`) races
it: rounds of :data:`plan.SURVEY_ROUND` samples, up to :data:`plan.SURVEY_ROUNDS`, each playing
only what the rounds before left open. A choice between the advised action (or the best call)
and another is *settled* (:func:`action_values.settled`) when their paired gap on the same
samples is :data:`plan.SETTLED_Z` standard errors from 0, or known within ±
:data:`plan.SETTLED_POINTS` × the larger multiplier (95%). After each round:

- with 5 players, a call settled against the best call is dropped: it keeps the numbers of the
  rounds it played, and the call is chosen among the others;
- when one call is left and every legal action is settled against the advised one, the survey
  stops there;
- else the next round plays the calls still in, and the auction, on as many fresh samples:
  under the chosen call the pairs of contracts still in the choice (:func:`open_pairs`), under
  another only its best contract's pair (:func:`round_pairs`). A call or pair once left out
  stays out, so every choice's samples are the first ones of all.

The actions still open when the rounds run out are said (:attr:`AuctionResult.open`). The samples
the paired gaps rest on are shared by every action: the searching players draw each decision's
worlds from the deal's key (:mod:`..playout.keys`), so two contracts played on the same deal
differ only where what their players know differs.

Before it, with 5 players, the greedy table plays every call on :data:`SCREEN_SAMPLES` samples
of their own (a few hundredths of a second), and a call whose best contract trails the best
call's by :data:`SCREEN_GAP` points or more, :data:`SCREEN_Z` standard errors away, is left out
of the survey (:func:`screen`). On 24 random five-player hands, every call the greedy put 150
points or more behind (a third of them, most often the taker's own king: playing alone) was
also 156–464 points behind for the lookahead, whose best call the greedy never put more than 49
behind; a third of the survey's first round was spent on them.

The survey's numbers are for choosing: whether it plays on leans on its rounds, so they may
lean a little too (as the chelem's stop does). The advised contract's pair is measured
again by the focus, on samples of its own, exactly unbiased (:mod:`plan`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import NamedTuple

import numpy as np

from ..game import Contract
from ..stats import Estimate, paired_gap
from .action_values import AuctionResult, action_scores, evaluate, settled, steadied, with_gaps
from .hand_samples import GREEDY_TABLE, Choice, ChunkOutcomes, ContractSamples, Sides, chunk
from .paired import PAIR_FIRSTS, pair_of
from .plan import SETTLED_Z, SURVEY_ROUNDS
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
    """A survey's outcomes (a dropped call's, or a pair a later round left out, on the rounds
    before only); ``run``, the samples the chosen call was played on, and ``first_round``, its
    first round's (the control replays those of the focus's pair: :meth:`run_of`); ``ends``,
    the samples played by the end of each round; the call chosen and every surveyed call's
    score (5 players, else ``None`` and none); the auction's values for the chosen call; the
    calls :func:`screen` left out, each with how far the greedy table put it behind; the calls
    the chosen one is not clearly better than (:func:`live_calls`, on the samples they share),
    those whose choice against it is not settled (:func:`open_calls`), and each call's paired
    gap to it (:func:`call_gaps`). The actions still open are the auction's
    (:attr:`AuctionResult.open`)."""

    outcomes: ChunkOutcomes
    run: Run
    called: int | None
    call_scores: dict[int, float]
    auction: AuctionResult
    screened: dict[int, float]
    first_round: Run
    ends: tuple[int, ...]
    close: tuple[int, ...] = ()
    unsettled: tuple[int, ...] = ()
    call_versus: dict[int, Estimate] = {}  # noqa: RUF012 (a NamedTuple's default, never changed)

    def run_of(self, contract: Contract) -> Run:
        """The run whose samples ``contract`` was played on under the chosen call: the rounds
        of the survey its pair was in (each a prefix of the next: :func:`survey`)."""
        played = len(self.outcomes.samples[Choice(contract, self.called)].score)
        if played == self.ends[-1]:
            return self.run
        return replace(
            self.first_round, samples=(self.ends.index(played) + 1) * self.first_round.samples
        )

    def advised_again(
        self, choice: Choice, measured: dict[Contract, Estimate]
    ) -> tuple[AuctionResult, Choice]:
        """The auction with the bids of ``measured`` (``choice``'s pair, its E[score] as taker
        measured by the focus) valued again (:func:`action_values.steadied`), and the best contract:
        the other of the pair where it now leads. Where the steadied auction would advise a
        contract the focus did not measure, the survey's stands."""
        called = choice.called
        samples = self.outcomes.samples
        scores = {
            c: samples[Choice(c, called)].score for c in Contract if Choice(c, called) in samples
        }
        auction = steadied(self.auction, self.outcomes.auction, scores, measured)
        # The paired gaps stay the survey's (the focus plays one pair only), to the new advice.
        auction = with_gaps(auction, action_scores(self.outcomes.auction, scores))
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
    ends = (len(outcomes.auction.defended),)
    surveyed = _chosen(outcomes, run, calls, calls, screened, run, ends)
    if not staged:
        return surveyed
    # Each round's chunks on the streams after the last's: the survey's samples are those of a
    # run of as many rounds, which the control replays (:mod:`control`).
    per_round = len(parts)
    live, played = calls, dict.fromkeys(calls, PAIR_FIRSTS)
    for round_ in range(1, SURVEY_ROUNDS):
        live = tuple(card for card in live if card == surveyed.called or card in surveyed.unsettled)
        if len(live) == 1 and not surveyed.auction.open:
            break
        for card, wanted in round_pairs(surveyed, live).items():
            # A pair once left out stays out, so every choice's samples are the first ones.
            played[card] = tuple(p for p in played[card] if p in wanted) or played[card]
        bar.grow(per_round)
        more = replace(run, first_chunk=run.first_chunk + round_ * per_round)
        call_pairs = {card: played[card] for card in live}
        parts += more.map(chunk, calls=live, call_pairs=call_pairs, **play)
        outcomes = ChunkOutcomes.merge(parts)
        ends += (len(outcomes.auction.defended),)
        whole = replace(run, samples=(round_ + 1) * run.samples)
        surveyed = _chosen(outcomes, whole, calls, live, screened, run, ends)
    return surveyed


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
        if gap >= SCREEN_GAP and -paired_gap(behind, ahead).z >= SCREEN_Z:
            gaps[card] = gap
    return gaps


def _chosen(
    outcomes: ChunkOutcomes,
    run: Run,
    calls: tuple[int | None, ...],
    live: Sequence[int | None],
    screened: dict[int, float],
    first_round: Run,
    ends: tuple[int, ...],
) -> Surveyed:
    """The best of the ``live`` calls (its best contract's mean score highest) and the auction
    under it, on ``run``'s samples (``first_round``: its first round's; ``ends``: the samples
    played by the end of each round); the calls ``screened`` out before the survey."""
    by_choice = outcomes.samples
    bidding = run.common["bidding"]
    called, call_scores, close, unsettled, call_versus = None, {}, (), (), {}
    if calls != (None,):
        call_scores = {card: best_of(by_choice, card)[1] for card in calls}
        called = max(live, key=call_scores.__getitem__)
        gaps = call_gaps(by_choice, calls, called)
        close = tuple(c for c in live_calls(gaps, called) if c != called)
        unsettled = tuple(c for c in open_calls(gaps, called) if c in live)
        call_versus = {c: gap for c, (gap, _, _) in gaps.items()}
    fitting, drawn = outcomes.fitting
    contract_scores = {c: by_choice[Choice(c, called)].score for c in Contract}
    auction = evaluate(
        outcomes.auction,
        contract_scores,
        bidding.heard,
        bidding.model.label,
        None if bidding.heard is None else fitting / drawn,
    )
    return Surveyed(
        outcomes,
        run,
        called,
        call_scores,
        auction,
        screened,
        first_round,
        ends,
        close,
        unsettled,
        call_versus,
    )


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


def call_gaps(
    by_choice: dict[Choice, ContractSamples], calls: tuple[int | None, ...], called: int | None
) -> CallGaps:
    """Each of the ``calls``' best contract against ``called``'s (the best call's): their
    paired gap (:func:`stats.paired_gap`, on the samples both were played on: a call dropped
    after a round of the survey has only the rounds before), and the two contracts."""
    best = best_of(by_choice, called)[0]
    leader = by_choice[Choice(best, called)].score
    gaps = {}
    for card in calls:
        contract = best_of(by_choice, card)[0]
        other = by_choice[Choice(contract, card)].score
        gaps[card] = (paired_gap(other, leader), best.value, contract.value)
    return gaps


CallGaps = dict[int | None, tuple[Estimate, str, str]]
"""Each call → its best contract's paired gap to the best call's, and the two contracts
(:func:`call_gaps`)."""


def live_calls(gaps: CallGaps, called: int | None) -> tuple[int | None, ...]:
    """The calls of ``gaps`` not clearly worse than ``called`` (the best), which they include:
    those whose best contract does not trail its best by :data:`plan.SETTLED_Z` standard errors
    of their paired gap."""
    return tuple(card for card, gap in gaps.items() if card == called or -gap[0].z < SETTLED_Z)


def open_calls(gaps: CallGaps, called: int | None) -> tuple[int | None, ...]:
    """The calls of ``gaps`` whose choice against ``called`` is not
    :func:`action_values.settled`: the ones the survey plays on. A call known to be worth as
    much within a few points is settled, though not clearly worse (:func:`live_calls`)."""
    return tuple(
        card
        for card, (gap, best, its) in gaps.items()
        if card != called and not settled(gap, best, its)
    )


def round_pairs(
    surveyed: Surveyed, live: tuple[int | None, ...]
) -> dict[int | None, tuple[Contract, ...]]:
    """The pairs of contracts (by their first) the survey's next round plays under each of the
    ``live`` calls: under the chosen call, those still open (:func:`open_pairs`); under another,
    only its best contract's, which its choice against the chosen call compares (with 5
    players, half the round's cost when several calls are left)."""
    chosen, still_open = surveyed.called, open_pairs(surveyed)
    if len(live) == 1:
        return {chosen: still_open}
    by_choice = surveyed.outcomes.samples
    wanted = {card: (pair_of(best_of(by_choice, card)[0])[0],) for card in live}
    wanted[chosen] = tuple(dict.fromkeys((*still_open, *wanted[chosen])))
    return wanted


def open_pairs(surveyed: Surveyed) -> tuple[Contract, ...]:
    """The pairs of contracts (each by its first, :data:`paired.PAIR_FIRSTS`) still in the
    choice after a round of the survey, under its one call: the pair of the contract the focus
    would measure (:func:`focus_contract`), and of every legal bid still open
    (:attr:`AuctionResult.open`)."""
    auction = surveyed.auction
    wanted = {focus_contract(auction, surveyed.outcomes.samples, surveyed.called)} | {
        Contract(action) for action in auction.open if action != "pass"
    }
    return tuple(first for first in PAIR_FIRSTS if wanted.intersection(pair_of(first)))
