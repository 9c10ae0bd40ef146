"""The Monte-Carlo analysis of one hand: the bid, the poignée, the chelem.

The unseen cards are dealt ``samples`` times (never a deal where another player holds petit
sec), the user's hand at the taker's seat. Every contract is played on the *same* samples, so
the differences between contracts are measured precisely: one playout serves Prise and Garde
(the same play, the chien taken), one Garde Sans and Garde Contre (the chien unseen). Where the
hand may show a poignée, each playout is run again with it shown. The chelem is then played
announced (the taker leads) under the best contract, on the same samples again.

The work is cut in chunks of :data:`CHUNK` samples, each with its own random stream
(:mod:`parallel`), so the numbers depend on the seed and the sample count only — not on the
number of jobs.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from .auction import (
    DEFAULT_MODEL,
    AuctionError,
    AuctionResult,
    AuctionSamples,
    PointCountBidder,
    bidder,
    defended_outcome,
    evaluate,
    parse_bids,
    sample_auction,
)
from .calibrated import CalibratedCount, calibrated_count
from .calling import callable_rank
from .cards import format_card, sort_cards, suited, trumps_and_excuse
from .deal import Deals, PetitSecError, complete
from .engine import Playout, play
from .game import Contract, Side, check_players, chien_size, hand_size, poignee_thresholds
from .greedy import GreedyPolicy
from .heuristic import PointCount, point_count
from .paired import may_show, play_pair
from .parallel import DEFAULT_SEED, map_chunks
from .rules import is_petit_sec
from .scoring import PAIRS, Scores, records, score, taker_total
from .stats import Estimate

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_SAMPLES = 2000
CHUNK = 5000
"""Samples per chunk: each chunk is one vectorised batch and one random stream."""

POIGNEE_NAMES = ("simple", "double", "triple")

_T = TypeVar("_T")


class HandError(ValueError):
    """A hand that cannot be analysed (wrong size, petit sec…)."""


@dataclass(frozen=True)
class ContractResult:
    """What the simulation says of one contract, the taker's point of view."""

    contract: Contract
    p_make: Estimate
    expected_score: Estimate
    """The taker's total (e.g. 3 × S with 4 players), poignée hidden, chelem not announced."""
    p_petit_au_bout: float
    """Probability that the taker's side wins the Petit au bout."""
    p_chelem: float
    """Probability that the taker's side wins every trick (unannounced)."""


@dataclass(frozen=True)
class PoigneeAdvice:
    """Whether to show the poignée the hand allows, under the recommended contract."""

    eligible: bool
    """Whether the hand can show a poignée (after the écart, for Prise and Garde)."""
    p_eligible: float
    """Share of the samples where it can (the chien may bring trumps)."""
    size: str | None
    """``simple``, ``double`` or ``triple``: the largest poignée the hand allows (before the
    chien), or ``None``."""
    recommended: bool
    expected_gain: Estimate
    """Mean taker's score shown minus hidden: ``bonus`` + ``information``."""
    bonus: Estimate
    """The bonus term: + its value × the taker's share when the contract is made, − when not."""
    information: Estimate
    """Every other change of the score: what the shown trumps tell the defence, through the
    play they change. A fair defence can only use it against the taker: ≤ 0."""


@dataclass(frozen=True)
class ChelemAdvice:
    """Whether to announce a chelem, under the recommended contract."""

    recommended: bool
    p_chelem: float
    """Probability of making the chelem when announced (the taker leads the first trick)."""
    expected_gain: Estimate
    """Mean taker's score announced minus not announced: ``bonus`` + ``lead``."""
    bonus: Estimate
    """The change of the chelem bonus (+400 made / −200 failed announced, against +200 / 0
    unannounced), at the same play."""
    lead: Estimate
    """Every other change of the score: the play changed by the taker leading the first
    trick."""


