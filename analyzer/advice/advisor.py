"""The Monte-Carlo analysis of one hand: the bid, the poignée, the chelem.

The unseen cards are dealt ``samples`` times (never a deal where another player holds petit
sec), the user's hand at the taker's seat. Every contract is played on the *same* samples, so
the differences between contracts are measured precisely: one playout serves Prise and Garde
(the same play, the chien taken), one Garde Sans and Garde Contre (the chien unseen). Where the
taker's hand (after the écart) allows a poignée, the deal is played again with it shown. The
chelem is then played announced (the taker leads) under the best contract, on the same samples
again, chunk by chunk, until the sign of its expected gain is settled (:mod:`chelem`): most
hands are nowhere near one. (A staged analysis plays the chelem's first samples with its focus.)

By default a table that searches (the lookahead, the default play) is sampled in two stages
(:mod:`plan`): a survey of every contract, in one or two rounds (:mod:`survey`), chooses the
advice, then a focus of fresh samples measures the advised contract's pair, its poignée, the
chelem and the sensitivity, as precisely as the plan asks.

The samples and their per-sample outcomes come from :mod:`hand_samples`. The work is cut in
chunks (:attr:`hand_samples.Sides.chunk` samples, or :data:`plan.STAGED_CHUNK`), each with
its own random stream (:mod:`parallel`), so the numbers depend on the seed, the sample count
and the policies only — not on the number of jobs.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import NamedTuple

import numpy as np

from ..cards import trumps_and_excuse
from ..game import POIGNEE_NAMES, Contract, poignee_thresholds
from ..parallel import DEFAULT_SEED, FORK
from ..policies import POLICIES
from ..stats import Estimate
from .analysis import Analysis, ContractResult, Focus, PoigneeAdvice
from .auction import DEFAULT_MODEL, PointCountBidder, bidder, check_possible
from .bids import AuctionError, parse_bids
from .chelem import CHELEM_MIN_SEARCHED, CHELEM_MORE_SEARCHED, Announced, chelem_advice
from .control import CONTROL_TABLE, Outcomes, Steadying, halves_mean, joined, replayed
from .hand import HandError, call_candidates, check_hand
from .hand_samples import (
    DEFAULT_POLICY,
    GREEDY_TABLE,
    Bidding,
    Choice,
    ChunkOutcomes,
    ContractSamples,
    Sides,
    concatenate,
    focus_chunk,
)
from .heuristic import point_count
from .paired import pair_of
from .plan import (
    FOCUS_SAMPLES,
    POIGNEE_SAMPLES,
    SETTLED_Z,
    STAGED_CHUNK,
    SURVEY_ROUND,
    SURVEY_SAMPLES,
    Stages,
    first_round,
    half_size,
    replay_share,
    second_round,
)
from .runs import Progress, Run
from .survey import Surveyed, focus_contract, survey

DEFAULT_SAMPLES = 2000
"""Samples of every contract for a table that does not search (the greedy's)."""
FOCUS_FIRST_CHUNK = 1 << 30
"""The focus's chunks are numbered from here (:func:`parallel.chunk_seed`): their random
streams are none of the survey's, so its samples are independent of the survey's."""


def analyse_hand(
    hand: Sequence[int],
    players: int = 4,
    *,
    position: int | None = None,
    samples: int | None = None,
    seed: int = DEFAULT_SEED,
    jobs: int = 1,
    backend: str | None = None,
    keep_records: bool = False,
    on_done: Callable[[int, int], None] | None = None,
    bids: Sequence[str] | str | None = None,
    others: str | PointCountBidder = DEFAULT_MODEL,
    taker_policy: str = DEFAULT_POLICY,
    defence_policy: str = DEFAULT_POLICY,
    sensitivity: Sequence[Sides] | None = None,
) -> Analysis:
    """Analyse ``hand`` (card ids) for ``players`` players; see the module docstring.

    ``position``: 1…n, or ``None`` to average over positions drawn uniformly. ``samples``: every
    contract played on that many samples, or by default (``None``) the :mod:`plan`'s stages for
    a table that searches, :data:`DEFAULT_SAMPLES` for one that does not. ``bids``: the bids
    heard before the user's turn (names of :data:`~.game.BIDS`, from position 1), which fix the
    position and condition the samples; ``others``: how the other players bid
    (:data:`auction.MODELS`). ``jobs`` and ``backend`` (default ``"fork"``) choose the workers
    and never change the numbers. ``keep_records`` keeps every playout as a deal record.
    ``on_done(done, total)`` receives the playout batches finished so far and how many there
    will be (the total grows once the survey has sized the focus). ``taker_policy`` and
    ``defence_policy`` (names, :mod:`policies`) play the cards; the best contract is replayed by
    each table of ``sensitivity`` (default :func:`weaker_tables`) on the same samples.
    """
    start = time.perf_counter()
    hand = check_hand(hand, players)
    sides = Sides(taker_policy, defence_policy)
    tables = weaker_tables(sides) if sensitivity is None else tuple(sensitivity)
    played_by = {p for t in (sides, *tables) for p in (t.taker, t.defence)}
    setting = (players, position, samples, bids, others, played_by, sides.draws)
    position, bidding = _checked_setting(*setting, hand=hand, seed=seed)
    stages = stages_for(samples, sides)
    calls: tuple[int | None, ...] = tuple(call_candidates(hand)) if players == 5 else (None,)
    bar = Progress(on_done, stages)
    run = Run(
        common=dict(hand=hand, players=players, position=position, bidding=bidding),
        kwargs=dict(seed=seed, chunk_size=stages.chunk, jobs=jobs, backend=backend or FORK),
        samples=stages.survey,
    )
    surveyed = survey(run, calls, bar, staged=stages.staged, keep_records=keep_records, sides=sides)
    outcomes, run, called = surveyed.outcomes, surveyed.run, surveyed.called
    by_choice, auction = outcomes.samples, surveyed.auction
    recommendation = auction.recommendation
    best = focus_contract(auction, by_choice, called)
    choice = None if best is None else Choice(best, called)  # None: nothing is left to bid
    records, focus, announced, focused = outcomes.records, None, None, {}
    focusing = stages.staged and choice is not None
    staged = _focus(surveyed, choice, sides, keep_records, bar) if focusing else None
    if staged is not None:  # the best contract's pair measured again, on samples of its own
        measured = {c: staged.results[c].expected_score for c in staged.focus.contracts}
        auction, choice = surveyed.advised_again(choice, measured)
        recommendation, best = auction.recommendation, choice.contract
        run, focus, announced = staged.run, staged.focus, staged.announced[best]
        by_choice, records = by_choice | staged.samples, records + staged.records
        focused = staged.results
    mine = {c: by_choice[Choice(c, called)] for c in Contract}
    contracts = {c: focused.get(c) or _contract_result(c, mine[c]) for c in Contract}
    measured = [c for c in Contract if _poignee_measured(mine[c])]
    poignees = {c: _poignee_advice(mine[c], hand, players) for c in measured}
    weaker, chelem = {}, None  # nothing to bid: no contract to judge
    if choice is not None:
        weaker = {t: _replayed_by(run, choice, t, staged) for t in tables if t != sides}
        chelem = chelem_advice(run, choice, sides, mine[best], bar, recommendation, announced)
    bar.finish()
    return Analysis(
        hand=hand,
        players=players,
        position=position,
        samples=len(outcomes.auction.defended),
        seed=seed,
        point_count=point_count(hand),
        contracts=contracts,
        recommendation=recommendation,
        safest=_safest(contracts, recommendation, auction.legal_actions),
        poignee=None if best is None else poignees[best],
        chelem=chelem,
        called=called if choice else None,  # nothing to bid: no card to call
        call_scores=surveyed.call_scores if choice else {},
        close_calls=surveyed.close if choice else (),
        open_calls=surveyed.unsettled if choice else (),
        call_versus=surveyed.call_versus if choice else {},
        screened_calls=surveyed.screened if choice else {},
        auction=auction,
        poignees=poignees,
        sides=sides,
        sensitivity=weaker,
        focus=focus,
        judged=best,
        seconds=time.perf_counter() - start,
        records=records if keep_records else None,
    )


class _Staged(NamedTuple):
    """A staged analysis's focus (:func:`_focus`): its run (the sensitivity replays its
    samples), the focus, its per-sample outcomes, its deal records, the chelem's first samples,
    the pair's numbers (P(make) and E[score] steadied, :mod:`control`), the control table's
    outcomes on the focus's deals, and each sample's half ((N,) int, 0 or 1)."""

    run: Run
    focus: Focus
    samples: dict[Choice, ContractSamples]
    records: list[dict]
    announced: dict[Contract, Announced]
    results: dict[Contract, ContractResult]
    control: Outcomes
    halves: np.ndarray


def _focus(
    surveyed: Surveyed,
    choice: Choice,
    sides: Sides,
    keep_records: bool,
    bar: Progress,
) -> _Staged:
    """The focus of a staged analysis (:mod:`plan`): ``choice``'s pair played on fresh
    samples, in two halves and two rounds. The first round plays as many as the survey's
    samples of the pair (``surveyed``) and the spread of its P(make) and E[score] steadied by
    the greedy (:mod:`control`) ask for (:func:`first_round`), the first of each half again with
    the chelem announced (:data:`CHELEM_MIN_SEARCHED` in all) and with the poignée shown (half
    :data:`POIGNEE_SAMPLES` in all, where it may be); the second, in each half, as many more as
    the survey and the other half's first round ask for (:func:`half_size`), in chunks that end
    together (:func:`second_round`), again shown and announced (:data:`CHELEM_MORE_SEARCHED` in
    all) where the first round left the poignée's or the chelem's verdict open."""
    survey = surveyed.run_of(choice.contract)  # its first round's, where it left the pair out
    steadying = Steadying.of(survey, surveyed.outcomes.samples, choice, surveyed.outcomes.fitting)
    first = first_round(steadying.needed())
    play = dict(choice=choice, keep_records=keep_records, sides=sides, on_done=bar.step)
    bar.grow(2)
    round_one = _focus_run(survey, first)
    parts = round_one.map(
        focus_chunk,
        **play,
        announced=-(-CHELEM_MIN_SEARCHED // 2),
        poignee=-(-POIGNEE_SAMPLES // 2 // len(first)),
    )
    controls = steadying.controls(round_one)
    seen = [Steadying.paired(choice, p[0], c) for p, c in zip(parts, controls, strict=True)]
    more = [  # each half as the other's first round asks
        half_size(size, steadying.needed(other)) - size
        for size, other in zip(first, reversed(seen), strict=True)
    ]
    judged = ChunkOutcomes.merge_samples([samples for samples, _, _ in parts])[choice]
    showing = 0 if _poignee_settled(parts, choice) else POIGNEE_SAMPLES // 2
    announcing = 0 if _announced(parts, choice).settled(judged) else CHELEM_MORE_SEARCHED
    chunks = second_round((more[0], more[1]), (showing, announcing))
    second = tuple(size for _, size in chunks)
    bar.grow(len(second))
    round_two = _focus_run(survey, second, after=2)
    totals = {"announced": announcing, "poignee": showing}
    shares = {name: replay_share(total, len(second)) for name, total in totals.items()}
    parts += round_two.map(focus_chunk, **play, **shares)
    controls += steadying.controls(round_two)
    run = _focus_run(survey, first + second)
    focused = ChunkOutcomes.merge_samples([samples for samples, _, _ in parts])
    sizes = [len(samples[choice].score) for samples, _, _ in parts]
    chunk_halves = (0, 1, *(half for half, _ in chunks))  # the first round: a chunk a half
    halves = np.repeat(chunk_halves, sizes)
    control = joined(controls)
    steadied, fresh = steadying.estimates(run, focused, control, halves, (seen[0], seen[1]))
    # With bids heard, rarely fewer samples than asked fit them.
    focus = Focus(
        len(focused[choice].score), pair_of(choice.contract), fresh, first + second, chunk_halves
    )
    announced = {c: _announced(parts, Choice(c, choice.called)) for c in focus.contracts}
    dumped = [r for _, records, _ in parts for r in records]
    results = {
        contract: _contract_result(contract, focused[Choice(contract, choice.called)], pair, halves)
        for contract, pair in steadied.items()
    }
    return _Staged(run, focus, focused, dumped, announced, results, control, halves)


def _announced(parts: list, choice: Choice) -> Announced:
    """The samples the focus's chunks ``parts`` (:func:`hand_samples.focus_chunk`'s results)
    played again with the chelem announced: each chunk's first, its rows counted over the
    chunks in order (``choice``'s samples count them)."""
    sizes = [len(samples[choice].score) for samples, _, _ in parts]
    starts = np.cumsum([0, *sizes[:-1]])
    played = [
        (start, c[choice.contract])
        for start, (_, _, c) in zip(starts, parts, strict=True)
        if c is not None
    ]
    return Announced(
        concatenate([c for _, c in played]),
        np.concatenate([start + np.arange(len(c.score)) for start, c in played]),
    )


def _poignee_settled(parts: list, choice: Choice) -> bool:
    """Whether the focus's chunks ``parts`` (:func:`hand_samples.focus_chunk`'s results) settle
    the sign of the gain of showing the poignée (:data:`plan.SETTLED_Z`): it is 0 where the hand
    may not show one."""
    gains = [samples[choice].shown_gain for samples, _, _ in parts]
    if gains[0] is None:
        return True
    gain = np.concatenate(gains)
    return not gain.any() or abs(Estimate.of(gain).z) >= SETTLED_Z


def _focus_run(survey: Run, sizes: tuple[int, ...], after: int = 0) -> Run:
    """The focus's chunks of ``sizes``, on their own streams (from :data:`FOCUS_FIRST_CHUNK`,
    ``after`` chunks on)."""
    kwargs = {**survey.kwargs, "chunk_size": sizes}
    return replace(survey, samples=sum(sizes), first_chunk=FOCUS_FIRST_CHUNK + after, kwargs=kwargs)


def stages_for(samples: int | None, sides: Sides) -> Stages:
    """How :func:`analyse_hand` samples: ``samples`` of everything when given; else, for a
    table that searches, a survey and a focus (:mod:`plan`), and :data:`DEFAULT_SAMPLES` of
    everything for one that does not."""
    if samples is not None:
        return Stages(samples, sides.chunk, staged=False)
    if sides.searches:
        return Stages(SURVEY_ROUND, STAGED_CHUNK, staged=True)
    return Stages(DEFAULT_SAMPLES, sides.chunk, staged=False)


def most_samples(sides: Sides) -> int:
    """The most samples of any contract :func:`analyse_hand` plays by default: a survey and
    the largest focus for a table that searches."""
    if sides.searches:
        return SURVEY_SAMPLES + FOCUS_SAMPLES[1]
    return DEFAULT_SAMPLES


def weaker_tables(sides: Sides) -> tuple[Sides, ...]:
    """The tables the best contract is replayed by, to show how the answer leans on the play:
    the greedy at every seat when a side searches, else the taker's side against the simple
    defence."""
    if sides.searches:
        return (GREEDY_TABLE,)
    return (Sides(sides.taker, "simple"),)


def _checked_setting(
    players: int,
    position: int | None,
    samples: int | None,
    bids: Sequence[str] | str | None,
    others: str | PointCountBidder,
    policies: set[str],
    draws: int,
    *,
    hand: tuple[int, ...],
    seed: int,
) -> tuple[int | None, Bidding]:
    """The user's position (the bids heard fix it) and the auction's model (drawing at most
    ``draws`` deals a sample), every argument checked (:class:`HandError` with one sentence), the
    bids heard possible with ``hand`` (:func:`auction.check_possible`, on ``seed``'s stream)."""
    if position is not None and not 1 <= position <= players:
        raise HandError(f"the position goes from 1 to {players}, not {position}")
    if samples is not None and samples < 2:
        raise HandError(f"at least 2 samples are needed, not {samples}")
    try:
        heard = None if bids is None else parse_bids(bids, players)
        bidding = Bidding(bidder(others), heard, draws)
    except AuctionError as error:
        raise HandError(str(error)) from None
    if bidding.heard is not None:
        if position not in (None, len(bidding.heard) + 1):
            raise HandError(
                f"{len(bidding.heard)} bid{'s' * (len(bidding.heard) != 1)} heard"
                f" put{'s' * (len(bidding.heard) == 1)} you at position {len(bidding.heard) + 1},"
                f" not {position}"
            )
        position = len(bidding.heard) + 1
    for name in sorted(policies):
        if name not in POLICIES:
            raise HandError(f"'{name}' is not a policy (one of {', '.join(POLICIES)})")
    if bidding.heard is not None:
        try:
            check_possible(hand, players, bidding.heard, bidding.model, seed)
        except AuctionError as error:
            raise HandError(str(error)) from None
    return position, bidding


def _contract_result(
    contract: Contract,
    played: ContractSamples,
    steadied: tuple[Estimate, Estimate] | None = None,
    halves: np.ndarray | None = None,
) -> ContractResult:
    """The contract's numbers from its per-sample outcomes; P(make) and E[score] their plain
    means unless ``steadied`` gives them (a focus's, steadied: :mod:`control`),
    the others the mean of the focus's ``halves`` (:func:`control.halves_mean`) when given."""
    p_make, expected_score = steadied or (Estimate.of(played.made), Estimate.of(played.score))
    return ContractResult(
        contract=contract,
        p_make=p_make,
        expected_score=expected_score,
        p_petit_au_bout=halves_mean(played.petit, halves).mean,
        p_chelem=halves_mean(played.chelem, halves).mean,
    )


def _safest(
    contracts: dict[Contract, ContractResult], recommendation: str, legal: Sequence[str]
) -> str | None:
    """The contract most often made among the ``legal`` bids, where it is made more often than
    not and more often than the advice. The two contracts of a pair (:func:`.paired.pair_of`)
    are made on the same deals: of the two, the better pays, and neither is safer."""
    biddable = [c for c in Contract if c.value in legal]
    if not biddable:
        return None
    likeliest = max(
        biddable, key=lambda c: (contracts[c].p_make.mean, contracts[c].expected_score.mean)
    )
    if recommendation != "pass" and likeliest in pair_of(Contract(recommendation)):
        return None
    made = contracts[likeliest].p_make.mean
    advised = contracts[Contract(recommendation)].p_make.mean if recommendation != "pass" else 0.0
    if made > 0.5 and made > advised:
        return likeliest.value
    return None


def _replayed_by(run: Run, choice: Choice, sides: Sides, staged: _Staged | None) -> ContractResult:
    """The best contract replayed on the same samples by another table (the sensitivity): on
    the focus's samples when ``staged`` (by halves, :func:`control.halves_mean`; the control
    table's outcomes already played there), else on every sample."""
    if staged is not None and sides == CONTROL_TABLE:
        replay = staged.control[choice.contract]
    else:
        replay = replayed(run, choice, sides)[choice.contract]
    halves = None if staged is None else staged.halves
    made, score = halves_mean(replay.made, halves), halves_mean(replay.score, halves)
    return ContractResult(choice.contract, made, score, 0.0, 0.0)


def _poignee_measured(judged: ContractSamples) -> bool:
    """Whether the poignée was measured on ``judged``: played again shown on some of its
    samples, or never showable (a staged analysis's survey shows it on none: :mod:`plan`)."""
    return judged.shown_gain is None or len(judged.shown_gain) > 0


def _poignee_advice(judged: ContractSamples, hand: tuple[int, ...], players: int) -> PoigneeAdvice:
    """The poignée under the judged contract's samples."""
    count = int(trumps_and_excuse(hand))
    thresholds = poignee_thresholds(players)
    reached = [name for name, t in zip(POIGNEE_NAMES, thresholds, strict=True) if count >= t]
    size = reached[-1] if reached else None
    if judged.shown_gain is None or judged.shown_bonus is None or judged.shown is None:
        nothing = Estimate(0.0, 0.0)
        return PoigneeAdvice(False, 0.0, None, False, nothing, nothing, nothing)
    gain = judged.shown_gain
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
