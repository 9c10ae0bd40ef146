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
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from . import bitboard as bb
from .calling import callable_rank
from .cards import EXCUSE, IS_TRUMP, format_card, sort_cards, suited
from .deal import Deals, PetitSecError, complete
from .engine import Playout, play
from .game import Contract, check_players, chien_size, hand_size, poignee_thresholds
from .greedy import GreedyPolicy
from .heuristic import PointCount, point_count
from .parallel import DEFAULT_SEED, map_chunks
from .rules import is_petit_sec
from .scoring import PAIRS, Scores, records, score
from .stats import Estimate

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_SAMPLES = 2000
CHUNK = 5000
"""Samples per chunk: each chunk is one vectorised batch and one random stream."""

POIGNEE_NAMES = ("simple", "double", "triple")


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
    """Mean taker's score shown minus hidden: the bonus to the winner and what the shown
    trumps tell the defence."""


@dataclass(frozen=True)
class ChelemAdvice:
    """Whether to announce a chelem, under the recommended contract."""

    recommended: bool
    p_chelem: float
    """Probability of making the chelem when announced (the taker leads the first trick)."""
    expected_gain: Estimate
    """Mean taker's score announced minus not announced."""


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
    chelem: ChelemAdvice
    called: int | None
    """5 players: the card to call (a king the hand lacks, or its own to play alone)."""
    call_scores: dict[int, float] = field(default_factory=dict)
    """5 players: each callable card → the best expected score when calling it."""
    seconds: float = 0.0
    records: list[dict] | None = None

    @property
    def heuristic_agrees(self) -> bool:
        return self.point_count.bid == self.recommendation

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
            },
            "chelem": {
                "recommended": self.chelem.recommended,
                "p_chelem": self.chelem.p_chelem,
                "expected_gain": self.chelem.expected_gain.mean,
                "expected_gain_se": self.chelem.expected_gain.se,
            },
            "recommendation": self.recommendation,
            "safest": self.safest,
            "heuristic_agrees": self.heuristic_agrees,
            "called": None if self.called is None else format_card(self.called),
            "call_scores": {format_card(c): s for c, s in self.call_scores.items()},
            "seconds": round(self.seconds, 3),
        }


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


def _sample(
    rng: np.random.Generator, n: int, hand: tuple[int, ...], players: int, position: int | None
) -> tuple[Deals, np.ndarray]:
    """``n`` completions of ``hand`` with the hand at the taker's seat, and the seats (N,)."""
    seats = rng.integers(0, players, n) if position is None else np.full(n, position - 1)
    taker = seats.astype(np.int64)
    hands = np.broadcast_to(np.asarray(hand, np.uint8), (n, len(hand)))
    try:
        return complete(rng, hands, taker, players), taker
    except PetitSecError as error:
        raise HandError(str(error)) from None


def _may_show(hand: tuple[int, ...], players: int, takes_chien: bool) -> bool:
    """Whether a poignée can possibly be shown: enough trumps (and Excuse) in hand, counting
    what the chien might bring for Prise and Garde."""
    count = sum(1 for c in hand if IS_TRUMP[c] or c == EXCUSE)
    extra = chien_size(players) if takes_chien else 0
    return count + extra >= poignee_thresholds(players)[0]


def _chunk(
    rng: np.random.Generator,
    n: int,
    *,
    hand: tuple[int, ...],
    players: int,
    position: int | None,
    calls: tuple[int | None, ...],
    announce: tuple[int | None, Contract] | None,
    keep_records: bool,
) -> dict[str, np.ndarray | list]:
    """Per-sample outcomes of one chunk: for each call and contract, ``made``, ``score``,
    ``petit``, ``chelem``, ``score_shown``, ``shown``; with ``announce`` (call, contract) the
    scores of the announced chelem instead."""
    deals, taker = _sample(rng, n, hand, players, position)
    policy = GreedyPolicy()
    out: dict[str, np.ndarray | list] = {}
    dumped: list[dict] = []

    def run(contract: Contract, called: int | None, **options) -> tuple[Playout, list[Scores]]:
        playout = play(deals, taker, contract, policy, rng=rng, called=called, **options)
        pair = next(p for p in PAIRS if contract in p)
        both = [score(playout, c) for c in pair]
        if keep_records:
            for scores in both:
                dumped.extend(records(playout, scores))
        return playout, both

    for called in calls:
        tag = "" if called is None else f"@{called}"
        if announce is not None:
            if announce[0] == called:
                _, both = run(announce[1], called, announce_chelem=True, taker_poignee=False)
                (scores,) = [s for s in both if s.contract == announce[1]]
                out[f"announced{tag}"] = scores.taker_score
                out[f"announced_chelem{tag}"] = scores.chelem == 1
            continue
        for first, _ in PAIRS:
            _, hidden = run(first, called, taker_poignee=False)
            shown = None
            if _may_show(hand, players, first.takes_chien):
                shown_playout, shown = run(first, called, taker_poignee=True)
                can_show = shown_playout.shown_hi[taker, np.arange(n)] != bb.ZERO
            for i, scores in enumerate(hidden):
                key = f"{scores.contract.value}{tag}"
                out[f"made:{key}"] = scores.made
                out[f"score:{key}"] = scores.taker_score
                out[f"petit:{key}"] = scores.petit_au_bout == 1
                out[f"chelem:{key}"] = scores.chelem == 1
                if shown is not None:
                    out[f"shown_score:{key}"] = shown[i].taker_score
                    out[f"shown:{key}"] = can_show
    if keep_records:
        out["records"] = dumped
    return out