@dataclass(frozen=True)
class Analysis:
    """The analysis of one hand. ``to_dict()`` is the ``tarot-advise --json`` document and
    ``to_frame()`` the per-contract table."""

    hand: tuple[int, ...]
    players: int
    position: int | None
    """1 = speaks first and leads; ``None`` = averaged over positions drawn uniformly."""
    samples: int
    seed: int
    point_count: PointCount
    contracts: dict[Contract, ContractResult]
    recommendation: str
    safest: str | None
    """The contract most likely to be made, when its probability exceeds 50% and it is not
    the recommendation; else ``None``."""
    poignee: PoigneeAdvice
    """The poignée under the recommended (or, to pass, the least bad) contract."""
    chelem: ChelemAdvice
    called: int | None
    """5 players: the card to call (a king the hand lacks, or its own to play alone)."""
    call_scores: dict[int, float] = field(default_factory=dict)
    """5 players: each callable card → the best expected score when calling it."""
    auction: AuctionResult | None = None
    """The bids heard, the legal actions and each action's value, E[pass] included."""
    poignees: dict[Contract, PoigneeAdvice] = field(default_factory=dict)
    """The poignée under each contract."""
    seconds: float = 0.0
    records: list[dict] | None = None

    @property
    def heuristic_agrees(self) -> bool:
        return self.point_count.bid == self.recommendation

    @property
    def calibrated(self) -> CalibratedCount:
        """The hand's calibrated point count for this number of players (issue 12)."""
        return calibrated_count(self.hand, self.players)

    def to_frame(self) -> pd.DataFrame:
        """One row per contract: P(make), E[score] with their standard errors, Petit au bout,
        chelem."""
        import pandas as pd  # for notebooks only: importing it costs tarot-advise ~0.2 s

        frame = pd.DataFrame.from_dict(self.to_dict()["contracts"], orient="index")
        return frame.rename_axis("contract")

    def to_dict(self) -> dict:
        """The JSON document of ``tarot-advise --json``."""
        return {
            "hand": [format_card(c) for c in self.hand],
            "players": self.players,
            "position": self.position,
            "samples": self.samples,
            "seed": self.seed,
            "heuristic": {
                "points": self.point_count.points,
                "points_with_distribution": self.point_count.points_with_distribution,
                "bid": self.point_count.bid,
                "breakdown": dict(self.point_count.breakdown),
                "calibrated": {"points": self.calibrated.points, "bid": self.calibrated.bid},
            },
            "contracts": {
                contract.value: {
                    "p_make": result.p_make.mean,
                    "p_make_se": result.p_make.se,
                    "expected_score": result.expected_score.mean,
                    "expected_score_se": result.expected_score.se,
                    "p_petit_au_bout": result.p_petit_au_bout,
                    "p_chelem": result.p_chelem,
                }
                for contract, result in self.contracts.items()
            },
            "poignee": {
                "eligible": self.poignee.eligible,
                "p_eligible": self.poignee.p_eligible,
                "size": self.poignee.size,
                "recommended": self.poignee.recommended,
                "expected_gain": self.poignee.expected_gain.mean,
                "expected_gain_se": self.poignee.expected_gain.se,
                **_estimates(bonus=self.poignee.bonus, information=self.poignee.information),
            },
            "chelem": {
                "recommended": self.chelem.recommended,
                "p_chelem": self.chelem.p_chelem,
                "expected_gain": self.chelem.expected_gain.mean,
                "expected_gain_se": self.chelem.expected_gain.se,
                **_estimates(bonus=self.chelem.bonus, lead=self.chelem.lead),
            },
            "recommendation": self.recommendation,
            "safest": self.safest,
            "heuristic_agrees": self.heuristic_agrees,
            "called": None if self.called is None else format_card(self.called),
            "call_scores": {format_card(c): s for c, s in self.call_scores.items()},
            **(self.auction.to_dict() if self.auction else {}),
            "seconds": round(self.seconds, 3),
        }


def _estimates(**named: Estimate) -> dict[str, float]:
    """``name`` and ``name_se`` of each estimate, the JSON's flat style."""
    out = {}
    for name, estimate in named.items():
        out[name], out[f"{name}_se"] = estimate.mean, estimate.se
    return out


