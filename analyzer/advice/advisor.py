"""The Monte-Carlo analysis of one hand: the bid, the poignée, the chelem.

The unseen cards are dealt ``samples`` times (never a deal where another player holds petit
sec), the user's hand at the taker's seat. Every contract is played on the *same* samples, so
the differences between contracts are measured precisely: one playout serves Prise and Garde
(the same play, the chien taken), one Garde Sans and Garde Contre (the chien unseen). Where the
taker's hand (after the écart) allows a poignée, the deal is played again with it shown. The
chelem is then played announced (the taker leads) under the best contract, on the same samples
again, chunk by chunk, until the sign of its expected gain is settled (:data:`CHELEM_SETTLED`):
most hands are nowhere near a chelem, and the replay is a third of the work.

The samples and their per-sample outcomes come from :mod:`hand_samples`. The work is cut in
chunks (:attr:`hand_samples.Sides.chunk` samples: fewer when a side plays by search), each
with its own random stream (:mod:`parallel`), so the numbers depend on the seed, the sample
count and the policies only — not on the number of jobs.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..cards import trumps_and_excuse
from ..game import Contract, poignee_thresholds
from ..parallel import DEFAULT_SEED, map_chunks, map_chunks_until
from ..policies import POLICIES
from ..stats import Estimate
from .analysis import Analysis, ChelemAdvice, ContractResult, PoigneeAdvice
from .auction import (
    DEFAULT_MODEL,
    AuctionError,
    PointCountBidder,
    bidder,
    evaluate,
    parse_bids,
)
from .hand import HandError, call_candidates, check_hand
from .hand_samples import (
    AnnouncedSamples,
    Bidding,
    Choice,
    ChunkOutcomes,
    ContractSamples,
    Sides,
    announced_chunk,
    chunk,
    concatenate,
    sensitivity_chunk,
)
from .heuristic import point_count

DEFAULT_SAMPLES = 2000
POIGNEE_NAMES = ("simple", "double", "triple")
CHELEM_SETTLED = 4.0
"""The announced chelem's replay stops once its expected gain is this many standard errors from
0 (on at least :data:`CHELEM_MIN_SAMPLES`): the verdict cannot turn any more. A hand with no
chelem in sight settles at once (the README hand: −605 ± 7.9, 77 SE, on its first 500
samples)."""
CHELEM_MIN_SAMPLES = 500
"""Samples the chelem's verdict rests on at least: with fewer, a rare made chelem (a large
gain) may not have shown up yet, and the standard error would understate the spread."""


def analyse_hand(
    hand: Sequence[int],
    players: int = 4,
    *,
    position: int | None = None,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    jobs: int = 1,
    backend: str | None = None,
    keep_records: bool = False,
    on_done: Callable[[int], None] | None = None,
    bids: Sequence[str] | str | None = None,
    others: str | PointCountBidder = DEFAULT_MODEL,
    taker_policy: str = "greedy",
    defence_policy: str = "greedy",
    sensitivity: Sequence[str] = ("simple",),
) -> Analysis:
    """Analyse ``hand`` (card ids) for ``players`` players; see the module docstring.

    ``position``: 1…n, or ``None`` to average over positions drawn uniformly. ``bids``: the
    bids heard before the user's turn (names of :data:`~.game.BIDS`, from position 1), which
    fix the position and condition the samples; ``others``: how the other players bid
    (:data:`auction.MODELS`). ``jobs`` and
    ``backend`` choose the workers (:func:`parallel.map_chunks`); they never change the
    numbers. ``keep_records`` keeps every playout as a deal record (``Analysis.records``).
    ``on_done`` receives the number of playout batches finished so far (:func:`batches` says
    how many there are). ``taker_policy`` and ``defence_policy`` (names,
    :mod:`policies`) play the cards; the best contract is replayed against each defence of
    ``sensitivity`` on the same samples (:attr:`Analysis.sensitivity`).
    """
    start = time.perf_counter()
    hand = check_hand(hand, players)
    position, bidding = _checked_setting(
        players, position, samples, bids, others, (taker_policy, defence_policy, *sensitivity)
    )
    sides = Sides(taker_policy, defence_policy)
    calls: tuple[int | None, ...] = tuple(call_candidates(hand)) if players == 5 else (None,)
    size = sides.chunk
    n_chunks = -(-samples // size)

    def progress(before: int) -> Callable[[int], None] | None:
        return (lambda done: on_done(before + -(-done // size))) if on_done else None

    run = _Run(
        common=dict(hand=hand, players=players, position=position, bidding=bidding),
        kwargs=dict(seed=seed, chunk_size=size, jobs=jobs, backend=backend),
        samples=samples,
    )
    outcomes = ChunkOutcomes.merge(
        run.map(chunk, on_done=progress(0), calls=calls, keep_records=keep_records, sides=sides)
    )
    by_choice = outcomes.samples
    called, call_scores = _best_call(by_choice, calls)
    contracts = {c: _contract_result(c, by_choice[Choice(c, called)]) for c in Contract}
    n_samples = len(outcomes.auction.defended)
    auction = evaluate(
        outcomes.auction,
        {c: by_choice[Choice(c, called)].score for c in Contract},
        bidding.heard,
        bidding.model.label,
        None if bidding.heard is None else outcomes.fitting[0] / outcomes.fitting[1],
    )
    recommendation = auction.recommendation
    best = Contract(recommendation) if recommendation != "pass" else _best_of(by_choice, called)[0]
    judged = by_choice[Choice(best, called)]  # the poignée and the chelem: the best contract
    poignees = {c: _poignee_advice(by_choice[Choice(c, called)], hand, players) for c in Contract}
    weaker = {
        name: _replayed_against(run, Choice(best, called), Sides(taker_policy, name))
        for name in sensitivity
        if name != defence_policy
    }
    # Last: its chunks are the second half of the progress (:func:`batches`).
    chelem = _chelem_advice(
        run, Choice(best, called), sides, judged, n_samples, progress(n_chunks), recommendation
    )
    if on_done is not None and chelem.samples < n_samples:
        on_done(2 * n_chunks)  # the chunks a settled verdict spared
    return Analysis(
        hand=hand,
        players=players,
        position=position,
        samples=n_samples,
        seed=seed,
        point_count=point_count(hand),
        contracts=contracts,
        recommendation=recommendation,
        safest=_safest(contracts, recommendation),
        poignee=poignees[best],
        chelem=chelem,
        called=called,
        call_scores=call_scores,
        auction=auction,
        poignees=poignees,
        sides=sides,
        sensitivity=weaker,
        seconds=time.perf_counter() - start,
        records=outcomes.records if keep_records else None,
    )


@dataclass(frozen=True)
class _Run:
    """What every sampling task of one analysis shares: the hand's arguments and the chunks."""

    common: dict
    kwargs: dict
    samples: int

    def map(self, task: Callable, **arguments) -> list:
        return map_chunks(task, self.samples, **self.kwargs, **arguments, **self.common)