def _merge(chunks: list[dict]) -> dict[str, np.ndarray | list]:
    merged: dict[str, np.ndarray | list] = {}
    for key in chunks[0]:
        if key == "records":
            merged[key] = [r for chunk in chunks for r in chunk[key]]
        else:
            merged[key] = np.concatenate([chunk[key] for chunk in chunks])
    return merged


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
) -> Analysis:
    """Analyse ``hand`` (card ids) for ``players`` players; see the module docstring.

    ``position``: 1…n, or ``None`` to average over positions drawn uniformly. ``jobs`` and
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
    calls: tuple[int | None, ...] = tuple(call_candidates(hand)) if players == 5 else (None,)
    n_chunks = -(-samples // CHUNK)
    progress = (lambda done: on_done(done // CHUNK)) if on_done else None
    common = dict(hand=hand, players=players, position=position, calls=calls)
    kwargs = dict(seed=seed, chunk_size=CHUNK, jobs=jobs, backend=backend)
    outcomes = _merge(
        map_chunks(
            _chunk,
            samples,
            **kwargs,
            on_done=progress,
            announce=None,
            keep_records=keep_records,
            **common,
        )
    )

    def best_of(tag: str) -> tuple[Contract, float]:
        means = {c: float(np.mean(outcomes[f"score:{c.value}{tag}"])) for c in Contract}
        best = max(means, key=means.__getitem__)
        return best, means[best]

    call_scores: dict[int, float] = {}
    called = None
    if players == 5:
        for card in calls:
            call_scores[card] = best_of(f"@{card}")[1]
        called = max(call_scores, key=call_scores.__getitem__)
    tag = "" if called is None else f"@{called}"

    contracts = {
        c: ContractResult(
            contract=c,
            p_make=Estimate.of(outcomes[f"made:{c.value}{tag}"]),
            expected_score=Estimate.of(outcomes[f"score:{c.value}{tag}"]),
            p_petit_au_bout=float(np.mean(outcomes[f"petit:{c.value}{tag}"])),
            p_chelem=float(np.mean(outcomes[f"chelem:{c.value}{tag}"])),
        )
        for c in Contract
    }
    best, best_score = best_of(tag)
    recommendation = best.value if best_score > 0 else "pass"
    # Prise and Garde are always equally likely: of two equally safe contracts, the better pays.
    likeliest = max(
        Contract, key=lambda c: (contracts[c].p_make.mean, contracts[c].expected_score.mean)
    )
    safest = None
    if contracts[likeliest].p_make.mean > 0.5 and likeliest.value != recommendation:
        safest = likeliest.value
    judged = best  # the poignée and the chelem are judged under the best contract

    poignee = _poignee_advice(outcomes, hand, players, judged, tag)
    if on_done:
        on_done(n_chunks)
    announced = _merge(
        map_chunks(
            _chunk,
            samples,
            **kwargs,
            announce=(called, judged),
            keep_records=False,
            **common,
        )
    )
    gain = Estimate.of(announced[f"announced{tag}"] - outcomes[f"score:{judged.value}{tag}"])
    chelem = ChelemAdvice(
        recommended=recommendation != "pass" and gain.mean > 0,
        p_chelem=float(np.mean(announced[f"announced_chelem{tag}"])),
        expected_gain=gain,
    )
    if on_done:
        on_done(2 * n_chunks)
    return Analysis(
        hand=hand,
        players=players,
        position=position,
        samples=samples,
        seed=seed,
        point_count=point_count(hand),
        contracts=contracts,
        recommendation=recommendation,
        safest=safest,
        poignee=poignee,
        chelem=chelem,
        called=called,
        call_scores=call_scores,
        seconds=time.perf_counter() - start,
        records=outcomes.get("records") if keep_records else None,
    )


def _poignee_advice(
    outcomes: dict, hand: tuple[int, ...], players: int, contract: Contract, tag: str
) -> PoigneeAdvice:
    key = f"{contract.value}{tag}"
    count = sum(1 for c in hand if IS_TRUMP[c] or c == EXCUSE)
    thresholds = poignee_thresholds(players)
    reached = [name for name, t in zip(POIGNEE_NAMES, thresholds, strict=True) if count >= t]
    size = reached[-1] if reached else None
    if f"shown_score:{key}" not in outcomes:
        return PoigneeAdvice(False, 0.0, None, False, Estimate(0.0, 0.0))
    gain = Estimate.of(outcomes[f"shown_score:{key}"] - outcomes[f"score:{key}"])
    p_eligible = float(np.mean(outcomes[f"shown:{key}"]))
    eligible = p_eligible > 0
    return PoigneeAdvice(
        eligible=eligible,
        p_eligible=p_eligible,
        size=size,
        recommended=eligible and gain.mean > 0,
        expected_gain=gain,
    )