def check_hand(hand: Sequence[int], players: int) -> tuple[int, ...]:
    """The hand, sorted, if it can be analysed; raises :class:`HandError` otherwise."""
    check_players(players)
    cards = sort_cards(hand)
    if len(set(cards)) != len(cards):
        raise HandError("the hand holds a card twice")
    if len(cards) != hand_size(players):
        raise HandError(f"a {players}-player hand has {hand_size(players)} cards, not {len(cards)}")
    if is_petit_sec(cards):
        raise HandError(
            "the hand is petit sec (the Petit alone, no Excuse): the deal is void and must be"
            " redealt"
        )
    return tuple(cards)


def call_candidates(hand: Sequence[int]) -> list[int]:
    """5 players: the cards the taker may call — the four of the rank to call (kings, unless
    the hand holds all four)."""
    rank = int(callable_rank(np.array([list(hand)], np.uint8))[0])
    return [suited(suit, rank) for suit in range(4)]


@dataclass(frozen=True)
class Bidding:
    """How the others bid (``model``) and, when given, the bids heard (indices into BIDS)."""

    model: PointCountBidder
    heard: tuple[int, ...] | None = None


def _sample(
    rng: np.random.Generator,
    n: int,
    hand: tuple[int, ...],
    players: int,
    position: int | None,
    bidding: Bidding,
) -> tuple[Deals, np.ndarray, tuple[int, int]]:
    """Completions of ``hand`` with the hand at the taker's seat, the seats (N,), and how many
    deals of how many drawn fit: ``n`` of ``n``, or with bids heard those of ``n`` or fewer
    that fit them (:func:`auction.sample_auction`)."""
    if bidding.heard is not None:
        try:
            found = sample_auction(rng, n, hand, players, bidding.heard, bidding.model)
        except AuctionError as error:
            raise HandError(str(error)) from None
        seats = np.full(len(found.deals), len(bidding.heard), np.int64)
        return found.deals, seats, (found.fitting, found.drawn)
    seats = rng.integers(0, players, n) if position is None else np.full(n, position - 1)
    taker = seats.astype(np.int64)
    hands = np.broadcast_to(np.asarray(hand, np.uint8), (n, len(hand)))
    try:
        return complete(rng, hands, taker, players), taker, (n, n)
    except PetitSecError as error:
        raise HandError(str(error)) from None


@dataclass(frozen=True)
class Choice:
    """A contract under a call: the key of the per-sample outcomes (``called`` is ``None``
    below 5 players)."""

    contract: Contract
    called: int | None


def _concatenate(parts: Sequence[_T]) -> _T:
    """One per-sample dataclass from the chunks' (their arrays end to end, in chunk order)."""
    first = parts[0]
    arrays = {
        f.name: None
        if getattr(first, f.name) is None
        else np.concatenate([getattr(p, f.name) for p in parts])
        for f in fields(first)
    }
    return type(first)(**arrays)


@dataclass(frozen=True)
class ContractSamples:
    """Per-sample outcomes of one :class:`Choice`, the poignée hidden and the chelem not
    announced: (N,) ``made``, ``petit`` (the taker's side won the Petit au bout) and ``chelem``
    bool, ``score`` int64 the taker's total, ``chelem_bonus`` int64 the chelem's part of it.
    Where the hand may show a poignée, ``shown_score`` int64 the total with it shown,
    ``shown_bonus`` int64 the poignée's part of that, and ``shown`` bool whether it could be
    shown; else ``None``."""

    made: np.ndarray
    score: np.ndarray
    petit: np.ndarray
    chelem: np.ndarray
    chelem_bonus: np.ndarray
    shown_score: np.ndarray | None = None
    shown_bonus: np.ndarray | None = None
    shown: np.ndarray | None = None


@dataclass(frozen=True)
class AnnouncedSamples:
    """Per-sample outcomes with the chelem announced: (N,) ``score`` int64 the taker's total,
    ``chelem_bonus`` int64 the chelem's part of it, ``chelem`` bool."""

    score: np.ndarray
    chelem_bonus: np.ndarray
    chelem: np.ndarray