def _checked_setting(
    players: int,
    position: int | None,
    samples: int,
    bids: Sequence[str] | str | None,
    others: str | PointCountBidder,
    policies: Sequence[str],
) -> tuple[int | None, Bidding]:
    """The user's position (the bids heard fix it) and the auction's model, every argument
    checked (:class:`HandError` with one sentence)."""
    if position is not None and not 1 <= position <= players:
        raise HandError(f"the position goes from 1 to {players}, not {position}")
    if samples < 2:
        raise HandError(f"at least 2 samples are needed, not {samples}")
    try:
        bidding = Bidding(bidder(others), None if bids is None else parse_bids(bids, players))
    except AuctionError as error:
        raise HandError(str(error)) from None
    if bidding.heard is not None:
        if position not in (None, len(bidding.heard) + 1):
            raise HandError(
                f"{len(bidding.heard)} bids heard put you at position {len(bidding.heard) + 1},"
                f" not {position}"
            )
        position = len(bidding.heard) + 1
    for name in policies:
        if name not in POLICIES:
            raise HandError(f"'{name}' is not a policy (one of {', '.join(POLICIES)})")
    return position, bidding


def _best_of(by_choice: dict, called: int | None) -> tuple[Contract, float]:
    """The contract of highest mean score with this call, and that mean."""
    means = {c: float(np.mean(by_choice[Choice(c, called)].score)) for c in Contract}
    best = max(means, key=means.__getitem__)
    return best, means[best]


def _best_call(
    by_choice: dict, calls: tuple[int | None, ...]
) -> tuple[int | None, dict[int, float]]:
    """With 5 players, the card to call (its best contract's mean score highest) and every
    call's score; else no call."""
    if calls == (None,):
        return None, {}
    call_scores = {card: _best_of(by_choice, card)[1] for card in calls}
    return max(call_scores, key=call_scores.__getitem__), call_scores