@dataclass(frozen=True)
class ChunkOutcomes:
    """What one chunk (or all of them, merged) says of every :class:`Choice`, and the deal
    records when kept."""

    samples: dict[Choice, ContractSamples]
    records: list[dict]
    auction: AuctionSamples
    fitting: tuple[int, int]
    """How many deals fit the bids heard, of how many drawn (all of them without bids)."""

    @staticmethod
    def merge(chunks: Sequence[ChunkOutcomes]) -> ChunkOutcomes:
        return ChunkOutcomes(
            {key: _concatenate([c.samples[key] for c in chunks]) for key in chunks[0].samples},
            [r for chunk in chunks for r in chunk.records],
            _concatenate([c.auction for c in chunks]),
            (sum(c.fitting[0] for c in chunks), sum(c.fitting[1] for c in chunks)),
        )


def _chunk(
    rng: np.random.Generator,
    n: int,
    *,
    hand: tuple[int, ...],
    players: int,
    position: int | None,
    calls: tuple[int | None, ...],
    keep_records: bool,
    bidding: Bidding,
) -> ChunkOutcomes:
    """Every contract under every call on ``n`` samples (see :class:`ContractSamples`), and
    the auction around the user on the same samples."""
    deals, taker, fitting = _sample(rng, n, hand, players, position, bidding)
    n = len(deals)
    policy = GreedyPolicy()
    samples: dict[Choice, ContractSamples] = {}
    dumped: list[dict] = []
    for called in calls:
        for first, _ in PAIRS:
            extra = chien_size(players) if first.takes_chien else 0
            replay = np.full(n, bool(may_show(np.array(hand), players, extra)))
            pair = play_pair(deals, taker, first, policy, rng=rng, called=called, replay=replay)
            if keep_records:
                dumped += _records(pair.hidden, pair.hidden_scores)
                if pair.shown is not None:
                    dumped += _records(pair.shown, pair.shown_scores)
            for contract, scores in pair.hidden_scores.items():
                replayed = pair.shown is not None
                samples[Choice(contract, called)] = ContractSamples(
                    made=scores.made,
                    score=scores.taker_score,
                    petit=scores.petit_au_bout == Side.TAKER,
                    chelem=scores.chelem == Side.TAKER,
                    chelem_bonus=taker_total(pair.hidden, scores.chelem_bonus),
                    shown_score=pair.shown_score(contract) if replayed else None,
                    shown_bonus=pair.shown_bonus(contract) if replayed else None,
                    shown=pair.showed() if replayed else None,
                )
    auction = defended_outcome(deals, taker, bidding.model, policy, rng=rng, heard=bidding.heard)
    return ChunkOutcomes(samples, dumped, auction, fitting)


def _records(playout: Playout, scores: dict[Contract, Scores]) -> list[dict]:
    return [record for s in scores.values() for record in records(playout, s)]


def _announced_chunk(
    rng: np.random.Generator,
    n: int,
    *,
    hand: tuple[int, ...],
    players: int,
    position: int | None,
    choice: Choice,
    bidding: Bidding,
) -> AnnouncedSamples:
    """``choice`` played on the same ``n`` samples as :func:`_chunk`'s (the same stream), the
    chelem announced."""
    deals, taker, _ = _sample(rng, n, hand, players, position, bidding)
    playout = play(
        deals,
        taker,
        choice.contract,
        GreedyPolicy(),
        rng=rng,
        called=choice.called,
        announce_chelem=True,
        taker_poignee=False,
    )
    scores = score(playout)
    return AnnouncedSamples(
        scores.taker_score, taker_total(playout, scores.chelem_bonus), scores.chelem == Side.TAKER
    )


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
) -> Analysis:
    """Analyse ``hand`` (card ids) for ``players`` players; see the module docstring.

    ``position``: 1…n, or ``None`` to average over positions drawn uniformly. ``bids``: the
    bids heard before the user's turn (names of :data:`~.game.BIDS`, from position 1), which
    fix the position and condition the samples; ``others``: how the other players bid
    (:data:`auction.MODELS`). ``jobs`` and
    ``backend`` choose the workers (:func:`parallel.map_chunks`); they never change the
    numbers. ``keep_records`` keeps every playout as a deal record (``Analysis.records``).
    ``on_done`` receives the number of playout batches finished so far, of
    ``2 * ceil(samples / CHUNK)``.
    """
    start = time.perf_counter()
    hand = check_hand(hand, players)
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
    calls: tuple[int | None, ...] = tuple(call_candidates(hand)) if players == 5 else (None,)
    n_chunks = -(-samples // CHUNK)
    progress = (lambda done: on_done(done // CHUNK)) if on_done else None
    common = dict(hand=hand, players=players, position=position, bidding=bidding)
    kwargs = dict(seed=seed, chunk_size=CHUNK, jobs=jobs, backend=backend)
    outcomes = ChunkOutcomes.merge(
        map_chunks(
            _chunk,
            samples,
            **kwargs,
            on_done=progress,
            calls=calls,
            keep_records=keep_records,
            **common,
        )
    )
    by_choice = outcomes.samples

    def best_of(called: int | None) -> tuple[Contract, float]:
        means = {c: float(np.mean(by_choice[Choice(c, called)].score)) for c in Contract}
        best = max(means, key=means.__getitem__)
        return best, means[best]

    call_scores: dict[int, float] = {}
    called = None
    if players == 5:
        for card in calls:
            call_scores[card] = best_of(card)[1]
        called = max(call_scores, key=call_scores.__getitem__)

    contracts = {}
    for c in Contract:
        played = by_choice[Choice(c, called)]
        contracts[c] = ContractResult(
            contract=c,
            p_make=Estimate.of(played.made),
            expected_score=Estimate.of(played.score),
            p_petit_au_bout=float(np.mean(played.petit)),
            p_chelem=float(np.mean(played.chelem)),
        )
    n_samples = len(outcomes.auction.defended)
    auction = evaluate(
        outcomes.auction,
        {c: by_choice[Choice(c, called)].score for c in Contract},
        bidding.heard,
        bidding.model.label,
        None if bidding.heard is None else outcomes.fitting[0] / outcomes.fitting[1],
    )
    recommendation = auction.recommendation
    best = Contract(recommendation) if recommendation != "pass" else best_of(called)[0]
    # Prise and Garde are always equally likely: of two equally safe contracts, the better pays.
    likeliest = max(
        Contract, key=lambda c: (contracts[c].p_make.mean, contracts[c].expected_score.mean)
    )
    safest = None
    if contracts[likeliest].p_make.mean > 0.5 and likeliest.value != recommendation:
        safest = likeliest.value
    judged = by_choice[Choice(best, called)]  # the poignée and the chelem: the best contract
    poignees = {c: _poignee_advice(by_choice[Choice(c, called)], hand, players) for c in Contract}
    if on_done:
        on_done(n_chunks)
    announced = _concatenate(
        map_chunks(_announced_chunk, samples, **kwargs, choice=Choice(best, called), **common)
    )
    gain = announced.score - judged.score
    bonus = announced.chelem_bonus - judged.chelem_bonus
    expected_gain = Estimate.of(gain)
    chelem = ChelemAdvice(
        recommended=recommendation != "pass" and expected_gain.mean > 0,
        p_chelem=float(np.mean(announced.chelem)),
        expected_gain=expected_gain,
        bonus=Estimate.of(bonus),
        lead=Estimate.of(gain - bonus),
    )
    if on_done:
        on_done(2 * n_chunks)
    return Analysis(
        hand=hand,
        players=players,
        position=position,
        samples=n_samples,
        seed=seed,
        point_count=point_count(hand),
        contracts=contracts,
        recommendation=recommendation,
        safest=safest,
        poignee=poignees[best],
        chelem=chelem,
        called=called,
        call_scores=call_scores,
        auction=auction,
        poignees=poignees,
        seconds=time.perf_counter() - start,
        records=outcomes.records if keep_records else None,
    )


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