def _contract_result(contract: Contract, played: ContractSamples) -> ContractResult:
    return ContractResult(
        contract=contract,
        p_make=Estimate.of(played.made),
        expected_score=Estimate.of(played.score),
        p_petit_au_bout=float(np.mean(played.petit)),
        p_chelem=float(np.mean(played.chelem)),
    )


def _safest(contracts: dict[Contract, ContractResult], recommendation: str) -> str | None:
    """The contract most often made, where it is not the advice and is made more often than
    not. Prise and Garde are always equally likely: of two equally safe contracts, the better
    pays."""
    likeliest = max(
        Contract, key=lambda c: (contracts[c].p_make.mean, contracts[c].expected_score.mean)
    )
    if contracts[likeliest].p_make.mean > 0.5 and likeliest.value != recommendation:
        return likeliest.value
    return None


def _replayed_against(run: _Run, choice: Choice, sides: Sides) -> ContractResult:
    """The best contract replayed on the same samples by other players (the sensitivity)."""
    parts = run.map(sensitivity_chunk, choice=choice, sides=sides)
    made = np.concatenate([m for m, _ in parts])
    total = np.concatenate([s for _, s in parts])
    return ContractResult(choice.contract, Estimate.of(made), Estimate.of(total), 0.0, 0.0)


def _chelem_advice(
    run: _Run,
    choice: Choice,
    sides: Sides,
    judged: ContractSamples,
    n_samples: int,
    on_done: Callable[[int], None] | None,
    recommendation: str,
) -> ChelemAdvice:
    """The chelem announced under the best contract, on the same samples in chunk order,
    until the sign of its gain is settled (:data:`CHELEM_SETTLED`)."""

    def gain_settled(parts: list[AnnouncedSamples]) -> bool:
        played = concatenate(parts)
        n = len(played.score)
        if n < min(CHELEM_MIN_SAMPLES, n_samples) or n == n_samples:
            return False
        return abs(Estimate.of(played.score - judged.score[:n]).z) > CHELEM_SETTLED

    announced = concatenate(
        map_chunks_until(
            announced_chunk,
            run.samples,
            gain_settled,
            **run.kwargs,
            on_done=on_done,
            choice=choice,
            sides=sides,
            **run.common,
        )
    )
    kept = len(announced.score)  # the first samples, in chunk order
    gain = announced.score - judged.score[:kept]
    bonus = announced.chelem_bonus - judged.chelem_bonus[:kept]
    expected_gain = Estimate.of(gain)
    return ChelemAdvice(
        recommended=recommendation != "pass" and expected_gain.mean > 0,
        p_chelem=float(np.mean(announced.chelem)),
        expected_gain=expected_gain,
        bonus=Estimate.of(bonus),
        lead=Estimate.of(gain - bonus),
    )


def batches(
    samples: int, taker_policy: str = "greedy", defence_policy: str = "greedy"
) -> tuple[int, int]:
    """What :func:`analyse_hand`'s ``on_done`` counts for these arguments: (the number of
    playout batches, the samples in each): every chunk of samples played under every contract,
    then with the chelem announced."""
    size = Sides(taker_policy, defence_policy).chunk
    return 2 * -(-samples // size), size


def _poignee_advice(judged: ContractSamples, hand: tuple[int, ...], players: int) -> PoigneeAdvice:
    """The poignée under the judged contract's samples."""
    count = int(trumps_and_excuse(hand))
    thresholds = poignee_thresholds(players)
    reached = [name for name, t in zip(POIGNEE_NAMES, thresholds, strict=True) if count >= t]
    size = reached[-1] if reached else None
    if judged.shown_score is None or judged.shown_bonus is None or judged.shown is None:
        nothing = Estimate(0.0, 0.0)
        return PoigneeAdvice(False, 0.0, None, False, nothing, nothing, nothing)
    gain = judged.shown_score - judged.score
    expected_gain = Estimate.of(gain)
    p_eligible = float(np.mean(judged.shown))
    eligible = p_eligible > 0
    return PoigneeAdvice(
        eligible=eligible,
        p_eligible=p_eligible,
        size=size,
        recommended=eligible and expected_gain.mean > 0,
        expected_gain=expected_gain,
        bonus=Estimate.of(judged.shown_bonus),
        information=Estimate.of(gain - judged.shown_bonus),
    )
